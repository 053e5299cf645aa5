"""What each screen may show, computed on the session's thread from the game as it is now.

A player's screen gets their turn from the game's adapter (`PhoneTurn`: what to do now, their
moves, what only they know) and the table's view; the table gets only the table's view
(`TableView`, built from what everyone may know). Both are plain JSON, rendered as text by the
page (never as HTML).
"""
from __future__ import annotations

from typing import Any

from games.base import GameState
from host.adapters.base import adapter_for
from host.adapters.views import shown

#: how many of the last announcements and replies a screen keeps
KEPT = 12


def _scores(state: GameState) -> list[list[Any]]:
    """[name, points] in seat order."""
    return [[player, points] for player, points in state.scores().items()]


def player_screen(state: GameState, player: str, timer_left: float | None) -> dict[str, Any]:
    return {
        "turn": shown(adapter_for(state.game).phone_turn(state, player)),
        **table_screen(state, timer_left),
    }


def table_screen(state: GameState, timer_left: float | None) -> dict[str, Any]:
    return {
        "table": shown(adapter_for(state.game).table(state)),
        "scores": _scores(state),
        "timer_left": timer_left,
    }
