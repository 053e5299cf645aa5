"""Read and check deck files: the Stories! opening cards, the Storytelling tales and the Dixit
decks told in words.

A deck file is UTF-8 JSON. The built-in decks are package data in host/decks/; a group can load
a file of its own in the same shape. All the problems of a file are collected and reported in one
DeckError, one problem a line, each naming the file and either the line and column (broken JSON)
or the field path, e.g. ``cards[3].pictures[1]`` (list positions count from 0, as in JSON tools).
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from games.decks import (
    FRAME_COLOURS, TALE_KEYS, DescribedCard, DescribedDeck, OpeningCard, Tale, TaleCard, Tile,
)
from games.dixit import HAND_SIZE, MIN_PLAYERS, THREE_PLAYER_CARDS_GIVEN, THREE_PLAYER_HAND_SIZE
from host.storage.files import FileRefused, parse_json, read_head, read_text

if TYPE_CHECKING:
    from importlib.abc import Traversable

STORIES_FILE = "stories.json"
TALE_TILES = 16
TALE_CARDS = 13
MAX_PICTURES = 5
DESCRIBED_FILE = "dixit-described.json"
#: as many cards as `storyhost play dixit --cards` allows
MAX_DESCRIBED_CARDS = 1000
MAX_TITLE_CHARS = 60  # a heading on a phone's screen
MAX_LICENCE_CHARS = 200
#: the table hears every card shown read aloud: 80 words take about half a minute at the default rate
MAX_DESCRIPTION_WORDS = 80
MAX_DESCRIPTION_CHARS = 600
#: each card's picture goes to a phone over the local network
MAX_IMAGE_BYTES = 2 << 20


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


def load_opening_cards(path: str | Path | None = None) -> tuple[OpeningCard, ...]:
    """The Stories! cards of a deck file; None reads the built-in deck."""
    source, label = _builtin(STORIES_FILE) if path is None else (Path(path), str(path))
    check = _Checker()
    cards = _opening_cards(_read(source, label), check)
    if cards is None:
        raise DeckError(label, check.problems)
    return cards


def load_tale(key_or_path: str | Path) -> Tale:
    """A built-in tale by its key (one of `builtin_tales()`), otherwise the tale in a deck file."""
    if isinstance(key_or_path, str) and key_or_path in TALE_KEYS:
        source, label = _builtin(f"{key_or_path}.json")
    else:
        source, label = Path(key_or_path), str(key_or_path)
    check = _Checker()
    tale = _tale(_read(source, label), check)
    if tale is None:
        raise DeckError(label, check.problems)
    return tale


def load_described_deck(path: str | Path | None = None, players: int | None = None) -> DescribedDeck:
    """The Dixit cards told in words of a deck file; None reads the built-in deck. The deck must
    hold enough cards for Dixit's deal to `players` (`dixit_deal`: the hands, and one turn's cards
    shown drawn back), or, without a number, for the smallest game (3 players: 26 cards)."""
    if path is None:
        source, label = _builtin(DESCRIBED_FILE)
        folder = None
    else:
        source, label = Path(path), str(path)
        folder = source.parent
    check = _Checker()
    deck = _described_deck(_read(source, label), folder, players, check)
    if deck is None:
        raise DeckError(label, check.problems)
    return deck


def dixit_deal(players: int) -> tuple[int, int]:
    """Dixit's deal by the rulebook: the cards in all the hands (6 each; 7 with 3 players), and
    the cards shown on a turn, which are drawn back at its end (one a player; 5 with 3 players)."""
    three = players == 3
    hand = THREE_PLAYER_HAND_SIZE if three else HAND_SIZE
    return hand * players, 1 + (THREE_PLAYER_CARDS_GIVEN if three else 1) * (players - 1)


def image_kind(head: bytes) -> str | None:
    """'PNG', 'JPEG' or 'WebP', told by the first 12 bytes of a file; None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    return None


def _builtin(name: str) -> tuple[Traversable, str]:
    return files("host") / "decks" / name, name


def _read(source: Path | Traversable, label: str) -> Any:
    try:
        text = source.read_text(encoding="utf-8-sig") if not isinstance(source, Path) else read_text(source)
        return parse_json(text, label, object_pairs_hook=_JsonObject.from_pairs)
    except FileRefused as refused:
        raise DeckError(label, [refused.problem]) from None


class _JsonObject(dict[str, Any]):
    """A JSON object that remembers its keys written more than once (json keeps only the last)."""

    repeated: tuple[str, ...] = ()

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, Any]]) -> _JsonObject:
        obj = cls(pairs)
        if len(obj) < len(pairs):
            keys = [key for key, _ in pairs]
            obj.repeated = tuple(dict.fromkeys(key for key in keys if keys.count(key) > 1))
        return obj


def _kind(value: Any) -> str:
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


def _field(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _closest(word: str, choices: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(word, list(choices), n=1)
    return matches[0] if matches else None


class _Checker:
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
            self.add(path, f"expected an object, found {_kind(value)}")
            return None
        allowed = fields + optional
        for key in getattr(value, "repeated", ()):
            self.add(_field(path, key), "this field is written more than once; keep only one")
        for key in fields:
            if key not in value:
                self.add(path, f"the field {key!r} is missing")
        for key in value:
            if key not in allowed:
                close = _closest(key, allowed)
                hint = f"did you mean {close!r}?" if close else f"the fields here are {', '.join(allowed)}"
                self.add(_field(path, key), f"unknown field; {hint}")
        return value

    def text(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        if key not in parent:
            return None
        value = parent[key]
        if not isinstance(value, str) or not value.strip():
            self.add(_field(path, key), f"expected some text, found {_kind(value)}")
            return None
        return value.strip()

    def whole(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        """A whole number of 1 or more."""
        if key not in parent:
            return None
        value = parent[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.add(_field(path, key), f"expected a whole number of 1 or more, found {_kind(value)}")
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
        where = _field(path, key)
        if not isinstance(value, list):
            self.add(where, f"expected a list of {wanted}, found {_kind(value)}")
            return None
        if len(value) < low or (high is not None and len(value) > high):
            self.add(where, f"expected {wanted}, found {len(value)}")
        return value

    def game(self, root: dict[str, Any], expected: str) -> None:
        if "game" in root and root["game"] != expected:
            self.add("game", f"expected {expected!r}, found {_kind(root['game'])}")


def _opening_cards(data: Any, check: _Checker) -> tuple[OpeningCard, ...] | None:
    root = check.object(data, "", ("game", "cards"))
    if root is None:
        return None
    check.game(root, "stories")
    cards: list[OpeningCard] = []
    first: dict[str, str] = {}  # each sentence, compared without case and spacing: where it is
    for index, item in enumerate(check.items(root, "cards", "", 1, None, "at least one card") or ()):
        path = f"cards[{index}]"
        card = check.object(item, path, ("normal", "quirky"))
        if card is None:
            continue
        normal, quirky = check.text(card, "normal", path), check.text(card, "quirky", path)
        for side, sentence in (("normal", normal), ("quirky", quirky)):
            same = " ".join((sentence or "").casefold().split())
            if same in first:
                check.add(f"{path}.{side}", f"the same sentence as {first[same]}")
            elif same:
                first[same] = f"{path}.{side}"
        if normal and quirky:
            cards.append(OpeningCard(normal, quirky))
    return None if check.problems else tuple(cards)


def _tale(data: Any, check: _Checker) -> Tale | None:
    root = check.object(data, "", ("game", "key", "title", "tiles", "cards"))
    if root is None:
        return None
    check.game(root, "storytelling")
    key = _tale_key(root, check)
    title = check.text(root, "title", "")
    tiles = _tiles(root, key, check)
    cards = _tale_cards(root, None if tiles is None else {tile.name for tile in tiles}, check)
    if check.problems or key is None or title is None or tiles is None:
        return None
    return Tale(key, title, tiles, cards)


def _tale_key(root: dict[str, Any], check: _Checker) -> str | None:
    """The key says which tale this is; the advanced rules depend on it."""
    if "key" not in root:
        return None
    key = root["key"]
    if isinstance(key, str) and key in TALE_KEYS:
        return key
    check.add("key", f"expected one of {', '.join(TALE_KEYS)}, found {_kind(key)}")
    return None


def _tiles(root: dict[str, Any], key: str | None, check: _Checker) -> tuple[Tile, ...] | None:
    """The tiles with a usable name (None when there is no list of tiles at all)."""
    items = check.items(root, "tiles", "", TALE_TILES, TALE_TILES, f"exactly {TALE_TILES} tiles")
    if items is None:
        return None
    tiles: list[Tile] = []
    first: dict[str, str] = {}
    for index, item in enumerate(items):
        path = f"tiles[{index}]"
        tile = check.object(item, path, ("name",), ("frame",))
        if tile is None:
            continue
        name = _tile_name(tile, path, check)
        frame = _frame(tile, key, path, check)
        if name is None:
            continue
        if name in first:
            check.add(f"{path}.name", f"{name!r} is already the name of {first[name]}")
        else:
            first[name] = path
            tiles.append(Tile(name, frame))
    return tuple(tiles)


def _tile_name(tile: dict[str, Any], path: str, check: _Checker) -> str | None:
    """Tile names are spoken and recognised by voice: capitals, single spaces. A name written
    otherwise is returned as it should be, so that the cards are checked against that."""
    name = check.text(tile, "name", path)
    if name is None:
        return None
    spoken = " ".join(name.upper().split())
    if name != spoken:
        check.add(f"{path}.name", f"write tile names in capitals with single spaces: {spoken!r}")
    return spoken


def _frame(tile: dict[str, Any], key: str | None, path: str, check: _Checker) -> str | None:
    """Cinderella tiles need a frame colour (the clock rule compares them); no other tale has one."""
    if key is None:
        return None
    if key != "cinderella":
        if "frame" in tile:
            check.add(f"{path}.frame", "only Cinderella tiles have a frame colour; remove this field")
        return None
    colours = ", ".join(FRAME_COLOURS)
    if "frame" not in tile:
        check.add(path, f"the field 'frame' is missing; every Cinderella tile has one of {colours}")
        return None
    frame = tile["frame"]
    if frame in FRAME_COLOURS:
        return str(frame)
    check.add(f"{path}.frame", f"expected one of {colours}, found {_kind(frame)}")
    return None


def _tale_cards(root: dict[str, Any], names: set[str] | None, check: _Checker) -> tuple[TaleCard, ...]:
    """The valid cards; `names` are the tile names, None when the tiles are unusable."""
    items = check.items(root, "cards", "", TALE_CARDS, TALE_CARDS, f"exactly {TALE_CARDS} cards") or []
    cards = [_tale_card(item, index, names, check) for index, item in enumerate(items)]
    return tuple(card for card in cards if card)


def _tale_card(value: Any, index: int, names: set[str] | None, check: _Checker) -> TaleCard | None:
    path = f"cards[{index}]"
    card = check.object(value, path, ("number", "text", "pictures", "points"))
    if card is None:
        return None
    number = check.whole(card, "number", path)
    if number is not None and number != index + 1:
        order = f"number the cards 1 to {TALE_CARDS} in order"
        check.add(f"{path}.number", f"expected {index + 1}, found {number}; {order}")
    text = check.text(card, "text", path)
    pictures = _pictures(card, path, names, check)
    points = check.whole(card, "points", path)
    if number is None or text is None or pictures is None or points is None:
        return None
    return TaleCard(number, text, pictures, points)


def _pictures(
    card: dict[str, Any], path: str, names: set[str] | None, check: _Checker
) -> tuple[str, ...] | None:
    items = check.items(card, "pictures", path, 1, MAX_PICTURES, f"1 to {MAX_PICTURES} pictures")
    if items is None:
        return None
    first: dict[str, int] = {}
    for index, name in enumerate(items):
        where = f"{path}.pictures[{index}]"
        if not isinstance(name, str):
            check.add(where, f"expected a tile name, found {_kind(name)}")
        elif names is not None and name not in names:
            close = _closest(name.upper(), names)
            hint = f"; did you mean {close!r}?" if close else ""
            check.add(where, f"{name!r} is not a tile of this tale{hint}")
        elif name in first:
            check.add(where, f"{name!r} is already pictures[{first[name]}]; a card shows each tile once")
        else:
            first[name] = index
    return tuple(items)


def _described_deck(data: Any, folder: Path | None, players: int | None, check: _Checker) -> DescribedDeck | None:
    root = check.object(data, "", ("game", "title", "licence", "cards"))
    if root is None:
        return None
    check.game(root, "dixit")
    title = _line(root, "title", "", MAX_TITLE_CHARS, check)
    licence = _line(root, "licence", "", MAX_LICENCE_CHARS, check)
    items = check.items(root, "cards", "", 0, None, "cards")
    if items is None:
        return None
    _enough_cards(len(items), players, check)
    cards = _described_cards(items, folder, licence, check)
    if check.problems or title is None:
        return None
    return DescribedDeck(title, cards)


def _enough_cards(count: int, players: int | None, check: _Checker) -> None:
    """At least the cards of Dixit's deal for `players` (None: for the smallest game), at most
    MAX_DESCRIBED_CARDS."""
    dealt, shown = dixit_deal(players or MIN_PLAYERS)
    if count < dealt + shown:
        who = f"{players} players: the hands" if players else f"any game: {MIN_PLAYERS} players' hands"
        check.add("cards", f"{count} cards are too few for {who} take {dealt} and one turn draws {shown} more, "
                           f"so write at least {dealt + shown}")
    elif count > MAX_DESCRIBED_CARDS:
        check.add("cards", f"expected at most {MAX_DESCRIBED_CARDS} cards, found {count}")


def _described_cards(
    items: list[Any], folder: Path | None, licence: str | None, check: _Checker
) -> tuple[DescribedCard, ...]:
    """The valid cards; `licence` is the deck's, for the cards that give none of their own."""
    firsts: dict[str, dict[Any, str]] = {"id": {}, "title": {}, "description": {}, "image": {}}
    cards = [
        _described_card(item, f"cards[{index}]", folder, licence, firsts, check) for index, item in enumerate(items)
    ]
    return tuple(card for card in cards if card)


def _described_card(
    value: Any, path: str, folder: Path | None, licence: str | None, firsts: dict[str, dict[Any, str]], check: _Checker
) -> DescribedCard | None:
    """One card; `firsts` maps each field to its values already given and the card that gave each,
    so that a second card with the same id, title, description or picture is refused."""
    card = check.object(value, path, ("id", "title", "description"), ("image", "licence"))
    if card is None:
        return None

    def once(key: str, same: Any, problem: str) -> None:
        first = firsts[key].setdefault(same, path)
        if first != path:
            check.add(f"{path}.{key}", f"{problem} {first}")

    card_id = check.whole(card, "id", path)
    if card_id is not None:
        once("id", card_id, f"{card_id} is already the id of")
    title = _line(card, "title", path, MAX_TITLE_CHARS, check)
    if title is not None:
        once("title", title.casefold(), f"{title!r} is already the title of")
    description = _description(card, path, check)
    if description is not None:
        once("description", description.casefold(), "the same description as")
    image = _image(card, path, folder, check)
    if image is not None:
        once("image", image, f"{card['image']!r} is already the picture of")
    if "licence" in card:
        licence = _line(card, "licence", path, MAX_LICENCE_CHARS, check)
    if card_id is None or title is None or description is None or licence is None:
        return None
    if "image" in card and image is None:
        return None
    return DescribedCard(card_id, title, description, licence, image)


def _line(parent: dict[str, Any], key: str, path: str, limit: int, check: _Checker) -> str | None:
    """Text said or shown as one line: white space of any kind is one space."""
    text = check.text(parent, key, path)
    if text is None:
        return None
    line = " ".join(text.split())
    if len(line) > limit:
        check.add(_field(path, key), f"expected at most {limit} characters, found {len(line)}")
        return None
    return line


def _description(card: dict[str, Any], path: str, check: _Checker) -> str | None:
    text = check.text(card, "description", path)
    if text is None:
        return None
    words = text.split()
    where = f"{path}.description"
    if len(words) > MAX_DESCRIPTION_WORDS:
        check.add(where, f"expected at most {MAX_DESCRIPTION_WORDS} words, found {len(words)}; "
                         "every card shown is read aloud")
        return None
    description = " ".join(words)
    if len(description) > MAX_DESCRIPTION_CHARS:
        check.add(where, f"expected at most {MAX_DESCRIPTION_CHARS} characters, found {len(description)}")
        return None
    return description


def _image(card: dict[str, Any], path: str, folder: Path | None, check: _Checker) -> str | None:
    """The card's picture file, as an absolute path: a PNG, JPEG or WebP file of at most
    MAX_IMAGE_BYTES, named from the deck file's folder and inside it."""
    name = check.text(card, "image", path)
    if name is None:
        return None
    where = f"{path}.image"
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or "\\" in name:
        check.add(where, f"{name!r}: name the picture from the deck file's folder, inside it, with / between "
                         "folders, such as 'pictures/lantern.png' (no / in front, no ..)")
        return None
    if folder is None:
        check.add(where, "the built-in deck has no pictures")
        return None
    file = folder / relative
    try:
        head, size = read_head(file, 12)
    except FileRefused as refused:
        check.add(where, f"{name!r}: {refused.problem}")
        return None
    if image_kind(head) is None:
        check.add(where, f"{name!r} is not a PNG, JPEG or WebP picture")
        return None
    if size > MAX_IMAGE_BYTES:
        check.add(where, f"{name!r} is larger than {MAX_IMAGE_BYTES >> 20} MiB: make the picture smaller")
        return None
    return str(file.absolute())
