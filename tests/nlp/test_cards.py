"""Identifying the Storytelling card being read, on recognizer-like text."""
from __future__ import annotations

import pytest

from games.decks import TALE_KEYS
from host.storage.decks import load_tale
from nlp.cards import CardGuess, CardIdentifier, words


def identifier(key: str) -> CardIdentifier:
    return CardIdentifier({card.number: card.text for card in load_tale(key).cards})


@pytest.fixture(scope="module")
def tales() -> dict[str, CardIdentifier]:
    return {key: identifier(key) for key in TALE_KEYS}


def sure_of(ids: CardIdentifier, heard: str) -> int | None:
    guess = ids.identify(heard)
    return guess.number if ids.sure(guess) else None


@pytest.mark.parametrize("key", TALE_KEYS)
def test_every_card_read_exactly_is_sure_and_clearly_ahead(tales, key):
    for card in load_tale(key).cards:
        guess = tales[key].identify(card.text)
        assert guess.number == card.number and guess.score > 0.95 and tales[key].sure(guess), guess


@pytest.mark.parametrize("key", TALE_KEYS)
def test_a_card_is_sure_from_its_first_twelve_words_and_no_other_card_ever_is(tales, key):
    for card in load_tale(key).cards:
        read = words(card.text)
        sure = [sure_of(tales[key], " ".join(read[:count])) for count in range(1, len(read) + 1)]
        assert set(sure) <= {None, card.number}, card.text
        assert sure[min(12, len(read)) - 1] == card.number, card.text


@pytest.mark.parametrize(
    ("key", "heard", "number"),
    [
        # PocketSphinx on festival: sound-alike words and a dropped "a"
        ("saint-george", "ducking under the smoke st george drove his spear into the dragons kelly chest and it's blood spilled onto the grass", 11),
        ("three-pigs", "one evening a hungry wolf knocked on the door of the house of strong and grounds little keg little can't let me come in", 6),
        ("three-pigs", "the wolf hunt and peck and he blew the house of sticks down said the second page fled with his brother", 9),
        ("cinderella", "cinderella sad crying by the fireplace and ellis park love light turned into her fairy godmother", 5),
        ("hare-tortoise", "the tortoise crossed the finish line first and as the crowd roared the owl hung a golden medal around the winners neck", 13),
        # words dropped
        ("cinderella", "fairy godmother tapped big orange pumpkin swelled grew golden coach", 6),
        # a partial first sentence, of a card that shares its pictures with the next one
        ("cinderella", "the prince searched the kingdom with the glass", 12),
        # digits, as a typed or other recognizer's transcript may have them
        ("cinderella", "6 little mice became 6 white horses", 7),
    ],
)
def test_misheard_readings_are_recognized(tales, key, heard, number):
    assert sure_of(tales[key], heard) == number


def test_cards_that_share_pictures_are_told_apart_by_a_margin(tales):
    # hare-tortoise 10 and 11: TORTOISE, RIVER/HILL, BRIDGE... both have the tortoise crossing at night
    ids = tales["hare-tortoise"]
    slowly = ids.identify("slowly but surely the tortoise reached the river and crept across the bridge")
    moonlight = ids.identify("by moonlight the tortoise climbed the hill and tiptoed past the sleeping hare")
    assert (slowly.number, moonlight.number) == (10, 11)
    assert slowly.margin >= 0.15 and moonlight.margin >= 0.15


@pytest.mark.parametrize(
    ("key", "heard"),
    [
        ("three-pigs", "the wolf huffed and puffed"),  # cards 7, 9 and 11
        ("saint-george", "saint george"),  # cards 7, 8, 10, 11, 12, 13
        ("cinderella", "the fairy godmother"),  # cards 5, 6, 8
    ],
)
def test_words_that_several_cards_share_are_not_enough(tales, key, heard):
    assert sure_of(tales[key], heard) is None


@pytest.mark.parametrize(("key", "heard"), [("cinderella", "ashes"), ("three-pigs", "picnic"), ("hare-tortoise", "medal")])
def test_one_word_of_a_single_card_is_not_enough(tales, key, heard):
    assert sure_of(tales[key], heard) is None


def test_nothing_heard_is_no_guess(tales):
    for heard in ("", "   ", "... !"):
        assert tales["cinderella"].identify(heard) is None
    assert not tales["cinderella"].sure(None)


@pytest.mark.parametrize(
    "heard",
    [
        "we saw polar bears in the snow and then we flew home to canada",
        "okay who wants to go first this time i think it is your turn",
        "once upon a time there was a little girl who lived near the woods",
    ],
)
def test_unrelated_speech_is_not_sure(tales, heard):
    for ids in tales.values():
        assert sure_of(ids, heard) is None


def test_a_card_of_another_tale_is_not_sure():
    ids = identifier("saint-george")
    for card in load_tale("three-pigs").cards:
        assert sure_of(ids, card.text) is None, card.text


def test_a_guess_has_the_runner_up_margin_and_a_lone_card_leads_by_its_score():
    pair = CardIdentifier({1: "The dragon slept in the cave.", 2: "The dragon slept in the castle."})
    guess = pair.identify("the dragon slept in the cave")
    assert guess.number == 1 and 0 < guess.margin < guess.score <= 1
    lone = CardIdentifier({4: "The hare shot off so fast that he left the tortoise in a cloud of dust."})
    guess = lone.identify("the hare shot off so fast")
    assert isinstance(guess, CardGuess) and guess.number == 4 and guess.margin == guess.score
    with pytest.raises(ValueError):
        CardIdentifier({})


def test_words_are_normalised_for_matching():
    assert words("'Be home before 12,' warned the worn-out Fairy Godmother’s broom!") == [
        "be", "home", "before", "twelve", "warned", "the", "worn", "out", "fairy", "godmother's", "broom",
    ]
    # numbers as the tracker says them (nlp.numbers), so that a card read aloud is heard alike
    assert words("101 2000, the 3rd at 3:30, $4 and 1999") == [
        "one", "hundred", "and", "one", "two", "thousand", "the", "third", "at", "three", "thirty",
        "four", "dollars", "and", "nineteen", "ninety", "nine",
    ]
