"""What the players can say now: spoken phrases for every legal action and host command.

Each phrase of a move stands for its action, which the session plays as it is; a host
command's phrase for its line, a dictation's for a line its free words complete. The phrases of a game's moves come from its adapter (`GameVoice`), those of the host's commands
from their table (`host.commands`). Phrases
are spelled the way the recognizer spells words (`nlp.commands.spoken`); a phrase with a letter
can also be said with the spelling alphabet ("flip bravo three"). A phrase that needs free words after it (a Dixit clue, a Stories! term) is a dictation: the next
utterance is heard as free speech and completes the line.

The labels of Stories! tick choices name a player's secret terms: those choices are never turned
into phrases; a player says "Nina ticks a term" and then the term.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from games.base import Action, GameState
from host.commands import HostPhrase, host_phrases
from nlp.commands import spelled, spoken

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


YES = ("yes", "yes please", "correct", "right")
NO = ("no", "cancel", "wrong")


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
    #: spoken lines of this game's own beyond its moves and the host commands (a card read again)
    host_phrases: tuple[HostPhrase, ...]

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The phrases of one legal action."""

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated line as it should be asked about (a tick's words to the player's own term)."""


def host_lines(game: GameVoice) -> frozenset[str]:
    """The lines of host commands in `game`, which are not moves of the game."""
    return frozenset(line for _, line, _ in _spoken(game))


def phrases(state: GameState, names: Names, game: GameVoice) -> list[Phrase]:
    """Every phrase that means something now: the game's legal actions, then the host's commands."""
    out: dict[str, Phrase] = {}
    for choice in state.legal_actions():
        if state.verbs[choice.action.verb].secret:  # a card of a hand is never said
            continue
        for phrase in game.phrases(choice.action, names):
            out.setdefault(phrase.words, phrase if phrase.dictation is not None else replace(phrase, action=choice.action))
    for words, line, confirm in _spoken(game):
        for said in words:
            out.setdefault(said, Phrase(said, line, confirm))
    return list(out.values())


def _spoken(game: GameVoice) -> tuple[HostPhrase, ...]:
    """The spoken host commands of `game`, then its own spoken lines."""
    return host_phrases(game.commands) + game.host_phrases


def each(words: tuple[str, ...], line: str, confirm: bool = False, dictation: str | None = None) -> Iterator[Phrase]:
    """A phrase for each way of saying `line`, spelled as the recognizer spells, then each of
    them with its letters said with the spelling alphabet ("flip bravo three")."""
    said = [spoken(way) for way in words]
    for way in dict.fromkeys([*said, *map(spelled, said)]):
        yield Phrase(way, line, confirm, dictation)
