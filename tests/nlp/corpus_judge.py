"""Judging the cases of tests/nlp/corpus/*.json: shared by the corpus test and the benchmark.

Each function returns the mistakes it found (empty when the case is judged as expected), as
sentences that say what was expected and what came out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from nlp import HeardWord, Referee, SpanishReferee
from nlp.spanish import words_of

CORPUS = Path(__file__).parent / "corpus"
SECONDS_PER_WORD = 0.3


def load(name: str) -> dict[str, Any]:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


def validation_mistakes(referee: TermReferee, case: dict[str, Any], default_card: str) -> list[str]:
    verdict = referee.check(case["term"], case.get("card", default_card), case.get("written", []))
    if verdict.code == case["expect"]:
        return []
    where = f"card {case.get('card', default_card)!r}, written {case.get('written', [])}"
    return [f"{case['term']!r} ({where}): expected {case['expect']}, got {verdict.code} ({verdict.message})"]


def sameness_mistakes(referee: TermReferee, pair: dict[str, Any]) -> list[str]:
    got = referee.same(pair["a"], pair["b"])
    return [] if got == pair["same"] else [f"same({pair['a']!r}, {pair['b']!r}): expected {pair['same']}, got {got}"]


def recognizer_utterances(text: str) -> list[list[str]]:
    """A typed story as a recognizer gives it: one utterance per sentence, lowercase words,
    no punctuation, hyphenated compounds split."""
    sentences = re.split(r"[.!?]+", text)
    return [words for sentence in sentences if (words := re.findall(r"[a-z']+", sentence.lower().replace("-", " ")))]


def spanish_utterances(text: str) -> list[list[str]]:
    """A typed Spanish story as a Spanish recognizer gives it: one utterance per sentence, no
    punctuation, capitals and accents kept (Whisper writes "Juan", "canción")."""
    return [words for sentence in re.split(r"[.!?;…]+", text) if (words := words_of(sentence))]


def story_terms(story: dict[str, Any]) -> dict[str, list[str]]:
    """One player per term, so that every term is tracked on its own."""
    return {f"player {i}": [term] for i, term in enumerate(story["ticked"] + story["not_ticked"])}


def tell_typed(referee: Referee, story: dict[str, Any]) -> set[str]:
    tracker = referee.tracker(story_terms(story))
    tracker.say(story["story"])
    tracker.finish()
    return {tick.term for ticks in tracker.ticked().values() for tick in ticks if tick}


def tell_recognized(referee: Referee, story: dict[str, Any]) -> set[str]:
    """Word by word, each utterance revised as it grows, then final; ticks are the events seen."""
    tracker = referee.tracker(story_terms(story))
    text = story.get("recognizer_text", story["story"])
    ticked: set[str] = set()
    clock = 0.0
    split = spanish_utterances if isinstance(referee, SpanishReferee) else recognizer_utterances
    for utterance in split(text):
        heard = []
        for word in utterance:
            heard.append(HeardWord(word, clock, clock + SECONDS_PER_WORD))
            clock += SECONDS_PER_WORD
            for event in tracker.update(heard):
                (ticked.add if event.ticked else ticked.discard)(event.term)
        for event in tracker.update(heard, final=True):
            (ticked.add if event.ticked else ticked.discard)(event.term)
        clock += 0.5
    final = {tick.term for ticks in tracker.ticked().values() for tick in ticks if tick}
    assert final == ticked, f"the events ({sorted(ticked)}) disagree with the final state ({sorted(final)})"
    return final


def story_mistakes(referee: Referee, story: dict[str, Any], mode: str) -> list[str]:
    ticked = (tell_typed if mode == "typed" else tell_recognized)(referee, story)
    return [
        f"{mode}: {term!r} should tick in {story['story'][:60]!r}..." for term in story["ticked"] if term not in ticked
    ] + [
        f"{mode}: {term!r} should not tick in {story['story'][:60]!r}..."
        for term in story["not_ticked"]
        if term in ticked
    ]


def story_modes(story: dict[str, Any]) -> list[str]:
    return ["typed"] if story.get("typed_only") else ["typed", "recognized"]


def recognizer_stories(split: str) -> list[dict[str, Any]]:
    """The stories of recognizer.json in `split` ("tune" or "held_out"), shaped as ticking.json's:
    their text is both what is typed and what the recognizer heard (one utterance)."""
    return [
        {"story": story["text"], "ticked": story["ticked"], "not_ticked": story["not_ticked"], "kind": story["kind"]}
        for story in load("recognizer")["stories"]
        if story["split"] == split
    ]


def judge_stories(referee: Referee, stories: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """(number of judgements, mistakes) over stories, typed and recognized."""
    total, mistakes = 0, []
    for story in stories:
        for mode in story_modes(story):
            total += len(story["ticked"]) + len(story["not_ticked"])
            mistakes += story_mistakes(referee, story, mode)
    return total, mistakes


def judge_all(referee: TermReferee) -> tuple[int, list[str]]:
    """(number of judgements, mistakes) over the whole corpus."""
    total, mistakes = 0, []
    validation = load("validation")
    for case in validation["cases"]:
        total += 1
        mistakes += validation_mistakes(referee, case, validation["default_card"])
    for pair in load("sameness")["pairs"]:
        total += 1
        mistakes += sameness_mistakes(referee, pair)
    stories_total, stories_mistakes = judge_stories(referee, load("ticking")["stories"])
    return total + stories_total, mistakes + stories_mistakes
