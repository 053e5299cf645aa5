"""Dixit at the table: played with the physical cards (no deck file), the phrases of its moves."""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from games.base import Action, GameState, SetupError, Settings
from games.dixit import SPEC
from host.adapters.base import BasicAdapter, GameAdapter, PhoneMove
from host.voice.phrases import SLOT, Names, Phrase, each
from nlp.commands import number_words


class DixitAdapter(BasicAdapter):
    commands = frozenset({"private"})
    phone_moves: tuple[PhoneMove, ...] = (
        PhoneMove("vote", "The number of the card you vote for", "Vote", number=True),
        PhoneMove("card", "The number of your card, storyteller", "Enter my card", number=True, storyteller=True),
    )

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        if options.deck is not None:
            raise SetupError(
                "--deck is for Stories! cards or a Storytelling tale: Dixit is played with the cards on the table "
                "(--cards N says how many)."
            )
        return {}

    def variant(self, settings: Settings) -> str:
        return " (Contando scoring)" if settings.get("contando") else ""

    def table_details(self, state: GameState) -> list[str]:
        """The turn, the clue, who voted, and each card on the table as far as it is known."""
        view = state.view(None)
        lines = [f"Turn {view['turn']}, phase: {view['phase']}; storyteller {view['storyteller'] or 'not chosen yet'}."]
        if view["clue"]:
            lines.append(f"The clue: {view['clue']}")
        if view["voted"]:
            lines.append(f"Voted: {', '.join(view['voted'])}.")
        for position in view["positions"]:
            owner = f", {position['owner']}'s" if position["owner"] else ""
            votes = f", votes from {', '.join(position['votes'])}" if position["votes"] else ""
            lines.append(f"Card {position['number']}{owner}{votes}.")
        return lines

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        if action.verb == "storyteller":
            name = names(action.player or "")
            yield from each((f"{name} is the storyteller", f"storyteller {name}"), str(action))
        elif action.verb == "clue":  # the only move then: whatever is said is the clue
            yield from each(("the clue is",), "clue", dictation=f"clue {SLOT}")
        elif action.verb == "shown":
            yield from each(("shown", "cards shown", "the cards are laid out"), "shown")
        elif action.verb == "vote":
            name, number = names(action.player or ""), number_words(int(action.args[0]))
            yield from each(
                (f"{name} voted {number}", f"{name} votes {number}", f"{name} voted for {number}"), str(action)
            )
        elif action.verb == "card":
            number = number_words(int(action.args[0]))
            yield from each(
                (f"the storyteller card is {number}", f"storyteller card {number}"), str(action), confirm=True
            )
        elif action.verb == "owner":
            number, name = number_words(int(action.args[0])), names(action.args[1])
            yield from each((f"card {number} is {name}", f"card {number} belongs to {name}"), str(action))


ADAPTER: GameAdapter = DixitAdapter(SPEC)
