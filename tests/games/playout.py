"""Random playouts for any engine: legal moves only, then checks that hold for every game."""
from __future__ import annotations

import random
from collections.abc import Callable

from games.base import Action, Choice, GameState, Match, TermRules

#: fills the placeholder of a free-text choice (a term, a clue) for a random game
FreeText = Callable[[Choice, random.Random], str]


class NoServices:
    """The services of a host for a game that asks for none (`games.base.Services`)."""

    def term_rules(self) -> TermRules:
        raise AssertionError("this game asks for no term rules")


NO_SERVICES = NoServices()


def random_playout(make: Callable[[], GameState], seed: int, fill: FreeText, max_moves: int = 5000) -> Match:
    """Play random legal actions until the game ends; returns the match with its log."""
    rng = random.Random(seed)
    match = Match(make)
    for _ in range(max_moves):
        if match.state.is_over():
            return match
        random_move(match.state, rng, fill, match.apply)
    raise AssertionError(f"game not over after {max_moves} moves")


def random_move(state: GameState, rng: random.Random, fill: FreeText, apply: Callable[[Action], object]) -> None:
    """Apply (through `apply`) one random legal action, its free text filled in."""
    choices = state.legal_actions()
    assert choices, f"no legal action but the game is not over: {state.status()}"
    choice = rng.choice(choices)
    action = choice.action
    if choice.free_text:
        action = Action(action.verb, action.player, (*action.args[:-1], fill(choice, rng)))
    try:
        apply(action)
    except ValueError:
        if not choice.free_text:  # a free text may be refused; a listed choice must be legal
            raise


def snapshot(state: GameState) -> tuple:
    """Everything observable about a state, for comparing a replay with the original."""
    return (
        state.view(None),
        [state.view(player) for player in state.players],
        state.scores(),
        state.is_over(),
        state.outcome(),
        [str(choice.action) for choice in state.legal_actions()],
    )


def check_finished_match(match: Match) -> None:
    """The invariants of every finished game: replay is exact, nothing left to do."""
    state = match.state
    assert state.is_over()
    assert state.legal_actions() == []
    assert state.waiting_for() == ()
    assert state.outcome() is not None
    assert snapshot(Match(match.make, list(match.log)).state) == snapshot(state)


def check_refused(state: GameState, action: Action, error: type[Exception], message: str) -> None:
    """`action` is refused by exactly `error`, with the player's `message`, and changes nothing."""
    before = snapshot(state)
    try:
        state.apply(action)
    except error as refused:
        assert type(refused) is error, type(refused)
        assert str(refused) == message
    else:
        raise AssertionError(f"{action} was not refused")
    assert snapshot(state) == before
