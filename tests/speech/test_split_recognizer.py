"""The default recognizer: Whisper for free speech, PocketSphinx for phrase lists (each
utterance also decoded whole by Whisper), one clock; real recognizers on festival speech
streamed in 30 ms chunks."""
from __future__ import annotations

import pytest

from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.speech.recognizer import UnknownWords
from host.speech.registry import open_recognizer
from host.speech.split_recognizer import SplitRecognizer
from host.speech.whisper_recognizer import WhisperRecognizer
from nlp.commands import SPELLING_ALPHABET
from tests.speech.audio import KAL, PIPER, chunks, finals, read_pcm, seconds, speech_spans, stream

pytestmark = pytest.mark.slow

STORY = ["We watched the polar bears in the snow.", "Then we flew home to Canada."]
COMMANDS = ["next card", "question Sabine", "skip"]


@pytest.fixture(scope="module")
def recognizer(no_vosk_model_module) -> SplitRecognizer:
    recognizer = open_recognizer()
    assert isinstance(recognizer, SplitRecognizer)
    assert isinstance(recognizer.free, WhisperRecognizer) and isinstance(recognizer.grammar, PocketSphinxRecognizer)
    return recognizer


@pytest.fixture(scope="module")
def no_vosk_model_module():
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("VOSK_MODEL_PATH", raising=False)
        patch.setenv("STORYHOST_DATA_DIR", "/nonexistent/storyhost-test")  # no downloaded model either
        yield


@pytest.fixture(autouse=True)
def fresh(recognizer: SplitRecognizer):
    recognizer.set_phrases(None)
    recognizer.reset()


@pytest.fixture(scope="module")
def story(synthesize) -> bytes:
    return read_pcm(synthesize(STORY))


@pytest.fixture(scope="module")
def command(synthesize) -> bytes:
    return read_pcm(synthesize("Next card."))


def test_free_speech_is_heard_by_whisper(recognizer, story):
    """Whisper writes what it hears with capitals and punctuation; PocketSphinx never does."""
    heard = " ".join(h.text for h in finals(stream(recognizer, story)))
    assert "Canada" in heard and "polar bears" in heard
    assert any(mark in heard for mark in ".,")


def test_a_phrase_list_is_heard_by_the_grammar_recognizer_on_the_same_clock(recognizer, story, command):
    story_finals = finals(stream(recognizer, story))
    assert story_finals[-1].words[-1].end <= seconds(story)
    recognizer.set_phrases(COMMANDS)
    [heard] = finals(stream(recognizer, command))
    # PocketSphinx's grammar cut the utterance; Whisper wrote it down, decoded whole
    assert heard.text == "next card" and heard.loose == "Next card."
    # the command's words lie after the story's audio: stream time, not the grammar recognizer's own
    assert seconds(story) < heard.words[0].start < heard.words[-1].end <= seconds(story) + seconds(command)
    recognizer.set_phrases(None)
    heard_again = stream(recognizer, story)
    again = finals(heard_again)
    offset = seconds(story) + seconds(command)
    assert again[0].words[0].start == pytest.approx(story_finals[0].words[0].start + offset, abs=0.3)
    ahead = [word for _, hypothesis in heard_again for word in hypothesis.lookahead]  # Whisper's, in stream time too
    assert ahead and all(offset < word.start <= word.end <= offset + seconds(story) for word in ahead)


def test_switching_to_phrases_mid_story_closes_whispers_utterance(recognizer, story):
    start, end = speech_spans(story)[0]
    cut = int((start + 0.8 * (end - start)) * recognizer.sample_rate) * 2  # in "polar bears in the snow"
    heard = [h for chunk in chunks(story[:cut]) for h in recognizer.accept(chunk)]
    assert not any(h.final for h in heard)
    recognizer.set_phrases(COMMANDS)
    closed = recognizer.accept(b"")
    assert closed and closed[-1].final and "We watched the polar" in closed[-1].text
    assert all(w.end <= seconds(story[:cut]) + 0.01 for h in closed for w in h.words)


def test_words_are_known_by_the_grammar_recognizer(recognizer):
    """Whisper can spell any word; a phrase list needs it in PocketSphinx's dictionary."""
    assert recognizer.knows("sabine") and not recognizer.knows("xqzzyv")
    assert recognizer.free.knows("xqzzyv")


def test_a_refused_phrase_list_changes_nothing(recognizer, story):
    with pytest.raises(UnknownWords, match="xqzzyv"):
        recognizer.set_phrases(["next card", "xqzzyv"])
    heard = " ".join(h.text for h in finals(stream(recognizer, story)))
    assert "Canada" in heard  # still Whisper


def test_reset_restarts_the_clock(recognizer, story):
    once = finals(stream(recognizer, story))
    recognizer.reset()
    again = finals(stream(recognizer, story))
    assert again[0].words[0].start == pytest.approx(once[0].words[0].start, abs=0.1)


def test_under_a_phrase_list_whisper_hears_what_the_grammar_matched_nothing_to(recognizer, story):
    """An utterance the grammar cannot fit still closes, with what Whisper heard in it."""
    recognizer.set_phrases(COMMANDS)
    heard = finals(stream(recognizer, story))
    assert heard and all(h.loose is not None for h in heard)
    assert "polar bears" in " ".join(h.loose or "" for h in heard)


def test_under_a_phrase_list_the_grammars_answer_is_the_phrase_whisper_finds_likeliest(recognizer, synthesize):
    """Piper's joe says "d one": Whisper held to each phrase finds it likeliest, where
    PocketSphinx's grammar heard "b one" and Whisper's free words are no phrase at all
    (tests/benchmarks/bench_commands.py)."""
    grid = [f"{way} {number}" for letter in "abcd" for way in (letter, SPELLING_ALPHABET[letter])
            for number in ("one", "two", "three", "four")]
    recognizer.set_phrases(grid)
    [heard] = finals(stream(recognizer, read_pcm(synthesize("d one", voice=PIPER))))
    assert heard.text == "d one" and heard.loose
    assert 0 < heard.words[0].confidence <= 1 and heard.words[0].start < heard.words[-1].end


def test_a_phrase_both_grammars_hear_is_vouched_for(recognizer, synthesize):
    """festival's kal says "shown": PocketSphinx's grammar and Whisper held to the phrases agree,
    while Whisper's free words are "Shall we?" (tests/benchmarks/bench_commands.py). Festival,
    not Piper: Piper's synthesis is random, and a lone word's likelihood with it."""
    recognizer.set_phrases(["shown", "what is the score", "stop the game", "help", "what can i say", "undo"])
    [heard] = finals(stream(recognizer, read_pcm(synthesize("shown", voice=KAL))))
    assert heard.text == "shown" and heard.vouched
