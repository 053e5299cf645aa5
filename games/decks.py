"""Value types of the printed content the engines play with: Stories! opening cards and
Storytelling tales (tiles and numbered cards). Files are read and checked in host.storage.decks."""
from __future__ import annotations

from dataclasses import dataclass

TALE_KEYS = ("saint-george", "three-pigs", "cinderella", "hare-tortoise")
FRAME_COLOURS = ("red", "blue", "green", "yellow")


@dataclass(frozen=True)
class OpeningCard:
    """A Stories! card: the normal (green) and the quirky (purple) opening sentence."""

    normal: str
    quirky: str


@dataclass(frozen=True)
class Tile:
    """A Storytelling picture tile; `frame` is its frame colour (Cinderella only)."""

    name: str
    frame: str | None = None


@dataclass(frozen=True)
class TaleCard:
    """A numbered Storytelling card: the text read aloud, the pictures in order, the points."""

    number: int
    text: str
    pictures: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Tale:
    """One Storytelling story: 16 tiles and 13 cards numbered 1 to 13."""

    key: str
    title: str
    tiles: tuple[Tile, ...]
    cards: tuple[TaleCard, ...]

    def tile(self, name: str) -> Tile:
        return next(tile for tile in self.tiles if tile.name == name)
