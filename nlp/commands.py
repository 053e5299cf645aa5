"""Spoken commands over text: the words a recognizer spells, numbers said as words, and how
sure we are that what was heard is one of the phrases allowed now.

A closed grammar always answers with one of its phrases, even for a cough or a sentence of the
story; so its answer is checked against free recognition of the same audio (the loose pass),
by sound as well as by spelling: free recognition often hears "be free" for "b three". When the
two agree the command is taken; when they half agree the host asks first; otherwise it was not
a command.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from nlp.soundalike import load_pronunciations, similarity

NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
#: words free recognition hears for a lone letter, spelled the way a phrase says the letter
LETTER_SOUNDS = {"be": "b", "bee": "b", "see": "c", "sea": "c", "dee": "d", "gee": "g", "eh": "a", "aye": "a"}
#: at or above this agreement a command is taken as heard; below ASK_BELOW it is not taken at all
SURE = 0.85
ASK_BELOW = 0.4
#: the loose pass must fit the phrase by this much better than any phrase meaning something else
MARGIN = 0.05


def number_words(number: int) -> str:
    """4 -> "four" (0 to 20, the numbers of these games); other numbers as digits."""
    return NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else str(number)


def word_number(word: str) -> int | None:
    """"four" or "4" -> 4; None for anything else."""
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.index(word) if word in NUMBER_WORDS else None


def fold(text: str) -> str:
    """Without accents, for a recognizer's dictionary: "Julián" -> "julian"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def spoken(text: str) -> str:
    """Text as a recognizer spells it: lowercase words without punctuation, digits and
    positions as words ("flip B3!" -> "flip b three"), letters said as words back to letters."""
    text = re.sub(r"\b([A-Za-z])(\d{1,2})\b", r"\1 \2", fold(text))
    words = re.sub(r"[^\w'\s]|_", " ", text.replace("-", " ")).split()
    return " ".join(
        number_words(int(word)) if word.isdigit() else LETTER_SOUNDS.get(word, word) for word in words
    )


@dataclass(frozen=True)
class Understood:
    """The allowed phrase taken for what was said, and how sure (0..1) that it was said."""

    phrase: str
    confidence: float

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE

    @property
    def doubtful(self) -> bool:
        """Worth asking "did you say ...?" rather than taking or dropping it."""
        return ASK_BELOW <= self.confidence < SURE


def understand(grammar: str, loose: str | None, phrases: Iterable[str] | Mapping[str, str]) -> Understood | None:
    """Which allowed phrase was said. `grammar` is the closed grammar's answer, `loose` what free
    recognition heard in the same audio (None when the recognizer makes no such pass: then the
    grammar's answer is trusted as far as its words match a phrase). `phrases` may map each
    phrase to what it means (its command): a loose pass that fits a phrase of another meaning
    about as well ("the storyteller" for "Leo is the storyteller" or "Nina is ...") is doubt."""
    meanings = dict(phrases) if isinstance(phrases, Mapping) else {phrase: phrase for phrase in phrases}
    allowed = {spoken(phrase): phrase for phrase in meanings}
    if not allowed:
        return None
    said = spoken(grammar)
    heard = spoken(loose) if loose is not None else said
    if not said and not heard:
        return None
    if said not in allowed:  # a grammar answer cut short, or none: take the nearest phrase
        match = process.extractOne(said or heard, list(allowed), scorer=fuzz.ratio)
        said = match[0]
    agreement = {phrase: alike(heard, phrase) for phrase in allowed}
    meaning = meanings[allowed[said]]
    # the loose pass nearer another phrase is doubt, but the grammar's phrase is the one asked
    # about: the language model leans to common words ("Leo voted for" for "Leo voted two")
    rival = max((a for p, a in agreement.items() if meanings[allowed[p]] != meaning), default=0.0)
    confidence = agreement[said] if agreement[said] - rival >= MARGIN else min(agreement[said], SURE - 0.01)
    return Understood(allowed[said], confidence)


def alike(heard: str, phrase: str) -> float:
    """How alike two word strings are, by spelling or by sound, 0..1."""
    return max(fuzz.ratio(heard, phrase) / 100, similarity(_phones(heard), _phones(phrase)))


def _phones(words: str) -> tuple[str, ...]:
    """The words' phones in the CMU dictionary (a word it lacks is left out)."""
    pronunciations = load_pronunciations()
    return tuple(phone for word in words.split() for phone in pronunciations.get(word, ((),))[0])
