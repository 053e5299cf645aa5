"""Ticking from audio: what is heard goes into the tick tracker, and every tick or untick it
emits is stamped with how far into the audio it was known.

A recognizer given a context confirms each finished utterance (`Hypothesis.confirmed`); the
tracker reconciles the confirmations with the stream (nlp.reconcile). `storyhost tick --audio`
streams a recording through the live round's pipeline (host.speech.hearing.hear) as fast as it
decodes, so a story is judged as it would have been live.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from host.speech.hearing import Heard
from host.speech.recognizer import Hypothesis
from nlp import ReconcilingTracker, TickEvent


@dataclass(frozen=True)
class TimedEvent:
    """A term heard or no longer heard, the hypothesis that decided it (None: the end of the story did) and
    `at`, the audio time when it was emitted (that hypothesis' `Heard.at`): later than
    `event.time`, the end of the evidence's last word."""

    event: TickEvent
    at: float
    hypothesis: Hypothesis | None


def tell(tracker: ReconcilingTracker, hypothesis: Hypothesis) -> list[TickEvent]:
    """One hypothesis into the tracker: a confirmation, or the stream's latest."""
    if hypothesis.confirmed:
        return tracker.confirm(hypothesis.words)
    return tracker.update(hypothesis.words, hypothesis.final, hypothesis.lookahead)


def referee_heard(tracker: ReconcilingTracker, heard: Iterable[Heard]) -> Iterator[TimedEvent]:
    """Each hypothesis into the tracker; at the end, the story is over (`tracker.finish()`)."""
    at = 0.0
    for item in heard:
        at = item.at
        for event in tell(tracker, item.hypothesis):
            yield TimedEvent(event, at, item.hypothesis)
    for event in tracker.finish():
        yield TimedEvent(event, at, None)
