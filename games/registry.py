"""The games there are: each module of `games/` that exports a `SPEC` (a `GameSpec`), found on
first use, and any game registered since (as OpenSpiel registers its games); and their package
data, each game's in games/data/NAME/: its rules text and its built-in decks."""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from importlib.resources import files
from typing import TYPE_CHECKING

import games
from games.base import GameSpec

if TYPE_CHECKING:
    from importlib.abc import Traversable

_registered: dict[str, GameSpec] = {}
_found = False


def register(spec: GameSpec) -> None:
    """Make `spec` a game; a second game of the same name is a bug."""
    known = _registered.get(spec.name)
    if known is not None and known is not spec:
        raise ValueError(f"Two games are called {spec.name!r}.")
    _registered[spec.name] = spec


def registered() -> Mapping[str, GameSpec]:
    """Every game by name: the modules of `games/` with a SPEC, then those registered since."""
    global _found
    if not _found:
        for module in pkgutil.iter_modules(games.__path__):
            spec = getattr(importlib.import_module(f"games.{module.name}"), "SPEC", None)
            if isinstance(spec, GameSpec):
                register(spec)
        _found = True
    return _registered


def game_data(name: str) -> Traversable:
    """The folder of game `name`'s package data."""
    return files("games") / "data" / name


def rules_text(name: str) -> Traversable:
    """The rules of game `name` as `storyhost rules NAME` presents them (a game may have none yet)."""
    return game_data(name) / "rules.md"
