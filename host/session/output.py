"""The shared channel (`TextOutput`: every line printed, and spoken with a speaker) and the
players' own screens beside it (`PrivateChannel`: their phones)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from games.language import N_, _
from host.audio.speaker import Speaker
from host.session.screen import visible

if TYPE_CHECKING:
    from host.session.session import Session

#: the answer to a secret move typed at the shared screen, whether it was legal or not (said as `_(NOTED)`)
NOTED = N_("Noted.")


class PrivateChannel(Protocol):
    """Each player's own screen (a phone), beside the shared channel."""

    def has(self, player: str) -> bool:
        """Whether `player` has a screen of their own."""

    def tell(self, player: str, lines: list[str]) -> None:
        """Show `lines` to `player` alone."""

    def refresh(self, session: Session) -> None:
        """The game may have changed: show every screen the game as it is now."""

    def renew(self, player: str) -> str:
        """A new private link for `player` (the old one stops working); where to join again (the
        address and the room code)."""

    def invite(self, output: TextOutput) -> None:
        """Tell the table how phones join: the address, the room code, the QR code."""


@dataclass
class TextOutput:
    """The shared channel: announcements every player may hear, printed as plain lines and,
    with a speaker, spoken. `quiet` (while a story is told) prints without speaking, so the
    host neither talks over the storyteller nor mutes the microphone.

    Private events are never printed here; a player sees their secrets with 'private NAME'.
    """

    write: Callable[[str], None] = print
    speaker: Speaker | None = None
    quiet: bool = False
    #: printed (not spoken) before each line: when in the story a tick was heard
    stamp: str = ""
    last: list[str] = field(default_factory=list)
    #: told every shared line too (the table page)
    also: Callable[[str], None] | None = None
    #: the last lines said are to be heard whole (the cards laid out): news waits for them
    unbroken: bool = False
    #: the last line spoken was "Noted.": the next "Noted." is only printed
    _noted: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        printer = self.write
        self.write = lambda line: printer(visible(line))  # every line printed, whoever prints it

    def _say(self, line: str, interrupt: bool = False) -> None:
        """Speak `line` (unless quiet); "Noted." after "Noted." is not said again: a table
        writing its terms hears one."""
        if self.speaker is None or self.quiet:
            return
        if line == _(NOTED) and self._noted:
            return
        self._noted = line == _(NOTED)
        self.speaker.say(visible(line), interrupt=interrupt)

    def shared(self, lines: list[str], whole: bool = False) -> None:
        """Print and say `lines`. Like a screen reader, new announcements cut off what is left
        of older ones: the table hears the game as it is now ('repeat' says the last again); but
        lines to be heard `whole` (the cards laid out, read aloud) are not cut off: what comes
        while they are still being said waits for them."""
        waits = self.unbroken and self.speaker is not None and not self.speaker.wait(0)
        if lines:
            self.last = lines
            self.unbroken = whole or waits
        for index, line in enumerate(lines):
            self.write(self.stamp + line)
            if self.also is not None:
                self.also(line)
            self._say(line, interrupt=index == 0 and not waits)

    def earcon(self, name: str) -> None:
        if self.speaker is not None:
            self.speaker.earcon(name)

    def note(self, line: str, spoken: str | None = None) -> None:
        """A reply to one command (an error, a help text): printed and said (`spoken` instead of the
        line, such as an address read out), not kept for 'repeat'."""
        self.write(line)
        self._say(spoken or line)

