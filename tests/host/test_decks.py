"""The built-in decks load and follow the content rules; broken deck files are refused with
every problem named by file and line or field path."""
from __future__ import annotations

import json
import re
from collections import Counter
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from games.decks import FRAME_COLOURS, TALE_KEYS, OpeningCard, Tale, TaleCard, Tile
from games.json_checks import Checker, DeckProblems, kind
from host.storage.decks import DeckError, builtin_tales, load_deck, load_opening_cards, load_tale


def builtin_json(name: str) -> Any:
    return json.loads((files("games") / "data" / "storytelling" / name).read_text(encoding="utf-8"))


def write(tmp_path: Path, data: Any, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return path


def problems(load: Any, path: Path) -> list[str]:
    """The lines of the DeckError that loading `path` raises, each checked to name the file."""
    with pytest.raises(DeckError) as caught:
        load(path)
    lines = str(caught.value).splitlines()
    assert caught.value.source == str(path)
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert len(lines) == len(caught.value.problems)
    return [line.removeprefix(f"{path}: ") for line in lines]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def find(text_words: list[str], name: str, start: int = 0) -> int | None:
    """Where the words of a tile name occur together in the text, from `start`; None if not."""
    name_words = words(name)
    for at in range(start, len(text_words) - len(name_words) + 1):
        if text_words[at:at + len(name_words)] == name_words:
            return at
    return None


# --- the built-in Stories! deck ---

def test_builtin_stories_deck_has_enough_short_distinct_openings():
    cards = load_opening_cards()
    assert len(cards) >= 110
    assert all(isinstance(card, OpeningCard) for card in cards)
    sentences = [sentence for card in cards for sentence in (card.normal, card.quirky)]
    assert len({sentence.casefold() for sentence in sentences}) == len(sentences)
    assert all(4 <= len(sentence.split()) <= 14 for sentence in sentences)
    assert all(sentence.isascii() and sentence[0].isupper() for sentence in sentences)
    assert cards[0].normal == "When I was in the Arctic recently..."  # the rulebook's worked example


def test_builtin_stories_deck_is_package_data_and_loads_by_path_too():
    resource = files("games") / "data" / "stories" / "stories.json"
    assert resource.is_file()
    assert load_opening_cards(str(resource)) == load_opening_cards()


# --- the built-in Storytelling tales ---

def test_builtin_tales_are_the_tale_keys():
    assert builtin_tales() == TALE_KEYS == ("saint-george", "three-pigs", "cinderella", "hare-tortoise")


@pytest.mark.parametrize("key", TALE_KEYS)
def test_builtin_tale_shape(key):
    tale = load_tale(key)
    assert isinstance(tale, Tale) and tale.key == key and tale.title
    assert len(tale.tiles) == 16 and all(isinstance(tile, Tile) for tile in tale.tiles)
    names = [tile.name for tile in tale.tiles]
    assert len(set(names)) == 16
    assert all(re.fullmatch(r"[A-Z]+( [A-Z]+)*", name) for name in names)
    assert [card.number for card in tale.cards] == list(range(1, 14))
    assert all(isinstance(card, TaleCard) for card in tale.cards)
    assert {picture for card in tale.cards for picture in card.pictures} == set(names)


@pytest.mark.parametrize("key", TALE_KEYS)
def test_builtin_tale_difficulty_and_points_rise(key):
    cards = load_tale(key).cards
    counts = [len(card.pictures) for card in cards]
    assert counts[0] == 2 and counts[-1] == 5 and counts == sorted(counts)
    assert all(len(set(card.pictures)) == len(card.pictures) for card in cards)
    assert [card.points for card in cards] == [{2: 1, 3: 2, 4: 3, 5: 5}[count] for count in counts]


@pytest.mark.parametrize("key", TALE_KEYS)
def test_builtin_tale_texts_name_their_pictures_in_order(key):
    tale = load_tale(key)
    for card in tale.cards:
        text_words = words(card.text)
        at = 0
        for picture in card.pictures:
            found = find(text_words, picture, at)
            assert found is not None, f"card {card.number}: {picture} is not said after word {at}"
            at = found + len(words(picture))
        assert 1 <= len(re.findall(r"[.!?](?:'| |$)", card.text)) <= 3, card.text


@pytest.mark.parametrize("key", TALE_KEYS)
def test_builtin_tale_texts_name_no_tile_that_is_not_a_picture(key):
    """A listener who only hears the text is never sent to a tile the card does not show."""
    tale = load_tale(key)
    for card in tale.cards:
        named = {tile.name for tile in tale.tiles if find(words(card.text), tile.name) is not None}
        assert named == set(card.pictures), f"card {card.number}"


def test_frames_only_in_cinderella_four_of_each_colour():
    cinderella = load_tale("cinderella")
    assert Counter(tile.frame for tile in cinderella.tiles) == {colour: 4 for colour in FRAME_COLOURS}
    assert cinderella.tile("GLASS SLIPPER").frame == "yellow"
    for key in ("saint-george", "three-pigs", "hare-tortoise"):
        assert {tile.frame for tile in load_tale(key).tiles} == {None}


def test_rulebook_examples_are_in_the_builtin_tales():
    george = load_tale("saint-george")
    assert george.title == "The Legend of Saint George"
    assert george.cards[9].number == 10
    assert george.cards[9].pictures == ("DRAGON", "SAINT GEORGE", "HORSE", "BREATH")
    assert george.tile("BLOOD") == Tile("BLOOD")
    pigs = load_tale("three-pigs")
    assert {"WOLF", "BLEW", "HOUSE OF STRAW"} <= {tile.name for tile in pigs.tiles}
    assert ("WOLF", "HOUSE OF STRAW", "BLEW") in [card.pictures for card in pigs.cards]
    hare = load_tale("hare-tortoise")
    assert {"HARE", "TORTOISE"} <= {tile.name for tile in hare.tiles}
    assert load_tale("cinderella").title == "Cinderella"


def test_a_tale_file_of_ones_own_loads_by_path(tmp_path):
    data = builtin_json("three-pigs.json")
    data["title"] = "The Three Little Pigs, our way"
    data["cards"][0]["points"] = 2
    tale = load_tale(write(tmp_path, data, "pigs.json"))
    assert tale.title == "The Three Little Pigs, our way"
    assert tale.cards[0] == TaleCard(1, load_tale("three-pigs").cards[0].text, ("MOTHER", "WINDOW"), 2)
    assert tale.tiles == load_tale("three-pigs").tiles


def test_a_small_stories_deck_of_ones_own_loads(tmp_path):
    path = write(tmp_path, {"game": "stories", "cards": [{"normal": " On the bus... ", "quirky": "A bus on me..."}]})
    assert load_opening_cards(path) == (OpeningCard("On the bus...", "A bus on me..."),)


# --- broken files ---

def test_broken_json_names_line_and_column(tmp_path):
    path = write(tmp_path, '{\n  "game": "stories",\n  "cards": [\n    {"normal": "a" "quirky": "b"}\n  ]\n}\n')
    assert problems(load_opening_cards, path) == [
        "line 4, column 20: this is not valid JSON (a comma is missing)"
    ]


def test_empty_file_is_broken_json(tmp_path):
    path = write(tmp_path, "")
    assert problems(load_tale, path) == [
        "line 1, column 1: this is not valid JSON (expected a value: text in double quotes, a number, true, false, "
        "null, a list or an object (a list cannot end with a comma))"]


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.json"
    assert problems(load_tale, path) == ["cannot read the file: No such file or directory"]


def test_a_file_that_is_not_an_object(tmp_path):
    path = write(tmp_path, [1, 2])
    assert problems(load_opening_cards, path) == ["expected an object, found a list"]


def test_missing_fields(tmp_path):
    data = builtin_json("three-pigs.json")
    del data["cards"][2]["points"]
    del data["title"]
    assert problems(load_tale, write(tmp_path, data)) == [
        "the field 'title' is missing",
        "cards[2]: the field 'points' is missing",
    ]


def test_wrong_types(tmp_path):
    data = builtin_json("saint-george.json")
    data["title"] = 7
    data["tiles"][3]["name"] = ""
    data["cards"][0]["points"] = "1"
    data["cards"][1]["points"] = True
    data["cards"][2]["pictures"] = "KING"
    data["cards"][3]["number"] = 4.0
    data["cards"][4] = None
    assert problems(load_tale, write(tmp_path, data)) == [
        "title: expected some text, found the number 7",
        "tiles[3].name: expected some text, found empty text",
        "cards[0].points: expected a whole number of 1 or more, found the text '1'",
        "cards[1].pictures[0]: 'BREATH' is not a tile of this tale",
        "cards[1].points: expected a whole number of 1 or more, found true",
        "cards[2].pictures: expected a list of 1 to 5 pictures, found the text 'KING'",
        "cards[3].number: expected a whole number of 1 or more, found the number 4.0",
        "cards[4]: expected an object, found null",
        "cards[9].pictures[3]: 'BREATH' is not a tile of this tale",
    ]


def test_unknown_tile_with_a_suggestion(tmp_path):
    data = builtin_json("three-pigs.json")
    data["cards"][3]["pictures"][1] = "APPLE TRE"
    data["cards"][5]["pictures"][0] = "DRAGON"
    assert problems(load_tale, write(tmp_path, data, "three-pigs.json")) == [
        "cards[3].pictures[1]: 'APPLE TRE' is not a tile of this tale; did you mean 'APPLE TREE'?",
        "cards[5].pictures[0]: 'DRAGON' is not a tile of this tale",
    ]


def test_repeated_picture_and_too_many_pictures(tmp_path):
    data = builtin_json("three-pigs.json")
    data["cards"][6]["pictures"] = ["WOLF", "HOUSE OF STRAW", "WOLF"]
    data["cards"][12]["pictures"].append("FARMER")
    assert problems(load_tale, write(tmp_path, data)) == [
        "cards[6].pictures[2]: 'WOLF' is already pictures[0]; a card shows each tile once",
        "cards[12].pictures: expected 1 to 5 pictures, found 6",
    ]


def test_cards_out_of_order(tmp_path):
    data = builtin_json("hare-tortoise.json")
    data["cards"][4], data["cards"][5] = data["cards"][5], data["cards"][4]
    assert problems(load_tale, write(tmp_path, data)) == [
        "cards[4].number: expected 5, found 6; number the cards 1 to 13 in order",
        "cards[5].number: expected 6, found 5; number the cards 1 to 13 in order",
    ]


def test_wrong_tile_and_card_counts(tmp_path):
    data = builtin_json("hare-tortoise.json")
    data["tiles"].append({"name": "SNAIL"})
    data["cards"].pop()
    assert problems(load_tale, write(tmp_path, data)) == [
        "tiles: expected exactly 16 tiles, found 17",
        "cards: expected exactly 13 cards, found 12",
    ]


def test_unknown_keys_are_refused(tmp_path):
    data = builtin_json("three-pigs.json")
    data["author"] = "us"
    data["cards"][2]["picture"] = data["cards"][2].pop("pictures")
    assert problems(load_tale, write(tmp_path, data)) == [
        "author: unknown field; the fields here are game, key, title, tiles, cards, language and languages",
        "cards[2]: the field 'pictures' is missing",
        "cards[2].picture: unknown field; did you mean 'pictures'?",
    ]


def test_a_field_written_twice_is_refused(tmp_path):
    text = json.dumps(builtin_json("three-pigs.json"), indent=2).replace('"points": 1', '"points": 1, "points": 4', 1)
    assert problems(load_tale, write(tmp_path, text)) == [
        "cards[0].points: this field is written more than once; keep only one"
    ]


def test_cinderella_frames(tmp_path):
    data = builtin_json("cinderella.json")
    del data["tiles"][0]["frame"]
    data["tiles"][5]["frame"] = "purple"
    assert problems(load_tale, write(tmp_path, data)) == [
        "tiles[0]: the field 'frame' is missing; every Cinderella tile has one of red, blue, green or yellow",
        "tiles[5].frame: expected one of red, blue, green or yellow, found the text 'purple'",
    ]


def test_frames_are_refused_outside_cinderella(tmp_path):
    data = builtin_json("saint-george.json")
    data["tiles"][0]["frame"] = "red"
    assert problems(load_tale, write(tmp_path, data)) == [
        "tiles[0].frame: only Cinderella tiles have a frame colour; remove this field"
    ]


def test_tile_names_are_capitals_and_unique(tmp_path):
    data = builtin_json("saint-george.json")
    data["tiles"][1]["name"] = "Saint  George"
    data["tiles"][15]["name"] = "DRAGON"
    data["cards"][6]["pictures"][1] = "Saint George"
    assert problems(load_tale, write(tmp_path, data)) == [
        "tiles[1].name: write tile names in capitals with single spaces: 'SAINT GEORGE'",
        "tiles[15].name: 'DRAGON' is already the name of tiles[0]",
        "cards[4].pictures[1]: 'CROWN' is not a tile of this tale",
        "cards[6].pictures[1]: 'Saint George' is not a tile of this tale; did you mean 'SAINT GEORGE'?",
    ]


def test_game_and_key_must_match_the_tale_rules(tmp_path):
    data = builtin_json("cinderella.json")
    data["game"] = "stories"
    data["key"] = "snow-white"
    assert problems(load_tale, write(tmp_path, data)) == [
        "game: expected 'storytelling', found the text 'stories'",
        "key: expected one of saint-george, three-pigs, cinderella or hare-tortoise, found the text 'snow-white'",
    ]


def test_stories_deck_problems(tmp_path):
    data = {
        "game": "storytelling",
        "cards": [
            {"normal": "On the bus...", "quirky": "A bus on me..."},
            {"normal": "on the  BUS...", "quirky": "", "picture": "bus"},
            {"normal": "At sea...", "quirky": "A bus on me..."},
        ],
    }
    assert problems(load_opening_cards, write(tmp_path, data)) == [
        "game: expected 'stories', found the text 'storytelling'",
        "cards[1].picture: unknown field; the fields here are normal and quirky",
        "cards[1].quirky: expected some text, found empty text",
        "cards[1].normal: the same sentence as cards[0].normal",
        "cards[2].quirky: the same sentence as cards[0].quirky",
    ]


def test_an_empty_stories_deck_is_refused(tmp_path):
    assert problems(load_opening_cards, write(tmp_path, {"game": "stories", "cards": []})) == [
        "cards: expected at least one card, found 0"
    ]


def test_several_problems_are_reported_together_one_per_line(tmp_path):
    data = builtin_json("three-pigs.json")
    data["tiles"][0] = {"name": "WOLF", "colour": "grey"}
    data["cards"][1]["number"] = 0
    data["cards"][6]["pictures"] = ["WOLFF", "HOUSE OF STRAW", "HOUSE OF STRAW"]
    data["cards"][9]["points"] = -3
    with pytest.raises(DeckError) as caught:
        load_tale(write(tmp_path, data, "three-pigs.json"))
    path = tmp_path / "three-pigs.json"
    assert caught.value.problems == (
        "tiles[0].colour: unknown field; the fields here are name and frame",
        "cards[1].number: expected a whole number of 1 or more, found the number 0",
        "cards[6].pictures[0]: 'WOLFF' is not a tile of this tale; did you mean 'WOLF'?",
        "cards[6].pictures[2]: 'HOUSE OF STRAW' is already pictures[1]; a card shows each tile once",
        "cards[9].points: expected a whole number of 1 or more, found the number -3",
    )
    assert str(caught.value) == "\n".join(f"{path}: {problem}" for problem in caught.value.problems)
    assert isinstance(caught.value, ValueError)


# --- a new game's deck: its reader in games/, the host's file reading for any deck ---

def toy_steps(data: Any) -> tuple[int, ...]:
    """A new game's deck reader, written as games.decks writes its own: the toy's steps."""
    check = Checker()
    root = check.object(data, "", ("game", "steps"))
    if root is None:
        raise DeckProblems(check.problems)
    check.game(root, "toy")
    steps = check.items(root, "steps", "", 1, 3, "1 to 3 steps") or []
    for index, step in enumerate(steps):
        if step not in (1, 2):
            check.add(f"steps[{index}]", f"expected 1 or 2, found {kind(step)}")
    if check.problems:
        raise DeckProblems(check.problems)
    return tuple(steps)


def test_a_new_games_deck_is_read_by_its_reader_and_refused_by_the_host_with_every_problem(tmp_path):
    assert load_deck(toy_steps, write(tmp_path, {"game": "toy", "steps": [1, 2]})) == (1, 2)
    bad = write(tmp_path, '{"game": "toys", "steps": [1, 0, "two", 3], "step": 1, "game": "toy"}')
    assert problems(lambda path: load_deck(toy_steps, path), bad) == [
        "game: this field is written more than once; keep only one",
        "step: unknown field; did you mean 'steps'?",
        "steps: expected 1 to 3 steps, found 4",
        "steps[1]: expected 1 or 2, found the number 0",
        "steps[2]: expected 1 or 2, found the text 'two'",
        "steps[3]: expected 1 or 2, found the number 3",
    ]
    assert problems(lambda path: load_deck(toy_steps, path), write(tmp_path, "{\n  oops")) == [
        "line 2, column 3: this is not valid JSON (expected a field's name in double quotes (an object cannot end with a comma))"
    ]
