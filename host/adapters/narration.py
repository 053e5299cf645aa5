"""The referee's ears during a Stories! story: heard words in, tick and untick actions out.

The tracker is built when a story's narration starts, from every player's written terms (the
engine's per-player views: the host is the one party allowed to know them all). It says which
terms are heard, or no longer heard; here they become ordinary `tick`/`untick` actions of the
game, so they are logged, replayed and correctable like a player's own ticks.

The recognizer streams, and confirms each finished utterance (nlp.reconcile reconciles the
two); the card's sentence is its context. A confirmation that comes after the story ended
still counts for what was said before the end: after the sand timer, all of it; after Stop!,
what was said up to the word that completed the fifth term (and a tick given for a word said
after that one is taken back), so Stop! falls where it was earned.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dataclasses import replace

from games.base import Action, GameState, view_of
from games.stories import TERMS_PER_PLAYER, Phase, StoriesView
from nlp import HeardWord, ReconcilingTracker, TermReferee, TickEvent


class NarrationListener:
    def __init__(self, referee: TermReferee, **tracker_options: Any) -> None:
        self.referee = referee
        self.tracker_options = tracker_options
        self._tracker: ReconcilingTracker | None = None
        self._story: int | None = None

    def listening(self, state: GameState) -> bool:
        view = state.view(None)
        return isinstance(view, StoriesView) and view.phase == Phase.NARRATION

    def context(self, state: GameState) -> str | None:
        """What the story continues: the card's sentence, which the storyteller reads first."""
        view = state.view(None)
        return view.sentence if isinstance(view, StoriesView) else None

    def _tracker_for(self, state: GameState) -> ReconcilingTracker:
        story = view_of(state, None, StoriesView).story
        if self._tracker is None or self._story != story:
            terms = {
                sheet.writer: [term.text for term in view_of(state, sheet.writer, StoriesView).terms(sheet.writer)]
                for sheet in view_of(state, None, StoriesView).sheets
            }
            self._tracker = ReconcilingTracker(self.referee, terms, **self.tracker_options)
            self._story = story
        return self._tracker

    def hear_text(self, state: GameState, text: str) -> list[Action]:
        """Typed narration (a whole sentence or more)."""
        return [action for action, _ in self._actions(state, self._tracker_for(state).say(text))]

    def hear(
        self, state: GameState, words: Sequence[HeardWord], final: bool, confirmed: bool = False
    ) -> list[tuple[Action, float | None]]:
        """The recognizer's current hypothesis of the current utterance, or its confirmation of a
        finished one: actions, each with the time in the audio of the words that justify it. A
        player interrupting with "question" and their name (in a final hypothesis) asks a
        question. Once the story is over, only a confirmation is heard (see the module's docstring)."""
        if not self.listening(state):
            return self._late(state, words) if confirmed and self._story == view_of(state, None, StoriesView).story else []
        tracker = self._tracker_for(state)
        if confirmed:
            return self._actions(state, tracker.confirm(words))
        actions = self._actions(state, tracker.update(words, final))
        return actions + (self._questions(state, words) if final else [])

    def after_stop(self, state: GameState) -> list[tuple[Action, float | None]]:
        """Once Stop! was called: the ticks of words said after the word that called it, taken
        back (a confirmation that completed a fifth term came after them)."""
        stop = self._stop(state)
        if stop is None or self._tracker is None:
            return []
        events = [replace(tick, ticked=False) for ticks in self._tracker.ticked().values() for tick in ticks
                  if tick is not None and tick.time is not None and tick.time > stop]
        return self._actions(state, events)

    def _late(self, state: GameState, words: Sequence[HeardWord]) -> list[tuple[Action, float | None]]:
        """A confirmation after the story ended (in review): its changes up to the end."""
        if view_of(state, None, StoriesView).phase != Phase.REVIEW or self._tracker is None:
            return []
        stop = self._stop(state)
        changes = [(action, at) for action, at in self._actions(state, self._tracker.confirm(words))
                   if stop is None or at is None or at <= stop or action.verb == "untick"]
        return changes + self.after_stop(state)

    def _stop(self, state: GameState) -> float | None:
        """When in the story the word that called Stop! ended (None: no Stop!): the latest tick of
        the first player to have all five ticked, as heard."""
        if self._tracker is None:
            return None
        ends = [max(tick.time or 0.0 for tick in ticks if tick) for player, ticks in self._tracker.ticked().items()
                if len(ticks) == TERMS_PER_PLAYER and all(ticks) and len(self._ticked(state, player)) == TERMS_PER_PLAYER]
        return min(ends, default=None)

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
            if event.ticked != (event.term in self._ticked(state, event.player))
        ]
        unticks = [(Action("untick", e.player, (e.term,)), e.time) for e in changes if not e.ticked]
        heard: dict[tuple[int, int] | None, list[TickEvent]] = {}
        for event in sorted((e for e in changes if e.ticked), key=lambda e: e.heard_at or (0, 0)):
            heard.setdefault(event.heard_at, []).append(event)
        ticks = []
        for first, *others in heard.values():
            text = ", ".join([first.term, *(f"{event.player} {event.term}" for event in others)])
            ticks.append((Action("tick", first.player, (text,)), first.time))
        return unticks + ticks

    @staticmethod
    def _ticked(state: GameState, player: str) -> set[str]:
        return {term.text for term in view_of(state, player, StoriesView).terms(player) if term.ticked}
