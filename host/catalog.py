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

from games.base import GameState
from games.decks import TALE_KEYS, OpeningCard, Tale, TaleCard, Tile
from games.dixit import DECK_SIZE, DixitState
from games.stories import StoriesState
from games.storytelling import StorytellingState
from host import decks
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


def new_settings(options: argparse.Namespace) -> dict[str, Any]:
    """Settings for a new game from `storyhost play` options (loads and checks the deck)."""
    options.players = [name for entry in options.players for name in entry.split(",") if name]
    if options.seed is None:
        options.seed = secrets.randbelow(2**31)
    if options.timer <= 0:
        raise ValueError("--timer must be a positive number of seconds.")
    return GAMES[options.game].settings(options)
