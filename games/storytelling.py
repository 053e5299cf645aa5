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
import string
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
    join_names,
    plural,
    quoted,
)
from games.decks import FRAME_COLOURS, TALE_CARDS, TALE_KEYS, Tale, TaleCard
from games.grid import flip_choices, grid_shape, places, typed_place

MIN_PLAYERS, MAX_PLAYERS = 1, 8
#: the game ends at once when this many cards have been won
CARDS_TO_END = 10
TORTOISE_STEP = 2
#: the tile whose flip on a failed turn triggers the tale's advanced rule
TRIGGER_TILES = {"saint-george": "BREATH", "three-pigs": "BLEW"}
BLOWS = {"row": ("left", "right"), "column": ("up", "down")}
#: a flip as typed: 'flip B3', 'b3', 'b 3' or '3b' (a place alone is a flip)


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
        return Outcome((), "Nobody has any card left: nobody wins.")
    best = max(holders.values())
    winners = tuple(player for player, total in holders.items() if total == best)
    points, cards = best
    by_cards = sum(total[0] == points for total in holders.values()) > len(winners)
    if len(winners) > 1:
        return Outcome(
            winners,
            f"{join_names(winners)} share the victory with {plural(points, 'point')} and {plural(cards, 'card')} each.",
        )
    if by_cards:
        return Outcome(
            winners,
            f"{winners[0]} wins with {plural(points, 'point')}, a tie broken by having more cards ({cards}).",
        )
    return Outcome(winners, f"{winners[0]} wins with {plural(points, 'point')}.")


def check_tale(tale: Tale, tile_count: int, frames: bool) -> None:
    """What the engine relies on: distinct tiles, cards 1 to 13, pictures that are tiles."""
    if tale.key not in TALE_KEYS:
        raise SetupError(f"Unknown tale '{tale.key}': choose one of {', '.join(TALE_KEYS)}.")
    names = [tile.name for tile in tale.tiles]
    if len(set(names)) != tile_count or len(names) != tile_count:
        raise SetupError(f"A tale needs {tile_count} tiles with different names, not {len(names)}.")
    if sorted(card.number for card in tale.cards) != list(range(1, TALE_CARDS + 1)):
        raise SetupError(f"A tale needs {TALE_CARDS} cards numbered 1 to {TALE_CARDS}.")
    for card in tale.cards:
        if not card.pictures or len(set(card.pictures)) != len(card.pictures) or not set(card.pictures) <= set(names):
            raise SetupError(f"Card {card.number} must show different pictures, each one a tile of the tale.")
    if frames and any(tile.frame not in FRAME_COLOURS for tile in tale.tiles):
        raise SetupError(f"Every Cinderella tile needs a frame colour: {', '.join(FRAME_COLOURS)}.")


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
            "Turn a face-down tile face up: its column letter and row number, such as flip B3, or just B3.",
        ),
        "read": Verb(
            "read", False, ("number",),
            "The storyteller reads card NUMBER instead of the one on top (a human storyteller's own pile).",
        ),
        "blow": Verb(
            "blow", False, ("line", "direction"),
            "Three little pigs, advanced: move the row left or right, or the column up or down, through BLEW.",
        ),
        "retire": Verb("retire", False, (), "Cinderella, advanced: leave the game now and keep your cards."),
        "stay": Verb("stay", False, (), "Cinderella, advanced: stay in the game and risk your cards at midnight."),
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
            raise SetupError(f"The advanced rules of this tale need a {self.trigger} tile.")
        if clock_steps < 1:
            raise SetupError("The clock needs at least one step.")
        # the hare must start before Finish, and 13 cards must be enough for the tortoise to finish
        if self.race and not len(self.players) < track_length <= TORTOISE_STEP * TALE_CARDS:
            raise SetupError(
                f"With {plural(len(self.players), 'player')} the race track needs {len(self.players) + 1} to "
                f"{TORTOISE_STEP * TALE_CARDS} squares, not {track_length}."
            )
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
        """A flip's place may be typed 'B3', 'b3', 'b 3' or '3b', with or without 'flip'."""
        place = typed_place(line)
        return super().parse(line) if place is None else Action("flip", None, (place,))

    def _index(self, position: str) -> int:
        try:
            return places(self.rows, self.columns).index(position.upper())
        except ValueError:
            last = string.ascii_uppercase[self.columns - 1]
            raise BadArgument(
                f"There is no place {quoted(position)} in {grid_shape(self.rows, self.columns)}: say a column "
                f"letter and a row number, for example flip {self.position(self._face_down()[0])}."
            ) from None

    def points(self, player: str) -> int:
        return sum(self.cards[number - 1].points for number in self.won[player])

    def _prompt(self) -> str:
        """What the game waits for, as an instruction."""
        if self.phase == Phase.BLOW:
            return (
                f"{self.active} must move the row or the column through BLEW: say blow row left, "
                "blow row right, blow column up or blow column down."
            )
        if self.phase == Phase.DECIDE:
            return f"{self.active} must say retire, to keep their cards and leave the game, or stay."
        return f"{self.active} must flip a face-down tile, for example flip {self.position(self._face_down()[0])}."

    def _face_down(self) -> list[int]:
        return [index for index in range(len(self.grid)) if index not in self.flipped]

    def shape(self) -> Event:
        """How the tiles lie, said first when the game is taken up."""
        shape = grid_shape(self.rows, self.columns)
        return Event(f"The tiles lie in {shape}; A1 is the top left corner.", brief=f"{shape[0].upper()}{shape[1:]}.")

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
        pictures = ", ".join(card.pictures)
        return [
            Event(f"{self.active}, it is your turn.", brief=""),
            Event(f"Card {card.number}: {card.text}", cue="card"),
            Event(
                f"{self.active}, find {plural(len(card.pictures), 'picture')} in this order: {pictures}.",
                cue="pictures", brief=f"{self.active}, find {pictures}.",
            ),
        ]

    # --- the course of a turn ----------------------------------------------------------------

    def _start_turn(self) -> list[Event]:
        events = []
        if not self.draw:
            self.draw, self.read = sorted(self.read), []
            events.append(Event(f"Every card has been read: the read pile is turned over, card {self.draw[0]} on top."))
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
        final = [] if self.race else [Event(f"Final scores: {self._standings()}.")]  # the race was just said
        return [Event(f"The game is over. {outcome.text}"), *final]

    def _holdings(self, player: str) -> str:
        """'Marc 3 points, cards 2 and 5', 'Lea 0 points, no card, retired'."""
        cards = sorted(self.won[player])
        held = f"card{'s' if len(cards) > 1 else ''} {join_names([str(number) for number in cards])}" if cards else "no card"
        retired = ", retired" if player in self.retired else ""
        return f"{player} {plural(self.points(player), 'point')}, {held}{retired}"

    def _race(self) -> str:
        return (
            f"The tortoise is on square {self.tortoise} and the hare on square {self.hare}; "
            f"Finish is square {self.track_length}."
        )

    def score_report(self) -> list[str]:
        """Every player's points and cards; in the race, which everyone wins or loses together, the race."""
        if self.race:
            return [f"{self._race()} Cards won and discarded: {len(self.discarded)}."]
        return [f"Scores: {self._standings()}."]

    def _standings(self) -> str:
        return "; ".join(self._holdings(player) for player in self.players)

    def _score_outcome(self) -> Outcome:
        return rank({player: (self.points(player), len(self.won[player])) for player in self.players})

    def _card_won(self) -> list[Event]:
        card = self.card
        if self.race:
            self.discarded.append(card.number)
            self.tortoise = min(self.track_length, self.tortoise + TORTOISE_STEP)
            events = [Event(
                f"{self.active} wins card {card.number}: it is discarded and the tortoise moves "
                f"{TORTOISE_STEP} squares."
            )]
        else:
            self.won[self.active].append(card.number)
            events = [Event(f"{self.active} wins card {card.number} and {plural(card.points, 'point')}.")]
        return events + self._end_turn(won=True)

    def _card_failed(self, wrong: int) -> list[Event]:
        triggered = self.trigger is not None and self.trigger in (self.grid[index] for index in self.flipped)
        if triggered and self.variant == "three-pigs":
            blew = self.grid.index(already_set(self.trigger, "the wolf tile"))
            others = [index for index in self.flipped if index != blew]
            self.flipped = [blew]
            self.phase = Phase.BLOW
            down = f" {self._face_down_text(others)}" if others else ""
            return [Event(f"The wolf blew!{down} BLEW stays face up at {self.position(blew)}. {self._prompt()}")]
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
            events.append(Event("The hare moves 1 square."))
        return events + self._end_turn(won=False, told_face_down=triggered and self.variant == "saint-george")

    def _stinky_breath(self) -> Event:
        emptied = sorted(self.flipped)
        tiles = [self.grid[index] for index in emptied]
        self.rng.shuffle(tiles)
        for index, tile in zip(emptied, tiles):
            self.grid[index] = tile
        where = join_names([self.position(index) for index in emptied])
        if len(emptied) == 1:
            return Event(f"The dragon's stinky breath! The tile flipped this turn goes back face down at {where}.")
        return Event(
            f"The dragon's stinky breath! The {len(emptied)} tiles flipped this turn, at {where}, are shuffled "
            "and put back face down in those places.",
            brief=f"Stinky breath! {where} are shuffled face down.",
        )

    def _face_down_text(self, flipped: Sequence[int]) -> str:
        """'B2 and C3 are turned face down again.'"""
        where = [self.position(index) for index in sorted(flipped)]
        return f"{join_names(where)} {'is' if len(where) == 1 else 'are'} turned face down again."

    def _clock(self) -> str:
        """The Cinderella clock on one scale, its steps: '3 of 12 steps, 9 to midnight'."""
        return f"{self.clock} of {self.clock_steps} steps, {self.clock_steps - self.clock} to midnight"

    def _clock_text(self) -> str:
        return f"The clock moves one step: {self._clock()}."

    def _midnight(self) -> list[Event]:
        losers = [player for player in self.players if player not in self.retired]
        for player in losers:
            self.won[player] = []
        events = [Event(f"Midnight! Every player who has not retired loses all their cards: {join_names(losers)}.")]
        return events + self._finish(self._score_outcome())

    def _end_turn(self, won: bool, told_face_down: bool = False) -> list[Event]:
        """Tiles face down (said, unless `told_face_down` already), an unwon card to the read
        pile; then the game ends or goes on."""
        if not won:
            self.read.append(self.card_number)
        down = [] if told_face_down or not self.flipped else [
            Event(self._face_down_text(self.flipped),
                  brief=f"Face down: {', '.join(self.position(index) for index in sorted(self.flipped))}.")
        ]
        self.flipped = []
        events = down  # said only if the game goes on
        if self.race:
            events = [*down, Event(self._race())]
            if self.tortoise >= self.track_length:
                return events[len(down):] + self._finish(Outcome(self.players, "The tortoise reaches Finish first: everyone wins!"))
            if self.hare >= self.track_length:
                return events[len(down):] + self._finish(Outcome((), "The hare reaches Finish first: everyone loses."))
        elif sum(len(cards) for cards in self.won.values()) == CARDS_TO_END:  # the race discards won cards
            return self._finish(self._score_outcome())
        if self.variant == "cinderella":
            self.phase = Phase.DECIDE
            return events + [Event(self._prompt())]
        return events + self._next_turn()

    # --- actions -----------------------------------------------------------------------------

    def _check_move(self, verb: Verb, player: str | None) -> None:
        if player is not None and fold_name(player) != fold_name(self.active):
            raise NotYourTurn(f"It is {self.active}'s turn; say the command without a name.")

    def _expect(self, phase: Phase, doing: str) -> None:
        if self.phase != phase:
            raise IllegalMove(f"You cannot {doing} now: {self._prompt()}")

    def _do_flip(self, position: str) -> list[Event]:
        self._expect(Phase.FLIP, "flip a tile")
        index = self._index(position)
        place, name = self.position(index), self.grid[index]
        if index in self.flipped:
            raise IllegalMove(f"{place} is already face up: {name}. Flip a face-down tile.")
        self.flipped.append(index)
        self.seen.add(name)
        events = [Event(f"{place}: {name}.")]  # a tile's name is a label ("BLEW"), said as one
        pictures = self.card.pictures
        if name != pictures[self.found]:
            events.append(Event(f"Wrong: {pictures[self.found]} was next.", cue="wrong"))
            return events + self._card_failed(index)
        self.found += 1
        if self.found == len(pictures):
            return events + self._card_won()
        events.append(Event(
            f"Right, {self.found} of {len(pictures)}. Next: {pictures[self.found]}.",
            brief=f"Right. Next: {pictures[self.found]}.",
        ))
        return events

    def _card_elsewhere(self, number: int) -> str | None:
        """Why card `number` cannot be read now instead of the current card, or None."""
        if number in self.read:
            return f"Card {number} has already been read: it is in the read pile."
        if number in self.discarded:
            return f"Card {number} has been won and discarded: it is no longer in the draw pile."
        owner = next((player for player, cards in self.won.items() if number in cards), None)
        if owner is not None:
            return f"Card {number} has been won by {owner}: it is no longer in the draw pile."
        return None

    def _do_read(self, text: str) -> list[Event]:
        """A human storyteller picked up card `text` rather than the top card: it takes the top
        card's place as the current card, which goes back on top of the draw pile. Naming the
        top card itself changes nothing and repeats its pictures (the storyteller says which
        card they read when the host could not tell)."""
        self._expect(Phase.FLIP, "read another card")
        if self.flipped:
            raise IllegalMove(
                f"A tile has already been flipped for card {self.card_number}: the storyteller can change the "
                "card only before the first flip of the turn."
            )
        try:
            number = int(text)
        except ValueError:
            number = 0
        if not 1 <= number <= TALE_CARDS:
            raise BadArgument(f"The cards are numbered 1 to {TALE_CARDS}: say one of those numbers, not {quoted(text)}.")
        refusal = self._card_elsewhere(number)
        if refusal:
            raise IllegalMove(refusal)
        if number != self.card_number:
            self.draw = [self.card_number, *(card for card in self.draw if card != number)]
            self.card_number = number
        return self.reading()[1:]

    def _do_blow(self, line: str, direction: str) -> list[Event]:
        self._expect(Phase.BLOW, "blow")
        line, direction = line.casefold(), direction.casefold()
        if direction not in BLOWS.get(line, ()):
            raise BadArgument("Say blow row left, blow row right, blow column up or blow column down.")
        blew = self.grid.index(already_set(self.trigger, "the wolf tile"))
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
            f"{self.grid[index]} from {before[self.grid[index]]} to {self.position(index)}"
            for index in moved if self.grid[index] in self.seen
        ]
        events = [
            Event(
                f"{self.active} moves the {line} through BLEW one place {direction}; the tile pushed out "
                "re-enters at the other end. BLEW is turned face down.",
                brief=f"The {line} moves {direction}.",
            ),
            Event(f"Tiles seen before that moved: {join_names(went)}."),
        ]
        return events + self._end_turn(won=False, told_face_down=True)

    def _do_retire(self) -> list[Event]:
        self._expect(Phase.DECIDE, "retire")
        player = self.active
        self.retired += (player,)
        events = [Event(
            f"{player} retires and keeps {plural(len(self.won[player]), 'card')} worth "
            f"{plural(self.points(player), 'point')}."
        )]
        if len(self.retired) == len(self.players):
            return events + self._finish(self._score_outcome())
        return events + self._next_turn()

    def _do_stay(self) -> list[Event]:
        self._expect(Phase.DECIDE, "stay")
        return [Event(f"{self.active} stays in the game.")] + self._next_turn()

    # --- what may happen next ----------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        if self.phase == Phase.FLIP:
            choices = flip_choices(self.rows, self.columns)
            flips = [choices[index] for index in self._face_down()]
            if self.flipped:
                return flips
            return flips + [
                Choice(Action("read", None, (str(number),)), f"the storyteller reads card {number}")
                for number in [self.card_number, *self.draw]
            ]
        if self.phase == Phase.BLOW:
            return [
                Choice(Action("blow", None, (line, direction)), f"blow the {line} {direction}")
                for line, directions in BLOWS.items()
                for direction in directions
            ]
        if self.phase == Phase.DECIDE:
            return [
                Choice(Action("retire"), f"{self.active} retires and keeps their cards"),
                Choice(Action("stay"), f"{self.active} stays in the game"),
            ]
        return []

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.phase == Phase.OVER else (self.active,)

    def status(self) -> str:
        if self.result is not None:  # set with the phase Phase.OVER
            return f"The game is over. {self.result.text}"
        if self.phase == Phase.FLIP:
            pictures = self.card.pictures
            found = f"{self.found} found, next: {pictures[self.found]}." if self.found else "None found yet."
            where = (
                f"Card {self.card_number} is read. {self.active} is finding {plural(len(pictures), 'picture')} "
                f"in this order: {', '.join(pictures)}. {found}"
            )
        else:
            where = self._prompt()
        where += f" The tiles lie in {grid_shape(self.rows, self.columns)}."
        if self.variant == "cinderella":
            where += f" The clock: {self._clock()}."
        if self.race:
            where += f" {self._race()}"
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
        Option("advanced", False, "the tale's advanced rules"),
        Option("clock_steps", 12, "clock steps in Cinderella", low=1, high=60),
        Option("track_length", 16, "squares to Finish in the race", low=1, high=100),
    ),
    _make,
)
