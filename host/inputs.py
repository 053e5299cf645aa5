"""Where command lines come from: a person at a terminal, a script file, or a pipe."""
from __future__ import annotations

import select
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TextIO


class LineSource(Protocol):
    def read(self, timeout: float | None) -> str | None:
        """The next line; None if `timeout` seconds passed first; EOFError when input ends."""


@dataclass
class ScriptSource:
    """Lines from a file or pipe, echoed so a transcript shows what was typed. Time never
    passes on its own here: a script says 'timeup' where the timer runs out."""

    stream: TextIO
    echo: Callable[[str], None] = print

    def read(self, timeout: float | None) -> str | None:
        while True:
            line = self.stream.readline()
            if not line:
                raise EOFError
            line = line.strip()
            if line and not line.startswith("#"):
                self.echo(f"> {line}")
                return line


@dataclass
class TerminalSource:
    """A person typing at a terminal; waits with a timeout so the story clock can interrupt."""

    stream: TextIO = sys.stdin
    prompt: Callable[[], None] = lambda: print("> ", end="", flush=True)

    def read(self, timeout: float | None) -> str | None:
        self.prompt()
        ready, _, _ = select.select([self.stream], [], [], timeout)
        if not ready:
            print()
            return None
        line = self.stream.readline()
        if not line:
            raise EOFError
        return line.strip()
