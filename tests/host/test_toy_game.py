"""A fourth game needs one games/ module and one host adapter, nothing else: the toy game
(tests/games/toy.py) and the small adapter below, registered by the test only, are played
through the real Session, store and voice control, and through the real command line."""
from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import registry
from games.base import Action, Match
from host.adapters import base as adapters
from host.adapters.base import BasicAdapter, adapter_for
from host.cli.catalog import make
from host.cli.main import main
from host.session.inputs import ScriptSource
from host.session.session import Session, TextOutput
from host.speech.recognizer import Hypothesis
from host.storage.store import GameStore
from host.voice.control import VoiceControl
from host.voice.phrases import Names, Phrase, each
from nlp.commands import number_words
from nlp.ticks import HeardWord
from tests.games import toy


class ToyAdapter(BasicAdapter):
    """All the host needs to know of the toy game: how its moves are said."""

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        name, amount = names(action.player or ""), number_words(int(action.args[0]))
        yield from each((f"{name} adds {amount}",), str(action))


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game and its adapter registered for one test (the registries as they were after it)."""
    monkeypatch.setattr(registry, "_registered", dict(registry.registered()))
    monkeypatch.setattr(adapters, "_registered", dict(adapters.adapters()))
    registry.register(toy.SPEC)
    adapters.register_adapter(ToyAdapter(toy.SPEC))


def test_the_toy_game_plays_through_the_real_session(toy_game: None, tmp_path: Path) -> None:
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 3}
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("toy", settings)
        session = Session(store, game_id, Match(make("toy", settings)), TextOutput(write=printed.append))
        script = b"help\nadd Bo 1\nadd Ann 7\nadd Ann 2\nBo 1\n"
        session.run(ScriptSource(io.BytesIO(script), echo=printed.append))
        assert [str(action) for action in store.actions(game_id)] == ["add Ann 2", "add Bo 1"]
    assert "  add NAME AMOUNT: Add 1 or 2 to the count." in printed
    assert "  private NAME: NAME's secrets, for NAME's eyes only" not in printed  # not a command of this game
    assert "It is Ann's turn." in printed
    assert any(line.startswith("Add 1 or 2, not '7'.") for line in printed)
    assert printed[-2:] == ["Bo reaches 3 and wins.", f"Game {game_id} is over and saved."]


def test_the_toy_game_is_heard_by_voice(toy_game: None) -> None:
    said: list[str] = []
    control = VoiceControl(Names({}), said.append, adapter_for("toy"))
    state = toy.SPEC.build({"players": ["Ann", "Bo"], "target": 3}, adapters.SERVICES)
    assert "ann adds two" in (control.grammar(state) or [])
    heard = Hypothesis(tuple(HeardWord(word) for word in "ann adds two".split()), True, loose="ann adds two")
    assert control.hear(state, heard) == ["add Ann 2"]


def test_the_toy_game_plays_through_the_command_line(
    toy_game: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STORYHOST_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path / "config"))
    script = tmp_path / "toy.script"
    script.write_text("add Ann 1\nadd Bo 2\n", encoding="utf-8")
    assert main(["play", "toy", "--players", "Ann", "Bo", "--target", "99", "--script", str(script)]) == 2
    assert capfd.readouterr().err == "--target must be a whole number from 1 to 50, not 99.\n"
    assert main(["play", "toy", "--players", "Ann", "Bo", "--target", "3", "--script", str(script)]) == 0
    out = capfd.readouterr().out
    assert out.startswith("Toy count, game 1. Players: Ann, Bo.")
    assert "Bo reaches 3 and wins." in out
    assert main(["games"]) == 0
    assert capfd.readouterr().out.startswith("1: Toy count with Ann and Bo; 2 moves, over,")
    with pytest.raises(SystemExit):  # a game without a rules text yet: refused in one line
        main(["rules", "toy"])
    assert "invalid choice: 'toy'" in capfd.readouterr().err
