"""The text session: typed (or scripted) commands in, plain announcement lines out.

Each line is either a host command (host.commands: help, repeat, score, undo, say, ...) or a
command of the game, which is parsed once and applied to the engine as an `Action`; spoken
commands and phones' moves come as Actions already. A legal action is saved before its
announcements are printed; anything refused is explained in one line and changes nothing.
What a game hears, times or answers beyond its moves is its adapter's listeners' (a story's
referee and clock, a card read aloud): the session knows no game of its own.
"""
from __future__ import annotations

from collections.abc import Iterable

from games.base import Action, Event, GameState, IllegalAction, UnknownCommand
from games.language import _, p_
from host.adapters.base import adapter_for
from host.adapters.listening import Announce, Ask, Attention, Listener, Play, Reply, Response
from host.audio.speaker import EARCONS
from host.commands import command_named, names
from host.session import microphone, undo
from host.session.config import SessionConfig
from host.session.events import (
    ClockWake, Heard, InputEnded, InputEvent, Joined, MicrophoneBack, MicrophoneGone, PhoneCommand, Refused, Typed,
)
from host.session.handlers import HANDLERS
from host.session.inputs import LineSource
from host.session.output import NOTED, TextOutput
from host.session.replies import Replies
from host.session.wording import hint, meant, move_noun, normalise
from host.voice.control import Command, HostRequest

__all__ = ["Session", "SessionConfig", "TextOutput"]


class Session:
    """Plays one saved game from a line source until it ends, input ends, or 'quit'."""

    def __init__(self, config: SessionConfig) -> None:
        self.store, self.game_id, self.match, self.out = config.store, config.game_id, config.match, config.output
        self.listeners, self.voice, self.private = config.listeners, config.voice, config.private
        self.preferences, self.without = config.preferences, config.without
        self.adapter = config.adapter or adapter_for(config.match.state.game)
        self.replies = Replies(self.out, self.private, self.preferences)
        self.over_before = False  # resumed after its end: waiting for an undo to open it again
        #: the players told how to read their secrets back; the kinds of step whose typing was told
        self._read_back: set[str] = set()
        self._guided: set[str] = set()
        #: the move a typed 'undo' asked about, with the number of moves then: 'yes' takes it back
        self.undo_asked: tuple[Action, int] | None = None
        #: said when the input ends before the game does
        self.end_note = _("Input ended. Game {game} is saved: 'storyhost resume {game}' continues it.").format(
            game=self.game_id)

    @property
    def state(self) -> GameState:
        return self.match.state

    def time_left(self) -> float | None:
        """Seconds left on a listener's clock (the screens show it); None when none runs."""
        return next((left for left in (listener.left() for listener in self.listeners) if left is not None), None)

    def run(self, source: LineSource) -> None:
        """Play until the game ends. A game resumed when it is already over waits for 'undo',
        which takes back its last move and opens it again, or for the end of input."""
        self.source = source
        self.over_before = self.state.is_over()
        if self.over_before:
            self.out.note(_("{status} 'undo' takes back the last move of game {game} and opens it again; 'quit' leaves "
                            "it over.").format(status=self.state.status(), game=self.game_id))
        else:
            self._announce(self.state.opening())
            self._guide()
        try:
            while self.over_before or not self.state.is_over():
                microphone.follow_phase(self)
                self.out.shared(self.replies.refusals.told())
                if self.private is not None:
                    self.private.refresh(self)
                if not self._take(source.read(self._next_wake())):
                    return
            self._finish()
        finally:
            microphone.follow_phase(self)
            if self.private is not None:
                self.private.refresh(self)
            source.secret(False)
            source.listen(None)

    def _take(self, event: InputEvent) -> bool:
        """One input; False when the session is to stop."""
        match event:
            case InputEnded():
                self.out.shared(self.replies.refusals.told(all_now=True))
                self.out.note(_("Input ended. Game {game} stays over.").format(game=self.game_id) if self.state.is_over()
                              else self.end_note)
                return False
            case ClockWake():
                for listener in self.listeners:
                    self.respond(listener.wake(self.state))
            case Joined(player):
                self.out.shared([_("{player} joined.").format(player=player)])
            case Heard() as heard:
                return microphone.hear(self, heard)
            case MicrophoneGone(reason):
                microphone.lost_or_back(self, reason)
            case MicrophoneBack():
                microphone.lost_or_back(self, None)
            case Refused(message):
                self.out.note(message)
            case PhoneCommand() as sent:
                self._from_phone(sent)
            case Typed(line):
                return self.handle(line)
        return True

    def handle(self, line: str) -> bool:
        """Handle one input line; False when the players want to stop."""
        command = normalise(line, self.adapter.written)
        if not command:
            return True
        if self.undo_asked is not None and not undo.answered(self, command):
            return True
        verb, _space, rest = command.partition(" ")
        host_command = command_named(verb)
        if host_command == "undo" and not undo.means_yes(rest.strip()):
            undo.ask(self)
            return True
        if host_command is not None:
            return self.perform(HostRequest(host_command, rest.strip()))
        read = self.adapter.reading(self.state, command)
        if read is not None:  # what is on the table, read out again (a Dixit card told in words)
            for line in read:
                self.out.note(line)
            return True
        try:
            action = self.state.parse(command)
        except IllegalAction as refusal:
            meaning = meant(self.state, self.without, command)
            if meaning is None:
                self.out.note(f"{refusal} {self._hint(command, isinstance(refusal, UnknownCommand))}")
                return True
            action = meaning
        self.play(action)
        return True

    def _hint(self, line: str, unknown: bool) -> str:
        """What to type instead of `line` (`unknown`: it starts with no command): what a listener
        takes typed (a story told), else the moves closest to it."""
        attention = self.attention()
        if unknown and attention is not None and attention.hint is not None:
            return attention.hint.format(line)
        return hint(self.state, self.without, line)

    def perform(self, command: Command) -> bool:
        """Carry out a command understood already (a spoken one); False when the players want to stop."""
        match command:
            case HostRequest(name, rest):
                if name in HANDLERS:
                    return HANDLERS[name](self, rest) is not False
                if name in names():
                    self._ask_listeners(command)
                    return True
                return self.handle(f"{name} {rest}")  # a game's own host line, "read card 2": as typed
            case Action():
                self.play(command)
        return True

    def _ask_listeners(self, request: HostRequest) -> None:
        """A host command a game adds ('say', 'time', 'grid'): its listener answers."""
        for listener in self.listeners:
            answer = listener.answer(self.state, request)
            if answer is not None:
                self.respond(answer)
                return
        self.out.note(_("'{command}' is not a command of {game}; 'help' lists them.").format(
            command=p_("verb", request.name), game=self.adapter.spec.title))

    def respond(self, responses: Iterable[Response]) -> None:
        """Carry out what a listener answered, one response at a time (each action played before
        the listener makes the next)."""
        for response in responses:
            match response:
                case Play(action, heard, stamp, cue):
                    self.out.stamp = stamp
                    try:
                        if self.play(action, heard=heard) and cue is not None:
                            self.out.earcon(cue)
                    finally:
                        self.out.stamp = ""
                case Announce(lines, cue):
                    if cue is not None:
                        self.out.earcon(cue)
                    self.out.shared(list(lines))
                case Reply(line):
                    self.out.note(line)
                case Ask(question) if self.voice is not None:
                    self.voice.ask(question)

    def perform_all(self, commands: list[Command]) -> bool:
        """Each command in turn, until one stops the session; False if one did."""
        return all(self.perform(command) for command in commands)

    def _from_phone(self, sent: PhoneCommand) -> None:
        """A move from a player's phone: the action its page offers that player now, made by the
        game's adapter (nothing is parsed or guessed); anything else, or an action the rules give
        to another player, is refused on that phone only. Its replies go back there."""
        turn = self.adapter.phone_turn(self.state, sent.seat)
        action = turn.action(sent.verb, sent.value)
        if action is None or self.adapter.actor(self.state, action) != sent.seat:
            self.replies.reply(_("Refused: that is not yours to do now. {now}").format(now=turn.now), sent.seat)
            return
        self.play(action, to=sent.seat)

    def play(self, action: Action, to: str | None = None, heard: bool = False) -> bool:
        """Apply one action: refused ones are explained; legal ones are saved, then announced.
        `to`: the player whose phone sent it, who gets the replies; `heard`: the referee made it
        from the story heard. The news of a secret move ("Sabine ticks a term") is told only
        then: typed or said at the table, the move may be anyone's guess at a secret, and it is
        answered "Noted.", as a refused guess is."""
        try:
            events = self.match.apply(action)
        except IllegalAction as refusal:
            self.replies.refused(self.state, action, refusal, to, move_noun(self.adapter.move_nouns, action.verb))
            return False
        self.store.append(self.game_id, len(self.match.log) - 1, action)
        if not self._telling():
            self.out.quiet = False  # the news of the action that ends a story ("Stop!") is spoken
        told = self.replies.tell_privately(events, to)
        if to is None and not heard and any(event.cue == "secret" for event in events):
            events = [event for event in events if event.cue != "secret"]
            self.replies.reply(_(NOTED), None)
        elif not any(event.to is None for event in events) and not told:  # a secret move (a term): the player hears it counted
            self.replies.reply(_(NOTED), to)
        self._announce(events, action)
        microphone.follow_phase(self)
        self._guide()
        return True

    def attending(self) -> tuple[Listener, Attention] | None:
        """The listener that wants the microphone's free speech now, and for what."""
        for listener in self.listeners:
            attention = listener.attention(self.state)
            if attention is not None:
                return listener, attention
        return None

    def attention(self) -> Attention | None:
        """What the microphone's free speech is for now (a story told), None: spoken commands."""
        attending = self.attending()
        return None if attending is None else attending[1]

    def _telling(self) -> bool:
        """A story is being told into the microphone."""
        attention = self.attention()
        return attention is not None and attention.story

    def _announce(self, events: list[Event], action: Action | None = None) -> None:
        shared = [event for event in events if event.to is None and self._for_table(event, action)]
        for listener in self.listeners:
            shared = listener.announced(self.state, shared, action)
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
            if player is None or self.replies.has_screen(player) or player in self._read_back or not self._worded(event):
                return False
            self._read_back.add(player)
        return True

    def _guide(self) -> None:
        """A newcomer at a keyboard is told once what to type at each kind of step."""
        step = self.typing_guide()
        if step is not None and step[0] not in self._guided:
            self._guided.add(step[0])
            self.out.note(step[1])

    def typing_guide(self) -> tuple[str, str] | None:
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

    def _next_wake(self) -> float | None:
        """Seconds until a listener's clock or a count of refusals wants the session, None: never."""
        wakes = [wake for wake in (*(listener.next_wake() for listener in self.listeners), self.replies.refusals.due())
                 if wake is not None]
        return min(wakes) if wakes else None

    def _finish(self) -> None:
        """The engine has announced the outcome with its last move."""
        self.store.mark_finished(self.game_id)
        self.out.note(_("Game {game} is over and saved.").format(game=self.game_id))
