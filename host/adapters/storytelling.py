"""Storytelling at the table: the tale (built in or a deck file), who reads the cards (with a
person reading, the card read aloud is recognised and 'read' is offered), the grid on request,
the phrases of its moves."""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from games.base import Action, GameState, Option, Settings
from games.decks import TALE_KEYS
from games.storytelling import SPEC
from host.adapters.base import BasicAdapter, GameAdapter
from host.adapters.card_reading import CardReading
from host.storage import decks
from host.voice.phrases import HostPhrase, Names, Phrase, each
from nlp.commands import number_words


class StorytellingAdapter(BasicAdapter):
    options: tuple[Option, ...] = (
        Option("tale", "saint-george", "which tale", choices=TALE_KEYS),
        Option(
            "storyteller", "host",
            "who reads the cards; with a human storyteller and --speech the host recognises the card read aloud",
            choices=("host", "human"),
        ),
    )
    commands = frozenset({"grid"})
    host_phrases: tuple[HostPhrase, ...] = ((("which tiles are face up", "grid"), "grid", False),)

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        return {"tale": asdict(decks.load_tale(options.deck or options.tale)), "storyteller": options.storyteller}

    def variant(self, settings: Settings) -> str:
        return f" ({settings['tale']['title']}{', advanced rules' if settings.get('advanced') else ''})"

    def without(self, settings: Settings) -> frozenset[str]:
        """A card is chosen by reading it only when a person is the storyteller."""
        return frozenset() if settings.get("storyteller") == "human" else frozenset({"read"})

    def card_reading(self, settings: Settings) -> CardReading | None:
        if settings.get("storyteller") != "human":
            return None
        return CardReading({card["number"]: card["text"] for card in settings["tale"]["cards"]})

    def grid(self, state: GameState) -> str:
        face_up, hidden = _tiles(state.view(None))
        if not face_up:
            return f"All {hidden} tiles are face down."
        return f"Face up: {', '.join(face_up)}. The other {hidden} tiles are face down."

    def table_details(self, state: GameState) -> list[str]:
        """The tale, the active player, the tiles face up, and the card's pictures to find."""
        view = state.view(None)
        face_up, hidden = _tiles(view)
        lines = [f"{view['tale']}. Active player: {view['active']}." if view["active"] else view["tale"] + "."]
        lines.append(f"Face up: {', '.join(face_up)}." if face_up else "Every tile is face down.")
        lines.append(f"{hidden} tiles face down.")
        if view["card"]:
            lines.append(f"Card {view['card']['number']}: pictures to find: {', '.join(view['card']['pictures'])}.")
        return lines

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        if action.verb == "flip":
            place = action.args[0]
            column, row = place[0].lower(), int(place[1:])
            column_number = ord(column) - ord("a") + 1
            yield from each(
                (f"flip {column} {row}", f"{column} {row}",
                 f"row {number_words(row)} column {number_words(column_number)}"),
                f"flip {place}",
            )
        elif action.verb == "blow":
            line, direction = action.args
            yield from each((f"blow the {line} {direction}", f"{line} {direction}"), f"blow {line} {direction}")
        elif action.verb == "retire":
            yield from each(("retire", "i retire"), "retire", confirm=True)
        elif action.verb == "stay":
            yield from each(("stay", "i stay"), "stay")
        elif action.verb == "read":
            number = action.args[0]
            yield from each((f"read card {number_words(int(number))}",), f"read {number}", confirm=True)


def _tiles(view: dict[str, Any]) -> tuple[list[str], int]:
    """The tiles face up ('B3 DRAGON'), and how many are face down."""
    grid = view["grid"]
    face_up = [f"{position} {name}" for position, name in grid.items() if name is not None]
    return face_up, len(grid) - len(face_up)


ADAPTER: GameAdapter = StorytellingAdapter(SPEC)
