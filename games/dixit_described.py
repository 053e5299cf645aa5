"""Dixit with a deck told in words (`DescribedDixit`): the host deals. It shuffles the deck
with the game's seed and deals each player a hand that only that player's view holds. The
storyteller picks a card of their hand and gives the clue (written, or aloud at the table); the
others each give one card (two with 3 players) and may take it back until all are in; the host
then shuffles the cards given, lays them out numbered and reads them. It knows every owner, so
the last vote reveals and scores the turn at once; the hands are refilled from the draw pile.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import (
    Action,
    Choice,
    Event,
    IllegalMove,
    NotYourTurn,
    SecretRefused,
    Verb,
    already_set,
    find_player,
    join_names,
    most_points_wins,
)
from games.decks import DescribedCard, DescribedDeck
from games.dixit_rules import STORYTELLER, DixitGame, DixitView, Phase, as_sentence, count_cards, numbered


@dataclass(frozen=True)
class LaidCard:
    """A card laid out for the vote: its number on the table and the card, told in words."""

    number: int
    card: DescribedCard


@dataclass(frozen=True)
class RevealedCard(LaidCard):
    """A card of the last turn's table once revealed: whose it was, who voted for it, and
    whether it was the storyteller's."""

    owner: str
    votes: tuple[str, ...]
    storyteller: bool


@dataclass(frozen=True)
class DescribedDixitView(DixitView):
    """A deck told in words: its title; whether the clue was given aloud; who has given their
    cards (never which); the cards laid out for the vote, and the last turn's table revealed. In a
    player's own view (empty in everyone's): their `hand`, the storyteller's `pick`, the cards
    they gave (`my_given`, by id) and the numbers of their cards on the table (`my_cards`)."""

    deck: str
    clue_aloud: bool
    given: tuple[str, ...]
    positions: tuple[LaidCard, ...]
    last_table: tuple[RevealedCard, ...]
    hand: tuple[DescribedCard, ...]
    pick: int | None
    my_given: tuple[int, ...]
    my_cards: tuple[int, ...]


def card_read(number: int, title: str, description: str) -> str:
    """A card laid out as it is read aloud, and again on request: "Card 2, The Mole City: ..."."""
    return f"Card {number}, {title}: {description}"


class DescribedDixit(DixitGame):
    """Dixit with a deck told in words, which the host deals from a seeded shuffle."""

    verbs = {
        "storyteller": STORYTELLER,
        "pick": Verb(
            "pick", False, ("card",),
            "The storyteller's card for the clue, from their hand; it may be changed until the clue is given.", secret=True,
        ),
        "clue": Verb("clue", False, ("clue...",), "The storyteller's clue, written: a word, a sentence, or what was sung."),
        "aloud": Verb(
            "aloud", False, (), "The storyteller gave the clue aloud at the table (said, sung, hummed or mimed), unwritten.",
        ),
        "give": Verb("give", True, ("card",), "A card from the player's hand for the clue (two with 3 players).", secret=True),
        "take": Verb("take", True, ("card",), "Take back a card given, until all cards are in.", secret=True),
        "vote": Verb(
            "vote", True, ("card",),
            "A player's secret vote for the card they think is the storyteller's; it may be changed until all are in.",
            secret=True,
        ),
    }
    phase_verbs = {
        Phase.STORYTELLER: frozenset({"storyteller"}), Phase.CLUE: frozenset({"pick", "clue", "aloud"}),
        Phase.CARDS: frozenset({"give", "take"}), Phase.VOTE: frozenset({"vote"}),
    }

    def __init__(self, players: Sequence[str], deck: DescribedDeck, seed: int, contando: bool = False) -> None:
        """The deck is shuffled with `seed` and dealt: the same seed deals the same hands, and every
        later shuffle of the cards laid out comes from the same generator, so a replay is exact."""
        super().__init__(players, contando, len(deck.cards))
        self.deck = deck
        self.cards = {card.id: card for card in deck.cards}
        self.rng = random.Random(seed)
        self.pile = [card.id for card in deck.cards]
        self.rng.shuffle(self.pile)
        self.hands = {player: [self.pile.pop(0) for _ in range(self.hand_size)] for player in self.players}
        #: the cards the last turn laid out, with their owners and votes, once revealed
        self.last_table: tuple[RevealedCard, ...] = ()

    def _clear_table(self) -> None:
        super()._clear_table()
        self.clue_aloud = False
        self.pick: int | None = None
        self.given: dict[str, list[int]] = {player: [] for player in self.players}
        #: the cards laid out, in table order (card 1 first)
        self.laid: list[int] = []

    @property
    def draw_pile(self) -> int:
        return len(self.pile)

    def _draw(self) -> int:
        """Each player draws back up to a full hand, in turn from the storyteller's left, while
        the pile lasts."""
        teller = self.players.index(already_set(self.storyteller, "the storyteller"))
        drawn = 0
        for step in range(1, len(self.players) + 1):
            hand = self.hands[self.players[(teller + step) % len(self.players)]]
            while len(hand) < self.hand_size and self.pile:
                hand.append(self.pile.pop(0))
                drawn += 1
        return drawn

    def _your_clue(self, storyteller: str) -> tuple[str, str]:
        return (f"{storyteller}, choose a card of your hand on your phone and give your clue.",
                f"{storyteller}, your card and clue.")

    def card(self, card_id: int) -> DescribedCard:
        return self.cards[card_id]

    def _titles(self, cards: Sequence[int]) -> str:
        return join_names([self.cards[card].title for card in cards])

    def _mine(self, player: str) -> list[int]:
        """The numbers of `player`'s cards on the table."""
        return [number for number, owner in self.owners.items() if owner == player]

    def _givers(self) -> tuple[str, ...]:
        """The players still to give a card for the clue."""
        return tuple(player for player in self.voters if len(self.given[player]) < self.cards_given)

    def _next_step(self) -> str:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return ("The first player to find a sentence for a card of their hand is the storyteller: they press "
                    "'I am the storyteller' on their phone.")
        if self.phase == Phase.CLUE:
            if self.pick is None:
                return f"{teller} is the storyteller: {teller} chooses a card on their phone and gives the clue."
            return f"{teller} gives the clue: written on their phone, or aloud at the table."
        if self.phase == Phase.CARDS:
            return (f"Waiting for cards from {join_names(self._givers())}: each chooses on their phone "
                    f"{'the card' if self.cards_given == 1 else 'the two cards'} of their hand that best fit the clue.")
        if self.phase == Phase.VOTE:
            return (f"Waiting for the votes of {join_names(self._missing_votes())}: each votes on their phone for "
                    f"the card they think is {teller}'s.")
        return f"The game is over. {most_points_wins(self.totals).text}"

    # --- actions -----------------------------------------------------------------------------

    def _hand_card(self, player: str, text: str) -> int:
        """The card of `player`'s hand that `text` names by its id (never repeated: a hand is secret)."""
        try:
            card = int(text)
        except ValueError:
            card = 0
        if card not in self.hands[player]:
            raise IllegalMove(f"That card is not in {player}'s hand: choose one on {player}'s phone.")
        return card

    def _do_pick(self, text: str) -> list[Event]:
        teller = already_set(self.storyteller, "the storyteller")
        card = self._hand_card(teller, text)
        again = self.pick is not None
        self.pick = card
        if again:
            return [Event(f"Your card for the clue is now {self.cards[card].title}.", to=teller)]
        return [Event(f"Your card for the clue: {self.cards[card].title}. Now give your clue.", to=teller)]

    def _clue_given(self, said: str) -> list[Event]:
        teller = self.storyteller
        if self.pick is None:
            raise IllegalMove(f"{teller}, first choose on your phone the card your clue is for.")
        self.phase = Phase.CARDS
        which, fit = ("the card", "fits") if self.cards_given == 1 else ("the two cards", "fit")
        return [Event(f"{said} Everyone else, choose on your phone {which} of your hand that best {fit} it.",
                      brief=f"{said} Choose {which}.")]

    def _do_clue(self, text: str) -> list[Event]:
        clue = " ".join(text.split())
        if not clue:
            raise IllegalMove(f"Write the clue after 'clue', {self.storyteller}.")
        events = self._clue_given(f"{self.storyteller}'s clue: {as_sentence(clue)}")
        self.clue = clue
        return events

    def _do_aloud(self) -> list[Event]:
        events = self._clue_given(f"{self.storyteller} gave the clue at the table.")
        self.clue_aloud = True
        return events

    def _do_give(self, player: str, text: str) -> list[Event]:
        if player == self.storyteller:
            raise NotYourTurn(f"{player} is the storyteller, whose card was chosen with the clue; the others give cards.")
        card = self._hand_card(player, text)
        given = self.given[player]
        if card in given:
            raise IllegalMove(f"{player} gave that card already: choose another, or wait for the others.")
        if len(given) == self.cards_given:
            raise IllegalMove(
                f"{player} gave {count_cards(self.cards_given)} already: take one back first to give another."
            )
        given.append(card)
        done = f"{len(self.voters) - len(self._givers())} of {len(self.voters)}"
        if len(given) < self.cards_given:
            mine = f"You gave {self.cards[card].title}; give one more card."
            table = Event(f"{player} gave one card of {self.cards_given}.", brief="")
        else:
            back = f" You may take {'it' if len(given) == 1 else 'one'} back until all cards are in." if self._givers() else ""
            mine = f"You gave {self._titles(given)}.{back}"
            table = Event(f"{player} has given {'a card' if len(given) == 1 else 'both cards'} ({done}).",
                          brief=f"{player} gave.")
        events = [Event(mine, to=player), table]
        if not self._givers():
            events.extend(self._lay_out())
        return events

    def _do_take(self, player: str, text: str) -> list[Event]:
        card = self._hand_card(player, text)
        if card not in self.given[player]:
            raise IllegalMove(f"{player} did not give that card, so it cannot be taken back.")
        self.given[player].remove(card)
        return [Event(f"You took back {self.cards[card].title}.", to=player),
                Event(f"{player} took a card back.", brief="")]

    def _lay_out(self) -> list[Event]:
        """Every card is in: the host shuffles them, lays them out numbered and reads them; each
        player learns privately which numbers are theirs."""
        teller = already_set(self.storyteller, "the storyteller")
        chosen = [(already_set(self.pick, "the storyteller's card"), teller)]
        chosen += [(card, player) for player in self.voters for card in self.given[player]]
        self.rng.shuffle(chosen)
        self.laid = [card for card, _ in chosen]
        self.owners = {number: owner for number, (_, owner) in enumerate(chosen, 1)}
        self.storyteller_card = self._mine(teller)[0]
        for card, owner in chosen:
            self.hands[owner].remove(card)
        self.phase = Phase.VOTE
        clue = f"{teller}'s clue: {as_sentence(self.clue)}" if self.clue else f"{teller}'s clue was given at the table."
        events = [Event(f"All cards are in. {clue} The {self.cards_shown} cards, in order:",
                        brief=f"The {self.cards_shown} cards:", whole=True)]
        for number, laid in enumerate(self.laid, 1):
            face = self.cards[laid]
            events.append(Event(card_read(number, face.title, face.description), brief=f"Card {number}: {face.brief}",
                                whole=True))
        events.append(Event(f"Everyone but {teller}, vote on your phone for the card you think is {teller}'s. "
                            "'card' and a number reads a card again.", brief=f"Vote for {teller}'s card."))
        for player in self.players:
            mine = self._mine(player)
            events.append(Event(f"Your {'card is' if len(mine) == 1 else 'cards are'} {numbered(mine)}.", to=player))
        return events

    def _check_vote(self, player: str, number: int) -> None:
        if self.owners[number] == player:
            raise SecretRefused("Nobody may vote for their own card: vote for another card.",
                                f"Card {number} is yours, and nobody may vote for their own card: vote for another card.")

    def _all_voted(self) -> list[Event]:
        """The last vote is in: every owner is known, so the cards are revealed and the turn is
        scored at once."""
        teller = self.storyteller
        votes = self._voters_by_card()
        others = []
        for number in self.numbers:
            if number != self.storyteller_card:
                voters = votes[number]
                said = f"votes from {join_names(voters)}" if len(voters) > 1 else f"a vote from {voters[0]}" if voters else "no vote"
                others.append(f"Card {number} was {self.owners[number]}'s, with {said}.")
        brief = " ".join(f"Card {number}, {self.owners[number]}'s: {join_names(voters)}."
                         for number, voters in votes.items() if voters and number != self.storyteller_card)
        self.last_table = tuple(
            RevealedCard(number, self.cards[card], self.owners[number], tuple(votes[number]), number == self.storyteller_card)
            for number, card in enumerate(self.laid, 1)
        )
        reveal = f"All votes are in. Card {self.storyteller_card} was {teller}'s: {self._found()}."
        return [Event(f"{reveal} {' '.join(others)}", brief=f"Card {self.storyteller_card} was {teller}'s: "
                                                            f"{self._found()}. {brief}".rstrip()),
                *self._score_turn(), *self._end_turn()]

    # --- GameState ---------------------------------------------------------------------------

    def opening(self) -> list[Event]:
        claim = (f"Turn {self.turn}, {count_cards(self.draw_pile)} in the draw pile. Who has a sentence? Press "
                 "'I am the storyteller' on your phone.")
        return [
            Event(f"Dixit with the deck told in words, {self.deck.title}: {len(self.deck.cards)} cards. Each player's "
                  f"hand of {self.hand_size} cards is on their own phone only.", brief=""),
            Event(self.status(), brief=claim if self.phase == Phase.STORYTELLER else None),
        ]

    def legal_actions(self) -> list[Choice]:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return [Choice(Action("storyteller", player), f"{player} is the storyteller") for player in self.players]
        if self.phase == Phase.CLUE:
            hand = self.hands[already_set(teller, "the storyteller")]
            picks = [Choice(Action("pick", None, (str(card),)), f"{teller} picks a card") for card in hand]
            if self.pick is None:
                return picks
            return [*picks, Choice(Action("clue", None, ("<clue>",)), f"{teller} writes the clue", free_text=True),
                    Choice(Action("aloud"), f"{teller} gave the clue at the table")]
        if self.phase == Phase.CARDS:
            gives = [
                Choice(Action("give", player, (str(card),)), f"{player} gives a card")
                for player in self._givers() for card in self.hands[player] if card not in self.given[player]
            ]
            takes = [
                Choice(Action("take", player, (str(card),)), f"{player} takes a card back")
                for player in self.voters for card in self.given[player]
            ]
            return gives + takes
        if self.phase == Phase.VOTE:
            return self._vote_choices({player: self._mine(player) for player in self.voters})
        return []

    def waiting_for(self) -> tuple[str, ...]:
        if self.phase == Phase.STORYTELLER:
            return self.players
        if self.phase == Phase.CLUE:
            return (already_set(self.storyteller, "the storyteller"),)
        if self.phase == Phase.CARDS:
            return self._givers()
        if self.phase == Phase.VOTE:
            return self._missing_votes()
        return ()

    def secret_input(self) -> bool:
        """A card of a hand, or a vote, is typed now."""
        return self.phase in (Phase.CLUE, Phase.CARDS, Phase.VOTE)

    def secrets(self, player: str) -> list[str]:
        """What `player` chose this turn and their vote (their hand is on their phone only)."""
        lines = []
        if self.phase == Phase.CLUE and player == self.storyteller and self.pick is not None:
            lines.append(f"Your card for the clue: {self.cards[self.pick].title}.")
        if self.phase == Phase.CARDS:
            if player == self.storyteller:
                lines.append(f"Your card for the clue: {self.cards[already_set(self.pick, 'the card')].title}.")
            elif self.given[player]:
                lines.append(f"You gave {self._titles(self.given[player])}.")
        if self.phase == Phase.VOTE:
            mine = self._mine(player)
            titles = self._titles([self.laid[number - 1] for number in mine])
            lines.append(f"Your {'card' if len(mine) == 1 else 'cards'} on the table: {numbered(mine)}, {titles}.")
        vote = self.votes.get(player)
        return lines + ([] if vote is None else [f"Your vote: card {vote}."])

    def view(self, player: str | None) -> DescribedDixitView:
        """The table as everyone sees it: the cards laid out (whose they are and their votes only
        once revealed, in the next turn's `last_table`); `player`'s own hand, choices and vote."""
        player = None if player is None else find_player(player, self.players)
        return DescribedDixitView(
            **vars(self._seen(player)),
            deck=self.deck.title,
            clue_aloud=self.clue_aloud,
            given=tuple(voter for voter in self.voters if self.phase == Phase.CARDS and voter not in self._givers()),
            positions=tuple(LaidCard(number, self.cards[card]) for number, card in enumerate(self.laid, 1))
            if self.phase == Phase.VOTE else (),
            last_table=self.last_table,
            hand=() if player is None else tuple(self.cards[card] for card in self.hands[player]),
            pick=self.pick if player is not None and player == self.storyteller else None,
            my_given=() if player is None else tuple(self.given[player]),
            my_cards=() if player is None else tuple(self._mine(player)),
        )

    moves = {
        "storyteller": DixitGame._do_storyteller,
        "pick": _do_pick,
        "clue": _do_clue,
        "aloud": _do_aloud,
        "give": _do_give,
        "take": _do_take,
        "vote": DixitGame._do_vote,
    }


def described_deck(saved: Mapping[str, Any]) -> DescribedDeck:
    """A deck told in words as a game's settings keep it (its title and its cards' fields)."""
    return DescribedDeck(saved["title"], tuple(DescribedCard(**card) for card in saved["cards"]))
