"""Which Storytelling card a human storyteller is reading aloud, from recognizer output.

Texts are compared by sound, not spelling: a recognizer mishears words as others that sound alike
("dragon's scaly chest" -> "dragons kelly chest", "house of straw" -> "house of strong"), so each
word becomes its pronunciation in the CMU Pronouncing Dictionary (nlp.soundalike; a word missing
from it borrows that of the closest-spelled word), one character a phone, and rapidfuzz's
`partial_ratio` finds the stretch of each card that best matches what was heard. That works on the
first words of a reading as on the whole card. On the recognizer's output for all 52 cards
(tests/benchmarks/bench_cards.py) phones identified 47 espeak-ng readings of 52 among the tale's
cards, where spelling (`partial_ratio` on the words) got 35 and `token_set_ratio` 27; festival
readings were all right either way.

A few words match some card by chance, and cards of a tale share words (they name the same
pictures), so the similarity is scaled by how much was heard: full weight from `EVIDENCE` phones
(about seven words) on. A guess is `sure` when its score is at least `SURE_SCORE` and it leads the
runner-up by at least `SURE_MARGIN`. Measured on every card read by festival and espeak-ng through
PocketSphinx, scored after every partial hypothesis: no wrong card was ever sure, neither against
the card's own tale nor against all 52 cards; readings of one tale scored against another tale's
cards (standing for unrelated speech) reached scores of 0.62 and margins of 0.148, never both.
Festival readings were all sure after a median 31% of the card's audio (p95 46%); espeak-ng,
which PocketSphinx mostly mishears, was sure on 10 cards of 52.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from nlp.soundalike import load_pronunciations

EVIDENCE = 25  # phones heard for full weight
SURE_SCORE = 0.65  # another tale's cards read: scores up to 0.62
SURE_MARGIN = 0.15  # ... and margins up to 0.148, never with such a score

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_PHONES: dict[str, str] = {}  # phone -> the character standing for it


@dataclass(frozen=True)
class CardGuess:
    """The best-matching card, its score (0..1) and how far it leads the runner-up's score."""

    number: int
    score: float
    margin: float


class CardIdentifier:
    """Finds the card being read among `texts` (card number -> text)."""

    def __init__(self, texts: Mapping[int, str]) -> None:
        if not texts:
            raise ValueError("no card texts to identify a card among")
        self._cards = {number: _sounds(text) for number, text in texts.items()}

    def identify(self, heard: str) -> CardGuess | None:
        """The card `heard` (recognized words, all of the reading so far) is most like; None when
        nothing was heard."""
        sounds = _sounds(heard)
        if not sounds:
            return None
        weight = min(1.0, len(sounds.replace(" ", "")) / EVIDENCE)
        scores = sorted(
            ((fuzz.partial_ratio(sounds, card) / 100 * weight, number) for number, card in self._cards.items()),
            key=lambda item: (-item[0], item[1]),
        )
        (best, number), runner_up = scores[0], scores[1][0] if len(scores) > 1 else 0.0
        return CardGuess(number, round(best, 4), round(best - runner_up, 4))

    @staticmethod
    def sure(guess: CardGuess | None) -> bool:
        """Whether the guess can be confirmed: see SURE_SCORE and SURE_MARGIN."""
        return guess is not None and guess.score >= SURE_SCORE and guess.margin >= SURE_MARGIN


def words(text: str) -> list[str]:
    """Casefolded words without punctuation, hyphens split, digits spelled out ("Six-12" ->
    ["six", "twelve"]); apostrophes inside words stay ("dragon's")."""
    text = re.sub(r"\d+", lambda m: f" {_number(int(m.group()))} ", text.casefold().replace("’", "'"))
    return [word.strip("'") for word in re.findall(r"[^\W_]+(?:'[^\W_]+)*", text)]


def _number(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
    for size, name in ((10**9, "billion"), (10**6, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            rest = n % size
            return f"{_number(n // size)} {name}" + (f" {_number(rest)}" if rest else "")
    raise AssertionError(n)


def _sounds(text: str) -> str:
    """The text's phones, a character each, words apart."""
    return " ".join(_pronounce(word) for word in words(text))


@lru_cache(maxsize=8192)
def _pronounce(word: str) -> str:
    dictionary = load_pronunciations()
    found = dictionary.get(word) or dictionary.get(word.replace("'", ""))
    if found is None:  # e.g. "chinny": like "chinn"
        closest = process.extractOne(word, dictionary.keys(), scorer=Levenshtein.normalized_similarity)
        found = dictionary[closest[0]]
    return "".join(_PHONES.setdefault(phone, chr(0x100 + len(_PHONES))) for phone in found[0])
