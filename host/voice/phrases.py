"""What the players can say now: spoken phrases for every legal action and host command.

Each phrase stands for a typed command line, so voice and keyboard end in the same place (the
session's `handle`). Phrases are spelled the way the recognizer spells words (`nlp.commands.spoken`).
A phrase that needs free words after it (a Dixit clue, a Stories! term) is a dictation: the next
utterance is heard as free speech and completes the line.

The labels of Stories! tick choices name a player's secret terms: those choices are never turned
into phrases; a player says "Nina ticks a term" and then the term.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from games.base import Action, GameState
from nlp.commands import number_words, spoken

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


#: at any time: (phrases, line, confirm)
HOST_PHRASES: tuple[tuple[tuple[str, ...], str, bool], ...] = (
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
GAME_HOST_PHRASES: dict[str, tuple[tuple[tuple[str, ...], str, bool], ...]] = {
    "stories": ((("time left", "how much time"), "time", False),),
    "storytelling": ((("which tiles are face up", "grid"), "grid", False),),
    "dixit": (),
}
#: the lines of host commands, which are not moves of the game
HOST_LINES = frozenset(line for _, line, _ in HOST_PHRASES + sum(GAME_HOST_PHRASES.values(), ()))
YES = ("yes", "yes please", "correct", "right")
NO = ("no", "cancel", "wrong")


class Names:
    """How each player's name is said: the name itself, or the word the recognizer knows for it."""

    def __init__(self, spoken_names: Mapping[str, str]) -> None:
        self.spoken = dict(spoken_names)

    def __call__(self, player: str) -> str:
        return self.spoken.get(player, spoken(player))


def phrases(state: GameState, names: Names) -> list[Phrase]:
    """Every phrase that means something now: the game's legal actions, then the host's commands."""
    game = PHRASE_MAKERS[state.game]
    out: dict[str, Phrase] = {}
    for choice in state.legal_actions():
        for phrase in game(choice.action, names):
            out.setdefault(phrase.words, phrase)
    for words, line, confirm in HOST_PHRASES + GAME_HOST_PHRASES[state.game]:
        for said in words:
            out.setdefault(said, Phrase(said, line, confirm))
    return list(out.values())


def _each(words: tuple[str, ...], line: str, confirm: bool = False, dictation: str | None = None) -> Iterator[Phrase]:
    for said in words:
        yield Phrase(spoken(said), line, confirm, dictation)


def _storytelling(action: Action, names: Names) -> Iterator[Phrase]:
    if action.verb == "flip":
        place = action.args[0]
        column, row = place[0].lower(), int(place[1:])
        column_number = ord(column) - ord("a") + 1
        yield from _each(
            (f"flip {column} {row}", f"{column} {row}", f"row {number_words(row)} column {number_words(column_number)}"),
            f"flip {place}",
        )
    elif action.verb == "blow":
        line, direction = action.args
        yield from _each((f"blow the {line} {direction}", f"{line} {direction}"), f"blow {line} {direction}")
    elif action.verb == "retire":
        yield from _each(("retire", "i retire"), "retire", confirm=True)
    elif action.verb == "stay":
        yield from _each(("stay", "i stay"), "stay")
    elif action.verb == "read":
        number = action.args[0]
        yield from _each((f"read card {number_words(int(number))}",), f"read {number}", confirm=True)


def _dixit(action: Action, names: Names) -> Iterator[Phrase]:
    if action.verb == "storyteller":
        name = names(action.player or "")
        yield from _each((f"{name} is the storyteller", f"storyteller {name}"), str(action))
    elif action.verb == "clue":  # the only move then: whatever is said is the clue
        yield from _each(("the clue is",), "clue", dictation=f"clue {SLOT}")
    elif action.verb == "shown":
        yield from _each(("shown", "cards shown", "the cards are laid out"), "shown")
    elif action.verb == "vote":
        name, number = names(action.player or ""), number_words(int(action.args[0]))
        yield from _each((f"{name} voted {number}", f"{name} votes {number}", f"{name} voted for {number}"), str(action))
    elif action.verb == "card":
        number = number_words(int(action.args[0]))
        yield from _each(
            (f"the storyteller card is {number}", f"storyteller card {number}"), str(action), confirm=True
        )
    elif action.verb == "owner":
        number, name = number_words(int(action.args[0])), names(action.args[1])
        yield from _each((f"card {number} is {name}", f"card {number} belongs to {name}"), str(action))


def _stories(action: Action, names: Names) -> Iterator[Phrase]:
    name = names(action.player) if action.player else ""
    if action.verb == "side":
        side = action.args[0]
        yield from _each((f"{side} side", f"the {side} side", f"{name} chooses the {side} side"), str(action))
    elif action.verb in ("term", "erase"):
        doing = "writes" if action.verb == "term" else "erases"
        yield from _each(
            (f"{name} {doing} a term", f"{action.verb} {name}"), f"{action.verb} {action.player}",
            dictation=f"{action.verb} {action.player} {SLOT}",
        )
    elif action.verb in ("tick", "untick"):  # the label names a secret term: only the player is said
        doing = "ticks a term" if action.verb == "tick" else "removes a tick"
        yield from _each(
            (f"{name} {doing}",), f"{action.verb} {action.player}",
            dictation=f"{action.verb} {action.player} {SLOT}",
        )
    elif action.verb == "start":
        yield from _each(("start", "start the story"), "start")
    elif action.verb == "question":
        yield from _each((f"question {name}", f"{name} asks a question"), str(action))
    elif action.verb == "timeup":
        yield from _each(("time up", "time is up"), "timeup")
    elif action.verb == "confirm":
        yield from _each(("confirm", "confirm the ticks", "score the story"), "confirm", confirm=True)


PHRASE_MAKERS: dict[str, Callable[[Action, Names], Iterator[Phrase]]] = {
    "storytelling": _storytelling,
    "dixit": _dixit,
    "stories": _stories,
}


def nearest_term(state: GameState, line: str) -> str:
    """A dictated tick, untick or erase names the player's own written term nearest to the words
    heard (the host knows every sheet; nothing is said about the others)."""
    verb, player, *words = line.split()
    if state.game != "stories" or verb not in ("tick", "untick", "erase"):
        return line
    terms = [term["term"] for term in state.view(player)["sheets"][player]["terms"]]
    best = process.extractOne(" ".join(words), terms, scorer=fuzz.WRatio, score_cutoff=60)
    return line if best is None else f"{verb} {player} {best[0]}"
