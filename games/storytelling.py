"""Storytelling: the storyteller reads a card, the active player finds its pictures in order
among face-down tiles; cards won are worth victory points.

Rules: as `storyhost rules storytelling` gives them, with its RULINGS where the rulebook is open,
with the advanced rules of each tale. The storyteller is a role outside the engine: the card
text and its pictures are public (events and view), the host or a person reads them aloud.
Cards are drawn in order; a person reading from their own pile may pick up another card,
and `read NUMBER` tells the engine so before the turn's first flip.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from games.base import (
    Action,
    BadArgument,
    Choice,
    Event,
    GameSpec,
    GameState,
    GameView,
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
    fold_name,
    join_either,
    join_names,
    points,
    quoted,
)
from games.decks import FRAME_COLOURS, TALE_CARDS, TALE_KEYS, Tale, TaleCard
from games.grid import flip_choices, grid_shape, places, typed_place
from games.language import N_, _, n_, p_

MIN_PLAYERS, MAX_PLAYERS = 1, 8
#: the game ends at once when this many cards have been won
CARDS_TO_END = 10
TORTOISE_STEP = 2
#: the tile whose flip on a failed turn triggers the tale's advanced rule
TRIGGER_TILES = {"saint-george": "BREATH", "three-pigs": "BLEW"}
BLOWS = {"row": ("left", "right"), "column": ("up", "down")}
#: each way to blow, as the table hears it done (the player, the tile BLEW), briefly, and offered
BLOWN = {
    ("row", "left"): (
        N_("{player} moves the row through {tile} one place left; the tile pushed out re-enters at the other end. "
           "{tile} is turned face down."),
        N_("The row moves left."), N_("blow the row left")),
    ("row", "right"): (
        N_("{player} moves the row through {tile} one place right; the tile pushed out re-enters at the other end. "
           "{tile} is turned face down."),
        N_("The row moves right."), N_("blow the row right")),
    ("column", "up"): (
        N_("{player} moves the column through {tile} one place up; the tile pushed out re-enters at the other end. "
           "{tile} is turned face down."),
        N_("The column moves up."), N_("blow the column up")),
    ("column", "down"): (
        N_("{player} moves the column through {tile} one place down; the tile pushed out re-enters at the other end. "
           "{tile} is turned face down."),
        N_("The column moves down."), N_("blow the column down")),
}


def said_words() -> dict[str, str]:
    """The words of the grid's lines and of the directions a blow takes, by id ('row': 'fila'),
    in the table's language."""
    return {
        "row": p_("line", "row"), "column": p_("line", "column"),
        "left": p_("direction", "left"), "right": p_("direction", "right"),
        "up": p_("direction", "up"), "down": p_("direction", "down"),
    }


def blow_word(word: str) -> str:
    """A line or direction typed in the table's language ('fila', 'izquierda') as its id ('row',
    'left'); any other word (an English one among them) as it is."""
    for known, said in said_words().items():
        if fold_name(word) == fold_name(said) and fold_name(word) != known:
            return known
    return word


class Phase(str, Enum):
    FLIP = "flip"
    BLOW = "blow"
    DECIDE = "decide"
    OVER = "over"


def rank(totals: dict[str, tuple[int, int]]) -> Outcome:
    """Winners from (points, cards) by player: most points, then most cards, then shared.

    A player without cards cannot win: when nobody has a card (possible in Cinderella), nobody wins.
    """
    holders = {player: total for player, total in totals.items() if total[1] > 0}
    if not holders:
        return Outcome((), _("Nobody has any card left: nobody wins."))
    best = max(holders.values())
    winners = tuple(player for player, total in holders.items() if total == best)
    scored, cards = best
    by_cards = sum(total[0] == scored for total in holders.values()) > len(winners)
    if len(winners) > 1:
        return Outcome(winners, _("{winners} share the victory with {points} and {cards} each.").format(
            winners=join_names(winners), points=points(scored), cards=card_count(cards)))
    if by_cards:
        return Outcome(winners, _("{winner} wins with {points}, a tie broken by having more cards ({cards}).").format(
            winner=winners[0], points=points(scored), cards=cards))
    return Outcome(winners, _("{winner} wins with {points}.").format(winner=winners[0], points=points(scored)))


def card_count(count: int) -> str:
    """'1 card', '2 cards', in the table's language."""
    return n_("{count} card", "{count} cards", count).format(count=count)


def check_tale(tale: Tale, tile_count: int, frames: bool) -> None:
    """What the engine relies on: distinct tiles, cards 1 to 13, pictures that are tiles."""
    if tale.key not in TALE_KEYS:
        raise SetupError(_("Unknown tale '{tale}': choose one of {tales}.").format(
            tale=tale.key, tales=join_either(TALE_KEYS)))
    names = [tile.name for tile in tale.tiles]
    if len(set(names)) != tile_count or len(names) != tile_count:
        raise SetupError(_("A tale needs {needed} tiles with different names, not {count}.").format(
            needed=tile_count, count=len(names)))
    if sorted(card.number for card in tale.cards) != list(range(1, TALE_CARDS + 1)):
        raise SetupError(_("A tale needs {count} cards numbered 1 to {count}.").format(count=TALE_CARDS))
    for card in tale.cards:
        if not card.pictures or len(set(card.pictures)) != len(card.pictures) or not set(card.pictures) <= set(names):
            raise SetupError(_("Card {number} must show different pictures, each one a tile of the tale.").format(
                number=card.number))
    if frames and any(tile.frame not in FRAME_COLOURS for tile in tale.tiles):
        raise SetupError(_("Every Cinderella tile needs a frame colour: {colours}.").format(
            colours=join_either(FRAME_COLOURS)))


@dataclass(frozen=True)
class PlaceView:
    """A place of the grid ('B3') and its tile's name, None while face down."""

    place: str
    name: str | None


@dataclass(frozen=True)
class Holding:
    """A player's cards won, their points, and whether they retired (Cinderella)."""

    name: str
    cards: tuple[int, ...]
    points: int
    retired: bool


@dataclass(frozen=True)
class Clock:
    """Cinderella's clock: the steps it moved, of those to midnight."""

    steps: int
    of: int


@dataclass(frozen=True)
class Race:
    """The Hare and the Tortoise: their squares, the finish, and the cards discarded."""

    tortoise: int
    hare: int
    finish: int
    discarded: tuple[int, ...]


@dataclass(frozen=True)
class StorytellingView(GameView):
    """The game as everyone sees it (a player's view is the same): `turn` counts the turns from
    1, each with a card drawn; `grid` row by row, 'A1' first; `card` while a turn is played, with
    the pictures `found` so far; the clock or the race of the tales that have them."""

    tale: str
    tale_key: str
    advanced: bool
    phase: Phase
    turn: int
    active: str | None
    rows: int
    columns: int
    grid: tuple[PlaceView, ...]
    card: TaleCard | None
    found: tuple[str, ...]
    draw_pile: int
    read_pile: int
    players: tuple[Holding, ...]
    clock: Clock | None
    race: Race | None
    outcome: str | None

    def tile(self, place: str) -> str | None:
        """The name of the tile face up at `place`, None while face down (KeyError: no such place)."""
        found = next((view for view in self.grid if view.place == place), None)
        if found is None:
            raise KeyError(place)
        return found.name


class StorytellingState(GameState):
    game = "storytelling"
    #: the tale is immutable; the RNG is drawn from only after every check of a move has passed
    #: (a refused move never advances it), and sharing it keeps a move's copy cheap
    not_copied = ("tale", "cards", "rng")
    #: a move may name the active player, who makes every move
    names_mover = True
    verbs = {
        "flip": Verb(
            "flip", False, ("position",),
            N_("Turn a face-down tile face up: its column letter and row number, such as flip B3, or just B3."),
        ),
        "read": Verb(
            "read", False, ("number",),
            N_("The storyteller reads card NUMBER instead of the one on top (a human storyteller's own pile)."),
        ),
        "blow": Verb(
            "blow", False, ("line", "direction"),
            N_("Three little pigs, advanced: move the row left or right, or the column up or down, through BLEW."),
            value_said=lambda value: said_words().get(value, value),
        ),
        "retire": Verb("retire", False, (), N_("Cinderella, advanced: leave the game now and keep your cards.")),
        "stay": Verb("stay", False, (), N_("Cinderella, advanced: stay in the game and risk your cards at midnight.")),
    }

    def __init__(
        self,
        players: Sequence[str],
        tale: Tale,
        seed: int,
        advanced: bool = False,
        clock_steps: int = 12,
        track_length: int = 16,
    ) -> None:
        self.players = check_player_names(players, MIN_PLAYERS, MAX_PLAYERS)
        self.variant = tale.key if advanced else None
        self.race = self.variant == "hare-tortoise"
        self.rows, self.columns = (2, 8) if self.race else (4, 4)
        check_tale(tale, self.rows * self.columns, self.variant == "cinderella")
        self.trigger = tale.named(TRIGGER_TILES[self.variant]) if self.variant in TRIGGER_TILES else None
        if self.trigger and self.trigger not in (tile.name for tile in tale.tiles):
            raise SetupError(_("The advanced rules of this tale need a {tile} tile.").format(tile=self.trigger))
        if clock_steps < 1:
            raise SetupError(_("The clock needs at least one step."))
        # the hare must start before Finish, and 13 cards must be enough for the tortoise to finish
        if self.race and not len(self.players) < track_length <= TORTOISE_STEP * TALE_CARDS:
            raise SetupError(n_(
                "With {count} player the race track needs {least} to {most} squares, not {length}.",
                "With {count} players the race track needs {least} to {most} squares, not {length}.",
                len(self.players),
            ).format(count=len(self.players), least=len(self.players) + 1, most=TORTOISE_STEP * TALE_CARDS,
                     length=track_length))
        self.tale = tale
        self.cards = tuple(sorted(tale.cards, key=lambda card: card.number))
        self.clock_steps, self.track_length = clock_steps, track_length
        self.rng = random.Random(seed)
        self.grid = [tile.name for tile in tale.tiles]
        self.rng.shuffle(self.grid)
        #: the tiles the table has seen face up: where they go when a row or column moves is said
        self.seen: set[str] = set()
        self.draw = list(range(1, TALE_CARDS + 1))
        self.read: list[int] = []
        self.won: dict[str, list[int]] = {player: [] for player in self.players}
        self.discarded: list[int] = []
        self.retired: tuple[str, ...] = ()
        self.clock = 0
        self.tortoise, self.hare = 0, len(self.players)
        self.result: Outcome | None = None
        self.seat = 0
        #: the turns begun, each with a card drawn (a card read instead changes no turn)
        self.turn = 0
        self._start_turn()

    # --- where the game stands ---------------------------------------------------------------

    @property
    def active(self) -> str:
        return self.players[self.seat]

    @property
    def card(self) -> TaleCard:
        return self.cards[self.card_number - 1]

    def position(self, index: int) -> str:
        return places(self.rows, self.columns)[index]

    def parse(self, line: str) -> Action:
        """A flip's place may be typed 'B3', 'b3', 'b 3' or '3b', with or without 'flip'; a blow's
        line and direction in English or the table's language ('blow fila izquierda')."""
        place = typed_place(line)
        if place is not None:
            return Action("flip", None, (place,))
        action = super().parse(line)
        if action.verb == "blow":
            return Action("blow", action.player, tuple(blow_word(word) for word in action.args))
        return action

    def _index(self, position: str) -> int:
        try:
            return places(self.rows, self.columns).index(position.upper())
        except ValueError:
            raise BadArgument(_(
                "There is no place {typed} in {shape}: say a column letter and a row number, for example flip {place}."
            ).format(typed=quoted(position), shape=grid_shape(self.rows, self.columns),
                     place=self.position(self._face_down()[0]))) from None

    def points(self, player: str) -> int:
        return sum(self.cards[number - 1].points for number in self.won[player])

    def _prompt(self) -> str:
        """What the game waits for, as an instruction."""
        if self.phase == Phase.BLOW:
            return _("{player} must move the row or the column through {tile}: say blow row left, blow row right, "
                     "blow column up or blow column down.").format(player=self.active, tile=self._trigger())
        if self.phase == Phase.DECIDE:
            return _("{player} must say retire, to keep their cards and leave the game, or stay.").format(
                player=self.active)
        return _("{player} must flip a face-down tile, for example flip {place}.").format(
            player=self.active, place=self.position(self._face_down()[0]))

    def _trigger(self) -> str:
        """The tile of the tale's advanced rule (BLEW), in a phase that has one."""
        return already_set(self.trigger, "the advanced rule's tile")

    def _face_down(self) -> list[int]:
        return [index for index in range(len(self.grid)) if index not in self.flipped]

    def shape(self) -> Event:
        """How the tiles lie, said first when the game is taken up."""
        shape = grid_shape(self.rows, self.columns)
        return Event(_("The tiles lie in {shape}; A1 is the top left corner.").format(shape=shape),
                     brief=f"{shape[0].upper()}{shape[1:]}.")

    def opening(self) -> list[Event]:
        """The grid's shape; then the card again, and, resumed in the middle of a turn, what was
        found and what is next."""
        if self.phase != Phase.FLIP:
            return [Event(self.status())]
        return [self.shape(), *self.reading(), *([Event(self.status())] if self.found else [])]

    def reading(self) -> list[Event]:
        """The announcements of the card just drawn: whose turn, the text (cue "card": a human
        storyteller reads it instead), the pictures to find (cue "pictures")."""
        card = self.card
        pictures = _(", ").join(card.pictures)
        count = len(card.pictures)
        return [
            Event(_("{player}, it is your turn.").format(player=self.active), brief=""),
            Event(_("Card {number}: {text}").format(number=card.number, text=card.text), cue="card"),
            Event(
                n_("{player}, find {count} picture in this order: {pictures}.",
                   "{player}, find {count} pictures in this order: {pictures}.", count).format(
                    player=self.active, count=count, pictures=pictures),
                cue="pictures", brief=_("{player}, find {pictures}.").format(player=self.active, pictures=pictures),
            ),
        ]

    # --- the course of a turn ----------------------------------------------------------------

    def _start_turn(self) -> list[Event]:
        events = []
        if not self.draw:
            self.draw, self.read = sorted(self.read), []
            events.append(Event(_("Every card has been read: the read pile is turned over, card {number} on top.").format(
                number=self.draw[0])))
        self.card_number = self.draw.pop(0)
        self.turn += 1
        self.found = 0
        self.flipped: list[int] = []
        self.phase = Phase.FLIP
        return events + self.reading()

    def _next_turn(self) -> list[Event]:
        self.seat = next(
            seat % len(self.players)
            for seat in range(self.seat + 1, self.seat + len(self.players) + 1)
            if self.players[seat % len(self.players)] not in self.retired
        )
        return self._start_turn()

    def _finish(self, outcome: Outcome) -> list[Event]:
        self.result = outcome
        self.phase = Phase.OVER
        self.flipped = []
        final = [] if self.race else [Event(_("Final scores: {scores}.").format(scores=self._standings()))]
        return [Event(_("The game is over. {outcome}").format(outcome=outcome.text)), *final]  # the race was just said

    def _holdings(self, player: str) -> str:
        """'Marc 3 points, cards 2 and 5', 'Lea 0 points, no card, retired'."""
        cards = sorted(self.won[player])
        held = n_("card {numbers}", "cards {numbers}", len(cards)).format(
            numbers=join_names([str(number) for number in cards])) if cards else _("no card")
        if player in self.retired:
            return _("{player} {points}, {cards}, retired").format(
                player=player, points=points(self.points(player)), cards=held)
        return _("{player} {points}, {cards}").format(player=player, points=points(self.points(player)), cards=held)

    def _race(self) -> str:
        return _("The tortoise is on square {tortoise} and the hare on square {hare}; Finish is square {finish}.").format(
            tortoise=self.tortoise, hare=self.hare, finish=self.track_length)

    def score_report(self) -> list[str]:
        """Every player's points and cards; in the race, which everyone wins or loses together, the race."""
        if self.race:
            return [_("{race} Cards won and discarded: {count}.").format(race=self._race(), count=len(self.discarded))]
        return [_("Scores: {scores}.").format(scores=self._standings())]

    def _standings(self) -> str:
        return "; ".join(self._holdings(player) for player in self.players)

    def _score_outcome(self) -> Outcome:
        return rank({player: (self.points(player), len(self.won[player])) for player in self.players})

    def _card_won(self) -> list[Event]:
        card = self.card
        if self.race:
            self.discarded.append(card.number)
            self.tortoise = min(self.track_length, self.tortoise + TORTOISE_STEP)
            events = [Event(n_(
                "{player} wins card {number}: it is discarded and the tortoise moves {count} square.",
                "{player} wins card {number}: it is discarded and the tortoise moves {count} squares.",
                TORTOISE_STEP,
            ).format(player=self.active, number=card.number, count=TORTOISE_STEP))]
        else:
            self.won[self.active].append(card.number)
            events = [Event(_("{player} wins card {number} and {points}.").format(
                player=self.active, number=card.number, points=points(card.points)))]
        return events + self._end_turn(won=True)

    def _card_failed(self, wrong: int) -> list[Event]:
        triggered = self.trigger is not None and self.trigger in (self.grid[index] for index in self.flipped)
        if triggered and self.variant == "three-pigs":
            blew = self.grid.index(self._trigger())
            others = [index for index in self.flipped if index != blew]
            self.flipped = [blew]
            self.phase = Phase.BLOW
            if others:
                return [Event(_("The wolf blew! {face_down} {tile} stays face up at {place}. {prompt}").format(
                    face_down=self._face_down_text(others), tile=self.trigger, place=self.position(blew),
                    prompt=self._prompt()))]
            return [Event(_("The wolf blew! {tile} stays face up at {place}. {prompt}").format(
                tile=self.trigger, place=self.position(blew), prompt=self._prompt()))]
        events = []
        if triggered and self.variant == "saint-george":
            events.append(self._stinky_breath())
        if self.variant == "cinderella" and self.tale.tile(self.grid[wrong]).frame in {
            self.tale.tile(picture).frame for picture in self.card.pictures
        }:
            self.clock += 1
            events.append(Event(self._clock_text()))
            if self.clock == self.clock_steps:
                return events + self._midnight()
        if self.race:
            self.hare += 1
            events.append(Event(_("The hare moves 1 square.")))
        return events + self._end_turn(won=False, told_face_down=triggered and self.variant == "saint-george")

    def _stinky_breath(self) -> Event:
        emptied = sorted(self.flipped)
        tiles = [self.grid[index] for index in emptied]
        self.rng.shuffle(tiles)
        for index, tile in zip(emptied, tiles):
            self.grid[index] = tile
        where = join_names([self.position(index) for index in emptied])
        if len(emptied) == 1:
            return Event(_("The dragon's stinky breath! The tile flipped this turn goes back face down at {place}.").format(
                place=where))
        return Event(
            _("The dragon's stinky breath! The {count} tiles flipped this turn, at {places}, are shuffled and put back "
              "face down in those places.").format(count=len(emptied), places=where),
            brief=_("Stinky breath! {places} are shuffled face down.").format(places=where),
        )

    def _face_down_text(self, flipped: Sequence[int]) -> str:
        """'B2 and C3 are turned face down again.'"""
        where = [self.position(index) for index in sorted(flipped)]
        return n_("{places} is turned face down again.", "{places} are turned face down again.", len(where)).format(
            places=join_names(where))

    def _clock(self) -> str:
        """The Cinderella clock on one scale, its steps: '3 of 12 steps, 9 to midnight'."""
        return _("{steps} of {total} steps, {left} to midnight").format(
            steps=self.clock, total=self.clock_steps, left=self.clock_steps - self.clock)

    def _clock_text(self) -> str:
        return _("The clock moves one step: {clock}.").format(clock=self._clock())

    def _midnight(self) -> list[Event]:
        losers = [player for player in self.players if player not in self.retired]
        for player in losers:
            self.won[player] = []
        events = [Event(_("Midnight! Every player who has not retired loses all their cards: {players}.").format(
            players=join_names(losers)))]
        return events + self._finish(self._score_outcome())

    def _end_turn(self, won: bool, told_face_down: bool = False) -> list[Event]:
        """Tiles face down (said, unless `told_face_down` already), an unwon card to the read
        pile; then the game ends or goes on."""
        if not won:
            self.read.append(self.card_number)
        down = [] if told_face_down or not self.flipped else [
            Event(self._face_down_text(self.flipped),
                  brief=_("Face down: {places}.").format(
                      places=_(", ").join(self.position(index) for index in sorted(self.flipped))))
        ]
        self.flipped = []
        events = down  # said only if the game goes on
        if self.race:
            events = [*down, Event(self._race())]
            if self.tortoise >= self.track_length:
                return events[len(down):] + self._finish(Outcome(self.players, _("The tortoise reaches Finish first: everyone wins!")))
            if self.hare >= self.track_length:
                return events[len(down):] + self._finish(Outcome((), _("The hare reaches Finish first: everyone loses.")))
        elif sum(len(cards) for cards in self.won.values()) == CARDS_TO_END:  # the race discards won cards
            return self._finish(self._score_outcome())
        if self.variant == "cinderella":
            self.phase = Phase.DECIDE
            return events + [Event(self._prompt())]
        return events + self._next_turn()

    # --- actions -----------------------------------------------------------------------------

    def _check_move(self, verb: Verb, player: str | None) -> None:
        if player is not None and fold_name(player) != fold_name(self.active):
            raise NotYourTurn(_("It is {player}'s turn; say the command without a name.").format(player=self.active))

    def _expect(self, phase: Phase, refusal: str) -> None:
        """IllegalMove unless in `phase`: `refusal` (marked with N_) with what the game waits for."""
        if self.phase != phase:
            raise IllegalMove(_(refusal).format(prompt=self._prompt()))

    def _do_flip(self, position: str) -> list[Event]:
        self._expect(Phase.FLIP, N_("You cannot flip a tile now: {prompt}"))
        index = self._index(position)
        place, name = self.position(index), self.grid[index]
        if index in self.flipped:
            raise IllegalMove(_("{place} is already face up: {tile}. Flip a face-down tile.").format(place=place, tile=name))
        self.flipped.append(index)
        self.seen.add(name)
        events = [Event(f"{place}: {name}.")]  # a tile's name is a label ("BLEW"), said as one
        pictures = self.card.pictures
        if name != pictures[self.found]:
            events.append(Event(_("Wrong: {picture} was next.").format(picture=pictures[self.found]), cue="wrong"))
            return events + self._card_failed(index)
        self.found += 1
        if self.found == len(pictures):
            return events + self._card_won()
        events.append(Event(
            _("Right, {found} of {count}. Next: {picture}.").format(
                found=self.found, count=len(pictures), picture=pictures[self.found]),
            brief=_("Right. Next: {picture}.").format(picture=pictures[self.found]),
        ))
        return events

    def _card_elsewhere(self, number: int) -> str | None:
        """Why card `number` cannot be read now instead of the current card, or None."""
        if number in self.read:
            return _("Card {number} has already been read: it is in the read pile.").format(number=number)
        if number in self.discarded:
            return _("Card {number} has been won and discarded: it is no longer in the draw pile.").format(number=number)
        owner = next((player for player, cards in self.won.items() if number in cards), None)
        if owner is not None:
            return _("Card {number} has been won by {player}: it is no longer in the draw pile.").format(
                number=number, player=owner)
        return None

    def _do_read(self, text: str) -> list[Event]:
        """A human storyteller picked up card `text` rather than the top card: it takes the top
        card's place as the current card, which goes back on top of the draw pile. Naming the
        top card itself changes nothing and repeats its pictures (the storyteller says which
        card they read when the host could not tell)."""
        self._expect(Phase.FLIP, N_("You cannot read another card now: {prompt}"))
        if self.flipped:
            raise IllegalMove(_(
                "A tile has already been flipped for card {number}: the storyteller can change the card only before "
                "the first flip of the turn."
            ).format(number=self.card_number))
        try:
            number = int(text)
        except ValueError:
            number = 0
        if not 1 <= number <= TALE_CARDS:
            raise BadArgument(_("The cards are numbered 1 to {count}: say one of those numbers, not {typed}.").format(
                count=TALE_CARDS, typed=quoted(text)))
        refusal = self._card_elsewhere(number)
        if refusal:
            raise IllegalMove(refusal)
        if number != self.card_number:
            self.draw = [self.card_number, *(card for card in self.draw if card != number)]
            self.card_number = number
        return self.reading()[1:]

    def _do_blow(self, line: str, direction: str) -> list[Event]:
        self._expect(Phase.BLOW, N_("You cannot blow now: {prompt}"))
        line, direction = line.casefold(), direction.casefold()
        if direction not in BLOWS.get(line, ()):
            raise BadArgument(_("Say blow row left, blow row right, blow column up or blow column down."))
        blew = self.grid.index(self._trigger())
        row, column = divmod(blew, self.columns)
        if line == "row":
            moved = [row * self.columns + c for c in range(self.columns)]
        else:
            moved = [r * self.columns + column for r in range(self.rows)]
        before = {self.grid[index]: self.position(index) for index in moved}
        tiles = [self.grid[index] for index in moved]
        tiles = tiles[1:] + tiles[:1] if direction in ("left", "up") else tiles[-1:] + tiles[:-1]
        for index, tile in zip(moved, tiles):
            self.grid[index] = tile
        went = [
            _("{tile} from {source} to {target}").format(
                tile=self.grid[index], source=before[self.grid[index]], target=self.position(index))
            for index in moved if self.grid[index] in self.seen
        ]
        told, brief, _label = BLOWN[(line, direction)]
        events = [
            Event(_(told).format(player=self.active, tile=self._trigger()), brief=_(brief)),
            Event(_("Tiles seen before that moved: {tiles}.").format(tiles=join_names(went))),
        ]
        return events + self._end_turn(won=False, told_face_down=True)

    def _do_retire(self) -> list[Event]:
        self._expect(Phase.DECIDE, N_("You cannot retire now: {prompt}"))
        player = self.active
        self.retired += (player,)
        events = [Event(_("{player} retires and keeps {cards} worth {points}.").format(
            player=player, cards=card_count(len(self.won[player])), points=points(self.points(player))))]
        if len(self.retired) == len(self.players):
            return events + self._finish(self._score_outcome())
        return events + self._next_turn()

    def _do_stay(self) -> list[Event]:
        self._expect(Phase.DECIDE, N_("You cannot stay now: {prompt}"))
        return [Event(_("{player} stays in the game.").format(player=self.active))] + self._next_turn()

    # --- what may happen next ----------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        if self.phase == Phase.FLIP:
            choices = flip_choices(self.rows, self.columns)
            flips = [choices[index] for index in self._face_down()]
            if self.flipped:
                return flips
            return flips + [
                Choice(Action("read", None, (str(number),)), _("the storyteller reads card {number}").format(number=number))
                for number in [self.card_number, *self.draw]
            ]
        if self.phase == Phase.BLOW:
            return [
                Choice(Action("blow", None, (line, direction)), _(label))
                for (line, direction), (_told, _brief, label) in BLOWN.items()
            ]
        if self.phase == Phase.DECIDE:
            return [
                Choice(Action("retire"), _("{player} retires and keeps their cards").format(player=self.active)),
                Choice(Action("stay"), _("{player} stays in the game").format(player=self.active)),
            ]
        return []

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.phase == Phase.OVER else (self.active,)

    def status(self) -> str:
        if self.result is not None:  # set with the phase Phase.OVER
            return _("The game is over. {outcome}").format(outcome=self.result.text)
        if self.phase == Phase.FLIP:
            pictures = self.card.pictures
            found = _("{count} found, next: {picture}.").format(count=self.found, picture=pictures[self.found]) \
                if self.found else _("None found yet.")
            where = n_(
                "Card {number} is read. {player} is finding {count} picture in this order: {pictures}. {found}",
                "Card {number} is read. {player} is finding {count} pictures in this order: {pictures}. {found}",
                len(pictures),
            ).format(number=self.card_number, player=self.active, count=len(pictures),
                     pictures=_(", ").join(pictures), found=found)
        else:
            where = self._prompt()
        where += " " + _("The tiles lie in {shape}.").format(shape=grid_shape(self.rows, self.columns))
        if self.variant == "cinderella":
            where += " " + _("The clock: {clock}.").format(clock=self._clock())
        if self.race:
            where += " " + self._race()
        return where

    def scores(self) -> dict[str, int]:
        return {player: self.points(player) for player in self.players}

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, player: str | None) -> StorytellingView:
        """Everything here is public: only the face-down tiles are hidden, from everyone."""
        playing = self.phase in (Phase.FLIP, Phase.BLOW)
        card = self.card if playing else None
        return StorytellingView(
            tale=self.tale.title,
            tale_key=self.tale.key,
            advanced=self.variant is not None,
            phase=self.phase,
            turn=self.turn,
            active=None if self.phase == Phase.OVER else self.active,
            rows=self.rows,
            columns=self.columns,
            grid=tuple(
                PlaceView(self.position(index), name if index in self.flipped else None)
                for index, name in enumerate(self.grid)
            ),
            card=card,
            found=card.pictures[: self.found] if card else (),
            draw_pile=len(self.draw),
            read_pile=len(self.read),
            players=tuple(
                Holding(name, tuple(self.won[name]), self.points(name), name in self.retired) for name in self.players
            ),
            clock=Clock(self.clock, self.clock_steps) if self.variant == "cinderella" else None,
            race=Race(self.tortoise, self.hare, self.track_length, tuple(self.discarded)) if self.race else None,
            outcome=None if self.result is None else self.result.text,
        )

    moves = {
        "flip": _do_flip,
        "read": _do_read,
        "blow": _do_blow,
        "retire": _do_retire,
        "stay": _do_stay,
    }


def _make(settings: Settings, services: Services) -> StorytellingState:
    return StorytellingState(
        settings["players"],
        Tale.of_game(settings),
        settings["seed"],
        advanced=settings["advanced"],
        clock_steps=settings["clock_steps"],
        track_length=settings["track_length"],
    )


SPEC = GameSpec(
    "storytelling", "Storytelling", MIN_PLAYERS, MAX_PLAYERS,
    (
        Option("advanced", False, N_("the tale's advanced rules")),
        Option("clock_steps", 12, N_("clock steps in Cinderella"), low=1, high=60),
        Option("track_length", 16, N_("squares to Finish in the race"), low=1, high=100),
    ),
    _make,
)
