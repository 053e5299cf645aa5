"""Ticking Spanish terms while the storyteller speaks (RULINGS, "Stories! in Spanish").

The same input and output as nlp.ticks' `TickTracker` (`update` with a recognizer's hypothesis,
`say` for typed text, `finish`, `ticked`, `TickEvent`s), with Spanish words read by Apertium
(nlp.spanish): any inflected form ticks, a verb with pronouns attached too ("dámelo" ticks
"dar", "levantarse" ticks "levantar"); a heard word counts as the reading the tagger gives it in
its sentence ("él vino ayer" ticks "venir", "el vino tinto" does not), or as itself when its
spelling is a term's ("vino"). A lexicalised compound (a multiword unit of the analyser, "fin de
semana", or a noun and an adjective whose English words are a WordNet compound, "oso polar") is
heard as one word, so its parts never tick alone; a free phrase ("perro grande") ticks each word.
A written compound ticks when heard closed or apart ("arcoíris", "arco iris").

Each hypothesis of an utterance is read again, but for the words more than FROZEN_BEHIND (up to
FROZEN_BEHIND + FREEZE_STEP) behind its end, which are settled; a word
with fewer than RIGHT_CONTEXT words after it (the recognizer's lookahead counts, as context
only) waits for them, or for the end of the utterance,
since they may make it part of a compound or change its reading. Compounds never span
punctuation or a pause of more than PAUSE seconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from nlp.apertium import Unit
from nlp.spanish import CONTENT, SpanishReferee, compound_key, words_of
from nlp.ticks import HeardWord, StoryTracker, TickEvent, numbers_said, said_once, separated

RIGHT_CONTEXT = 2  # words heard after a word before it is decided (a multiword unit is up to three words)
FROZEN_BEHIND = 8  # words behind the last heard that are no longer read again as the utterance grows
FREEZE_STEP = 16  # words by which the frozen part grows at a time
_Span = tuple[int, int]  # first word, one past the last (indices into the utterance's words)


@dataclass
class _Utterance:
    words: list[HeardWord] = field(default_factory=list)
    sure: int = 0  # the words before this one were heard; those after are lookahead, never evidence
    final: bool = False
    valid: dict[int, set[_Span]] = field(default_factory=dict)  # term id -> spans heard and decided
    undecided: set[tuple[int, _Span]] = field(default_factory=set)
    signatures: list[tuple[str, float | None]] = field(default_factory=list)  # the words last judged
    frozen: int = 0  # words before this one are not read again while the utterance grows
    frozen_valid: dict[int, set[_Span]] = field(default_factory=dict)  # their decided hits


@dataclass(frozen=True)
class _Tick:
    utterance: int
    span: _Span
    event: TickEvent


class SpanishTickTracker(StoryTracker):
    """Follows a Spanish story and says when each player's terms are heard.

    `terms` maps each player to the terms they wrote (already checked with the referee);
    `min_confidence` ignores words the recognizer is less sure of.
    """

    language = "es"

    def __init__(
        self, referee: SpanishReferee, terms: Mapping[str, Sequence[str]], *, min_confidence: float = 0.0
    ) -> None:
        self._referee = referee
        self._terms = [(player, i, term) for player, written in terms.items() for i, term in enumerate(written)]
        self._players = list(terms)
        self._by_key: dict[str, list[int]] = {}
        for tid, (_, _, term) in enumerate(self._terms):
            # a helping verb written with a capital ("Poder") is a name: heard only as one
            mark = "=" if referee.name_only(term) else ""
            for key in referee.keys(term):
                self._by_key.setdefault(mark + key, []).append(tid)
        self._min_confidence = min_confidence
        self._segments: list[_Utterance] = []
        self._ticks: dict[int, _Tick] = {}

    # -- input -----------------------------------------------------------------------------
    def update(
        self, words: Iterable[HeardWord | str | Mapping[str, Any]], final: bool = False, lookahead: Iterable[HeardWord] = ()
    ) -> list[TickEvent]:
        if not self._segments or self._segments[-1].final:
            self._segments.append(_Utterance())
        utterance = self._segments[-1]
        heard = said_once([w for w in numbers_said(words, self.language) if words_of(w.text)], self._known, _token)
        ahead = [] if final else [w for w in numbers_said(lookahead, self.language) if words_of(w.text)]
        utterance.words = heard + said_once(heard[-1:] + ahead, self._known, _token)[len(heard[-1:]) :]
        utterance.sure = len(heard)
        utterance.final = final
        return self._settle(len(self._segments) - 1)

    def _typed(self, clause: str) -> list[str]:
        return words_of(clause)

    def _known(self, token: str) -> bool:
        """Whether the analyser knows the word (`said_once` drops the start of a word said again
        when it is none: "el arc arcoíris")."""
        return any(unit.known for unit in self._referee.spelt(token))

    # -- matching --------------------------------------------------------------------------
    def _pieces(self, utterance: _Utterance, begin: int) -> list[list[tuple[int, str]]]:
        """The utterance's words from `begin` on as runs of (word index, word) that a compound
        may span: split at punctuation, a pause and a word heard with too little confidence."""
        runs: list[list[tuple[int, str]]] = [[]]
        for i, word in enumerate(utterance.words[begin:], begin):
            if word.confidence is not None and word.confidence < self._min_confidence:
                runs.append([])
                continue
            if i > begin and separated(utterance.words[i - 1], word):
                runs.append([])
            runs[-1] += [(i, token) for token in words_of(word.text)]
        return [run for run in runs if run]

    def _units(self, run: list[tuple[int, str]]) -> list[tuple[Unit, int, int]]:
        """The run's units with the pieces each covers (first, one past the last)."""
        units = self._referee.analyse(" ".join(token for _, token in run))
        if sum(unit.words for unit in units) != len(run):  # the analyser split a word: read each alone
            units = tuple(unit for _, token in run for unit in self._referee.analyse(token)[:1])
        # an adverbial or prepositional locution ("al amanecer", "al oído") is no compound term
        # (a term is a noun, verb or adjective): its words are heard one by one
        units = tuple(
            part
            for unit in units
            for part in (
                (unit,)
                if unit.words == 1 or not unit.known or unit.readings[0].pos in CONTENT
                else tuple(self._referee.analyse(word)[0] for word in unit.surface.split())
            )
        )
        placed, start = [], 0
        for unit in units:
            placed.append((unit, start, start + unit.words))
            start += unit.words
        return placed

    def _judge(self, utterance: _Utterance) -> None:
        """The hits of the utterance, decided (`valid`) or waiting for more words (`undecided`).
        Words far enough behind the last (FROZEN_BEHIND) are not read again while the
        utterance grows, so a recognizer that never ends one costs no more per word."""
        signatures = [(word.text, word.confidence) for word in utterance.words]
        same = 0
        while same < min(len(signatures), len(utterance.signatures)) and signatures[same] == utterance.signatures[same]:
            same += 1
        if same < utterance.frozen:  # a revision of frozen words: read the utterance again whole
            utterance.frozen, utterance.frozen_valid = 0, {}
        utterance.signatures = signatures
        utterance.valid = {tid: set(spans) for tid, spans in utterance.frozen_valid.items()}
        utterance.undecided = set()
        runs = self._pieces(utterance, utterance.frozen)
        last = max((i for run in runs for i, _ in run), default=-1)
        heard: list[tuple[int, _Span, bool]] = []  # term id, span, decided
        starts: list[int] = []  # the words where a unit starts
        for n, run in enumerate(runs):
            hits = self._run_hits(run, first=n == 0 and utterance.frozen == 0)
            starts += [run[start][0] for _, start, _ in hits]
            for key, start, end in hits:
                span = (run[start][0], run[end - 1][0] + 1)
                decided = span[1] <= utterance.sure and (utterance.final or span[1] - 1 + RIGHT_CONTEXT <= last)
                heard += [(tid, span, decided) for tid in self._by_key.get(key, ())]
        for tid, span, decided in heard:
            if decided:
                utterance.valid.setdefault(tid, set()).add(span)
            else:
                utterance.undecided.add((tid, span))
        last = min(last, utterance.sure - 1)  # only heard words are frozen
        if utterance.final or last - FROZEN_BEHIND - utterance.frozen < FREEZE_STEP:
            return
        crossed = {k for _, (first, end), _ in heard for k in range(first + 1, end)}
        frozen = max((k for k in starts if k <= last - FROZEN_BEHIND and k not in crossed), default=0)
        if frozen > utterance.frozen:
            for tid, span, _ in heard:
                if span[1] <= frozen:
                    utterance.frozen_valid.setdefault(tid, set()).add(span)
            utterance.frozen = frozen

    def _run_hits(self, run: list[tuple[int, str]], first: bool) -> list[tuple[str, int, int]]:
        """(key, first piece, one past the last) for every key heard in a run (`first`: the
        utterance's first, whose first word's capital says nothing)."""
        units = self._units(run)
        hits: list[tuple[str, int, int]] = []
        k = 0
        while k < len(units):
            unit, start, end = units[k]
            if k + 1 < len(units) and self._referee.lexicalised(unit, units[k + 1][0]):
                pair = f"{unit.surface} {units[k + 1][0].surface}"
                hits += [(key, start, units[k + 1][2]) for key in self._referee.keys(pair)]
                k += 2
                continue
            capital = unit.surface[:1].isupper() and not (first and start == 0)
            hits += [(key, start, end) for key in self._referee.heard_keys(unit, capital)]
            if k + 1 < len(units):  # a compound term heard as two words ("Juan Pérez")
                following, _, after = units[k + 1]
                for a in self._referee.heard_keys(unit, False):
                    for b in self._referee.heard_keys(following, False):
                        if not a.startswith("+") and not b.startswith("+"):
                            hits.append((compound_key([a, b]), start, after))
            k += 1
        return hits

    def _settle(self, ui: int) -> list[TickEvent]:
        """Ticks and unticks after utterance `ui` changed; a tick whose hit is only undecided stays."""
        utterance = self._segments[ui]
        self._judge(utterance)
        events: list[TickEvent] = []
        lost = set()
        for tid, tick in list(self._ticks.items()):
            if tick.utterance == ui and not (
                (tick.span in utterance.valid.get(tid, ()) or (tid, tick.span) in utterance.undecided)
                and _evidence(utterance, tick.span) == tick.event.evidence
            ):
                del self._ticks[tid]
                lost.add(tid)
                events.append(replace(tick.event, ticked=False))
        ticks: list[TickEvent] = []
        for tid, (player, index, term) in enumerate(self._terms):
            if tid in self._ticks:
                continue
            for uj in range(len(self._segments)) if tid in lost else (ui,):
                spans = self._segments[uj].valid.get(tid)
                if spans:
                    span = min(spans)
                    words = self._segments[uj].words
                    evidence = _evidence(self._segments[uj], span)
                    event = TickEvent(player, term, index, evidence, words[span[1] - 1].end, heard_at=(uj, span[1] - 1))
                    self._ticks[tid] = _Tick(uj, span, event)
                    ticks.append(event)
                    break
        return events + sorted(ticks, key=lambda event: event.heard_at or (0, 0))


@lru_cache(maxsize=65536)
def _token(text: str) -> str:
    """A heard word as `said_once` compares it: its words, lowercase."""
    return " ".join(words_of(text)).lower()


def _evidence(utterance: _Utterance, span: _Span) -> str:
    return " ".join(word.text.strip() for word in utterance.words[span[0] : span[1]])
