"""What a game adds to a session beyond its moves: listeners, each behind one protocol.

A game's adapter gives the session its listeners (`GameAdapter.listeners`): Stories!' referee
hearing a story and its clock, Storytelling's card read aloud and its grid. The session knows no
game: it tells each listener what happened (speech heard, a host command typed or said, the
clock's moment, the microphone lost or back, the game moved on) and carries out what the
listener answers (`Response`: an action to play, lines for the table, a reply, a question to
ask by voice). Answers are generators: each action is played before the next is made, so a
listener sees the game as its last action left it (Stop! called by a tick ends the story).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, Union

from games.base import Action, Event, GameState
from host.speech.hearing import Heard
from host.voice.control import HostRequest, Question


@dataclass(frozen=True)
class Play:
    """An action for the session to play. `heard`: made by the host from what it heard (a tick
    of a story), not a guess typed at the table; `stamp` is printed before its news (when in
    the story it was heard); `cue`, the earcon that says it was played."""

    action: Action
    heard: bool = True
    stamp: str = ""
    cue: str | None = None


@dataclass(frozen=True)
class Announce:
    """Lines for the whole table, after the earcon `cue`."""

    lines: tuple[str, ...]
    cue: str | None = None


@dataclass(frozen=True)
class Reply:
    """A reply to one request, to whoever asked."""

    line: str


@dataclass(frozen=True)
class Ask:
    """A question asked by voice, yes or no (a card read aloud: "Was that card 9?")."""

    question: Question


Response = Union[Play, Announce, Reply, Ask]


@dataclass(frozen=True)
class Attention:
    """A listener wants the microphone's free speech now. `story`: a story is told (the host
    speaks quietly, spoken commands need the prefix word, its times count from now) that
    continues `context`; otherwise free speech such as a card read aloud, which a question
    asked by voice goes before. `hint`: what to type instead of a line that is no command
    ("To tell the story, type: say {}", the line filled in)."""

    story: bool
    context: str | None = None
    hint: str | None = None


class Listener(Protocol):
    """One thing that listens or times for a game, given to the session by its adapter."""

    def attention(self, state: GameState) -> Attention | None:
        """What it wants the microphone for now; None: nothing."""

    def hear(self, state: GameState, heard: Heard) -> Iterator[Response]:
        """Speech heard while it attends (and confirmations that come after, for a story)."""

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        """A host command it answers ('say', 'time', 'grid'); None: not one of its own."""

    def announced(self, state: GameState, events: list[Event], action: Action | None) -> list[Event]:
        """What the table hears of the shared `events` that `action` (None: the opening) caused."""

    def follow(self, state: GameState) -> None:
        """The game may have moved on (a clock starts or stops with the story)."""

    def next_wake(self) -> float | None:
        """Seconds until it wants `wake` called, None: never."""

    def wake(self, state: GameState) -> Iterator[Response]:
        """The moment asked for by `next_wake` came (a warning, the time up)."""

    def left(self) -> float | None:
        """Seconds left on its clock, for the screens; None: no clock runs."""

    def microphone(self, present: bool) -> str | None:
        """The microphone was lost or is back: what it does about it, in a sentence for the table."""


class BasicListener:
    """A listener that does nothing: listeners subclass it and change what they need."""

    def attention(self, state: GameState) -> Attention | None:
        return None

    def hear(self, state: GameState, heard: Heard) -> Iterator[Response]:
        return iter(())

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        return None

    def announced(self, state: GameState, events: list[Event], action: Action | None) -> list[Event]:
        return events

    def follow(self, state: GameState) -> None:
        return None

    def next_wake(self) -> float | None:
        return None

    def wake(self, state: GameState) -> Iterator[Response]:
        return iter(())

    def left(self) -> float | None:
        return None

    def microphone(self, present: bool) -> str | None:
        return None


@dataclass(frozen=True)
class Hearing:
    """What the session can hear and time, for an adapter choosing its listeners: `speech`, a
    microphone (with voice control); `wall_clock`, a person at the keyboard, for whom clocks run
    (a script says when time is up)."""

    speech: bool = False
    wall_clock: bool = False
