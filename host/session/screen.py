"""What may reach a terminal: text with every control character shown as visible text.

Clues, terms, names and deck text come from players and files; an escape sequence among them
would clear the screen, hide text or retitle the window, and a screen reader would read noise.
Every printed line goes through `visible`.
"""
from __future__ import annotations

import re

#: C0 controls (but tab), DEL, C1 controls, lone surrogates (undecodable bytes) and the
#: bidirectional overrides that reorder what is shown
_HIDDEN = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code < 0x20 or code == 0x7F:
        return "^" + chr(code ^ 0x40)  # caret notation, as terminals echo them: ESC is ^[
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with control characters as visible text: ESC as ^[, NUL as ^@, C1 and bidi
    controls as \\u escapes."""
    return _HIDDEN.sub(_shown, text)


def shortened(text: str, limit: int = 200) -> str:
    """`text` cut to `limit` characters with an ellipsis, for echoing what was typed."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
