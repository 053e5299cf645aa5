"""What the players can say now: spoken phrases for every legal action and host command.

Each phrase of a move stands for its action, which the session plays as it is; a host
command's phrase for its line, a dictation's for a line its free words complete. The phrases of a game's moves come from its adapter (`GameVoice`), those of the host's commands
from their table (`host.commands`). Phrases
are spelled the way the recognizer spells words (`nlp.commands.spoken`); a phrase with a letter
can also be said with the spelling alphabet ("flip bravo three"). A phrase that needs free words after it (a Dixit clue, a Stories! term) is a dictation: the next
utterance is heard as free speech and completes the line.

In a language other than English each move can also be said as it is typed in that language,
the command's word first ("vota leo cuatro", "voltea b tres": `said_command`), since the adapters'
natural phrases are English; the host's phrases are said only in the table's language.

The labels of Stories! tick choices name a player's secret terms: those choices are never turned
into phrases; a player says "Nina ticks a term" and then the term.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

import re

from games.base import Action, Choice, GameState, Verb
from games.language import _
from host.commands import HostPhrase, host_phrases
from nlp.commands import number_words, spelled, spoken

#: the slot a dictation's words fill in its line
SLOT = "{}"


@dataclass(frozen=True)
class Phrase:
    """A spoken phrase and what it stands for: a move (`action`, set by `phrases`), or a line (a
    host command's, or a dictation's)."""

    words: str
    line: str
    #: ask yes or no before acting: it cannot be taken back, or costs a turn when misheard
    confirm: bool = False
    #: the line has a SLOT for free words, heard in the next utterance (a clue, a term)
    dictation: str | None = None
    #: the legal move the phrase says (None: a host command or a dictation)
    action: Action | None = None


class Names:
    """How each player's name is said: the name itself, or the word the recognizer knows for it."""

    def __init__(self, spoken_names: Mapping[str, str]) -> None:
        self.spoken = dict(spoken_names)

    def __call__(self, player: str) -> str:
        return self.spoken.get(player, spoken(player))


class GameVoice(Protocol):
    """What voice control needs of one game (its adapter in `host.adapters` provides it)."""

    #: the host commands this game offers beyond those of every game (host.commands)
    commands: frozenset[str]
    @property
    def host_phrases(self) -> tuple[HostPhrase, ...]:
        """Spoken lines of this game's own beyond its moves and the host commands (a card read
        again), in the table's words."""
        ...

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The phrases of one legal action."""

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated line as it should be asked about (a tick's words to the player's own term)."""


def host_lines(game: GameVoice) -> frozenset[str]:
    """The lines of host commands in `game`, which are not moves of the game."""
    return frozenset(line for _words, line, _confirm in _spoken(game))


def phrases(state: GameState, names: Names, game: GameVoice, language: str = "en") -> list[Phrase]:
    """Every phrase that means something now: the game's legal actions, then the host's commands
    (in `language`: see the module's docstring)."""
    out: dict[str, Phrase] = {}
    for choice in state.legal_actions():
        if state.verbs[choice.action.verb].secret:  # a card of a hand is never said
            continue
        natural = list(game.phrases(choice.action, names))
        confirm = any(phrase.confirm for phrase in natural)
        said = [] if language == "en" else list(said_command(state, choice, names, confirm))
        for phrase in [*said, *natural]:  # the table's language first: "what can I say" gives it
            out.setdefault(phrase.words, phrase if phrase.dictation is not None else replace(phrase, action=choice.action))
    for words, line, confirm in _spoken(game):
        for way in words:
            # in English also as written ("be brief", which `spoken` spells "b brief"); in another
            # language only in its words, which a question about the phrase then says
            for heard in dict.fromkeys((spoken(_(way)), way) if language == "en" else (spoken(_(way)),)):
                out.setdefault(heard, Phrase(heard, line, confirm))
    return list(out.values())


def said_command(state: GameState, choice: Choice, names: Names, confirm: bool = False) -> Iterator[Phrase]:
    """A move said as it is typed in the table's language: the command's word, the player, then
    each value (a number in words, a grid place as its letter and number, a player as called, a
    word as the catalog has it): "vota leo cuatro". A move with free words (a term, a clue) is a
    dictation after the command's word and the player; a move whose values are free words but no
    dictation (a tick names a secret term) is not said this way. `confirm`: asked about first."""
    action, verb = choice.action, state.verbs[choice.action.verb]
    player = [names(action.player)] if action.player else []
    line = " ".join([action.verb, *([action.player] if action.player else [])])
    if choice.free_text:
        yield from each((" ".join([verb.said, *player]),), line, dictation=f"{line} {SLOT}")
        return
    if any(param.endswith("...") for param in verb.params):
        return
    values = [_value(value, state, names, verb) for value in action.args]
    yield from each((" ".join([verb.said, *player, *values]),), str(action), confirm=confirm)


def _value(value: str, state: GameState, names: Names, verb: Verb) -> str:
    if value.isdecimal():
        return number_words(int(value))
    place = re.fullmatch(r"([A-Za-z])(\d{1,2})", value)
    if place:
        return f"{place[1].lower()} {number_words(int(place[2]))}"
    return names(value) if value in state.players else verb.said_value(value)


def _spoken(game: GameVoice) -> tuple[HostPhrase, ...]:
    """The spoken host commands of `game`, then its own spoken lines."""
    return host_phrases(game.commands) + game.host_phrases


def each(words: tuple[str, ...], line: str, confirm: bool = False, dictation: str | None = None) -> Iterator[Phrase]:
    """A phrase for each way of saying `line`, spelled as the recognizer spells, then each of
    them with its letters said with the spelling alphabet ("flip bravo three")."""
    said = [spoken(way) for way in words]
    for way in dict.fromkeys([*said, *map(spelled, said)]):
        yield Phrase(way, line, confirm, dictation)
