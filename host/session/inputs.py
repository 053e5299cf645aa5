"""Where input comes from, as events: a person at a terminal, a script file, or a pipe (and, in
`live`, the live round's keyboard and microphone).

One decoding policy for every line, typed, piped or scripted (`decode_line`): UTF-8, a byte
order mark dropped, names and terms composed (NFC) so that a decomposed "é" is the same letter
as a composed one. A line that is not UTF-8 text, or too long to be a command, is not taken: the
session says why in one line and the game goes on. A script file is checked whole before the
game starts (`read_script`).
"""
from __future__ import annotations

import atexit
import codecs
import io
import os
import re
import select
import sys
import termios
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol, TextIO

from games.base import fold_name
from games.language import _
from host.session.events import ClockWake, InputEnded, InputEvent, Refused, Typed
from host.session.screen import shortened, visible
from host.storage.files import FileRefused, read_capped

#: the longest command line taken, in bytes (a clue or a said sentence fits many times over)
MAX_LINE_BYTES = 4096
#: the largest script file read
MAX_SCRIPT_BYTES = 1 << 20
#: in a script or a pipe, '#' starts a comment anywhere on a line; '\#' is a literal '#'
_COMMENT = re.compile(r"(?<!\\)#.*")


class LineSource(Protocol):
    """Where a session's input comes from, as events (host.session.events)."""

    def read(self, timeout: float | None) -> InputEvent:
        """The next input; `ClockWake` if `timeout` seconds passed first; `InputEnded` at the end."""

    def secret(self, hidden: bool) -> None:
        """Hide typing from the screen (terms, votes) or show it again."""

    def listen(self, wanted: Listening | None) -> None:
        """Have the microphone listen for `wanted`, or close it (None); a source without a
        microphone has nothing to do."""


@dataclass(frozen=True)
class Listening:
    """What the microphone listens for: the phrases allowed now, or free speech (None). With
    `story`, free speech is a story starting: its times count from now. `context` is the text a
    story continues (its card's sentence: see `Recognizer.set_context`)."""

    phrases: tuple[str, ...] | None
    story: bool = False
    context: str | None = None


def not_utf8() -> Refused:
    return Refused(_("That line is not UTF-8 text, so nothing was done: type it again."))


def too_long() -> Refused:
    return Refused(_("That line is longer than {count} bytes, so nothing was done: commands are short.").format(
        count=MAX_LINE_BYTES))


def decode_line(raw: bytes) -> str | Refused:
    """A line of input as text (see the module's policy), or why it cannot be taken."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return not_utf8()
    return unicodedata.normalize("NFC", text.removeprefix("\ufeff")).strip()


def read_line(stream: IO[bytes]) -> str | Refused:
    """One line of at most MAX_LINE_BYTES (a longer one is read to its end and refused);
    EOFError at the end of input."""
    raw = stream.readline(MAX_LINE_BYTES + 1)
    if not raw:
        raise EOFError
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        while (rest := stream.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
            pass
        return too_long()
    return decode_line(raw)


def without_comment(line: str) -> str:
    """A script line without its comment; '\\#' stands for a literal '#'."""
    return _COMMENT.sub("", line).replace("\\#", "#").strip()


def read_script(path: str) -> IO[bytes]:
    """A script file checked whole before the game starts: UTF-8 (with or without a byte order
    mark) or UTF-16 with its byte order mark; anything else is refused, naming the file."""
    data = read_capped(Path(path), MAX_SCRIPT_BYTES)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise FileRefused(path, _("the file starts as UTF-16 text but is not")) from None
    for number, line in enumerate(data.splitlines(), 1):
        if isinstance(decode_line(line), Refused):
            raise FileRefused(path, _("line {number} is not UTF-8 text: save the script as UTF-8").format(number=number))
    return io.BytesIO(data)


@dataclass
class ScriptSource:
    """Lines from a file or pipe, echoed so a transcript shows what was typed. Time never
    passes on its own here: a script says 'timeup' where the timer runs out."""

    stream: IO[bytes]
    echo: Callable[[str], None] = print

    def read(self, timeout: float | None) -> Typed | Refused | InputEnded:
        while True:
            try:
                line = read_line(self.stream)
            except EOFError:
                return InputEnded()
            if isinstance(line, Refused):
                return line
            line = without_comment(line)
            if line:
                self.echo(visible(f"> {shortened(line)}"))
                return Typed(line)

    def secret(self, hidden: bool) -> None:
        """A script is typed in advance: nothing to hide as it is read."""

    def listen(self, wanted: Listening | None) -> None:
        """A script has no microphone."""


def set_echo(stream: TextIO, on: bool) -> None:
    """Show or hide what is typed at a terminal (nothing happens for a pipe or file)."""
    if not stream.isatty():
        return
    attributes = termios.tcgetattr(stream.fileno())
    attributes[3] = attributes[3] | termios.ECHO if on else attributes[3] & ~termios.ECHO
    termios.tcsetattr(stream.fileno(), termios.TCSADRAIN, attributes)


def reveal(out: TextIO, title: str, lines: list[str], wait: Callable[[], object], key: str) -> None:
    """One player's secret `lines`, shown only once `key` is pressed and wiped at the next press
    (`wait` waits for it, without echo). The title's line is taken by the first secret line."""
    out.write(_("{title} Press {key} to show, and {key} again to hide.").format(title=title, key=key))
    out.flush()
    wait()
    out.write("\r\033[K" + "\n".join(lines) + "\n" + _("Press {key} to hide.").format(key=key))
    out.flush()
    wait()
    out.write("\r\033[K" + "\033[F\033[K" * len(lines))
    out.flush()


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
    What is typed is taken as typed: '#' is no comment here, so a clue may hold one. Bytes that
    are not UTF-8 are kept as they come (shown as '?') and make the line refused on Enter, as
    `decode_line` refuses a piped one.
    """

    stream: TextIO = sys.stdin
    out: TextIO = sys.stdout
    hidden: bool = False
    #: commands whose words are typed hidden (a tick while terms are secret), by name and by word
    #: without case or accents (host.session.microphone): only the command shows
    hidden_after: frozenset[str] = frozenset()
    typed: str = ""
    _decoder: codecs.IncrementalDecoder = field(default_factory=lambda: codecs.getincrementaldecoder("utf-8")("surrogateescape"))
    _escape: bool = False  # inside a key's escape sequence (arrows): ignored
    _keys_left: str = ""  # keys read after an Enter: the next lines, typed ahead
    #: a pipe whose read end wakes `read` early (news from elsewhere: a phone), as a timeout does
    wake: int | None = None

    def __post_init__(self) -> None:
        """The terminal's own echo goes off before the game prints anything, so that lines typed
        ahead while the host is still printing are never shown by the terminal."""
        set_echo(self.stream, False)
        atexit.register(set_echo, self.stream, True)

    def read(self, timeout: float | None) -> Typed | Refused | ClockWake | InputEnded:
        self.out.write((_("(typing is hidden) > ") if self.hidden else "> ") + self._shown(self.typed))
        self.out.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        with keys(self.stream):
            while True:
                taken = self._take_keys()
                if taken is not None:
                    return taken
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                watched = [self.stream.fileno(), *([self.wake] if self.wake is not None else [])]
                ready, _writable, _errors = select.select(watched, [], [], wait)
                if self.wake is not None and self.wake in ready:
                    os.read(self.wake, 4096)
                if not ready or ready == [self.wake]:
                    self.out.write("\r\033[K")  # the prompt's line is cleared for the news
                    self.out.flush()
                    return ClockWake()
                data = os.read(self.stream.fileno(), 1024)
                if not data:
                    return InputEnded()
                self._keys_left += self._decoder.decode(data)

    def _take_keys(self) -> Typed | Refused | InputEnded | None:
        """Take the keys typed so far; the whole line once Enter is pressed."""
        while self._keys_left:
            key, self._keys_left = self._keys_left[0], self._keys_left[1:]
            if self._escape:
                self._escape = not (key.isalpha() or key == "~")
            elif key == ESCAPE:
                self._escape = True
            elif key in "\r\n":
                line, self.typed = self.typed, ""
                self._echo("\n")
                raw = line.encode("utf-8", "surrogateescape")
                decoded = too_long() if len(raw) > MAX_LINE_BYTES else decode_line(raw)
                return decoded if isinstance(decoded, Refused) else Typed(decoded)
            elif key == END_OF_FILE and not self.typed:
                self._echo("\n")
                return InputEnded()
            elif key in ERASE and self.typed:
                self._retype(self.typed[:-1])
            elif key == KILL:
                self._retype("")
            elif key.isprintable() or "\udc80" <= key <= "\udcff":  # a byte that is not UTF-8
                self._retype(self.typed + key)
        return None

    def _shown(self, typed: str) -> str:
        """What the screen shows of a line being typed: nothing while typing is hidden; of a
        command whose words are secret ('tick Sabine violin'), its name and "(hidden)"."""
        if self.hidden:
            return ""
        command, space, _words = typed.partition(" ")
        if space and fold_name(command) in self.hidden_after:
            typed = _("{command} (hidden)").format(command=command)
        return "".join(char if char.isprintable() else "?" for char in typed)

    def _retype(self, typed: str) -> None:
        """The line being typed is now `typed`: the screen shows it, changing only what differs."""
        before, after = self._shown(self.typed), self._shown(typed)
        self.typed = typed
        same = next((index for index, (old, new) in enumerate(zip(before, after)) if old != new), min(len(before), len(after)))
        self._echo("\b \b" * (len(before) - same) + after[same:])

    def _echo(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.out.flush()

    def secret(self, hidden: bool) -> None:
        self.hidden = hidden  # the terminal echoes nothing itself: only `_echo` shows keys

    def hide_after(self, commands: frozenset[str]) -> None:
        self.hidden_after = commands
    def reveal(self, title: str, lines: list[str]) -> None:
        with keys(self.stream):
            reveal(self.out, title, lines, lambda: os.read(self.stream.fileno(), 16), _("a key"))

    def listen(self, wanted: Listening | None) -> None:
        """Typing only: no microphone."""
