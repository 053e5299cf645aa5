"""One recognizer made of two: free speech through one (Whisper), phrase lists through another
(PocketSphinx or Vosk), on one clock.

Whisper hears stories, clues and readings far better, but cannot be restricted to a closed
grammar; the commands need one. Only the recognizer in use is fed audio. Each restarts its clock
when it takes over, and its times are shifted by the stream time at which it did, so every
hypothesis is in stream time, as from a single recognizer.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from host.speech.recognizer import Hypothesis, Recognizer, RecognizerError, check_pcm


class SplitRecognizer:
    """`free` hears free speech (no phrase list), `grammar` hears phrase lists; `knows()` is the
    grammar recognizer's, since only a phrase list needs a word to be in the dictionary."""

    def __init__(self, free: Recognizer, grammar: Recognizer) -> None:
        if free.sample_rate != grammar.sample_rate:
            raise RecognizerError(
                f"The two recognizers need different sample rates ({free.sample_rate} and {grammar.sample_rate} Hz)."
            )
        self.sample_rate = free.sample_rate
        self.free, self.grammar = free, grammar
        self._active = free
        self.reset()

    def reset(self) -> None:
        self._active.reset()
        self._samples = 0  # taken since the last reset
        self._offset = 0.0  # stream time at which the active recognizer's clock started
        self._pending: list[Hypothesis] = []  # the utterance closed by a switch

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        check_pcm(pcm)
        self._samples += len(pcm) // 2
        out, self._pending = self._pending, []
        return out + self._shifted(self._active.accept(pcm))

    def finish(self) -> list[Hypothesis]:
        out, self._pending = self._pending, []
        return out + self._shifted(self._active.finish())

    def knows(self, word: str) -> bool:
        return self.grammar.knows(word)

    def set_context(self, text: str | None) -> None:
        """The context of free speech (a story's card), for the free recognizer."""
        self.free.set_context(text)

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """A phrase list goes to the grammar recognizer (checked there first: a refused list
        changes nothing); None hands free speech back to the free one. On a switch the utterance
        in progress is closed, and comes out of the next `accept` or `finish`."""
        chosen = self.free if phrases is None else self.grammar
        if chosen is self.grammar:
            self.grammar.set_phrases(phrases)
        if chosen is self._active:
            return
        self._pending += self._shifted(self._active.finish())
        chosen.reset()
        self._active = chosen
        self._offset = self._samples / self.sample_rate

    def _shifted(self, hypotheses: list[Hypothesis]) -> list[Hypothesis]:
        if not self._offset:
            return hypotheses
        return [
            replace(hypothesis, words=tuple(
                replace(word, start=None if word.start is None else round(word.start + self._offset, 3),
                        end=None if word.end is None else round(word.end + self._offset, 3))
                for word in hypothesis.words
            ))
            for hypothesis in hypotheses
        ]
