"""Read deck files: the Stories! opening cards, the Storytelling tales and the Dixit decks told
in words. The built-in decks are package data beside their games (games.decks says where), a
group can load a file of its own in the same shape; the games' own code (games.decks) reads the
JSON into the decks.

A deck file is UTF-8 JSON. All the problems of a file are collected and reported in one
DeckError, one problem a line, each naming the file and either the line and column (broken JSON)
or the field path, e.g. ``cards[3].pictures[1]`` (list positions count from 0, as in JSON tools).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar

from games.base import SetupError
from games.decks import (
    TALE_KEYS, DescribedDeck, OpeningCard, PictureFile, PictureRefused, Tale, builtin_described_deck,
    builtin_opening_cards, builtin_tale, parse_described_deck, parse_opening_cards, parse_tale,
)
from games.json_checks import DeckProblems, JsonObject
from games.language import _
from host.storage.catalogs import NAMES
from host.storage.files import FileRefused, parse_json, read_capped, read_head, read_text

if TYPE_CHECKING:
    from importlib.abc import Traversable

T = TypeVar("T")
#: each card's picture goes to a phone over the local network
MAX_IMAGE_BYTES = 2 << 20
#: the media type of each kind of picture `image_kind` tells
PICTURE_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WebP": "image/webp"}


class DeckError(ValueError):
    """A deck file that cannot be used. `problems` holds one sentence per problem; the message
    puts the file name (`source`) in front of each, one per line."""

    def __init__(self, source: str, problems: Iterable[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{source}: {problem}" for problem in self.problems))


def builtin_tales() -> tuple[str, ...]:
    """The keys of the built-in Storytelling tales, each loadable with `load_tale(key)`."""
    return TALE_KEYS


def load_deck(parse: Callable[[Any], T], path: str | Path) -> T:
    """The deck in a group's own file, its JSON read by `parse` (a reader of games.decks);
    DeckError with every problem of the file, each named by its path."""
    return _load(parse, Path(path), str(path))


def load_builtin(parse: Callable[[Any], T], resource: Traversable) -> T:
    """A built-in deck, as `load_deck` reads a file; problems name it by its file name."""
    return _load(parse, resource, resource.name)


def load_opening_cards(path: str | Path | None = None, language: str = "en") -> tuple[OpeningCard, ...]:
    """The Stories! cards of a deck file for a game played in `language`; None reads the built-in
    deck in it. A deck in another language is refused (DeckError) with the reason: its sentences
    would be read to the table, and its words refused as terms, in the wrong language."""
    if path is None:
        try:
            resource = builtin_opening_cards(language)
        except KeyError:
            raise SetupError(_("Stories! has no built-in deck in {language}: give one with --deck FILE.").format(
                language=_named(language))) from None
        return load_builtin(parse_opening_cards, resource).cards
    deck = load_deck(parse_opening_cards, path)
    if deck.language != language:
        raise DeckError(str(path), [_(
            "language: this deck is in {deck}, but the game is played in {game}: use a deck in {game}, "
            "or play with --language {code}."
        ).format(deck=_named(deck.language), game=_named(language), code=deck.language)])
    return deck.cards


def _named(language: str) -> str:
    """A language as a refusal names it: 'español (es)'."""
    return f"{NAMES[language]} ({language})" if language in NAMES else language


def load_tale(key_or_path: str | Path) -> Tale:
    """A built-in tale by its key (one of `builtin_tales()`), otherwise the tale in a deck file."""
    if isinstance(key_or_path, str) and key_or_path in TALE_KEYS:
        return load_builtin(parse_tale, builtin_tale(key_or_path))
    return load_deck(parse_tale, key_or_path)


def load_described_deck(path: str | Path | None = None, players: int | None = None, language: str = "en") -> DescribedDeck:
    """The Dixit cards told in words of a deck file; None reads the built-in deck told in
    `language` (`games.decks.builtin_described_deck`). The deck must hold enough cards for Dixit's
    deal to `players` (`games.dixit.Deal`: the hands, and one turn's cards shown drawn back), or,
    without a number, for the smallest game (3 players: 26 cards)."""
    if path is None:
        builtin = builtin_described_deck(language)
        return load_builtin(lambda data: parse_described_deck(data, players, None), builtin)
    picture = _pictures_in(Path(path).parent)
    return load_deck(lambda data: parse_described_deck(data, players, picture), path)


def read_picture(path: str) -> tuple[bytes, str]:
    """A card's picture file read again when a phone asks for it (it may have changed since the
    deck was loaded): its bytes and media type; FileRefused when it is no longer a PNG, JPEG or
    WebP picture of at most MAX_IMAGE_BYTES."""
    data = read_capped(Path(path), MAX_IMAGE_BYTES)
    kind = image_kind(data[:12])
    if kind is None:
        raise FileRefused(path, _("this is not a PNG, JPEG or WebP picture"))
    return data, PICTURE_TYPES[kind]


def image_kind(head: bytes) -> str | None:
    """'PNG', 'JPEG' or 'WebP', told by the first 12 bytes of a file; None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    return None


def _load(parse: Callable[[Any], T], source: Path | Traversable, label: str) -> T:
    try:
        text = read_text(source) if isinstance(source, Path) else source.read_text(encoding="utf-8-sig")
        return parse(parse_json(text, label, object_pairs_hook=JsonObject.from_pairs))
    except FileRefused as refused:
        raise DeckError(label, [refused.problem]) from None
    except DeckProblems as problems:
        raise DeckError(label, problems.problems) from None


def _pictures_in(folder: Path) -> PictureFile:
    """Finds a card's picture in the deck file's `folder`: a PNG, JPEG or WebP file of at most
    MAX_IMAGE_BYTES, as an absolute path."""

    def picture(name: str) -> str:
        file = folder / PurePosixPath(name)
        try:
            head, size = read_head(file, 12)
        except FileRefused as refused:
            raise PictureRefused(f"{name!r}: {refused.problem}") from None
        if image_kind(head) is None:
            raise PictureRefused(_("{name!r} is not a PNG, JPEG or WebP picture").format(name=name))
        if size > MAX_IMAGE_BYTES:
            raise PictureRefused(_("{name!r} is larger than {size} MiB: make the picture smaller").format(
                name=name, size=MAX_IMAGE_BYTES >> 20))
        return str(file.absolute())

    return picture
