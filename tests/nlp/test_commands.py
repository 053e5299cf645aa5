"""Spoken commands over text: spelling, numbers, and how sure a heard phrase is."""
from __future__ import annotations

import pytest

from nlp.commands import ASK_BELOW, fold, number_words, spoken, understand, word_number

FLIPS = ["flip b three", "b three", "row three column two", "flip a one", "flip d four"]


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


def test_a_loose_pass_nearer_another_phrase_makes_the_grammars_phrase_doubtful() -> None:
    """The language model leans to common words: "voted for" is heard for "voted two"."""
    understood = understand("leo voted two", "leo voted for", ["leo voted two", "leo voted four"])
    assert understood is not None and understood.phrase == "leo voted two" and understood.doubtful


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
