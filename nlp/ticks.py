"""Ticking terms off while the storyteller speaks.

A term ticks when the words heard, in some inflected form, spell it as a whole word or a whole
compound: "froze" ticks "freeze", "polar bears" ticks "Polar bear", "ice cold" ticks
"ice-cold", "snow man" ticks "snowman". A part of a compound never ticks on its own, so every
match is checked at both edges: an edge is closed when the words on either side form a compound,
that is when

- a noun or adjective entry of WordNet that begins and ends with a content word covers both
  sides ("polar | bears", "ice | cold", "ice | cream" but not "all | night"), unless it is a
  free adjective+noun phrase (nlp.lexicon `Lexicon.lexicalised`); or
- both sides are nouns in context, the first not a plural nor an -ing form of a verb and the
  second not a name ("motor | sled", "research | mission", "snow | man"; not "dogs | bone",
  "burning | barn", "a hole | Anna"). The tags come
  from spaCy's tagger limited to the tags the lexicon allows (nlp.tagger); and when no other word
  around is a verb, a second noun that can be a verb agreeing with the first is that verb
  ("the ship | sails at dawn").

A heard word counts as what it is in its sentence (RULINGS): a one-word match must be a form of
the term under a part of speech the tagger gives the word there ("the dove flew" is no "dive";
see `_heard_as`); a verb's form heading a noun phrase is a noun ("a red rose" is no "rise",
"the frosting" no "frost"; "the burning barn" burns). Three or more nouns in a row before "and"
or "or" are a list, not a compound.

An adjective before a noun is free unless WordNet lists the pair as a lexicalised compound
("big expedition" and "small boat" tick "big", "small", "expedition" and "boat"; "polar bear"
and "hot dog" tick neither word). Words are compared whole, never as substrings
("cat" is not in "category"), and a one-word term heard as several words must be heard as one
compound ("snow man" is "snowman", "the snow fell" is no "snowfall").

Input is the recognizer's hypothesis, one utterance at a time: words maybe with punctuation,
times, confidences and alternatives, revised until final. Compounds never span two utterances,
two clauses of typed text, a word's closing punctuation ("ocean." from a recognizer that
punctuates) nor a pause of more than PAUSE seconds between two words' times; not a temporal
noun ("his sled | yesterday"), nor, in unpunctuated speech, the start of a clause: a noun
followed by its finite verb after a noun phrase that is the object of a preposition or of a verb
that takes no clause ("across the ocean | parrots screamed", "buried the treasure | sailors
sang"; but "she said the fire truck was late"). A multi-word term does not span such a
boundary either. A decision at
the end of the hypothesis waits for the next word (one the recognizer is not sure of yet, its
lookahead, will do: it is context, never evidence) or for the end of the utterance. A noun+noun
edge with fewer than two words of context after it is decided provisionally with the words there
are: the tick comes at once, and the edge is decided again as words come. Each term ticks at
most once; a revision that removes the evidence of a tick emits it again as no longer ticked (and a
new tick if other words still say it), while one that only leaves its edges undecided keeps the tick.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import compress
from typing import Any, Protocol

from nlp.lexicon import MAX_PHRASE, NOUN_TAGS, TAGS_OF, VERB_TAGS
from nlp.numbers import DIGIT, said
from nlp.referee import TermReferee, clauses
from nlp.soundalike import SoundAlike
from nlp.wordclass import BE, CONJUNCTIONS, LIKE_TOMORROW, NUMBERS, is_function_word

LEFT_CONTEXT = 4  # words before a boundary the tagger sees
RIGHT_CONTEXT = 2  # words after it
HEARD_AS = 0.2  # the least chance, by the tagger, that a heard word has a part of speech of the term's word
LIST_ITEMS = 3  # nouns in a row before "and" that are a list, not a compound
PAUSE = 0.2  # seconds of silence between two words that end any compound (see tests/benchmarks/bench_pauses.py)
# a word ending in one of these closes a clause or a sentence (a recognizer that punctuates: "barn.")
_CLOSING = tuple(".,;:!?…)]}\"”")
_OPENING = tuple("([{\"“")


def separated(before: HeardWord, after: HeardWord) -> bool:
    """Whether punctuation or a pause of more than PAUSE seconds separates two words heard one
    after the other: a compound is never read across it."""
    if before.text.rstrip().endswith(_CLOSING) or after.text.lstrip().startswith(_OPENING):
        return True
    return before.end is not None and after.start is not None and after.start - before.end > PAUSE
# "yesterday", "tonight": nouns, but they never start or end a compound ("his sled | yesterday")
TEMPORAL = LIKE_TOMORROW | {"tomorrow"}
# words tagged as prepositions that may start a clause ("after the fire truck left"): the noun
# phrase after any other preposition ("past", "near", "into") is its object, never a subject
_CONTENT_PREPOSITIONS = frozenset({"past", "near", "opposite"})  # allowed as terms, so tagged as adjectives
_SUBORDINATORS = CONJUNCTIONS | {"that", "after", "before", "since", "until", "till", "as", "than", "once", "so", "like"}
_RELATIVES = frozenset({"who", "which", "that"})
TIME_UNITS = frozenset(
    "day night morning evening afternoon week weekend month year summer winter spring autumn hour minute".split()
)
_TIME_QUANTIFIERS = frozenset({"every", "each", "all", "last", "next"})
_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
_PLURAL = frozenset({"NNS", "NNPS"})
# tags of the words that begin a noun phrase
_DETERMINERS = frozenset({"DT", "PDT", "PRP$", "WP$", "POS"})
# articles after which an adjective is never a noun: "the young danced", but no "a young danced"
_INDEFINITE = frozenset({"a", "an", "another"})
_QUANTITIES = frozenset({"few", "little", "many"})  # adjectives that make "a" a quantity: "a few left early"
_NOUN_PHRASE_START = _DETERMINERS | {"CD", "JJ", "JJR", "JJS"}
_NOUN_PHRASE = frozenset({"JJ", "JJR", "JJS", "CD", "PRP$", "POS", "NN", "NNP", "NNS", "NNPS"})
# verbs whose object can be a clause without "that" ("she said the fire truck was late"); not
# "tell", whose object is the listener before the clause ("i told my sister | grandpa was coming")
CLAUSE_VERBS = frozenset(
    """
    say think know believe hope wish fear feel hear see notice realize guess suppose imagine dream
    remember forget learn decide show promise swear admit claim bet doubt understand pretend reckon suspect
    worry mean discover expect explain find
    """.split()
)
_REACH = max(RIGHT_CONTEXT, MAX_PHRASE - 2)  # how far right of a boundary its decision looks
_TYPED_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*['’]?")


@lru_cache(maxsize=65536)
def heard_token(text: str) -> str:
    """A heard word as the matcher compares it: lowercase letters, inner hyphens/apostrophes."""
    return re.sub(r"[^a-z'-]", "", text.strip().lower().replace("’", "'")).strip("-")


@lru_cache(maxsize=65536)
def _filler(text: str) -> bool:
    """Not a word: punctuation alone (a recognizer's own tokens are cleaned in its adapter)."""
    return not heard_token(text)


@dataclass(frozen=True)
class HeardWord:
    """One recognized (or typed) word; times are seconds into the audio. `text` may keep a
    recognizer's punctuation ("barn."): it closes any compound there."""

    text: str
    start: float | None = None
    end: float | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[str, float | None], ...] = ()

    @classmethod
    def of(cls, item: HeardWord | str | Mapping[str, Any]) -> HeardWord:
        """From a word, or a recognizer's mapping (Vosk style: word, start, end, conf;
        alternatives as texts, [text, conf] pairs or mappings)."""
        if isinstance(item, HeardWord):
            return item
        if isinstance(item, str):
            return cls(item)
        alternatives = []
        for alt in item.get("alternatives", ()):
            if isinstance(alt, str):
                alternatives.append((alt, None))
            elif isinstance(alt, Mapping):
                alternatives.append((alt.get("word", alt.get("text", "")), alt.get("conf", alt.get("confidence"))))
            else:
                alternatives.append((alt[0], alt[1]))
        return cls(
            str(item.get("word", item.get("text", ""))),
            item.get("start"),
            item.get("end"),
            item.get("conf", item.get("confidence")),
            tuple(alternatives),
        )


def numbers_said(words: Iterable[HeardWord | str | Mapping[str, Any]], language: str) -> list[HeardWord]:
    """Heard words with the numbers a recognizer wrote in digits said in words (nlp.numbers:
    "20" -> "twenty"); a number said in several words shares its word's time evenly among them
    ("100" -> "one", "hundred")."""
    heard = [w if type(w) is HeardWord else HeardWord.of(w) for w in words]
    if not DIGIT.search("".join([w.text for w in heard])):
        return heard
    out: list[HeardWord] = []
    for word in heard:
        parts = said(word.text, language).split()
        if parts == [word.text]:
            out.append(word)
            continue
        start, end = word.start, word.end
        step = (end - start) / len(parts) if start is not None and end is not None and parts else None
        for k, part in enumerate(parts):
            at = start + k * step if start is not None and step is not None else None
            out.append(HeardWord(part, at, at + step if at is not None and step is not None else None, word.confidence))
    return out


def said_once(
    words: list[HeardWord], known: Callable[[str], bool], token: Callable[[str], str] = heard_token
) -> list[HeardWord]:
    """The words without the repetitions and false starts of spontaneous speech, which would
    otherwise read as a compound of a word with itself or split the compound they interrupt: a
    word said again at once ("the blue whale whale", "whale whale watching"), and the start of a
    word said again whole, when it is no word (`known`) or ends in a dash ("the bus sto stop",
    "my gran- grandma"). Kept are a word said again after punctuation or a pause (`separated`:
    "a dragon. Dragons ...") and a word that begins the next one ("the cat catches", or "my gran
    grandma": `TickTracker._decide` ends any compound there). `token`: a word as its language's
    tracker compares it."""
    tokens = list(map(token, [w.text for w in words]))
    dropped = set()
    for i in compress(range(1, len(tokens)), map(str.startswith, tokens[1:], tokens)):  # few: C speed
        before, after = words[i - 1], words[i]
        if separated(before, after):
            continue
        if tokens[i] == tokens[i - 1]:
            dropped.add(i)
        elif len(tokens[i - 1]) > 1 and (before.text.rstrip().endswith("-") or not known(tokens[i - 1])):
            dropped.add(i - 1)
    return [word for i, word in enumerate(words) if i not in dropped] if dropped else words


@dataclass(frozen=True)
class TickEvent:
    """A player's term heard (`ticked`) or, when a revision withdrew its evidence, no longer
    heard: `index` is its place in the player's list, `evidence` the words heard, `time` the end
    of the last of them (None for typed text), `heard_at` where that last word is in the story,
    as (utterance, word): ticks earned by one heard word share it."""

    player: str
    term: str
    index: int
    evidence: str
    time: float | None
    ticked: bool = True
    heard_at: tuple[int, int] | None = field(default=None, compare=False)

#: what a word was heard as (text, confidence, alternatives): a changed one is tracked again
_Signature = tuple[str, float | None, tuple[tuple[str, float | None], ...]]


@dataclass
class _Segment:
    """One utterance, or one clause of typed text."""

    words: list[HeardWord] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    signatures: list[_Signature] = field(default_factory=list)
    prefixes: list[set[tuple[int, str]]] = field(default_factory=list)  # spans ending here: (start, key so far)
    hits: list[tuple[int, int, int]] = field(default_factory=list)  # (end, term id, start), by end
    joined: dict[int, bool] = field(default_factory=dict)  # boundary k (before word k) -> compound?
    separated: set[int] = field(default_factory=set)  # boundaries that end a phrase: not even a term spans them
    provisional: set[int] = field(default_factory=set)  # boundaries decided with short right context
    heard_as: dict[tuple[int, int], bool] = field(default_factory=dict)  # (word, term id) -> heard as the term's word?
    unsure: set[int] = field(default_factory=set)  # words whose part of speech was judged with short right context
    valid: dict[int, set[tuple[int, int]]] = field(default_factory=dict)  # term id -> (start, end) heard
    settled: int = 0  # every hit ending before this word is decided and in `valid`
    sure: int = 0  # the words before this one were heard; those after are lookahead, never evidence
    final: bool = False


@dataclass(frozen=True)
class _Tick:
    segment: int
    start: int
    end: int
    event: TickEvent


class _Closable(Protocol):
    words: list[HeardWord]
    sure: int
    final: bool


class _Ticked(Protocol):
    @property
    def event(self) -> TickEvent: ...


class StoryTracker(ABC):
    """What the trackers of every language share: typed text clause by clause, the end of the
    story, and each player's ticks. A language's tracker keeps its utterances (each `final` once
    closed) in `_segments`, its ticks by term id in `_ticks`, and settles an utterance's ticks
    after each change (`_settle`)."""

    language: str  # the story's: numbers written in digits are said in it (`numbers_said`)
    _terms: list[tuple[str, int, str]]  # (player, place in the player's list, term)
    _players: list[str]
    _segments: Sequence[_Closable]
    _ticks: Mapping[int, _Ticked]

    @abstractmethod
    def update(
        self, words: Iterable[HeardWord | str | Mapping[str, Any]], final: bool = False, lookahead: Iterable[HeardWord] = ()
    ) -> list[TickEvent]:
        """The recognizer's current hypothesis of the current utterance (it replaces the previous
        one); `final` closes the utterance, and the next update starts a new one. `lookahead`,
        words heard after them that the recognizer is not sure of yet, only helps decide the
        edges and readings of the words before: it is never evidence of a tick."""

    @abstractmethod
    def _settle(self, index: int) -> list[TickEvent]:
        """Ticks and unticks after the utterance at `index` changed."""

    @abstractmethod
    def _typed(self, clause: str) -> list[str]:
        """The words of a typed clause."""

    def say(self, text: str) -> list[TickEvent]:
        """Typed story text: punctuation, hyphens and capitals allowed; each clause is final."""
        events = self.finish()
        for clause in clauses(said(text, self.language)):
            words = [HeardWord(word) for word in self._typed(clause)]
            if words:
                events += self.update(words, final=True)
        return events

    def finish(self) -> list[TickEvent]:
        """The story ended: the open utterance, if any, is final as heard (without its lookahead)."""
        if not self._segments or self._segments[-1].final:
            return []
        last = self._segments[-1]
        return self.update(last.words[: last.sure], final=True)

    def ticked(self) -> dict[str, list[TickEvent | None]]:
        """For each player, in the order written: the tick of each term, or None."""
        result: dict[str, list[TickEvent | None]] = {player: [] for player in self._players}
        for tid, (player, _, _) in enumerate(self._terms):
            tick = self._ticks.get(tid)
            result[player].append(tick.event if tick else None)
        return result


class TickTracker(StoryTracker):
    """Follows the story and says when each player's terms are heard.

    `terms` maps each player to the terms they wrote (already checked with the referee).
    `min_confidence` ignores words the recognizer is less sure of; an alternative counts from
    `alternative_confidence` on (or always when it has no confidence); `sound_alike`, a
    similarity between 0 and 1, also accepts words pronounced like a term's word (off: None).
    """

    language = "en"

    def __init__(
        self,
        referee: TermReferee,
        terms: Mapping[str, Sequence[str]],
        *,
        min_confidence: float = 0.0,
        alternative_confidence: float = 0.5,
        sound_alike: float | None = None,
    ) -> None:
        self._lexicon = referee.lexicon
        self._tagger = referee.tagger
        self._terms = [(player, i, term) for player, written in terms.items() for i, term in enumerate(written)]
        self._players = list(terms)
        self._by_key: dict[str, list[int]] = {}
        for tid, (_, _, term) in enumerate(self._terms):
            for key in referee.keys(term):
                self._by_key.setdefault(key, []).append(tid)
        self._keys = [referee.keys(term) for _, _, term in self._terms]
        self._one_word = {tid for tid, (_, _, term) in enumerate(self._terms) if len(referee.words(term)) == 1}
        self._names = {tid for tid, (_, _, term) in enumerate(self._terms) if referee.name_only(term)}
        self._prefixes = {key[:n] for key in self._by_key for n in range(1, len(key) + 1)}
        self._min_confidence = min_confidence
        self._alternative_confidence = alternative_confidence
        self._sound_alike = (
            SoundAlike(self._lexicon, {w for _, _, t in self._terms for w in referee.words(t)}, sound_alike)
            if sound_alike is not None
            else None
        )
        self._segments: list[_Segment] = []
        self._ticks: dict[int, _Tick] = {}

    # -- input -----------------------------------------------------------------------------
    def update(
        self, words: Iterable[HeardWord | str | Mapping[str, Any]], final: bool = False, lookahead: Iterable[HeardWord] = ()
    ) -> list[TickEvent]:
        known = self._lexicon.known
        heard = said_once([w for w in numbers_said(words, self.language) if not _filler(w.text)], known)
        ahead = [] if final else [w for w in numbers_said(lookahead, self.language) if not _filler(w.text)]
        ahead = said_once(heard[-1:] + ahead, known)[len(heard[-1:]) :]
        if not self._segments or self._segments[-1].final:
            self._segments.append(_Segment())
        seg = self._segments[-1]
        self._revise(seg, heard + ahead, final)
        seg.sure = len(heard)
        return self._settle(len(self._segments) - 1)

    def _typed(self, clause: str) -> list[str]:
        return _TYPED_WORD.findall(clause)

    # -- matching --------------------------------------------------------------------------
    def _revise(self, seg: _Segment, heard: list[HeardWord], final: bool) -> None:
        """Replace the segment's words, redoing only what the first changed word `p` affects."""
        signatures = [(w.text, w.confidence, w.alternatives) for w in heard]
        p = len(seg.signatures)
        if signatures[:p] != seg.signatures:  # not just words added at the end
            p = 0
            while p < min(len(signatures), len(seg.signatures)) and signatures[p] == seg.signatures[p]:
                p += 1
        del seg.tokens[p:], seg.signatures[p:], seg.prefixes[p:]
        while seg.hits and seg.hits[-1][0] > p:
            seg.hits.pop()
        for k in [k for k in seg.joined if k >= p - _REACH]:
            del seg.joined[k]
        seg.separated -= {k for k in seg.separated if k >= p - _REACH}
        for j, tid in [key for key in seg.heard_as if key[0] >= p - RIGHT_CONTEXT]:
            del seg.heard_as[j, tid]
        seg.settled = min(seg.settled, p - _REACH)
        for spans in seg.valid.values():
            spans -= {span for span in spans if span[1] >= seg.settled}
        seg.words = list(heard)
        for word, signature in zip(heard[p:], signatures[p:]):
            self._append(seg, word, signature)
        seg.final = final

    def _append(self, seg: _Segment, word: HeardWord, signature: _Signature) -> None:
        j = len(seg.tokens)
        seg.tokens.append(heard_token(word.text))
        seg.signatures.append(signature)
        options = self._options(word)
        spans = {(j, key) for key in options if key in self._prefixes}
        if seg.prefixes:
            spans |= {(s, x + key) for s, x in seg.prefixes[-1] for key in options if x + key in self._prefixes}
        seg.prefixes.append(spans)
        for start, key in spans:
            seg.hits += [(j + 1, tid, start) for tid in self._by_key.get(key, ())]

    def _options(self, word: HeardWord) -> frozenset[str]:
        """The keys a heard word can stand for: its own, its alternatives', sound-alikes'."""
        if word.confidence is not None and word.confidence < self._min_confidence:
            return frozenset()
        token = heard_token(word.text)
        keys = set(self._lexicon.keys(token)) | self._lexicon.singulars(token)
        for text, confidence in word.alternatives:
            if (confidence is None or confidence >= self._alternative_confidence) and heard_token(text):
                keys |= self._lexicon.keys(heard_token(text))
        if self._sound_alike:
            keys |= self._sound_alike.keys(token)
        return frozenset(keys)

    def _joined(self, seg: _Segment, k: int) -> bool | None:
        """Whether words k-1 and k belong to one compound (None: not known yet)."""
        if k <= 0:
            return False
        if k >= len(seg.tokens):
            return False if seg.final else None
        if k not in seg.joined:
            decision = self._decide(seg, k)
            if decision is None or k in seg.provisional:
                return decision  # not cached: decided again with the next words
            seg.joined[k] = decision
        return seg.joined[k]

    def _decide(self, seg: _Segment, k: int) -> bool | None:
        tokens, n = seg.tokens, len(seg.tokens)
        first, second = tokens[k - 1], tokens[k]
        if first.endswith(("'s", "'")):
            return False  # a possessive: "the dog's bone"
        if len(first) > 1 and second.startswith(first):
            seg.separated.add(k)  # a word started and said again, the start a word too: "my gran grandma" (`said_once`)
            return False
        if self._closed(seg, k) or first in TEMPORAL or second in TEMPORAL:
            seg.separated.add(k)  # punctuation, a pause, "his sled | yesterday"
            return False
        collocation = self._collocation(seg, k)
        nouns = self._may_be_nouns(first, second)
        if not nouns or collocation is None:
            return collocation
        if not collocation and (seg.words[k].text[:1].isupper() or self._lexicon.is_name(second)):
            return False  # a name, capitalised in typed text or known as one: "a hole Anna", "Nina Smith"
        if k + 1 + RIGHT_CONTEXT > n and not seg.final:
            seg.provisional.add(k)  # the tagger sees the words there are so far
        verbs_maybe = tokens[k : k + 1 + RIGHT_CONTEXT]
        if collocation and not any(_FINITE & (self._lexicon.tags(word) or _FINITE) for word in verbs_maybe):
            return True  # no word there that could be a verb ending the compound or starting a clause: no need to tag
        lo = max(0, k - 1 - LEFT_CONTEXT)
        tags = self._tagger.tags(tuple(tokens[lo : k + 1 + RIGHT_CONTEXT]))
        if collocation:
            # a compound of the dictionary, unless its last word is the verb of the noun before it
            # ("the sun | rose over the roofs", not the plant "sun rose") or a clause starts inside
            # it ("into the cave | bats flew out")
            second = tags[k - lo]
            if second in _FINITE or (second in NOUN_TAGS and self._starts_clause(tokens[lo:], tags, k - lo)):
                seg.separated.add(k)
                return False
            return True
        if tags[k - 1 - lo] not in NOUN_TAGS - _PLURAL or tags[k - lo] not in NOUN_TAGS:
            return False
        if tags[k - lo] in _PLURAL and self._after_indefinite(tokens[lo:], tags, k - lo):
            seg.separated.add(k)
            return False
        # "the ship sails at dawn": a clause needs a verb; with none around, the second noun
        # that can be one agreeing with the first ("sails", not "sled") is that verb
        verbs = [tag for i, tag in enumerate(tags) if i != k - lo and tag.startswith(("VB", "MD"))]
        if not verbs and {"VBZ", "VBD"} & (self._lexicon.tags(second) or frozenset()):
            return False
        if self._starts_clause(tokens[lo:], tags, k - lo) or self._in_list(tokens[lo:], tags, k - lo):
            seg.separated.add(k)
            return False
        return True

    def _after_indefinite(self, words: Sequence[str], tags: Sequence[str], k: int) -> bool:
        """Whether noun k-1 follows an indefinite article (and adjectives), with no noun after
        plural noun k: "a" wants a singular head, so "gave the class a test | students groaned"
        has a clause start there, not a compound "test students"."""
        if k + 1 < len(tags) and tags[k + 1] in NOUN_TAGS:
            return False
        before = self._before_adjectives(words, tags, k - 1)
        return before >= 0 and words[before] in _INDEFINITE

    def _in_list(self, words: Sequence[str], tags: Sequence[str], k: int) -> bool:
        """Whether nouns k-1 and k are items of a list said without commas: at least LIST_ITEMS
        nouns in a row, a compound of the dictionary counting as one, and "and" or "or" right
        after them ("we had eggs bacon toast jam and juice", "flour sugar butter and eggs")."""
        first = k - 1
        while first > 0 and tags[first - 1] in NOUN_TAGS:
            first -= 1
        last = k
        while last + 1 < len(tags) and tags[last + 1] in NOUN_TAGS:
            last += 1
        if last + 1 >= len(tags) or words[last + 1] not in ("and", "or"):
            return False
        compounds = sum(self._lexicon.lexicalised((words[i], words[i + 1])) for i in range(first, last))
        return last + 1 - first - compounds >= LIST_ITEMS

    @staticmethod
    def _closed(seg: _Segment, k: int) -> bool:
        """Whether words k-1 and k are `separated`."""
        return separated(seg.words[k - 1], seg.words[k])

    def _starts_clause(self, words: Sequence[str], tags: Sequence[str], k: int) -> bool:
        """Whether noun k, after noun k-1, is the subject of a new clause in unpunctuated speech
        ("we drove to the barn | children screamed", "he buried the treasure | sailors sang"):
        a finite verb follows it, and the noun phrase that ends at k-1 is the object of a
        preposition or of a verb that takes no clause ("she said the fire | truck was late" is
        one compound), and that verb is not in a relative clause still waiting for its main verb
        ("the boy who rode the motor | sled was happy")."""
        after = k + 1
        while after < len(tags) and tags[after].startswith("RB"):
            after += 1
        if after >= len(tags):
            return False
        # a past participle right after a bare noun is more often the past tense ("dogs barked")
        past = tags[after] == "VBN" and "VBD" in (self._lexicon.tags(words[after]) or ())
        if tags[after] not in _FINITE and not past:
            return False
        i = k - 2
        while i >= 0 and tags[i] in _NOUN_PHRASE:
            i -= 1
        if words[k - 1] in TIME_UNITS and i >= 0 and words[i] in _TIME_QUANTIFIERS:
            return True  # an adverbial of time: "to the market every day | farmers sell apples"
        if i >= 0 and tags[i] in ("DT", "PDT") and words[i] not in _RELATIVES:
            i -= 1  # one determiner: "to the barn", not "that the"
        if i < 0:
            return False
        preposition = tags[i] in ("IN", "TO", "RP") or words[i] in _CONTENT_PREPOSITIONS
        if preposition and words[i] not in _SUBORDINATORS:
            return True
        in_relative_clause = i > 0 and words[i - 1] in _RELATIVES
        if not tags[i].startswith("VB") or in_relative_clause:
            return False
        return not CLAUSE_VERBS & self._lexicon.readings(words[i]).get("VERB", frozenset())

    def _may_be_nouns(self, first: str, second: str) -> bool:
        """Whether the two words could make a noun+noun compound. A first word in -ing that is a
        verb form is a participle ("the burning barn"); gerund compounds that are words of their
        own ("swimming pool", "sleeping bag") are WordNet collocations."""
        if self._lexicon.ing_form(first):
            return False
        return all(
            not is_function_word(word, self._lexicon)
            and word not in NUMBERS
            and self._lexicon.can_be_noun(word)
            for word in (first, second)
        )

    def _collocation(self, seg: _Segment, k: int) -> bool | None:
        """Whether a lexicalised WordNet entry covers words k-1 and k (None: one may, once more
        words come)."""
        pending = False
        for start in range(max(0, k - MAX_PHRASE + 1), k):
            for end in range(k + 1, start + MAX_PHRASE + 1):
                words = tuple(part for token in seg.tokens[start:end] for part in token.split("-"))
                if is_function_word(words[0], self._lexicon) or (
                    end <= len(seg.tokens) and is_function_word(words[-1], self._lexicon)
                ):
                    continue  # "all-night", "up-to-date": a compound starts and ends with a content word
                if all(word in NUMBERS for word in words):
                    continue  # a numeral, whose words tick ("one hundred" ticks "hundred" as "a hundred" does)
                if any(self._closed(seg, j) for j in range(start + 1, min(end, len(seg.tokens)))):
                    break  # no compound spans punctuation or a pause
                if end > len(seg.tokens):
                    pending = pending or (not seg.final and self._lexicon.begins_entry(words))
                    break
                if self._lexicon.lexicalised(words):
                    return True
        return None if pending else False

    def _settle(self, si: int) -> list[TickEvent]:
        """Ticks and unticks after segment `si` changed. A hit across a provisional boundary
        counts now and stays pending, to be decided again; a tick whose hit is only undecided
        stays."""
        seg = self._segments[si]
        undecided = self._decide_hits(seg)
        events: list[TickEvent] = []
        ticks: list[TickEvent] = []
        lost = set()
        for tid, tick in list(self._ticks.items()):
            if tick.segment == si and not (
                ((tick.start, tick.end) in seg.valid.get(tid, ()) or (tid, tick.start, tick.end) in undecided)
                and self._evidence(seg, tick.start, tick.end) == tick.event.evidence
            ):
                del self._ticks[tid]
                lost.add(tid)
                events.append(replace(tick.event, ticked=False))
        for tid, (player, index, term) in enumerate(self._terms):
            if tid in self._ticks:
                continue
            for sj in range(len(self._segments)) if tid in lost else (si,):
                spans = self._segments[sj].valid.get(tid)
                if spans:
                    start, end = min(spans)
                    words = self._segments[sj].words
                    evidence = self._evidence(self._segments[sj], start, end)
                    event = TickEvent(player, term, index, evidence, words[end - 1].end, heard_at=(sj, end - 1))
                    self._ticks[tid] = _Tick(sj, start, end, event)
                    ticks.append(event)
                    break
        return events + sorted(ticks, key=lambda event: event.heard_at or (0, 0))  # in the order heard

    def _decide_hits(self, seg: _Segment) -> set[tuple[int, int, int]]:
        """The segment's hits since it last settled decided where they can be (valid ones kept in
        `seg.valid`), `seg.settled` moved to the first one still pending; the (term id, start,
        end) of those not decided yet."""
        seg.provisional.clear()
        seg.unsure.clear()
        pending = len(seg.tokens) + 1
        undecided: set[tuple[int, int, int]] = set()  # (term id, start, end) of hits not decided yet
        for end, tid, start in reversed(seg.hits):
            if end < seg.settled:
                break
            if end > seg.sure:  # ends in the lookahead
                pending = min(pending, end)
                continue
            edges = (
                self._joined(seg, start),
                self._joined(seg, end),
                self._whole(seg, tid, start, end),
                end - start > 1 or self._heard_as(seg, tid, start),
            )
            if None in edges:
                pending = min(pending, end)
                undecided.add((tid, start, end))
                continue
            if edges == (False, False, True, True):
                seg.valid.setdefault(tid, set()).add((start, end))
            if start in seg.unsure or any(start <= k <= end for k in seg.provisional):
                pending = min(pending, end)
        seg.settled = pending
        return undecided

    def _heard_as(self, seg: _Segment, tid: int, j: int) -> bool:
        """Whether word j, in its sentence, is the word of one-word term `tid` (RULINGS: "the dove
        flew off" does not tick "dive"; "she dove in" does): the tagger's chance that the word
        has a tag under which it is a form of the term is at least HEARD_AS. A term that is a
        helping verb written with a capital ("May", "Will") is a name: the word must be heard as
        one, tagged capitalised. With fewer than RIGHT_CONTEXT words after it, the word is judged
        with the words there are, and judged again as words come."""
        if (j, tid) in seg.heard_as:
            return seg.heard_as[j, tid]
        token = seg.tokens[j]
        tags: frozenset[str] | None = frozenset()
        if tid in self._names:
            tags = NOUN_TAGS
        elif self._lexicon.keys(token) & self._keys[tid]:
            tags = self._lexicon.heard_tags(token, self._keys[tid])
        elif not self._lexicon.singulars(token) & self._keys[tid]:
            return True  # heard through an alternative or a sound-alike
        if tags is None:
            return True
        if self._lexicon.singulars(token) & self._keys[tid]:
            tags |= _PLURAL  # "the scissors" is the plural of a written "scissor"
        lo, hi = max(0, j - LEFT_CONTEXT), j + 1 + RIGHT_CONTEXT
        words = [*seg.tokens[lo:hi]]
        if tid in self._names:
            words[j - lo] = token.capitalize()
        window, i = tuple(words), j - lo
        heard = bool(tags) and not (tags <= VERB_TAGS and self._heads_noun_phrase(window, i)) and (
            self._tagger.chances(window, i, tags) >= HEARD_AS or bool(tags & VERB_TAGS) and self._verb_form(window, i)
        )
        if hi > len(seg.tokens) and not seg.final:
            seg.unsure.add(j)
        else:
            seg.heard_as[j, tid] = heard
        return heard

    def _heads_noun_phrase(self, words: tuple[str, ...], i: int) -> bool:
        """Whether word i, spelt as a form of a verb, heads a noun phrase, so is a noun: after an
        article and any adjectives ("she picked a red rose" is no "rise"), or, an -ing form, after
        any determiner or possessive and any adjectives ("they changed the bedding", "his
        singing"); unless a noun follows, which makes it a participle ("a broken cup", "the
        burning barn"). The tagger reads nouns it has seldom seen there as verbs ("the bedding"
        VBG at 0.98, "a red rose" VBD at 0.92). After "the" and adjectives other forms are left to
        it: "the young danced" is a verb."""
        tags = self._tagger.tags(words)
        if i + 1 < len(tags) and tags[i + 1] in NOUN_TAGS:
            return False
        k = self._before_adjectives(words, tags, i)
        if k < 0:
            return False
        return words[k] in _INDEFINITE or tags[k] in _DETERMINERS and "VBG" in (self._lexicon.tags(words[i]) or ())

    def _before_adjectives(self, words: Sequence[str], tags: Sequence[str], i: int) -> int:
        """Where the word before word i's adjectives is (-1: none): adjectives tagged so or mostly
        adjectives in SemCor (the tagger reads "red" in "a red rose" as a noun)."""
        k = i - 1
        while k >= 0 and words[k] not in _QUANTITIES and (
            tags[k] in TAGS_OF["ADJ"] or self._lexicon.mostly_adjective(words[k])
        ):
            k -= 1
        return k

    def _verb_form(self, words: tuple[str, ...], i: int) -> bool:
        """Whether word i, tagged as no verb, is a form of its verb all the same by the words
        around it: a participle before a noun or after a form of "be" ("the burning barn", "a
        frozen lake", "the lake was frozen"), an -ing form that heads no noun phrase ("swimming is fun", not "the
        painting", "a sad ending"), or, in a clause with no other verb, a finite form after a
        noun ("the mouse bit the cheese": the tagger read "mouse bit" as a compound)."""
        tags = self._tagger.tags(words)
        forms = self._lexicon.tags(words[i]) or frozenset()
        before = tags[i - 1] if i else ""
        after = tags[i + 1] if i + 1 < len(tags) else ""
        if "VBG" in forms and after in NOUN_TAGS:
            return True  # as in the compounds, an -ing form before a noun is a participle
        if tags[i] in TAGS_OF["ADJ"] and "VBN" in forms:
            return after in NOUN_TAGS or (i > 0 and words[i - 1] in BE)
        if tags[i] in NOUN_TAGS and "VBG" in forms:
            return before not in _NOUN_PHRASE_START
        others = [tag for k, tag in enumerate(tags) if k != i]
        return before in NOUN_TAGS and bool(forms & _FINITE) and not any(tag.startswith(("VB", "MD")) for tag in others)

    def _whole(self, seg: _Segment, tid: int, start: int, end: int) -> bool | None:
        """A one-word term heard as several words must be heard as one compound: "snow man" is
        "snowman", but "the snow fell" is no "snowfall". A term of several words must not span
        the end of a phrase: "the ocean | parrots screamed" is no "ocean parrot"."""
        if end - start == 1:
            return True
        inside = [self._joined(seg, k) for k in range(start + 1, end)]
        if tid not in self._one_word:
            return False if seg.separated & set(range(start + 1, end)) else None if None in inside else True
        return False if False in inside else None if None in inside else True

    @staticmethod
    def _evidence(seg: _Segment, start: int, end: int) -> str:
        return " ".join(word.text.strip() for word in seg.words[start:end])


def judge_transcript(
    referee: TermReferee, terms: Mapping[str, Sequence[str]], text: str
) -> dict[str, list[TickEvent | None]]:
    """Which terms a whole typed story ticks: for each player, the tick of each term or None."""
    tracker = TickTracker(referee, terms)
    tracker.say(text)
    tracker.finish()
    return tracker.ticked()
