"""The Storytelling tales in Spanish, Catalan and German: each built-in tale's 13 cards in each
language with the English cards' pictures in the same order, a game in a language plays its
tale's words (the card read, the pictures to find, the wolf's BLEW tile), a tale without the
game's language is refused with the reason, and the deck checks of the languages block."""
from __future__ import annotations

import copy
import json
from dataclasses import asdict
from typing import Any

import pytest

from games.base import Action, SetupError
from games.decks import TALE_CARDS, TALE_KEYS, Tale, builtin_tale, parse_tale
from games.json_checks import DeckProblems, JsonObject
from games.language import speaking
from games.storytelling import SPEC, StorytellingState
from host.storage.catalogs import translations

LANGUAGES = ("es", "ca", "de")


def raw(key: str) -> dict[str, Any]:
    return dict(json.loads(builtin_tale(key).read_text(encoding="utf-8"), object_pairs_hook=JsonObject.from_pairs))


def game(key: str, language: str | None, advanced: bool = False) -> StorytellingState:
    settings: dict[str, Any] = {"players": ["Marc", "Lea"], "tale": asdict(parse_tale(raw(key))), "seed": 3,
                                "advanced": advanced}
    if language is not None:
        settings["language"] = language
    state = SPEC.build(settings, None)  # type: ignore[arg-type]  # Storytelling asks no services
    assert isinstance(state, StorytellingState)
    return state


@pytest.mark.parametrize("key", TALE_KEYS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tale_is_written_in_each_language_with_the_english_pictures(key: str, language: str) -> None:
    tale = parse_tale(raw(key))
    told = tale.told_in(language)
    english = {tile.name: index for index, tile in enumerate(tale.tiles)}
    assert told.language == language and told.title != tale.title
    assert len(told.cards) == TALE_CARDS and len({card.text for card in told.cards}) == TALE_CARDS
    assert len({tile.name for tile in told.tiles}) == len(tale.tiles)
    for card, original in zip(told.cards, tale.cards):
        assert (card.number, card.points) == (original.number, original.points)
        assert card.text != original.text
        assert [told.tiles[english[name]].name for name in original.pictures] == list(card.pictures)
    assert [tile.frame for tile in told.tiles] == [tile.frame for tile in tale.tiles]  # Cinderella's clock


def test_a_spanish_game_reads_the_spanish_card_and_names_the_spanish_pictures() -> None:
    state = game("three-pigs", "es")
    card = next(event for event in state.opening() if event.cue == "card")
    assert "Érase una vez una madre que decía adiós desde su ventana" in card.text
    assert state.view(None).tale == "Los tres cerditos"
    assert state.card.pictures == ("MADRE", "VENTANA")


@pytest.mark.parametrize(("language", "blew"), [("es", "SOPLÓ"), ("ca", "VA BUFAR"), ("de", "PUSTETE")])
def test_the_wolf_blows_on_its_tile_in_the_game_language(language: str, blew: str) -> None:
    state = game("three-pigs", language, advanced=True)
    assert state.trigger == blew
    state.apply(Action("flip", None, (state.position(state.grid.index(blew)),)))
    assert state.view(None).phase == "blow"


def test_a_game_saved_before_tales_had_languages_is_english() -> None:
    state = game("saint-george", None)
    assert state.card.text.startswith("Long ago, a fearsome dragon")


def test_a_tale_without_the_game_language_is_refused_with_the_reason() -> None:
    data = raw("cinderella")
    del data["languages"]
    with pytest.raises(SetupError, match=r"^Cinderella is not written in Catalan: its cards are in English\. "
                                         r"Choose another tale, or add its cards in Catalan to the tale file\.$"):
        parse_tale(data).told_in("ca")
    with speaking(translations("es")), pytest.raises(SetupError, match=r"^Cinderella no está escrito en catalán: "
                                                                       r"sus cartas están en inglés\. "):
        parse_tale(data).told_in("ca")


def test_a_tale_written_in_german_plays_in_german_only() -> None:
    data = raw("hare-tortoise")
    german = data["languages"].pop("de")
    data.update(language="de", title=german["title"], languages={})
    for card, translated in zip(data["cards"], german["cards"]):
        card.update(text=translated["text"], pictures=translated["pictures"])
    data["tiles"] = [{"name": name} for name in german["tiles"]]
    tale = parse_tale(data)
    assert tale.told_in("de").cards[0].text.startswith("Auf einer grünen Wiese")
    with pytest.raises(SetupError, match="is not written in English: its cards are in German"):
        tale.told_in("en")


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(DeckProblems) as refused:
        parse_tale(data)
    return list(refused.value.problems)


def test_the_languages_block_is_checked_against_the_english_cards() -> None:
    data = copy.deepcopy(raw("three-pigs"))
    spanish = data["languages"]["es"]
    spanish["cards"][3]["pictures"].reverse()
    spanish["cards"][5]["number"] = 7
    del spanish["cards"][12]
    spanish["tiles"][1] = "sopló"
    data["languages"]["fr"] = data["languages"].pop("de")
    data["languages"]["en"] = data["languages"].pop("ca")
    assert problems(data) == [
        "languages.es.tiles[1]: write tile names in capitals with single spaces: 'SOPLÓ'",
        "languages.es.cards: expected exactly 13 cards, found 12",
        "languages.es.cards[3].pictures: expected ['SEGUNDO CERDITO', 'MANZANO', 'CASA DE MADERA']: the pictures "
        "of card 4 in the same order, named as the tiles of languages.es.tiles",
        "languages.es.cards[5].number: expected 6, found 7; number the cards 1 to 13 in order",
        "languages.fr: expected one of en, es, ca or de, found the text 'fr'",
        "languages.en: the tale itself is written in en; give here only its other languages",
    ]


def test_the_tale_language_and_a_repeated_tile_name_are_checked() -> None:
    data = copy.deepcopy(raw("saint-george"))
    data["language"] = "fr"
    data["languages"]["de"]["tiles"][2] = "DRACHE"
    found = problems(data)
    assert found[0] == "language: expected one of en, es, ca or de, found the text 'fr'"
    assert "languages.de.tiles[2]: 'DRACHE' is already the name of languages.de.tiles[0]" in found
