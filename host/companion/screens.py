"""What each screen may show, computed on the session's thread from the game as it is now.

A player's screen gets the game's public view plus that player's own secrets (`GameState.secrets`
and `view(player)`); the table gets only `view(None)`. Both are plain JSON, rendered as text by
the page (never as HTML).
"""
from __future__ import annotations

from typing import Any

from games.base import GameState, plural
from host.adapters.base import adapter_for

#: how many of the last announcements and replies a screen keeps
KEPT = 12


def can(state: GameState, player: str) -> list[str]:
    """The phone commands `player` may send now (a storyteller's move, the storyteller alone)."""
    moves = {move.verb: move for move in adapter_for(state.game).phone_moves}
    storyteller = state.view(None).get("storyteller")
    verbs = []
    for choice in state.legal_actions():
        verb = choice.action.verb
        move = moves.get(verb)
        if move is None:
            continue
        mine = storyteller == player if move.storyteller else choice.action.player == player
        if mine and verb not in verbs:
            verbs.append(verb)
    return verbs


def _scores(state: GameState) -> list[str]:
    return [f"{player}: {plural(points, 'point')}" for player, points in state.scores().items()]


def todo(state: GameState, player: str, verbs: list[str]) -> str:
    """What `player` is to do now, in one sentence."""
    if state.is_over():
        return "The game is over."
    if verbs:
        return "Your move: " + " ".join(state.verbs[verb].help for verb in verbs)
    if player in state.waiting_for():
        return "Your move, said or typed at the table."
    waiting = [name for name in state.waiting_for() if name != player]
    return f"Nothing for you to do now; waiting for {', '.join(waiting)}." if waiting else "Nothing for you to do now."


def player_screen(state: GameState, player: str, timer_left: float | None) -> dict[str, Any]:
    verbs = can(state, player)
    sheet = state.view(player).get("sheets", {}).get(player, {})
    return {
        "status": state.status(),
        "todo": todo(state, player, verbs),
        "scores": _scores(state),
        "secrets": [] if "terms" in sheet else state.secrets(player),  # Stories! terms: listed with their ticks
        "terms": sheet.get("terms", []),
        "can": verbs,
        "timer_left": timer_left,
    }


def table_screen(state: GameState, timer_left: float | None) -> dict[str, Any]:
    return {
        "status": state.status(),
        "scores": _scores(state),
        "details": adapter_for(state.game).table_details(state),
        "timer_left": timer_left,
    }
