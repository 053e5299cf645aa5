"""What each screen may show, computed on the session's thread from the game as it is now.

A player's screen gets their turn from the game's adapter (`PhoneTurn`: what to do now, their
moves, what only they know) and the table's view; the table gets only the table's view
(`TableView`, built from what everyone may know). Both are plain JSON, rendered as text by the
page (never as HTML), with the sentences the table's numbers make worded here, in the game's
language (`worded`), so that the page and its script say them alike. `pictures` are the picture files a screen shows, the only ones served to it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import GameState, join_names
from games.language import _, n_
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
        "table": worded(shown(adapter_for(state.game).table(state))),
        "scores": _scores(state),
        "timer_left": timer_left,
    }


def worded(table: dict[str, Any]) -> dict[str, Any]:
    """The table's view with the words of its counts: each meter's ("2 of 5 ticked"), each
    card's label ("Card 3", with its title once told) and its votes once revealed."""
    for meter in table["meters"]:
        meter["counted"] = _("{count} of {whole} {unit}").format(count=meter["count"], whole=meter["of"], unit=meter["unit"])
    for card in table["cards"]:
        number, face, votes = card["number"], card["face"], card["votes"]
        card["label"] = (_("Card {number}").format(number=number) if face is None
                         else _("Card {number}: {title}").format(number=number, title=face["title"]))
        card["said"] = ("" if votes is None else _("no vote") if not votes
                        else n_("{count} vote: {names}", "{count} votes: {names}", len(votes)).format(count=len(votes), names=join_names(votes)))
    return table


def pictures(state: GameState, player: str | None) -> Mapping[str, str]:
    """The picture files `player`'s screen (None: the table's) shows now, by name."""
    return adapter_for(state.game).pictures(state, player)
