"""The referee's ears during a Stories! story: heard words in, tick and untick actions out.

The tracker is built when a story's narration starts, from every player's written terms (the
engine's per-player views: the host is the one party allowed to know them all). Its decisions
become ordinary `tick`/`untick` actions, so they are logged, replayed and correctable like a
player's own ticks.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import Action, GameState
from games.stories import Phase
from nlp import HeardWord, TermReferee, TickEvent, TickTracker


class NarrationListener:
    def __init__(self, referee: TermReferee, **tracker_options: Any) -> None:
        self.referee = referee
        self.tracker_options = tracker_options
        self._tracker: TickTracker | None = None
        self._story: int | None = None

    def listening(self, state: GameState) -> bool:
        return state.view(None).get("phase") == Phase.NARRATION

    def _tracker_for(self, state: GameState) -> TickTracker:
        story = state.view(None)["story"]
        if self._tracker is None or self._story != story:
            terms = {
                player: [term["term"] for term in state.view(player)["sheets"][player]["terms"]]
                for player in state.view(None)["sheets"]
            }
            self._tracker = TickTracker(self.referee, terms, **self.tracker_options)
            self._story = story
        return self._tracker

    def hear_text(self, state: GameState, text: str) -> list[Action]:
        """Typed narration (a whole sentence or more)."""
        return [action for action, _ in self._actions(state, self._tracker_for(state).say(text))]

    def hear(self, state: GameState, words: Sequence[HeardWord], final: bool) -> list[tuple[Action, float | None]]:
        """The recognizer's current hypothesis of the current utterance: actions, each with the
        time in the audio of the words that justify it. A player interrupting with "question"
        and their name (in a final hypothesis) asks a question."""
        actions = self._actions(state, self._tracker_for(state).update(words, final))
        return actions + (self._questions(state, words) if final else [])

    @staticmethod
    def _questions(state: GameState, words: Sequence[HeardWord]) -> list[tuple[Action, float | None]]:
        names = {player.casefold(): player for player in state.players}
        return [
            (Action("question", names[name.text.casefold()]), name.end)
            for word, name in zip(words, words[1:])
            if word.text.casefold() == "question" and name.text.casefold() in names
        ]

    def _actions(self, state: GameState, events: list[TickEvent]) -> list[tuple[Action, float | None]]:
        """What changes: each term's last event in the batch, against what the game has (a term
        the table ticked by hand, or before a resume, stays). A revision that moves a term's
        evidence (untick then tick) changes nothing. Unticks come first: a revision that
        withdraws one word and adds another must not call Stop! on evidence just withdrawn.
        Then the ticks in the order heard, those of one heard word as one action
        ("tick Sabine wool, Melanie wool"), so that Stop! comes after all of them."""
        latest = {(event.player, event.term): event for event in events}
        changes = [
            event
            for event in latest.values()
            if (event.kind == "tick") != (event.term in self._ticked(state, event.player))
        ]
        unticks = [(Action("untick", e.player, (e.term,)), e.time) for e in changes if e.kind == "untick"]
        heard: dict[tuple[int, int] | None, list[TickEvent]] = {}
        for event in sorted((e for e in changes if e.kind == "tick"), key=lambda e: e.heard_at or (0, 0)):
            heard.setdefault(event.heard_at, []).append(event)
        ticks = []
        for first, *others in heard.values():
            text = ", ".join([first.term, *(f"{event.player} {event.term}" for event in others)])
            ticks.append((Action("tick", first.player, (text,)), first.time))
        return unticks + ticks

    @staticmethod
    def _ticked(state: GameState, player: str) -> set[str]:
        return {term["term"] for term in state.view(player)["sheets"][player]["terms"] if term["ticked"]}
