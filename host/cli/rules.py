"""`storyhost rules GAME`: a game's rules and storyhost's rulings, in a language storyhost speaks.

The English text is the game's `rules.md`; a translation is `rules.LANGUAGE.md` beside it, with
the same sections. A translation names a command as `{cmd:vote NAME CARD}`: its words are read
from the message catalog when the rules are shown (the verb in context "verb", each word in
capitals in context "param"), so the rules name each command as the game takes it.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from games.language import p_
from games.registry import game_data, rules_text
from host.storage.catalogs import DEFAULT

COMMAND = re.compile(r"\{cmd:([^{}]+)\}")


def with_rules(games: Iterable[str]) -> list[str]:
    """The games that have rules to show, sorted."""
    return sorted(name for name in games if rules_text(name).is_file())


def rules_file(language: str) -> str:
    """The name of a game's rules file in `language`, in the game's data folder."""
    return "rules.md" if language == DEFAULT else f"rules.{language}.md"


def rules_in(game: str, language: str) -> str:
    """The rules of `game` in `language`, commands in the words of the active catalog."""
    text = (game_data(game) / rules_file(language)).read_text(encoding="utf-8")
    return COMMAND.sub(lambda found: command_words(found.group(1)), text)


def command_words(usage: str) -> str:
    """'vote NAME CARD' in the table's words ('votar NOMBRE CARTA'); a last word ending in three
    dots keeps them ('clue CLUE...')."""
    verb, *words = usage.split()
    return " ".join([p_("verb", verb), *(_param(word) if word.rstrip(".").isupper() else word for word in words)])


def _param(word: str) -> str:
    bare = word.rstrip(".")
    return p_("param", bare.lower()).upper() + word[len(bare):]
