"""What each screen may show, computed on the session's thread from the game as it is now.

A player's screen gets the game's public view plus that player's own secrets (`GameState.secrets`
and `view(player)`); the table gets only `view(None)`. Both are plain JSON, rendered as text by
the page (never as HTML).
"""
from __future__ import annotations

from typing import Any

from games.base import GameState, plural

#: the commands a phone may send, by game: the player's own secret moves
PHONE_VERBS = {"stories": ("term", "erase", "question"), "dixit": ("vote", "card")}
#: how many of the last announcements and replies a screen keeps
KEPT = 12


def can(state: GameState, player: str) -> list[str]:
    """The phone commands `player` may send now (the storyteller alone names their card)."""
    allowed = PHONE_VERBS.get(state.game, ())
    verbs = []
    for choice in state.legal_actions():
        verb = choice.action.verb
        mine = choice.action.player == player or (verb == "card" and state.view(None).get("storyteller") == player)
        if verb in allowed and mine and verb not in verbs:
            verbs.append(verb)
    return verbs


def _scores(state: GameState) -> list[str]:
    return [f"{player}: {plural(points, 'point')}" for player, points in state.scores().items()]


def table_details(state: GameState) -> list[str]:
    """The table's lines beside the status: tick counts, the grid's face-up tiles, who voted."""
    view = state.view(None)
    if state.game == "stories":
        lines = [f"Story {view['story']} of {view['stories']}; storyteller {view['storyteller']}."]
        if view["sentence"]:
            lines.append(f"The card: {view['sentence']}")
        for writer, sheet in view["sheets"].items():
            line = f"{writer}: {sheet['written']} of 5 terms written, {sheet['ticked']} ticked"
            questions = f", {plural(sheet['questions'], 'question')}" if sheet["questions"] else ""
            terms = sheet.get("terms")  # revealed once the story is over
            shown = f". Terms: {', '.join(t['term'] + (' (ticked)' if t['ticked'] else '') for t in terms)}" if terms else ""
            lines.append(f"{line}{questions}{shown}.")
        return lines
    if state.game == "storytelling":
        grid = view["grid"]
        face_up = [f"{position} {name}" for position, name in grid.items() if name is not None]
        lines = [f"{view['tale']}. Active player: {view['active']}." if view["active"] else view["tale"] + "."]
        lines.append(f"Face up: {', '.join(face_up)}." if face_up else "Every tile is face down.")
        lines.append(f"{len(grid) - len(face_up)} tiles face down.")
        if view["card"]:
            lines.append(f"Card {view['card']['number']}: pictures to find: {', '.join(view['card']['pictures'])}.")
        return lines
    if state.game == "dixit":
        lines = [f"Turn {view['turn']}, phase: {view['phase']}; storyteller {view['storyteller'] or 'not chosen yet'}."]
        if view["clue"]:
            lines.append(f"The clue: {view['clue']}")
        if view["voted"]:
            lines.append(f"Voted: {', '.join(view['voted'])}.")
        for position in view["positions"]:
            owner = f", {position['owner']}'s" if position["owner"] else ""
            votes = f", votes from {', '.join(position['votes'])}" if position["votes"] else ""
            lines.append(f"Card {position['number']}{owner}{votes}.")
        return lines
    return []


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
        "details": table_details(state),
        "timer_left": timer_left,
    }
