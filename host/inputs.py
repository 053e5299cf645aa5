"""Where command lines come from: a person at a terminal, a script file, or a pipe."""
from __future__ import annotations

import select
import sys
import termios
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TextIO


class LineSource(Protocol):
    def read(self, timeout: float | None) -> object | None:
        """The next input (a command line, or for a live round something heard); None if
        `timeout` seconds passed first; EOFError when input ends."""

    def secret(self, hidden: bool) -> None:
        """Hide typing from the screen (terms, votes) or show it again."""


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

    def secret(self, hidden: bool) -> None:
        """A script is typed in advance: nothing to hide as it is read."""


def set_echo(stream: TextIO, on: bool) -> None:
    """Show or hide what is typed at a terminal (nothing happens for a pipe or file)."""
    if not stream.isatty():
        return
    attributes = termios.tcgetattr(stream.fileno())
    attributes[3] = attributes[3] | termios.ECHO if on else attributes[3] & ~termios.ECHO
    termios.tcsetattr(stream.fileno(), termios.TCSADRAIN, attributes)


@dataclass
class TerminalSource:
    """A person typing at a terminal; waits with a timeout so the story clock can interrupt."""

    stream: TextIO = sys.stdin
    hidden: bool = False

    def read(self, timeout: float | None) -> str | None:
        print("(typing is hidden) > " if self.hidden else "> ", end="", flush=True)
        ready, _, _ = select.select([self.stream], [], [], timeout)
        if not ready:
            print()
            return None
        line = self.stream.readline()
        if not line:
            raise EOFError
        if self.hidden:
            print()
        return line.strip()

    def secret(self, hidden: bool) -> None:
        if hidden != self.hidden:
            set_echo(self.stream, not hidden)
            self.hidden = hidden
