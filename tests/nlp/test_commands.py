"""Spoken commands over text: spelling, numbers, and how sure a heard phrase is."""
from __future__ import annotations

import pytest

from nlp.commands import ASK_BELOW, BY_FREE_WORDS, BY_GRAMMAR, BY_WHISPERS_GRAMMAR, fold, number_words, rhyme, spelled, spoken, understand, word_number, written

FLIPS = ["flip b three", "b three", "row three column two", "flip a one", "flip d four"]
#: the 4x4 grid's positions, plainly and with the spelling alphabet -> the position
GRID = {way: f"{letter} {number}" for letter in "abcd" for number in ("one", "two", "three", "four")
        for way in (f"{letter} {number}", spelled(f"{letter} {number}"))}


def test_spoken_spells_commands_as_a_recognizer_does() -> None:
    assert spoken("Flip B3!") == "flip b three"
    assert spoken("vote Leo 4") == "vote leo four"
    assert spoken("you can be free") == "you can b free"  # a lone letter said as a word
    assert fold("Julián") == "julian" and fold("Matilde") == "matilde"


def test_numbers_go_both_ways() -> None:
    assert [number_words(n) for n in (1, 4, 13, 20)] == ["one", "four", "thirteen", "twenty"]
    assert word_number("four") == 4 and word_number("12") == 12 and word_number("fork") is None
    assert number_words(21) == "21"


def test_agreeing_passes_are_sure() -> None:
    understood = understand("flip b three", "flip b three", FLIPS)
    assert understood is not None and understood.phrase == "flip b three" and understood.sure


def test_a_loose_pass_that_sounds_alike_is_enough() -> None:
    understood = understand("leo voted four", "leah voted for", ["leo voted four", "leo voted three", "nina voted four"])
    assert understood is not None and understood.phrase == "leo voted four" and understood.sure


def test_a_sentence_of_the_story_is_not_taken_for_the_phrase_the_grammar_forced() -> None:
    understood = understand("what can i say", "the cat sat on the mat and a defense", ["what can i say", *FLIPS])
    assert understood is not None and understood.confidence < ASK_BELOW


def test_the_grammar_chooses_and_a_loose_pass_that_is_no_phrase_only_says_how_sure() -> None:
    """Piper's joe said "c one", Whisper's free words were "T1", and Whisper held to the phrases
    found "c one" likeliest; "d one" came out as "Do you want?"."""
    understood = understand("c one", "T1", GRID, BY_WHISPERS_GRAMMAR)
    assert understood is not None and understood.phrase == "c one" and understood.verdict == "ask"
    understood = understand("d one", "Do you want?", GRID, BY_WHISPERS_GRAMMAR)
    assert understood is not None and understood.phrase == "d one" and understood.verdict == "ask"


def test_a_phrase_two_grammars_heard_is_asked_about_when_the_free_words_went_astray() -> None:
    """Piper's joe said "confirm": PocketSphinx's grammar and Whisper held to the phrases both
    heard it, Whisper's free words were "Hit for him." (tests/benchmarks/bench_commands.py)."""
    phrases = ["confirm", "what is the score", "stop the game", "help", "undo"]
    understood = understand("confirm", "Hit for him.", phrases, BY_WHISPERS_GRAMMAR)
    assert understood is not None and understood.verdict == "drop"
    understood = understand("confirm", "Hit for him.", phrases, BY_WHISPERS_GRAMMAR, vouched=True)
    assert understood is not None and understood.phrase == "confirm" and understood.verdict == "ask"
    assert not understood.loose_fits
    # free words that fit the phrase decide as before, vouched or not
    for vouched in (False, True):
        understood = understand("confirm", "Confirm.", phrases, BY_WHISPERS_GRAMMAR, vouched=vouched)
        assert understood is not None and understood.verdict == "take"


def test_a_language_models_loose_pass_only_says_how_sure_the_grammar_is() -> None:
    """PocketSphinx alone: its language model leans to common words ("voted for" for "voted two")."""
    phrases = ["leo voted two", "leo voted four"]
    understood = understand("leo voted two", "leo voted for", phrases)
    assert understood is not None and understood.phrase == "leo voted two" and understood.verdict == "ask"
    understood = understand("leo voted two", "leah voted to", phrases)
    assert understood is not None and understood.phrase == "leo voted two"


def test_whispers_loose_pass_must_fit_the_grammars_phrase_better_than_a_language_models() -> None:
    """Festival's slt read a story's line; Whisper's grammar answered with its nearest phrase.
    A language model's free words fit a command said less well than Whisper's: the floor is the
    recognizer's."""
    phrases = ["what can i say", *FLIPS]
    understood = understand("what can i say", "Who wants another cup of tea?", phrases, BY_WHISPERS_GRAMMAR)
    assert understood is not None and understood.verdict == "drop"
    understood = understand("what can i say", "Who wants another cup of tea?", phrases, BY_GRAMMAR)
    assert understood is not None and understood.verdict == "ask"


def test_between_phrases_the_loose_pass_fits_about_as_well_the_grammar_chooses() -> None:
    """Whisper heard Allison's "bravo two" as "Bravo, cue", nearer "bravo one" by spelling."""
    understood = understand("bravo two", "Bravo, cue.", GRID)
    assert understood is not None and GRID[understood.phrase] == "b two" and understood.verdict == "ask"


def test_a_rhyming_letter_is_asked_about_even_when_both_passes_agree() -> None:
    understood = understand("d three", "D3.", GRID)
    assert understood is not None and understood.phrase == "d three" and understood.verdict == "ask"
    assert understood.doubt == "it rhymes with 'b three'"
    understood = understand("a three", "A3.", GRID)  # no phrase differs from it by a rhyming letter alone
    assert understood is not None and understood.verdict == "take"


def test_a_letter_said_with_the_spelling_alphabet_rhymes_with_nothing() -> None:
    understood = understand("delta three", "Delta 3.", GRID)
    assert understood is not None and GRID[understood.phrase] == "d three" and understood.verdict == "take"


def test_the_rhyming_letters_are_the_ones_whose_names_rhyme() -> None:
    assert rhyme("flip b three", "flip d three") and rhyme("e two", "g two") and rhyme("p one", "t one")
    assert not rhyme("flip a three", "flip b three") and not rhyme("b three", "b two")
    assert not rhyme("b three", "d four") and not rhyme("bravo three", "d three")
    assert not rhyme("flip b three", "b three")


def test_the_spelling_alphabet_says_the_letter_of_a_position() -> None:
    assert spelled("flip b three") == "flip bravo three" and spelled("x 2") == "x ray 2"
    assert spelled("what can i say") == "what can i say" and spelled("nina writes a term") == "nina writes a term"
    assert spoken("Flip Bravo 3.") == "flip bravo three" and spoken("Delta IV") == "delta four"


def test_whispers_writing_of_a_position_is_the_phrase() -> None:
    for written in ("D1", "D1.", "D. One.", "D, one.", "Dee one", "d-1"):
        assert spoken(written) == "d one", written


def test_half_agreement_is_doubtful() -> None:
    understood = understand("flip b three", "be three", FLIPS)
    assert understood is not None and understood.phrase in ("flip b three", "b three") and not understood.sure


def test_nothing_heard_is_nothing() -> None:
    assert understand("", "", FLIPS) is None
    assert understand("flip b three", "flip b three", []) is None


@pytest.mark.parametrize("grammar", ["flip b", "b"])
def test_a_grammar_answer_cut_short_is_taken_as_its_nearest_phrase(grammar: str) -> None:
    understood = understand(grammar, "flip b three", FLIPS)
    assert understood is not None and understood.phrase in ("flip b three", "b three")


def test_a_loose_pass_that_fits_a_phrase_of_another_meaning_as_well_is_doubt() -> None:
    meanings = {"leo is the storyteller": "storyteller Leo", "storyteller leo": "storyteller Leo",
                "nina is the storyteller": "storyteller Nina"}
    understood = understand("leo is the storyteller", "the storyteller", meanings)
    assert understood is not None and understood.doubtful
    understood = understand("leo is the storyteller", "leo is storyteller", meanings)
    assert understood is not None and understood.sure  # another phrase of the same meaning is no rival


def test_when_the_grammar_heard_nothing_the_loose_pass_needs_to_fit_a_phrase_well() -> None:
    """A loose pass that chose among all the phrases fits the best of them by chance more often
    than one that only checks the grammar's phrase: it needs ASK_BELOW, not CHECK_BELOW, also
    when a language model makes it and the grammar matched nothing."""
    phrases = {"score": "score", "say again": "repeat", "undo": "undo"}
    understood = understand("score", "support", phrases)
    assert understood is not None and understood.phrase == "score" and understood.verdict == "ask"
    understood = understand("", "support", phrases)
    assert understood is not None and understood.verdict == "drop"


def test_where_the_free_words_choose_but_fit_no_phrase_the_grammars_phrase_is_asked_about() -> None:
    """espeak-ng's Spanish "voltea a uno", which Whisper base wrote "¡Porte almo!" and, held to
    the phrases, found likeliest as "voltea a uno" (bench_commands_languages.py). Without the grammar's
    answer (too unlikely to have been said) the free words alone fit nothing: no command."""
    grid = {f"voltea {letter} {number}": f"flip {letter} {number}" for letter in "abcd" for number in ("uno", "dos")}
    understood = understand("voltea a uno", "¡Porte almo!", grid, BY_FREE_WORDS, "es")
    assert understood is not None and understood.phrase == "voltea a uno" and understood.verdict == "ask"
    assert not understood.loose_fits  # only the grammar vouches for it: no answer to a question
    understood = understand("", "¡Porte almo!", grid, BY_FREE_WORDS, "es")
    assert understood is not None and understood.verdict == "drop"
    understood = understand("Porte almo", "¡Porte almo!", grid, BY_FREE_WORDS, "es")  # free words as words: no grammar
    assert understood is not None and understood.verdict == "drop"
    understood = understand("voltea b uno", "Voltea A1.", grid, BY_FREE_WORDS, "es")  # the free words fit: they choose
    assert understood is not None and understood.phrase == "voltea a uno"


def test_phrases_are_written_as_free_recognition_writes_them() -> None:
    assert written("flip b three") == "flip B3"
    assert written("vote leo four") == "vote leo 4"
    assert written("what can i say") == "what can i say"
