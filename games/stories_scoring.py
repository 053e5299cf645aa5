"""Stories!' scoring, as `storyhost rules stories` gives it: a ticked term scores 4, or 2 when
another player wrote the same term; each question costs points; said once the terms are
revealed. Whether two terms are the same is language work, passed in as `same`."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import join_either, join_names
from games.language import _, n_

#: what each question of a story costs: the first 1 point, the second 2 more
QUESTION_COSTS = (1, 2)
SHARED_TERM_POINTS = 2
UNIQUE_TERM_POINTS = 4

@dataclass
class WrittenTerm:
    text: str
    ticked: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> WrittenTerm:
        return WrittenTerm(self.text, self.ticked)  # apply() copies the state on every move: keep it cheap



@dataclass(frozen=True)
class ScoredTerm:
    text: str
    points: int
    #: the other writers who wrote the same term (ticked or not)
    shared_with: tuple[str, ...]


def scored_terms(
    sheets: Mapping[str, Sequence[WrittenTerm]], same: Callable[[str, str], bool]
) -> dict[str, list[ScoredTerm]]:
    """Each writer's ticked terms and what each scores: 2 when another writer wrote the same
    term (ticked or not), else 4."""
    scored: dict[str, list[ScoredTerm]] = {}
    for player, sheet in sheets.items():
        scored[player] = []
        for term in sheet:
            if term.ticked:
                shared_with = tuple(
                    other for other, terms in sheets.items()
                    if other != player and any(same(term.text, written.text) for written in terms)
                )
                points = SHARED_TERM_POINTS if shared_with else UNIQUE_TERM_POINTS
                scored[player].append(ScoredTerm(term.text, points, shared_with))
    return scored


def revealed(player: str, sheet: Sequence[WrittenTerm]) -> str:
    """A player's terms once the story is over, ticked first: 'Sabine ticked car and radio; not
    bored or horn.'"""
    ticked = [term.text for term in sheet if term.ticked]
    unticked = [term.text for term in sheet if not term.ticked]
    if not ticked:
        return _("{player} ticked none of {terms}.").format(player=player, terms=join_either(unticked))
    if not unticked:
        return n_("{player} ticked all {count}: {terms}.", "{player} ticked all {count}: {terms}.", len(ticked)).format(
            player=player, count=len(ticked), terms=join_names(ticked))
    return _("{player} ticked {terms}; not {others}.").format(
        player=player, terms=join_names(ticked), others=join_either(unticked))


def question_cost(asked: int) -> int:
    return sum(QUESTION_COSTS[:asked])


def story_points(
    sheets: Mapping[str, Sequence[WrittenTerm]],
    questions: Mapping[str, int],
    same: Callable[[str, str], bool],
) -> dict[str, int]:
    """Each writer's points for one story, before the floor at 0 of the running score."""
    return {
        player: sum(term.points for term in terms) - question_cost(questions[player])
        for player, terms in scored_terms(sheets, same).items()
    }


def explain_points(
    scored: Mapping[str, Sequence[ScoredTerm]], questions: Mapping[str, int], points: Mapping[str, int],
    storyteller: str,
) -> list[str]:
    """Who scored what for which term, one sentence a player: said once the terms are revealed."""
    lines = [_("A ticked term scores {unique}, or {shared} when another player wrote it too.").format(
        unique=UNIQUE_TERM_POINTS, shared=SHARED_TERM_POINTS)]
    for player, terms in scored.items():
        parts = [
            _("{term} {points} ({names} wrote it too)").format(
                term=term.text, points=term.points, names=join_names(term.shared_with))
            if term.shared_with else _("{term} {points}").format(term=term.text, points=term.points)
            for term in terms
        ]
        earned = join_names(parts) if parts else _("no term ticked")
        asked = questions[player]
        if asked:
            line = n_("{player} {points}: {earned}, minus {cost} for {count} question.",
                      "{player} {points}: {earned}, minus {cost} for {count} questions.", asked)
        else:
            line = _("{player} {points}: {earned}.")
        lines.append(line.format(player=player, points=points[player], earned=earned, cost=question_cost(asked),
                                 count=asked))
    lines.append(_("{teller}, the storyteller, scores the best of the story: {points}.").format(
        teller=storyteller, points=points[storyteller]))
    return lines
