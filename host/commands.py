"""The host's own commands (help, repeat, score, undo, ...), in one table: what each is called,
typed and said, its help, and when it is offered. Help, hints, the typed aliases and the spoken
phrases (`host.voice.phrases`) are read from it; the session binds each to its handler
(`host.session.handlers.handles`), but for those a game's listener answers (`by_game`: 'say',
'time', 'grid'), and the two are checked against each other when the handlers are imported;
each game's adapter is checked against it when registered (`check_game`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from games.base import fold_name
from games.language import N_, _, p_

#: a command said aloud: (ways of saying it, the line it stands for, ask yes or no first)
HostPhrase = tuple[tuple[str, ...], str, bool]
#: when a command is listed among those of the moment in help, rather than among those of any time
Current = Literal["telling", "secrets"]


@dataclass(frozen=True)
class HostCommand:
    """A command of the host rather than of a game."""

    usage: str
    help: str
    #: the ways of saying it; each line starts with the command's name
    said: tuple[HostPhrase, ...] = ()
    #: other things players type for it ("exit" for quit)
    typed: tuple[str, ...] = ()
    #: offered only in the games whose adapter lists it among its `commands`
    per_game: bool = False
    #: offered only in a game played with phones
    phones: bool = False
    #: in help, a command of the moment: while a story is told, or while secrets are entered or
    #: kept by a player without a phone
    current: Current | None = None
    #: answered by a listener of the game's adapter (host.adapters.listening), not the session
    by_game: bool = False

    @property
    def name(self) -> str:
        return self.usage.split()[0]

    @property
    def word(self) -> str:
        """The command's word in the table's language (typed commands also take `name`)."""
        return p_("verb", self.name)

    @property
    def local_usage(self) -> str:
        """'private NAME', in the table's language."""
        return " ".join([self.word, *(p_("param", param.casefold()).upper() for param in self.usage.split()[1:])])

    @property
    def explained(self) -> str:
        """`help` in the table's language."""
        return _(self.help)


HOST_COMMANDS: tuple[HostCommand, ...] = (
    HostCommand("help", N_("the commands of the moment, then these"),
                said=(((N_("what can i say"), N_("help")), "help", False),)),
    HostCommand("repeat", N_("the last announcement again"), said=(((N_("repeat"), N_("say again")), "repeat", False),)),
    HostCommand("score", N_("the scores, and how the last points were scored"), typed=("scores",),
                said=(((N_("score"), N_("scores"), N_("what is the score")), "score", False),)),
    HostCommand("turn", N_("where the game stands and what to do now"), typed=("whose turn", "status"),
                said=(((N_("whose turn"), N_("whose turn is it")), "turn", False),)),
    HostCommand("undo", N_("take back the last move, once you have heard whose it is and said yes"),
                said=(((N_("undo"), N_("take that back")), "undo", True),)),
    HostCommand(
        "private NAME", N_("read NAME's own terms or vote back to NAME alone: shown after a key press, wiped at "
                           "the next, never spoken"), per_game=True, current="secrets",
    ),
    HostCommand("link NAME", N_("a new private link for NAME's phone, the old one stops working"), phones=True),
    HostCommand("phones", N_("the phones' address and room code again, with the QR code"), phones=True),
    HostCommand("say TEXT", N_("type what the storyteller says, to tick the terms heard"), per_game=True, current="telling",
                by_game=True),
    HostCommand("time", N_("the time left in the story"), per_game=True, current="telling", by_game=True,
                said=(((N_("time left"), N_("how much time")), "time", False),)),
    HostCommand("grid", N_("the grid's shape and the tiles face up now; grid row 2 or grid column B tells one line"),
                per_game=True, by_game=True, said=(((N_("which tiles are face up"), N_("grid")), "grid", False),)),
    HostCommand("rate SPEED", N_("speak slower, faster, or at a number of words a minute"), said=(
        ((N_("slower"), N_("speak slower")), "rate slower", False),
        ((N_("faster"), N_("speak faster")), "rate faster", False),
    )),
    HostCommand("verbosity LEVEL", N_("say less or more: brief, normal or detailed"), said=(
        ((N_("brief"), N_("be brief")), "verbosity brief", False),
        ((N_("normal"), N_("normal detail")), "verbosity normal", False),
        ((N_("detailed"), N_("more detail")), "verbosity detailed", False),
    )),
    HostCommand("quit", N_("stop; 'storyhost resume' continues the game"), typed=("exit",),
                said=(((N_("quit"), N_("stop the game")), "quit", True),)),
)


def check(commands: tuple[HostCommand, ...]) -> dict[str, HostCommand]:
    """The commands by name; ValueError for a table that help and voice could not offer as it
    stands: a name twice, a typed or said form claimed twice, a phrase that says another command."""
    by_name: dict[str, HostCommand] = {}
    claimed: dict[str, str] = {}  # a typed alias or a spoken phrase -> its command
    for command in commands:
        if command.name in by_name or command.name != command.name.lower():
            raise ValueError(f"Host command {command.name!r}: each needs a lowercase name of its own.")
        if not command.help:
            raise ValueError(f"Host command {command.name!r} needs its help.")
        if command.by_game and not command.per_game:
            raise ValueError(f"Host command {command.name!r}: a game's listener answers only a command a game offers.")
        by_name[command.name] = command
        forms = [*command.typed, *(way for ways, line, _confirmed in command.said for way in ways)]
        for ways, line, _confirmed in command.said:
            if line.split()[0] != command.name:
                raise ValueError(f"Host command {command.name!r}: its phrases {ways} stand for '{line}', another command.")
        for form in forms:
            if claimed.setdefault(form, command.name) != command.name:
                raise ValueError(f"'{form}' is said or typed for both {claimed[form]!r} and {command.name!r}.")
    return by_name


check(HOST_COMMANDS)


def check_handled(handlers: Iterable[str]) -> None:
    """ValueError unless the commands with a handler of the session are those of the table that
    no game's listener answers."""
    handled, listed = set(handlers), {name for name, command in check(HOST_COMMANDS).items() if not command.by_game}
    if handled != listed:
        raise ValueError(f"Host commands without a handler: {sorted(listed - handled)}; "
                         f"handlers without a command: {sorted(handled - listed)}.")


def names() -> frozenset[str]:
    """The names of the host commands."""
    return frozenset(command.name for command in HOST_COMMANDS)


def command_named(word: str) -> str | None:
    """The host command typed as `word`: its name or its word in the table's language, in any
    case, with or without accents ('deshacer', 'undo'); None if `word` is none."""
    folded = fold_name(word)
    return next((command.name for command in HOST_COMMANDS if folded in (command.name, fold_name(command.word))), None)


def offered(game_commands: Iterable[str], phones: bool = True) -> list[HostCommand]:
    """The host commands of a game whose adapter offers `game_commands` (`phones`: played with phones)."""
    chosen = set(game_commands)
    return [command for command in HOST_COMMANDS
            if (not command.per_game or command.name in chosen) and (phones or not command.phones)]


def typed_aliases() -> dict[str, str]:
    """What players may type for a host command instead of its name ("exit" -> "quit")."""
    return {alias: command.name for command in HOST_COMMANDS for alias in command.typed}


def host_phrases(game_commands: Iterable[str]) -> tuple[HostPhrase, ...]:
    """The spoken host commands of a game whose adapter offers `game_commands`: those of every
    game first, then the game's own."""
    commands = offered(game_commands)
    return tuple(phrase for group in ([c for c in commands if not c.per_game], [c for c in commands if c.per_game])
                 for command in group for phrase in command.said)


def check_game(game: str, game_commands: frozenset[str], game_phrases: tuple[HostPhrase, ...]) -> None:
    """ValueError unless a game's adapter offers only per-game host commands, and its own spoken
    lines say only what it reads out or a host command it offers (a grid's lines)."""
    by_name = check(HOST_COMMANDS)
    for name in game_commands:
        if name not in by_name or not by_name[name].per_game:
            raise ValueError(f"{game} offers the host command '{name}', which is no host command a game may offer.")
    for ways, line, _confirmed in game_phrases:
        command = by_name.get(line.split()[0])
        if command is not None and command.name not in game_commands:
            raise ValueError(f"{game}'s phrases {ways} say '{line}', a host command {game} does not offer.")
