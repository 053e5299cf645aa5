"""What the host does for one game beyond its rules, behind one protocol (`GameAdapter`), and
the adapters by game name: each module of `host/adapters/` that exports an `ADAPTER`, found on
first use, and any adapter registered since. A game's adapter is the one place the host knows
that game: its command-line options beyond the spec's, the phrases that say its moves, what
listens to a story or a card read aloud, the host commands it adds, and the companion's screens:
each player's turn on their phone, who makes each action, the table page and the pictures they
show."""
from __future__ import annotations

from dataclasses import dataclass

import argparse
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from games.base import Action, GameSpec, GameState, Option, SetupError, Settings, TermRules, join_names
from games.language import _
from games.registry import registered
from host.adapters.listening import Hearing, Listener
from host.adapters.views import PhoneTurn, TableView
from host.commands import HostPhrase, check_game
from host.storage.catalogs import NAMES
from host.voice.phrases import Names, Phrase
from nlp import Referee, referee_for


def language_named(code: str) -> str:
    """A language as a sentence names it: 'es (español)'."""
    return f"{code} ({NAMES[code]})" if code in NAMES else repr(code)


def referee(language: str = "en") -> Referee:
    """The term referee of a game's language, loaded once per process (it holds the language
    resources); ValueError for a language without Stories! term rules."""
    return referee_for(language)


@dataclass(frozen=True)
class HostServices:
    """What the engines may ask of the host (`games.base.Services`): the language judgements,
    in the game's language."""

    language: str = "en"

    def term_rules(self) -> TermRules:
        return referee(self.language)


def services_for(settings: Settings) -> HostServices:
    """The services of a game with these settings: its language's (English for games saved
    before languages were)."""
    return HostServices(settings.get("language", "en"))


SERVICES = HostServices()


class GameAdapter(Protocol):
    spec: GameSpec
    #: options of the command line beyond the spec's (the deck, who reads the cards)
    options: tuple[Option, ...]
    #: the host commands this game offers beyond those of every game ('private', 'say', 'grid' ...:
    #: the per-game ones of host.commands)
    commands: frozenset[str]
    @property
    def host_phrases(self) -> tuple[HostPhrase, ...]:
        """Spoken lines of this game's own, in the table's words: what `reading` answers, or one
        of a host command's lines that only this game has (a row of its grid): (phrases, line,
        confirm)."""
        ...

    #: the verbs a phone may send (which of them a player may send now: `phone_turn`)
    phone_verbs: frozenset[str]
    #: a move's name where its verb is not one ("Bo's vote" needs none), by verb: alone, and
    #: with its one argument when that may be said ("flip of {}")
    move_nouns: Mapping[str, tuple[str, str]]
    #: a move as the rules pages write it and players may type it, where that is not its verb
    #: ("time up" for timeup)
    written: Mapping[str, str]

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        """The settings a new game takes beyond the spec's options: its whole deck, read from
        `options.deck` (None: the built-in one), and this adapter's options."""

    def variant(self, settings: Settings) -> str:
        """The variant played, as 'storyhost games' names it: ' (Contando scoring)', or ''."""

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The spoken phrases of one legal action."""

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated command line as it should be asked about (a term to the player's own)."""

    def without(self, settings: Settings) -> frozenset[str]:
        """Commands of the game not offered in help, hints or phrases with these settings."""

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        """What listens, times or answers for this game in a session that can hear and time as
        `hearing` says (a story's referee and clock, a card read aloud, the grid on request)."""

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        """What to type now, for a table where nothing listens: (the kind of step, a sentence
        with the line to type), said once per kind of step; None when the announcements say it."""

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """`player`'s turn on their phone: what to do now, their own moves, what only they know."""

    def actor(self, state: GameState, action: Action) -> str | None:
        """The player who makes `action` under the rules (the storyteller for a clue, the owner
        for 'owner'); None when no player does (a card a storyteller reads)."""

    def table(self, state: GameState) -> TableView:
        """The table page: what everyone may see of the game."""

    def pictures(self, state: GameState, player: str | None) -> Mapping[str, str]:
        """The picture files a screen shows now (`player`'s phone, or the table for None), by the
        name a page asks for each: only these are served to it."""

    def phones(self, settings: Settings) -> str | None:
        """Why this game cannot be played without phones (its hands are dealt to them), said at
        setup; None when it can."""

    def reading(self, state: GameState, line: str) -> list[str] | None:
        """The answer to a line that reads out what is on the table without changing the game
        (a Dixit card told in words, read again); None when `line` is not such a line."""

    def readings(self, state: GameState) -> tuple[tuple[str, str], ...]:
        """The lines `reading` answers now, as (usage, what it does) for help."""


def waiting(state: GameState, player: str) -> str:
    """Whom the game waits for, besides `player`, in a sentence for `player`."""
    others = [name for name in state.waiting_for() if name != player]
    if not others:
        return _("Nothing for you to do now.")
    return _("Waiting for {players}.").format(players=join_names(others))


class BasicAdapter:
    """An adapter for a game the host only passes commands to: no deck file, nothing heard
    beyond commands, no clock. Adapters subclass it and change what their game needs."""

    options: tuple[Option, ...] = ()
    commands: frozenset[str] = frozenset()
    phone_verbs: frozenset[str] = frozenset()
    move_nouns: Mapping[str, tuple[str, str]] = {}
    written: Mapping[str, str] = {}

    @property
    def host_phrases(self) -> tuple[HostPhrase, ...]:
        return ()

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        if options.deck is not None:
            raise SetupError(f"--deck is not for {self.spec.title}, which is played without a deck file.")
        return {}

    def variant(self, settings: Settings) -> str:
        return ""

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        return iter(())

    def resolve(self, state: GameState, line: str) -> str:
        return line

    def without(self, settings: Settings) -> frozenset[str]:
        return frozenset()

    def listeners(self, settings: Settings, hearing: Hearing) -> tuple[Listener, ...]:
        return ()

    def typing_guide(self, state: GameState) -> tuple[str, str] | None:
        return None

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """No moves on the phone: what the game waits for, and the player's secrets."""
        if state.is_over():
            return PhoneTurn(state.status())
        now = "It is your move: make it at the table." if player in state.waiting_for() else waiting(state, player)
        return PhoneTurn(now, yours=tuple(state.secrets(player)))

    def actor(self, state: GameState, action: Action) -> str | None:
        return action.player

    def table(self, state: GameState) -> TableView:
        return TableView(self.spec.title, state.status())

    def pictures(self, state: GameState, player: str | None) -> Mapping[str, str]:
        return {}

    def phones(self, settings: Settings) -> str | None:
        return None

    def reading(self, state: GameState, line: str) -> list[str] | None:
        return None

    def readings(self, state: GameState) -> tuple[tuple[str, str], ...]:
        return ()


_registered: dict[str, GameAdapter] = {}
_found = False


def register_adapter(adapter: GameAdapter) -> None:
    """Make `adapter` the host's for its game; a second adapter for one game, or one that offers
    what the host has no command for, is a bug."""
    check_game(adapter.spec.name, adapter.commands, adapter.host_phrases)
    known = _registered.get(adapter.spec.name)
    if known is not None and known is not adapter:
        raise ValueError(f"Two adapters for the game {adapter.spec.name!r}.")
    _registered[adapter.spec.name] = adapter


def adapters() -> Mapping[str, GameAdapter]:
    """Every game the host can play, by name: the games with an adapter."""
    global _found
    if not _found:
        import host.adapters

        for module in pkgutil.iter_modules(host.adapters.__path__):
            adapter = getattr(importlib.import_module(f"host.adapters.{module.name}"), "ADAPTER", None)
            if adapter is not None:
                register_adapter(adapter)
        _found = True
    return {name: adapter for name, adapter in _registered.items() if name in registered()}


def adapter_for(game: str) -> GameAdapter:
    """The adapter of `game`; KeyError when the host cannot play it."""
    return adapters()[game]
