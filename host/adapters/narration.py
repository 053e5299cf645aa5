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

from collections.abc import Iterator, Sequence
from typing import Any, Optional

from dataclasses import replace

from games.base import Action, GameState, fold_name, view_of
from games.language import _, p_
from games.stories import TERMS_PER_PLAYER, Phase, StoriesView
from host.adapters.listening import Attention, BasicListener, Play, Reply, Response
from host.adapters.stop import said_after, stop_word
from host.speech.hearing import Heard
from host.voice.control import HostRequest
from nlp import HeardWord, ReconcilingTracker, Referee, TickEvent

#: a tick or untick the referee heard, and when in the story its words ended
Timed = tuple[Action, Optional[float]]


class NarrationListener(BasicListener):
    """Hears the story told (and the stories typed with 'say') and ticks the terms, judged by the
    referee of the game's language."""

    def __init__(self, referee: Referee, **tracker_options: Any) -> None:
        self.referee = referee
        self.tracker_options = tracker_options
        self._tracker: ReconcilingTracker | None = None
        self._story: int | None = None

    def listening(self, state: GameState) -> bool:
        return view_of(state, None, StoriesView).phase == Phase.NARRATION

    def attention(self, state: GameState) -> Attention | None:
        if not self.listening(state):
            return None
        hint = _("To tell the story, type: {say} {words}").format(say=p_("verb", "say"), words="{}")
        return Attention(story=True, context=self.context(state), hint=hint)

    def hear(self, state: GameState, heard: Heard) -> Iterator[Response]:
        """Ticks and unticks heard, each printed with its time in the story (an untick of a
        confirmation as a correction), until Stop!; then the ticks of words said after the word
        that called it are taken back."""
        hypothesis = heard.hypothesis
        telling = self.listening(state)
        actions = self.heard(state, hypothesis.words, hypothesis.final, hypothesis.confirmed, hypothesis.lookahead)
        yield from self._plays(state, actions, telling, correcting=hypothesis.confirmed)
        if telling and not self.listening(state):  # Stop!: what was said after its word does not count
            yield from self._plays(state, self.after_stop(state), telling=False, correcting=True)

    def _plays(self, state: GameState, actions: list[Timed], telling: bool, correcting: bool) -> Iterator[Play]:
        for action, at in actions:
            if telling and not self.listening(state):  # Stop! was called
                break
            correction = _("Correction: ") if correcting and action.verb == "untick" else ""
            stamp = ("" if at is None else f"[{at:.1f} s] ") + correction
            yield Play(action, stamp=stamp, cue="tick" if action.verb == "tick" else None)

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        """'say' and the words the storyteller said: typed narration ticks the terms too."""
        return self._typed(state, request.rest) if request.name == "say" else None

    def _typed(self, state: GameState, text: str) -> Iterator[Response]:
        if not self.listening(state):
            yield Reply(_("Nobody is telling a story now. {status}").format(status=state.status()))
        elif not text:
            yield Reply(_("Type what the storyteller said after '{say}'.").format(say=p_("verb", "say")))
        else:
            for action in self.hear_text(state, text):
                if not self.listening(state):  # Stop! was called
                    break
                yield Play(action)

    def context(self, state: GameState) -> str | None:
        """What the story continues: the card's sentence, which the storyteller reads first."""
        return view_of(state, None, StoriesView).sentence

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

    def heard(
        self, state: GameState, words: Sequence[HeardWord], final: bool, confirmed: bool = False,
        lookahead: Sequence[HeardWord] = (),
    ) -> list[Timed]:
        """The recognizer's current hypothesis of the current utterance (with its `lookahead`), or
        its confirmation of a finished one: actions, each with the time in the audio of the words
        that justify it. A player interrupting with "question" and their name (in a final
        hypothesis) asks a question. Once the story is over, only a confirmation is heard (see the
        module's docstring)."""
        if not self.listening(state):
            return self._late(state, words) if confirmed and self._story == view_of(state, None, StoriesView).story else []
        tracker = self._tracker_for(state)
        if confirmed:
            return self._actions(state, tracker.confirm(words))
        actions = self._actions(state, tracker.update(words, final, lookahead))
        return actions + (self._questions(state, words) if final else [])

    def after_stop(self, state: GameState) -> list[Timed]:
        """Once Stop! was called: the ticks of words said after the word that called it, taken
        back (a confirmation that completed a fifth term came after them)."""
        stop = self._stop(state)
        if stop is None or self._tracker is None:
            return []
        events = [replace(tick, ticked=False) for ticks in self._tracker.ticked().values() for tick in ticks
                  if tick is not None and said_after(tick, stop)]
        return self._actions(state, events)

    def _late(self, state: GameState, words: Sequence[HeardWord]) -> list[Timed]:
        """A confirmation after the story ended (in review): its changes up to the end."""
        if view_of(state, None, StoriesView).phase != Phase.REVIEW or self._tracker is None:
            return []
        stop = self._stop(state)
        changes = [(action, at) for action, at in self._actions(state, self._tracker.confirm(words))
                   if stop is None or at is None or at <= stop or action.verb == "untick"]
        return changes + self.after_stop(state)

    def _stop(self, state: GameState) -> float | None:
        """When in the story the word that called Stop! ended (None: no Stop!), among the players
        the game has all five terms ticked for."""
        if self._tracker is None:
            return None
        standing = {player: ticks for player, ticks in self._tracker.ticked().items()
                    if len(self._ticked(state, player)) == TERMS_PER_PLAYER}
        word = stop_word(standing)
        return None if word is None else word.time or 0.0

    @staticmethod
    def _questions(state: GameState, words: Sequence[HeardWord]) -> list[Timed]:
        """A player's "question NAME" heard, in the table's language or in English."""
        names = {fold_name(player): player for player in state.players}
        asking = {"question", fold_name(p_("verb", "question"))}
        heard = [fold_name(word.text.strip(".,;:!?¡¿")) for word in words]
        return [
            (Action("question", names[name]), words[index + 1].end)
            for index, (word, name) in enumerate(zip(heard, heard[1:]))
            if word in asking and name in names
        ]

    def _actions(self, state: GameState, events: list[TickEvent]) -> list[Timed]:
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
