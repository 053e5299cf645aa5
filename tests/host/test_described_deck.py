"""Dixit decks told in words: a group's own deck loads, and broken deck files of every kind are
refused before a game, each problem in one line naming the file, card and field."""
from __future__ import annotations

import json
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from games.decks import DescribedCard
from host.storage.decks import (
    MAX_DESCRIPTION_WORDS, MAX_IMAGE_BYTES, DeckError, dixit_deal, image_kind, load_described_deck,
)
from tests.host.test_decks import problems, write


def small_deck(count: int = 26) -> dict[str, Any]:
    """A valid deck of a group's own, `count` cards long."""
    return {
        "game": "dixit",
        "title": "Our deck",
        "licence": "Ours, CC BY 4.0",
        "cards": [
            {"id": n, "title": f"Lantern {n}", "description": f"Lantern number {n} glows on a hill. It is blue."}
            for n in range(1, count + 1)
        ],
    }


def png(width: int = 1, height: int = 1) -> bytes:
    """A real PNG picture, grey, made with zlib."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


# --- a group's own deck ---

def test_a_deck_of_ones_own_loads_with_pictures_and_licences(tmp_path):
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "lantern.png").write_bytes(png(3, 2))
    (tmp_path / "fox.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(100))
    (tmp_path / "owl.webp").write_bytes(b"RIFF\x1a\x00\x00\x00WEBPVP8L" + bytes(30))
    data = small_deck(28)
    data["cards"][0].update(image="pictures/lantern.png", licence="Photo by Ana, CC0")
    data["cards"][1].update(image="./fox.jpg")
    data["cards"][2].update(image="owl.webp", title="  The   owl\n")
    data["cards"][3]["description"] = " A fox\tunder the\nmoon.  It waits. "
    deck = load_described_deck(write(tmp_path, data, "ours.json"), players=4)
    assert deck.title == "Our deck" and len(deck.cards) == 28
    first, second, third, fourth = deck.cards[:4]
    assert first == DescribedCard(1, "Lantern 1", "Lantern number 1 glows on a hill. It is blue.", "Photo by Ana, CC0",
                                  str(tmp_path / "pictures" / "lantern.png"))
    assert first.brief == "Lantern number 1 glows on a hill."
    assert second.image == str(tmp_path / "fox.jpg") and second.licence == "Ours, CC BY 4.0"
    assert third.image == str(tmp_path / "owl.webp") and third.title == "The owl"
    assert fourth.description == "A fox under the moon. It waits." and fourth.image is None


def test_image_kinds_are_told_by_their_first_bytes():
    assert image_kind(png()) == "PNG"
    assert image_kind(b"\xff\xd8\xff\xdb" + bytes(8)) == "JPEG"
    assert image_kind(b"RIFF\x00\x00\x00\x00WEBP") == "WebP"
    assert image_kind(b"GIF89a" + bytes(6)) is None
    assert image_kind(b"RIFF\x00\x00\x00\x00WAVE") is None
    assert image_kind(b"") is None


# --- broken files: every kind, each named by file, card and field ---

def test_broken_json(tmp_path):
    path = write(tmp_path, '{"game": "dixit",\n "title": "x",\n "cards": [{"id": 1,}]}')
    assert problems(load_described_deck, path) == [
        "line 3, column 21: this is not valid JSON (Expecting property name enclosed in double quotes)"
    ]


def test_missing_file_and_not_an_object(tmp_path):
    assert problems(load_described_deck, tmp_path / "nowhere.json") == [
        "cannot read the file: No such file or directory"
    ]
    assert problems(load_described_deck, write(tmp_path, [1, 2])) == ["expected an object, found a list"]


def test_missing_fields(tmp_path):
    data = small_deck()
    del data["licence"]
    del data["cards"][2]["description"]
    del data["cards"][5]["id"], data["cards"][5]["title"]
    assert problems(load_described_deck, write(tmp_path, data)) == [
        "the field 'licence' is missing",
        "cards[2]: the field 'description' is missing",
        "cards[5]: the field 'id' is missing",
        "cards[5]: the field 'title' is missing",
    ]


def test_wrong_types(tmp_path):
    data = small_deck()
    data["title"] = ["Our deck"]
    data["cards"][0]["id"] = "1"
    data["cards"][1]["id"] = 0
    data["cards"][2]["id"] = 3.0
    data["cards"][3]["title"] = None
    data["cards"][4]["description"] = 42
    data["cards"][5]["image"] = True
    data["cards"][6]["licence"] = {"name": "MIT"}
    data["cards"][7] = "A fox under the moon."
    assert problems(load_described_deck, write(tmp_path, data)) == [
        "title: expected some text, found a list",
        "cards[0].id: expected a whole number of 1 or more, found the text '1'",
        "cards[1].id: expected a whole number of 1 or more, found the number 0",
        "cards[2].id: expected a whole number of 1 or more, found the number 3.0",
        "cards[3].title: expected some text, found null",
        "cards[4].description: expected some text, found the number 42",
        "cards[5].image: expected some text, found true",
        "cards[6].licence: expected some text, found an object",
        "cards[7]: expected an object, found the text 'A fox under the moon.'",
    ]


def test_cards_that_are_not_a_list(tmp_path):
    data = small_deck()
    data["cards"] = {"id": 1}
    assert problems(load_described_deck, write(tmp_path, data)) == ["cards: expected a list of cards, found an object"]


def test_unknown_and_repeated_fields_and_the_wrong_game(tmp_path):
    data = small_deck()
    data["game"] = "stories"
    data["cards"][4]["descripton"] = data["cards"][4].pop("description")
    data["cards"][9]["colour"] = "red"
    text = json.dumps(data, indent=2).replace('"title": "Lantern 12",', '"title": "Lantern 12", "title": "Lanterns",')
    assert problems(load_described_deck, write(tmp_path, text)) == [
        "game: expected 'dixit', found the text 'stories'",
        "cards[4]: the field 'description' is missing",
        "cards[4].descripton: unknown field; did you mean 'description'?",
        "cards[9].colour: unknown field; the fields here are id, title, description, image, licence",
        "cards[11].title: this field is written more than once; keep only one",
    ]


def test_empty_and_too_long_texts(tmp_path):
    data = small_deck()
    data["licence"] = " \n "
    data["cards"][0]["description"] = "   "
    data["cards"][1]["description"] = " ".join(["moon"] * (MAX_DESCRIPTION_WORDS + 1))
    data["cards"][2]["description"] = "A " + "very" * 150 + " long word."
    data["cards"][3]["title"] = "The " + "long " * 12 + "title"
    data["cards"][4]["title"] = ""
    data["cards"][5]["licence"] = "x" * 201
    assert problems(load_described_deck, write(tmp_path, data)) == [
        "licence: expected some text, found empty text",
        "cards[0].description: expected some text, found empty text",
        "cards[1].description: expected at most 80 words, found 81; every card shown is read aloud",
        "cards[2].description: expected at most 600 characters, found 613",
        "cards[3].title: expected at most 60 characters, found 69",
        "cards[4].title: expected some text, found empty text",
        "cards[5].licence: expected at most 200 characters, found 201",
    ]


def test_duplicate_ids_titles_descriptions_and_pictures(tmp_path):
    (tmp_path / "fox.png").write_bytes(png())
    data = small_deck()
    data["cards"][3]["id"] = 2
    data["cards"][7]["id"] = 2
    data["cards"][4]["title"] = "LANTERN 1"
    data["cards"][5]["description"] = "lantern number 1  glows on a hill. It is blue."
    data["cards"][6]["image"] = "fox.png"
    data["cards"][8]["image"] = "./fox.png"
    assert problems(load_described_deck, write(tmp_path, data)) == [
        "cards[3].id: 2 is already the id of cards[1]",
        "cards[4].title: 'LANTERN 1' is already the title of cards[0]",
        "cards[5].description: the same description as cards[0]",
        "cards[7].id: 2 is already the id of cards[1]",
        "cards[8].image: './fox.png' is already the picture of cards[6]",
    ]


def test_pictures_that_cannot_be_used(tmp_path):
    (tmp_path / "notes.png").write_text("a fox under the moon", encoding="utf-8")
    (tmp_path / "fox.gif").write_bytes(b"GIF89a" + bytes(20))
    (tmp_path / "folder.png").mkdir()
    with open(tmp_path / "huge.png", "wb") as huge:  # sparse: nothing is written but the signature
        huge.write(png())
        huge.truncate(MAX_IMAGE_BYTES + 1)
    data = small_deck()
    for index, image in enumerate(
        ["missing.png", "notes.png", "fox.gif", "folder.png", "huge.png", "/etc/passwd", "../fox.png", "a\\fox.png"]
    ):
        data["cards"][index]["image"] = image
    assert problems(load_described_deck, write(tmp_path, data)) == [
        "cards[0].image: 'missing.png': cannot read the file: No such file or directory",
        "cards[1].image: 'notes.png' is not a PNG, JPEG or WebP picture",
        "cards[2].image: 'fox.gif' is not a PNG, JPEG or WebP picture",
        "cards[3].image: 'folder.png': this is not a regular file (a folder, a device or a pipe)",
        "cards[4].image: 'huge.png' is larger than 2 MiB: make the picture smaller",
        *(
            f"cards[{index}].image: {name!r}: name the picture from the deck file's folder, inside it, with / "
            "between folders, such as 'pictures/lantern.png' (no / in front, no ..)"
            for index, name in ((5, "/etc/passwd"), (6, "../fox.png"), (7, "a\\fox.png"))
        ),
    ]


@pytest.mark.parametrize("players, least", [(3, 26), (4, 28), (5, 35), (6, 42)])
def test_too_few_cards_for_the_players(tmp_path, players, least):
    """The rulebook's deal: the hands (6 each, 7 with 3 players) and one turn's cards shown (one a
    player, 5 with 3 players), drawn back at the end of the turn."""
    dealt, shown = dixit_deal(players)
    assert dealt + shown == least
    path = write(tmp_path, small_deck(least))
    assert len(load_described_deck(path, players=players).cards) == least
    path = write(tmp_path, small_deck(least - 1))
    assert problems(lambda file: load_described_deck(file, players=players), path) == [
        f"cards: {least - 1} cards are too few for {players} players: the hands take {dealt} and one turn draws "
        f"{shown} more, so write at least {least}"
    ]


def test_too_few_cards_for_any_game_and_too_many(tmp_path):
    assert problems(load_described_deck, write(tmp_path, small_deck(25))) == [
        "cards: 25 cards are too few for any game: 3 players' hands take 21 and one turn draws 5 more, "
        "so write at least 26"
    ]
    assert problems(load_described_deck, write(tmp_path, small_deck(1001))) == [
        "cards: expected at most 1000 cards, found 1001"
    ]


def test_every_problem_is_reported_together_one_line_each(tmp_path):
    data = small_deck(30)
    data["cards"][3]["id"] = 1
    data["cards"][10]["image"] = "lantern.png"
    data["cards"][20]["description"] = ""
    path = write(tmp_path, data, "dreams.json")
    with pytest.raises(DeckError) as caught:
        load_described_deck(path, players=5)
    assert caught.value.problems == (
        "cards: 30 cards are too few for 5 players: the hands take 30 and one turn draws 5 more, so write at least 35",
        "cards[3].id: 1 is already the id of cards[0]",
        "cards[10].image: 'lantern.png': cannot read the file: No such file or directory",
        "cards[20].description: expected some text, found empty text",
    )
    assert str(caught.value) == "\n".join(f"{path}: {problem}" for problem in caught.value.problems)
    assert re.fullmatch(r"(.+dreams\.json: cards(\[\d+\]\.\w+)?: .+\n?)+", str(caught.value))

