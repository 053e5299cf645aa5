"""Where command lines come from: a person at a terminal, a script file, or a pipe."""
from __future__ import annotations

import atexit
import codecs
import os
import select
import sys
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Protocol, TextIO


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

    stream: IO[str]
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


@contextmanager
def keys(stream: TextIO) -> Iterator[None]:
    """Read a terminal key by key, without its own echo (cbreak mode); Ctrl-C still interrupts."""
    fd = stream.fileno()
    before = termios.tcgetattr(fd)
    attributes = termios.tcgetattr(fd)
    attributes[3] &= ~(termios.ICANON | termios.ECHO)
    attributes[6][termios.VMIN], attributes[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSADRAIN, attributes)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, before)


ERASE, KILL, END_OF_FILE, ESCAPE = ("\x7f", "\b"), "\x15", "\x04", "\x1b"


@dataclass
class TerminalSource:
    """A person typing at a terminal; waits with a timeout so the story clock can interrupt.

    Keys are read one at a time and echoed here, so the host knows what is half typed: news
    that arrives meanwhile (a timer warning) takes the prompt's line, and the prompt is drawn
    again below it with what was typed, which the player goes on typing. The terminal itself
    echoes nothing while the game runs, so keys typed while the host is printing never land in
    the middle of its lines: they appear after the next prompt.
    """

    stream: TextIO = sys.stdin
    out: TextIO = sys.stdout
    hidden: bool = False
    typed: str = ""
    _decoder: codecs.IncrementalDecoder = field(default_factory=lambda: codecs.getincrementaldecoder("utf-8")("replace"))
    _escape: bool = False  # inside a key's escape sequence (arrows): ignored
    _keys_left: str = ""  # keys read after an Enter: the next lines, typed ahead
    _quiet: bool = False  # the terminal's own echo is off until the program ends

    def read(self, timeout: float | None) -> str | None:
        if not self._quiet:
            set_echo(self.stream, False)
            atexit.register(set_echo, self.stream, True)
            self._quiet = True
        shown = "" if self.hidden else self.typed
        self.out.write(("(typing is hidden) > " if self.hidden else "> ") + shown)
        self.out.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        with keys(self.stream):
            while True:
                line = self._take_keys()
                if line is not None:
                    return line
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                ready, _, _ = select.select([self.stream], [], [], wait)
                if not ready:
                    self.out.write("\r\033[K")  # the prompt's line is cleared for the news
                    self.out.flush()
                    return None
                data = os.read(self.stream.fileno(), 1024)
                if not data:
                    raise EOFError
                self._keys_left += self._decoder.decode(data)

    def _take_keys(self) -> str | None:
        """Take the keys typed so far; the whole line once Enter is pressed."""
        while self._keys_left:
            key, self._keys_left = self._keys_left[0], self._keys_left[1:]
            if self._escape:
                self._escape = not (key.isalpha() or key == "~")
            elif key == ESCAPE:
                self._escape = True
            elif key in "\r\n":
                line, self.typed = self.typed.strip(), ""
                self._echo("\n")
                return line
            elif key == END_OF_FILE and not self.typed:
                self._echo("\n")
                raise EOFError
            elif key in ERASE and self.typed:
                self.typed = self.typed[:-1]
                self._echo("\b \b")
            elif key == KILL:
                self._echo("\b \b" * len(self.typed))
                self.typed = ""
            elif key.isprintable():
                self.typed += key
                self._echo(key)
        return None

    def _echo(self, text: str) -> None:
        if not self.hidden or text == "\n":
            self.out.write(text)
            self.out.flush()

    def secret(self, hidden: bool) -> None:
        self.hidden = hidden  # the terminal echoes nothing itself: only `_echo` shows keys
