"""The Storytelling grid's places: how they are named ('A1' is top-left, letters name columns and
numbers rows), described to a player who cannot see the table, offered and typed."""
from __future__ import annotations

import re
import string
from functools import lru_cache

from games.base import Action, Choice, fold_name
from games.language import _, p_

_TYPED_PLACE = re.compile(r"([a-z])\s*(\d{1,2})|(\d{1,2})\s*([a-z])", re.IGNORECASE)


@lru_cache(maxsize=None)
def places(rows: int, columns: int) -> tuple[str, ...]:
    """The names of the grid's places, row by row: 'A1' is top-left, letters name columns."""
    return tuple(f"{string.ascii_uppercase[column]}{row + 1}" for row in range(rows) for column in range(columns))


def grid_shape(rows: int, columns: int) -> str:
    """'a grid of 4 columns, A to D, and 4 rows, 1 to 4': what a player who cannot see the
    table pictures, and how places are named."""
    last = string.ascii_uppercase[columns - 1]
    if rows == 2:
        return _("a grid of {columns} columns, A to {last}, and 2 rows, 1 and 2").format(columns=columns, last=last)
    return _("a grid of {columns} columns, A to {last}, and {rows} rows, 1 to {rows}").format(
        columns=columns, last=last, rows=rows)


def flip_choices(rows: int, columns: int) -> tuple[Choice, ...]:
    return tuple(Choice(Action("flip", None, (place,)), _("flip {place}").format(place=place))
                 for place in places(rows, columns))


def typed_place(line: str) -> str | None:
    """The place a line names, typed 'B3', 'b3', 'b 3' or '3b', with or without 'flip' (or the
    word for flip in the table's language): 'B3'; None for any other line."""
    words = line.split(maxsplit=1)
    if len(words) == 2 and fold_name(words[0]) in {"flip", fold_name(p_("verb", "flip"))}:
        line = words[1]
    typed = _TYPED_PLACE.fullmatch(line.strip())
    if typed is None:
        return None
    letter, number = (typed[1], typed[2]) if typed[1] else (typed[4], typed[3])
    return f"{letter.upper()}{int(number)}"
