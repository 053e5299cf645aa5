"""The text session: typed (or scripted) commands in, plain announcement lines out.

Each line is either a host command (HOST_COMMANDS: help, repeat, score, undo, say, ...) or a
command of the game, which is parsed and applied to the engine. A legal action is saved before
its announcements are printed; anything refused is explained in one line and changes nothing.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.base import Action, Event, GameState, IllegalAction, Match, find_player
from host.inputs import LineSource
from host.narration import NarrationListener
from host.store import GameStore

HOST_COMMANDS = {
    "help": "list what you can say now",
    "repeat": "hear the last announcement again",
    "score": "the scores so far",
    "turn": "where the game stands and whose turn it is",
    "undo": "take back the last move",
    "private NAME": "show NAME's secret information (their terms, their vote): only NAME should look",
    "say TEXT": "Stories!: type what the storyteller says; the host ticks the terms it hears",
    "time": "Stories!: the time left in the story",
    "grid": "Storytelling: the tiles face up now",
    "quit": "stop here; the game stays saved and 'storyhost resume' continues it",
}

ALIASES = {"whose turn": "turn", "status": "turn", "time up": "timeup", "exit": "quit", "scores": "score"}


def normalise(line: str) -> str:
    words = " ".join(line.split())
    for phrase, replacement in ALIASES.items():
        if words.casefold() == phrase or words.casefold().startswith(phrase + " "):
            return replacement + words[len(phrase):]
    return words


@dataclass
class TextOutput:
    """The shared channel: announcements every player may hear, printed as plain lines.

    Private events are never printed here; a player sees their secrets with 'private NAME'.
    """

    write: Callable[[str], None] = print
    last: list[str] = field(default_factory=list)

    def shared(self, lines: list[str]) -> None:
        if lines:
            self.last = lines
        for line in lines:
            self.write(line)

    def note(self, line: str) -> None:
        """A reply to one command (an error, a help text): printed, not kept for 'repeat'."""
        self.write(line)


@dataclass
class StoryClock:
    """The Stories! timer on the wall clock; only used when a person types at a terminal."""

    seconds: float
    deadline: float | None = None
    warnings: list[float] = field(default_factory=list)

    def start(self) -> None:
        self.deadline = time.monotonic() + self.seconds
        self.warnings = [w for w in (30.0, 10.0) if w < self.seconds]

    def stop(self) -> None:
        self.deadline = None

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def next_wake(self) -> float | None:
        """Seconds until the next warning or the end, None when not running."""
        left = self.left()
        if left is None:
            return None
        return left - self.warnings[0] if self.warnings and left > self.warnings[0] else left


class Session:
    """Plays one saved game from a line source until it ends, input ends, or 'quit'."""

    def __init__(
        self,
        store: GameStore,
        game_id: int,
        match: Match,
        output: TextOutput,
        clock: StoryClock | None = None,
        listener: NarrationListener | None = None,
    ) -> None:
        self.store, self.game_id, self.match, self.out, self.clock = store, game_id, match, output, clock
        self.listener = listener
        #: said when the input ends before the game does
        self.end_note = f"Input ended. Game {game_id} is saved: 'storyhost resume {game_id}' continues it."

    @property
    def state(self) -> GameState:
        return self.match.state

    def run(self, source: LineSource) -> None:
        self._announce(self.state.opening())
        while not self.state.is_over():
            self._sync_clock()
            wake = self.clock.next_wake() if self.clock else None
            try:
                line = source.read(wake)
            except EOFError:
                self.out.note(self.end_note)
                return
            if line is None:  # the clock woke us
                self._clock_tick()
                continue
            if not self.handle(line):
                return
        self._finish()

    def handle(self, line: str) -> bool:
        """Handle one input line; False when the players want to stop."""
        command = normalise(line)
        if not command:
            return True
        verb, _, rest = command.partition(" ")
        host_command = getattr(self, f"_cmd_{verb.casefold()}", None)
        if host_command is not None:
            return host_command(rest.strip()) is not False
        try:
            action = self.state.parse(command)
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return True
        self.play(action)
        return True

    def play(self, action: Action) -> None:
        """Apply one action: refused ones are explained; legal ones are saved, then announced."""
        try:
            events = self.match.apply(action)
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return
        self.store.append(self.game_id, len(self.match.log) - 1, action)
        self._announce(events)

    def _announce(self, events: list[Event]) -> None:
        self.out.shared([event.text for event in events if event.to is None])

    def _sync_clock(self) -> None:
        if self.clock is None:
            return
        running = self.state.view(None).get("phase") == "narration"
        if running and self.clock.deadline is None:
            self.clock.start()
        elif not running:
            self.clock.stop()

    def _clock_tick(self) -> None:
        assert self.clock is not None
        left = self.clock.left()
        if left is not None and left > 0 and self.clock.warnings:
            self.out.shared([f"{self.clock.warnings.pop(0):.0f} seconds left."])
        elif left == 0:
            self.clock.stop()
            self.play(Action("timeup"))

    def _finish(self) -> None:
        """The engine has announced the outcome with its last move."""
        self.store.mark_finished(self.game_id)
        self.out.note(f"Game {self.game_id} is over and saved.")

    # host commands: each takes the rest of the line and returns False to stop the session
    def _cmd_help(self, rest: str) -> None:
        verbs = {choice.action.verb for choice in self.state.legal_actions()}
        lines = [f"  {v.usage}: {v.help}" for name, v in self.state.verbs.items() if name in verbs]
        self.out.note("You can say now:")
        for line in lines:
            self.out.note(line)
        self.out.note("At any time:")
        for usage, text in HOST_COMMANDS.items():
            self.out.note(f"  {usage}: {text}")

    def _cmd_repeat(self, rest: str) -> None:
        for line in self.out.last or [self.state.status()]:
            self.out.note(line)

    def _cmd_score(self, rest: str) -> None:
        scores = self.state.scores()
        self.out.note("Scores: " + ", ".join(f"{player} {points}" for player, points in scores.items()) + ".")

    def _cmd_turn(self, rest: str) -> None:
        self.out.note(self.state.status())

    def _cmd_time(self, rest: str) -> None:
        left = self.clock.left() if self.clock else None
        if left is None:
            self.out.note("No timer is running.")
        else:
            self.out.note(f"{left:.0f} seconds left.")

    def _cmd_say(self, rest: str) -> None:
        if self.listener is None:
            self.out.note("'say' is for telling a Stories! story.")
        elif not self.listener.listening(self.state):
            self.out.note("Nobody is telling a story right now: the host listens once the storyteller says 'start'.")
        elif not rest:
            self.out.note("Type what the storyteller said after 'say'.")
        else:
            for action in self.listener.hear_text(self.state, rest):
                if not self.listener.listening(self.state):  # Stop! was called
                    break
                self.play(action)

    def _cmd_grid(self, rest: str) -> None:
        grid = self.state.view(None).get("grid")
        if grid is None:
            self.out.note("This game has no grid of tiles.")
            return
        face_up = [f"{position} {name}" for position, name in grid.items() if name is not None]
        hidden = len(grid) - len(face_up)
        self.out.note(f"Face up: {', '.join(face_up)}. The other {hidden} tiles are face down." if face_up
                      else f"All {hidden} tiles are face down.")

    def _cmd_private(self, rest: str) -> None:
        if not rest:
            self.out.note("Say whose private information to show: private NAME.")
            return
        try:
            player = find_player(rest, self.state.players)
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return
        self.out.note(f"Private for {player}:")
        for line in self.state.secrets(player) or ["You have no secret right now."]:
            self.out.note(f"  {line}")

    def _cmd_undo(self, rest: str) -> None:
        try:
            undone = self.match.undo()
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return
        self.store.drop_last(self.game_id)
        who = f" by {undone.player}" if undone.player else ""
        self.out.shared([f"Undone: the last move ({undone.verb}{who}).", self.state.status()])

    def _cmd_quit(self, rest: str) -> bool:
        self.out.note(f"Game {self.game_id} is saved: 'storyhost resume {self.game_id}' continues it.")
        return False
