"""Dixit, played with the physical cards (`DixitState`), and the game's spec, which builds that
mode or, when the settings hold a deck told in words, `games.dixit_described.DescribedDixit`.

With the physical cards the host never sees the pictures: the players tell it the storyteller, the
clue, each secret vote (which a player may change until all are in), which shown card was the
storyteller's and who gave each other card that the score needs (one with votes; every card with
`owners="every"`); the host checks that this is consistent (one vote each, nobody votes for their
own card), scores the turn and counts the draw pile. What both modes share is in
`games.dixit_rules`.

Rules: as `storyhost rules dixit` gives them (the rulebook's worked example and variants), with
its RULINGS where the rulebook is open.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.base import (
    Action,
    Choice,
    Event,
    GameSpec,
    IllegalMove,
    Option,
    Services,
    SetupError,
    Settings,
    Verb,
    already_set,
    find_player,
    join_names,
    most_points_wins,
)
from games.dixit_described import DescribedDixit, described_deck
from games.language import N_, _, n_
from games.dixit_rules import (
    CONTANDO_POINTS,
    DECK_SIZE,
    FOUND_POINTS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHARED_POINTS,
    STORYTELLER,
    THREE_PLAYER_CARDS_GIVEN,
    THREE_PLAYER_HAND_SIZE,
    VOTE_HELP,
    Deal,
    DixitGame,
    DixitView,
    Phase,
    as_sentence,
    count_cards,
    numbered,
)

#: whose cards' owners are asked: those the score needs (the cards with votes), or every card
OWNERS = ("needed", "every")
#: the phases with the cards laid out, and those with the votes revealed
ON_TABLE = (Phase.VOTE, Phase.REVEAL, Phase.OWNERS, Phase.OVER)
VOTES_OPEN = (Phase.REVEAL, Phase.OWNERS, Phase.OVER)


@dataclass(frozen=True)
class Position:
    """A card laid out, by its number: whose it is once said (the storyteller's once known),
    and who voted for it once all votes are in (None before)."""

    number: int
    owner: str | None
    votes: tuple[str, ...] | None


@dataclass(frozen=True)
class PhysicalDixitView(DixitView):
    """The physical cards: the cards laid out as the players told the host, the storyteller's
    card once said, and the cards whose owner the score still needs."""

    storyteller_card: int | None
    positions: tuple[Position, ...]
    owners_missing: tuple[int, ...]

__all__ = [
    "CONTANDO_POINTS", "DECK_SIZE", "FOUND_POINTS", "HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "OWNERS", "SHARED_POINTS",
    "SPEC", "THREE_PLAYER_CARDS_GIVEN", "THREE_PLAYER_HAND_SIZE", "Deal", "DescribedDixit", "DixitGame", "DixitState",
    "Phase", "count_cards",
]


class DixitState(DixitGame):
    """Dixit with the physical cards: the players tell the host what happens on the table."""

    verbs = {
        "storyteller": STORYTELLER,
        "clue": Verb("clue", False, ("clue...",), N_("The storyteller's clue, or what was sung, hummed or mimed.")),
        "shown": Verb("shown", False, (), N_("The cards are laid out face up, numbered from the left: vote.")),
        "vote": Verb("vote", True, ("card",), VOTE_HELP),
        "card": Verb("card", False, ("card",), N_("After the vote: the number of the storyteller's card.")),
        "owner": Verb("owner", False, ("card", "name"), N_("Who gave one of the other cards that got votes.")),
    }
    phase_verbs = {
        Phase.STORYTELLER: frozenset({"storyteller"}), Phase.CLUE: frozenset({"clue"}), Phase.CARDS: frozenset({"shown"}),
        Phase.VOTE: frozenset({"vote"}), Phase.REVEAL: frozenset({"card"}), Phase.OWNERS: frozenset({"owner"}),
    }

    def __init__(
        self, players: Sequence[str], contando: bool = False, deck_size: int = DECK_SIZE, owners: str = "needed"
    ) -> None:
        """`deck_size`: the cards the group really plays with (a partial deck, or with expansions);
        `owners`: whose owners are asked, "needed" (the cards with votes) or "every" card."""
        if owners not in OWNERS:
            raise SetupError(_("Ask the owners of the cards with votes (needed) or of every card (every), not {owners}.").format(
                owners=repr(owners)))
        self.every_owner = owners == "every"
        super().__init__(players, contando, deck_size)
        self._left = deck_size - self.hand_size * len(self.players)

    @property
    def draw_pile(self) -> int:
        return self._left

    def _draw(self) -> int:
        drawn = min(self._left, self.cards_shown)
        self._left -= drawn
        return drawn

    def _your_clue(self, storyteller: str) -> tuple[str, str]:
        return (_("{teller}, say '{clue}' and your sentence.").format(teller=storyteller, clue=self.verbs["clue"].said),
                _("{teller}, your clue.").format(teller=storyteller))

    def opening(self) -> list[Event]:
        if self.phase != Phase.STORYTELLER:
            return super().opening()
        who = _("Who has a sentence? Say {storyteller} and the name.").format(storyteller=self.verbs["storyteller"].said)
        return [Event(self.status(), brief=f"{self.pile_status()} {who}")]

    # --- where the game stands ---------------------------------------------------------------

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
            return _("each other card")
        if self.every_owner:
            return numbered(missing)
        return n_("{cards}, which got votes", "{cards}, which got votes", len(missing)).format(cards=numbered(missing))

    def _next_step(self) -> str:
        teller, said = self.storyteller, {name: verb.said for name, verb in self.verbs.items()}
        if self.phase == Phase.STORYTELLER:
            return _("The first player to find a sentence is the storyteller: say '{storyteller}' and their name.").format(
                storyteller=said["storyteller"])
        if self.phase == Phase.CLUE:
            return _("{teller} is the storyteller: say '{clue}' and {teller}'s sentence.").format(
                teller=teller, clue=said["clue"])
        if self.phase == Phase.CARDS:
            return _("Everyone else gives {teller} {cards} for the clue; when {teller} has laid out the {shown} cards, "
                     "say '{verb}'.").format(teller=teller, cards=count_cards(self.cards_given), shown=self.cards_shown,
                                             verb=said["shown"])
        if self.phase == Phase.VOTE:
            return _("Waiting for the votes of {voters}: say '{vote}', the name and a card number from 1 to {shown}.").format(
                voters=join_names(self._missing_votes()), vote=said["vote"], shown=self.cards_shown)
        if self.phase == Phase.REVEAL:
            return _("All votes are in. {teller}, say '{card}' and the number of your card.").format(
                teller=teller, card=said["card"])
        if self.phase == Phase.OWNERS:
            return _("Say who gave {cards}: '{owner}', the card number and the name.").format(
                cards=self._owners_wanted(), owner=said["owner"])
        return _("The game is over. {outcome}").format(outcome=most_points_wins(self.totals).text)

    # --- actions -----------------------------------------------------------------------------

    def _do_clue(self, text: str) -> list[Event]:
        clue = " ".join(text.split())
        if not clue:
            raise IllegalMove(_("Say the clue after '{clue}', {teller}.").format(clue=self.verbs["clue"].said,
                                                                                 teller=self.storyteller))
        self.clue = clue
        self.phase = Phase.CARDS
        teller = self.storyteller
        cards, shown = count_cards(self.cards_given), self.verbs["shown"].said
        return [
            Event(
                _("{teller}'s clue: {clue}").format(teller=teller, clue=as_sentence(clue)) + " "
                + _("Everyone else, give {teller} {cards} for it, face down. {teller}, shuffle them with yours, lay the "
                    "{count} cards out face up and say '{shown}'.").format(
                    teller=teller, cards=cards, count=self.cards_shown, shown=shown),
                brief=_("Clue: {clue} Give {teller} {cards}, then say {shown}.").format(
                    clue=as_sentence(clue), teller=teller, cards=cards, shown=shown),
            )
        ]

    def _do_shown(self) -> list[Event]:
        self.phase = Phase.VOTE
        teller, clue = self.storyteller, already_set(self.clue, "the clue")
        return [
            Event(
                _("The {count} cards are on the table, numbered 1 to {count} from the left. The clue was: {clue} "
                  "Everyone but {teller}, vote in secret for the card you think is {teller}'s: say '{vote}', your name "
                  "and the number.").format(count=self.cards_shown, clue=as_sentence(clue), teller=teller,
                                            vote=self.verbs["vote"].said),
                brief=_("Cards 1 to {count}. Clue: {clue} Vote for {teller}'s card.").format(
                    count=self.cards_shown, clue=as_sentence(clue), teller=teller),
            )
        ]

    def _all_voted(self) -> list[Event]:
        self.phase = Phase.REVEAL
        revealed = " ".join(
            _("Card {number}: {voters}.").format(number=number, voters=join_names(voters))
            for number, voters in self._voters_by_card().items() if voters
        )
        which = _("{teller}, which card is yours?").format(teller=self.storyteller)
        return [
            Event(
                _("All votes are in.") + f" {revealed} {which} "
                + _("Say '{card}' and its number.").format(card=self.verbs["card"].said),
                brief=f"{revealed} {which}",
            )
        ]

    def _card_refusal(self, number: int) -> str | None:
        unownable = self._unownable(number, {})
        if unownable is None:
            return None
        return _("Everyone voted for card {card}, and nobody may vote for their own card, so card {card} must be the "
                 "storyteller's. If a vote was entered wrongly, undo it.").format(card=unownable)

    def _do_card(self, text: str) -> list[Event]:
        number = self._number(text)
        refusal = self._card_refusal(number)
        if refusal:
            raise IllegalMove(refusal)
        self.storyteller_card = number
        self.phase = Phase.OWNERS
        found = self._found()
        whose = _("Card {number} is {teller}'s: {found}.").format(number=number, teller=self.storyteller, found=found)
        if not self._missing_owners():  # every vote found the storyteller's card: no owner changes the score
            return [Event(whose), *self._score_turn(), *self._end_turn()]
        wanted = self._owners_wanted()
        return [
            Event(
                whose + " " + _("Now say who gave {cards}: '{owner}', the card number and the name.").format(
                    cards=wanted, owner=self.verbs["owner"].said),
                brief=whose + " " + _("Who gave {cards}?").format(cards=wanted),
            )
        ]

    def _owner_refusal(self, number: int, player: str) -> str | None:
        """Why `player` cannot be the owner of card `number`, or None."""
        teller, card = self.storyteller, already_set(self.storyteller_card, "the storyteller's card")
        if number == card:
            return _("Card {number} is {teller}'s own card; say who gave the other cards.").format(number=number, teller=teller)
        if player == teller:
            return _("{teller} is the storyteller, whose card is card {card}; say which other player gave card {number}.").format(
                teller=teller, card=card, number=number)
        if not self._needs_owner(number):
            return _("Nobody voted for card {number}, so who gave it does not change the score: say who gave {cards}.").format(
                number=number, cards=self._owners_wanted())
        if number in self.owners:
            return _("Card {number} is already {owner}'s, and each card has one owner. If that was wrong, undo it.").format(
                number=number, owner=self.owners[number])
        owned = self._cards_of(player, self.owners)
        if len(owned) == self.cards_given:
            return _("{player} gave {cards}, already known: {owned}. If that was wrong, undo it.").format(
                player=player, cards=count_cards(self.cards_given), owned=numbered(owned))
        if self.votes[player] == number:
            return _("{player} voted for card {number}, and nobody may vote for their own card: if the vote was entered "
                     "wrongly, undo it.").format(player=player, number=number)
        unownable = self._unownable(card, {**self.owners, number: player})
        if unownable is not None:
            return _("Then nobody could own card {card}: everyone still to be named voted for it. Check the owners, or "
                     "undo a vote entered wrongly.").format(card=unownable)
        return None

    def _do_owner(self, text: str, name: str) -> list[Event]:
        number = self._number(text)
        player = find_player(name, self.players)
        refusal = self._owner_refusal(number, player)
        if refusal:
            raise IllegalMove(refusal)
        self.owners[number] = player
        events = [Event(_("Card {number} is {player}'s.").format(number=number, player=player))]
        if not self._missing_owners():
            events.extend(self._score_turn())
            events.extend(self._end_turn())
        return events

    # --- GameState ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        teller = self.storyteller
        if self.phase == Phase.STORYTELLER:
            return self._storyteller_choices()
        if self.phase == Phase.CLUE:
            return [Choice(Action("clue", None, ("<clue>",)), _("{teller} gives the clue").format(teller=teller),
                           free_text=True)]
        if self.phase == Phase.CARDS:
            return [Choice(Action("shown"), _("the {count} cards are laid out").format(count=self.cards_shown))]
        if self.phase == Phase.VOTE:
            return self._vote_choices({})
        if self.phase == Phase.REVEAL:
            return [
                Choice(Action("card", None, (str(number),)), _("card {number} is {player}'s").format(number=number, player=teller))
                for number in self.numbers
                if self._card_refusal(number) is None
            ]
        if self.phase == Phase.OWNERS:
            return [
                Choice(Action("owner", None, (str(number), player)), _("card {number} is {player}'s").format(
                    number=number, player=player))
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

    def secret_input(self) -> bool:
        return self.phase == Phase.VOTE

    def secrets(self, player: str) -> list[str]:
        vote = self.votes.get(player)
        return [] if vote is None else [_("Your vote: card {number}.").format(number=vote)]

    def view(self, player: str | None) -> PhysicalDixitView:
        """The table as everyone sees it; the votes only once all are in, except `player`'s own."""
        positions = []
        if self.phase in ON_TABLE:
            votes = self._voters_by_card() if self.phase in VOTES_OPEN else {}
            for number in self.numbers:
                owner = self.storyteller if number == self.storyteller_card else self.owners.get(number)
                voters = votes.get(number)
                positions.append(Position(number, owner, None if voters is None else tuple(voters)))
        return PhysicalDixitView(
            **vars(self._seen(None if player is None else find_player(player, self.players))),
            storyteller_card=self.storyteller_card,
            positions=tuple(positions),
            owners_missing=tuple(self._missing_owners()) if self.phase == Phase.OWNERS else (),
        )

    moves = {
        "storyteller": DixitGame._do_storyteller,
        "clue": _do_clue,
        "shown": _do_shown,
        "vote": DixitGame._do_vote,
        "card": _do_card,
        "owner": _do_owner,
    }


def _make(settings: Settings, services: Services) -> DixitGame:
    deck = settings.get("deck")
    if deck is not None:
        return DescribedDixit(settings["players"], described_deck(deck), settings["seed"], contando=settings["contando"])
    return DixitState(
        settings["players"], contando=settings["contando"], deck_size=settings["deck_size"], owners=settings["owners"]
    )


SPEC = GameSpec(
    "dixit", "Dixit", MIN_PLAYERS, MAX_PLAYERS,
    (
        Option("contando", False, N_("the Contando scoring variant")),
        # games saved before the option existed were played with the full deck
        Option(
            "deck_size", DECK_SIZE, N_("cards in the deck you play with, e.g. a partial deck or with expansions"),
            low=1, high=1000, flag="cards",
        ),
        # games saved before the option existed asked for every owner: they replay as they were played
        Option(
            "owners", "needed",
            N_("whose cards' owners are asked: only those the score needs (the cards with votes), or every card"),
            choices=OWNERS, saved_before="every",
        ),
    ),
    _make,
)
