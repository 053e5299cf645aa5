"""The session's handlers of the host commands (`host.commands` lists them): each takes the
session and the rest of the line, and returns False to stop the session. The commands a game
adds ('say', 'time', 'grid') are answered by its adapter's listeners instead."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.base import IllegalAction, find_player, fold_name, join_either
from games.language import _, p_
from host.audio.speaker import SpeakerError, check_rate
from host.commands import HOST_COMMANDS, check_handled, offered
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
    now = [(written_usage(verb, adapter.written), verb.explained) for name, verb in state.verbs.items() if name in legal]
    attention = session.attention()
    telling = attention is not None and attention.story
    commands = offered(adapter.commands, phones=session.private is not None)
    current = [command for command in commands if command.current == "telling" and telling
               or command.current == "secrets" and _secrets_to_read(session)]
    now += [*adapter.readings(state), *((command.local_usage, command.explained) for command in current)]
    always = [command for command in commands if command.current != "telling" and command not in current]
    if session.preferences.verbosity == "brief":
        listed = _(", ").join(usage.removesuffix("...") for usage, _told in now)
        out.note(_("Now: {commands}.").format(commands=listed) if listed else _("Now: nothing."))
        out.note(_("Also: {commands}.").format(commands=_(", ").join(command.word for command in always)))
        return
    if now:
        out.note(_("You can type now:"))
        for usage, told in now:
            out.note(f"  {usage}: {told}")
    else:
        out.note(_("Nothing to type for the game now. {status}").format(status=state.status()))
    out.note(_("At any time:"))
    for command in always:
        out.note(f"  {command.local_usage}: {command.explained}")
    if session.voice is not None:
        out.note(_("Say 'what can I say' to hear the commands you can say."))


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
        out.note(_("Say whose private information to show: {usage}.").format(usage=_usage("private")))
        return
    try:
        player = find_player(rest, state.players, echo=not state.secret_input())
    except IllegalAction as refusal:
        out.note(str(refusal))
        return
    if session.replies.has_screen(player):
        out.note(_("{player}: your secrets are on your phone.").format(player=player))
        return
    secrets = [*state.secrets(player), *session.replies.held.pop(player, [])]
    lines = [_("Private for {player}:").format(player=player),
             *(f"  {line}" for line in secrets or [_("You have no secret right now.")])]
    reveal = getattr(session.source, "reveal", None)
    if reveal is not None:
        reveal(_("Only {player} should look.").format(player=player), lines)
    else:
        for line in lines:
            out.write(line)


@handles("link")
def link(session: Session, rest: str) -> None:
    """A new private link for a player who lost theirs; the link itself is never shown here."""
    if session.private is None:
        session.out.note(_("There are no phones in this game: play it with --companion."))
        return
    try:
        player = find_player(rest, session.state.players) if rest else None
    except IllegalAction as refusal:
        session.out.note(str(refusal))
        return
    if player is None:
        session.out.note(_("Say whose phone link to renew: {usage}.").format(usage=_usage("link")))
        return
    session.out.note(_("{player}'s link was renewed; {player}, join again at {address}").format(
        player=player, address=session.private.renew(player)))


@handles("phones")
def phones(session: Session, rest: str) -> None:
    if session.private is None:
        session.out.note(_("There are no phones in this game: play it with --companion."))
        return
    session.private.invite(session.out)


@handles("rate")
def rate(session: Session, rest: str) -> None:
    """'rate slower', 'rate faster' or 'rate N' (words a minute), remembered for next time."""
    preferences, out = session.preferences, session.out
    before = preferences.rate
    change = {"slower": preferences.slower, "faster": preferences.faster}.get(_setting(rest, ("slower", "faster")) or "")
    try:
        chosen = change() if change else int(rest)
        check_rate(chosen)
        if out.speaker is not None:
            out.speaker.set_rate(chosen)
    except (ValueError, SpeakerError) as error:
        preferences.rate = before
        out.note(str(error) if isinstance(error, SpeakerError) else _(
            "Say {slower}, {faster} or {rate} and a number of words a minute.").format(
            slower=_said("rate", "slower"), faster=_said("rate", "faster"), rate=p_("verb", "rate")))
        return
    preferences.rate = chosen
    _remember(session, _("Speech rate {rate} words a minute.").format(rate=chosen))


@handles("verbosity")
def verbosity(session: Session, rest: str) -> None:
    """'verbosity brief|normal|detailed', remembered for next time."""
    level = _setting(rest, LEVELS)
    if level is None:
        session.out.note(_("Say {choices}.").format(choices=join_either([_said("verbosity", level) for level in LEVELS])))
        return
    session.preferences.verbosity = level
    _remember(session, _("Verbosity {level}.").format(level=_settings()[level]))


#: the levels of 'verbosity', by their English word
LEVELS = ("brief", "normal", "detailed")


def _settings() -> dict[str, str]:
    """The words 'rate' and 'verbosity' take (but a number), English -> in the table's language."""
    return {"slower": p_("setting", "slower"), "faster": p_("setting", "faster"), "brief": p_("setting", "brief"),
            "normal": p_("setting", "normal"), "detailed": p_("setting", "detailed")}


def _setting(typed: str, choices: tuple[str, ...]) -> str | None:
    """The English word among `choices` that `typed` is, in English or in the table's language."""
    local, folded = _settings(), fold_name(typed)
    return next((choice for choice in choices if folded in (choice, fold_name(local[choice]))), None)


def _said(command: str, setting: str) -> str:
    """'verbosity brief', in the table's language."""
    return f"{p_('verb', command)} {_settings()[setting]}"


def _usage(name: str) -> str:
    """A host command's usage in the table's language ('private NAME')."""
    return next(command.local_usage for command in HOST_COMMANDS if command.name == name)


def _remember(session: Session, done: str) -> None:
    trouble = save(session.preferences)
    session.out.note(done if trouble is None else f"{done} {trouble}")


@handles("undo")
def take_back(session: Session, rest: str) -> None:
    undo.take_back(session)


@handles("quit")
def quit_game(session: Session, rest: str) -> bool:
    game_id = session.game_id
    session.out.note(_("Game {game} stays over.").format(game=game_id) if session.state.is_over() else
                     _("Game {game} is saved: 'storyhost resume {game}' continues it.").format(game=game_id))
    return False


check_handled(HANDLERS)
