"""The command line's one usage-error type, and the argparse parser that raises it."""
from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from games.language import N_, _, n_
from host.session.screen import visible
from host.storage.catalogs import check_language
from host.storage.preferences import load as load_preferences


class UsageError(Exception):
    """A problem with what was asked for: printed on stderr, exit status 2; one line, or one for
    each of several problems given apart (a deck file's, each naming the file)."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(str(problem) for problem in self.args)


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (a UsageError), not usage and message;
    `error_format` (a message marked for the catalog) shapes that line from the parser's
    `{message}`, in the table's language."""

    error_format = "{message}"

    def error(self, message: str) -> NoReturn:
        raise UsageError(_(self.error_format).format(message=message))


#: what argparse itself says, of a wrong command line (a missing --players, an unknown option)
#: and in --help: it passes each through gettext's `_` as it says it, so these are marked for
#: the catalog
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)


def chosen_language(given: str | None) -> str:
    """A command's --language: `given`, checked (UnknownLanguage when storyhost lacks it), else
    the language of the last game, English before any (said why on stderr when the preferences
    cannot be read)."""
    if given is not None:
        return check_language(given)
    preferences, trouble = load_preferences()
    if trouble:
        print(visible(trouble), file=sys.stderr)
    return preferences.language


def speak_argparse() -> None:
    """argparse's own words (errors, --help's headings) in the table's language: its `_` and
    `ngettext` become the catalog's. A parser's help texts are the catalog's when the parser is
    built while the table's language is in force."""
    setattr(argparse, "_", _)
    setattr(argparse, "ngettext", n_)
