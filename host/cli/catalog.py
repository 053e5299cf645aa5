"""The three games as the host knows them: settings from command-line options, and the engine
built from saved settings. Settings hold the whole deck, so a saved game never depends on a
deck file that may since have changed or gone."""
from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from games.base import GameState, SetupError, check_player_name
from games.decks import TALE_KEYS, OpeningCard, Tale, TaleCard, Tile
from games.dixit import DECK_SIZE, DixitState
from games.stories import StoriesState
from games.storytelling import StorytellingState
from host.storage import decks
from nlp import TermReferee, load_referee


@lru_cache(maxsize=1)
def referee() -> TermReferee:
    """The term referee is loaded once per process: it holds the language resources."""
    return load_referee()


def _stories_settings(options: argparse.Namespace) -> dict[str, Any]:
    cards = decks.load_opening_cards(options.deck)
    return {
        "players": options.players,
        "seed": options.seed,
        "timer_seconds": options.timer,
        "cards": [asdict(card) for card in cards],
    }


def _stories(settings: dict[str, Any]) -> Callable[[], GameState]:
    cards = [OpeningCard(**card) for card in settings["cards"]]
    rules = referee()
    return lambda: StoriesState(
        settings["players"], cards, settings["seed"], rules, timer_seconds=settings["timer_seconds"]
    )


def tale_from_dict(data: dict[str, Any]) -> Tale:
    return Tale(
        key=data["key"],
        title=data["title"],
        tiles=tuple(Tile(**tile) for tile in data["tiles"]),
        cards=tuple(
            TaleCard(card["number"], card["text"], tuple(card["pictures"]), card["points"])
            for card in data["cards"]
        ),
    )


def _storytelling_settings(options: argparse.Namespace) -> dict[str, Any]:
    tale = decks.load_tale(options.deck or options.tale)
    return {
        "players": options.players,
        "seed": options.seed,
        "tale": asdict(tale),
        "advanced": options.advanced,
        "clock_steps": options.clock_steps,
        "track_length": options.track_length,
        "storyteller": options.storyteller,
    }


def _storytelling(settings: dict[str, Any]) -> Callable[[], GameState]:
    tale = tale_from_dict(settings["tale"])
    return lambda: StorytellingState(
        settings["players"],
        tale,
        settings["seed"],
        advanced=settings["advanced"],
        clock_steps=settings["clock_steps"],
        track_length=settings["track_length"],
    )


def _dixit_settings(options: argparse.Namespace) -> dict[str, Any]:
    return {"players": options.players, "contando": options.contando, "deck_size": options.cards}


def _dixit(settings: dict[str, Any]) -> Callable[[], GameState]:
    # games saved before --cards existed were played with the full deck
    deck_size = settings.get("deck_size", DECK_SIZE)
    return lambda: DixitState(settings["players"], contando=settings["contando"], deck_size=deck_size)


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    settings: Callable[[argparse.Namespace], dict[str, Any]]
    factory: Callable[[dict[str, Any]], Callable[[], GameState]]


GAMES: dict[str, GameSpec] = {
    "stories": GameSpec("stories", "Stories!", _stories_settings, _stories),
    "storytelling": GameSpec("storytelling", "Storytelling", _storytelling_settings, _storytelling),
    "dixit": GameSpec("dixit", "Dixit", _dixit_settings, _dixit),
}


def add_play_options(parser: argparse.ArgumentParser) -> None:
    """The options of `storyhost play GAME`."""
    parser.add_argument("game", choices=sorted(GAMES), help="which game to play")
    parser.add_argument(
        "--players", nargs="+", required=True, metavar="NAME",
        help="player names in seat order (the next player sits on the left), e.g. --players Nina Sabine Stephan",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for shuffling (default: random)")
    parser.add_argument("--deck", default=None, help="a deck file of your own (Stories! cards or one Storytelling tale)")
    parser.add_argument("--timer", type=int, default=60, help="Stories!: seconds per story (default 60)")
    parser.add_argument("--tale", choices=TALE_KEYS, default="saint-george", help="Storytelling: which tale")
    parser.add_argument("--advanced", action="store_true", help="Storytelling: the tale's advanced rules")
    parser.add_argument("--clock-steps", type=int, default=12, help="Storytelling, Cinderella: clock steps (default 12)")
    parser.add_argument("--track-length", type=int, default=16, help="Storytelling, the race: squares to Finish (default 16)")
    parser.add_argument(
        "--storyteller", choices=("host", "human"), default="host",
        help="Storytelling: who reads the cards; with a human storyteller and --speech the host "
        "recognises the card read aloud (default: the host reads them)",
    )
    parser.add_argument("--contando", action="store_true", help="Dixit: the Contando scoring variant")
    parser.add_argument(
        "--cards", type=int, default=DECK_SIZE, metavar="N",
        help=f"Dixit: cards in the deck you play with, e.g. a partial deck or with expansions (default {DECK_SIZE})",
    )
    parser.add_argument("--script", default=None, help="read commands from this file instead of the keyboard")


#: every number setting: its option and the range it must be in (the rulebooks' values lie well inside)
LIMITS = {
    "seed": ("--seed", 0, 2**63 - 1),
    "timer_seconds": ("--timer", 1, 3600),
    "clock_steps": ("--clock-steps", 1, 60),
    "track_length": ("--track-length", 1, 100),
    "deck_size": ("--cards", 1, 1000),
}


def check_settings(settings: dict[str, Any]) -> None:
    """SetupError when a number setting is out of its range: for a new game, and again for a
    saved one, which may have been saved before there was a range or edited since."""
    for key, (option, low, high) in LIMITS.items():
        value = settings.get(key, low)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            shown = f"{value}" if isinstance(value, int) and abs(value) < 10**18 else "that"
            raise SetupError(f"{option} must be a whole number from {low} to {high}, not {shown}.")


def make(game: str, settings: dict[str, Any]) -> Callable[[], GameState]:
    """The engine's factory for checked settings (SetupError when they are out of range)."""
    check_settings(settings)
    return GAMES[game].factory(settings)


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
    if options.deck is not None and options.game == "dixit":
        raise SetupError(
            "--deck is for Stories! cards or a Storytelling tale: Dixit is played with the cards on the table "
            "(--cards N says how many)."
        )
    settings = GAMES[options.game].settings(options)
    check_settings(settings)
    return settings
