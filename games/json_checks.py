"""Checking JSON written by hand (a deck file) against the shape a game expects, finding every
problem at once: each is one sentence that starts with its field path, e.g.
``cards[3].pictures[1]: ...`` (list positions count from 0, as in JSON tools)."""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any


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
            keys = [key for key, _ in pairs]
            obj.repeated = tuple(dict.fromkeys(key for key in keys if keys.count(key) > 1))
        return obj


def kind(value: Any) -> str:
    """How a problem describes the value it found, e.g. the text 'WOLF', a list, null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}" if value.strip() else "empty text"
    return "a list" if isinstance(value, list) else "an object"


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
            self.add(path, f"expected an object, found {kind(value)}")
            return None
        allowed = fields + optional
        for key in getattr(value, "repeated", ()):
            self.add(field(path, key), "this field is written more than once; keep only one")
        for key in fields:
            if key not in value:
                self.add(path, f"the field {key!r} is missing")
        for key in value:
            if key not in allowed:
                close = closest(key, allowed)
                hint = f"did you mean {close!r}?" if close else f"the fields here are {', '.join(allowed)}"
                self.add(field(path, key), f"unknown field; {hint}")
        return value

    def text(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        if key not in parent:
            return None
        value = parent[key]
        if not isinstance(value, str) or not value.strip():
            self.add(field(path, key), f"expected some text, found {kind(value)}")
            return None
        return value.strip()

    def line(self, parent: dict[str, Any], key: str, path: str, limit: int) -> str | None:
        """Text said or shown as one line: white space of any kind is one space."""
        text = self.text(parent, key, path)
        if text is None:
            return None
        line = " ".join(text.split())
        if len(line) > limit:
            self.add(field(path, key), f"expected at most {limit} characters, found {len(line)}")
            return None
        return line

    def whole(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        """A whole number of 1 or more."""
        if key not in parent:
            return None
        value = parent[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.add(field(path, key), f"expected a whole number of 1 or more, found {kind(value)}")
            return None
        return value

    def items(
        self, parent: dict[str, Any], key: str, path: str, low: int, high: int | None, wanted: str
    ) -> list[Any] | None:
        """A list of `low` to `high` items (no upper limit when None); a list of the wrong length
        is still returned, so that its items are checked too."""
        if key not in parent:
            return None
        value = parent[key]
        where = field(path, key)
        if not isinstance(value, list):
            self.add(where, f"expected a list of {wanted}, found {kind(value)}")
            return None
        if len(value) < low or (high is not None and len(value) > high):
            self.add(where, f"expected {wanted}, found {len(value)}")
        return value

    def game(self, root: dict[str, Any], expected: str) -> None:
        if "game" in root and root["game"] != expected:
            self.add("game", f"expected {expected!r}, found {kind(root['game'])}")
