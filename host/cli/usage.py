"""The command line's one usage-error type, and the argparse parser that raises it."""
from __future__ import annotations

import argparse
from typing import NoReturn


class UsageError(Exception):
    """A problem with what was asked for: printed on stderr, exit status 2; one line, or one for
    each of several problems given apart (a deck file's, each naming the file)."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(str(problem) for problem in self.args)


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (a UsageError), not usage and message;
    `error_format` shapes that line from the parser's `{message}`."""

    error_format = "{message}"

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.error_format.format(message=message))
