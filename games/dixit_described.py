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
from games.dixit_rules import STORYTELLER, VOTE_HELP, DixitGame, DixitView, Phase, as_sentence, count_cards, numbered
from games.language import N_, _, n_, p_


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
    return _("Card {number}, {title}: {description}").format(number=number, title=title, description=description)


class DescribedDixit(DixitGame):
    """Dixit with a deck told in words, which the host deals from a seeded shuffle."""

    verbs = {
        "storyteller": STORYTELLER,
        "pick": Verb(
            "pick", False, ("card",),
            N_("The storyteller's card for the clue, from their hand; it may be changed until the clue is given."),
            secret=True,
        ),
        "clue": Verb("clue", False, ("clue...",), N_("The storyteller's clue, written: a word, a sentence, or what was sung.")),
        "aloud": Verb(
            "aloud", False, (), N_("The storyteller gave the clue aloud at the table (said, sung, hummed or mimed), unwritten."),
        ),
        "give": Verb("give", True, ("card",), N_("A card from the player's hand for the clue (two with 3 players)."),
                     secret=True),
        "take": Verb("take", True, ("card",), N_("Take back a card given, until all cards are in."), secret=True),
        "vote": Verb("vote", True, ("card",), VOTE_HELP, secret=True),
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
        return (_("{teller}, choose a card of your hand on your phone and give your clue.").format(teller=storyteller),
                _("{teller}, your card and clue.").format(teller=storyteller))

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
            return _("The first player to find a sentence for a card of their hand is the storyteller: they press "
                     "'I am the storyteller' on their phone.")
        if self.phase == Phase.CLUE:
            if self.pick is None:
                return _("{teller} is the storyteller: {teller} chooses a card on their phone and gives the clue.").format(
                    teller=teller)
            return _("{teller} gives the clue: written on their phone, or aloud at the table.").format(teller=teller)
        if self.phase == Phase.CARDS:
            return n_("Waiting for cards from {players}: each chooses on their phone the card of their hand that best "
                      "fit the clue.",
                      "Waiting for cards from {players}: each chooses on their phone the two cards of their hand that "
                      "best fit the clue.", self.cards_given).format(players=join_names(self._givers()))
        if self.phase == Phase.VOTE:
            return _("Waiting for the votes of {players}: each votes on their phone for the card they think is "
                     "{teller}'s.").format(players=join_names(self._missing_votes()), teller=teller)
        return _("The game is over. {outcome}").format(outcome=most_points_wins(self.totals).text)

    # --- actions -----------------------------------------------------------------------------

    def _hand_card(self, player: str, text: str) -> int:
        """The card of `player`'s hand that `text` names by its id (never repeated: a hand is secret)."""
        try:
            card = int(text)
        except ValueError:
            card = 0
        if card not in self.hands[player]:
            raise IllegalMove(_("That card is not in {player}'s hand: choose one on {player}'s phone.").format(player=player))
        return card

    def _do_pick(self, text: str) -> list[Event]:
        teller = already_set(self.storyteller, "the storyteller")
        card = self._hand_card(teller, text)
        again = self.pick is not None
        self.pick = card
        if again:
            return [Event(_("Your card for the clue is now {title}.").format(title=self.cards[card].title), to=teller)]
        return [Event(_("Your card for the clue: {title}. Now give your clue.").format(title=self.cards[card].title),
                      to=teller)]

    def _clue_given(self, said: str) -> list[Event]:
        teller = self.storyteller
        if self.pick is None:
            raise IllegalMove(_("{teller}, first choose on your phone the card your clue is for.").format(teller=teller))
        self.phase = Phase.CARDS
        choose = n_("Everyone else, choose on your phone the card of your hand that best fits it.",
                    "Everyone else, choose on your phone the two cards of your hand that best fit it.", self.cards_given)
        brief = n_("Choose the card.", "Choose the two cards.", self.cards_given)
        return [Event(f"{said} {choose}", brief=f"{said} {brief}")]

    def _do_clue(self, text: str) -> list[Event]:
        clue = " ".join(text.split())
        if not clue:
            raise IllegalMove(_("Write the clue after '{clue}', {teller}.").format(clue=self.verbs["clue"].said,
                                                                                   teller=self.storyteller))
        events = self._clue_given(_("{teller}'s clue: {clue}").format(teller=self.storyteller, clue=as_sentence(clue)))
        self.clue = clue
        return events

    def _do_aloud(self) -> list[Event]:
        events = self._clue_given(_("{teller} gave the clue at the table.").format(teller=self.storyteller))
        self.clue_aloud = True
        return events

    def _do_give(self, player: str, text: str) -> list[Event]:
        if player == self.storyteller:
            raise NotYourTurn(_("{player} is the storyteller, whose card was chosen with the clue; the others give cards.").format(
                player=player))
        card = self._hand_card(player, text)
        given = self.given[player]
        if card in given:
            raise IllegalMove(_("{player} gave that card already: choose another, or wait for the others.").format(
                player=player))
        if len(given) == self.cards_given:
            raise IllegalMove(_("{player} gave {cards} already: take one back first to give another.").format(
                player=player, cards=count_cards(self.cards_given)))
        given.append(card)
        done, voters = len(self.voters) - len(self._givers()), len(self.voters)
        if len(given) < self.cards_given:
            mine = _("You gave {title}; give one more card.").format(title=self.cards[card].title)
            table = Event(_("{player} gave one card of {count}.").format(player=player, count=self.cards_given), brief="")
        else:
            back = " " + n_("You may take it back until all cards are in.", "You may take one back until all cards are in.",
                            len(given)) if self._givers() else ""
            mine = _("You gave {titles}.").format(titles=self._titles(given)) + back
            table = Event(n_("{player} has given a card ({count} of {voters}).",
                             "{player} has given both cards ({count} of {voters}).", len(given)).format(
                player=player, count=done, voters=voters), brief=_("{player} gave.").format(player=player))
        events = [Event(mine, to=player), table]
        if not self._givers():
            events.extend(self._lay_out())
        return events

    def _do_take(self, player: str, text: str) -> list[Event]:
        card = self._hand_card(player, text)
        if card not in self.given[player]:
            raise IllegalMove(_("{player} did not give that card, so it cannot be taken back.").format(player=player))
        self.given[player].remove(card)
        return [Event(_("You took back {title}.").format(title=self.cards[card].title), to=player),
                Event(_("{player} took a card back.").format(player=player), brief="")]

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
        clue = (_("{teller}'s clue: {clue}").format(teller=teller, clue=as_sentence(self.clue)) if self.clue
                else _("{teller}'s clue was given at the table.").format(teller=teller))
        events = [Event(_("All cards are in.") + f" {clue} " + _("The {count} cards, in order:").format(count=self.cards_shown),
                        brief=_("The {count} cards:").format(count=self.cards_shown), whole=True)]
        for number, laid in enumerate(self.laid, 1):
            face = self.cards[laid]
            events.append(Event(card_read(number, face.title, face.description),
                                brief=_("Card {number}: {description}").format(number=number, description=face.brief),
                                whole=True))
        events.append(Event(_("Everyone but {teller}, vote on your phone for the card you think is {teller}'s. "
                              "'{card}' and a number reads a card again.").format(teller=teller, card=p_("command", "card")),
                            brief=_("Vote for {teller}'s card.").format(teller=teller)))
        for player in self.players:
            mine = self._mine(player)
            events.append(Event(n_("Your card is {cards}.", "Your cards are {cards}.", len(mine)).format(
                cards=numbered(mine)), to=player))
        return events

    def _check_vote(self, player: str, number: int) -> None:
        if self.owners[number] == player:
            raise SecretRefused(_("Nobody may vote for their own card: vote for another card."),
                                _("Card {number} is yours, and nobody may vote for their own card: vote for another "
                                  "card.").format(number=number))

    def _all_voted(self) -> list[Event]:
        """The last vote is in: every owner is known, so the cards are revealed and the turn is
        scored at once."""
        teller = self.storyteller
        votes = self._voters_by_card()
        others = []
        for number in self.numbers:
            if number != self.storyteller_card:
                voters = votes[number]
                if not voters:
                    said = _("Card {number} was {owner}'s, with no vote.")
                else:
                    said = n_("Card {number} was {owner}'s, with a vote from {voters}.",
                              "Card {number} was {owner}'s, with votes from {voters}.", len(voters))
                others.append(said.format(number=number, owner=self.owners[number], voters=join_names(voters)))
        brief = " ".join(_("Card {number}, {owner}'s: {voters}.").format(
            number=number, owner=self.owners[number], voters=join_names(voters))
            for number, voters in votes.items() if voters and number != self.storyteller_card)
        self.last_table = tuple(
            RevealedCard(number, self.cards[card], self.owners[number], tuple(votes[number]), number == self.storyteller_card)
            for number, card in enumerate(self.laid, 1)
        )
        whose = _("Card {number} was {teller}'s: {found}.").format(number=self.storyteller_card, teller=teller,
                                                                   found=self._found())
        return [Event(_("All votes are in.") + f" {whose} {' '.join(others)}", brief=f"{whose} {brief}".rstrip()),
                *self._score_turn(), *self._end_turn()]

    # --- GameState ---------------------------------------------------------------------------

    def opening(self) -> list[Event]:
        claim = self.pile_status() + " " + _("Who has a sentence? Press 'I am the storyteller' on your phone.")
        return [
            Event(_("Dixit with the deck told in words, {title}: {count} cards. Each player's hand of {hand} cards is "
                    "on their own phone only.").format(title=self.deck.title, count=len(self.deck.cards),
                                                       hand=self.hand_size), brief=""),
            Event(self.status(), brief=claim if self.phase == Phase.STORYTELLER else None),
        ]

    def legal_actions(self) -> list[Choice]:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return self._storyteller_choices()
        if self.phase == Phase.CLUE:
            hand = self.hands[already_set(teller, "the storyteller")]
            picks = [Choice(Action("pick", None, (str(card),)), _("{teller} picks a card").format(teller=teller))
                     for card in hand]
            if self.pick is None:
                return picks
            return [*picks, Choice(Action("clue", None, ("<clue>",)), _("{teller} writes the clue").format(teller=teller),
                                   free_text=True),
                    Choice(Action("aloud"), _("{teller} gave the clue at the table").format(teller=teller))]
        if self.phase == Phase.CARDS:
            gives = [
                Choice(Action("give", player, (str(card),)), _("{player} gives a card").format(player=player))
                for player in self._givers() for card in self.hands[player] if card not in self.given[player]
            ]
            takes = [
                Choice(Action("take", player, (str(card),)), _("{player} takes a card back").format(player=player))
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
            lines.append(_("Your card for the clue: {title}.").format(title=self.cards[self.pick].title))
        if self.phase == Phase.CARDS:
            if player == self.storyteller:
                lines.append(_("Your card for the clue: {title}.").format(
                    title=self.cards[already_set(self.pick, 'the card')].title))
            elif self.given[player]:
                lines.append(_("You gave {titles}.").format(titles=self._titles(self.given[player])))
        if self.phase == Phase.VOTE:
            mine = self._mine(player)
            titles = self._titles([self.laid[number - 1] for number in mine])
            lines.append(n_("Your card on the table: {cards}, {titles}.", "Your cards on the table: {cards}, {titles}.",
                            len(mine)).format(cards=numbered(mine), titles=titles))
        vote = self.votes.get(player)
        return lines + ([] if vote is None else [_("Your vote: card {number}.").format(number=vote)])

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
    """A deck told in words as a game's settings keep it (its title, its cards' fields and its
    language: English in games saved before decks had one)."""
    return DescribedDeck(saved["title"], tuple(DescribedCard(**card) for card in saved["cards"]),
                         saved.get("language", "en"))
