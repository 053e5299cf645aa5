"""Value types of the printed content the engines play with: Stories! opening cards,
Storytelling tales (tiles and numbered cards) and Dixit cards told in words. Files are read and
checked in host.storage.decks."""
from __future__ import annotations

import re
from dataclasses import dataclass

TALE_KEYS = ("saint-george", "three-pigs", "cinderella", "hare-tortoise")
FRAME_COLOURS = ("red", "blue", "green", "yellow")
#: a sentence ends at . ! or ? (maybe followed by a closing quote or bracket) before a space
_SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))\s+")


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


def sentences(text: str) -> tuple[str, ...]:
    """The sentences of a text, each ending at . ! or ? before a space (an abbreviation such as
    "Mr." ends one too, so a card's description does without them)."""
    return tuple(part for part in _SENTENCE_BREAK.split(text.strip()) if part)


@dataclass(frozen=True)
class DescribedCard:
    """A Dixit card told in words, for a table where not everyone can see the pictures: the
    description is read in full, or only its first sentence (`brief`) when the host speaks
    briefly. `image`: the card's picture file, when the deck has one (an absolute path, checked
    by the loader to be a PNG, JPEG or WebP picture), shown with the description as its
    alternative text."""

    id: int
    title: str
    description: str
    licence: str
    image: str | None = None

    @property
    def brief(self) -> str:
        return sentences(self.description)[0]


@dataclass(frozen=True)
class DescribedDeck:
    """A deck of Dixit cards told in words: its title and cards, ids all different."""

    title: str
    cards: tuple[DescribedCard, ...]
