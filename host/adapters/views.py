"""What a game shows on the companion's screens, as typed values that each game's adapter fills
in and the pages render: one player's turn on their own phone (`PhoneTurn`: what to do now, the
moves they may make, what only they know) and the table as a TV across the room shows it
(`TableView`: public only).

A phone sends back a verb and a value; the session finds them among the moves its player is
offered now (`PhoneTurn.action`), so a phone can make only an action its own page offers, already
made for its player, and nothing is parsed or guessed from what it sent.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from games.base import Action


@dataclass(frozen=True)
class Button:
    """One choice of an `Ask`: `value` is what the phone sends back, `text` what the button shows,
    `name` what a screen reader says when `text` alone is not enough (it contains `text`),
    `chosen` marks the player's current choice (their vote). Without an action it is shown and
    cannot be pressed (a face-up tile among the ones to flip)."""

    value: str
    text: str
    action: Action | None
    name: str = ""
    chosen: bool = False


@dataclass(frozen=True)
class Ask:
    """A move a player may make now: a question and its buttons, or with `field` a text to type
    (a term, a clue) under the label `prompt`, sent by its one button, whose action takes the
    text as its last argument. `large`: numbered buttons shown large (a vote); `columns`: the
    buttons laid out as a grid (the tiles)."""

    verb: str
    prompt: str
    buttons: tuple[Button, ...]
    field: bool = False
    large: bool = False
    columns: int = 0

    def action(self, value: str) -> Action | None:
        """The action of the button sent with `value`, or of the typed text; None if not offered."""
        if self.field:
            made = self.buttons[0].action
            return None if made is None or not value else Action(made.verb, made.player, (*made.args[:-1], value))
        return next((button.action for button in self.buttons if _plain(button.value) == _plain(value) and button.action), None)


def _plain(value: str) -> str:
    """A value as the server passes it on: composed Unicode, single spaces."""
    return " ".join(unicodedata.normalize("NFC", value).split())


@dataclass(frozen=True)
class PhoneTurn:
    """One player's turn as their phone shows it: `now`, what to do in plain words (or whom the
    game waits for); `asks`, their moves; `yours`, what only they know (their terms, their vote)."""

    now: str
    asks: tuple[Ask, ...] = ()
    yours: tuple[str, ...] = ()

    def action(self, verb: str, value: str) -> Action | None:
        """The action a phone asks for with `verb` and `value`, if this turn offers it."""
        ask = next((ask for ask in self.asks if ask.verb == verb), None)
        return None if ask is None else ask.action(value)


@dataclass(frozen=True)
class Meter:
    """A count out of a whole, shown as a number and dots (or a bar): a player's ticks, the hare."""

    name: str
    count: int
    of: int
    #: what is counted, after "2 of 5": "ticked", "squares"
    unit: str
    #: beside the count: "1 question"
    note: str = ""


@dataclass(frozen=True)
class Tile:
    place: str
    #: None while face down
    name: str | None


@dataclass(frozen=True)
class Grid:
    rows: int
    columns: int
    #: row by row, 'A1' top left
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class TableCard:
    """A card laid out on the table, by its number: whose it is once known, and its votes once
    the rules reveal them (None before)."""

    number: int
    owner: str = ""
    votes: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TableView:
    """The game as everyone may see it, for the table page: `heading` (which story or turn),
    `now` (the phase in plain words), `big` (the card's sentence, the clue) under `big_label`,
    `timer_of` (a timed story's whole time, for the timer's bar), `meters` under `meters_label`,
    the tiles, the cards laid out, and `lines`: anything else, in words."""

    heading: str
    now: str
    big: str = ""
    big_label: str = ""
    timer_of: int | None = None
    meters: tuple[Meter, ...] = ()
    meters_label: str = ""
    grid: Grid | None = None
    cards: tuple[TableCard, ...] = ()
    lines: tuple[str, ...] = ()


def shown(value: Any) -> Any:
    """A screen value as the pages' JSON: dataclasses as objects, without their actions (which stay
    on the laptop: a phone sends back a verb and a value only)."""
    if isinstance(value, Button):  # the phone learns only whether it can be pressed
        return {"value": value.value, "text": value.text, "name": value.name, "chosen": value.chosen,
                "pressable": value.action is not None}
    if is_dataclass(value) and not isinstance(value, type):
        return {field.name: shown(getattr(value, field.name)) for field in fields(value)}
    if isinstance(value, tuple):
        return [shown(item) for item in value]
    return value
