"""Every case of tests/nlp/corpus/*.json, judged by the real resources (WordNet, lemminflect, spaCy)."""

import pytest

from tests.nlp.corpus_judge import (
    load,
    sameness_mistakes,
    story_mistakes,
    story_modes,
    validation_mistakes,
)

VALIDATION = load("validation")
PAIRS = load("sameness")["pairs"]
STORIES = load("ticking")["stories"]


def test_the_corpus_is_large_enough():
    judgements = (
        len(VALIDATION["cases"])
        + len(PAIRS)
        + sum(len(s["ticked"]) + len(s["not_ticked"]) for s in STORIES for _ in story_modes(s))
    )
    assert judgements >= 300
    assert {case["expect"] for case in VALIDATION["cases"]} == {
        None,
        "adverb",
        "pronoun",
        "have_be",
        "on_card",
        "not_content_word",
        "duplicate",
        "empty",
        "free_phrase",
        "several_terms",
    }


@pytest.mark.parametrize("case", VALIDATION["cases"], ids=lambda c: f"{c['term']}->{c['expect']}")
def test_validation(referee, case):
    assert validation_mistakes(referee, case, VALIDATION["default_card"]) == []


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p['a']}={p['b']}:{p['same']}")
def test_sameness(referee, pair):
    assert sameness_mistakes(referee, pair) == []


@pytest.mark.parametrize(
    "story, mode",
    [(story, mode) for story in STORIES for mode in story_modes(story)],
    ids=lambda value: value if isinstance(value, str) else value["story"][:40],
)
def test_ticking(referee, story, mode):
    assert story_mistakes(referee, story, mode) == []
