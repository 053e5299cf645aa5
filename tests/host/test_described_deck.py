"""The Dixit deck told in words: the built-in deck loads and is written as a Dixit deck should
be (long enough to picture, short enough to hear, no two cards alike), and broken deck files of
every kind are refused before a game, each problem in one line naming the file, card and field."""
from __future__ import annotations

import itertools
import json
import re
import struct
import subprocess
import tempfile
import zlib
from collections import Counter
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import soundfile
import spacy
from rapidfuzz import fuzz, utils

from games.decks import MAX_DESCRIPTION_WORDS, DescribedCard, DescribedDeck, sentences
from games.dixit import Deal
from host.audio.speaker import DEFAULT_RATE
from host.storage.decks import MAX_IMAGE_BYTES, DeckError, image_kind, load_described_deck
from nlp.tagger import SPACY_MODEL
from tests.host.cli_helpers import run_storyhost
from tests.host.test_decks import problems, write

#: two cards whose texts score above this (rapidfuzz token_set_ratio, lower case, no punctuation)
#: are near-duplicates. token_set_ratio scores the words two texts share against each text's
#: own, so a card reworded, reordered, cut short or given a new ending still scores high (see
#: test_the_similarity_check_catches_a_reworded_card: 77 to 100), while two different scenes share
#: only the little words (the built-in deck's closest pair scores about 61).
SIMILARITY_LIMIT = 70
#: a noun found in this many cards of the deck or fewer is distinctive: it names what a scene is
#: about (whale, hourglass), unlike nouns every other card has (sky, window, light)
DISTINCTIVE_IN_AT_MOST = 3
#: what a card may take to read aloud at the table, at the host's default rate (issue 18)
MAX_SPEECH_SECONDS = 20.0


@cache
def descriptions() -> tuple[str, ...]:
    return tuple(card.description for card in load_described_deck().cards)


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


def spoken_seconds(text: str, folder: Path) -> float:
    """How long espeak-ng (the host's voice, with its default voice) takes to say `text` at the
    host's default rate: the length of the WAV it writes."""
    wav = folder / "card.wav"
    subprocess.run(["espeak-ng", "-s", str(DEFAULT_RATE), "-w", str(wav), text], check=True)
    return float(soundfile.info(str(wav)).duration)


# --- the built-in deck ---

def test_builtin_deck_has_the_84_cards_of_a_dixit_box():
    deck = load_described_deck()
    assert isinstance(deck, DescribedDeck) and deck.title == "Eighty-Four Dreams"
    assert len(deck.cards) == 84 and all(isinstance(card, DescribedCard) for card in deck.cards)
    assert [card.id for card in deck.cards] == list(range(1, 85))
    assert len({card.title.casefold() for card in deck.cards}) == 84
    assert {card.licence for card in deck.cards} == {
        "Descriptions written for storyhost, under its licence: MIT (see pyproject.toml)."
    }
    assert {card.image for card in deck.cards} == {None}


def test_builtin_deck_is_package_data_and_loads_by_path_too():
    resource = files("games") / "data" / "dixit" / "dixit-described.json"
    assert resource.is_file()
    assert load_described_deck(str(resource)) == load_described_deck()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_builtin_deck_deals_every_game(players):
    assert len(load_described_deck(players=players).cards) == 84


def test_each_card_is_20_to_80_words_in_2_to_4_sentences():
    for text in descriptions():
        assert 20 <= len(text.split()) <= 80, text
        assert 2 <= len(sentences(text)) <= 4, text
        assert text.isascii() and "  " not in text, text  # read aloud as written


def test_the_first_sentence_stands_alone_as_the_brief_reading():
    """Brief reads only the first sentence: a whole sentence that shows the scene (at least 8
    words), short enough for brief (at most 32 words, about 11 seconds)."""
    for card in load_described_deck().cards:
        brief = card.brief
        assert brief == sentences(card.description)[0] and brief[0].isupper() and brief[-1] in ".!?", brief
        assert 8 <= len(brief.split()) <= 32, brief


def test_cards_open_in_many_ways():
    """Not formulaic: no opening word starts more than one card in ten, and an article ("A",
    "An", "The") starts at most one card in four."""
    openings = Counter(text.split()[0] for text in descriptions())
    assert max(openings.values()) <= 8, openings.most_common(3)
    assert openings["A"] + openings["An"] + openings["The"] <= 21, openings


def similarity(one: str, other: str) -> float:
    return fuzz.token_set_ratio(one, other, processor=utils.default_process)


def test_no_two_cards_are_near_duplicates():
    pairs = itertools.combinations(descriptions(), 2)
    closest = max(pairs, key=lambda pair: similarity(*pair))
    assert similarity(*closest) <= SIMILARITY_LIMIT, closest


def test_the_similarity_check_catches_a_reworded_card():
    card = descriptions()[0]  # the whale with a lantern
    near = (
        # reworded
        "A whale floats over a sleeping village with a lantern hanging from its tail. All the windows below are "
        "dark but one, where a boy in pyjamas stands on his toes. The sky is deep blue and the whale's eyes are "
        "half shut, as though it were dreaming.",
        # the same first sentence, a new ending
        "Above a sleeping town drifts a whale, a lit lantern swinging from its tail. A fisherman on a roof casts "
        "a line towards it. Snow is falling.",
        # the sentences in another order, one left out
        "The sky is ink blue, and the whale's eye is half closed, as if it were dreaming too. Above a sleeping "
        "town drifts a whale, a lit lantern swinging from its tail.",
        # the same scene, told short
        "A whale with a lantern on its tail floats above a dark town at night.",
    )
    assert all(similarity(card, text) > SIMILARITY_LIMIT for text in near)


def distinctive_nouns(texts: tuple[str, ...]) -> list[set[str]]:
    """Each text's nouns (lemmas, by spaCy) found in at most DISTINCTIVE_IN_AT_MOST of the texts."""
    nlp = spacy.load(SPACY_MODEL, exclude=["parser", "ner"])
    nouns = [{token.lemma_.lower() for token in doc if token.pos_ == "NOUN"} for doc in nlp.pipe(texts)]
    texts_with = Counter(noun for text in nouns for noun in text)
    return [{noun for noun in text if texts_with[noun] <= DISTINCTIVE_IN_AT_MOST} for text in nouns]


def test_no_two_cards_share_two_distinctive_nouns():
    """Two scenes about the same things (a tortoise carrying a tower, a tower of chairs, both
    with someone at the top) share rare nouns even when worded apart."""
    distinctive = distinctive_nouns(descriptions())
    for (one, first), (other, second) in itertools.combinations(enumerate(distinctive, 1), 2):
        assert len(first & second) <= 1, (one, other, first & second)


@pytest.mark.slow
def test_each_card_is_read_aloud_in_at_most_20_seconds():
    """Synthesised by espeak-ng at the default rate: the table hears every card shown."""
    with tempfile.TemporaryDirectory() as folder:
        for text in descriptions():
            assert spoken_seconds(text, Path(folder)) <= MAX_SPEECH_SECONDS, text


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
        "line 3, column 21: this is not valid JSON (expected a field's name in double quotes (an object cannot end with a comma))"
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
        "cards[9].colour: unknown field; the fields here are id, title, description, image and licence",
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
    deal = Deal(players)
    dealt, shown = deal.dealt, deal.cards_shown
    assert deal.least == dealt + shown == least
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


def test_the_readme_example_is_right_but_for_its_length(tmp_path):
    """The format as README shows it: every field of its example is right; only its two cards
    are too few for a game. Its example of a problem is what the loader says."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("#### Dixit decks told in words"):]
    example = section[section.index("```json\n") + 8:section.index("```\n", section.index("```json"))]
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "whale.png").write_bytes(png())
    assert problems(load_described_deck, write(tmp_path, example, "ours.json")) == [
        "cards: 2 cards are too few for any game: 3 players' hands take 21 and one turn draws 5 more, so write at least 26"
    ]
    data = json.loads(example)
    data["cards"] = [
        {"id": n, "title": f"Card {n}", "description": "moon " * (91 if n == 4 else 9) + f"number {n}."}
        for n in range(1, 27)
    ]
    shown = re.search(r"`(ours\.json: cards\[3\]\.description: .+?)`", " ".join(section.split()))
    assert shown is not None
    assert str(pytest.raises(DeckError, load_described_deck, write(tmp_path, data, "ours.json")).value) == (
        shown.group(1).replace("ours.json", str(tmp_path / "ours.json"))
    )


# --- through the command line: refused before a game exists ---

def play_described(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_storyhost(data_dir, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", *args, stdin="quit\n")


@pytest.mark.slow
def test_a_broken_deck_or_a_game_without_phones_is_refused_before_a_game_exists(tmp_path):
    data = small_deck(30)
    data["cards"][3]["title"] = data["cards"][0]["title"]
    data["cards"][7]["description"] = "word " * 81
    del data["cards"][9]["id"]
    path = write(tmp_path, data, "ours.json")
    broken = play_described(tmp_path, "--deck", str(path), "--companion", "--port", "0")
    assert broken.returncode == 2 and broken.stdout == ""
    assert broken.stderr.splitlines() == [
        f"{path}: cards[3].title: 'Lantern 1' is already the title of cards[0]",
        f"{path}: cards[7].description: expected at most 80 words, found 81; every card shown is read aloud",
        f"{path}: cards[9]: the field 'id' is missing",
    ]
    phoneless = play_described(tmp_path, "--deck", "described")
    assert phoneless.returncode == 2 and phoneless.stdout == ""
    assert phoneless.stderr.strip() == (
        "With a deck told in words each player's hand is dealt to their own phone: a player without a phone cannot "
        "hold one. If someone has no phone, play with the physical cards instead (leave out --deck). To play it, "
        "add --companion."
    )
    counted = play_described(tmp_path, "--deck", "described", "--cards", "40", "--companion")
    assert counted.stderr.strip() == ("--cards counts the physical cards; a deck told in words has as many cards as it "
                                      "holds: leave out --cards.")
    assert run_storyhost(tmp_path, "games").stdout.startswith("No saved games yet")


@pytest.mark.slow
def test_a_game_told_in_words_is_resumed_with_phones_only(tmp_path):
    started = play_described(tmp_path, "--deck", "described", "--companion", "--port", "0", "--seed", "1")
    assert started.returncode == 0, started.stderr
    assert "Dixit with the deck told in words, Eighty-Four Dreams: 84 cards." in started.stdout
    assert "If someone has no phone, play with the physical cards instead (leave out --deck)." in started.stdout
    listed = run_storyhost(tmp_path, "games").stdout
    assert listed.startswith("1: Dixit (deck told in words: Eighty-Four Dreams) with Ana, Bo, Cy and Di; no moves yet")
    resumed = run_storyhost(tmp_path, "resume", "1")
    assert resumed.returncode == 2 and resumed.stderr.strip().endswith("To play it, add --companion.")
