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

A tale told in Spanish, Catalan or German is heard by Whisper forced to that language, which
writes real words of it; the CMU dictionary knows none, so there each word is its spelling folded
to how it sounds (`SPELLINGS`: accents off, letters read alike made one, silent letters dropped),
one character a letter, and numbers Whisper writes as digits are said in the language
(nlp.numbers). tests/benchmarks/bench_cards_languages.py measures it.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from nlp.numbers import said
from nlp.soundalike import load_pronunciations

EVIDENCE = 25  # phones heard for full weight
SURE_SCORE = 0.65  # another tale's cards read: scores up to 0.62
SURE_MARGIN = 0.15  # ... and margins up to 0.148, never with such a score

_PHONES: dict[str, str] = {}  # phone -> the character standing for it
#: how a word of each language other than English sounds, from its spelling: (pattern,
#: replacement) in order, on the casefolded word with its accents off
SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "es": (("ch", "C"), ("ll", "y"), ("qu", "k"), ("c(?=[ei])", "z"), ("c", "k"), ("g(?=[ei])", "j"),
           ("gu(?=[ei])", "g"), ("h", ""), ("v", "b"), ("w", "b"), ("x", "ks")),
    "ca": (("ny", "N"), ("l·l", "l"), ("qu(?=[ei])", "k"), ("c(?=[ei])", "s"), ("c", "k"), ("ç", "s"),
           ("tx", "x"), ("tj|tg", "j"), ("g(?=[ei])", "j"), ("gu(?=[ei])", "g"), ("h", ""), ("v", "b")),
    "de": (("sch", "S"), ("ch", "X"), ("ck", "k"), ("tz", "z"), ("ie", "i"), ("ph", "f"), ("th", "t"),
           ("dt", "t"), ("v", "f"), ("(?<=[aeiouy])h", ""), ("ß", "ss")),
}


@dataclass(frozen=True)
class CardGuess:
    """The best-matching card, its score (0..1) and how far it leads the runner-up's score."""

    number: int
    score: float
    margin: float


class CardIdentifier:
    """Finds the card being read among `texts` (card number -> text) in `language` (en, or one
    of SPELLINGS)."""

    def __init__(self, texts: Mapping[int, str], language: str = "en") -> None:
        if not texts:
            raise ValueError("no card texts to identify a card among")
        if language != "en" and language not in SPELLINGS:
            raise ValueError(f"cards in {language!r} cannot be identified: only in en, {', '.join(SPELLINGS)}")
        self.language = language
        self._cards = {number: _sounds(text, language) for number, text in texts.items()}

    def identify(self, heard: str) -> CardGuess | None:
        """The card `heard` (recognized words, all of the reading so far) is most like; None when
        nothing was heard."""
        sounds = _sounds(heard, self.language)
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


def words(text: str, language: str = "en") -> list[str]:
    """Casefolded words without punctuation, hyphens split, numbers in digits said in words
    (nlp.numbers: "Six-12" -> ["six", "twelve"]); apostrophes inside words stay ("dragon's", "d'un")."""
    text = said(text.replace("’", "'"), language).casefold()
    return [word.strip("'") for word in re.findall(r"[^\W_]+(?:['·][^\W_]+)*", text)]


def _sounds(text: str, language: str) -> str:
    """The text's sounds, a character each, words apart: English phones, or another language's
    folded spelling."""
    if language == "en":
        return " ".join(_pronounce(word) for word in words(text))
    return " ".join(_spelled(word, language) for word in words(text, language))


@lru_cache(maxsize=8192)
def _spelled(word: str, language: str) -> str:
    """The word as it sounds in `language`, from its spelling: see SPELLINGS; doubled letters once."""
    for pattern, sound in SPELLINGS[language]:
        word = re.sub(pattern, sound, word)
    plain = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    return re.sub(r"(.)\1+", r"\1", plain.replace("'", ""))


@lru_cache(maxsize=8192)
def _pronounce(word: str) -> str:
    dictionary = load_pronunciations()
    found = dictionary.get(word) or dictionary.get(word.replace("'", ""))
    if found is None:  # e.g. "chinny": like "chinn"
        closest = process.extractOne(word, dictionary.keys(), scorer=Levenshtein.normalized_similarity)
        found = dictionary[closest[0]]
    return "".join(_PHONES.setdefault(phone, chr(0x100 + len(_PHONES))) for phone in found[0])
