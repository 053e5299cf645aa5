"""Identifying the Storytelling card being read in Spanish, Catalan and German, on text as Whisper
forced to the language writes it (real words of the language, numbers maybe as digits)."""
from __future__ import annotations

import pytest

from games.decks import TALE_KEYS, Tale
from host.storage.decks import load_tale
from nlp.cards import CardIdentifier, words

LANGUAGES = ("es", "ca", "de")


def told(key: str, language: str) -> Tale:
    return load_tale(key).told_in(language)


def identifier(key: str, language: str) -> CardIdentifier:
    return CardIdentifier({card.number: card.text for card in told(key, language).cards}, language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", TALE_KEYS)
def test_a_card_is_sure_from_its_first_fourteen_words_and_no_other_card_ever_is(key: str, language: str) -> None:
    ids = identifier(key, language)
    for card in told(key, language).cards:
        read = words(card.text, language)
        guesses = [ids.identify(" ".join(read[:count])) for count in range(1, len(read) + 1)]
        assert all(g.number == card.number for g in guesses if ids.sure(g)), card.text
        whole = guesses[-1]
        assert whole is not None and whole.number == card.number and whole.score > 0.95, card.text
        assert ids.sure(guesses[min(14, len(read)) - 1]), card.text


@pytest.mark.parametrize(("language", "heard", "number"), [
    # Whisper's digits and words that sound alike, spelled otherwise
    ("es", "6 ratones pequeñitos se conbirtieron en 6 cavallos blancos", 7),
    ("ca", "sis ratolins petitons es van convertir en 6 cavalls blancs", 7),
    ("de", "Sechs kleine Meuse wurden zu 6 weisen Pferden", 7),
    ("es", "vuelve a casa antes de que el reloj de las 12 le advirtió el ada madrina", 8),
    ("de", "Sei zu Hause bevor die Uhr 12 schlägt warnte die gute Fee", 8),
])
def test_digits_and_sound_alike_spellings_are_the_card(language: str, heard: str, number: int) -> None:
    ids = identifier("cinderella", language)
    guess = ids.identify(heard)
    assert guess is not None and guess.number == number and ids.sure(guess), guess


def test_another_language_is_not_matched_by_its_spelling() -> None:
    with pytest.raises(ValueError, match="cards in 'fr' cannot be identified: only in en, es, ca, de"):
        CardIdentifier({1: "Il était une fois"}, "fr")


def test_a_catalan_word_with_its_apostrophe_and_middle_dot_is_one_word() -> None:
    assert words("L'escut d'en Jordi i la cel·la, 12", "ca") == ["l'escut", "d'en", "jordi", "i", "la", "cel·la", "dotze"]
