"""The text session: typed (or scripted) commands in, plain announcement lines out.

Each line is either a host command (host.commands: help, repeat, score, undo, say, ...) or a
command of the game, which is parsed and applied to the engine. A legal action is saved before
its announcements are printed; anything refused is explained in one line and changes nothing.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from games.base import (
    Action, Choice, Event, GameState, GuessRefused, IllegalAction, Match, SecretRefused, UnknownCommand, Verb,
    find_player, fold_name, join_names,
)
from host.adapters.base import GameAdapter, adapter_for
from host.session.events import (
    ClockWake, Heard, InputEnded, Joined, MicrophoneBack, MicrophoneGone, PhoneCommand, Refused, Typed,
)
from host.session.inputs import LineSource, Listening
from host.adapters.narration import NarrationListener
from host.storage.preferences import Preferences, save
from host.session.screen import visible
from host.audio.speaker import EARCONS, Speaker, SpeakerError, check_rate
from host.storage.store import GameStore
from host.adapters.card_reading import CardReading
from host.voice.control import Command, HostRequest, Question, VoiceControl
from host.commands import check_handled, offered, typed_aliases

#: a host command's handler: it takes the rest of the line, and returns False to stop the session
Handler = Callable[["Session", str], "bool | None"]
#: the host commands' handlers by command (see `handles`)
HANDLERS: dict[str, Handler] = {}


def handles(name: str) -> Callable[[Handler], Handler]:
    """Make the decorated method the handler of the host command `name` (host.commands)."""
    def bind(handler: Handler) -> Handler:
        if HANDLERS.setdefault(name, handler) is not handler:
            raise ValueError(f"Two handlers for the host command {name!r}.")
        return handler
    return bind


#: the answer to a secret move typed at the shared screen, whether it was legal or not
NOTED = "Noted."
#: answers that mean yes to a question the host asked at the keyboard
YES = frozenset({"yes", "y"})
#: words a natural answer may have besides those of the command it means ("I choose the quirky side")
FILLER = frozenset({"a", "an", "the", "i", "we", "choose", "pick", "please", "it", "is", "for", "to"})


#: a move's name where its command is not one ("Bo's vote" needs none): alone, and with its one
#: argument when that may be said
MOVE_NOUNS = {
    "timeup": ("time up", "time up"), "erase": ("erasure", "erasure"), "shown": ("cards shown", "cards shown"),
    "storyteller": ("turn as storyteller", "turn as storyteller"), "side": ("choice of side", "choice of the {} side"),
    "read": ("reading of a card", "reading of card {}"), "flip": ("flip", "flip of {}"),
}


def move_noun(verb: str, argument: str | None = None) -> str:
    """'erasure'; with its argument, when it may be said: 'flip of B3', 'choice of the normal side'."""
    alone, told = MOVE_NOUNS.get(verb, (verb, verb + " {}"))
    return alone if argument is None else told.format(argument)


def takes_free_words(verb: Verb) -> bool:
    """Whether a command ends in free words (a term, a clue): a hint shows its usage, never words."""
    return bool(verb.params) and verb.params[-1].endswith("...")


def usage_of(verb: Verb, player: str | None) -> str:
    """'term Sabine TERM': the usage with the player's name filled in."""
    params = [param.rstrip(".").upper() for param in verb.params]
    return " ".join([verb.name, *([player] if player else []), *params])


#: a move of a game as the README and the rules pages write it, where that is not its name; what
#: players may type for it too (a host command's other forms: host.commands)
WRITTEN = {"timeup": "time up"}


def aliases() -> dict[str, str]:
    """What players may type for a command instead of its name: "exit" for quit, "time up"."""
    return {**typed_aliases(), **{written: name for name, written in WRITTEN.items()}}


def written_usage(verb: Verb) -> str:
    """A command's usage as players type it ('time up', not 'timeup')."""
    return WRITTEN.get(verb.name, verb.name) + verb.usage[len(verb.name):]


def normalise(line: str) -> str:
    words = " ".join(line.split())
    for phrase, replacement in aliases().items():
        if words.casefold() == phrase or words.casefold().startswith(phrase + " "):
            return replacement + words[len(phrase):]
    return words


class PrivateChannel(Protocol):
    """Each player's own screen (a phone), beside the shared channel."""

    def has(self, player: str) -> bool:
        """Whether `player` has a screen of their own."""

    def tell(self, player: str, lines: list[str]) -> None:
        """Show `lines` to `player` alone."""

    def refresh(self, session: Session) -> None:
        """The game may have changed: show every screen the game as it is now."""

    def renew(self, player: str) -> str:
        """A new private link for `player` (the old one stops working); where to join again (the
        address and the room code)."""

    def invite(self, output: TextOutput) -> None:
        """Tell the table how phones join: the address, the room code, the QR code."""


@dataclass
class TextOutput:
    """The shared channel: announcements every player may hear, printed as plain lines and,
    with a speaker, spoken. `quiet` (while a story is told) prints without speaking, so the
    host neither talks over the storyteller nor mutes the microphone.

    Private events are never printed here; a player sees their secrets with 'private NAME'.
    """

    write: Callable[[str], None] = print
    speaker: Speaker | None = None
    quiet: bool = False
    #: printed (not spoken) before each line: when in the story a tick was heard
    stamp: str = ""
    last: list[str] = field(default_factory=list)
    #: told every shared line too (the table page)
    also: Callable[[str], None] | None = None
    #: the last lines said are to be heard whole (the cards laid out): news waits for them
    unbroken: bool = False
    #: the last line spoken was "Noted.": the next "Noted." is only printed
    _noted: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        printer = self.write
        self.write = lambda line: printer(visible(line))  # every line printed, whoever prints it

    def _say(self, line: str, interrupt: bool = False) -> None:
        """Speak `line` (unless quiet); "Noted." after "Noted." is not said again: a table
        writing its terms hears one."""
        if self.speaker is None or self.quiet:
            return
        if line == NOTED and self._noted:
            return
        self._noted = line == NOTED
        self.speaker.say(visible(line), interrupt=interrupt)

    def shared(self, lines: list[str], whole: bool = False) -> None:
        """Print and say `lines`. Like a screen reader, new announcements cut off what is left
        of older ones: the table hears the game as it is now ('repeat' says the last again); but
        lines to be heard `whole` (the cards laid out, read aloud) are not cut off: what comes
        while they are still being said waits for them."""
        waits = self.unbroken and self.speaker is not None and not self.speaker.wait(0)
        if lines:
            self.last = lines
            self.unbroken = whole or waits
        for index, line in enumerate(lines):
            self.write(self.stamp + line)
            if self.also is not None:
                self.also(line)
            self._say(line, interrupt=index == 0 and not waits)

    def earcon(self, name: str) -> None:
        if self.speaker is not None:
            self.speaker.earcon(name)

    def note(self, line: str, spoken: str | None = None) -> None:
        """A reply to one command (an error, a help text): printed and said (`spoken` instead of the
        line, such as an address read out), not kept for 'repeat'."""
        self.write(line)
        self._say(spoken or line)


@dataclass
class Refusals:
    """Moves refused for players with phones, told to the table without repeating: the first at
    once, those that follow it within QUIET seconds of each other as one count when they stop."""

    QUIET = 3.0
    #: player -> (what was refused, refusals not told yet, when the last came)
    pending: dict[str, tuple[str, int, float]] = field(default_factory=dict)

    def add(self, player: str, what: str) -> str | None:
        """A refusal of `player`'s `what` ("term"): the line to say now, if any."""
        now = time.monotonic()
        if player in self.pending:
            _, count, _ = self.pending[player]
            self.pending[player] = (what, count + 1, now)
            return None
        self.pending[player] = (what, 0, now)
        return f"{player}: one {what} was refused; see your phone."

    def due(self) -> float | None:
        """Seconds until a count is to be told, None when none is waiting."""
        if not self.pending:
            return None
        return max(0.0, min(last for _, _, last in self.pending.values()) + self.QUIET - time.monotonic())

    def told(self, all_now: bool = False) -> list[str]:
        """The counts whose refusals stopped coming (`all_now`: every count), to say now."""
        lines = []
        for player, (what, count, last) in list(self.pending.items()):
            if all_now or time.monotonic() - last >= self.QUIET:
                del self.pending[player]
                if count == 1:
                    lines.append(f"{player}: one more {what} was refused; see your phone.")
                elif count:
                    lines.append(f"{player}: {count} more {what}s were refused; see your phone.")
        return lines


@dataclass
class StoryClock:
    """The Stories! timer on the wall clock: at a terminal or in a live round. Without `seconds`
    (a script, which says 'timeup' where the timer runs out) it never starts."""

    seconds: float | None = None
    deadline: float | None = None
    paused: float | None = None  # seconds left when the microphone was lost
    warnings: list[float] = field(default_factory=list)

    def start(self) -> None:
        if self.seconds is None:
            return
        self.deadline = time.monotonic() + self.seconds
        self.warnings = [w for w in (30.0, 10.0) if w < self.seconds]

    def stop(self) -> None:
        self.deadline = None
        self.paused = None

    def pause(self) -> None:
        if self.deadline is not None:
            self.paused = self.left()
            self.deadline = None

    def resume(self) -> None:
        if self.paused is not None:
            self.deadline, self.paused = time.monotonic() + self.paused, None

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def due(self) -> bool:
        """Whether a warning or the end has come."""
        left = self.left()
        return left is not None and (left == 0 or bool(self.warnings) and left <= self.warnings[0])

    def next_wake(self) -> float | None:
        """Seconds until the next warning or the end, None when not running."""
        left = self.left()
        if left is None:
            return None
        return left - self.warnings[0] if self.warnings and left > self.warnings[0] else left


@dataclass
class SessionConfig:
    """What a session plays: the game, where it is saved, the shared channel; and what it can do
    besides taking typed commands, each capability off unless given."""

    store: GameStore
    game_id: int
    match: Match
    output: TextOutput
    #: verbosity and speech rate ('verbosity', 'rate' change and save them)
    preferences: Preferences = field(default_factory=Preferences)
    #: the Stories! timer (it never starts when no time is given)
    clock: StoryClock = field(default_factory=StoryClock)
    #: the referee's ears: stories typed with 'say' or heard tick the terms
    listener: NarrationListener | None = None
    #: spoken commands, and the microphone open all game
    voice: VoiceControl | None = None
    #: a person reads each Storytelling card aloud, and the host finds which card it was
    card_reading: CardReading | None = None
    #: commands of the game not offered in help or hints (a Storytelling card is chosen by
    #: 'read' only when a person is the storyteller)
    without: frozenset[str] = frozenset()
    #: each player's own screen (a phone), beside the shared channel
    private: PrivateChannel | None = None
    #: what the host does for this game (None: the one registered for it)
    adapter: GameAdapter | None = None


class Session:
    """Plays one saved game from a line source until it ends, input ends, or 'quit'."""

    def __init__(self, config: SessionConfig) -> None:
        self.store, self.game_id, self.match, self.out = config.store, config.game_id, config.match, config.output
        self.clock, self.listener, self.voice = config.clock, config.listener, config.voice
        self.card_reading, self.preferences, self.without = config.card_reading, config.preferences, config.without
        self.adapter = config.adapter or adapter_for(config.match.state.game)
        self.private = config.private
        self.refusals = Refusals()
        self._over_before = False  # resumed after its end: waiting for an undo to open it again
        #: why a secret move typed at the shared screen was refused, kept for its player's 'private'
        self._held: dict[str, list[str]] = {}
        #: the players told how to read their secrets back; the kinds of step whose typing was told
        self._read_back: set[str] = set()
        self._guided: set[str] = set()
        #: the move a typed 'undo' asked about, with the number of moves then: 'yes' takes it back
        self._undo_asked: tuple[Action, int] | None = None
        #: said when the input ends before the game does
        self.end_note = f"Input ended. Game {self.game_id} is saved: 'storyhost resume {self.game_id}' continues it."

    @property
    def state(self) -> GameState:
        return self.match.state

    def run(self, source: LineSource) -> None:
        """Play until the game ends. A game resumed when it is already over waits for 'undo',
        which takes back its last move and opens it again, or for the end of input."""
        self.source = source
        self._over_before = self.state.is_over()
        if self._over_before:
            self.out.note(f"{self.state.status()} 'undo' takes back the last move of game {self.game_id} and opens it again; 'quit' leaves it over.")
        else:
            self._announce(self.state.opening())
            self._guide()
        try:
            while self._over_before or not self.state.is_over():
                self._follow_phase()
                self.out.shared(self.refusals.told())
                if self.private is not None:
                    self.private.refresh(self)
                match source.read(self._next_wake()):
                    case InputEnded():
                        self.out.shared(self.refusals.told(all_now=True))
                        self.out.note(f"Input ended. Game {self.game_id} stays over." if self.state.is_over() else self.end_note)
                        return
                    case ClockWake():
                        if self.clock.due():
                            self._clock_tick()
                    case Joined(player):
                        self.out.shared([f"{player} joined."])
                    case Heard() as heard:
                        if not self._heard(heard):
                            return
                    case MicrophoneGone(reason):
                        self._microphone_gone(reason)
                    case MicrophoneBack():
                        self._microphone_back()
                    case Refused(message):
                        self.out.note(message)
                    case PhoneCommand() as sent:
                        self._from_phone(sent)
                    case Typed(line):
                        if not self.handle(line):
                            return
            self._finish()
        finally:
            self._follow_phase()
            if self.private is not None:
                self.private.refresh(self)
            source.secret(False)
            source.listen(None)

    def handle(self, line: str) -> bool:
        """Handle one input line; False when the players want to stop."""
        command = normalise(line)
        if not command:
            return True
        if self._undo_asked is not None and not self._answered_undo(command):
            return True
        verb, _, rest = command.partition(" ")
        if verb.casefold() == "undo" and rest.strip().casefold() not in YES:
            self._ask_undo()
            return True
        if verb.casefold() in HANDLERS:
            return self.perform(HostRequest(verb.casefold(), rest.strip()))
        read = self.adapter.reading(self.state, command)
        if read is not None:  # what is on the table, read out again (a Dixit card told in words)
            for line in read:
                self.out.note(line)
            return True
        try:
            action = self.state.parse(command)
        except IllegalAction as refusal:
            meant = self._meant(command)
            if meant is None:
                self.out.note(f"{refusal} {self._hint(command, isinstance(refusal, UnknownCommand))}")
            else:
                self.play(meant)
            return True
        self.play(action)
        return True

    def perform(self, command: Command) -> bool:
        """Carry out a command understood already (a spoken one); False when the players want to stop."""
        match command:
            case HostRequest(name, rest):
                if name not in HANDLERS:  # a game's own host line, "read card 2": as typed
                    return self.handle(f"{name} {rest}")
                return HANDLERS[name](self, rest) is not False
            case Action():
                self.play(command)
        return True

    def _perform_all(self, commands: list[Command]) -> bool:
        """Each command in turn, until one stops the session; False if one did."""
        return all(self.perform(command) for command in commands)

    def _offered(self) -> list[Choice]:
        """The legal moves a hint may name: none with free words (a term, a clue, which may be
        secret) or a secret value (a card of a hand), shown by their usage instead, and none of
        the commands in `without`."""
        return [
            choice for choice in self.state.legal_actions()
            if choice.action.verb not in self.without and not takes_free_words(self.state.verbs[choice.action.verb])
            and not self.state.verbs[choice.action.verb].secret
        ]

    def _meant(self, line: str) -> Action | None:
        """The one legal move a line that is no command plainly means: "normal" or "quirky side"
        when the storyteller is asked to choose, "B3" for a flip, "Leo 4" for Leo's vote. Its
        words (but for fillers) are all words of that move, and it names all the move's values."""
        typed = {fold_name(word) for word in line.split()} - FILLER
        if not typed:
            return None
        matches = []
        for choice in self._offered():
            action = choice.action
            words = {fold_name(word) for word in str(action).split()}
            if typed <= words and {fold_name(arg) for arg in action.args} <= typed:
                matches.append(action)
        return matches[0] if len(matches) == 1 else None

    def _hint(self, line: str, unknown: bool) -> str:
        """The exact lines to type instead: the legal moves closest to what was typed, or one
        example of each command of the moment. `unknown`: the line starts with no command."""
        if unknown and self._telling():
            return f"To tell the story, type: say {line}"
        words = [fold_name(word) for word in line.split()]
        typed = {*words, *(first + second for first, second in zip(words, words[1:]))}  # "b 3" is B3 too
        offered = self._offered()
        examples: dict[str, tuple[str, int]] = {}  # line -> its command, words in common
        for choice in self.state.legal_actions():
            verb = self.state.verbs[choice.action.verb]
            if verb.name in self.without:
                continue
            example = str(choice.action) if choice in offered else usage_of(verb, choice.action.player)
            examples.setdefault(example, (verb.name, len(typed & {fold_name(word) for word in example.split()})))
        if not examples:
            return "Type help to hear the commands."
        most = max(common for _, common in examples.values())
        if most > 0:
            best = [example for example, (_, common) in examples.items() if common == most][:3]
        else:
            first_of_verb: dict[str, str] = {}
            for example, (verb_name, _) in examples.items():
                first_of_verb.setdefault(verb_name, example)
            best = list(first_of_verb.values())[:3]
        return f"Type {join_names(best, 'or')}."

    def _from_phone(self, sent: PhoneCommand) -> None:
        """A move from a player's phone: the action its page offers that player now, made by the
        game's adapter (nothing is parsed or guessed); anything else, or an action the rules give
        to another player, is refused on that phone only. Its replies go back there."""
        turn = self.adapter.phone_turn(self.state, sent.seat)
        action = turn.action(sent.verb, sent.value)
        if action is None or self.adapter.actor(self.state, action) != sent.seat:
            self._reply(f"Refused: that is not yours to do now. {turn.now}", sent.seat)
            return
        self.play(action, to=sent.seat)

    def _reply(self, line: str, to: str | None) -> None:
        """A reply to one command: on the phone of `to`, who sent it, or else at the table."""
        if to is None or self.private is None:
            self.out.note(line)
        else:
            self.private.tell(to, [line])

    def play(self, action: Action, to: str | None = None, heard: bool = False) -> bool:
        """Apply one action: refused ones are explained; legal ones are saved, then announced.
        `to`: the player whose phone sent it, who gets the replies; `heard`: the referee made it
        from the story heard. The news of a secret move ("Sabine ticks a term") is told only
        then: typed or said at the table, the move may be anyone's guess at a secret, and it is
        answered "Noted.", as a refused guess is."""
        try:
            events = self.match.apply(action)
        except IllegalAction as refusal:
            self._refused(action, refusal, to)
            return False
        self.store.append(self.game_id, len(self.match.log) - 1, action)
        if not self._telling():
            self.out.quiet = False  # the news of the action that ends a story ("Stop!") is spoken
        told = self._tell_privately(events, to)
        if to is None and not heard and any(event.cue == "secret" for event in events):
            events = [event for event in events if event.cue != "secret"]
            self._reply(NOTED, None)
        elif not any(event.to is None for event in events) and not told:  # a secret move (a term): the player hears it counted
            self._reply(NOTED, to)
        self._announce(events, action)
        self._follow_phase()
        self._guide()
        return True

    def _tell_privately(self, events: list[Event], to: str | None) -> bool:
        """Each private event to its player's phone; whether one went to `to`'s, which sent the move."""
        told = False
        for event in events:
            if event.to is not None and self.private is not None and self.private.has(event.to):
                self.private.tell(event.to, [event.text])
                told = told or event.to == to
        return told

    def _refused(self, action: Action, refusal: IllegalAction, to: str | None) -> None:
        """A guess at a secret refused (a tick of a term not written), typed or said at the
        table: answered "Noted.", as the same move is when legal, and its reason kept for its
        player alone (their phone, or 'private NAME'). A secret move refused for a player with
        a phone: the reason, with what they wrote, on their phone; the table hears only that
        something was refused. Any other refusal goes to whoever sent the move (`to`: a phone)."""
        player = action.player
        screen = self.private if player is not None and self._has_screen(player) else None
        if isinstance(refusal, GuessRefused) and to is None and player is not None:
            if screen is not None:
                screen.tell(player, [refusal.private])
            else:
                self._held.setdefault(player, []).append(refusal.private)
            self._reply(NOTED, None)
            return
        if player is None or screen is None or not self.state.secret_input():
            self._reply(self._reason(refusal) if to is None else f"Refused: {refusal}", to)
            return
        written = " ".join(action.args)
        reason = refusal.private if isinstance(refusal, SecretRefused) else str(refusal)
        screen.tell(player, [f"Refused: '{written}'. {reason}" if written else f"Refused: {reason}"])
        line = self.refusals.add(player, move_noun(action.verb))
        if line is not None:
            self.out.shared([line])

    def _reason(self, refusal: IllegalAction) -> str:
        """A refusal as the table reads it: in a few words when the host speaks briefly."""
        brief = refusal.brief if isinstance(refusal, SecretRefused) else None
        return brief if brief and self.preferences.verbosity == "brief" else str(refusal)

    def _has_screen(self, player: str) -> bool:
        """Whether `player` has a screen of their own (a phone)."""
        return self.private is not None and self.private.has(player)

    def _telling(self) -> bool:
        """A story is being told into the microphone."""
        return self.listener is not None and self.listener.listening(self.state)

    def _announce(self, events: list[Event], action: Action | None = None) -> None:
        shared = [event for event in events if event.to is None and self._for_table(event, action)]
        if self.card_reading is not None:
            shared = self.card_reading.announced(self.state, shared, action)
        for cue in {event.cue for event in shared if event.cue in EARCONS}:
            self.out.earcon(cue)
        verbosity = self.preferences.verbosity
        detail = verbosity == "detailed" and action is not None and not self.state.is_over()
        lines = [self._worded(event) for event in shared if verbosity == "detailed" or not event.detail]
        self.out.shared([line for line in lines if line] + ([self.state.status()] if detail else []),
                        whole=any(event.whole for event in shared))

    def _for_table(self, event: Event, action: Action | None) -> bool:
        """Whether the table hears a shared event: with phones, not what a phone shows its player
        (the sides of the card), without them, not what only phones left unsaid; and how to read
        one's secrets back only once, to a player without a phone of their own."""
        if event.own_screens is not None and event.own_screens != (self.private is not None):
            return False
        if event.cue == "readback":
            player = action.player if action is not None else None
            if player is None or self._has_screen(player) or player in self._read_back or not self._worded(event):
                return False
            self._read_back.add(player)
        return True

    def _guide(self) -> None:
        """A newcomer at a keyboard is told once what to type at each kind of step."""
        step = self._typing_guide()
        if step is not None and step[0] not in self._guided:
            self._guided.add(step[0])
            self.out.note(step[1])

    def _typing_guide(self) -> tuple[str, str] | None:
        """What to type now, where nothing listens (no voice control, no phones, no microphone
        hearing the story) and the host does not speak briefly: (the kind of step, the sentence)."""
        if (self.voice is not None or self.private is not None or getattr(self.source, "hears_speech", False)
                or self.preferences.verbosity == "brief"):
            return None
        return self.adapter.typing_guide(self.state)

    def _worded(self, event: Event) -> str:
        """The event's text at the verbosity chosen ("" when brief leaves it out)."""
        if self.preferences.verbosity == "brief" and event.brief is not None:
            return event.brief
        return event.text

    def _hear_reading(self, text: str) -> None:
        """One more utterance of the storyteller reading the card."""
        assert self.card_reading is not None and self.voice is not None
        recognised = self.card_reading.hear(self.state, text)
        if recognised.guess is not None:  # the whole card was heard, and the host is not sure
            self.voice.ask(Question(f"Was that card {recognised.guess}", Action("read", None, (str(recognised.guess),)), plain=True))
        elif recognised.number == recognised.expected:
            self.out.shared(self.card_reading.confirm(self.state))
        elif recognised.number is not None:
            self.voice.ask(Question(
                f"That was card {recognised.number}, not card {recognised.expected} on top of the pile. "
                f"Play card {recognised.number}",
                Action("read", None, (str(recognised.number),)),
                plain=True,
            ))

    def _follow_phase(self) -> None:
        """Start or stop what depends on the phase: the story clock, the microphone, hidden typing.
        With voice control the microphone stays open all game: free speech for a story, a card
        read aloud or a dictation, else the phrases allowed now; without it, only for a story."""
        self.source.secret(self.state.secret_input())
        hide_after = getattr(self.source, "hide_after", None)  # a source that shows what is typed
        if hide_after is not None:
            hide_after(self.state.secret_words())
        telling = self._telling()
        self.out.quiet = telling
        if telling and self.clock.deadline is None and self.clock.paused is None:
            self.clock.start()
        elif not telling:
            self.clock.stop()
        context = self.listener.context(self.state) if telling and self.listener is not None else None
        if self.voice is None:
            self.source.listen(Listening(None, story=True, context=context) if telling else None)
            return
        grammar = None if telling or self._reading_aloud() or self.state.is_over() else self.voice.grammar(self.state)
        self.source.listen(Listening(None if grammar is None else tuple(grammar), story=telling, context=context))

    def _heard(self, heard: Heard) -> bool:
        """Speech from the microphone: a story (ticks with a quiet earcon, never the term, and
        questions), a card read aloud, or spoken commands; False when they stop the session.
        The storyteller's words are public: each finished utterance is printed as heard (a
        command as free recognition wrote it down, which decides it, not the grammar's guess)."""
        hypothesis = heard.hypothesis
        said = hypothesis.text if hypothesis.loose is None else hypothesis.loose
        if hypothesis.final and said and not hypothesis.confirmed:
            self.out.write(f"Heard: {said}")
        if self._telling() or hypothesis.confirmed:  # a confirmation is the story's, even once it is over
            return self._heard_story(heard)
        if self.voice is None or not hypothesis.final:
            return True
        if not self._reading_aloud():
            commands = self.voice.hear(self.state, hypothesis)
        elif self.voice.is_aside(self.state, hypothesis):  # "host, read card five"
            commands = self.voice.aside(self.state, hypothesis)
        else:
            commands = []
            self._hear_reading(hypothesis.text)
        go_on = self._perform_all(commands)
        self._follow_phase()
        return go_on

    def _heard_story(self, heard: Heard) -> bool:
        """The story told: its words tick terms; a command needs the prefix word ("host, time left")."""
        if self.listener is None:
            return True
        hypothesis = heard.hypothesis
        telling = self._telling()
        if (self.voice is not None and hypothesis.final and not hypothesis.confirmed
                and not self._perform_all(self.voice.aside(self.state, hypothesis))):
            return False
        heard_actions = self.listener.hear(self.state, hypothesis.words, hypothesis.final, hypothesis.confirmed)
        self._play_heard(heard_actions, telling, correcting=hypothesis.confirmed)
        if telling and not self.listener.listening(self.state):  # Stop!: what was said after its word does not count
            self._play_heard(self.listener.after_stop(self.state), telling=False, correcting=True)
        return True

    def _play_heard(self, actions: list[tuple[Action, float | None]], telling: bool, correcting: bool) -> None:
        """Ticks and unticks heard, each printed with its time in the story (an untick of a
        confirmation as a correction), until Stop! while the story was told."""
        assert self.listener is not None
        for action, at in actions:
            if telling and not self.listener.listening(self.state):  # Stop! was called
                break
            correction = "Correction: " if correcting and action.verb == "untick" else ""
            self.out.stamp = ("" if at is None else f"[{at:.1f} s] ") + correction
            try:
                if self.play(action, heard=True) and action.verb == "tick":
                    self.out.earcon("tick")
            finally:
                self.out.stamp = ""

    def _reading_aloud(self) -> bool:
        """A person is to read the Storytelling card aloud, and no question waits for an answer."""
        return (self.card_reading is not None and self.card_reading.waiting(self.state)
                and (self.voice is None or self.voice.question is None))

    def _microphone_gone(self, reason: str) -> None:
        timing = self.clock.deadline is not None
        self.clock.pause()
        self.out.quiet = False
        self.out.shared([f"{reason} The timer is paused until the microphone is back." if timing else
                         f"{reason} Commands can still be typed."])

    def _microphone_back(self) -> None:
        timing = self.clock.paused is not None
        self.clock.resume()
        self.out.shared(["The microphone is back: the story and the timer go on." if timing else "The microphone is back."])

    def _next_wake(self) -> float | None:
        """Seconds until the story clock or a count of refusals wants the session, None: never."""
        wakes = [wake for wake in (self.clock.next_wake(), self.refusals.due()) if wake is not None]
        return min(wakes) if wakes else None

    def _clock_tick(self) -> None:
        left = self.clock.left()
        if left is not None and left > 0 and self.clock.warnings:
            self.out.earcon("warning")
            self.out.shared([f"{self.clock.warnings.pop(0):.0f} seconds left."])
        elif left == 0:
            self.clock.stop()
            self.play(Action("timeup"))

    def _finish(self) -> None:
        """The engine has announced the outcome with its last move."""
        self.store.mark_finished(self.game_id)
        self.out.note(f"Game {self.game_id} is over and saved.")

    # host commands: each takes the rest of the line and returns False to stop the session
    @handles("help")
    def _cmd_help(self, rest: str) -> None:
        """What can be typed now: this game's commands of the moment and the host's that only
        make sense now ('say' while a story is told, 'private' while a player without a phone
        has secrets to read back); then the host's commands at any time (brief: names only)."""
        legal = {choice.action.verb for choice in self.state.legal_actions()} - self.without
        now = [(written_usage(verb), verb.help) for name, verb in self.state.verbs.items() if name in legal]
        telling = self._telling()
        commands = offered(self.adapter.commands, phones=self.private is not None)
        current = [command for command in commands if command.current == "telling" and telling
                   or command.current == "secrets" and self._secrets_to_read()]
        now += [*self.adapter.readings(self.state), *((command.usage, command.help) for command in current)]
        always = [command for command in commands if command.current != "telling" and command not in current]
        if self.preferences.verbosity == "brief":
            self.out.note(f"Now: {', '.join(usage.removesuffix('...') for usage, _ in now) or 'nothing'}.")
            self.out.note(f"Also: {', '.join(command.name for command in always)}.")
            return
        if now:
            self.out.note("You can type now:")
            for usage, told in now:
                self.out.note(f"  {usage}: {told}")
        else:
            self.out.note(f"Nothing to type for the game now. {self.state.status()}")
        self.out.note("At any time:")
        for command in always:
            self.out.note(f"  {command.usage}: {command.help}")
        if self.voice is not None:
            self.out.note("Say 'what can I say' to hear the commands you can say.")

    def _secrets_to_read(self) -> bool:
        """Whether secrets are being entered now (terms, votes, ticks), or a player without a
        phone has some to read back."""
        return bool(self.state.secret_input() or self.state.secret_words() or any(
            self.state.secrets(player) and not self._has_screen(player) for player in self.state.players))

    @handles("repeat")
    def _cmd_repeat(self, rest: str) -> None:
        for line in self.out.last or [self.state.status()]:
            self.out.note(line)

    @handles("score")
    def _cmd_score(self, rest: str) -> None:
        report = self.state.score_report()
        for line in report[:1] if self.preferences.verbosity == "brief" else report:
            self.out.note(line)

    @handles("turn")
    def _cmd_turn(self, rest: str) -> None:
        self.out.note(self.state.status())
        step = self._typing_guide()
        if step is not None:
            self.out.note(step[1])

    @handles("time")
    def _cmd_time(self, rest: str) -> None:
        left = self.clock.left()
        if left is None:
            self.out.note("No timer is running.")
        else:
            self.out.note(f"{left:.0f} seconds left.")

    @handles("say")
    def _cmd_say(self, rest: str) -> None:
        if self.listener is None:
            self.out.note("'say' is for telling a Stories! story.")
        elif not self.listener.listening(self.state):
            self.out.note(f"Nobody is telling a story now. {self.state.status()}")
        elif not rest:
            self.out.note("Type what the storyteller said after 'say'.")
        else:
            for action in self.listener.hear_text(self.state, rest):
                if not self.listener.listening(self.state):  # Stop! was called
                    break
                self.play(action, heard=True)

    @handles("grid")
    def _cmd_grid(self, rest: str) -> None:
        self.out.note(self.adapter.grid(self.state, rest) or "This game has no grid of tiles.")

    @handles("private")
    def _cmd_private(self, rest: str) -> None:
        """A player's secrets: on their phone if they have one; else at the terminal after a key
        press, cleared at the next (only printed in a script). Never spoken."""
        if not rest:
            self.out.note("Say whose private information to show: private NAME.")
            return
        try:
            player = find_player(rest, self.state.players, echo=not self.state.secret_input())
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return
        if self.private is not None and self.private.has(player):
            self.out.note(f"{player}: your secrets are on your phone.")
            return
        secrets = [*self.state.secrets(player), *self._held.pop(player, [])]
        lines = [f"Private for {player}:", *(f"  {line}" for line in secrets or ["You have no secret right now."])]
        reveal = getattr(self.source, "reveal", None)
        if reveal is not None:
            reveal(f"Only {player} should look.", lines)
        else:
            for line in lines:
                self.out.write(line)

    @handles("link")
    def _cmd_link(self, rest: str) -> None:
        """A new private link for a player who lost theirs; the link itself is never shown here."""
        if self.private is None:
            self.out.note("There are no phones in this game: play it with --companion.")
            return
        try:
            player = find_player(rest, self.state.players) if rest else None
        except IllegalAction as refusal:
            self.out.note(str(refusal))
            return
        if player is None:
            self.out.note("Say whose phone link to renew: link NAME.")
            return
        self.out.note(f"{player}'s link was renewed; {player}, join again at {self.private.renew(player)}")

    @handles("phones")
    def _cmd_phones(self, rest: str) -> None:
        if self.private is None:
            self.out.note("There are no phones in this game: play it with --companion.")
            return
        self.private.invite(self.out)

    @handles("rate")
    def _cmd_rate(self, rest: str) -> None:
        """'rate slower', 'rate faster' or 'rate N' (words a minute), remembered for next time."""
        before = self.preferences.rate
        change = {"slower": self.preferences.slower, "faster": self.preferences.faster}.get(rest.casefold())
        try:
            rate = change() if change else int(rest)
            check_rate(rate)
            if self.out.speaker is not None:
                self.out.speaker.set_rate(rate)
        except (ValueError, SpeakerError) as error:
            self.preferences.rate = before
            self.out.note(str(error) if isinstance(error, SpeakerError) else "Say rate slower, rate faster or rate and a number of words a minute.")
            return
        self.preferences.rate = rate
        self._remember(f"Speech rate {rate} words a minute.")

    @handles("verbosity")
    def _cmd_verbosity(self, rest: str) -> None:
        """'verbosity brief|normal|detailed', remembered for next time."""
        if rest.casefold() not in ("brief", "normal", "detailed"):
            self.out.note("Say verbosity brief, verbosity normal or verbosity detailed.")
            return
        self.preferences.verbosity = rest.casefold()
        self._remember(f"Verbosity {self.preferences.verbosity}.")

    def _remember(self, done: str) -> None:
        trouble = save(self.preferences)
        self.out.note(done if trouble is None else f"{done} {trouble}")

    def _ask_undo(self) -> None:
        """A typed 'undo' first says whose move it would take back, and waits for 'yes': a
        player must not take back another's move unawares."""
        if not self.match.log:
            self.out.note("There is nothing to undo.")
            return
        last = self.match.log[-1]
        self._undo_asked = (last, len(self.match.log))
        brief = self.preferences.verbosity == "brief"
        self.out.note(f"Undo {self._named(last)}? Type yes." if brief else
                      f"Undo {self._named(last)}? Type yes to take it back, or anything else to keep it.")

    def _answered_undo(self, command: str) -> bool:
        """The line typed after 'undo' asked: 'yes' takes the move back, 'no' keeps it; any
        other line keeps it and is taken as itself. False when nothing more is to be done."""
        assert self._undo_asked is not None
        (asked, moves), self._undo_asked = self._undo_asked, None
        answer = command.casefold()
        if answer in YES and self.match.log[-1:] == [asked] and len(self.match.log) == moves:
            self._cmd_undo("")
            return False
        if answer in YES:  # a phone moved meanwhile: the last move is another now
            self.out.note("Nothing was undone: the last move has changed. Type undo again to hear which it is.")
            return False
        if answer.split()[0] != "undo":  # asked again, the question is asked again
            self.out.note("Nothing was undone.")
        return answer not in ("no", "n")

    @handles("undo")
    def _cmd_undo(self, rest: str) -> None:
        """Take back the last move, saying whose it is (typed, 'yes' came after the question;
        spoken, the voice asked yes or no first)."""
        if not self.match.log:
            self.out.note("There is nothing to undo.")
            return
        named = self._named(self.match.log[-1])
        self.match.undo()
        self.store.drop_last(self.game_id, len(self.match.log))
        self._over_before = False
        self.out.shared([f"Taking back {named}.", self.state.status()])

    def _named(self, action: Action) -> str:
        """A move as the table may hear it named: whose and what ("Bo's vote", "Marc's flip
        B3"), never a secret: a term or a vote stays unsaid."""
        before = Match(self.match.make, self.match.log[:-1]).state if self.match.log[-1:] == [action] else self.state
        player = self.adapter.actor(before, action)
        public = len(action.args) == 1 and not takes_free_words(self.state.verbs[action.verb]) and not before.secret_input()
        what = move_noun(action.verb, action.args[0] if public else None)
        return f"{player}'s {what}" if player else f"the {what}"

    @handles("quit")
    def _cmd_quit(self, rest: str) -> bool:
        self.out.note(f"Game {self.game_id} stays over." if self.state.is_over() else
                      f"Game {self.game_id} is saved: 'storyhost resume {self.game_id}' continues it.")
        return False


check_handled(HANDLERS)
