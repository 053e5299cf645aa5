"""What Dixit's two modes share, by the rulebook: the deal (`Deal`: hands of 6, 7 with 3
players, and the cards shown), and in `DixitGame` the turns and the storyteller, the secret votes
(changed until all are in), the scoring with the Contando variant, and the end when the draw pile
runs out. The modes: the physical cards (`games.dixit`) and a deck told in words
(`games.dixit_described`).

Rules: as `storyhost rules dixit` gives them (the rulebook's worked example and variants), with
its RULINGS where the rulebook is open.
"""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from games.base import (
    Action,
    BadArgument,
    Choice,
    Event,
    GameState,
    GameView,
    IllegalMove,
    NotYourTurn,
    Outcome,
    SetupError,
    Verb,
    already_set,
    check_player_names,
    join_names,
    most_points_wins,
)
from games.language import N_, _, n_

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


class Phase(str, Enum):
    STORYTELLER = "storyteller"
    CLUE = "clue"
    CARDS = "cards"
    VOTE = "vote"
    REVEAL = "reveal"
    OWNERS = "owners"
    OVER = "over"


@dataclass(frozen=True)
class Deal:
    """Dixit's deal by the rulebook for a number of players: the hands (6 cards each; 7 with 3
    players), and the cards shown on a turn (one from each player; the storyteller's and two from
    each other player with 3), which are drawn back at its end."""

    players: int

    @property
    def hand_size(self) -> int:
        return THREE_PLAYER_HAND_SIZE if self.players == 3 else HAND_SIZE

    @property
    def cards_given(self) -> int:
        """The cards each player but the storyteller gives for the clue."""
        return THREE_PLAYER_CARDS_GIVEN if self.players == 3 else 1

    @property
    def cards_shown(self) -> int:
        return 1 + self.cards_given * (self.players - 1)

    @property
    def dealt(self) -> int:
        return self.hand_size * self.players

    @property
    def least(self) -> int:
        """The smallest deck a game can be played with: the hands and one turn's refill."""
        return self.dealt + self.cards_shown


def count_cards(count: int) -> str:
    """'one card', 'two cards', '49 cards', in the table's language."""
    if count == 2:
        return _("two cards")
    return n_("one card", "{count} cards", count).format(count=count)


def as_sentence(text: str) -> str:
    return text if text[-1] in ".!?" else f"{text}."


def numbered(numbers: Sequence[int]) -> str:
    """'card 3', 'cards 2 and 4'."""
    return n_("card {numbers}", "cards {numbers}", len(numbers)).format(
        numbers=join_names([str(number) for number in numbers]))


@dataclass(frozen=True)
class DixitView(GameView):
    """What both modes show: the turn and its storyteller, the clue, the deal, who has voted
    (never for what), the scores and the winners; in a player's own view, `player` and their
    vote (`my_vote`; None in everyone's view). Each mode's view extends it."""

    players: tuple[str, ...]
    contando: bool
    deck_size: int
    turn: int
    phase: Phase
    last_turn: bool
    storyteller: str | None
    clue: str | None
    hand_size: int
    cards_given: int
    cards_shown: int
    draw_pile: int
    voted: tuple[str, ...]
    scores: Mapping[str, int]
    winners: tuple[str, ...]
    player: str | None
    my_vote: int | None


STORYTELLER = Verb("storyteller", True, (), N_("First turn only: who found a sentence first is the storyteller."))
VOTE_HELP = N_("A player's secret vote for the card they think is the storyteller's; it may be changed until all are in.")


class DixitGame(GameState):
    """What both modes share: the players and the deal, the turns and the storyteller, the
    clue, the secret votes (changed until all are in), the scoring and the end by the draw pile."""

    game = "dixit"
    #: the verbs each phase takes
    phase_verbs: ClassVar[dict[Phase, frozenset[str]]]

    def __init__(self, players: Sequence[str], contando: bool, deck_size: int) -> None:
        self.players = check_player_names(players, MIN_PLAYERS, MAX_PLAYERS)
        self.contando = contando
        deal = Deal(len(self.players))
        self.hand_size, self.cards_given, self.cards_shown = deal.hand_size, deal.cards_given, deal.cards_shown
        if deck_size < deal.least:
            raise SetupError(
                _("A deck of {size} cards is too small for {players} players: the hands take {dealt} cards and one "
                  "turn draws {shown} more, so play with at least {least} cards.").format(
                    size=deck_size, players=len(self.players), dealt=deal.dealt, shown=self.cards_shown, least=deal.least)
            )
        self.deck_size = deck_size
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

    @property
    @abstractmethod
    def draw_pile(self) -> int:
        """The cards left in the draw pile."""

    @abstractmethod
    def _draw(self) -> int:
        """Fill the hands back up from the draw pile at the end of a turn; the cards drawn."""

    @abstractmethod
    def _all_voted(self) -> list[Event]:
        """What happens when the last vote is in."""

    @abstractmethod
    def _your_clue(self, storyteller: str) -> tuple[str, str]:
        """What the storyteller does first in a turn, at verbosity normal and brief."""

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

    def _voters_by_card(self) -> dict[int, list[str]]:
        return {number: [voter for voter in self.voters if self.votes[voter] == number] for number in self.numbers}

    def _finders(self) -> list[str]:
        return [player for player in self.voters if self.votes[player] == self.storyteller_card]

    def _found(self) -> str:
        """Who found the storyteller's card: 'nobody found it', 'only Leo found it'."""
        finders = self._finders()
        if not finders:
            return _("nobody found it")
        if len(finders) == len(self.voters):
            return _("everyone found it")
        if len(finders) == 1:
            return _("only {finder} found it").format(finder=finders[0])
        return _("{finders} found it").format(finders=join_names(finders))

    def _check_move(self, verb: Verb, player: str | None) -> None:
        if verb.name not in self.phase_verbs.get(self.phase, frozenset()):
            raise IllegalMove(_("'{verb}' is not possible now. {next}").format(verb=verb.said, next=self._next_step()))

    @abstractmethod
    def _next_step(self) -> str:
        """What the game waits for now, in a sentence or two."""

    def _number(self, text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = 0
        if number not in self.numbers:
            raise BadArgument(
                # not repeated: while votes are typed, the number typed is a secret
                _("The cards on the table are numbered 1 to {shown}: say one of those numbers.").format(
                    shown=self.cards_shown)
            )
        return number

    # --- moves of both modes -----------------------------------------------------------------

    def _do_storyteller(self, player: str) -> list[Event]:
        return [Event(_("{player} found a sentence first.").format(player=player)), *self._start_turn(player)]

    def _start_turn(self, storyteller: str) -> list[Event]:
        self.storyteller = storyteller
        self.phase = Phase.CLUE
        self._clear_table()
        last = " " + _("This is the last turn.") if self.is_last_turn() else ""
        normal, brief = self._your_clue(storyteller)
        return [
            Event(_("Turn {turn}: {storyteller} is the storyteller.").format(turn=self.turn, storyteller=storyteller)
                  + f"{last} {normal}",
                  brief=_("Turn {turn}.").format(turn=self.turn) + f"{last} {brief}")
        ]

    def _check_vote(self, player: str, number: int) -> None:
        """A mode's own refusal of a vote for card `number` by `player`."""

    def _do_vote(self, player: str, text: str) -> list[Event]:
        """A vote, or a new one by a player who voted already: a token face down may be taken back
        until every token is down (the table hears alike whether it changed, never the card)."""
        if player == self.storyteller:
            raise NotYourTurn(_("{player} is the storyteller and does not vote; the other players vote.").format(player=player))
        number = self._number(text)
        self._check_vote(player, number)
        before = self.votes.get(player)
        self.votes[player] = number
        counted, voters = len(self.votes), len(self.voters)
        if before is not None:
            mine = (_("Your vote stays card {number}.") if before == number
                    else _("You changed your vote to card {number}.")).format(number=number)
            return [
                Event(mine, to=player),
                Event(_("{player} voted again ({count} of {voters} have voted).").format(
                    player=player, count=counted, voters=voters),
                    brief=_("{player} voted again.").format(player=player)),
            ]
        events = [
            Event(_("You voted for card {number}.").format(number=number), to=player),
            Event(_("{player} has voted ({count} of {voters}).").format(player=player, count=counted, voters=voters),
                  brief=_("{player} voted.").format(player=player)),
        ]
        if not self._missing_votes():
            events.extend(self._all_voted())
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
        """Why the turn scored as it did (left out when brief), then the scores, each player named
        once: with what they scored this turn, or (brief) the totals alone."""
        teller, finders = already_set(self.storyteller, "the storyteller"), self._finders()
        points = self._turn_points()
        if not finders:
            why = _("Nobody found {teller}'s card, so {teller} scores nothing and everyone else scores {points}.")
        elif len(finders) == len(self.voters):
            why = _("Everyone found {teller}'s card, so {teller} scores nothing and everyone else scores {points}.")
        elif len(finders) > 1:
            why = _("{finders} found {teller}'s card, so {scorers} score {points}.")
        elif points[teller] == CONTANDO_POINTS:
            why = _("Only {finders} found {teller}'s card, so with the Contando variant, {scorers} score {points}.")
        else:
            why = _("Only {finders} found {teller}'s card, so {scorers} score {points}.")
        reward = SHARED_POINTS if len(finders) in (0, len(self.voters)) else points[teller]
        why = why.format(teller=teller, finders=join_names(finders), scorers=join_names([teller, *finders]), points=reward)
        bonus = [_("{player} {score}").format(player=voter, score=received)
                 for voter, received in self._votes_received().items() if received]
        if bonus:
            why += " " + _("Votes for their cards: {bonus}.").format(bonus=join_names(bonus))
        for player, gained in points.items():
            self.totals[player] += gained
        this_turn = _(", ").join(_("{player} {score}").format(player=player, score=gained) for player, gained in points.items())
        self.last_explanation = _("Turn {turn}: {why} Points: {points}.").format(turn=self.turn, why=why, points=this_turn)
        scores = _(", ").join(
            _("{player} {score} (+{gained})").format(player=player, score=total, gained=points[player]) if points[player]
            else _("{player} {score}").format(player=player, score=total)
            for player, total in self.totals.items()
        )
        totals = _(", ").join(_("{player} {score}").format(player=player, score=total) for player, total in self.totals.items())
        return [Event(why, brief=""), Event(_("Scores: {scores}.").format(scores=scores),
                                            brief=_("Scores: {scores}.").format(scores=totals))]

    def _end_turn(self) -> list[Event]:
        drawn = self._draw()
        if self.draw_pile == 0:
            self.phase = Phase.OVER
            if drawn < self.cards_shown:
                ending = _("The draw pile runs out before every hand is full, so the game is over.")
            else:
                ending = _("The last card of the draw pile has been drawn, so the game is over.")
            return [Event(f"{ending} {most_points_wins(self.totals).text}")]
        self.turn += 1
        refill = Event(
            _("Everyone draws back up to {hand} cards; {cards} left in the draw pile.").format(
                hand=self.hand_size, cards=count_cards(self.draw_pile)),
            brief="",
        )
        next_teller = self.players[(self.players.index(already_set(self.storyteller, "the storyteller")) + 1) % len(self.players)]
        return [refill, *self._start_turn(next_teller)]

    def _storyteller_choices(self) -> list[Choice]:
        return [Choice(Action("storyteller", player), _("{player} is the storyteller").format(player=player))
                for player in self.players]

    def _vote_choices(self, excluded: Mapping[str, Sequence[int]]) -> list[Choice]:
        """Every vote: those still to vote first; a player who voted may vote again until all
        have. `excluded`: the cards each player may not vote for."""
        again = tuple(player for player in self.voters if player in self.votes)
        return [
            Choice(Action("vote", player, (str(number),)), _("{player} votes for card {number}").format(
                player=player, number=number))
            for player in (*self._missing_votes(), *again)
            for number in self.numbers
            if number not in excluded.get(player, ())
        ]

    # --- GameState ---------------------------------------------------------------------------

    def status(self) -> str:
        if self.is_over():
            return self._next_step()
        last = " " + _("This is the last turn.") if self.is_last_turn() else ""
        # the clue, until the storyteller's card is known: what the cards and votes are for
        clue = " " + _("{teller}'s clue: {clue}").format(teller=self.storyteller, clue=as_sentence(self.clue)) \
            if self.clue and self.phase in (Phase.CARDS, Phase.VOTE, Phase.REVEAL) else ""
        return f"{self.pile_status()}{last}{clue} {self._next_step()}"

    def pile_status(self) -> str:
        """'Turn 2, 49 cards in the draw pile.'"""
        return _("Turn {turn}, {cards} in the draw pile.").format(turn=self.turn, cards=count_cards(self.draw_pile))

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

    def _seen(self, player: str | None) -> DixitView:
        """What everyone may know in both modes, and `player`'s own vote (each mode's `view`
        extends it with its own fields)."""
        outcome = self.outcome()
        return DixitView(
            players=self.players,
            contando=self.contando,
            deck_size=self.deck_size,
            turn=self.turn,
            phase=self.phase,
            last_turn=self.is_last_turn(),
            storyteller=self.storyteller,
            clue=self.clue,
            hand_size=self.hand_size,
            cards_given=self.cards_given,
            cards_shown=self.cards_shown,
            draw_pile=self.draw_pile,
            voted=tuple(voter for voter in self.voters if voter in self.votes),
            scores=self.scores(),
            winners=outcome.winners if outcome else (),
            player=player,
            my_vote=None if player is None else self.votes.get(player),
        )
