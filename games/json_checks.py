"""Checking JSON written by hand (a deck file) against the shape a game expects, finding every
problem at once: each is one sentence that starts with its field path, e.g.
``cards[3].pictures[1]: ...`` (list positions count from 0, as in JSON tools)."""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from games.base import join_names
from games.language import _, n_


class DeckProblems(ValueError):
    """Deck data that cannot be used: `problems` holds one sentence per problem."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


class JsonObject(dict[str, Any]):
    """A JSON object that remembers its keys written more than once (json keeps only the last).
    Read a file with `object_pairs_hook=JsonObject.from_pairs` for `Checker.object` to find them."""

    repeated: tuple[str, ...] = ()

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, Any]]) -> JsonObject:
        obj = cls(pairs)
        if len(obj) < len(pairs):
            keys = [key for key, _value in pairs]
            obj.repeated = tuple(dict.fromkeys(key for key in keys if keys.count(key) > 1))
        return obj


def kind(value: Any) -> str:
    """How a problem describes the value it found, e.g. the text 'WOLF', a list, null (JSON's
    own words null, true and false stay as the file writes them)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _("the number {value}").format(value=value)
    if isinstance(value, str):
        return _("the text {text}").format(text=repr(value)) if value.strip() else _("empty text")
    return _("a list") if isinstance(value, list) else _("an object")


def field(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def closest(word: str, choices: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(word, list(choices), n=1)
    return matches[0] if matches else None


class Checker:
    """Collects the problems of one file. Each reader returns None for a missing or wrong value
    (after noting the problem), so the caller can go on and find the next problem."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, path: str, problem: str) -> None:
        self.problems.append(f"{path}: {problem}" if path else problem)

    def object(
        self, value: Any, path: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Any] | None:
        """An object with all `fields`, maybe some `optional` ones, and no other key."""
        if not isinstance(value, dict):
            self.add(path, _("expected an object, found {found}").format(found=kind(value)))
            return None
        allowed = fields + optional
        for key in getattr(value, "repeated", ()):
            self.add(field(path, key), _("this field is written more than once; keep only one"))
        for key in fields:
            if key not in value:
                self.add(path, _("the field {field} is missing").format(field=repr(key)))
        for key in value:
            if key not in allowed:
                close = closest(key, allowed)
                if close:
                    problem = _("unknown field; did you mean {field}?").format(field=repr(close))
                else:
                    problem = _("unknown field; the fields here are {fields}").format(fields=join_names(allowed))
                self.add(field(path, key), problem)
        return value

    def text(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        if key not in parent:
            return None
        value = parent[key]
        if not isinstance(value, str) or not value.strip():
            self.add(field(path, key), _("expected some text, found {found}").format(found=kind(value)))
            return None
        return value.strip()

    def line(self, parent: dict[str, Any], key: str, path: str, limit: int) -> str | None:
        """Text said or shown as one line: white space of any kind is one space."""
        text = self.text(parent, key, path)
        if text is None:
            return None
        line = " ".join(text.split())
        if len(line) > limit:
            self.add(field(path, key), n_(
                "expected at most {limit} character, found {count}", "expected at most {limit} characters, found {count}",
                limit).format(limit=limit, count=len(line)))
            return None
        return line

    def whole(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        """A whole number of 1 or more."""
        if key not in parent:
            return None
        value = parent[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.add(field(path, key), _("expected a whole number of 1 or more, found {found}").format(
                found=kind(value)))
            return None
        return value

    def items(
        self, parent: dict[str, Any], key: str, path: str, low: int, high: int | None, wanted: str
    ) -> list[Any] | None:
        """A list of `low` to `high` items (no upper limit when None); a list of the wrong length
        is still returned, so that its items are checked too. `wanted` says what the list should
        hold, in the table's language ("exactly 13 cards")."""
        if key not in parent:
            return None
        value = parent[key]
        where = field(path, key)
        if not isinstance(value, list):
            self.add(where, _("expected a list of {wanted}, found {found}").format(wanted=wanted, found=kind(value)))
            return None
        if len(value) < low or (high is not None and len(value) > high):
            self.add(where, _("expected {wanted}, found {count}").format(wanted=wanted, count=len(value)))
        return value

    def game(self, root: dict[str, Any], expected: str) -> None:
        if "game" in root and root["game"] != expected:
            self.add("game", _("expected {expected}, found {found}").format(expected=repr(expected), found=kind(root["game"])))
