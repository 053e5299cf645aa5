"""The spoken-command dialog over real engines, fed the hypotheses a recognizer would give."""
from __future__ import annotations

import random
from dataclasses import asdict

import pytest

from games.base import Action, Match
from games.language import speaking
from host.adapters.base import adapter_for
from host.cli import transcribe
from host.cli.catalog import games, make
from host.storage.catalogs import translations
from host.storage.decks import load_described_deck, load_opening_cards, load_tale
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.speech.recognizer import Hypothesis
from host.voice.control import Command, HostRequest, VoiceControl
from host.voice.phrases import Names, phrases
from nlp.commands import BY_FREE_WORDS, BY_GRAMMAR, BY_WHISPERS_GRAMMAR, Deciding
from nlp.ticks import HeardWord

from tests.games import test_stories
from tests.games.playout import random_move

PLAYERS = ["Nina", "Leo", "Marc", "Sabine"]


def heard(grammar: str, loose: str | None = None) -> Hypothesis:
    return Hypothesis(tuple(HeardWord(word) for word in grammar.split()), True, loose=grammar if loose is None else loose)


def settings(game: str, seed: int = 1) -> dict:
    if game == "dixit":
        return {"players": PLAYERS, "contando": False, "deck_size": 32}
    if game == "stories":
        cards = [asdict(card) for card in load_opening_cards(None)]
        return {"players": PLAYERS[:3], "seed": seed, "timer_seconds": 60, "cards": cards}
    return {"players": PLAYERS[:2], "seed": seed, "tale": asdict(load_tale("three-pigs")), "advanced": True,
            "clock_steps": 12, "track_length": 16, "storyteller": "host"}


def match(game: str) -> Match:
    return Match(make(game, settings(game)))


class Voice:
    """A VoiceControl with its replies collected."""

    def __init__(self, game: str, prefix: str | None = None, brief: bool = False, deciding: Deciding = BY_GRAMMAR) -> None:
        self.said: list[str] = []
        self.control = VoiceControl(Names({}), self.said.append, adapter_for(game), prefix, brief=lambda: brief,
                                    deciding=deciding)

    def hear(self, state, grammar: str, loose: str | None = None) -> list[Command]:
        return self.control.hear(state, heard(grammar, loose))


def fill(choice, rng: random.Random) -> str:
    return rng.choice(test_stories.WORDS)


def playout_factory(game: str, seed: int):
    """Random play needs terms the rules accept: Stories! plays with the engine tests' plain rules."""
    if game == "stories":
        return lambda: test_stories.stories(PLAYERS[:3], seed=seed)
    return make(game, settings(game, seed))


@pytest.mark.parametrize("game", sorted(games()))
def test_every_phrase_of_every_state_is_in_the_recognizers_dictionary(game: str) -> None:
    """set_phrases refuses unknown words: a phrase it cannot hear would stop a voice game."""
    recognizer = PocketSphinxRecognizer()
    names = Names({})
    seen: set[str] = set()
    for seed in range(3):
        rng, state = random.Random(seed), playout_factory(game, seed)()
        for _ in range(400):
            new = [phrase.words for phrase in phrases(state, names, adapter_for(game)) if phrase.words not in seen]
            if new:
                recognizer.set_phrases(new)
                seen.update(new)
            if state.is_over():
                break
            random_move(state, rng, fill, state.apply)
    assert len(seen) > 20


def test_no_phrase_ever_names_a_secret_term() -> None:
    state = match("stories").state
    for line in ["side Nina normal", *[f"term Leo {t}" for t in ("walrus", "igloo", "kayak", "sled", "whale")],
                 *[f"term Marc {t}" for t in ("penguin", "glacier", "seal", "harpoon", "aurora")], "start"]:
        state.apply(state.parse(line))
    secret = {"walrus", "igloo", "kayak", "sled", "whale", "penguin", "glacier", "seal", "harpoon", "aurora"}
    for _ in range(2):
        said = {word for phrase in phrases(state, Names({}), adapter_for("stories")) for word in phrase.words.split()}
        assert not said & secret
        if state.view(None).phase == "narration":
            state.apply(Action("timeup"))


def test_a_sure_phrase_runs_at_once() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    assert voice.hear(state, "leo is the storyteller") == [Action("storyteller", "Leo")]
    assert voice.said == []


def test_a_doubtful_phrase_is_asked_about_and_runs_only_on_yes() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    assert voice.hear(state, "leo is the storyteller", "the storyteller") == []
    assert "Did you say: leo is the storyteller?" in voice.said[-1]
    grammar = voice.control.grammar(state)
    assert grammar[:7] == ["yes", "yes please", "correct", "right", "no", "cancel", "wrong"]
    assert "nina is the storyteller" in grammar  # another command may be said instead
    assert voice.hear(state, "yes") == [Action("storyteller", "Leo")]
    assert voice.hear(state, "leo is the storyteller", "the storyteller") == []
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Cancelled."


def test_a_sure_command_instead_of_yes_or_no_counts_as_no_and_is_heard() -> None:
    """Asked about table talk, the player just goes on with the game."""
    state, voice = match("dixit").state, Voice("dixit")
    voice.hear(state, "leo is the storyteller", "the storyteller")
    assert voice.hear(state, "nina is the storyteller") == [Action("storyteller", "Nina")]
    assert voice.control.question is None
    voice.hear(state, "undo")
    assert voice.hear(state, "quit") == [] and voice.said[-1] == "Did you say: quit? Say yes or no."
    assert voice.hear(state, "yes") == [HostRequest("quit")]


def test_a_doubtful_command_instead_of_yes_or_no_is_asked_for_again() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    voice.hear(state, "undo")
    assert voice.hear(state, "nina is the storyteller", "nina is a story") == []
    assert voice.said[-1] == "Please say yes or no: undo?"
    assert voice.hear(state, "yes") == [HostRequest("undo")]


def test_what_cannot_be_taken_back_is_asked_even_when_sure() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    assert voice.hear(state, "undo") == []
    assert voice.hear(state, "correct") == [HostRequest("undo")]


def test_an_unclear_answer_is_asked_again_then_cancelled() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    voice.hear(state, "quit")
    for _ in range(2):
        assert voice.hear(state, "yes", "the wolf went home") == []
        assert voice.said[-1].startswith("Please say yes or no")
    assert voice.hear(state, "no", "once upon a time") == [] and voice.said[-1] == "Cancelled."
    assert voice.control.question is None


def test_where_the_free_words_choose_a_grammars_answer_they_do_not_fit_is_no_answer() -> None:
    """As espeak-ng's Catalan "no", which Whisper wrote "L'or." and, held to the phrases, weighed
    as "d'acord" (yes): free words that fit no phrase leave only the grammar to vouch for the
    answer, and a wrong yes would take the command."""
    state, voice = match("dixit").state, Voice("dixit", deciding=BY_FREE_WORDS)
    voice.hear(state, "quit", "Quit.")
    assert voice.control.question is not None
    assert voice.hear(state, "yes", "Mmm.") == [] and voice.said[-1].startswith("Please say yes or no")
    assert voice.hear(state, "yes", "Yes.") == [HostRequest("quit")]


def test_a_vouched_phrase_is_asked_about_but_a_vouched_answer_still_needs_fitting_free_words() -> None:
    """Two grammars heard "quit" where Whisper's free words heard no phrase: the host asks, as it
    would not for one grammar alone; a yes is still taken only from free words that fit it."""
    state, voice = match("dixit").state, Voice("dixit", deciding=BY_WHISPERS_GRAMMAR)
    assert voice.hear(state, "quit", "Hit for him.") == [] and voice.control.question is None
    assert voice.said[-1].startswith("Sorry")
    vouched = Hypothesis((HeardWord("quit"),), True, loose="Hit for him.", vouched=True)
    assert voice.control.hear(state, vouched) == [] and voice.control.question is not None
    assert voice.said[-1] == "Did you say: quit? Say yes or no."
    listened = {"quit": "quit", "score": "score"}
    assert transcribe.decision(vouched, listened, BY_WHISPERS_GRAMMAR).startswith("quit: asked about first")
    answer = Hypothesis((HeardWord("yes"),), True, loose="Mmm.", vouched=True)
    assert voice.control.hear(state, answer) == [] and voice.said[-1].startswith("Please say yes or no")
    assert voice.hear(state, "yes", "Yes.") == [HostRequest("quit")]


def test_speech_that_is_no_phrase_gets_a_short_reprompt() -> None:
    state, voice = match("dixit").state, Voice("dixit", brief=True)
    assert voice.hear(state, "score", "and then the dragon ate the knight") == []
    assert voice.said == ["Sorry?"]


def test_the_clue_is_whatever_the_storyteller_says_next() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    state.apply(Action("storyteller", "Leo"))
    assert voice.control.grammar(state) is None  # free speech: the clue
    assert voice.hear(state, "a long journey home") == []
    assert "I heard: a long journey home" in voice.said[-1]
    assert voice.hear(state, "yes") == [Action("clue", None, ("a long journey home",))]


def test_host_commands_during_free_speech_need_the_prefix_word() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    state.apply(Action("storyteller", "Leo"))
    assert voice.hear(state, "host score") == [HostRequest("score")]


def test_a_prefix_word_misheard_by_free_recognition_still_counts_before_a_sure_phrase() -> None:
    """Festival's "host read card one" comes out of free recognition as "hester end card one"."""
    state, voice = match("storytelling").state, Voice("storytelling")
    assert voice.control.is_aside(state, heard("hester end card one"))
    assert voice.control.aside(state, heard("hester end card one")) == []
    assert voice.said[-1] == "Did you say: read card one? Say yes or no."
    for story in ("the end card one", "his brother ate a sandwich", "has to go home"):
        assert not voice.control.is_aside(state, heard(story)), story


def test_the_prefix_word_is_the_tables_word_for_host() -> None:
    """A Spanish table calls the host "anfitrión" during a story, as its rules say."""
    state = match("dixit").state
    state.apply(Action("storyteller", "Leo"))
    with speaking(translations("es")):
        said: list[str] = []
        control = VoiceControl(Names({}), said.append, adapter_for("dixit"), language="es")
        assert control.hear(state, heard("Anfitrión, puntuación.")) == [HostRequest("score")]
        assert not control.is_aside(state, heard("Host, puntuación."))  # English's word is a story's


def test_a_games_own_spoken_lines_are_in_the_tables_words() -> None:
    """A row of the grid, asked for in Spanish: "cuadrícula fila dos", not "grid row two"."""
    state = match("storytelling").state
    with speaking(translations("es")):
        control = VoiceControl(Names({}), [].append, adapter_for("storytelling"), language="es")
        assert "cuadricula fila dos" in (control.grammar(state) or [])
        assert control.hear(state, heard("cuadricula fila dos", "Cuadrícula, fila dos.")) == [HostRequest("grid", "row 2")]


def test_with_a_prefix_word_only_prefixed_phrases_are_listened_for() -> None:
    state, voice = match("dixit").state, Voice("dixit", prefix="host")
    assert all(words.startswith("host ") for words in voice.control.grammar(state))
    assert voice.hear(state, "host leo is the storyteller") == [Action("storyteller", "Leo")]


def test_what_can_i_say_lists_one_example_per_command() -> None:
    state, voice = match("storytelling").state, Voice("storytelling")
    assert voice.hear(state, "what can i say") == []
    listed = voice.said[-1]
    assert listed.startswith("You can say: flip a one") and "repeat" in listed and "undo" in listed
    assert listed.count("flip") == 1


def test_a_dictated_tick_names_the_players_own_term() -> None:
    state = match("stories").state
    for line in ["side Nina normal", *[f"term Leo {t}" for t in ("walrus", "igloo", "kayak", "sled", "whale")],
                 *[f"term Marc {t}" for t in ("penguin", "glacier", "seal", "harpoon", "aurora")], "start", "timeup"]:
        state.apply(state.parse(line))
    stories = adapter_for("stories")
    assert stories.resolve(state, "tick Leo the walruses") == "tick Leo walrus"
    assert stories.resolve(state, "tick Leo zzz") == "tick Leo zzz"  # nothing near: the engine explains
    voice = Voice("stories")
    assert voice.hear(state, "leo ticks a term") == []
    assert voice.hear(state, "walrus") == []
    assert voice.hear(state, "yes") == [Action("tick", "Leo", ("walrus",))]


def test_punctuated_free_speech_from_whisper_is_a_prefixed_command_or_a_plain_dictation() -> None:
    """Whisper, the free-speech recognizer, writes "Host, score." and ends a clue with a full stop."""
    state, voice = match("dixit").state, Voice("dixit")
    state.apply(Action("storyteller", "Leo"))
    assert voice.control.is_aside(state, heard("Host, score."))
    assert voice.hear(state, "A long journey home.") == []
    assert voice.said[-1] == "I heard: A long journey home. Is that right? Say yes or no."
    assert voice.hear(state, "yes") == [Action("clue", None, ("A long journey home",))]


def test_a_clue_said_after_its_command_word_in_one_breath_is_the_words_after_it() -> None:
    """Told "say 'clue' and your sentence", a player says both at once."""
    state, voice = match("dixit").state, Voice("dixit")
    state.apply(Action("storyteller", "Leo"))
    assert voice.hear(state, "Clue, a long journey home.") == []
    assert voice.said[-1] == "I heard: a long journey home. Is that right? Say yes or no."
    assert voice.hear(state, "yes") == [Action("clue", None, ("a long journey home",))]


def test_a_clues_command_word_said_alone_is_no_clue_but_the_start_of_one() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    state.apply(Action("storyteller", "Leo"))
    assert voice.hear(state, "Clue.") == []
    assert voice.said[-1] == "The clue is: say it now."
    assert voice.hear(state, "A long journey home.") == []
    assert voice.hear(state, "yes") == [Action("clue", None, ("A long journey home",))]


def test_a_host_command_said_is_a_request_with_its_words_not_a_line_to_parse() -> None:
    state, voice = match("dixit").state, Voice("dixit")
    assert voice.hear(state, "speak slower") == [HostRequest("rate", "slower")]
    assert voice.hear(state, "be brief") == [HostRequest("verbosity", "brief")]



def test_a_position_can_be_said_with_the_spelling_alphabet_and_is_then_taken_at_once() -> None:
    state, voice = match("storytelling").state, Voice("storytelling")
    grammar = voice.control.grammar(state)
    assert {"flip b three", "b three", "flip bravo three", "bravo three", "x ray three"} - set(grammar) == {"x ray three"}
    assert voice.hear(state, "flip bravo three", "Flip bravo 3.") == [Action("flip", None, ("B3",))]


def test_a_position_with_a_rhyming_letter_is_asked_about_with_the_spelling_alphabet() -> None:
    """"b three" and "d three" sound alike to any recognizer and any listener."""
    state, voice = match("storytelling").state, Voice("storytelling")
    assert voice.hear(state, "flip b three", "Flip B3.") == []
    assert voice.said[-1] == "Did you say: flip bravo three? Say yes or no."
    assert voice.hear(state, "yes") == [Action("flip", None, ("B3",))]
    assert voice.hear(state, "flip a three", "Flip A3.") == [Action("flip", None, ("A3",))]  # A rhymes with none


def test_on_no_the_phrase_that_made_the_question_doubtful_is_asked_about_in_turn_once() -> None:
    """The grammar heard "flip b three", the free words "Flip D3.": told "no" about bravo, the host
    asks about delta (a player repeating it would be misheard the same way); a second "no" cancels."""
    state, voice = match("storytelling").state, Voice("storytelling")
    assert voice.hear(state, "flip b three", "Flip D3.") == []
    assert voice.said[-1] == "Did you say: flip bravo three? Say yes or no."
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Did you say: flip delta three? Say yes or no."
    assert voice.hear(state, "yes") == [Action("flip", None, ("D3",))]
    voice.hear(state, "flip b three", "Flip D3.")
    voice.hear(state, "no")
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Cancelled." and voice.control.question is None


def test_on_no_to_a_rhyme_the_letter_whose_name_begins_most_alike_is_asked_about() -> None:
    """Both passes heard "b three": "c three" and "d three" rhyme with it, and the free words fit
    both alike; "dee" begins as "bee" does but for the place ("see" differs in all three)."""
    state, voice = match("storytelling").state, Voice("storytelling")
    voice.hear(state, "flip b three", "Flip B3.")
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Did you say: flip delta three? Say yes or no."


def test_on_no_to_a_rhyme_nothing_else_is_asked_when_two_rhymes_are_as_likely() -> None:
    """"grid column e": "bee", "see", "dee" and "gee" each begin with a consonant E's name lacks."""
    state, voice = match("storytelling").state, Voice("storytelling")
    assert voice.hear(state, "grid column e", "Grid column E.") == []
    assert voice.said[-1] == "Did you say: grid column e? Say yes or no."
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Cancelled."


def test_on_no_the_phrase_the_grammar_heard_is_asked_about() -> None:
    """The free words chose "Leo voted four" where the grammar heard "leo voted for": the other
    vote the grammar heard is what was said if the chosen one was not."""
    state, voice = match("dixit").state, Voice("dixit", deciding=BY_FREE_WORDS)
    for line in ["storyteller Nina", "clue far away", "shown"]:
        state.apply(state.parse(line))
    assert voice.hear(state, "leo voted two", "Leo voted 4.") == []
    assert voice.said[-1] == "Did you say: leo voted four? Say yes or no."
    assert voice.hear(state, "no") == [] and voice.said[-1] == "Did you say: leo voted two? Say yes or no."
    assert voice.hear(state, "yes") == [Action("vote", "Leo", ("2",))]


def test_whispers_grammar_chooses_the_position_and_a_rhyme_is_asked_about() -> None:
    """Piper's joe said "c one": Whisper held to each phrase found "c one" likeliest, and its free
    words were "T1" (tests/benchmarks/bench_commands.py)."""
    state = match("storytelling").state
    voice = Voice("storytelling", deciding=BY_WHISPERS_GRAMMAR)
    assert voice.hear(state, "c one", "T1") == []
    assert voice.control.question is not None and voice.control.question.command == Action("flip", None, ("C1",))


def test_told_in_words_no_phrase_names_a_card_of_a_hand_and_a_card_is_read_again() -> None:
    """Dixit with a deck told in words: the cards and votes are chosen on the phones, never said;
    "read card two" is a host line that reads card 2 again; every phrase is one the recognizer
    can hear."""
    deck = asdict(load_described_deck())
    game = {"players": PLAYERS, "contando": False, "deck_size": 84, "owners": "needed", "seed": 3, "deck": deck}
    state = Match(make("dixit", game)).state
    voice, recognizer = Voice("dixit"), PocketSphinxRecognizer()
    for line in ["storyteller Nina", f"pick {state.hands['Nina'][0]}", "clue far away",
                 *(f"give {player} {state.hands[player][0]}" for player in PLAYERS[1:])]:
        said = phrases(state, Names({}), adapter_for("dixit"))
        recognizer.set_phrases([phrase.words for phrase in said])
        assert not [phrase for phrase in said if phrase.line.split()[0] in ("pick", "give", "take", "vote")]
        state.apply(state.parse(line))
    assert state.view(None).phase == "vote"
    assert voice.hear(state, "read card two") == [HostRequest("read", "card 2")]
    assert adapter_for("dixit").reading(state, "read card 2") == [
        f"Card 2, {state.cards[state.laid[1]].title}: {state.cards[state.laid[1]].description}"
    ]
