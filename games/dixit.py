"""Dixit, played with the physical cards: the host never sees the pictures.

The players tell the host the storyteller, the clue, each secret vote (which a player may change
until all are in), which shown card was the storyteller's and who gave each other card that the
score needs (one with votes; every card with `owners="every"`); the host checks that this is
consistent (one vote each, nobody votes for their own card), scores the turn and counts the draw
pile.

Rules: as `storyhost rules dixit` gives them (the rulebook's worked example and variants), with
its RULINGS where the rulebook is open.
"""
from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from games.base import (
    Action,
    BadArgument,
    Choice,
    Event,
    GameSpec,
    GameState,
    IllegalMove,
    NotYourTurn,
    Option,
    Outcome,
    Services,
    SetupError,
    Settings,
    Verb,
    already_set,
    check_player_names,
    find_player,
    join_names,
    most_points_wins,
)

#: the cards of one box (the base game, and each expansion); the default deck
DECK_SIZE = 84
HAND_SIZE = 6
#: the 3-player variant: bigger hands, and each non-storyteller gives two cards
THREE_PLAYER_HAND_SIZE = 7
THREE_PLAYER_CARDS_GIVEN = 2
SHARED_POINTS = 2  # everyone but the storyteller, when all or none found the card
FOUND_POINTS = 3
CONTANDO_POINTS = 4  # the storyteller and the single finder, with the Contando variant

MIN_PLAYERS, MAX_PLAYERS = 3, 6
#: whose cards' owners are asked: those the score needs (the cards with votes), or every card
OWNERS = ("needed", "every")


class Phase(str, Enum):
    STORYTELLER = "storyteller"
    CLUE = "clue"
    CARDS = "cards"
    VOTE = "vote"
    REVEAL = "reveal"
    OWNERS = "owners"
    OVER = "over"


#: the one verb each phase is waiting for
PHASE_VERBS = {
    Phase.STORYTELLER: "storyteller", Phase.CLUE: "clue", Phase.CARDS: "shown", Phase.VOTE: "vote",
    Phase.REVEAL: "card", Phase.OWNERS: "owner",
}
ON_TABLE = (Phase.VOTE, Phase.REVEAL, Phase.OWNERS, Phase.OVER)
VOTES_OPEN = (Phase.REVEAL, Phase.OWNERS, Phase.OVER)



def count_cards(count: int) -> str:
    return "one card" if count == 1 else f"{'two' if count == 2 else count} cards"


def as_sentence(text: str) -> str:
    return text if text[-1] in ".!?" else f"{text}."


class DixitState(GameState):
    game = "dixit"
    verbs = {
        "storyteller": Verb("storyteller", True, (), "First turn only: who found a sentence first is the storyteller."),
        "clue": Verb("clue", False, ("clue...",), "The storyteller's clue, or what was sung, hummed or mimed."),
        "shown": Verb("shown", False, (), "The cards are laid out face up, numbered from the left: vote."),
        "vote": Verb(
            "vote", True, ("card",),
            "A player's secret vote for the card they think is the storyteller's; it may be changed until all are in.",
        ),
        "card": Verb("card", False, ("card",), "After the vote: the number of the storyteller's card."),
        "owner": Verb("owner", False, ("card", "name"), "Who gave one of the other cards that got votes."),
    }

    def __init__(
        self, players: Sequence[str], contando: bool = False, deck_size: int = DECK_SIZE, owners: str = "needed"
    ) -> None:
        """`deck_size`: the cards the group really plays with (a partial deck, or with expansions);
        `owners`: whose owners are asked, "needed" (the cards with votes) or "every" card."""
        self.players = check_player_names(players, MIN_PLAYERS, MAX_PLAYERS)
        if owners not in OWNERS:
            raise SetupError(f"Ask the owners of the cards with votes (needed) or of every card (every), not {owners!r}.")
        self.contando = contando
        self.every_owner = owners == "every"
        three = len(self.players) == 3
        self.hand_size = THREE_PLAYER_HAND_SIZE if three else HAND_SIZE
        self.cards_given = THREE_PLAYER_CARDS_GIVEN if three else 1
        self.cards_shown = 1 + self.cards_given * (len(self.players) - 1)
        dealt = self.hand_size * len(self.players)
        # the hands, and one turn's refill of the cards shown
        least = dealt + self.cards_shown
        if deck_size < least:
            raise SetupError(
                f"A deck of {deck_size} cards is too small for {len(self.players)} players: the hands take {dealt} "
                f"cards and one turn draws {self.cards_shown} more, so play with at least {least} cards."
            )
        self.deck_size = deck_size
        self.draw_pile = deck_size - dealt
        self.totals = {player: 0 for player in self.players}
        self.turn = 1
        self.phase = Phase.STORYTELLER
        self.storyteller: str | None = None
        #: how the last turn scored: said again on 'score'
        self.last_explanation = ""
        self._clear_table()

    def _clear_table(self) -> None:
        self.clue: str | None = None
        self.votes: dict[str, int] = {}
        self.storyteller_card: int | None = None
        self.owners: dict[int, str] = {}

    # --- where the game stands ---------------------------------------------------------------

    @property
    def voters(self) -> tuple[str, ...]:
        """Everyone but the storyteller, in seat order."""
        return tuple(player for player in self.players if player != self.storyteller)

    @property
    def numbers(self) -> range:
        return range(1, self.cards_shown + 1)

    def is_last_turn(self) -> bool:
        """Whether the refill after this turn empties the draw pile (every turn draws back the cards shown)."""
        return self.draw_pile <= self.cards_shown

    def _missing_votes(self) -> tuple[str, ...]:
        return tuple(player for player in self.voters if player not in self.votes)

    def _cards_of(self, player: str, owners: dict[int, str]) -> list[int]:
        return sorted(number for number, owner in owners.items() if owner == player)

    def _unownable(self, card: int, owners: dict[int, str]) -> int | None:
        """A card nobody left may own when `card` is the storyteller's, or None if the owners can
        still be completed.

        Each player is barred from one card only (the one they voted for), so by Hall's theorem
        the owners can be completed unless some single card has no possible owner left.
        """
        free = [player for player in self.voters if len(self._cards_of(player, owners)) < self.cards_given]
        for number in self.numbers:
            if number != card and number not in owners and all(self.votes[player] == number for player in free):
                return number
        return None

    def _needs_owner(self, number: int) -> bool:
        """Whether the score needs to know who gave card `number`: a card with votes other than
        the storyteller's (its owner scores them); with `every_owner`, each other card."""
        return number != self.storyteller_card and (self.every_owner or number in self.votes.values())

    def _missing_owners(self) -> list[int]:
        """The cards whose owner the score still needs, in table order."""
        return [number for number in self.numbers if self._needs_owner(number) and number not in self.owners]

    def _owners_wanted(self) -> str:
        """Which owners are still to be said, as a clause: 'cards 1 and 3, which got votes'."""
        missing = self._missing_owners()
        if self.every_owner and len(missing) == self.cards_shown - 1:
            return "each other card"
        cards = f"card{'s' if len(missing) > 1 else ''} {join_names([str(number) for number in missing])}"
        return cards if self.every_owner else f"{cards}, which got votes"

    def _voters_by_card(self) -> dict[int, list[str]]:
        return {number: [voter for voter in self.voters if self.votes[voter] == number] for number in self.numbers}

    def _finders(self) -> list[str]:
        return [player for player in self.voters if self.votes[player] == self.storyteller_card]

    def _next_step(self) -> str:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return "The first player to find a sentence is the storyteller: say 'storyteller' and their name."
        if self.phase == Phase.CLUE:
            return f"{teller} is the storyteller: say 'clue' and {teller}'s sentence."
        if self.phase == Phase.CARDS:
            return (
                f"Everyone else gives {teller} {count_cards(self.cards_given)} for the clue; when {teller} has "
                f"laid out the {self.cards_shown} cards, say 'shown'."
            )
        if self.phase == Phase.VOTE:
            return (
                f"Waiting for the votes of {join_names(self._missing_votes())}: say 'vote', the name and a card "
                f"number from 1 to {self.cards_shown}."
            )
        if self.phase == Phase.REVEAL:
            return f"All votes are in. {teller}, say 'card' and the number of your card."
        if self.phase == Phase.OWNERS:
            return f"Say who gave {self._owners_wanted()}: 'owner', the card number and the name."
        return f"The game is over. {most_points_wins(self.totals).text}"

    # --- actions -----------------------------------------------------------------------------

    def _check_move(self, verb: Verb, player: str | None) -> None:
        if PHASE_VERBS.get(self.phase) != verb.name:
            raise IllegalMove(f"'{verb.name}' is not possible now. {self._next_step()}")

    def _number(self, text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = 0
        if number not in self.numbers:
            raise BadArgument(
                # not repeated: while votes are typed, the number typed is a secret
                f"The cards on the table are numbered 1 to {self.cards_shown}: say one of those numbers."
            )
        return number

    def _do_storyteller(self, player: str) -> list[Event]:
        return [Event(f"{player} found a sentence first."), *self._start_turn(player)]

    def _start_turn(self, storyteller: str) -> list[Event]:
        self.storyteller = storyteller
        self.phase = Phase.CLUE
        self._clear_table()
        last = " This is the last turn." if self.is_last_turn() else ""
        return [
            Event(
                f"Turn {self.turn}: {storyteller} is the storyteller.{last} {storyteller}, say 'clue' and your "
                "sentence.",
                brief=f"Turn {self.turn}.{last} {storyteller}, your clue.",
            )
        ]

    def _do_clue(self, text: str) -> list[Event]:
        clue = " ".join(text.split())
        if not clue:
            raise IllegalMove(f"Say the clue after 'clue', {self.storyteller}.")
        self.clue = clue
        self.phase = Phase.CARDS
        teller = self.storyteller
        return [
            Event(
                f"{teller}'s clue: {as_sentence(clue)} Everyone else, give {teller} {count_cards(self.cards_given)} "
                f"for it, face down. {teller}, shuffle them with yours, lay the {self.cards_shown} cards out "
                "face up and say 'shown'.",
                brief=f"Clue: {as_sentence(clue)} Give {teller} {count_cards(self.cards_given)}, then say shown.",
            )
        ]

    def _do_shown(self) -> list[Event]:
        self.phase = Phase.VOTE
        teller, clue = self.storyteller, already_set(self.clue, "the clue")
        return [
            Event(
                f"The {self.cards_shown} cards are on the table, numbered 1 to {self.cards_shown} from the left. "
                f"The clue was: {as_sentence(clue)} Everyone but {teller}, vote in secret for the card you "
                f"think is {teller}'s: say 'vote', your name and the number.",
                brief=f"Cards 1 to {self.cards_shown}. Clue: {as_sentence(clue)} Vote for {teller}'s card.",
            )
        ]

    def _do_vote(self, player: str, text: str) -> list[Event]:
        """A vote, or a new one by a player who voted already: a token face down may be taken back
        until every token is down (the table hears alike whether it changed, never the card)."""
        if player == self.storyteller:
            raise NotYourTurn(f"{player} is the storyteller and does not vote; the other players vote.")
        number = self._number(text)
        before = self.votes.get(player)
        self.votes[player] = number
        counted = f"{len(self.votes)} of {len(self.voters)}"
        if before is None:
            events = [
                Event(f"You voted for card {number}.", to=player),
                Event(f"{player} has voted ({counted}).", brief=f"{player} voted."),
            ]
        else:
            mine = f"Your vote stays card {number}." if before == number else f"You changed your vote to card {number}."
            return [
                Event(mine, to=player),
                Event(f"{player} voted again ({counted} have voted).", brief=f"{player} voted again."),
            ]
        if not self._missing_votes():
            self.phase = Phase.REVEAL
            revealed = " ".join(
                f"Card {number}: {join_names(voters)}." for number, voters in self._voters_by_card().items() if voters
            )
            events.append(
                Event(
                    f"All votes are in. {revealed} {self.storyteller}, which card is yours? Say 'card' and its number.",
                    brief=f"{revealed} {self.storyteller}, which card is yours?",
                )
            )
        return events

    def _card_refusal(self, number: int) -> str | None:
        unownable = self._unownable(number, {})
        if unownable is None:
            return None
        return (
            f"Everyone voted for card {unownable}, and nobody may vote for their own card, so card {unownable} "
            "must be the storyteller's. If a vote was entered wrongly, undo it."
        )

    def _do_card(self, text: str) -> list[Event]:
        number = self._number(text)
        refusal = self._card_refusal(number)
        if refusal:
            raise IllegalMove(refusal)
        self.storyteller_card = number
        self.phase = Phase.OWNERS
        finders = self._finders()
        if not finders:
            found = "nobody found it"
        elif len(finders) == len(self.voters):
            found = "everyone found it"
        else:
            found = f"{'only ' if len(finders) == 1 else ''}{join_names(finders)} found it"
        if not self._missing_owners():  # every vote found the storyteller's card: no owner changes the score
            return [Event(f"Card {number} is {self.storyteller}'s: {found}."), *self._score_turn(), *self._end_turn()]
        wanted = self._owners_wanted()
        return [
            Event(
                f"Card {number} is {self.storyteller}'s: {found}. Now say who gave {wanted}: 'owner', the "
                "card number and the name.",
                brief=f"Card {number} is {self.storyteller}'s: {found}. Who gave {wanted}?",
            )
        ]

    def _owner_refusal(self, number: int, player: str) -> str | None:
        """Why `player` cannot be the owner of card `number`, or None."""
        teller, card = self.storyteller, already_set(self.storyteller_card, "the storyteller's card")
        if number == card:
            return f"Card {number} is {teller}'s own card; say who gave the other cards."
        if player == teller:
            return f"{teller} is the storyteller, whose card is card {card}; say which other player gave card {number}."
        if not self._needs_owner(number):
            return f"Nobody voted for card {number}, so who gave it does not change the score: say who gave {self._owners_wanted()}."
        if number in self.owners:
            return (
                f"Card {number} is already {self.owners[number]}'s, and each card has one owner. If that was wrong, "
                "undo it."
            )
        owned = self._cards_of(player, self.owners)
        if len(owned) == self.cards_given:
            known = f"card{'s' if len(owned) > 1 else ''} {join_names([str(owned_number) for owned_number in owned])}"
            return f"{player} gave {count_cards(self.cards_given)}, already known: {known}. If that was wrong, undo it."
        if self.votes[player] == number:
            return (
                f"{player} voted for card {number}, and nobody may vote for their own card: if the vote was entered "
                "wrongly, undo it."
            )
        unownable = self._unownable(card, {**self.owners, number: player})
        if unownable is not None:
            return (
                f"Then nobody could own card {unownable}: everyone still to be named voted for it. Check the owners, "
                "or undo a vote entered wrongly."
            )
        return None

    def _do_owner(self, text: str, name: str) -> list[Event]:
        number = self._number(text)
        player = find_player(name, self.players)
        refusal = self._owner_refusal(number, player)
        if refusal:
            raise IllegalMove(refusal)
        self.owners[number] = player
        events = [Event(f"Card {number} is {player}'s.")]
        if not self._missing_owners():
            events.extend(self._score_turn())
            events.extend(self._end_turn())
        return events

    def _votes_received(self) -> dict[str, int]:
        """How many votes landed on each non-storyteller's card(s)."""
        received = {voter: 0 for voter in self.voters}
        for voter in self.voters:
            if self.votes[voter] != self.storyteller_card:
                received[self.owners[self.votes[voter]]] += 1
        return received

    def _turn_points(self) -> dict[str, int]:
        """Each player's points for this turn, once the storyteller's card and every owner are known."""
        finders = self._finders()
        points = {player: 0 for player in self.players}
        if len(finders) in (0, len(self.voters)):
            for voter in self.voters:
                points[voter] = SHARED_POINTS
        else:
            reward = CONTANDO_POINTS if self.contando and len(finders) == 1 else FOUND_POINTS
            for player in (already_set(self.storyteller, "the storyteller"), *finders):
                points[player] = reward
        for voter, received in self._votes_received().items():
            points[voter] += received
        return points

    def _score_turn(self) -> list[Event]:
        teller, finders = already_set(self.storyteller, "the storyteller"), self._finders()
        points = self._turn_points()
        if not finders or len(finders) == len(self.voters):
            who = "Nobody" if not finders else "Everyone"
            why = f"{who} found {teller}'s card, so {teller} scores nothing and everyone else scores {SHARED_POINTS}."
        else:
            reward = points[teller]
            contando = "with the Contando variant, " if reward == CONTANDO_POINTS else ""
            who = f"Only {finders[0]}" if len(finders) == 1 else join_names(finders)
            why = f"{who} found {teller}'s card, so {contando}{join_names([teller, *finders])} score {reward}."
        bonus = [f"{voter} {received}" for voter, received in self._votes_received().items() if received]
        if bonus:
            why += f" Votes for their cards: {join_names(bonus)}."
        for player, gained in points.items():
            self.totals[player] += gained
        this_turn = ", ".join(f"{player} {gained}" for player, gained in points.items())
        totals = ", ".join(f"{player} {total}" for player, total in self.totals.items())
        self.last_explanation = f"Turn {self.turn}: {why} Points: {this_turn}."
        return [Event(why, brief=""), Event(f"Points this turn: {this_turn}. Scores: {totals}.")]

    def _end_turn(self) -> list[Event]:
        drawn = min(self.draw_pile, self.cards_shown)
        self.draw_pile -= drawn
        if self.draw_pile == 0:
            self.phase = Phase.OVER
            if drawn < self.cards_shown:
                ending = "The draw pile runs out before every hand is full"
            else:
                ending = "The last card of the draw pile has been drawn"
            return [Event(f"{ending}, so the game is over. {most_points_wins(self.totals).text}")]
        self.turn += 1
        refill = Event(
            f"Everyone draws back up to {self.hand_size} cards; {count_cards(self.draw_pile)} left in the draw pile.",
            brief="",
        )
        next_teller = self.players[(self.players.index(self.storyteller) + 1) % len(self.players)]
        return [refill, *self._start_turn(next_teller)]

    # --- GameState ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return [Choice(Action("storyteller", player), f"{player} is the storyteller") for player in self.players]
        if self.phase == Phase.CLUE:
            return [Choice(Action("clue", None, ("<clue>",)), f"{teller} gives the clue", free_text=True)]
        if self.phase == Phase.CARDS:
            return [Choice(Action("shown"), f"the {self.cards_shown} cards are laid out")]
        if self.phase == Phase.VOTE:  # those still to vote first; a player who voted may vote again until all have
            again = tuple(player for player in self.voters if player in self.votes)
            return [
                Choice(Action("vote", player, (str(number),)), f"{player} votes for card {number}")
                for player in (*self._missing_votes(), *again)
                for number in self.numbers
            ]
        if self.phase == Phase.REVEAL:
            return [
                Choice(Action("card", None, (str(number),)), f"card {number} is {teller}'s")
                for number in self.numbers
                if self._card_refusal(number) is None
            ]
        if self.phase == Phase.OWNERS:
            return [
                Choice(Action("owner", None, (str(number), player)), f"card {number} is {player}'s")
                for number in self._missing_owners()
                for player in self.voters
                if self._owner_refusal(number, player) is None
            ]
        return []

    def waiting_for(self) -> tuple[str, ...]:
        if self.phase == Phase.STORYTELLER:
            return self.players
        if self.phase in (Phase.CLUE, Phase.CARDS, Phase.REVEAL):
            return (already_set(self.storyteller, "the storyteller"),)
        if self.phase == Phase.VOTE:
            return self._missing_votes()
        if self.phase == Phase.OWNERS:  # those who may have given a card still without its owner
            missing = self._missing_owners()
            return tuple(
                player for player in self.voters
                if any(self._owner_refusal(number, player) is None for number in missing)
            )
        return ()

    def status(self) -> str:
        if self.is_over():
            return self._next_step()
        last = " This is the last turn." if self.is_last_turn() else ""
        # the clue, until the storyteller's card is known: what the cards and votes are for
        clue = f" {self.storyteller}'s clue: {as_sentence(self.clue)}" if self.clue and self.phase in (Phase.CARDS, Phase.VOTE, Phase.REVEAL) else ""
        return f"Turn {self.turn}, {count_cards(self.draw_pile)} in the draw pile.{last}{clue} {self._next_step()}"

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    def score_report(self) -> list[str]:
        """The scores, then how the last turn scored."""
        return [*super().score_report(), *([self.last_explanation] if self.last_explanation else [])]

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        return most_points_wins(self.totals)

    def secret_input(self) -> bool:
        return self.phase == Phase.VOTE

    def secrets(self, player: str) -> list[str]:
        vote = self.votes.get(player)
        return [] if vote is None else [f"Your vote: card {vote}."]

    def view(self, player: str | None) -> dict[str, Any]:
        """The table as everyone sees it; the votes only once all are in, except `player`'s own."""
        positions = []
        if self.phase in ON_TABLE:
            votes = self._voters_by_card() if self.phase in VOTES_OPEN else {}
            for number in self.numbers:
                owner = self.storyteller if number == self.storyteller_card else self.owners.get(number)
                positions.append({"number": number, "owner": owner, "votes": votes.get(number)})
        outcome = self.outcome()
        seen: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "contando": self.contando,
            "deck_size": self.deck_size,
            "turn": self.turn,
            "phase": self.phase.value,
            "last_turn": self.is_last_turn(),
            "storyteller": self.storyteller,
            "clue": self.clue,
            "hand_size": self.hand_size,
            "cards_given": self.cards_given,
            "cards_shown": self.cards_shown,
            "draw_pile": self.draw_pile,
            "voted": [voter for voter in self.voters if voter in self.votes],
            "storyteller_card": self.storyteller_card,
            "positions": positions,
            "owners_missing": self._missing_owners() if self.phase == Phase.OWNERS else [],
            "scores": self.scores(),
            "winners": list(outcome.winners) if outcome else [],
        }
        if player is not None:
            player = find_player(player, self.players)
            seen["player"] = player
            seen["my_vote"] = self.votes.get(player)
        return seen

    moves = {
        "storyteller": _do_storyteller,
        "clue": _do_clue,
        "shown": _do_shown,
        "vote": _do_vote,
        "card": _do_card,
        "owner": _do_owner,
    }


def _make(settings: Settings, services: Services) -> DixitState:
    return DixitState(
        settings["players"], contando=settings["contando"], deck_size=settings["deck_size"], owners=settings["owners"]
    )


SPEC = GameSpec(
    "dixit", "Dixit", MIN_PLAYERS, MAX_PLAYERS,
    (
        Option("contando", False, "the Contando scoring variant"),
        # games saved before the option existed were played with the full deck
        Option(
            "deck_size", DECK_SIZE, "cards in the deck you play with, e.g. a partial deck or with expansions",
            low=1, high=1000, flag="cards",
        ),
        # games saved before the option existed asked for every owner: they replay as they were played
        Option(
            "owners", "needed",
            "whose cards' owners are asked: only those the score needs (the cards with votes), or every card",
            choices=OWNERS, saved_before="every",
        ),
    ),
    _make,
)
