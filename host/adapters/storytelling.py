"""Storytelling at the table: the tale (built in or a deck file), who reads the cards (with a
person reading, the card read aloud is recognised and 'read' is offered), the grid on request,
the phrases of its moves, the active player's moves on their phone and the table page."""
from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import string

from games.base import Action, GameState, Option, Settings, already_set, plural, view_of
from games.decks import TALE_KEYS, Tale
from games.grid import grid_shape
from games.storytelling import BLOWS, SPEC, Phase, StorytellingView
from host.adapters.base import BasicAdapter, GameAdapter, waiting
from host.adapters.card_reading import CardReading
from host.adapters.listening import BasicListener, Hearing, Listener, Reply, Response
from host.adapters.views import Ask, Button, Grid, Meter, PhoneTurn, TableView, Tile
from host.storage import decks
from host.commands import HostPhrase
from host.voice.control import HostRequest
from host.voice.phrases import Names, Phrase, each
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
    phone_verbs = frozenset({"flip", "blow", "retire", "stay"})
    move_nouns: Mapping[str, tuple[str, str]] = {"read": ("reading of a card", "reading of card {}"),
                                                 "flip": ("flip", "flip of {}")}
    #: one of the grid's lines, on request (rows 1 to 4 and columns A to H: the race's grid
    #: is 2 rows of 8)
    host_phrases: tuple[HostPhrase, ...] = (
        *(((f"grid row {number_words(row)}",), f"grid row {row}", False) for row in range(1, 5)),
        *(((f"grid column {letter}",), f"grid column {letter.upper()}", False) for letter in "abcdefgh"),
    )

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        return {"tale": asdict(decks.load_tale(options.deck or options.tale)), "storyteller": options.storyteller}

    def variant(self, settings: Settings) -> str:
        return f" ({settings['tale']['title']}{', advanced rules' if settings.get('advanced') else ''})"

    def without(self, settings: Settings) -> frozenset[str]:
        """A card is chosen by reading it only when a person is the storyteller."""
        return frozenset() if settings.get("storyteller") == "human" else frozenset({"read"})

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        """'grid' answered; with speech and a person reading the cards, the card read aloud heard."""
        grid = GridAnswer(self.grid)
        if not hearing.speech or settings.get("storyteller") != "human":
            return (grid,)
        tale = Tale.of_game(settings)
        return grid, CardReading({card.number: card.text for card in tale.cards}, tale.language)

    def grid(self, state: GameState, which: str = "") -> str:
        """The grid's shape and the tiles face up; or one row or column, place by place:
        'grid row 2', 'grid column B' (also 'grid 2', 'grid B')."""
        view = view_of(state, None, StorytellingView)
        rows, columns = view.rows, view.columns
        shape = grid_shape(rows, columns)
        words = which.casefold().split()
        if not words:
            face_up, hidden = _tiles(view)
            if not face_up:
                return f"The tiles lie in {shape}. All {hidden} tiles are face down."
            return f"The tiles lie in {shape}. Face up: {', '.join(face_up)}. The other {hidden} tiles are face down."
        letters = string.ascii_lowercase[:columns]
        asked = words[-1] if len(words) == 1 or (len(words) == 2 and words[0] in ("row", "column")) else ""
        if asked.isdecimal() and words[0] != "column" and 1 <= int(asked) <= rows:
            line, places = f"Row {int(asked)}", [f"{letter.upper()}{int(asked)}" for letter in letters]
        elif len(asked) == 1 and asked in letters and words[0] != "row":
            line, places = f"Column {asked.upper()}", [f"{asked.upper()}{row}" for row in range(1, rows + 1)]
        else:
            return (f"The tiles lie in {shape}: say grid, grid row and a number from 1 to {rows}, or grid column "
                    f"and a letter from A to {letters[-1].upper()}.")
        return f"{line}: " + ", ".join(f"{place} {view.tile(place) or 'face down'}" for place in places) + "."

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        """How a flip is typed; the moves after a failed turn say their own lines."""
        view = view_of(state, None, StorytellingView)
        if view.phase != Phase.FLIP:
            return None
        down = next(place.place for place in view.grid if place.name is None)
        return ("flip", f"Type flip and a place, its column letter then its row number, for example flip {down}; "
                        "grid says which tiles are face up.")

    def actor(self, state: GameState, action: Action) -> str | None:
        """The active player makes every move; a card read is the storyteller's, who is no player."""
        return None if action.verb == "read" else view_of(state, None, StorytellingView).active

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """The active player flips tiles, blows a row or column, retires or stays."""
        if state.is_over():
            return PhoneTurn(state.status())
        view = view_of(state, player, StorytellingView)
        active, phase = view.active, view.phase
        if player != active:
            return PhoneTurn(waiting(state, player))
        if phase == Phase.FLIP:
            pictures = already_set(view.card, "the card").pictures
            found = len(view.found)
            tiles = tuple(
                Button(tile.place, tile.place, Action("flip", None, (tile.place,)), name=f"Flip {tile.place}")
                if tile.name is None else Button(tile.place, f"{tile.place}: {tile.name}", None)
                for tile in view.grid
            )
            if found:
                now = f"Right, {found} of {len(pictures)} found. Flip a tile to find the {pictures[found]}."
            else:
                now = f"Your turn: find the {', then the '.join(pictures)}. Flip a tile to find the {pictures[0]}."
            return PhoneTurn(now, (Ask("flip", "The tiles", tiles, columns=view.columns),))
        if phase == Phase.BLOW:
            buttons = tuple(
                Button(f"{line} {direction}", f"{line.capitalize()} {direction}", Action("blow", None, (line, direction)),
                       name=f"Blow the {line} {direction}")
                for line, directions in BLOWS.items() for direction in directions
            )
            return PhoneTurn("The wolf blew! Move the row or the column through BLEW one place.",
                             (Ask("blow", "Which way?", buttons),))
        buttons = (Button("retire", "Retire and keep my cards", Action("retire")),
                   Button("stay", "Stay in the game", Action("stay")))
        return PhoneTurn("Retire now and keep your cards, or stay and risk them at midnight?",
                         (Ask("retire", "Leave the game with your cards", buttons[:1]),
                          Ask("stay", "Play on, and risk your cards at midnight", buttons[1:])))

    def table(self, state: GameState) -> TableView:
        """The tale, whose turn, the card and its pictures, the tiles face up, the clock or the race."""
        view = view_of(state, None, StorytellingView)
        phase = view.phase
        grid = Grid(view.rows, view.columns, tuple(Tile(tile.place, tile.name) for tile in view.grid))
        heading = f"{view.tale}: {view.active}'s turn" if view.active else view.tale
        card = view.card
        meters = []
        if view.clock:
            meters.append(Meter("Clock", view.clock.steps, view.clock.of, "steps"))
        if view.race:
            race = view.race
            meters += [Meter("Tortoise", race.tortoise, race.finish, "squares"),
                       Meter("Hare", race.hare, race.finish, "squares")]
        if phase == Phase.OVER:
            now = state.status()
        elif phase == Phase.FLIP:
            found = len(view.found)
            steps = [f"{picture} (found)" if index < found else f"{picture} (next)" if index == found else picture
                     for index, picture in enumerate(already_set(card, "the card").pictures)]
            now = f"{view.active} is finding {plural(len(steps), 'picture')}: {', '.join(steps)}."
        elif phase == Phase.BLOW:
            now = f"The wolf blew: {view.active} moves a row or a column through BLEW."
        else:
            now = f"{view.active} retires or stays."
        return TableView(
            heading, now, card.text if card else "", f"Card {card.number}" if card else "",
            meters=tuple(meters), meters_label="The race" if view.race else "Midnight" if view.clock else "",
            grid=grid,
        )

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


@dataclass
class GridAnswer(BasicListener):
    """Answers 'grid' (and 'grid row 2', 'grid column B')."""

    grid: Callable[[GameState, str], str]

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        return iter((Reply(self.grid(state, request.rest)),)) if request.name == "grid" else None


def _tiles(view: StorytellingView) -> tuple[list[str], int]:
    """The tiles face up ('B3 DRAGON'), and how many are face down."""
    face_up = [f"{tile.place} {tile.name}" for tile in view.grid if tile.name is not None]
    return face_up, len(view.grid) - len(face_up)


ADAPTER: GameAdapter = StorytellingAdapter(SPEC)
