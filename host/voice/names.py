"""How players' names are said to the recognizer, checked when a voice game is set up.

A closed grammar can only contain words the recognizer's dictionary has. A name without
accents that it knows ("Julián" -> "julian") is used as is; for a name it does not know the
players choose a word it does know (`--call NAME=WORD`), and without one the host picks the
word of the CMU dictionary spelled most like the name that the recognizer knows, and says so
before the game starts.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from rapidfuzz import fuzz, process

from games.base import IllegalAction, SetupError, check_player_name, find_player, quoted
from games.language import _
from host.speech.recognizer import Recognizer
from host.voice.phrases import Names
from nlp.commands import fold
from nlp.soundalike import load_pronunciations


class CallError(ValueError):
    """A --call choice the recognizer cannot use; the message says what to change."""


def parse_calls(calls: Sequence[str], players: Sequence[str]) -> dict[str, str]:
    """--call NAME=WORD choices, by seated player."""
    chosen: dict[str, str] = {}
    for call in calls:
        name, _equals, word = call.partition("=")
        try:
            word = check_player_name(word)  # a word to be called by is checked as a name is
            player: str | None = find_player(name, players)  # any case, with or without accents
        except (SetupError, IllegalAction):
            player = None
        if not word or player is None:
            raise CallError(
                _("{call} should be a player's name, '=', and the word to call them by (one word), "
                  "for example --call {player}=Anna.").format(call=quoted('--call ' + call), player=players[0])
            )
        chosen[player] = word
    return chosen


def spoken_names(
    players: Sequence[str], recognizer: Recognizer, calls: dict[str, str], tell: Callable[[str], None]
) -> Names:
    """The word each player is called by; every name the recognizer cannot know is reported
    through `tell` with the word used instead."""
    chosen: dict[str, str] = {}
    for player in players:
        if player in calls:
            word = fold(calls[player])
            if not recognizer.knows(word):
                raise CallError(
                    _("The speech recognizer does not know the word '{word}' either: "
                      "choose another for {player}, such as '{suggestion}'.").format(
                        word=calls[player], player=player, suggestion=suggestion(word, recognizer))
                )
        else:
            word = fold(player)
            if not recognizer.knows(word):
                spoken = suggestion(word, recognizer)
                tell(
                    _("The speech recognizer does not know the name {player}: by voice, call {player} "
                      "'{word}' (or choose another word with --call {player}=WORD).").format(player=player, word=spoken)
                )
                word = spoken
        chosen[player] = word
    taken: dict[str, str] = {}
    for player, word in chosen.items():
        if word in taken:
            raise CallError(
                _("{first} and {player} would both be called '{word}' by voice: "
                  "give one of them another word with --call {player}=WORD.").format(
                    first=taken[word], player=player, word=word)
            )
        taken[word] = player
    return Names(chosen)


def suggestion(word: str, recognizer: Recognizer) -> str:
    """The word of the CMU dictionary spelled most like `word`, starting with the same letter,
    that the recognizer knows."""
    words = [known for known in load_pronunciations() if known[:1] == word[:1] and known.isalpha()]
    for best, _score, _index in process.extract(word, words, scorer=fuzz.ratio, limit=20):
        if recognizer.knows(best):
            return best
    return "player"
