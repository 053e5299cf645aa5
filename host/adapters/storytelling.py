"""Storytelling at the table: the tale (built in or a deck file), who reads the cards (with a
person reading, the card read aloud is recognised and 'read' is offered), the grid on request,
the phrases of its moves, the active player's moves on their phone and the table page."""
from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import string

from games.base import Action, GameState, Option, Settings, already_set, fold_name, view_of
from games.decks import TALE_KEYS, Tale
from games.grid import grid_shape
from games.language import N_, _, n_, p_
from games.storytelling import BLOWN, SPEC, Phase, StorytellingView, said_words
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
        Option("tale", "saint-george", N_("which tale"), choices=TALE_KEYS),
        Option(
            "storyteller", "host",
            N_("who reads the cards; with a human storyteller and --speech the host recognises the card read aloud"),
            choices=("host", "human"),
        ),
    )
    commands = frozenset({"grid"})
    phone_verbs = frozenset({"flip", "blow", "retire", "stay"})
    move_nouns: Mapping[str, tuple[str, str]] = {"read": (N_("reading of a card"), N_("reading of card {}")),
                                                 "flip": (N_("flip"), N_("flip of {}"))}
    @property
    def host_phrases(self) -> tuple[HostPhrase, ...]:
        """One of the grid's lines, on request, in the table's words ("grid row four", "cuadrícula
        fila cuatro"): rows 1 to 4 and columns A to H (the race's grid is 2 rows of 8)."""
        grid, row, column = p_("verb", "grid"), p_("line", "row"), p_("line", "column")
        return (
            *(((f"{grid} {row} {number_words(number)}",), f"grid row {number}", False) for number in range(1, 5)),
            *(((f"{grid} {column} {letter}",), f"grid column {letter.upper()}", False) for letter in "abcdefgh"),
        )

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        return {"tale": asdict(decks.load_tale(options.deck or options.tale)), "storyteller": options.storyteller}

    def variant(self, settings: Settings) -> str:
        title = Tale.of_game(settings).title  # in the game's language
        if settings.get("advanced"):
            title = _("{tale}, advanced rules").format(tale=title)
        return f" ({title})"

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
        lines = {fold_name(word): line for line, word in said_words().items() if line in ("row", "column")}
        words = [lines.get(fold_name(word), word) for word in which.casefold().split()]  # 'fila' is 'row'
        if not words:
            face_up, hidden = _tiles(view)
            if not face_up:
                return _("The tiles lie in {shape}. All {count} tiles are face down.").format(shape=shape, count=hidden)
            return n_("The tiles lie in {shape}. Face up: {tiles}. The other {count} tile is face down.",
                      "The tiles lie in {shape}. Face up: {tiles}. The other {count} tiles are face down.",
                      hidden).format(shape=shape, tiles=_(", ").join(face_up), count=hidden)
        letters = string.ascii_lowercase[:columns]
        asked = words[-1] if len(words) == 1 or (len(words) == 2 and words[0] in ("row", "column")) else ""
        if asked.isdecimal() and words[0] != "column" and 1 <= int(asked) <= rows:
            line, places = N_("Row {line}: {places}."), [f"{letter.upper()}{int(asked)}" for letter in letters]
            asked = str(int(asked))
        elif len(asked) == 1 and asked in letters and words[0] != "row":
            line, places = N_("Column {line}: {places}."), [f"{asked.upper()}{row}" for row in range(1, rows + 1)]
            asked = asked.upper()
        else:
            return _("The tiles lie in {shape}: say {grid}, {grid} row and a number from 1 to {rows}, or {grid} column "
                     "and a letter from A to {last}.").format(shape=shape, grid=p_("verb", "grid"), rows=rows,
                                                             last=letters[-1].upper())
        tiles = [_("{place} {tile}").format(place=place, tile=view.tile(place)) if view.tile(place)
                 else _("{place} face down").format(place=place) for place in places]
        return _(line).format(line=asked, places=_(", ").join(tiles))

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        """How a flip is typed; the moves after a failed turn say their own lines."""
        view = view_of(state, None, StorytellingView)
        if view.phase != Phase.FLIP:
            return None
        down = next(place.place for place in view.grid if place.name is None)
        return ("flip", _("Type flip and a place, its column letter then its row number, for example flip {place}; "
                          "{grid} says which tiles are face up.").format(place=down, grid=p_("verb", "grid")))

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
                Button(tile.place, tile.place, Action("flip", None, (tile.place,)),
                       name=_("Flip {place}").format(place=tile.place))
                if tile.name is None else Button(tile.place, f"{tile.place}: {tile.name}", None)
                for tile in view.grid
            )
            if found:
                now = _("Right, {found} of {count} found. Flip a tile to find the {picture}.").format(
                    found=found, count=len(pictures), picture=pictures[found])
            else:
                now = _("Your turn: find the {pictures}. Flip a tile to find the {picture}.").format(
                    pictures=_(", then the ").join(pictures), picture=pictures[0])
            return PhoneTurn(now, (Ask("flip", _("The tiles"), tiles, columns=view.columns),))
        if phase == Phase.BLOW:
            said = said_words()
            buttons = tuple(
                Button(f"{line} {direction}", f"{said[line].capitalize()} {said[direction]}",
                       Action("blow", None, (line, direction)), name=_(label).capitalize())
                for (line, direction), (_told, _brief, label) in BLOWN.items()
            )
            return PhoneTurn(_("The wolf blew! Move the row or the column through {tile} one place.").format(
                tile=_blew(view)), (Ask("blow", _("Which way?"), buttons),))
        buttons = (Button("retire", _("Retire and keep my cards"), Action("retire")),
                   Button("stay", _("Stay in the game"), Action("stay")))
        return PhoneTurn(_("Retire now and keep your cards, or stay and risk them at midnight?"),
                         (Ask("retire", _("Leave the game with your cards"), buttons[:1]),
                          Ask("stay", _("Play on, and risk your cards at midnight"), buttons[1:])))

    def table(self, state: GameState) -> TableView:
        """The tale, whose turn, the card and its pictures, the tiles face up, the clock or the race."""
        view = view_of(state, None, StorytellingView)
        phase = view.phase
        grid = Grid(view.rows, view.columns, tuple(Tile(tile.place, tile.name) for tile in view.grid))
        heading = _("{tale}: {player}'s turn").format(tale=view.tale, player=view.active) if view.active else view.tale
        card = view.card
        meters = []
        if view.clock:
            meters.append(Meter(_("Clock"), view.clock.steps, view.clock.of, _("steps")))
        if view.race:
            race = view.race
            meters += [Meter(_("Tortoise"), race.tortoise, race.finish, _("squares")),
                       Meter(_("Hare"), race.hare, race.finish, _("squares"))]
        if phase == Phase.OVER:
            now = state.status()
        elif phase == Phase.FLIP:
            found = len(view.found)
            steps = [_("{picture} (found)").format(picture=picture) if index < found
                     else _("{picture} (next)").format(picture=picture) if index == found else picture
                     for index, picture in enumerate(already_set(card, "the card").pictures)]
            now = n_("{player} is finding {count} picture: {pictures}.", "{player} is finding {count} pictures: {pictures}.",
                     len(steps)).format(player=view.active, count=len(steps), pictures=_(", ").join(steps))
        elif phase == Phase.BLOW:
            now = _("The wolf blew: {player} moves a row or a column through {tile}.").format(
                player=view.active, tile=_blew(view))
        else:
            now = _("{player} retires or stays.").format(player=view.active)
        return TableView(
            heading, now, card.text if card else "", _("Card {number}").format(number=card.number) if card else "",
            meters=tuple(meters), meters_label=_("The race") if view.race else _("Midnight") if view.clock else "",
            grid=grid,
        )

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The ways to say a move in the table's language; numbers as digits, which `each` spells
        as the recognizer does. The line each stands for is the move's id ('flip B3')."""
        if action.verb == "flip":
            place = action.args[0]
            column, row = place[0].lower(), int(place[1:])
            yield from each(
                (p_("spoken", "flip {column} {row}").format(column=column, row=row), f"{column} {row}",
                 p_("spoken", "row {row} column {number}").format(row=row, number=ord(column) - ord("a") + 1)),
                f"flip {place}",
            )
        elif action.verb == "blow":
            line, direction = action.args
            said = said_words()
            yield from each((_(BLOWN[(line, direction)][2]), f"{said[line]} {said[direction]}"),
                            f"blow {line} {direction}")
        elif action.verb == "retire":
            yield from each((p_("spoken", "retire"), p_("spoken", "i retire")), "retire", confirm=True)
        elif action.verb == "stay":
            yield from each((p_("spoken", "stay"), p_("spoken", "i stay")), "stay")
        elif action.verb == "read":
            number = action.args[0]
            yield from each((p_("spoken", "read card {number}").format(number=int(number)),), f"read {number}",
                            confirm=True)

@dataclass
class GridAnswer(BasicListener):
    """Answers 'grid' (and 'grid row 2', 'grid column B')."""

    grid: Callable[[GameState, str], str]

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        return iter((Reply(self.grid(state, request.rest)),)) if request.name == "grid" else None


def _blew(view: StorytellingView) -> str:
    """The name of the wolf's tile, the one face up while the wolf blows (BLEW)."""
    return next(tile.name for tile in view.grid if tile.name is not None)


def _tiles(view: StorytellingView) -> tuple[list[str], int]:
    """The tiles face up ('B3 DRAGON'), and how many are face down."""
    face_up = [f"{tile.place} {tile.name}" for tile in view.grid if tile.name is not None]
    return face_up, len(view.grid) - len(face_up)


ADAPTER: GameAdapter = StorytellingAdapter(SPEC)
