"""A storyteller reads a Storytelling card aloud: PocketSphinx (free speech) hears it and
nlp.cards tells which card it is. tests/benchmarks/bench_cards.py does every card."""
from __future__ import annotations

import pytest

from host.storage.decks import load_tale
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from nlp.cards import CardIdentifier
from tests.speech.audio import FESTIVAL, read_pcm, stream

pytestmark = pytest.mark.slow

ESPEAK = "espeak:en-us"
READ = {"saint-george": (3, 12), "cinderella": (4, 8)}  # cards that share pictures and words with others


@pytest.fixture(scope="module")
def recognizer() -> PocketSphinxRecognizer:
    return PocketSphinxRecognizer()


def hear(recognizer: PocketSphinxRecognizer, identifier: CardIdentifier, pcm: bytes):
    """The guess after each hypothesis, from all final hypotheses so far and the current one."""
    recognizer.reset()
    done: list[str] = []
    guesses = []
    for _, hypothesis in stream(recognizer, pcm):
        guesses.append(identifier.identify(" ".join([*done, hypothesis.text])))
        if hypothesis.final:
            done.append(hypothesis.text)
    return guesses, " ".join(done)


@pytest.mark.parametrize("voice", [FESTIVAL, ESPEAK])
@pytest.mark.parametrize("key", READ)
def test_a_card_read_aloud_is_identified_and_no_other_card_is_ever_sure(recognizer, synthesize, voice, key):
    tale = load_tale(key)
    identifier = CardIdentifier({card.number: card.text for card in tale.cards})
    for number in READ[key]:
        pcm = read_pcm(synthesize(tale.cards[number - 1].text, voice=voice))
        guesses, heard = hear(recognizer, identifier, pcm)
        final = identifier.identify(heard)
        assert final is not None and final.number == number, (number, heard, final)
        assert all(g.number == number for g in guesses if identifier.sure(g)), (number, heard)
        if voice == FESTIVAL:  # PocketSphinx mishears espeak-ng too much to be sure of most cards
            assert identifier.sure(final), (number, heard, final)
