"""The Storytelling grid's places: how they are named ('A1' is top-left, letters name columns and
numbers rows), described to a player who cannot see the table, offered and typed."""
from __future__ import annotations

import re
import string
from functools import lru_cache

from games.base import Action, Choice

_TYPED_FLIP = re.compile(r"(?:flip\s+)?(?:([a-z])\s*(\d{1,2})|(\d{1,2})\s*([a-z]))", re.IGNORECASE)


@lru_cache(maxsize=None)
def places(rows: int, columns: int) -> tuple[str, ...]:
    """The names of the grid's places, row by row: 'A1' is top-left, letters name columns."""
    return tuple(f"{string.ascii_uppercase[column]}{row + 1}" for row in range(rows) for column in range(columns))


def grid_shape(rows: int, columns: int) -> str:
    """'a grid of 4 columns, A to D, and 4 rows, 1 to 4': what a player who cannot see the
    table pictures, and how places are named."""
    last = string.ascii_uppercase[columns - 1]
    lines = f"1 and {rows}" if rows == 2 else f"1 to {rows}"
    return f"a grid of {columns} columns, A to {last}, and {rows} rows, {lines}"


@lru_cache(maxsize=None)
def flip_choices(rows: int, columns: int) -> tuple[Choice, ...]:
    return tuple(Choice(Action("flip", None, (place,)), f"flip {place}") for place in places(rows, columns))


def typed_place(line: str) -> str | None:
    """The place a line names, typed 'B3', 'b3', 'b 3' or '3b', with or without 'flip': 'B3';
    None for any other line."""
    typed = _TYPED_FLIP.fullmatch(line.strip())
    if typed is None:
        return None
    letter, number = (typed[1], typed[2]) if typed[1] else (typed[4], typed[3])
    return f"{letter.upper()}{int(number)}"
