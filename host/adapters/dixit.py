"""Dixit at the table: played with the physical cards (no deck file), the phrases of its moves,
each player's turn on their phone and the table page (the votes only once all are in)."""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from games.base import Action, GameState, SetupError, Settings, join_names
from games.dixit import SPEC, Phase, count_cards
from host.adapters.base import BasicAdapter, GameAdapter, waiting
from host.adapters.views import Ask, Button, Meter, PhoneTurn, TableCard, TableView
from host.voice.phrases import SLOT, Names, Phrase, each
from nlp.commands import number_words


class DixitAdapter(BasicAdapter):
    commands = frozenset({"private"})
    phone_verbs = frozenset({"storyteller", "clue", "shown", "vote", "card", "owner"})

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        if options.deck is not None:
            raise SetupError(
                "--deck is for Stories! cards or a Storytelling tale: Dixit is played with the cards on the table "
                "(--cards N says how many)."
            )
        return {}

    def variant(self, settings: Settings) -> str:
        every = "every owner asked" if settings.get("owners") == "every" else ""
        named = [name for name in ("Contando scoring" if settings.get("contando") else "", every) if name]
        return f" ({', '.join(named)})" if named else ""

    def actor(self, state: GameState, action: Action) -> str | None:
        return _actor(state, action)

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """The storyteller gives the clue, says the cards are shown and which is theirs; every
        other player votes (and may vote again until all have) and says which card they gave
        when the score needs it; on the first turn, whoever found a sentence first says so."""
        if state.is_over():
            return PhoneTurn(state.status())
        view = state.view(player)
        teller, phase = view["storyteller"], Phase(view["phase"])
        yours = tuple(state.secrets(player))
        if phase == Phase.STORYTELLER:
            claim = Ask("storyteller", "The first to find a sentence is the storyteller",
                        (Button("", "I have a sentence: I am the storyteller", Action("storyteller", player)),))
            return PhoneTurn("Look at your cards and find a sentence for one of them. The first to find one is "
                             "the storyteller.", (claim,))
        if player == teller:
            return _telling(state, view)
        if phase == Phase.CARDS:
            return PhoneTurn(f"Give {teller} {count_cards(view['cards_given'])} from your hand that fits the clue, "
                             f"face down. {teller} lays out the cards.", yours=yours)
        if phase == Phase.VOTE:
            mine = view["my_vote"]
            buttons = _numbered(state, "vote", player, f"Vote for card", mine)
            if mine is None:
                now = f"Vote for the card you think is {teller}'s: press its number."
            else:
                now = f"You voted for card {mine}. You may change your vote until everyone has voted. {waiting(state, player)}"
            return PhoneTurn(now, (Ask("vote", "Vote for a card", buttons, large=True),), yours)
        if phase == Phase.OWNERS:
            buttons = _numbered(state, "owner", player, "I gave card")
            if buttons:
                cards = join_names([str(number) for number in view["owners_missing"]], "or")
                return PhoneTurn(f"Did you give card {cards}? Press the number of the card you gave. If you gave "
                                 "none of these, there is nothing to do.",
                                 (Ask("owner", "The card you gave", buttons, large=True),), yours)
        return PhoneTurn(_waiting_for(state, view), yours=yours)

    def table(self, state: GameState) -> TableView:
        """The turn, the clue, who has voted (never for what), and once all votes are in each
        card with its votes and, once known, whose it is."""
        view = state.view(None)
        teller, phase = view["storyteller"], Phase(view["phase"])
        last = " This is the last turn." if view["last_turn"] and phase != Phase.OVER else ""
        if phase == Phase.OVER:
            heading = "Dixit: the game is over"
        else:
            heading = f"Turn {view['turn']}: {teller} is the storyteller" if teller else "Dixit: who will be the storyteller?"
        pile = count_cards(view["draw_pile"])
        lines = [f"{pile[:1].upper()}{pile[1:]} in the draw pile.{last}"]
        report = state.score_report()[1:]
        if phase in (Phase.STORYTELLER, Phase.CLUE, Phase.OVER) and report:  # how the turn just scored
            lines.append(report[0])
        meters: tuple[Meter, ...] = ()
        if phase == Phase.VOTE:
            voters = [player for player in view["players"] if player != teller]
            meters = (Meter("Voted", len(view["voted"]), len(voters), "players"),)
            if view["voted"]:
                lines.insert(0, f"Voted so far: {join_names(view['voted'])}.")
        cards = tuple(
            TableCard(position["number"], _owner(position["owner"], teller), tuple(position["votes"]))
            for position in view["positions"] if position["votes"] is not None
        )
        return TableView(
            heading, _table_now(state, view), view["clue"] or "", "The clue" if view["clue"] else "",
            meters=meters, meters_label="The vote" if meters else "", cards=cards, lines=tuple(lines),
        )

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


def _actor(state: GameState, action: Action) -> str | None:
    """A card's owner says it is theirs; the clue, 'shown' and the card are the storyteller's."""
    if action.verb == "owner":
        return action.args[1]
    return action.player or state.view(None)["storyteller"]


def _numbered(state: GameState, verb: str, player: str, name: str, chosen: int | None = None) -> tuple[Button, ...]:
    """A numbered button for each card `player` may name now with `verb` (their vote, the card
    they gave, the storyteller's card), from the moves the rules allow."""
    return tuple(
        Button(choice.action.args[0], choice.action.args[0], choice.action, name=f"{name} {choice.action.args[0]}",
               chosen=str(chosen) == choice.action.args[0])
        for choice in state.legal_actions()
        if choice.action.verb == verb and _actor(state, choice.action) == player
    )


def _telling(state: GameState, view: dict[str, Any]) -> PhoneTurn:
    """The storyteller's turn: the clue, then 'shown', then which card is theirs."""
    teller, phase = view["storyteller"], Phase(view["phase"])
    if phase == Phase.CLUE:
        clue = Ask("clue", "Your clue (a word, a sentence, or what you sang or mimed)",
                   (Button("", "Give the clue", Action("clue", None, ("",))),), field=True)
        return PhoneTurn("You are the storyteller: choose one of your cards, say a clue for it aloud, and write "
                         "the clue here.", (clue,))
    if phase == Phase.CARDS:
        return PhoneTurn(f"Take the {count_cards(view['cards_given'] * (len(view['players']) - 1))} the others give "
                         f"you, shuffle them with yours and lay the {view['cards_shown']} cards out face up. Then "
                         "press Cards shown.", (Ask("shown", "When the cards are laid out",
                                                    (Button("", "Cards shown", Action("shown")),)),))
    if phase == Phase.REVEAL:
        return PhoneTurn("All votes are in. Which card is yours? Press its number.",
                         (Ask("card", "Your card", _numbered(state, "card", teller, "My card is"), large=True),))
    return PhoneTurn(_waiting_for(state, view))


def _waiting_for(state: GameState, view: dict[str, Any]) -> str:
    """What the game waits for, to a player who has nothing to do now."""
    teller, phase = view["storyteller"], Phase(view["phase"])
    if phase == Phase.CLUE:
        return f"Waiting for {teller}'s clue."
    if phase == Phase.VOTE:
        return f"Waiting for the votes of {join_names(list(state.waiting_for()))}."
    if phase == Phase.REVEAL:
        return f"All votes are in. Waiting for {teller} to say which card is theirs."
    if phase == Phase.OWNERS:
        return f"Waiting to hear who gave {_cards_missing(view)}."
    return state.status()


def _cards_missing(view: dict[str, Any]) -> str:
    """'card 4', 'cards 1 and 3': the cards whose owners the score still needs."""
    missing = view["owners_missing"]
    return f"card{'s' if len(missing) > 1 else ''} {join_names([str(number) for number in missing])}"


def _owner(owner: str | None, teller: str) -> str:
    if owner is None:
        return ""
    return f"{owner}'s, the storyteller's card" if owner == teller else f"{owner}'s"


def _table_now(state: GameState, view: dict[str, Any]) -> str:
    """The phase in plain words, for the table."""
    teller, phase = view["storyteller"], Phase(view["phase"])
    if phase == Phase.STORYTELLER:
        return "Find a sentence for one of your cards: the first to find one is the storyteller."
    if phase == Phase.CLUE:
        return f"{teller} is choosing a card and a clue."
    if phase == Phase.CARDS:
        return (f"Everyone gives {teller} {count_cards(view['cards_given'])} for the clue; {teller} lays out the "
                f"{view['cards_shown']} cards.")
    if phase == Phase.VOTE:
        return f"Vote in secret for {teller}'s card: waiting for {join_names(list(state.waiting_for()))}."
    if phase == Phase.REVEAL:
        return f"All votes are in. {teller}, which card is yours?"
    if phase == Phase.OWNERS:
        return f"Who gave {_cards_missing(view)}? Their owners score the votes."
    return state.status()


ADAPTER: GameAdapter = DixitAdapter(SPEC)
