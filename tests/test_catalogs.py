"""The message catalogs: every sentence marked for translation in the code has a translation in
every language storyhost offers, with the same placeholders, and no catalog keeps a message the
code no longer says. A missing translation is caught here, never at the table."""
from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from games.base import GameState
from games.registry import registered
from host.storage.catalogs import DEFAULT, catalog, check_language, languages, translations, UnknownLanguage

ROOT = Path(__file__).resolve().parents[1]
#: the marking functions of games.language, as Babel's keywords
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}

Key = tuple[str, str | None]  # (id, context)


def subclasses(kind: type[GameState]) -> list[type[GameState]]:
    return [kind, *(deeper for sub in kind.__subclasses__() for deeper in subclasses(sub))]


def words_of_commands() -> dict[Key, tuple[str, ...]]:
    """Each registered game's command words ("verb") and the words of their usage ("param"),
    which the code holds as ids, not as marked literals."""
    registered()  # imports every game module
    found: dict[Key, tuple[str, ...]] = {("name", "param"): ("name",)}
    for state in subclasses(GameState):
        for verb in getattr(state, "verbs", {}).values():
            found[(verb.name, "verb")] = (verb.name,)
            for param in verb.params:
                found[(param.removesuffix("..."), "param")] = (param.removesuffix("..."),)
    return found


def marked() -> dict[Key, tuple[str, ...]]:
    """Every marked message of the packages: (singular id, context) -> its ids (two for a plural)."""
    found: dict[Key, tuple[str, ...]] = words_of_commands()
    for package in ("games", "nlp", "models", "host"):
        for _file, _line, message, _comments, context in extract_from_dir(
                ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()):
            ids = (message,) if isinstance(message, str) else tuple(message)
            found[(ids[0], context)] = ids
    return found


def fields(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conversion in string.Formatter().parse(text) if name is not None}


def problems(messages: dict[Key, tuple[str, ...]], translated: Catalog) -> list[str]:
    """What is wrong with a language's catalog against the marked messages, one line each."""
    found = []
    for (msgid, context), ids in messages.items():
        entry = translated.get(msgid, context=context)
        where = f"{msgid!r}" + (f" (context {context!r})" if context else "")
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or not all(strings):
            found.append(f"no translation of {where}")
            continue
        if len(ids) != len(strings) and len(ids) == 1:
            found.append(f"{where} is one form but translated as plural forms")
        for text in strings:
            if fields(text) - fields(" ".join(ids)):
                found.append(f"{where}: the translation {text!r} has placeholders the message lacks")
            elif fields(ids[-1]) - fields(text) and len(strings) == 1:
                found.append(f"{where}: the translation {text!r} leaves out a placeholder")
    keys = set(messages)
    for entry in translated:
        if entry.id and ((entry.id[0] if isinstance(entry.id, tuple) else entry.id), entry.context) not in keys:
            found.append(f"{entry.id!r} is translated but no longer said")
    return found


MESSAGES = marked()


@pytest.mark.parametrize("language", [code for code in languages() if code != DEFAULT])
def test_every_marked_message_is_translated(language: str) -> None:
    assert problems(MESSAGES, catalog(language)) == []


def test_the_check_catches_a_missing_a_wrong_and_a_stale_translation() -> None:
    messages: dict[Key, tuple[str, ...]] = {("{name} votes.", None): ("{name} votes.",),
                                            ("{count} card", None): ("{count} card", "{count} cards"),
                                            ("vote", "verb"): ("vote",)}
    planted = Catalog(locale="es")
    planted.add("{name} votes.", "{nombre} vota.")
    planted.add(("{count} card", "{count} cards"), ("{count} carta", ""))
    planted.add("gone", "ido")
    assert problems(messages, planted) == [
        "'{name} votes.': the translation '{nombre} vota.' has placeholders the message lacks",
        "no translation of '{count} card'",
        "no translation of 'vote' (context 'verb')",
        "'gone' is translated but no longer said",
    ]


def test_marked_messages_are_found_in_the_engines() -> None:
    assert ("There is nothing to undo.", None) in MESSAGES
    assert MESSAGES[("{count} point", None)] == ("{count} point", "{count} points")


def test_a_language_storyhost_lacks_is_refused_in_one_line_listing_those_it_has() -> None:
    with pytest.raises(UnknownLanguage) as refused:
        check_language("fr")
    assert str(refused.value).startswith("storyhost does not speak 'fr'; it speaks en (English)")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("language", [code for code in languages() if code != DEFAULT])
def test_a_catalog_translates_with_its_languages_plural_forms(language: str) -> None:
    compiled = translations(language)
    assert compiled.ngettext("{count} point", "{count} points", 1) != compiled.ngettext("{count} point", "{count} points", 2)
