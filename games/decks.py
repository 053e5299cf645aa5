"""The printed content the engines play with: Stories! opening cards, Storytelling tales (tiles
and numbered cards) and Dixit cards told in words, their built-in decks (package data beside
their games, in games/data/GAME/), and the reading of a deck's JSON into them.

Each `parse_*` function takes a deck's JSON, read with `JsonObject.from_pairs` as its
object_pairs_hook, and returns the deck, or raises DeckProblems with every problem found, one
sentence each starting with its field path. Reading the file is the host's business
(host.storage.decks)."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from games.base import SetupError, join_either, join_names
from games.dixit_rules import MIN_PLAYERS, Deal
from games.language import N_, _, n_
from games.json_checks import Checker, DeckProblems, closest, kind
from games.registry import game_data

if TYPE_CHECKING:
    from importlib.abc import Traversable

TALE_KEYS = ("saint-george", "three-pigs", "cinderella", "hare-tortoise")
#: the languages a tale may be written in, named as a sentence says them
TALE_LANGUAGES = {"en": N_("English"), "es": N_("Spanish"), "ca": N_("Catalan"), "de": N_("German")}
FRAME_COLOURS = ("red", "blue", "green", "yellow")
#: the built-in Stories! decks by language (a deck file names its language, English when it does not)
STORIES_FILES = {"en": "stories.json", "es": "stories-es.json"}
#: a deck's language: an ISO 639-1 code, as `storyhost play --language` takes it
_LANGUAGE_CODE = re.compile(r"[a-z]{2}")
TALE_TILES = 16
TALE_CARDS = 13
MAX_PICTURES = 5
DESCRIBED_FILE = "dixit-described.json"
#: the built-in deck told in words in another language than English: the same cards
DESCRIBED_FILE_IN = "dixit-described-{language}.json"
#: as many cards as `storyhost play dixit --cards` allows
MAX_DESCRIBED_CARDS = 1000
MAX_TITLE_CHARS = 60  # a heading on a phone's screen
MAX_LICENCE_CHARS = 200
#: the table hears every card shown read aloud: 80 words take about half a minute at the default rate
MAX_DESCRIPTION_WORDS = 80
MAX_DESCRIPTION_CHARS = 600
#: a sentence ends at . ! or ? (maybe followed by a closing quote or bracket) before a space
_SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))\s+")


@dataclass(frozen=True)
class OpeningCard:
    """A Stories! card: the normal (green) and the quirky (purple) opening sentence."""

    normal: str
    quirky: str


@dataclass(frozen=True)
class OpeningDeck:
    """A Stories! deck: the language its sentences are in (a code such as "es") and its cards."""

    language: str
    cards: tuple[OpeningCard, ...]


@dataclass(frozen=True)
class Tile:
    """A Storytelling picture tile; `frame` is its frame colour (Cinderella only)."""

    name: str
    frame: str | None = None
    #: its English name, by which the engine's rules know it (the advanced rules' BREATH and
    #: BLEW), when the tale is played in another language
    known_as: str | None = None


@dataclass(frozen=True)
class TaleCard:
    """A numbered Storytelling card: the text read aloud, the pictures in order, the points."""

    number: int
    text: str
    pictures: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class TaleWording:
    """A tale's words in one language: its title, its tiles' names (in the order of the tale's
    tiles) and its cards' texts (cards 1 to 13); pictures and points are the tale's own."""

    language: str
    title: str
    tiles: tuple[str, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Tale:
    """One Storytelling story: 16 tiles and 13 cards numbered 1 to 13, written in `language`,
    and in the other languages of `wordings` (the same pictures in the same order)."""

    key: str
    title: str
    tiles: tuple[Tile, ...]
    cards: tuple[TaleCard, ...]
    language: str = "en"
    wordings: tuple[TaleWording, ...] = ()

    def tile(self, name: str) -> Tile:
        return next(tile for tile in self.tiles if tile.name == name)

    def named(self, english: str) -> str:
        """The name in this tale's language of the tile whose English name is `english`."""
        return next((tile.name for tile in self.tiles if (tile.known_as or tile.name) == english), english)

    @property
    def languages(self) -> tuple[str, ...]:
        return (self.language, *(wording.language for wording in self.wordings))

    def wording(self, language: str) -> TaleWording | None:
        """The tale's words in `language`, None when it is not written in it."""
        if language == self.language:
            texts = tuple(card.text for card in sorted(self.cards, key=lambda card: card.number))
            return TaleWording(language, self.title, tuple(tile.name for tile in self.tiles), texts)
        return next((wording for wording in self.wordings if wording.language == language), None)

    def told_in(self, language: str) -> Tale:
        """The tale as a game in `language` plays it: its title, tiles and cards in that language
        (each tile knowing its English name); SetupError when the tale is not written in it."""
        wording = self.wording(language)
        if wording is None:
            names = [_(TALE_LANGUAGES.get(code, code)) for code in self.languages]
            raise SetupError(_(
                "{title} is not written in {language}: its cards are in {languages}. Choose another tale, "
                "or add its cards in {language} to the tale file."
            ).format(title=self.title, language=_(TALE_LANGUAGES.get(language, language)), languages=join_names(names)))
        english = self.wording("en") if language != "en" else None
        renamed = dict(zip((tile.name for tile in self.tiles), wording.tiles))
        return Tale(
            self.key,
            wording.title,
            tuple(
                Tile(name, tile.frame, english.tiles[index] if english else None)
                for index, (tile, name) in enumerate(zip(self.tiles, wording.tiles))
            ),
            tuple(
                replace(card, text=wording.texts[card.number - 1], pictures=tuple(renamed[name] for name in card.pictures))
                for card in self.cards
            ),
            language,
        )

    @classmethod
    def from_settings(cls, data: Mapping[str, Any]) -> Tale:
        """A tale as a saved game's settings hold it (`dataclasses.asdict` of a `Tale`)."""
        return cls(
            key=data["key"],
            title=data["title"],
            tiles=tuple(Tile(**tile) for tile in data["tiles"]),
            cards=tuple(
                TaleCard(card["number"], card["text"], tuple(card["pictures"]), card["points"])
                for card in data["cards"]
            ),
            language=data.get("language", "en"),  # games saved before tales had languages
            wordings=tuple(
                TaleWording(wording["language"], wording["title"], tuple(wording["tiles"]), tuple(wording["texts"]))
                for wording in data.get("wordings", ())
            ),
        )

    @classmethod
    def of_game(cls, settings: Mapping[str, Any]) -> Tale:
        """The tale of a game's settings, told in the game's language (English when the
        settings, saved before games had languages, name none)."""
        return cls.from_settings(settings["tale"]).told_in(settings.get("language", "en"))


def sentences(text: str) -> tuple[str, ...]:
    """The sentences of a text, each ending at . ! or ? before a space (an abbreviation such as
    "Mr." ends one too, so a card's description does without them)."""
    return tuple(part for part in _SENTENCE_BREAK.split(text.strip()) if part)


@dataclass(frozen=True)
class DescribedCard:
    """A Dixit card told in words, for a table where not everyone can see the pictures: the
    description is read in full, or only its first sentence (`brief`) when the host speaks
    briefly. `image`: the card's picture file, when the deck has one (an absolute path, checked
    by the host's `PictureFile` to be a PNG, JPEG or WebP picture), shown with the description
    as its alternative text."""

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
    """A deck of Dixit cards told in words: its title and cards, ids all different, and the
    language they are told in (a code: 'en' when the file does not say)."""

    title: str
    cards: tuple[DescribedCard, ...]
    language: str = "en"


class PictureRefused(ValueError):
    """A card's picture file that cannot be used; the message is the problem, naming the file."""


#: the absolute path of a card's picture, given its name from the deck file's folder (a relative
#: path with / between folders, inside that folder); PictureRefused when the file is unusable
PictureFile = Callable[[str], str]


def builtin_opening_cards(language: str = "en") -> Traversable:
    """The built-in Stories! deck in `language` (KeyError: there is none in it)."""
    return game_data("stories") / STORIES_FILES[language]


def builtin_tale(key: str) -> Traversable:
    """The built-in Storytelling tale `key` (one of TALE_KEYS)."""
    return game_data("storytelling") / f"{key}.json"


def builtin_described_deck(language: str = "en") -> Traversable:
    """The built-in Dixit deck told in words (it has no pictures), told in `language` (a file
    that may not exist: the deck is told in English and Spanish)."""
    return game_data("dixit") / (DESCRIBED_FILE if language == "en" else DESCRIBED_FILE_IN.format(language=language))


def parse_opening_cards(data: Any) -> OpeningDeck:
    """A Stories! deck: its language ("language", a code such as "es"; English when the deck
    names none) and its cards, each an object of a normal and a quirky sentence, no sentence twice."""
    check = Checker()
    root = check.object(data, "", ("game", "cards"), ("language",))
    if root is None:
        raise DeckProblems(check.problems)
    check.game(root, "stories")
    language = root.get("language", "en")
    if not isinstance(language, str) or not _LANGUAGE_CODE.fullmatch(language):
        check.add("language", _("expected a language code of two small letters, such as \"es\", found {found}").format(
            found=kind(language)))
    cards: list[OpeningCard] = []
    first: dict[str, str] = {}  # each sentence, compared without case and spacing: where it is
    for index, item in enumerate(check.items(root, "cards", "", 1, None, _("at least one card")) or ()):
        path = f"cards[{index}]"
        card = check.object(item, path, ("normal", "quirky"))
        if card is None:
            continue
        normal, quirky = check.text(card, "normal", path), check.text(card, "quirky", path)
        for side, sentence in (("normal", normal), ("quirky", quirky)):
            same = " ".join((sentence or "").casefold().split())
            if same in first:
                check.add(f"{path}.{side}", _("the same sentence as {where}").format(where=first[same]))
            elif same:
                first[same] = f"{path}.{side}"
        if normal and quirky:
            cards.append(OpeningCard(normal, quirky))
    if check.problems:
        raise DeckProblems(check.problems)
    return OpeningDeck(language, tuple(cards))


def parse_tale(data: Any) -> Tale:
    """A Storytelling tale: its key (one of TALE_KEYS), language (English when not given), title,
    16 tiles and 13 cards, and maybe its words in other languages (`languages`)."""
    check = Checker()
    root = check.object(data, "", ("game", "key", "title", "tiles", "cards"), ("language", "languages"))
    if root is None:
        raise DeckProblems(check.problems)
    check.game(root, "storytelling")
    key = _tale_key(root, check)
    language = _language(root.get("language", "en"), "language", check)
    title = check.text(root, "title", "")
    tiles = _tiles(root, key, check)
    cards = _tale_cards(root, None if tiles is None else {tile.name for tile in tiles}, check)
    # the pictures in other languages are compared with the tale's own once those are right
    wordings = _wordings(root, language, None if check.problems else tiles, cards, check)
    if check.problems or key is None or language is None or title is None or tiles is None:
        raise DeckProblems(check.problems)
    return Tale(key, title, tiles, cards, language, wordings)


def parse_described_deck(data: Any, players: int | None, picture: PictureFile | None) -> DescribedDeck:
    """A Dixit deck told in words, with enough cards for Dixit's deal to `players` (None: the
    smallest game); `picture` finds the cards' pictures (None: a deck that can have none, the
    built-in one)."""
    check = Checker()
    root = check.object(data, "", ("game", "title", "licence", "cards"), optional=("language",))
    if root is None:
        raise DeckProblems(check.problems)
    check.game(root, "dixit")
    language = root.get("language", "en")
    if not isinstance(language, str) or not _LANGUAGE_CODE.fullmatch(language):
        check.add("language", _(
            "expected the code of the language the cards are told in, such as 'en' or 'es', found {found}"
        ).format(found=kind(language)))
    title = check.line(root, "title", "", MAX_TITLE_CHARS)
    licence = check.line(root, "licence", "", MAX_LICENCE_CHARS)
    items = check.items(root, "cards", "", 0, None, _("cards"))
    if items is None:
        raise DeckProblems(check.problems)
    _enough_cards(len(items), players, check)
    cards = _described_cards(items, picture, licence, check)
    if check.problems or title is None:
        raise DeckProblems(check.problems)
    return DescribedDeck(title, cards, language)


def _tale_key(root: dict[str, Any], check: Checker) -> str | None:
    """The key says which tale this is; the advanced rules depend on it."""
    if "key" not in root:
        return None
    key = root["key"]
    if isinstance(key, str) and key in TALE_KEYS:
        return key
    check.add("key", _("expected one of {choices}, found {found}").format(choices=join_either(TALE_KEYS), found=kind(key)))
    return None


def _tiles(root: dict[str, Any], key: str | None, check: Checker) -> tuple[Tile, ...] | None:
    """The tiles with a usable name (None when there is no list of tiles at all)."""
    wanted = n_("exactly {count} tile", "exactly {count} tiles", TALE_TILES).format(count=TALE_TILES)
    items = check.items(root, "tiles", "", TALE_TILES, TALE_TILES, wanted)
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
            check.add(f"{path}.name", _("{name} is already the name of {where}").format(name=repr(name), where=first[name]))
        else:
            first[name] = path
            tiles.append(Tile(name, frame))
    return tuple(tiles)


def _tile_name(tile: dict[str, Any], path: str, check: Checker) -> str | None:
    """Tile names are spoken and recognised by voice: capitals, single spaces. A name written
    otherwise is returned as it should be, so that the cards are checked against that."""
    name = check.text(tile, "name", path)
    return None if name is None else _spoken(name, f"{path}.name", check)


def _spoken(name: str, path: str, check: Checker) -> str:
    spoken = " ".join(name.upper().split())
    if name != spoken:
        check.add(path, _("write tile names in capitals with single spaces: {name}").format(name=repr(spoken)))
    return spoken


def _language(code: Any, path: str, check: Checker) -> str | None:
    if code in TALE_LANGUAGES:
        return str(code)
    check.add(path, _("expected one of {choices}, found {found}").format(choices=join_either(list(TALE_LANGUAGES)), found=kind(code)))
    return None


def _wordings(
    root: dict[str, Any], language: str | None, tiles: tuple[Tile, ...] | None, cards: tuple[TaleCard, ...],
    check: Checker,
) -> tuple[TaleWording, ...]:
    """The tale in other languages: `languages` maps a language to its title, its 16 tile names
    in the order of `tiles`, and its 13 cards, each with the same pictures in the same order as
    the tale's card of that number, named in that language."""
    if "languages" not in root:
        return ()
    block = root["languages"]
    if not isinstance(block, dict):
        check.add("languages", _("expected an object of languages such as \"es\", found {found}").format(found=kind(block)))
        return ()
    wordings = []
    for code, value in block.items():
        path = f"languages.{code}"
        if _language(code, path, check) is None:
            continue
        if code == language:
            check.add(path, _("the tale itself is written in {code}; give here only its other languages").format(code=code))
            continue
        wording = _wording(code, value, path, tiles, cards, check)
        if wording is not None:
            wordings.append(wording)
    return tuple(wordings)


def _wording(
    code: str, value: Any, path: str, tiles: tuple[Tile, ...] | None, cards: tuple[TaleCard, ...], check: Checker
) -> TaleWording | None:
    block = check.object(value, path, ("title", "tiles", "cards"))
    if block is None:
        return None
    title = check.text(block, "title", path)
    names = _translated_tiles(block, path, check)
    renamed = dict(zip((tile.name for tile in tiles), names)) if tiles is not None and names is not None else None
    items = check.items(block, "cards", path, TALE_CARDS, TALE_CARDS, _exactly_cards()) or []
    texts = []
    for index, item in enumerate(items):
        where = f"{path}.cards[{index}]"
        card = check.object(item, where, ("number", "text", "pictures"))
        if card is None:
            continue
        number = check.whole(card, "number", where)
        if number is not None and number != index + 1:
            check.add(f"{where}.number", _in_order(index + 1, number))
        text = check.text(card, "text", where)
        if text is not None:
            texts.append(text)
        original = next((tale_card for tale_card in cards if tale_card.number == index + 1), None)
        if "pictures" in card and renamed is not None and original and set(original.pictures) <= renamed.keys():
            expected = [renamed[name] for name in original.pictures]
            if card["pictures"] != expected:
                check.add(f"{where}.pictures", _(
                    "expected {expected}: the pictures of card {number} in the same order, named as the tiles of {tiles}"
                ).format(expected=expected, number=index + 1, tiles=f"{path}.tiles"))
    if title is None or names is None or len(texts) != TALE_CARDS:
        return None
    return TaleWording(code, title, names, tuple(texts))


def _translated_tiles(block: dict[str, Any], path: str, check: Checker) -> tuple[str, ...] | None:
    """The tiles' names in one language, in the order of the tale's tiles, all different."""
    wanted = n_("exactly {count} tile name in the order of the tale's tiles",
                "exactly {count} tile names in the order of the tale's tiles", TALE_TILES).format(count=TALE_TILES)
    items = check.items(block, "tiles", path, TALE_TILES, TALE_TILES, wanted)
    if items is None:
        return None
    names: list[str] = []
    for index, item in enumerate(items):
        where = f"{path}.tiles[{index}]"
        if not isinstance(item, str) or not item.strip():
            check.add(where, _("expected a tile name, found {found}").format(found=kind(item)))
            continue
        name = _spoken(item, where, check)
        if name in names:
            check.add(where, _("{name} is already the name of {where}").format(
                name=repr(name), where=f"{path}.tiles[{names.index(name)}]"))
        names.append(name)
    return tuple(names) if len(names) == TALE_TILES == len(set(names)) else None


def _frame(tile: dict[str, Any], key: str | None, path: str, check: Checker) -> str | None:
    """Cinderella tiles need a frame colour (the clock rule compares them); no other tale has one."""
    if key is None:
        return None
    if key != "cinderella":
        if "frame" in tile:
            check.add(f"{path}.frame", _("only Cinderella tiles have a frame colour; remove this field"))
        return None
    colours = join_either(FRAME_COLOURS)
    if "frame" not in tile:
        check.add(path, _("the field 'frame' is missing; every Cinderella tile has one of {colours}").format(colours=colours))
        return None
    frame = tile["frame"]
    if frame in FRAME_COLOURS:
        return str(frame)
    check.add(f"{path}.frame", _("expected one of {choices}, found {found}").format(choices=colours, found=kind(frame)))
    return None


def _tale_cards(root: dict[str, Any], names: set[str] | None, check: Checker) -> tuple[TaleCard, ...]:
    """The valid cards; `names` are the tile names, None when the tiles are unusable."""
    items = check.items(root, "cards", "", TALE_CARDS, TALE_CARDS, _exactly_cards()) or []
    cards = [_tale_card(item, index, names, check) for index, item in enumerate(items)]
    return tuple(card for card in cards if card)


def _tale_card(value: Any, index: int, names: set[str] | None, check: Checker) -> TaleCard | None:
    path = f"cards[{index}]"
    card = check.object(value, path, ("number", "text", "pictures", "points"))
    if card is None:
        return None
    number = check.whole(card, "number", path)
    if number is not None and number != index + 1:
        check.add(f"{path}.number", _in_order(index + 1, number))
    text = check.text(card, "text", path)
    pictures = _pictures(card, path, names, check)
    points = check.whole(card, "points", path)
    if number is None or text is None or pictures is None or points is None:
        return None
    return TaleCard(number, text, pictures, points)


def _pictures(
    card: dict[str, Any], path: str, names: set[str] | None, check: Checker
) -> tuple[str, ...] | None:
    wanted = n_("1 to {most} picture", "1 to {most} pictures", MAX_PICTURES).format(most=MAX_PICTURES)
    items = check.items(card, "pictures", path, 1, MAX_PICTURES, wanted)
    if items is None:
        return None
    first: dict[str, int] = {}
    for index, name in enumerate(items):
        where = f"{path}.pictures[{index}]"
        if not isinstance(name, str):
            check.add(where, _("expected a tile name, found {found}").format(found=kind(name)))
        elif names is not None and name not in names:
            close = closest(name.upper(), names)
            if close:
                problem = _("{name} is not a tile of this tale; did you mean {close}?").format(
                    name=repr(name), close=repr(close))
            else:
                problem = _("{name} is not a tile of this tale").format(name=repr(name))
            check.add(where, problem)
        elif name in first:
            check.add(where, _("{name} is already {where}; a card shows each tile once").format(
                name=repr(name), where=f"pictures[{first[name]}]"))
        else:
            first[name] = index
    return tuple(items)


def _exactly_cards() -> str:
    return n_("exactly {count} card", "exactly {count} cards", TALE_CARDS).format(count=TALE_CARDS)


def _in_order(expected: int, found: int) -> str:
    """A card's number out of place: the cards are numbered 1 to TALE_CARDS in order."""
    return _("expected {expected}, found {found}; number the cards 1 to {count} in order").format(
        expected=expected, found=found, count=TALE_CARDS)


def _enough_cards(count: int, players: int | None, check: Checker) -> None:
    """At least the cards of Dixit's deal for `players` (None: for the smallest game), at most
    MAX_DESCRIBED_CARDS."""
    deal = Deal(players or MIN_PLAYERS)
    if count < deal.least:
        if players:
            problem = n_(
                "{count} card is too few for {players} players: the hands take {dealt} and one turn draws "
                "{shown} more, so write at least {least}",
                "{count} cards are too few for {players} players: the hands take {dealt} and one turn draws "
                "{shown} more, so write at least {least}", count)
        else:
            problem = n_(
                "{count} card is too few for any game: {players} players' hands take {dealt} and one turn "
                "draws {shown} more, so write at least {least}",
                "{count} cards are too few for any game: {players} players' hands take {dealt} and one turn "
                "draws {shown} more, so write at least {least}", count)
        check.add("cards", problem.format(count=count, players=players or MIN_PLAYERS, dealt=deal.dealt,
                                          shown=deal.cards_shown, least=deal.least))
    elif count > MAX_DESCRIBED_CARDS:
        check.add("cards", n_("expected at most {most} card, found {count}", "expected at most {most} cards, found {count}",
                              MAX_DESCRIBED_CARDS).format(most=MAX_DESCRIBED_CARDS, count=count))


def _described_cards(
    items: list[Any], picture: PictureFile | None, licence: str | None, check: Checker
) -> tuple[DescribedCard, ...]:
    """The valid cards; `licence` is the deck's, for the cards that give none of their own."""
    firsts: dict[str, dict[Any, str]] = {"id": {}, "title": {}, "description": {}, "image": {}}
    cards = [
        _described_card(item, f"cards[{index}]", picture, licence, firsts, check) for index, item in enumerate(items)
    ]
    return tuple(card for card in cards if card)


def _described_card(
    value: Any, path: str, picture: PictureFile | None, licence: str | None, firsts: dict[str, dict[Any, str]],
    check: Checker,
) -> DescribedCard | None:
    """One card; `firsts` maps each field to its values already given and the card that gave each,
    so that a second card with the same id, title, description or picture is refused."""
    card = check.object(value, path, ("id", "title", "description"), ("image", "licence"))
    if card is None:
        return None

    def once(key: str, same: Any, problem: str, **values: Any) -> None:
        """`problem`: a translated sentence naming the first card with the same value as {first}."""
        first = firsts[key].setdefault(same, path)
        if first != path:
            check.add(f"{path}.{key}", problem.format(first=first, **values))

    card_id = check.whole(card, "id", path)
    if card_id is not None:
        once("id", card_id, _("{id} is already the id of {first}"), id=card_id)
    title = check.line(card, "title", path, MAX_TITLE_CHARS)
    if title is not None:
        once("title", title.casefold(), _("{title} is already the title of {first}"), title=repr(title))
    description = _description(card, path, check)
    if description is not None:
        once("description", description.casefold(), _("the same description as {first}"))
    image = _image(card, path, picture, check)
    if image is not None:
        once("image", image, _("{name} is already the picture of {first}"), name=repr(card["image"]))
    if "licence" in card:
        licence = check.line(card, "licence", path, MAX_LICENCE_CHARS)
    if card_id is None or title is None or description is None or licence is None:
        return None
    if "image" in card and image is None:
        return None
    return DescribedCard(card_id, title, description, licence, image)


def _description(card: dict[str, Any], path: str, check: Checker) -> str | None:
    text = check.text(card, "description", path)
    if text is None:
        return None
    words = text.split()
    where = f"{path}.description"
    if len(words) > MAX_DESCRIPTION_WORDS:
        check.add(where, n_("expected at most {most} word, found {count}; every card shown is read aloud",
                            "expected at most {most} words, found {count}; every card shown is read aloud",
                            MAX_DESCRIPTION_WORDS).format(most=MAX_DESCRIPTION_WORDS, count=len(words)))
        return None
    description = " ".join(words)
    if len(description) > MAX_DESCRIPTION_CHARS:
        check.add(where, n_("expected at most {limit} character, found {count}",
                            "expected at most {limit} characters, found {count}",
                            MAX_DESCRIPTION_CHARS).format(limit=MAX_DESCRIPTION_CHARS, count=len(description)))
        return None
    return description


def _image(card: dict[str, Any], path: str, picture: PictureFile | None, check: Checker) -> str | None:
    """The card's picture file, as `picture` finds it, named from the deck file's folder and inside it."""
    name = check.text(card, "image", path)
    if name is None:
        return None
    where = f"{path}.image"
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or "\\" in name:
        check.add(where, _(
            "{name}: name the picture from the deck file's folder, inside it, with / between folders, "
            "such as 'pictures/lantern.png' (no / in front, no ..)"
        ).format(name=repr(name)))
        return None
    if picture is None:
        check.add(where, _("the built-in deck has no pictures"))
        return None
    try:
        return picture(name)
    except PictureRefused as refused:
        check.add(where, str(refused))
        return None
