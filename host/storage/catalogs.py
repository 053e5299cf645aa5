"""The message catalogs: one per language, each the `.po` files of `host/locale/LANGUAGE/`
(one file per part of the program, so that parts are translated apart) read with Babel and
compiled in memory to a standard gettext catalog for `games.language.use`.

English is the messages' own text and has no catalog. A language is offered only when its
folder is there; `tests/test_catalogs.py` fails while any marked message lacks a translation.
"""
from __future__ import annotations

import gettext
import io
from functools import cache
from importlib.resources import files

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from games.base import join_names
from games.language import _

#: every language storyhost knows the name of, in its own words
NAMES = {"en": "English", "es": "español", "ca": "català", "de": "Deutsch"}
DEFAULT = "en"


class UnknownLanguage(ValueError):
    """A language storyhost has no catalog for; the text lists those it has."""


def languages() -> tuple[str, ...]:
    """The languages storyhost speaks: English and each with a catalog folder, in `NAMES` order."""
    folder = files("host") / "locale"
    present = {entry.name for entry in folder.iterdir() if entry.is_dir()}
    return tuple(code for code in NAMES if code == DEFAULT or code in present)


def check_language(code: str) -> str:
    """`code` if storyhost speaks it, else UnknownLanguage in one line listing those it does, in
    the active catalog's language."""
    offered = languages()
    if code in offered:
        return code
    raise UnknownLanguage(_("storyhost does not speak {code}; it speaks {languages}.").format(
        code=repr(code), languages=join_names([f"{known} ({NAMES[known]})" for known in offered])))


def catalog(code: str) -> Catalog:
    """Every `.po` file of the language, as one Babel catalog."""
    merged = Catalog(locale=code)
    for po in sorted((files("host") / "locale" / code).iterdir(), key=lambda entry: entry.name):
        if not po.name.endswith(".po"):
            continue
        with po.open("rb") as file:
            part = read_po(file, locale=code)
        merged.mime_headers = part.mime_headers  # its Plural-Forms: Babel's own rule for 'es' has 3 forms, the files 2
        for message in part:
            if message.id:
                merged[message.id] = message  # keyed by id and context
    return merged


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The gettext catalog of a language storyhost speaks (English: the messages as written)."""
    if check_language(code) == DEFAULT:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, catalog(code))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
