"""Ticks from a stream of hypotheses and from their confirmations, reconciled.

A recognizer that streams hears a word within a second, but loses words that it hears when it
decodes a whole finished utterance again (host/speech/whisper_recognizer.py). Both are tracked,
each by its own `TickTracker`: the streamed hypotheses as they come, the confirmed utterances
one after another. A term stands ticked when

- the confirmations tick it: a tick the stream missed is added, with its time in the story
  from the confirmed words' times; or
- the stream ticks it, and no confirmation contradicted that tick. A confirmation contradicts
  it only on clear evidence: the confirmations do not tick the term, and the confirmed words
  spoken at the time of the tick's evidence are other words, each heard with a probability of at
  least `withdraw_at` (None: never; the stream's ticks are only added to). The same words read
  otherwise (a compound edge decided anew) are no evidence; a compound of which the stream heard
  one part alone (its buffer cut inside the word) is.

So a revision of the stream that withdraws a tick the confirmations also give takes nothing
back. The events are those of a `TickTracker`: a tick when a term comes to stand, the same
event not ticked when it no longer does; the evidence of a standing tick may change silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from nlp.referee import Referee
from nlp.ticks import HeardWord, StoryTracker, TickEvent, numbers_said

#: a confirmation withdraws a streamed tick when the words it heard in its place are heard with
#: at least this probability. Measured on the four voices of tests/benchmarks/bench_audio_terms.py
#: (all 176 stories), the wrong judgements and the ticks taken back of 2,929: never (add only) 612
#: and 5, at 0.95: 611 and 8, at 0.9: 612 and 15, at 0.7: 624 and 39, at 0.5: 640 and 71
WITHDRAW_AT: float | None = 0.95
_NEAR = 0.1  # seconds: a confirmed word is in a span when its middle is this close to it

_Key = tuple[str, int]  # (player, index of the term)


class ReconcilingTracker:
    """A story tracker (update, say, finish, ticked) that also takes confirmations (`confirm`),
    in the referee's language (`Referee.tracker`)."""

    def __init__(
        self,
        referee: Referee,
        terms: Mapping[str, Sequence[str]],
        *,
        withdraw_at: float | None = WITHDRAW_AT,
        **options: Any,
    ) -> None:
        self._referee = referee
        self._stream = referee.tracker(terms, **options)
        self._confirmed = referee.tracker(terms, **options)
        self._withdraw_at = withdraw_at
        self._players = list(terms)
        self._counts = {player: len(written) for player, written in terms.items()}
        self._utterances: list[list[HeardWord]] = []  # the streamed words of each utterance
        self._open = False  # the last utterance is still being heard
        self._shown: dict[_Key, TickEvent] = {}  # what stands, as given out
        self._withdrawn: dict[_Key, TickEvent] = {}  # streamed ticks a confirmation contradicted

    # -- input -----------------------------------------------------------------------------
    def update(
        self, words: Iterable[HeardWord | str | Mapping[str, Any]], final: bool = False, lookahead: Iterable[HeardWord] = ()
    ) -> list[TickEvent]:
        """A streamed hypothesis of the current utterance (see `StoryTracker.update`)."""
        heard = numbers_said(words, self._referee.language)
        if not self._open:
            self._utterances.append([])
        self._utterances[-1] = heard
        self._open = not final
        self._stream.update(heard, final, lookahead)
        return self._changes()

    def confirm(self, words: Iterable[HeardWord | str | Mapping[str, Any]]) -> list[TickEvent]:
        """A finished utterance decoded again, whole, with its words' times; numbers written in
        digits said in words, as the stream's are, so that "6" confirms "six"."""
        heard = numbers_said(words, self._referee.language)
        self._confirmed.update(heard, final=True)
        if self._withdraw_at is not None:
            confirmed = _standing(self._confirmed)
            for key, tick in _standing(self._stream).items():
                if key not in confirmed and self._contradicts(heard, tick, self._withdraw_at):
                    self._withdrawn[key] = tick
        return self._changes()

    def say(self, text: str) -> list[TickEvent]:
        """Typed story text: there is nothing to confirm."""
        self._open = False
        self._stream.say(text)
        return self._changes()

    def finish(self) -> list[TickEvent]:
        self._stream.finish()
        self._open = False
        return self._changes()

    # -- output ----------------------------------------------------------------------------
    def ticked(self) -> dict[str, list[TickEvent | None]]:
        """For each player, in the order written: the standing tick of each term, or None."""
        return {player: [self._shown.get((player, i)) for i in range(self._counts[player])] for player in self._players}

    # -- reconciling -----------------------------------------------------------------------
    def _changes(self) -> list[TickEvent]:
        """Unticks of what no longer stands, then ticks of what newly stands, in the order heard."""
        standing = _standing(self._confirmed)
        standing.update(
            (key, tick) for key, tick in _standing(self._stream).items() if self._withdrawn.get(key) != tick
        )
        unticks = [replace(self._shown.pop(key), ticked=False) for key in list(self._shown) if key not in standing]
        ticks = []
        for key, tick in standing.items():
            if key not in self._shown:
                ticks.append(tick)
            self._shown[key] = tick
        return unticks + sorted(ticks, key=lambda tick: (tick.time is None, tick.time or 0.0, tick.heard_at or (0, 0)))

    def _contradicts(self, confirmed: list[HeardWord], tick: TickEvent, threshold: float) -> bool:
        """Whether the confirmed words heard where the tick's evidence was spoken are, for one of
        its words at least, only other words, each with at least `threshold` probability."""
        streamed, evidence = self._evidence(tick)
        for word in evidence:
            if word.start is None or word.end is None:
                return False
            there = _heard_within(confirmed, word)
            if there and not any(self._read_otherwise(word, w, streamed) for w in there) and all(
                (w.confidence or 0.0) >= threshold for w in there
            ):
                return True
        return False

    def _evidence(self, tick: TickEvent) -> tuple[list[HeardWord], list[HeardWord]]:
        """The streamed words of the utterance holding a tick's evidence, and of its evidence:
        those ending with the word that ends at its time."""
        said = tick.evidence.split()
        for words in reversed(self._utterances):
            for last, word in enumerate(words):
                if tick.time is not None and word.end == tick.time and word.text.strip() == said[-1]:
                    return words, words[max(0, last + 1 - len(said)) : last + 1]
        return [], []

    def _read_otherwise(self, word: HeardWord, confirmed: HeardWord, streamed: list[HeardWord]) -> bool:
        """Whether a confirmed word is a streamed one read otherwise: a part of one (hyphens split)
        shares a key with a part of the other ("bears" and "bear's"), and when the confirmed one
        is a compound, the stream heard its other parts there too ("ice cold" and "ice-cold"). A
        stream's buffer cut inside a compound commits a part of it alone ("cold", then "hard."
        where "cold-hearted" was said): that is another word, which the rule does not count."""
        keys = self._referee.word_keys
        if not keys(word.text) & keys(confirmed.text):
            return False
        return keys(confirmed.text) <= {key for w in _heard_within(streamed, confirmed) for key in keys(w.text)}


def _standing(tracker: StoryTracker) -> dict[_Key, TickEvent]:
    return {
        (player, index): tick
        for player, ticks in tracker.ticked().items()
        for index, tick in enumerate(ticks)
        if tick is not None
    }


def _heard_within(words: list[HeardWord], span: HeardWord) -> list[HeardWord]:
    """The words heard in the time of `span` (their middle within it, give or take _NEAR)."""
    if span.start is None or span.end is None:
        return []
    return [word for word in words if _within(word, span.start - _NEAR, span.end + _NEAR)]


def _within(word: HeardWord, start: float, end: float) -> bool:
    if word.start is None or word.end is None:
        return False
    return start <= (word.start + word.end) / 2 <= end
