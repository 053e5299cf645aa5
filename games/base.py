"""What every rules engine shares: actions, events, typed errors, the checks of a move, the
match log, and the spec by which a game module registers itself.

An engine is a `GameState` subclass. Input reaches it only as an `Action` (a verb, maybe a player,
maybe arguments); it answers with `Event`s (announcements, each for everyone or for one player
only) or raises an `IllegalAction`, and then its state is exactly what it was before. A malformed
command (unknown verb, wrong number of words, an argument that names nothing) raises a
`MalformedCommand`, a well-formed one the rules refuse now an `IllegalMove`; both are
`IllegalAction`s whose text is the player's message. The checks every game shares (verb known,
its shape, the player, game over) are made here once; each game binds its verbs to handlers in
its `moves` map. What a player may know is the game's own `GameView`, a frozen dataclass read by
field. A `Match` keeps the append-only action log: undo and resume are a replay of that log from
the settings. Each game module exports one `GameSpec` (`games.registry` finds it).
"""
from __future__ import annotations

import copy
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from games.language import _, n_, p_

T = TypeVar("T")
V = TypeVar("V", bound="GameView")


class IllegalAction(ValueError):
    """An action refused, changing nothing. The message says why, in a player's words."""


class MalformedCommand(IllegalAction):
    """Not a well-formed command of this game: an unknown verb, missing or extra words, or an
    argument that names nothing in the game (a player, a card, a place)."""


class UnknownCommand(MalformedCommand):
    """The input starts with no command of this game."""


class WrongShape(MalformedCommand):
    """A command of this game with words missing or too many."""


class BadArgument(MalformedCommand):
    """An argument that cannot be read as what the command takes."""


class UnknownPlayer(BadArgument):
    """A name that is no seated player's."""


class IllegalMove(IllegalAction):
    """A well-formed command the rules do not allow now."""


class SecretRefused(IllegalMove):
    """A secret move refused (a term being written): the message is the reason as the table may
    hear it, the secret hidden; `private` is the same reason for the mover's own screen, with
    what they wrote. Both are correct sentences."""

    def __init__(self, hidden: str, private: str, brief: str | None = None) -> None:
        super().__init__(hidden)
        self.private = private
        #: the reason in a few words, for a host that speaks briefly (None: the message itself)
        self.brief = brief


class GuessRefused(SecretRefused):
    """A secret move refused because of the secret itself (a tick of a term that was not
    written): the table must not learn that it was refused, or anyone could test guesses at a
    secret. A host that cannot tell who made the move (a shared keyboard) answers it as it
    answers the same move when legal; `private` is the reason for the mover's own screen."""


class NotYourTurn(IllegalMove):
    """A player acted out of turn."""


class GameIsOver(IllegalMove):
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
    #: what kind of news it is, for a host that treats it apart: a sound ("wrong": a wrong tile),
    #: a card a person reads instead ("card", "pictures"), the news of a secret move ("secret":
    #: "Sabine ticks a term", which a shared keyboard answers with "Noted." for a legal and a
    #: refused move alike), how a player reads their secrets back ("readback": said to a player
    #: without a screen of their own)
    cue: str | None = None
    #: the same news at verbosity brief: shorter, or "" to leave it out (None: `text` as it is)
    brief: str | None = None
    #: said only at verbosity detailed (an explanation the table can do without)
    detail: bool = False
    #: heard to its end: later news waits for it instead of cutting it off (a card read aloud)
    whole: bool = False
    #: None: heard at any table. False: only where players have no screens of their own (phones):
    #: there the table hears what a screen would show one player (the sides of the card the
    #: storyteller chooses from). True: only where they have them: what the table did not hear
    #: then (the sentence chosen, said again briefly)
    own_screens: bool | None = None


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
    A `secret` verb's values are a player's own (a card of their hand): a hint or a spoken
    phrase gives its usage, never a value of it.
    """

    name: str
    takes_player: bool
    params: tuple[str, ...] = ()
    help: str = ""
    secret: bool = False
    #: a value's word in the table's language ('left' -> 'izquierda'), for values that are words
    #: of the game (typed in either language); None: the values are numbers, places, names
    value_said: Callable[[str], str] | None = None

    @property
    def said(self) -> str:
        """The command's word in the table's language (typed commands also take `name`)."""
        return p_("verb", self.name)

    def said_value(self, value: str) -> str:
        """One of the command's values as the table says it."""
        return self.value_said(value) if self.value_said is not None else value

    @property
    def explained(self) -> str:
        """`help` in the table's language (marked with N_ where the verb is defined)."""
        return _(self.help) if self.help else ""

    @property
    def usage(self) -> str:
        """'vote NAME NUMBER', in the table's language."""
        parts = [self.said, *([p_("param", "name").upper()] if self.takes_player else [])]
        parts += [p_("param", param.removesuffix("...")).upper() + param[len(param.removesuffix("...")):]
                  for param in self.params]
        return " ".join(parts)

    @property
    def usage_said(self) -> str:
        """The usage inside a sentence: without the dots of free words ("term NAME TERM")."""
        return self.usage.removesuffix("...")


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


def join_names(names: Sequence[str]) -> str:
    """'Leo', 'Leo and Tomás', 'Julián, Leo and Tomás'."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def join_either(names: Sequence[str]) -> str:
    """'Leo', 'Leo or Tomás', 'Julián, Leo or Tomás'."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} or {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def points(count: int) -> str:
    """'1 point', '2 points', in the table's language."""
    return n_("{count} point", "{count} points", count).format(count=count)


def most_points_wins(totals: Mapping[str, int]) -> Outcome:
    """The player(s) with the most points win; a tie shares the victory."""
    best = max(totals.values())
    winners = tuple(player for player, points in totals.items() if points == best)
    if len(winners) == 1:
        return Outcome(winners, _("{winner} wins with {points}.").format(winner=winners[0], points=points(best)))
    return Outcome(winners, _("{winners} share the victory with {points}.").format(
        winners=join_names(winners), points=points(best)))


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
        if not composed.strip():
            raise SetupError(_("An empty name cannot be a player name: use one word of letters (up to 20), "
                               "starting with a letter."))
        raise SetupError(_("{name} cannot be a player name: use one word of letters (up to 20), starting with "
                           "a letter.").format(name=quoted(composed)))
    return composed


def check_player_names(names: Sequence[str], least: int, most: int) -> tuple[str, ...]:
    """Seat order as given; names are single words, unique regardless of case and Unicode form."""
    if not least <= len(names) <= most:
        raise SetupError(_("This game needs {least} to {most} players, not {count}.").format(
            least=least, most=most, count=len(names)))
    seen: set[str] = set()
    checked = []
    for name in names:
        composed = check_player_name(name)
        if name_key(composed) in seen:
            raise SetupError(_("Two players are called {name}: give each player a different name.").format(
                name=quoted(composed)))
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
    if echo:
        raise UnknownPlayer(_("There is no player called {name}. Players: {players}.").format(
            name=quoted(name), players=_(", ").join(players)))
    raise UnknownPlayer(_("There is no player of that name. Players: {players}.").format(players=_(", ").join(players)))


def said_verbs(verbs: Mapping[str, Verb]) -> dict[str, Verb]:
    """The verbs by their word in the table's language, without case or accents."""
    return {fold_name(verb.said): verb for verb in verbs.values()}


def parse_action(line: str, verbs: Mapping[str, Verb], players: Sequence[str], secret: bool = False) -> Action:
    """Turn a typed or spoken command into an Action of this game (checked for shape only).
    A `secret` line (typed while typing is hidden) is never repeated in a refusal."""
    words = line.split()
    if not words:
        raise UnknownCommand(_("Say or type a command; 'help' lists them."))
    verb = verbs.get(words[0].casefold()) or said_verbs(verbs).get(fold_name(words[0]))
    if verb is None:
        if secret:
            raise UnknownCommand(_("That is not a command here; 'help' lists them."))
        raise UnknownCommand(_("{word} is not a command here; 'help' lists them.").format(word=quoted(words[0])))
    rest = words[1:]
    player = None
    if verb.takes_player:
        if not rest:
            raise WrongShape(_("Say whose move it is: {usage}.").format(usage=verb.usage_said))
        player = find_player(rest.pop(0), players, echo=not secret)
    args: list[str] = []
    for index, param in enumerate(verb.params):
        if param.endswith("..."):
            if not rest:
                raise WrongShape(_("Something is missing: {usage}.").format(usage=verb.usage_said))
            args.append(" ".join(rest))
            rest = []
            break
        if not rest:
            raise WrongShape(_("Something is missing: {usage}.").format(usage=verb.usage_said))
        args.append(rest.pop(0))
    if rest:
        raise WrongShape(_("Too many words after '{verb}': {usage}.").format(verb=verb.said, usage=verb.usage_said))
    return Action(verb.name, player, tuple(args))


@dataclass(frozen=True)
class GameView:
    """What a player (or everyone) may know of a game now. Each game's view is a frozen subclass
    defined beside its engine, with typed fields (its phase is the engine's `Phase`), so the host
    reads fields that mypy checks instead of keys of a dict."""


def view_of(state: GameState, player: str | None, kind: type[V]) -> V:
    """`state.view(player)` as the view type its caller knows the game has: a host part made for
    one game (its adapter) reads that game's fields. Another game's state is a bug (TypeError)."""
    view = state.view(player)
    if not isinstance(view, kind):
        raise TypeError(f"The {state.game} game has no {kind.__name__}.")
    return view


#: a move's handler: the state, then the player (for a verb that takes one), then the arguments
Handler = Callable[..., list[Event]]


class GameState(ABC):
    """A game in progress. Subclasses implement the rules; `apply` guarantees atomicity."""

    game: ClassVar[str]
    verbs: ClassVar[dict[str, Verb]]
    #: each verb's handler, bound explicitly (its keys are the verbs')
    moves: ClassVar[dict[str, Handler]]
    #: a verb without a player may still name the player whose turn it is (`_check_move` checks it)
    names_mover: ClassVar[bool] = False
    #: attributes shared, not copied, when a move is tried (collaborators such as a term checker)
    not_copied: ClassVar[tuple[str, ...]] = ()

    players: tuple[str, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        moves = cls.__dict__.get("moves")
        if moves is not None and set(moves) != set(cls.verbs):
            raise TypeError(f"{cls.__name__}: the moves map must bind exactly the verbs {sorted(cls.verbs)}")

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its announcements; an illegal one changes nothing."""
        if self.is_over():
            raise GameIsOver(_("The game is over; start a new one with 'storyhost play'."))
        memo: dict[int, Any] = {id(getattr(self, name)): getattr(self, name) for name in self.not_copied}
        before = copy.deepcopy(self.__dict__, memo)
        try:
            return self._apply(action)
        except IllegalAction:
            self.__dict__ = before
            raise

    def parse(self, line: str) -> Action:
        return parse_action(line, self.verbs, self.players, secret=self.secret_input())

    def _apply(self, action: Action) -> list[Event]:
        """The checks every game shares (verb known, shape, the game's own `_check_move`, the
        player), then the verb's handler, which raises IllegalAction (changes are rolled back)."""
        verb = self.verbs.get(action.verb)
        if verb is None:
            raise UnknownCommand(_("'{verb}' is not a command here; 'help' lists them.").format(verb=action.verb))
        named = action.player is not None
        if len(action.args) != len(verb.params) or (named != verb.takes_player and not (named and self.names_mover)):
            raise WrongShape(_("Say it like this: {usage}.").format(usage=verb.usage_said))
        self._check_move(verb, action.player)
        handler = self.moves[verb.name]
        if verb.takes_player:
            return handler(self, find_player(already_set(action.player, "the player"), self.players), *action.args)
        return handler(self, *action.args)

    def _check_move(self, verb: Verb, player: str | None) -> None:
        """A game's own check before any handler runs (the phase's verb, whose turn it is)."""

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

    def secret_words(self) -> frozenset[str]:
        """The commands whose words are secret now although typing as a whole is not (a tick of
        a term not yet revealed, while the story is typed in the open): a screen hides what is
        typed after them."""
        return frozenset()

    def opening(self) -> list[Event]:
        """What the host announces when it takes up the game, at the start or on resuming."""
        return [Event(self.status())]

    def score_report(self) -> list[str]:
        """What 'score' answers: the points so far, and how the latest ones were scored."""
        listed = _(", ").join(_("{player} {score}").format(player=player, score=score)
                              for player, score in self.scores().items())
        return [_("Scores: {scores}.").format(scores=listed)]

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Points so far, by player, in seat order."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """Who won, once the game is over; None before."""

    @abstractmethod
    def view(self, player: str | None) -> GameView:
        """What `player` may know now (None: what everyone may know): the game's own view type."""


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
            raise IllegalAction(_("There is nothing to undo."))
        last = self.log[-1]
        replayed = Match(self.make, self.log[:-1])
        self.state, self.log = replayed.state, replayed.log
        return last


#: a game's settings as saved: JSON values by key
Settings = Mapping[str, Any]


@dataclass(frozen=True)
class TermRefusal:
    """Why a term may not be written, in one sentence said two ways: `shown` names the term as
    its player wrote it (their own screen), `hidden` says "this term" instead (the table).
    `code` names the kind of reason ("adverb", "on_card"), for a host that speaks briefly; it is
    derived from the sentences, so two refusals are equal when their sentences are."""

    shown: str
    hidden: str
    code: str = field(default="", compare=False)


class TermRules(Protocol):
    """Language judgements some rules leave open (Stories!' terms): the host provides them."""

    def refusal(self, term: str, card_text: str, written: Sequence[str]) -> TermRefusal | None:
        """None when `term` may be written by a player who already wrote `written` under this
        card sentence; else why not."""

    def same(self, a: str, b: str) -> bool:
        """Whether two written terms count as the same term (inflections, compound spellings)."""


class Services(Protocol):
    """What an engine may ask of whoever builds it, beyond its settings."""

    def term_rules(self) -> TermRules: ...


@dataclass(frozen=True)
class Option:
    """One setting a game takes when it starts: its key in the settings, its default (whose
    type is the option's: bool is a switch, int a number in `low`..`high`, str one of `choices`)
    and what it does. `flag` is its word on a command line (default: the key, hyphenated).
    `saved_before`: the value a game saved before the option existed was played with, when that
    is not `default` (a rule that changed: the old game replays as it was played)."""

    key: str
    default: bool | int | str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    flag: str = ""
    saved_before: bool | int | str | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    @property
    def word(self) -> str:
        return self.flag or self.key.replace("_", "-")


@dataclass(frozen=True)
class GameSpec:
    """What a game module exports: its name (also its rules text's, `storyhost rules NAME`),
    title, player limits, options, and how its state is built from saved settings (a key that a
    game saved by an older version lacks takes the value it was played with: the option's
    `saved_before`, else its default)."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    make: Callable[[Settings, Services], GameState]

    def build(self, settings: Settings, services: Services) -> GameState:
        defaults = {
            option.key: option.default if option.saved_before is None else option.saved_before for option in self.options
        }
        return self.make({**defaults, **settings}, services)
