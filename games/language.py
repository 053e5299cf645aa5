"""The words a player reads or hears, in the table's language.

Every player-facing sentence is marked where it is written: `_("...")` for a sentence, `n_()`
when it depends on a count (each language has its own plural forms), `p_()` for a short word
whose sense needs a context (a command verb, "yes"), `N_()` for a constant translated where it
is used. The English text is the message's id. The host chooses the language once per run with
`use` (catalogs are its data: `host/locale`); tests switch with `speaking`. Standard-library
gettext only, so engines know nothing of where the catalogs come from.
"""
from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager

_active: gettext.NullTranslations = gettext.NullTranslations()


def use(translations: gettext.NullTranslations) -> None:
    """From now on every marked sentence is said in this catalog's language."""
    global _active
    _active = translations


@contextmanager
def speaking(translations: gettext.NullTranslations) -> Iterator[None]:
    """This catalog's language inside the block, the previous one after it."""
    before = _active
    use(translations)
    try:
        yield
    finally:
        use(before)


def spoken_language() -> str:
    """The active catalog's language code, for what is said by a locale's own rules (a
    number's decimal sign); English, the messages' own language, has no catalog."""
    return str(_active.info().get("language", "en"))


def _(message: str) -> str:
    return _active.gettext(message)


def n_(singular: str, plural: str, count: int) -> str:
    """The form for `count` ("{count} card" / "{count} cards"); format it with the count."""
    return _active.ngettext(singular, plural, count)


def p_(context: str, message: str) -> str:
    """A short word in its context: p_("verb", "vote"), p_("answer", "yes")."""
    return _active.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for the catalog; `_(constant)` translates it where it is used."""
    return message
