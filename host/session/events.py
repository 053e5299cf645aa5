"""What reaches the session: one small type per kind of input, as wyoming passes typed events.

Every input source (`host.session.inputs.LineSource`: a script, a terminal, the live round's
keyboard and microphone, the demo's recording) yields these, and `Session.run` handles them in
one `match`. Heard speech is `host.speech.hearing.Heard`, the hypothesis the recognizer gave and
when in the audio it was known.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from host.speech.hearing import Heard


@dataclass(frozen=True)
class Typed:
    """A command line, typed or read from a script (decoded, not yet understood)."""

    line: str


@dataclass(frozen=True)
class PhoneCommand:
    """A move sent from one player's own phone, as its page offers it: `seat` is the player whose
    private link sent it (never a name read from the message), `verb` and `value` what the page
    sent (a button's value, or the text typed: a term, a clue). It is never read as a typed line:
    the session takes the action that `seat`'s page offers for them, and replies to that phone."""

    seat: str
    verb: str
    value: str = ""


@dataclass(frozen=True)
class Joined:
    """A player's phone took their seat (the table hears it, so that a seat taken by someone else
    is noticed)."""

    player: str


@dataclass(frozen=True)
class Refused:
    """An input line that cannot be taken at all; `message` says why, in one line."""

    message: str


@dataclass(frozen=True)
class MicrophoneGone:
    """The microphone stopped delivering sound (the session pauses the timer)."""

    reason: str


@dataclass(frozen=True)
class MicrophoneBack:
    """The microphone delivers sound again (the session restarts the timer)."""


@dataclass(frozen=True)
class ClockWake:
    """The time the session asked to wait passed with no input: the story clock's next moment."""


@dataclass(frozen=True)
class InputEnded:
    """No more input will come (end of the script, Ctrl-D, the keyboard closed)."""


InputEvent = Union[Typed, PhoneCommand, Joined, Refused, Heard, MicrophoneGone, MicrophoneBack, ClockWake, InputEnded]

__all__ = [
    "ClockWake", "Heard", "InputEnded", "InputEvent", "Joined", "MicrophoneBack", "MicrophoneGone", "PhoneCommand", "Refused", "Typed",
]
