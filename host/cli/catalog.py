"""The games on the command line: `storyhost play GAME` options derived from each game's spec
(`games.registry`) and adapter (`host.adapters`), the range checks of number settings, and the
engine built from saved settings. Settings hold the whole deck, so a saved game never depends on
a deck file that may since have changed or gone."""
from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from games.language import _
from games.base import GameSpec, GameState, Option, SetupError, Settings, check_player_name
from host.adapters.base import adapter_for, adapters, services_for

#: the seed's range: what SQLite stores as an integer
SEED_RANGE = (0, 2**63 - 1)


def games() -> Mapping[str, GameSpec]:
    """The games `storyhost play` offers: every registered game with a host adapter."""
    return {name: adapter.spec for name, adapter in adapters().items()}


def _add_option(parser: argparse.ArgumentParser, option: Option, title: str) -> None:
    """A game's option, its help (marked where the option is defined) in the table's language."""
    flag, told = f"--{option.word}", _(option.help)
    if option.kind is bool:
        parser.add_argument(flag, dest=option.key, action="store_true",
                            help=_("{game}: {help}").format(game=title, help=told))
    elif option.kind is int:
        parser.add_argument(
            flag, dest=option.key, type=int, default=option.default, metavar="N",
            help=_("{game}: {help} ({low} to {high}, default {default})").format(
                game=title, help=told, low=option.low, high=option.high, default=option.default),
        )
    else:
        parser.add_argument(
            flag, dest=option.key, choices=option.choices, default=option.default,
            help=_("{game}: {help} (default {default})").format(game=title, help=told, default=option.default),
        )


def add_play_options(parser: argparse.ArgumentParser) -> None:
    """The options of `storyhost play GAME`: those of every game, each said to be whose."""
    known = games()
    parser.add_argument("game", choices=sorted(known), help=_("which game to play"))
    parser.add_argument(
        "--players", nargs="+", required=True, metavar="NAME",
        help=_("player names in seat order (the next player sits on the left), e.g. --players Nina Sabine Stephan"),
    )
    parser.add_argument("--seed", type=int, default=None, help=_("seed for shuffling (default: random)"))
    parser.add_argument(
        "--deck", default=None,
        help=_("a deck file of your own (Stories! cards, one Storytelling tale, or Dixit cards told in words); "
               "Dixit: 'described' for the built-in deck told in words"),
    )
    for name in sorted(known):
        adapter = adapter_for(name)
        for option in (*adapter.spec.options, *adapter.options):
            _add_option(parser, option, adapter.spec.title)
    parser.add_argument("--script", default=None, help=_("read commands from this file instead of the keyboard"))


def limits(spec: GameSpec) -> dict[str, tuple[str, int, int]]:
    """Each number setting of `spec`: its option and the range it must be in (the rulebooks'
    values lie well inside)."""
    ranges = {"seed": ("--seed", *SEED_RANGE)}
    for option in spec.options:
        if option.low is not None and option.high is not None:
            ranges[option.key] = (f"--{option.word}", option.low, option.high)
    return ranges


def check_settings(spec: GameSpec, settings: Settings) -> None:
    """SetupError when a number setting is out of its range: for a new game, and again for a
    saved one, which may have been saved before there was a range or edited since."""
    for key, (option, low, high) in limits(spec).items():
        value = settings.get(key, low)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            shown = f"{value}" if isinstance(value, int) and abs(value) < 10**18 else _("that")
            raise SetupError(_("{option} must be a whole number from {low} to {high}, not {value}.").format(
                option=option, low=low, high=high, value=shown))


def make(game: str, settings: Settings) -> Callable[[], GameState]:
    """The engine's factory for checked settings (SetupError when they are out of range,
    KeyError when the game is not one this host plays)."""
    spec = games()[game]
    check_settings(spec, settings)
    return lambda: spec.build(settings, services_for(settings))


def _names(entries: list[str]) -> list[str]:
    """--players as names: separated by spaces or commas (a comma may end an entry, 'Nina,');
    an empty name is kept, for the name check to refuse."""
    names = []
    for entry in entries:
        pieces = entry.split(",")
        if len(pieces) > 1 and pieces[-1] == "":
            pieces.pop()
        names += pieces
    return names


def new_settings(options: argparse.Namespace) -> dict[str, Any]:
    """Settings for a new game from `storyhost play` options (loads and checks the deck)."""
    options.players = [check_player_name(name) for name in _names(options.players)]
    if options.seed is None:
        options.seed = secrets.randbelow(2**31)
    adapter = adapter_for(options.game)
    settings = {
        "players": options.players,
        "seed": options.seed,
        **{option.key: getattr(options, option.key) for option in adapter.spec.options},
        **adapter.settings(options),
    }
    check_settings(adapter.spec, settings)
    return settings
