"""What the players can say now: spoken phrases for every legal action and host command.

Each phrase stands for a typed command line, so voice and keyboard end in the same place (the
session's `handle`). The phrases of a game's moves come from its adapter (`GameVoice`). Phrases
are spelled the way the recognizer spells words (`nlp.commands.spoken`); a phrase with a letter
can also be said with the spelling alphabet ("flip bravo three"). A phrase that needs free words after it (a Dixit clue, a Stories! term) is a dictation: the next
utterance is heard as free speech and completes the line.

The labels of Stories! tick choices name a player's secret terms: those choices are never turned
into phrases; a player says "Nina ticks a term" and then the term.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from games.base import Action, GameState
from nlp.commands import spelled, spoken

#: the slot a dictation's words fill in its line
SLOT = "{}"


@dataclass(frozen=True)
class Phrase:
    """A spoken phrase and the command line it stands for."""

    words: str
    line: str
    #: ask yes or no before acting: it cannot be taken back, or costs a turn when misheard
    confirm: bool = False
    #: the line has a SLOT for free words, heard in the next utterance (a clue, a term)
    dictation: str | None = None


#: a host command said aloud: (phrases, line, confirm)
HostPhrase = tuple[tuple[str, ...], str, bool]
#: at any time
HOST_PHRASES: tuple[HostPhrase, ...] = (
    (("what can i say", "help"), "help", False),
    (("repeat", "say again"), "repeat", False),
    (("score", "scores", "what is the score"), "score", False),
    (("whose turn", "whose turn is it"), "turn", False),
    (("undo", "take that back"), "undo", True),
    (("slower", "speak slower"), "rate slower", False),
    (("faster", "speak faster"), "rate faster", False),
    (("brief", "be brief"), "verbosity brief", False),
    (("normal", "normal detail"), "verbosity normal", False),
    (("detailed", "more detail"), "verbosity detailed", False),
    (("quit", "stop the game"), "quit", True),
)
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

    #: spoken host commands only this game has
    host_phrases: tuple[HostPhrase, ...]

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The phrases of one legal action."""

    def resolve(self, state: GameState, line: str) -> str:
        """A dictated line as it should be asked about (a tick's words to the player's own term)."""


def host_lines(game: GameVoice) -> frozenset[str]:
    """The lines of host commands in `game`, which are not moves of the game."""
    return frozenset(line for _, line, _ in HOST_PHRASES + game.host_phrases)


def phrases(state: GameState, names: Names, game: GameVoice) -> list[Phrase]:
    """Every phrase that means something now: the game's legal actions, then the host's commands."""
    out: dict[str, Phrase] = {}
    for choice in state.legal_actions():
        for phrase in game.phrases(choice.action, names):
            out.setdefault(phrase.words, phrase)
    for words, line, confirm in HOST_PHRASES + game.host_phrases:
        for said in words:
            out.setdefault(said, Phrase(said, line, confirm))
    return list(out.values())


def each(words: tuple[str, ...], line: str, confirm: bool = False, dictation: str | None = None) -> Iterator[Phrase]:
    """A phrase for each way of saying `line`, spelled as the recognizer spells, then each of
    them with its letters said with the spelling alphabet ("flip bravo three")."""
    said = [spoken(way) for way in words]
    for way in dict.fromkeys([*said, *map(spelled, said)]):
        yield Phrase(way, line, confirm, dictation)
