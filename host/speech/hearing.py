"""Hearing: audio chunks through a recognizer, as hypotheses stamped with the audio time.

One pipeline serves the live round (microphone), the demo and `storyhost tick --audio` (files).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from host.audio.sources import AudioChunk
from host.speech.recognizer import Hypothesis, Recognizer


@dataclass(frozen=True)
class Heard:
    """A hypothesis, and how far into the audio it was known (the end of the chunk that made it)."""

    hypothesis: Hypothesis
    at: float


def hear(chunks: Iterable[AudioChunk], recognizer: Recognizer, finish: bool = True) -> Iterator[Heard]:
    """Every hypothesis the chunks produce; at the end (with `finish`) the last utterance closes."""
    at = 0.0
    for chunk in chunks:
        at = chunk.time + chunk.duration
        for hypothesis in recognizer.accept(chunk.pcm):
            yield Heard(hypothesis, at)
    if finish:
        for hypothesis in recognizer.finish():
            yield Heard(hypothesis, at)
