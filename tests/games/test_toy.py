"""The base every engine shares, shown on the toy game (tests/games/toy.py): the checks made once
for all games, each refusal typed by kind with the player's message, atomic moves, replayable
random playouts, and registration of a spec."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games import registry
from games.base import (
    Action, BadArgument, Event, GameIsOver, GameState, IllegalMove, MalformedCommand, NotYourTurn, UnknownCommand,
    UnknownPlayer, Verb, WrongShape,
)
from tests.games import toy
from tests.games.playout import NO_SERVICES, check_finished_match, check_refused, random_playout


def state(target: int = 10) -> toy.ToyState:
    return toy.SPEC.build({"players": ["Ann", "Bo"], "target": target}, NO_SERVICES)


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        ("jump Ann", UnknownCommand, "'jump' is not a command here; 'help' lists them."),
        ("add", WrongShape, "Say whose move it is: add NAME AMOUNT."),
        ("add Ann", WrongShape, "Something is missing: add NAME AMOUNT."),
        ("add Ann 1 2", WrongShape, "Too many words after 'add': add NAME AMOUNT."),
        ("add Cy 1", UnknownPlayer, "There is no player called 'Cy'. Players: Ann, Bo."),
    ],
)
def test_a_malformed_line_is_refused_by_its_kind(line: str, error: type, message: str) -> None:
    with pytest.raises(error) as refused:
        state().parse(line)
    assert type(refused.value) is error and isinstance(refused.value, MalformedCommand)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (Action("jump", "Ann"), UnknownCommand, "'jump' is not a command here; 'help' lists them."),
        (Action("add", None, ("1",)), WrongShape, "Say it like this: add NAME AMOUNT."),
        (Action("add", "Ann"), WrongShape, "Say it like this: add NAME AMOUNT."),
        (Action("add", "Cy", ("1",)), UnknownPlayer, "There is no player called 'Cy'. Players: Ann, Bo."),
        (Action("add", "Ann", ("3",)), BadArgument, "Add 1 or 2, not '3'."),
        (Action("add", "Bo", ("1",)), NotYourTurn, "It is Ann's turn."),
    ],
)
def test_the_shared_checks_refuse_an_action_by_its_kind_and_change_nothing(
    action: Action, error: type, message: str
) -> None:
    check_refused(state(), action, error, message)


def test_an_illegal_move_is_no_malformed_command() -> None:
    game = state(target=1)
    game.apply(Action("add", "ann", ("1",)))  # the player's name in any case
    with pytest.raises(GameIsOver) as refused:
        game.apply(Action("add", "Bo", ("1",)))
    assert isinstance(refused.value, IllegalMove) and not isinstance(refused.value, MalformedCommand)


def test_a_moves_map_must_bind_exactly_the_verbs() -> None:
    with pytest.raises(TypeError, match="must bind exactly the verbs"):
        class Unbound(GameState):  # noqa: F841 (refused as it is defined)
            verbs = {"add": Verb("add", True, ("amount",)), "pass": Verb("pass", True)}

            def _do_add(self, player: str, amount: str) -> list[Event]:
                return []

            moves = {"add": _do_add}


@pytest.mark.parametrize("seed", range(20))
def test_random_playouts_replay_exactly(seed: int) -> None:
    match = random_playout(lambda: state(target=seed + 1), seed, fill=lambda choice, rng: "1")
    check_finished_match(match)


def test_a_spec_fills_in_the_defaults_of_an_older_save() -> None:
    assert toy.SPEC.build({"players": ["Ann", "Bo"]}, NO_SERVICES).target == 10


def test_a_registered_spec_is_a_game_and_a_name_is_taken_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_registered", dict(registry.registered()))
    assert "toy" not in registry.registered()
    assert {"stories", "storytelling", "dixit"} <= set(registry.registered())
    registry.register(toy.SPEC)
    assert registry.registered()["toy"] is toy.SPEC
    with pytest.raises(ValueError, match="Two games are called 'toy'"):
        registry.register(replace(toy.SPEC, title="Another"))
