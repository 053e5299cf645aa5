"""A fourth game needs one games/ module and one host adapter, nothing else: the toy game
(tests/games/toy.py) and the small adapter below, registered by the test only, are played
through the real Session, store and voice control, and through the real command line. A game
that listens and times is its adapter too: the toy's adapter gives the session a listener (the
players count aloud) and a turn timer (it answers 'time'), with no change to host/session/."""
from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.base import Action, GameSpec, GameState, Match, Settings
from host.adapters import base as adapters
from host.adapters.base import BasicAdapter, adapter_for
from host.adapters.listening import Announce, Attention, BasicListener, Hearing, Listener, Play, Reply, Response
from host.cli.catalog import make
from host.cli.main import main
from host.session.events import ClockWake, Heard, InputEnded, InputEvent, Typed
from host.session.inputs import Listening, ScriptSource
from host.session.session import Session, SessionConfig, TextOutput
from host.speech.recognizer import Hypothesis
from host.storage.store import GameStore
from host.voice.control import HostRequest, VoiceControl
from host.voice.phrases import Names, Phrase, each
from nlp.commands import number_words
from nlp.ticks import HeardWord
from tests.games import toy


#: the numbers a player may count aloud
SAID = {"one": "1", "two": "2"}
#: seconds a player has for a turn
TURN_SECONDS = 20.0


class CountingAloud(BasicListener):
    """While the game is on, the active player says "one" or "two" to add it (free speech)."""

    def attention(self, state: GameState) -> Attention | None:
        return None if state.is_over() else Attention(story=False)

    def hear(self, state: GameState, heard: Heard) -> Iterator[Response]:
        numbers = [SAID[word.text] for word in heard.hypothesis.words if word.text in SAID]
        if not heard.hypothesis.final or state.is_over():
            return
        if len(numbers) != 1:
            yield Reply("Say one or two.")
            return
        yield Play(Action("add", state.waiting_for()[0], (numbers[0],)))


@dataclass
class TurnTimer(BasicListener):
    """Each turn has TURN_SECONDS: a warning at 5 left, then 1 is added for the player. `now`
    is the clock read (a test's own, so that no test waits)."""

    now: Callable[[], float]
    #: where the game stands (a move changes it), and whose turn it is
    turn: tuple[str, str] | None = None
    deadline: float = 0.0
    warned: bool = field(default=False)

    def follow(self, state: GameState) -> None:
        turn = None if state.is_over() else (state.status(), state.waiting_for()[0])
        if turn != self.turn:
            self.turn, self.deadline, self.warned = turn, self.now() + TURN_SECONDS, False

    def left(self) -> float | None:
        return None if self.turn is None else max(0.0, self.deadline - self.now())

    def next_wake(self) -> float | None:
        left = self.left()
        return None if left is None else left if self.warned or left <= 5 else left - 5

    def wake(self, state: GameState) -> Iterator[Response]:
        left = self.left()
        if left is None or self.turn is None or left > 5:
            return
        if left > 0 and not self.warned:
            self.warned = True
            yield Announce((f"{self.turn[1]}, 5 seconds left.",), cue="warning")
        elif left == 0:
            yield Announce((f"Time, {self.turn[1]}: 1 is added for you.",))
            yield Play(Action("add", self.turn[1], ("1",)), heard=False)

    def answer(self, state: GameState, request: HostRequest) -> Iterator[Response] | None:
        left = self.left()
        if request.name != "time":
            return None
        return iter((Reply("No turn is timed." if left is None or self.turn is None else
                           f"{left:.0f} seconds left for {self.turn[1]}."),))


class ToyAdapter(BasicAdapter):
    """All the host needs to know of the toy game: how its moves are said; with speech, a
    player counts aloud, and each turn is timed ('time' tells what is left)."""

    commands = frozenset({"time"})

    def __init__(self, spec: GameSpec, now: Callable[[], float] = time.monotonic) -> None:
        super().__init__(spec)
        self.now = now

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        name, amount = names(action.player or ""), number_words(int(action.args[0]))
        yield from each((f"{name} adds {amount}",), str(action))

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        timer = TurnTimer(self.now)
        return (CountingAloud(), timer) if hearing.speech else (timer,)


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game and its adapter registered for one test (the registries as they were after it)."""
    monkeypatch.setattr(registry, "_registered", dict(registry.registered()))
    monkeypatch.setattr(adapters, "_registered", dict(adapters.adapters()))
    registry.register(toy.SPEC)
    adapters.register_adapter(ToyAdapter(toy.SPEC))


def toy_session(store: GameStore, settings: Settings, output: TextOutput, **parts: Any) -> tuple[Session, int]:
    """A real session of a new toy game saved in `store`, and the game's number; `parts`: the
    session's optional parts (listeners, voice, adapter)."""
    game_id = store.create("toy", settings)
    config = SessionConfig(store=store, game_id=game_id, match=Match(make("toy", settings)), output=output, **parts)
    return Session(config), game_id


def test_the_toy_game_plays_through_the_real_session(toy_game: None, tmp_path: Path) -> None:
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 3}
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        session, game_id = toy_session(store, settings, TextOutput(write=printed.append))
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
    assert control.hear(state, heard) == [Action("add", "Ann", ("2",))]


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
    assert out.startswith("Toy count, game 1. Players: Ann and Bo.")
    assert "Bo reaches 3 and wins." in out
    assert main(["games"]) == 0
    assert capfd.readouterr().out.startswith("1: Toy count with Ann and Bo; 2 moves, over,")
    with pytest.raises(SystemExit):  # a game without a rules text yet: refused in one line
        main(["rules", "toy"])
    assert "invalid choice: 'toy'" in capfd.readouterr().err


class Waited:
    """Typed lines and heard utterances in order; a ClockWake comes after waiting as long as the
    session asked, on the test's clock (nothing really waits)."""

    def __init__(self, items: list[str | InputEvent], clock: list[float]) -> None:
        self.items, self.clock = items, clock
        self.listened: list[Listening | None] = []

    def read(self, timeout: float | None) -> InputEvent:
        if not self.items:
            return InputEnded()
        item = self.items.pop(0)
        if isinstance(item, ClockWake):
            assert timeout is not None, "the session waits for nothing"
            self.clock[0] += timeout
        return Typed(item) if isinstance(item, str) else item

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        self.listened.append(wanted)


def _heard(text: str) -> Heard:
    return Heard(Hypothesis(tuple(HeardWord(word) for word in text.split()), True, loose=text), 0.0)


def test_the_toy_games_own_listener_and_timer_come_from_its_adapter(toy_game: None, tmp_path: Path) -> None:
    """Counting aloud and the turn timer, through the real session, store and voice control."""
    clock = [100.0]
    adapter = ToyAdapter(toy.SPEC, now=lambda: clock[0])
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 5}
    printed: list[str] = []
    output = TextOutput(write=printed.append)
    source = Waited([_heard("two"), "time", ClockWake(), ClockWake(), _heard("hmm"), _heard("host time left"),
                     _heard("one")], clock)
    with GameStore(tmp_path / "games.sqlite3") as store:
        voice = VoiceControl(Names({}), output.note, adapter)
        session, game_id = toy_session(store, settings, output, listeners=adapter.listeners(settings, Hearing(speech=True)),
                                       voice=voice, adapter=adapter)
        session.run(source)
        assert [str(action) for action in store.actions(game_id)] == ["add Ann 2", "add Bo 1", "add Ann 1"]
    assert source.listened[0] == Listening(None)  # free speech: the players count aloud
    assert printed[printed.index("Heard: two") + 1] == "The count is 2. Bo, add 1 or 2."
    assert "20 seconds left for Bo." in printed
    assert printed[printed.index("20 seconds left for Bo.") + 1:][:3] == [
        "Bo, 5 seconds left.", "Time, Bo: 1 is added for you.", "The count is 3. Ann, add 1 or 2.",
    ]
    assert printed[printed.index("Heard: hmm") + 1] == "Say one or two."
    assert "20 seconds left for Ann." in printed  # "host, time left": a spoken command, not a count
    assert printed[-1] == "Input ended. Game 1 is saved: 'storyhost resume 1' continues it."


def test_without_speech_the_toy_game_is_timed_and_typed(toy_game: None, tmp_path: Path) -> None:
    clock = [0.0]
    adapter = ToyAdapter(toy.SPEC, now=lambda: clock[0])
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 3}
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        session, game_id = toy_session(store, settings, TextOutput(write=printed.append),
                                       listeners=adapter.listeners(settings, Hearing()), adapter=adapter)
        session.run(Waited(["time", ClockWake(), ClockWake(), "add Bo 2"], clock))
        assert [str(action) for action in store.actions(game_id)] == ["add Ann 1", "add Bo 2"]
    assert printed[:3] == ["The count is 0 of 3. Ann, add 1 or 2.", "20 seconds left for Ann.", "Ann, 5 seconds left."]
    assert printed[-2:] == ["Bo reaches 3 and wins.", f"Game {game_id} is over and saved."]
