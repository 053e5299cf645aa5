"""The Stories! term rules in Spanish (RULINGS, "Stories! in Spanish"): which terms may be written,
and when two terms are the same.

Words are read by Apertium's Spanish analyser and tagger (nlp.apertium), never by a hand-made
list of lemmas: a word's *keys* are the lemmas of its noun, verb and adjective readings ("niñas"
-> niño, "comí" -> comer, "dámelo" -> dar), so number, gender and verb form never matter, while
a derivation has a lemma of its own ("casita", "panadero"). The one list, `FORM_OF`, adds the
word to the few forms Apertium reads as lemmas of their own ("gran" -> grande, "frito" -> freír).
A compound's key is its lemmas joined without spaces or accents, after a "+": "fin de semana"
and "fines de semana" -> +findesemana, "arco iris" and "arcoíris" -> +arcoiris.

A compound is lexicalised (one term whose parts never tick alone) when Apertium knows it as a
multiword unit ("fin de semana", "ojo de buey", "ciencia ficción"), or when it is a noun and an
adjective (or two nouns) whose English words are a compound of WordNet by the rules of the English
referee (nlp.lexicon `Lexicon.lexicalised`): "oso polar" is a polar bear, "agujero negro" a black
hole, "pez espada" a swordfish, but "perro grande" is a big dog. Anything else of several words
is a free phrase ("perro grande", "vaso de agua").

Which word is which part of speech comes from the analyser's readings; the closed classes
(pronouns, articles and determiners, prepositions, conjunctions, interjections, adverbs) from its
tags. As in English, a word that can be a pronoun, a determiner, a preposition or a conjunction
is refused even when the dictionary also has a noun or verb spelt so ("sobre", "nada", "bajo");
a word that is an adverb and also a noun, verb or adjective counts as what the tagger, trained
on Spanish text, reads it as when it stands alone ("bien" an adverb, "fuerte" an adjective), as
the English referee counts a word as what SemCor mostly uses it as. Every form of ser, estar,
haber and tener is refused, a word the tagger reads alone as one of them too ("estado", "fue",
"sé"). Its refusals are marked for the message catalog: said in the table's language.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.language import N_
from nlp.apertium import Reading, SpanishAnalyser, Unit, missing
from nlp.caching import cache_methods
from nlp.lexicon import Lexicon, phrase_product
from nlp.numbers import said
from nlp.referee import (
    LanguageResourceMissing,
    Referee,
    Verdict,
    _word_verdict,
    clauses,
    card_verdict,
    free_phrase,
    judged,
)
from nlp.wordclass import WordRefusal
from nlp.wordnet import WordNet, wordnet_folder

if TYPE_CHECKING:
    from nlp.ticks import StoryTracker

HAVE_BE = ("ser", "estar", "haber", "tener")  # RULINGS: refused as "have" and "be" are, in every form
HELPING = frozenset({"poder", "deber", "soler"})  # refused in lower case, as the English modal verbs
# the rulebook's own adverbs (here, there, then, outside, tomorrow) and those of their kind
# (today, yesterday; inside, upstairs), which are nouns too in Spanish but count as adverbs
RULEBOOK_ADVERBS = frozenset(
    "aquí acá ahí allí allá entonces luego fuera afuera mañana hoy ayer anoche anteayer dentro adentro "
    "arriba abajo".split()
)
NOUN = frozenset({"n", "np"})
VERB = frozenset({"vblex", "vbmod", "vbser", "vbhaver"})
CONTENT = NOUN | VERB | {"adj", "num"}
#: forms of a word that Apertium reads as lemmas of their own, and the word (RULINGS: gender,
#: number and verb form do not make another term): the shortened adjectives and numbers said
#: before a noun ("una gran expedición", "cien años"), and the second participle of the three
#: verbs the RAE gives two, which Apertium reads as an adjective only ("frito": freído, freír)
FORM_OF = {
    "gran": "grande", "buen": "bueno", "mal": "malo", "primer": "primero", "tercer": "tercero",
    "postrer": "postrero", "cien": "ciento",
    "frito": "freír", "impreso": "imprimir", "provisto": "proveer",
}
_PRONOUNS = frozenset({"prn", "rel"})
_DETERMINERS = frozenset({"det", "predet"})
_CONJUNCTIONS = frozenset({"cnjcoo", "cnjsub", "cnjadv"})
_ADVERBS = frozenset({"adv", "preadv"})
_ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "úü"}
WORD = re.compile(r"[^\W\d_]+")
_SEPARATOR = re.compile(r"\w\s*[,;:/&+|!?¡¿]+\s*\w")
_ADVERB = N_("{q} is an adverb, and adverbs are not allowed.")


def fold(text: str) -> str:
    """Lowercase, without accents or spaces: how a compound's key is spelt."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c) and not c.isspace())


def compound_key(lemmas: Iterable[str]) -> str:
    return "+" + fold("".join(lemmas))


def words_of(text: str) -> list[str]:
    """The words of a text, as written (hyphens and apostrophes separate words)."""
    return WORD.findall(text)


class SpanishReferee(Referee):
    """The Stories! term rules for Spanish, with the `TermReferee` interface (`check`, `refusal`,
    `same`, `keys`, `words`, `name_only`): terms are the same when they differ only in case,
    number, gender, verb form, spelling of a compound and a missing accent (RULINGS)."""

    language = "es"

    def __init__(self, analyser: SpanishAnalyser, english: Lexicon) -> None:
        self.analyser = analyser
        self.english = english
        cached = ("keys", "analyse", "unit_keys", "heard_keys", "spelt", "lexicalised", "closed_compound")
        cache_methods(self, cached, 65536)

    def word_keys(self, text: str) -> set[str]:
        return {key for word in words_of(text) for key in self.keys(word)}

    def tracker(self, terms: Mapping[str, Sequence[str]], **options: Any) -> StoryTracker:
        from nlp.spanish_ticks import SpanishTickTracker  # it builds on this module

        return SpanishTickTracker(self, terms, **options)

    # -- analysis --------------------------------------------------------------------------
    def analyse(self, text: str) -> tuple[Unit, ...]:
        """The text's units, its numbers in digits said in words (nlp.numbers)."""
        return self.analyser.analyse(said(text, self.language))

    def words(self, term: str) -> tuple[str, ...]:
        return tuple(word.lower() for word in words_of(said(term, self.language)))

    def spelt(self, word: str) -> tuple[Unit, ...]:
        """The analysis of a word alone; one the analyser does not know, written without its
        accent, is the accented word when that is the only word spelt so ("arbol", "cancion")."""
        units = self.analyse(word)
        if len(units) != 1 or units[0].known:
            return units
        lower = word.lower()
        variants = [
            lower[:i] + accented + lower[i + 1 :]
            for i, letter in enumerate(lower)
            for accented in _ACCENTED.get(letter, "")
        ]
        known = [unit for variant in variants for unit in self.analyse(variant) if unit.known]
        return tuple(known) if known else units

    def unit_keys(self, unit: Unit) -> frozenset[str]:
        """The keys of a unit: its noun, verb and adjective lemmas, lowercase (never those of the
        refused verbs); a multiword unit's compound key; an unknown word's own spelling, or the
        keys of the accented word it stands for."""
        if not unit.known:
            if " " not in unit.surface:
                alone = self.spelt(unit.surface)
                if len(alone) == 1 and alone[0].known:
                    return frozenset(k for u in alone for k in self.unit_keys(u))
            return frozenset({unit.surface.lower()})
        return frozenset(k for reading in unit.readings for k in reading_keys(reading))

    def keys(self, term: str) -> frozenset[str]:
        """The keys a term matches: one unit's keys, or for several words (a compound, a name,
        a free phrase) their keys joined (see `compound_key`); empty for a term without words."""
        units = self.analyse(term)
        if not units:
            return frozenset()
        if self.name_only(term):
            return frozenset({term.strip().lower()})
        if len(units) == 1:
            noun = any(reading.pos == "n" for reading in units[0].readings)
            closed = self.closed_compound(units[0].surface) if noun and " " not in units[0].surface else ""
            return self.unit_keys(units[0]) | ({closed} if closed else set())
        options = [{key.lstrip("+") for key in self.unit_keys(unit)} for unit in units if _content(unit)]
        return frozenset(compound_key([joined]) for joined in phrase_product(options))

    def heard_keys(self, unit: Unit, capital: bool) -> frozenset[str]:
        """The keys a unit heard in a story says (nlp.spanish_ticks): those of its reading in
        context, its own spelling when that is a key of any reading, the compound key of a word
        written closed, and with a `capital` (not the first word of an utterance) the name's key."""
        if not unit.known:
            keys = set(self.unit_keys(unit))
        else:
            keys = set(reading_keys(unit.readings[0]))
            spelling = unit.surface.lower()
            if any(spelling in reading_keys(reading) for reading in unit.readings):
                keys.add(spelling)
        if " " not in unit.surface:
            keys.add("+" + fold(unit.surface))
            keys |= {"+" + fold(reading.lemma) for reading in unit.readings[:1]}
        if capital:
            keys.add("=" + unit.surface.lower())
        return frozenset(keys)

    def closed_compound(self, word: str) -> str:
        """The compound key of a word written closed that is a multiword unit written apart
        ("arcoíris": arco iris), or ""."""
        folded = fold(word)
        for i in range(2, len(folded) - 1):
            units = self.analyse(f"{folded[:i]} {folded[i:]}")
            if len(units) == 1 and any(r.multiword and fold(r.lemma) == folded for r in units[0].readings):
                return "+" + folded
        return ""

    def lexicalised(self, first: Unit, second: Unit) -> bool:
        """Whether two units are one compound: a noun and an adjective, or two nouns, whose
        English words are a compound of WordNet ("oso polar": polar bear; "pez espada":
        swordfish; not "perro grande": big dog)."""
        if not (first.known and second.known) or first.readings[0].pos != "n":
            return False
        head, other = first.readings[0], second.readings[0]
        if other.pos not in ("adj", "n"):
            return False
        for noun, word in itertools.product(self.analyser.english(head), self.analyser.english(other)):
            if " " in noun or " " in word:
                continue
            if other.pos == "adj" and self.english.lexicalised((word, noun)):
                return True
            if other.pos == "n" and "noun" in self.english.entry_pos((word, noun)):
                return True
        return False

    def name_only(self, term: str) -> bool:
        """A helping verb written with a capital ("Poder"): a name, ticked only when heard as one."""
        words = words_of(term)
        return len(words) == 1 and words[0][:1].isupper() and words[0].lower() in HELPING

    # -- the rules -------------------------------------------------------------------------
    def check(self, term: str, card_text: str, written: Sequence[str] = ()) -> Verdict:
        words = words_of(said(term, self.language))

        def rules() -> Verdict | None:
            units = self.analyse(" ".join(words))
            return self._word_class(term, units) or self._on_card(term, units, card_text) or self._free_phrase(units)

        return judged(term, bool(words), bool(_SEPARATOR.search(term)), rules, written, self.same)

    def classify(self, unit: Unit) -> WordRefusal | None:
        """Why a word (or multiword unit) written alone may not be a term, or None when it may."""
        if not unit.known:
            return self._unknown(unit)
        readings, lower = unit.readings, unit.surface.lower()
        chosen = readings[0]  # the tagger's reading of the word alone
        content = [r for r in readings if r.pos in CONTENT]
        for verb in HAVE_BE:
            if chosen.lemma == verb or (content and all(r.lemma == verb for r in content)):
                if lower == verb:
                    return WordRefusal(
                        "have_be", N_("{q} is one of the verbs not allowed in any form: ser, estar, haber and tener.")
                    )
                return WordRefusal(
                    "have_be", N_('{q} is a form of "{verb}", and ser, estar, haber and tener are not allowed in any '
                                  "form."), (("verb", verb),),
                )
        if unit.surface.islower() and content and all(r.lemma in HELPING for r in content):
            first, second = [example for example in ("poder", "deber", "soler") if example != lower][:2]
            return WordRefusal(
                "not_content_word",
                N_('{q} is a helping verb like "{first}" or "{second}", not a noun, a verb or an adjective (a name '
                   "with a capital is allowed)."), (("first", first), ("second", second)),
            )
        if lower in RULEBOOK_ADVERBS:
            return WordRefusal(
                "adverb", N_('{q} counts as an adverb, like "here" and "tomorrow" in the rulebook, and adverbs '
                             "are not allowed."),
            )
        # closed classes: a word with such a reading is refused even when the dictionary also has
        # a noun or a verb spelt so ("sobre": the envelope; "nada": nadar), as in English
        closed = next((r for r in readings if r.pos in _PRONOUNS | _DETERMINERS | {"pr"} | _CONJUNCTIONS), None)
        if closed:
            chosen = closed
        elif content and chosen.pos in CONTENT:
            return None
        if chosen.pos in _ADVERBS and not any(r.pos == "adj" and r.lemma == chosen.lemma for r in content):
            return WordRefusal("adverb", _ADVERB)
        if chosen.pos in _PRONOUNS:
            return WordRefusal("pronoun", N_("{q} is a pronoun, and pronouns are not allowed."))
        if chosen.pos in _DETERMINERS:
            return WordRefusal(
                "pronoun", N_("{q} is an article or a determiner, and those count as pronouns, which are not allowed.")
            )
        kinds = {"pr": N_("{q} is a preposition, not a noun, a verb or an adjective."),
                 "ij": N_("{q} is an interjection, not a noun, a verb or an adjective."),
                 **{c: N_("{q} is a conjunction, not a noun, a verb or an adjective.") for c in _CONJUNCTIONS}}
        if chosen.pos in kinds:
            return WordRefusal("not_content_word", kinds[chosen.pos])
        if content:
            return None
        return WordRefusal("not_content_word", N_("{q} is not a noun, a verb or an adjective."))

    def _unknown(self, unit: Unit) -> WordRefusal | None:
        """A word the analyser does not know as written: classified as its one known spelling
        (an accent left out), refused as an -mente adverb of a known adjective, else allowed (a
        name, or a word the dictionary lacks: a noun)."""
        alone = self.spelt(unit.surface) if " " not in unit.surface else ()
        if len(alone) == 1 and alone[0].known:
            return self.classify(Unit(unit.surface, alone[0].readings))
        stem = unit.surface.lower().removesuffix("mente")
        if stem != unit.surface.lower() and any(r.pos == "adj" for u in self.spelt(stem) for r in u.readings):
            return WordRefusal("adverb", _ADVERB)
        return None

    def _word_class(self, term: str, units: tuple[Unit, ...]) -> Verdict | None:
        if len(units) == 1:
            refusal = self.classify(units[0])
            if refusal and units[0].readings and units[0].readings[0].multiword:
                phrase = (N_("{q} is an adverb phrase, not a noun, a verb or an adjective.") if refusal.code == "adverb"
                          else N_("{q} is a phrase of little words, not a noun, a verb or an adjective."))
                return _word_verdict(WordRefusal(refusal.code, phrase), term.strip(), whole=True)
            return _word_verdict(refusal, units[0].surface, whole=True) if refusal else None
        if self._compound(units) or self._phrase_of_content_words(units):
            return None  # a compound, or a free phrase refused as one
        for unit in units:
            refusal = self.classify(unit)
            if refusal:
                return _word_verdict(refusal, unit.surface, whole=False)
        return None

    def _compound(self, units: tuple[Unit, ...]) -> bool:
        """A compound term: two units lexicalised together, or a name of capitalised words."""
        if len(units) == 2 and self.lexicalised(*units):
            return True
        return all(u.surface[:1].isupper() and (not u.known or u.readings[0].pos == "np") for u in units)

    def _phrase_of_content_words(self, units: tuple[Unit, ...]) -> bool:
        """Content words, or nouns joined by "de" ("vaso de agua"): a free phrase."""
        inner = [u for u in units[1:-1] if not (u.known and u.readings[0].lemma == "de")]
        ends = [units[0], *inner, units[-1]]
        return all(self.classify(u) is None for u in ends)

    def _free_phrase(self, units: tuple[Unit, ...]) -> Verdict | None:
        if len(units) == 1 or self._compound(units):
            return None
        return free_phrase(len(units), "oso polar")

    def _on_card(self, term: str, units: tuple[Unit, ...], card_text: str) -> Verdict | None:
        phrase = [self.unit_keys(unit) for unit in units] if len(units) > 1 and not self._compound(units) else []
        return card_verdict(term, self.keys(term), phrase, self._card(card_text))

    def _card(self, card_text: str) -> tuple[tuple[str, str], ...]:
        """(key, card text) for every word of the card, multiword unit and compound."""
        found: list[tuple[str, str]] = []
        for clause in clauses(said(card_text, self.language)):
            units = self.analyse(clause)
            for word in words_of(clause):
                found += [(key, word) for unit in self.spelt(word) for key in self.unit_keys(unit)]
            found += [(key, unit.surface) for unit in units for key in self.unit_keys(unit)]
            for first, second in zip(units, units[1:]):
                pair = f"{first.surface} {second.surface}"
                if self.lexicalised(first, second):
                    found += [(key, pair) for key in self.keys(pair)]
        return tuple(found)


def reading_keys(reading: Reading) -> frozenset[str]:
    """The keys of one reading: its lemma if it is a noun, verb or adjective (not a refused
    verb), and the word it is a form of when Apertium reads it as a lemma of its own
    (`FORM_OF`); a multiword's compound key."""
    lemma = reading.lemma.lower()
    if reading.pos not in CONTENT or lemma in HAVE_BE:
        return frozenset()
    if reading.multiword:
        return frozenset({compound_key([reading.lemma])})
    if lemma in HELPING and reading.pos != "np":
        return frozenset()
    form_of = FORM_OF.get(lemma) if reading.pos in ("adj", "num") else None
    return frozenset({lemma, form_of} if form_of else {lemma})


def _content(unit: Unit) -> bool:
    """Not a linking word between the words of a phrase ("de", "del")."""
    return not unit.known or any(r.pos in CONTENT for r in unit.readings)


@lru_cache(maxsize=1)
def load_spanish_referee() -> SpanishReferee:
    """The Spanish referee with Apertium running and WordNet loaded (once per process).

    Raises LanguageResourceMissing naming what to install when Apertium or WordNet is missing.
    """
    absent = missing()
    if absent:
        raise LanguageResourceMissing(
            "Apertium's Spanish analyser is missing (" + ", ".join(absent) + "): install the Debian packages "
            "apertium-spa-cat and apertium-eng-spa (apt-get install apertium-spa-cat apertium-eng-spa)."
        )
    folder = wordnet_folder()
    if folder is None:
        raise LanguageResourceMissing(
            "WordNet is missing: install the Debian package wordnet-base (apt-get install wordnet-base)."
        )
    return SpanishReferee(SpanishAnalyser(), Lexicon(WordNet(folder)))
