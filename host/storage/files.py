"""Reading a file a player names (a deck, a script, a terms file, a transcript, preferences)
without trusting it: a regular file only (a FIFO would hang, /dev/zero would never end), a size
cap checked before reading, and JSON whose nesting or numbers cannot crash the parser. Every
refusal is one line that names the file."""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.language import N_, _

#: the largest JSON file read (a deck of a thousand cards is well under 1 MB)
MAX_JSON_BYTES = 4 << 20
#: what Python's json parser says is wrong (the start of its `msg`, CPython's json.decoder and
#: _json scanner; some add the character after it) -> the same in the table's language
JSON_ERRORS = {
    "Expecting value": N_("expected a value: text in double quotes, a number, true, false, null, a list or an object "
                          "(a list cannot end with a comma)"),
    "Expecting ',' delimiter": N_("a comma is missing"),
    "Expecting ':' delimiter": N_("a colon is missing after a field's name"),
    "Expecting property name enclosed in double quotes": N_("expected a field's name in double quotes (an object "
                                                            "cannot end with a comma)"),
    "Unterminated string starting at": N_("a text starts here with a double quote that nothing closes"),
    "Invalid control character": N_("a text holds a control character such as a line break or a tab; write them "
                                    "as \\n and \\t"),
    "Invalid \\uXXXX escape": N_("a \\u in a text needs four hexadecimal digits after it"),
    "Invalid \\escape": N_("a backslash in a text starts no escape JSON knows; write \\\\ for a backslash"),
    "Extra data": N_("there is more after the end of the JSON"),
    "Illegal trailing comma before end of object": N_("an object cannot end with a comma"),
    "Illegal trailing comma before end of array": N_("a list cannot end with a comma"),
}


class FileRefused(ValueError):
    """A file that cannot be used: `problem` says why, and the message puts the file first."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path, self.problem = path, problem
        super().__init__(f"{path}: {problem}")


def read_head(path: Path, count: int) -> tuple[bytes, int]:
    """The first `count` bytes of the regular file `path`, and its size in bytes (so that a file
    too large to use is refused without reading it whole)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, and is refused
    except OSError as error:
        raise FileRefused(path, _("cannot read the file: {reason}").format(reason=error.strerror or error)) from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise FileRefused(path, _("this is not a regular file (a folder, a device or a pipe)"))
    with os.fdopen(descriptor, "rb") as file:
        try:
            return file.read(count), status.st_size
        except OSError as error:
            raise FileRefused(path, _("cannot read the file: {reason}").format(reason=error.strerror or error)) from None


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them."""
    data, _size = read_head(path, limit + 1)  # counted as read: the file may grow after fstat
    if len(data) > limit:
        raise FileRefused(path, _("the file is larger than {size} KiB, too large to be right").format(size=limit // 1024))
    return data


def read_text(path: Path, limit: int = MAX_JSON_BYTES) -> str:
    """The UTF-8 text of a file (a byte order mark dropped), capped as `read_capped`."""
    try:
        return read_capped(path, limit).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused(path, _("the file is not UTF-8 text")) from None


def parse_json(text: str, path: Path | str,
               object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """JSON from `text`; FileRefused for broken JSON, nesting too deep for the parser, or a
    number too long to convert."""
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as error:
        problem = _("line {line}, column {column}: this is not valid JSON ({detail})").format(
            line=error.lineno, column=error.colno, detail=json_error(error.msg))
        raise FileRefused(path, problem) from None
    except RecursionError:
        raise FileRefused(path, _("the JSON is nested too deeply to be read")) from None
    except ValueError:  # an integer of thousands of digits
        raise FileRefused(path, _("the JSON holds a number too long to be read")) from None


def json_error(detail: str) -> str:
    """Python's json error `detail` in the table's language (English for one it does not list)."""
    for english, told in JSON_ERRORS.items():
        if detail.startswith(english):
            return _(told)
    return detail


def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> Any:
    return parse_json(read_text(path, limit), path)
