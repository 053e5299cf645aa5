"""A timer on the wall clock while a story is told (the Stories! sand timer): warnings at 30
and 10 seconds left, then the game's action for the time up. A listener of the game's adapter
(`host.adapters.listening`): it also answers 'time' and pauses while the microphone is lost."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from games.base import Action, GameState
from games.language import _, n_
from host.adapters.listening import Announce, BasicListener, Play, Reply, Response
from host.voice.control import HostRequest

#: seconds left when the table is warned
WARNINGS = (30.0, 10.0)


@dataclass
class StoryClock(BasicListener):
    """Runs while `running` says a story is told; without `seconds` (a script, which says when
    the time is up) it never starts."""

    running: Callable[[GameState], bool]
    #: what the game is told when the time is up
    time_up: Action
    seconds: float | None = None
    deadline: float | None = None
    paused: float | None = None  # seconds left when the microphone was lost
    warnings: list[float] = field(default_factory=list)

    def start(self) -> None:
        if self.seconds is None:
            return
        self.deadline = time.monotonic() + self.seconds
        self.warnings = [w for w in WARNINGS if w < self.seconds]

    def stop(self) -> None:
        self.deadline = None
        self.paused = None

    def follow(self, state: GameState) -> None:
        if not self.running(state):
            self.stop()
        elif self.deadline is None and self.paused is None:
            self.start()

    def microphone(self, present: bool) -> str | None:
        if not present and self.deadline is not None:
            self.paused, self.deadline = self.left(), None
            return _("The timer is paused until the microphone is back.")
        if present and self.paused is not None:
            self.deadline, self.paused = time.monotonic() + self.paused, None
            return _("The microphone is back: the story and the timer go on.")
        return None

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def next_wake(self) -> float | None:
        """Seconds until the next warning or the end, None when not running."""
        left = self.left()
        if left is None:
            return None
        return left - self.warnings[0] if self.warnings and left > self.warnings[0] else left

    def wake(self, state: GameState) -> Iterator[Response]:
        left = self.left()
        if left is not None and left > 0 and self.warnings and left <= self.warnings[0]:
            yield Announce((seconds_left(self.warnings.pop(0)),), cue="warning")
        elif left == 0:
            self.stop()
            yield Play(self.time_up, heard=False)

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        if request.name != "time":
            return None
        left = self.left()
        return iter((Reply(_("No timer is running.") if left is None else seconds_left(left)),))


def seconds_left(left: float) -> str:
    """'10 seconds left.', in whole seconds, in the table's language."""
    seconds = round(left)
    return n_("{count} second left.", "{count} seconds left.", seconds).format(count=seconds)
