"""Numbers written with digits, said in words: Whisper writes "We waited 20 minutes.", "100
people", "$4", "the 10th" where the storyteller said "twenty", "a hundred", "four dollars",
"tenth", and a player may type a story so. The term rules read words, so the digits are spelled
out as they are said (num2words) before a tracker reads them: "twenty" ticks from "20". Digits
a pattern here does not read ("1990s", "B2") stay as they are, which no term matches. Cards are
read in English, Spanish, Catalan and German (nlp.cards): each language's numbers are said here.
"""
from __future__ import annotations

import re
from functools import lru_cache

from num2words import num2words

#: currency signs before an amount (or after it: "3,50 €"): the unit's singular and plural
_CURRENCIES = {
    "en": {"$": ("dollar", "dollars"), "£": ("pound", "pounds"), "€": ("euro", "euros")},
    "es": {"$": ("dólar", "dólares"), "£": ("libra", "libras"), "€": ("euro", "euros")},
    "ca": {"$": ("dòlar", "dòlars"), "£": ("lliura", "lliures"), "€": ("euro", "euros")},
    "de": {"$": ("Dollar", "Dollar"), "£": ("Pfund", "Pfund"), "€": ("Euro", "Euro")},
}
_PERCENT = {"en": "percent", "es": "por ciento", "ca": "per cent", "de": "Prozent"}
MAX_DIGITS = 18  # characters of a number read (a billion billions); longer ones stay as written
_O_CLOCK = {"en": " o'clock", "es": "", "ca": "", "de": " Uhr"}
DIGIT = re.compile(r"\d", re.ASCII)  # a digit this module reads
_CLOCK = re.compile(r"(?<![\w.,:])(\d{1,2}):(\d{2})(?![\w:])", re.ASCII)
#: (thousands, decimal) separators of each language: "1,000.5" in English, "1.000,5" in Spanish
_SEPARATORS = {"en": (",", "."), "es": (".", ","), "ca": (".", ","), "de": (".", ",")}
#: how each language marks an ordinal written in digits ("1st", "1º", "4t"; German's "4." reads
#: as a sentence's end: a cardinal)
_ORDINALS = {"en": "st|nd|rd|th", "es": "º|ª", "ca": "º|ª|r|n|t|è|a", "de": "(?!)"}
_NUMBERS = {
    language: re.compile(
        rf"(?<![\w.,])(?P<currency>[$£€])?(?P<whole>\d{{1,3}}(?:{re.escape(thousands)}\d{{3}})+|\d+)"
        rf"(?:{re.escape(decimal)}(?P<fraction>\d+))?(?P<suffix>{_ORDINALS[language]}|\s?[%$£€])?(?![\w]|[.,]\d)",
        re.IGNORECASE | re.ASCII,
    )
    for language, (thousands, decimal) in _SEPARATORS.items()
}
_FRACTION_ALONE = re.compile(r"(?<![\w])[.,](\d{1,2})(?![\w])", re.ASCII)  # ".00" after "$4", as Whisper splits "$4.00"


def said(text: str, language: str) -> str:
    """The text with its numbers in words ("at 6." -> "at six.", "$4" -> "four dollars")."""
    if not DIGIT.search(text):
        return text
    return _said(text, language)


@lru_cache(maxsize=4096)
def _said(text: str, language: str) -> str:
    text = _CLOCK.sub(lambda m: _clock(int(m[1]), int(m[2]), language), text)
    text = _NUMBERS[language].sub(lambda m: _number(m, language), text)
    return _FRACTION_ALONE.sub(lambda m: "" if not int(m[1]) else _words(int(m[1]), language), text)


def _number(match: re.Match[str], language: str) -> str:
    if len(match[0]) > MAX_DIGITS:
        return match[0]  # no number anyone says (and num2words overflows): as written
    thousands = _SEPARATORS[language][0]
    whole, fraction, suffix = int(match["whole"].replace(thousands, "")), match["fraction"], (match["suffix"] or "").lower().strip()
    currency = match["currency"] or (suffix if suffix in _CURRENCIES[language] else None)
    if currency:
        singular, plural = _CURRENCIES[language][currency]
        cents = f" {_words(int(fraction), language)}" if fraction and int(fraction) else ""
        spoken = f"{_words(whole, language)} {singular if whole == 1 else plural}{cents}"
    elif suffix not in ("", "%"):  # an ordinal: 1st, 1º
        return _words(whole, language, "ordinal")
    elif fraction is not None:
        spoken = _words(float(f"{whole}.{fraction}"), language)
    elif language == "en" and thousands not in match["whole"] and (1100 <= whole <= 1999 or 2010 <= whole <= 2099):
        spoken = _words(whole, language, "year")  # "in 1999": nineteen ninety-nine
    else:
        spoken = _words(whole, language)
    return f"{spoken} {_PERCENT[language]}" if suffix == "%" else spoken


def _clock(hours: int, minutes: int, language: str) -> str:
    if hours > 24 or minutes > 59:
        return f"{_words(hours, language)} {_words(minutes, language)}"
    if minutes == 0:
        return f"{_words(hours, language)}{_O_CLOCK[language]}"
    return f"{_words(hours, language)} {'oh ' if language == 'en' and minutes < 10 else ''}{_words(minutes, language)}"


def _words(n: float, language: str, to: str = "cardinal") -> str:
    """The number in words, as an ordinal or a year (`to`) where num2words can say it so, else
    as a cardinal: it fails on Catalan ordinals of round tens ("30è") and on some Spanish ones of
    15 digits ("999999999999999º")."""
    try:
        return str(num2words(n, lang=language, to=to)).replace(",", "")
    except (LookupError, RecursionError):
        if to == "cardinal":
            raise
        return _words(n, language)
