"""The command line's one usage-error type, and the argparse parser that raises it."""
from __future__ import annotations

import argparse
from typing import NoReturn


class UsageError(Exception):
    """A problem with what was asked for: printed as one line on stderr, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (a UsageError), not usage and message;
    `error_format` shapes that line from the parser's `{message}`."""

    error_format = "{message}"

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.error_format.format(message=message))
