"""Ticking from audio: what is heard goes into the tick tracker, and every tick or untick it
emits is stamped with how far into the audio it was known.

`storyhost tick --audio` streams a recording through the live round's pipeline
(host.speech.hearing.hear) as fast as it decodes, so a story is judged as it would have been live.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from host.speech.hearing import Heard
from host.speech.recognizer import Hypothesis
from nlp import TickEvent, TickTracker


@dataclass(frozen=True)
class TimedEvent:
    """A term heard or no longer heard, the hypothesis that decided it (None: the end of the story did) and
    `at`, the audio time when it was emitted (that hypothesis' `Heard.at`): later than
    `event.time`, the end of the evidence's last word."""

    event: TickEvent
    at: float
    hypothesis: Hypothesis | None


def referee_heard(tracker: TickTracker, heard: Iterable[Heard]) -> Iterator[TimedEvent]:
    """Each hypothesis into the tracker; at the end, the story is over (`tracker.finish()`)."""
    at = 0.0
    for item in heard:
        at = item.at
        for event in tracker.update(item.hypothesis.words, item.hypothesis.final):
            yield TimedEvent(event, at, item.hypothesis)
    for event in tracker.finish():
        yield TimedEvent(event, at, None)
