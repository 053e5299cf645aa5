"""Where Stop! falls in a Stories! story heard, by the word that called it rather than by when a
recognizer's tick arrived (a confirmation can complete a fifth term after later words were
ticked): shared by the live referee (`narration`) and `storyhost tick`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.stories import TERMS_PER_PLAYER
from nlp import TickEvent


def calls_stop(ticks: Sequence[TickEvent | None]) -> bool:
    """Whether a player's ticks, one per written term, call Stop!: five terms, all ticked."""
    return len(ticks) == TERMS_PER_PLAYER and all(ticks)


def stop_word(ticked: Mapping[str, Sequence[TickEvent | None]]) -> TickEvent | None:
    """The tick of the word that called Stop! (None: no Stop!): the latest tick, as heard, of the
    first player to have all five terms ticked. `ticked`: each player's ticks in the order the
    terms were written, None for a term not heard."""
    ends = [max((tick for tick in ticks if tick), key=_heard_time) for ticks in ticked.values() if calls_stop(ticks)]
    return min(ends, key=_heard_time, default=None)


def said_after(tick: TickEvent, stop: float) -> bool:
    """Whether the words of `tick` were said after the word that called Stop!, which ended at `stop`."""
    return tick.time is not None and tick.time > stop


def _heard_time(tick: TickEvent) -> float:
    return tick.time or 0.0
