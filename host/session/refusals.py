"""Refusals of moves sent from phones, told to the table without repeating."""
from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Refusals:
    """Moves refused for players with phones, told to the table without repeating: the first at
    once, those that follow it within QUIET seconds of each other as one count when they stop."""

    QUIET = 3.0
    #: player -> (what was refused, refusals not told yet, when the last came)
    pending: dict[str, tuple[str, int, float]] = field(default_factory=dict)

    def add(self, player: str, what: str) -> str | None:
        """A refusal of `player`'s `what` ("term"): the line to say now, if any."""
        now = time.monotonic()
        if player in self.pending:
            _, count, _ = self.pending[player]
            self.pending[player] = (what, count + 1, now)
            return None
        self.pending[player] = (what, 0, now)
        return f"{player}: one {what} was refused; see your phone."

    def due(self) -> float | None:
        """Seconds until a count is to be told, None when none is waiting."""
        if not self.pending:
            return None
        return max(0.0, min(last for _, _, last in self.pending.values()) + self.QUIET - time.monotonic())

    def told(self, all_now: bool = False) -> list[str]:
        """The counts whose refusals stopped coming (`all_now`: every count), to say now."""
        lines = []
        for player, (what, count, last) in list(self.pending.items()):
            if all_now or time.monotonic() - last >= self.QUIET:
                del self.pending[player]
                if count == 1:
                    lines.append(f"{player}: one more {what} was refused; see your phone.")
                elif count:
                    lines.append(f"{player}: {count} more {what}s were refused; see your phone.")
        return lines
