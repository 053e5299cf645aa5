"""A toy game used only in tests, to show what a new game needs: this one module (a state and
its SPEC) and one host adapter (tests/host/test_toy_game.py), nothing else. Players take turns
adding 1 or 2 to a count; whoever reaches the target wins."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from games.base import (
    Action, BadArgument, Choice, Event, GameSpec, GameState, GameView, NotYourTurn, Option, Outcome, Services, Settings, Verb,
    check_player_names,
)

STEPS = ("1", "2")
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class Phase(str, Enum):
    COUNT = "count"
    OVER = "over"


@dataclass(frozen=True)
class ToyView(GameView):
    phase: Phase
    count: int
    target: int


class ToyState(GameState):
    game = "toy"
    verbs = {"add": Verb("add", True, ("amount",), "Add 1 or 2 to the count.")}

    def __init__(self, players: Sequence[str], target: int) -> None:
        self.players = check_player_names(players, MIN_PLAYERS, MAX_PLAYERS)
        self.target, self.count, self.seat, self.phase = target, 0, 0, Phase.COUNT
        self.winner: str | None = None

    @property
    def active(self) -> str:
        return self.players[self.seat]

    def _do_add(self, player: str, amount: str) -> list[Event]:
        if amount not in STEPS:
            raise BadArgument(f"Add 1 or 2, not {amount!r}.")
        if player != self.active:
            raise NotYourTurn(f"It is {self.active}'s turn.")
        self.count += int(amount)
        if self.count >= self.target:
            self.phase, self.winner = Phase.OVER, player
            return [Event(f"{player} reaches {self.target} and wins.")]
        self.seat = (self.seat + 1) % len(self.players)
        return [Event(f"The count is {self.count}. {self.active}, add 1 or 2.")]

    def legal_actions(self) -> list[Choice]:
        if self.is_over():
            return []
        return [Choice(Action("add", self.active, (step,)), f"{self.active} adds {step}") for step in STEPS]

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.is_over() else (self.active,)

    def status(self) -> str:
        if self.winner is not None:
            return f"{self.winner} reached {self.target} and won."
        return f"The count is {self.count} of {self.target}. {self.active}, add 1 or 2."

    def scores(self) -> dict[str, int]:
        return {player: int(player == self.winner) for player in self.players}

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        return None if self.winner is None else Outcome((self.winner,), f"{self.winner} wins.")

    def view(self, player: str | None) -> ToyView:
        return ToyView(self.phase, self.count, self.target)

    moves = {"add": _do_add}


def _make(settings: Settings, services: Services) -> ToyState:
    return ToyState(settings["players"], settings["target"])


SPEC = GameSpec(
    "toy", "Toy count", MIN_PLAYERS, MAX_PLAYERS,
    (Option("target", 10, "the count to reach", low=1, high=50),),
    _make,
)
