"""What every rules engine shares: actions, events, typed errors, and the match log.

An engine is a `GameState` subclass. Input reaches it only as an `Action` (a verb, maybe a player,
maybe arguments); it answers with `Event`s (announcements, each for everyone or for one player
only) or raises an `IllegalAction`, and then its state is exactly what it was before. A `Match`
keeps the append-only action log: undo and resume are a replay of that log from the settings.
"""
from __future__ import annotations

import copy
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


class IllegalAction(ValueError):
    """The rules do not allow this action now. The message says why, in a player's words."""


class UnknownCommand(IllegalAction):
    """The input is not a command of this game."""


class NotYourTurn(IllegalAction):
    """A player acted out of turn."""


class GameIsOver(IllegalAction):
    """The game has ended; nothing more can be played."""


class SetupError(ValueError):
    """Settings a game cannot start with (player count, names, deck)."""


class DeckTooSmall(SetupError):
    """The deck has too few cards for this many players."""


@dataclass(frozen=True)
class Action:
    """One move: a verb, the player who makes it (if any) and its arguments.

    `str(action)` is its stable id and also the typed command that produces it.
    """

    verb: str
    player: str | None = None
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.verb, *([self.player] if self.player else []), *self.args])


@dataclass(frozen=True)
class Event:
    """An announcement. `to` is None for the shared channel, else the one player it is for."""

    text: str
    to: str | None = None
    #: what kind of news it is, for a host that plays a sound for it ("wrong": a wrong tile)
    cue: str | None = None
    #: the same news at verbosity brief: shorter, or "" to leave it out (None: `text` as it is)
    brief: str | None = None
    #: said only at verbosity detailed (an explanation the table can do without)
    detail: bool = False


@dataclass(frozen=True)
class Choice:
    """A legal action with a short spoken label.

    With `free_text`, the last argument of `action` is a placeholder such as "<term>" that the
    player fills in (a term, a clue).
    """

    action: Action
    label: str
    free_text: bool = False


@dataclass(frozen=True)
class Verb:
    """The shape of a command: whether it names a player, and its parameters.

    A last parameter whose name ends in "..." takes the rest of the line (a term, a clue).
    """

    name: str
    takes_player: bool
    params: tuple[str, ...] = ()
    help: str = ""

    @property
    def usage(self) -> str:
        parts = [self.name, *(["NAME"] if self.takes_player else []), *(p.upper() for p in self.params)]
        return " ".join(parts)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winners (empty when everyone lost) and a sentence."""

    winners: tuple[str, ...]
    text: str


def already_set(value: T | None, what: str) -> T:
    """`value`, which the current phase has already set. None is a bug in the engine, not a
    player's mistake, so it is a RuntimeError (never shown as a refusal), not an IllegalAction."""
    if value is None:
        raise RuntimeError(f"{what} is not set at this point of the game")
    return value


def join_names(names: Sequence[str], conjunction: str = "and") -> str:
    """'Leo', 'Leo and Tomás', 'Julián, Leo and Tomás' (or with another conjunction)."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def plural(count: int, word: str) -> str:
    """'1 point', '2 points'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def most_points_wins(totals: Mapping[str, int]) -> Outcome:
    """The player(s) with the most points win; a tie shares the victory."""
    best = max(totals.values())
    winners = tuple(player for player, points in totals.items() if points == best)
    if len(winners) == 1:
        return Outcome(winners, f"{winners[0]} wins with {plural(best, 'point')}.")
    return Outcome(winners, f"{join_names(winners)} share the victory with {plural(best, 'point')}.")


#: a name is one word: a letter, then up to 19 letters, digits, apostrophes or hyphens
PLAYER_NAME = re.compile(r"[^\W\d_][\w'-]{0,19}")
#: how much of a typed word a refusal shows
SHOWN_CHARACTERS = 40


def quoted(text: str) -> str:
    """Typed text as a refusal shows it: in quotes, cut short with an ellipsis when long."""
    return f"'{text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 1] + '…'}'"


def name_key(name: str) -> str:
    """What two spellings of one name share: composed Unicode (NFC), any case."""
    return unicodedata.normalize("NFC", name).casefold()


def check_player_name(name: str) -> str:
    """The name in composed Unicode, or SetupError: the one rule for a name wherever it is given."""
    composed = unicodedata.normalize("NFC", name)
    if not PLAYER_NAME.fullmatch(composed):
        shown = quoted(composed) if composed.strip() else "An empty name"
        raise SetupError(
            f"{shown} cannot be a player name: use one word of letters (up to 20), starting with a letter."
        )
    return composed


def check_player_names(names: Sequence[str], least: int, most: int) -> tuple[str, ...]:
    """Seat order as given; names are single words, unique regardless of case and Unicode form."""
    if not least <= len(names) <= most:
        raise SetupError(f"This game needs {least} to {most} players, not {len(names)}.")
    seen: set[str] = set()
    checked = []
    for name in names:
        composed = check_player_name(name)
        if name_key(composed) in seen:
            raise SetupError(f"Two players are called {quoted(composed)}: give each player a different name.")
        seen.add(name_key(composed))
        checked.append(composed)
    return tuple(checked)


def fold_name(name: str) -> str:
    """A name as it is matched: without case or accents ('Julián' and 'julian' are the same)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def find_player(name: str, players: Iterable[str], echo: bool = True) -> str:
    """The seated player called `name`, in any case and Unicode form, with or without accents, or
    IllegalAction. An exact match (but for case) wins over one without accents (seats 'Julian'
    and 'Julián'). Without `echo` the refusal does not repeat what was typed (typing is hidden)."""
    players = tuple(players)
    for player in players:
        if name_key(player) == name_key(name):
            return player
    unaccented = [player for player in players if fold_name(player) == fold_name(name)]
    if len(unaccented) == 1:
        return unaccented[0]
    called = f"called {quoted(name)}" if echo else "of that name"
    raise IllegalAction(f"There is no player {called}. Players: {', '.join(players)}.")


def parse_action(line: str, verbs: Mapping[str, Verb], players: Sequence[str], secret: bool = False) -> Action:
    """Turn a typed or spoken command into an Action of this game (checked for shape only).
    A `secret` line (typed while typing is hidden) is never repeated in a refusal."""
    words = line.split()
    if not words:
        raise UnknownCommand("Say or type a command; 'help' lists them.")
    verb = verbs.get(words[0].casefold())
    if verb is None:
        what = "That" if secret else quoted(words[0])
        raise UnknownCommand(f"{what} is not a command here; 'help' lists them.")
    rest = words[1:]
    player = None
    if verb.takes_player:
        if not rest:
            raise IllegalAction(f"Say whose move it is: {verb.usage}.")
        player = find_player(rest.pop(0), players, echo=not secret)
    args: list[str] = []
    for index, param in enumerate(verb.params):
        if param.endswith("..."):
            if not rest:
                raise IllegalAction(f"Something is missing: {verb.usage}.")
            args.append(" ".join(rest))
            rest = []
            break
        if not rest:
            raise IllegalAction(f"Something is missing: {verb.usage}.")
        args.append(rest.pop(0))
    if rest:
        raise IllegalAction(f"Too many words after '{verb.name}': {verb.usage}.")
    return Action(verb.name, player, tuple(args))


class GameState(ABC):
    """A game in progress. Subclasses implement the rules; `apply` guarantees atomicity."""

    game: ClassVar[str]
    verbs: ClassVar[dict[str, Verb]]
    #: attributes shared, not copied, when a move is tried (collaborators such as a term checker)
    not_copied: ClassVar[tuple[str, ...]] = ()

    players: tuple[str, ...]

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its announcements; an illegal one changes nothing."""
        if self.is_over():
            raise GameIsOver("The game is over; start a new one with 'storyhost play'.")
        memo: dict[int, Any] = {id(getattr(self, name)): getattr(self, name) for name in self.not_copied}
        before = copy.deepcopy(self.__dict__, memo)
        try:
            return self._apply(action)
        except IllegalAction:
            self.__dict__ = before
            raise

    def parse(self, line: str) -> Action:
        return parse_action(line, self.verbs, self.players, secret=self.secret_input())

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Check and perform `action`; raise IllegalAction (partial changes are rolled back)."""

    @abstractmethod
    def legal_actions(self) -> list[Choice]:
        """Every action the rules allow now (none once the game is over)."""

    @abstractmethod
    def waiting_for(self) -> tuple[str, ...]:
        """The players whose input the game is waiting for (empty when the game is over)."""

    @abstractmethod
    def status(self) -> str:
        """One or two sentences: where the game stands and what happens next. No secrets."""

    def secrets(self, player: str) -> list[str]:
        """Sentences telling `player` what only they know now (their terms, their vote)."""
        return []

    def secret_input(self) -> bool:
        """Whether what players type now is secret (terms, votes), so a screen should hide it."""
        return False

    def opening(self) -> list[Event]:
        """What the host announces when it takes up the game, at the start or on resuming."""
        return [Event(self.status())]

    def score_report(self) -> list[str]:
        """What 'score' answers: the points so far, and how the latest ones were scored."""
        return ["Scores: " + ", ".join(f"{player} {points}" for player, points in self.scores().items()) + "."]

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Points so far, by player, in seat order."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """Who won, once the game is over; None before."""

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What `player` may know now (None: what everyone may know). JSON-serialisable."""


@dataclass
class Match:
    """A game with its append-only action log. `make` builds the initial state from settings."""

    make: Callable[[], GameState]
    log: list[Action] = field(default_factory=list)
    state: GameState = field(init=False)

    def __post_init__(self) -> None:
        actions, self.log = self.log, []
        self.state = self.make()
        for action in actions:
            self.apply(action)

    def apply(self, action: Action) -> list[Event]:
        events = self.state.apply(action)
        self.log.append(action)
        return events

    def undo(self) -> Action:
        """Take back the last action by replaying all the ones before it."""
        if not self.log:
            raise IllegalAction("There is nothing to undo.")
        last = self.log[-1]
        replayed = Match(self.make, self.log[:-1])
        self.state, self.log = replayed.state, replayed.log
        return last
