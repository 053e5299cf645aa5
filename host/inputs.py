"""Where command lines come from: a person at a terminal, a script file, or a pipe.

One decoding policy for every line, typed, piped or scripted (`decode_line`): UTF-8, a byte
order mark dropped, names and terms composed (NFC) so that a decomposed "é" is the same letter
as a composed one. A line that is not UTF-8 text, or too long to be a command, is not taken: the
session says why in one line and the game goes on. A script file is checked whole before the
game starts (`read_script`).
"""
from __future__ import annotations

import codecs
import io
import re
import select
import sys
import termios
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol, TextIO

from host.files import FileRefused, read_capped
from host.screen import shortened, visible

#: the longest command line taken, in bytes (a clue or a said sentence fits many times over)
MAX_LINE_BYTES = 4096
#: the largest script file read
MAX_SCRIPT_BYTES = 1 << 20
#: in a script or a pipe, '#' starts a comment anywhere on a line; '\#' is a literal '#'
_COMMENT = re.compile(r"(?<!\\)#.*")


class LineSource(Protocol):
    def read(self, timeout: float | None) -> object | None:
        """The next input (a command line, a `Refused` line, or for a live round something
        heard); None if `timeout` seconds passed first; EOFError when input ends."""

    def secret(self, hidden: bool) -> None:
        """Hide typing from the screen (terms, votes) or show it again."""


@dataclass(frozen=True)
class Refused:
    """An input line that cannot be taken at all; `message` says why, in one line."""

    message: str


NOT_UTF8 = Refused("That line is not UTF-8 text, so nothing was done: type it again.")
TOO_LONG = Refused(f"That line is longer than {MAX_LINE_BYTES} bytes, so nothing was done: commands are short.")


def decode_line(raw: bytes) -> str | Refused:
    """A line of input as text (see the module's policy), or why it cannot be taken."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return NOT_UTF8
    return unicodedata.normalize("NFC", text.removeprefix("\ufeff")).strip()


def read_line(stream: BinaryIO) -> str | Refused:
    """One line of at most MAX_LINE_BYTES (a longer one is read to its end and refused);
    EOFError at the end of input."""
    raw = stream.readline(MAX_LINE_BYTES + 1)
    if not raw:
        raise EOFError
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        while (rest := stream.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
            pass
        return TOO_LONG
    return decode_line(raw)


def without_comment(line: str) -> str:
    """A script line without its comment; '\\#' stands for a literal '#'."""
    return _COMMENT.sub("", line).replace("\\#", "#").strip()


def read_script(path: str) -> BinaryIO:
    """A script file checked whole before the game starts: UTF-8 (with or without a byte order
    mark) or UTF-16 with its byte order mark; anything else is refused, naming the file."""
    data = read_capped(Path(path), MAX_SCRIPT_BYTES)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise FileRefused(path, "the file starts as UTF-16 text but is not") from None
    for number, line in enumerate(data.splitlines(), 1):
        if decode_line(line) is NOT_UTF8:
            raise FileRefused(path, f"line {number} is not UTF-8 text: save the script as UTF-8")
    return io.BytesIO(data)


@dataclass
class ScriptSource:
    """Lines from a file or pipe, echoed so a transcript shows what was typed. Time never
    passes on its own here: a script says 'timeup' where the timer runs out."""

    stream: BinaryIO
    echo: Callable[[str], None] = print

    def read(self, timeout: float | None) -> str | Refused:
        while True:
            line = read_line(self.stream)
            if isinstance(line, Refused):
                return line
            line = without_comment(line)
            if line:
                self.echo(visible(f"> {shortened(line)}"))
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
    """A person typing at a terminal; waits with a timeout so the story clock can interrupt.
    What is typed is taken as typed: '#' is no comment here, so a clue may hold one."""

    stream: TextIO = sys.stdin
    hidden: bool = False

    def read(self, timeout: float | None) -> str | Refused | None:
        print("(typing is hidden) > " if self.hidden else "> ", end="", flush=True)
        ready, _, _ = select.select([self.stream], [], [], timeout)
        if not ready:
            print()
            return None
        line = read_line(self.stream.buffer)
        if self.hidden:
            print()
        return line

    def secret(self, hidden: bool) -> None:
        if hidden != self.hidden:
            set_echo(self.stream, not hidden)
            self.hidden = hidden
