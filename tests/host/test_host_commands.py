"""The host commands' table (host.commands): a command added there, with its handler, is typed,
listed in help, said and heard, with nothing else to change; the table, the handlers and the
adapters are checked against each other."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from games.base import Match
from host import commands
from host.adapters import base as adapters
from host.adapters.base import adapter_for
from host.cli.catalog import make
from host.commands import HostCommand, check, check_game, check_handled
from host.session import handlers
from host.session.inputs import ScriptSource
from host.session.handlers import HANDLERS
from host.session.session import Session, TextOutput
from host.speech.recognizer import Hypothesis
from host.storage.store import GameStore
from host.voice.control import HostRequest, VoiceControl
from host.voice.phrases import Names
from nlp.ticks import HeardWord
from tests.host.test_toy_game import toy_game, toy_session  # noqa: F401 (toy_game: a fixture)

#: a command added for the test
ECHO = HostCommand("echo TEXT", "say TEXT back", said=((("echo that", "say it back"), "echo that", False),),
                   typed=("parrot",))


def _echo(session: Session, rest: str) -> None:
    session.out.note(f"Echo: {rest}.")


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "HOST_COMMANDS", (*commands.HOST_COMMANDS, ECHO))
    monkeypatch.setitem(HANDLERS, "echo", _echo)


def test_a_command_added_to_the_table_is_typed_listed_said_and_heard(echo: None, toy_game: None, tmp_path: Path) -> None:
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 3}
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        session, _ = toy_session(store, settings, TextOutput(write=printed.append))
        session.run(ScriptSource(io.BytesIO(b"help\nverbosity brief\nhelp\nverbosity normal\necho hello\nparrot hi\n")))
    assert "  echo TEXT: say TEXT back" in printed
    assert "Also: help, repeat, score, turn, undo, rate, verbosity, quit, echo." in printed
    assert ["Echo: hello.", "Echo: hi."] == [line for line in printed if line.startswith("Echo")]

    said: list[str] = []
    control = VoiceControl(Names({}), said.append, adapter_for("toy"))
    state = Match(make("toy", settings)).state
    assert {"echo that", "say it back"} <= set(control.grammar(state) or [])
    heard = Hypothesis(tuple(HeardWord(word) for word in "say it back".split()), True, loose="say it back")
    assert control.hear(state, heard) == [HostRequest("echo", "that")]


def test_every_command_has_one_handler_and_every_handler_a_command(echo: None) -> None:
    check_handled(HANDLERS)
    del HANDLERS["echo"]
    with pytest.raises(ValueError, match=r"without a handler: \['echo'\]"):
        check_handled(HANDLERS)
    with pytest.raises(ValueError, match="Two handlers"):
        handlers.handles("help")(_echo)


def test_the_table_is_checked() -> None:
    with pytest.raises(ValueError, match="a lowercase name of its own"):
        check((*commands.HOST_COMMANDS, HostCommand("help", "again")))
    with pytest.raises(ValueError, match="'repeat' is said or typed for both 'repeat' and 'echo'"):
        check((*commands.HOST_COMMANDS, HostCommand("echo", "back", said=((("repeat",), "echo", False),))))
    with pytest.raises(ValueError, match="stand for 'quit', another command"):
        check((HostCommand("echo", "back", said=((("bye",), "quit", True),)),))


def test_an_adapter_is_checked_against_the_table() -> None:
    for game, adapter in adapters.adapters().items():
        check_game(game, adapter.commands, adapter.host_phrases)
    with pytest.raises(ValueError, match="offers the host command 'quit', which is no host command a game may offer"):
        check_game("toy", frozenset({"quit"}), ())
    with pytest.raises(ValueError, match="say 'grid row 1', a host command toy does not offer"):
        check_game("toy", frozenset(), ((("grid row one",), "grid row 1", False),))
