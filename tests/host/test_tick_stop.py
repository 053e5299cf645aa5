"""`storyhost tick` with confirmations: Stop! falls on the word that completed a fifth term, even
when the confirmation that heard it came after later words were ticked."""
from __future__ import annotations

from typing import Any

import pytest

from host.cli.tick import judge
from nlp import HeardWord, ReconcilingTracker, TermReferee, TickEvent, load_referee


@pytest.fixture(scope="module")
def referee() -> TermReferee:
    return load_referee()


def heard(*timed: tuple[str, float]) -> list[HeardWord]:
    """Words 0.3 s long ending at the times given, heard with probability 0.9."""
    return [HeardWord(text, end - 0.3, end, 0.9) for text, end in timed]


TERMS = {"Ann": ["snow", "seal", "bear", "fox", "owl"], "Bo": ["hare", "wolf"]}


def judged(referee: TermReferee, first: list[HeardWord], streamed: list[HeardWord], confirmed: list[HeardWord]
           ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any] | None]:
    """`storyhost tick`'s judgement of TERMS in a story told in two utterances: the first
    streamed and confirmed as heard, the second streamed as `streamed` and confirmed as `confirmed`."""
    def tell(tracker: ReconcilingTracker) -> list[TickEvent]:
        return [*tracker.update(first, final=True), *tracker.confirm(first),
                *tracker.update(streamed, final=True), *tracker.confirm(confirmed)]

    return judge(referee, "Once upon a time...", TERMS, tell)


def test_a_late_confirmation_calls_stop_where_the_fifth_term_was_said(referee):
    """The stream ticks Bo's wolf and misses the hare and the owl; the confirmation hears Ann's
    owl (her fifth) at 3.3 s and Bo's hare at 2.8 s."""
    first = heard(("Snow,", 0.5), ("seal,", 1.0), ("bear,", 1.5), ("fox.", 2.0))
    streamed = heard(("a", 2.5), ("pair", 2.8), ("and", 2.9), ("a", 3.0), ("towel", 3.3), ("and", 3.6), ("a", 3.8), ("wolf.", 4.1))
    confirmed = heard(("a", 2.5), ("hare", 2.8), ("and", 2.9), ("an", 3.0), ("owl", 3.3), ("and", 3.6), ("a", 3.8), ("wolf.", 4.1))
    results, stop = judged(referee, first, streamed, confirmed)
    assert stop == {"players": ["Ann"], "evidence": "owl", "time": 3.3}
    assert [entry["status"] for entry in results["Ann"]] == ["ticked"] * 5
    assert [(entry["status"], entry["time"]) for entry in results["Bo"]] == [("ticked", 2.8), ("heard_after_stop", 4.1)]


def test_a_fifth_term_confirmed_late_calls_stop_on_the_last_of_the_five_said(referee):
    """The stream ticks Ann's owl (said at 2.7 s) and Bo's wolf, but hears "box" for her fox
    (2.0 s); the confirmation of the fox completes her five after the owl was ticked. Stop! falls
    on the owl, the last of her five words said, as in a game: she has all five, and Bo's wolf
    after it counts for nobody."""
    first = heard(("Snow,", 0.5), ("seal,", 1.0), ("bear.", 1.5))
    streamed = heard(("a", 1.8), ("box", 2.0), ("and", 2.2), ("an", 2.4), ("owl", 2.7), ("and", 2.8), ("a", 2.9), ("wolf.", 3.2))
    confirmed = heard(("a", 1.8), ("fox", 2.0), ("and", 2.2), ("an", 2.4), ("owl", 2.7), ("and", 2.8), ("a", 2.9), ("wolf.", 3.2))
    results, stop = judged(referee, first, streamed, confirmed)
    assert stop == {"players": ["Ann"], "evidence": "owl", "time": 2.7}
    assert [entry["status"] for entry in results["Ann"]] == ["ticked"] * 5
    assert [(entry["status"], entry["time"]) for entry in results["Bo"]] == [("not_heard", None), ("heard_after_stop", 3.2)]
