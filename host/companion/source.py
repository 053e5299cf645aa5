"""The session's input with the players' phones merged in, one item at a time, in order.

A live round's input is already a queue (keyboard and microphone): phone commands join it. A
terminal is woken through a pipe, as its timeout would, so the prompt and hidden typing stay as
they are. A script or a pipe is read by a thread into one queue with the phones' commands.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Union

from host.session.events import ClockWake, InputEnded, InputEvent, Joined, PhoneCommand
from host.session.inputs import LineSource, Listening, TerminalSource
from host.session.live import LiveInput


#: what a phone adds to the session's input: a command, or the news that it took its seat
PhoneEvent = Union[PhoneCommand, Joined]


def with_phones(inner: LineSource, first: Iterable[PhoneEvent] = ()) -> tuple[LineSource, Callable[[PhoneEvent], None]]:
    """What the session reads, and where a phone's command goes (any thread may call it);
    `first`: phone events that came before, read before anything else."""
    if isinstance(inner, LiveInput):
        put: Callable[[PhoneEvent], None] = inner.put
        merged: LineSource = inner
    elif isinstance(inner, TerminalSource):
        woken = WokenTerminal(inner)
        merged, put = woken, woken.put
    else:
        queued: queue.Queue[Echoed | PhoneEvent] = queue.Queue()
        for event in first:
            queued.put(event)
        first = ()
        merged, put = MergedSource(inner, queued), queued.put
    for event in first:
        put(event)
    return merged, put


@dataclass
class MergedSource:
    """A line source read ahead by a thread into the queue that phone commands join. A script's
    echo of each line is held back until the session takes that line, so a transcript stays in
    order."""

    inner: LineSource
    items: queue.Queue[Echoed | PhoneEvent] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        self._echo: Callable[[str], None] | None = getattr(self.inner, "echo", None)
        self._held: list[str] = []
        if self._echo is not None:
            self.inner.echo = self._held.append  # type: ignore[attr-defined]
        threading.Thread(target=self._forward, name="lines", daemon=True).start()

    def _forward(self) -> None:
        while True:
            item = self.inner.read(None)
            echoes, self._held[:] = list(self._held), []
            self.items.put(Echoed(item, echoes))
            if isinstance(item, InputEnded):
                return

    def read(self, timeout: float | None) -> InputEvent:
        try:
            queued = self.items.get(timeout=timeout)
        except queue.Empty:
            return ClockWake()
        if not isinstance(queued, Echoed):
            return queued
        for line in queued.echoes:
            if self._echo is not None:
                self._echo(line)
        if isinstance(queued.item, InputEnded):
            self.items.put(queued)  # every later read ends too
        return queued.item

    def secret(self, hidden: bool) -> None:
        self.inner.secret(hidden)

    def listen(self, wanted: Listening | None) -> None:
        self.inner.listen(wanted)


@dataclass(frozen=True)
class Echoed:
    """A line read ahead, with what its source prints when the session takes it."""

    item: InputEvent
    echoes: list[str]


@dataclass
class WokenTerminal:
    """A terminal whose wait for keys ends early when a phone command arrives."""

    terminal: TerminalSource
    phones: queue.Queue[PhoneEvent] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        self.wake_read, self.wake_write = os.pipe()
        self.terminal.wake = self.wake_read
        self.reveal = self.terminal.reveal
        self.hide_after = self.terminal.hide_after

    def put(self, event: PhoneEvent) -> None:
        self.phones.put(event)
        os.write(self.wake_write, b"!")

    def read(self, timeout: float | None) -> InputEvent:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return self.phones.get_nowait()
            except queue.Empty:
                pass
            item = self.terminal.read(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if not isinstance(item, ClockWake):
                return item
            if self.phones.empty() and deadline is not None and time.monotonic() >= deadline:
                return item  # the clock's time, as without phones

    def secret(self, hidden: bool) -> None:
        self.terminal.secret(hidden)

    def listen(self, wanted: Listening | None) -> None:
        self.terminal.listen(wanted)
