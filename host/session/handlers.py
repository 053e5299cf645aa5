"""The session's handlers of the host commands (`host.commands` lists them): each takes the
session and the rest of the line, and returns False to stop the session. The commands a game
adds ('say', 'time', 'grid') are answered by its adapter's listeners instead."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.base import IllegalAction, find_player
from host.audio.speaker import SpeakerError, check_rate
from host.commands import check_handled, offered
from host.session import undo
from host.session.wording import written_usage
from host.storage.preferences import save

if TYPE_CHECKING:
    from host.session.session import Session

#: a host command's handler: it takes the rest of the line, and returns False to stop the session
Handler = Callable[["Session", str], "bool | None"]
#: the host commands' handlers by command (see `handles`)
HANDLERS: dict[str, Handler] = {}


def handles(name: str) -> Callable[[Handler], Handler]:
    """Make the decorated function the handler of the host command `name` (host.commands)."""
    def bind(handler: Handler) -> Handler:
        if HANDLERS.setdefault(name, handler) is not handler:
            raise ValueError(f"Two handlers for the host command {name!r}.")
        return handler
    return bind


@handles("help")
def help_now(session: Session, rest: str) -> None:
    """What can be typed now: this game's commands of the moment and the host's that only
    make sense now ('say' while a story is told, 'private' while a player without a phone
    has secrets to read back); then the host's commands at any time (brief: names only)."""
    state, out, adapter = session.state, session.out, session.adapter
    legal = {choice.action.verb for choice in state.legal_actions()} - session.without
    now = [(written_usage(verb, adapter.written), verb.help) for name, verb in state.verbs.items() if name in legal]
    attention = session.attention()
    telling = attention is not None and attention.story
    commands = offered(adapter.commands, phones=session.private is not None)
    current = [command for command in commands if command.current == "telling" and telling
               or command.current == "secrets" and _secrets_to_read(session)]
    now += [*adapter.readings(state), *((command.usage, command.help) for command in current)]
    always = [command for command in commands if command.current != "telling" and command not in current]
    if session.preferences.verbosity == "brief":
        out.note(f"Now: {', '.join(usage.removesuffix('...') for usage, _ in now) or 'nothing'}.")
        out.note(f"Also: {', '.join(command.name for command in always)}.")
        return
    if now:
        out.note("You can type now:")
        for usage, told in now:
            out.note(f"  {usage}: {told}")
    else:
        out.note(f"Nothing to type for the game now. {state.status()}")
    out.note("At any time:")
    for command in always:
        out.note(f"  {command.usage}: {command.help}")
    if session.voice is not None:
        out.note("Say 'what can I say' to hear the commands you can say.")


def _secrets_to_read(session: Session) -> bool:
    """Whether secrets are being entered now (terms, votes, ticks), or a player without a
    phone has some to read back."""
    state = session.state
    return bool(state.secret_input() or state.secret_words() or any(
        state.secrets(player) and not session.replies.has_screen(player) for player in state.players))


@handles("repeat")
def repeat(session: Session, rest: str) -> None:
    for line in session.out.last or [session.state.status()]:
        session.out.note(line)


@handles("score")
def score(session: Session, rest: str) -> None:
    report = session.state.score_report()
    for line in report[:1] if session.preferences.verbosity == "brief" else report:
        session.out.note(line)


@handles("turn")
def turn(session: Session, rest: str) -> None:
    session.out.note(session.state.status())
    step = session.typing_guide()
    if step is not None:
        session.out.note(step[1])


@handles("private")
def private(session: Session, rest: str) -> None:
    """A player's secrets: on their phone if they have one; else at the terminal after a key
    press, cleared at the next (only printed in a script). Never spoken."""
    state, out = session.state, session.out
    if not rest:
        out.note("Say whose private information to show: private NAME.")
        return
    try:
        player = find_player(rest, state.players, echo=not state.secret_input())
    except IllegalAction as refusal:
        out.note(str(refusal))
        return
    if session.replies.has_screen(player):
        out.note(f"{player}: your secrets are on your phone.")
        return
    secrets = [*state.secrets(player), *session.replies.held.pop(player, [])]
    lines = [f"Private for {player}:", *(f"  {line}" for line in secrets or ["You have no secret right now."])]
    reveal = getattr(session.source, "reveal", None)
    if reveal is not None:
        reveal(f"Only {player} should look.", lines)
    else:
        for line in lines:
            out.write(line)


@handles("link")
def link(session: Session, rest: str) -> None:
    """A new private link for a player who lost theirs; the link itself is never shown here."""
    if session.private is None:
        session.out.note("There are no phones in this game: play it with --companion.")
        return
    try:
        player = find_player(rest, session.state.players) if rest else None
    except IllegalAction as refusal:
        session.out.note(str(refusal))
        return
    if player is None:
        session.out.note("Say whose phone link to renew: link NAME.")
        return
    session.out.note(f"{player}'s link was renewed; {player}, join again at {session.private.renew(player)}")


@handles("phones")
def phones(session: Session, rest: str) -> None:
    if session.private is None:
        session.out.note("There are no phones in this game: play it with --companion.")
        return
    session.private.invite(session.out)


@handles("rate")
def rate(session: Session, rest: str) -> None:
    """'rate slower', 'rate faster' or 'rate N' (words a minute), remembered for next time."""
    preferences, out = session.preferences, session.out
    before = preferences.rate
    change = {"slower": preferences.slower, "faster": preferences.faster}.get(rest.casefold())
    try:
        chosen = change() if change else int(rest)
        check_rate(chosen)
        if out.speaker is not None:
            out.speaker.set_rate(chosen)
    except (ValueError, SpeakerError) as error:
        preferences.rate = before
        out.note(str(error) if isinstance(error, SpeakerError) else "Say rate slower, rate faster or rate and a number of words a minute.")
        return
    preferences.rate = chosen
    _remember(session, f"Speech rate {chosen} words a minute.")


@handles("verbosity")
def verbosity(session: Session, rest: str) -> None:
    """'verbosity brief|normal|detailed', remembered for next time."""
    if rest.casefold() not in ("brief", "normal", "detailed"):
        session.out.note("Say verbosity brief, verbosity normal or verbosity detailed.")
        return
    session.preferences.verbosity = rest.casefold()
    _remember(session, f"Verbosity {session.preferences.verbosity}.")


def _remember(session: Session, done: str) -> None:
    trouble = save(session.preferences)
    session.out.note(done if trouble is None else f"{done} {trouble}")


@handles("undo")
def take_back(session: Session, rest: str) -> None:
    undo.take_back(session)


@handles("quit")
def quit_game(session: Session, rest: str) -> bool:
    game_id = session.game_id
    session.out.note(f"Game {game_id} stays over." if session.state.is_over() else
                     f"Game {game_id} is saved: 'storyhost resume {game_id}' continues it.")
    return False


check_handled(HANDLERS)
