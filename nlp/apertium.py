"""Spanish words as Apertium's analyser and tagger read them (Debian packages apertium-spa-cat,
whose transitional name is apertium-es-ca, and apertium-eng-spa).

Apertium's Spanish morphological analyser gives every reading of a word with its lemma and tags,
splits enclitic pronouns off verbs ("dámelo": dar + me + lo) and knows multiword units ("fin de
semana", "arco iris"); its tagger, trained on a Spanish corpus, puts the reading a word has in its
sentence first ("el vino tinto": the wine; "él vino ayer": venir). The bilingual dictionary of
apertium-eng-spa gives a Spanish lemma's English words, which nlp.spanish uses to ask WordNet
whether two words are a compound.

The programs run as long-lived processes in null-flush mode (`-z`): each text sent ends with a
NUL, and its analysis comes back ending with one, so a word costs a pipe round trip, not a start.
No Python binding of lttoolbox is on PyPI; PyPI's `apertium` package fetches language data from
the network at run time, which a party laptop has not.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

APERTIUM = Path(os.environ.get("STORYHOST_APERTIUM", "/usr/share/apertium"))
SPANISH_CATALAN = APERTIUM / "apertium-spa-cat"
SPANISH_ENGLISH = APERTIUM / "apertium-eng-spa"
ANALYSER = SPANISH_CATALAN / "spa-cat.automorf.bin"
TAGGER = SPANISH_CATALAN / "spa-cat.prob"
BILINGUAL = SPANISH_ENGLISH / "spa-eng.autobil.bin"
PROGRAMS = ("lt-proc", "apertium-tagger")
_UNIT = re.compile(r"\^(.*?)\$")
_TAGS = re.compile(r"<([^>]+)>")
# what may be sent: letters and spaces (Apertium's stream format gives ^ $ / < > @ # + meanings)
_NOT_A_LETTER = re.compile(r"[^\w\s]|[\d_]")


@dataclass(frozen=True)
class Reading:
    """One analysis of a unit: its lemma (a multiword's whole lemma, "fin de semana"), the
    head's tags (part of speech first: n, np, adj, vblex, vbser, adv, prn, det, pr...) and the
    lemmas of the parts attached to it (enclitic pronouns, the article of "del")."""

    lemma: str
    tags: tuple[str, ...]
    attached: tuple[str, ...] = ()

    @property
    def pos(self) -> str:
        return self.tags[0] if self.tags else ""

    @property
    def multiword(self) -> bool:
        return " " in self.lemma


@dataclass(frozen=True)
class Unit:
    """A word, or a multiword unit, as analysed: its text and its readings, the one the tagger
    chose first. An unknown word has no readings."""

    surface: str
    readings: tuple[Reading, ...]

    @property
    def words(self) -> int:
        return len(self.surface.split())

    @property
    def known(self) -> bool:
        return bool(self.readings)


def parse_reading(text: str) -> Reading:
    """'fin<n><m><pl># de semana' -> Reading('fin de semana', ('n', 'm', 'pl'));
    'dar<vblex><imp><p2><sg>+me<prn><enc>...' -> Reading('dar', (...), ('me', ...))."""
    head, *attached = text.split("+")
    tail = ""
    if "#" in head:
        head, tail = head.split("#", 1)
    lemma = head.split("<", 1)[0] + tail
    return Reading(lemma, tuple(_TAGS.findall(head)), tuple(part.split("<", 1)[0] for part in attached))


def parse_stream(text: str) -> tuple[Unit, ...]:
    units = []
    for match in _UNIT.finditer(text):
        surface, *readings = match.group(1).split("/")
        known = tuple(parse_reading(r) for r in readings if not r.startswith(("*", "@", "#")))
        units.append(Unit(surface, known))
    return tuple(units)


def missing() -> list[str]:
    """What of Apertium is not installed: programs and data files."""
    found = [program for program in PROGRAMS if shutil.which(program) is None]
    return found + [str(path) for path in (ANALYSER, TAGGER, BILINGUAL) if not path.is_file()]


class _NullFlushed:
    """A pipeline of Apertium programs in null-flush mode, one request at a time."""

    def __init__(self, commands: list[list[str]]) -> None:
        self._processes: list[subprocess.Popen[bytes]] = []
        source = subprocess.PIPE
        for command in commands:
            process = subprocess.Popen(command, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if self._processes and self._processes[-1].stdout is not None:
                self._processes[-1].stdout.close()  # the next program owns it now
            source = process.stdout  # type: ignore[assignment]
            self._processes.append(process)
        self._lock = threading.Lock()

    def ask(self, text: str) -> str:
        first, last = self._processes[0], self._processes[-1]
        assert first.stdin is not None and last.stdout is not None
        with self._lock:
            first.stdin.write(text.encode("utf-8") + b"\0")
            first.stdin.flush()
            answer = b""
            while not answer.endswith(b"\0"):
                chunk = os.read(last.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError(f"Apertium stopped: {self._processes[-1].args!r}")
                answer += chunk
        return answer.rstrip(b"\0").decode("utf-8")


class SpanishAnalyser:
    """The tagged analysis of Spanish text and the English words of Spanish lemmas."""

    def __init__(self) -> None:
        self._tagged = _NullFlushed(
            [["lt-proc", "-z", "-w", str(ANALYSER)], ["apertium-tagger", "-z", "-g", "-f", str(TAGGER)]]
        )
        self._bilingual = _NullFlushed([["lt-proc", "-z", "-b", str(BILINGUAL)]])

    def analyse(self, text: str) -> tuple[Unit, ...]:
        """The units of a text of words (anything but letters is dropped first)."""
        clean = " ".join(_NOT_A_LETTER.sub(" ", text).split())
        if not clean:
            return ()
        # a full stop ends the sentence: the tagger holds an ambiguous last word until it sees what follows
        return tuple(unit for unit in parse_stream(self._tagged.ask(clean + " .")) if unit.surface != ".")

    def english(self, reading: Reading) -> tuple[str, ...]:
        """The English lemmas the bilingual dictionary gives a Spanish reading (none if unknown)."""
        if not reading.tags or not re.fullmatch(r"[\w ]+", reading.lemma):
            return ()
        tags = "".join(f"<{tag}>" for tag in reading.tags)
        answer = self._bilingual.ask(f"^{reading.lemma}{tags}$ ")  # it reads one character past a unit
        match = _UNIT.search(answer)
        if not match:
            return ()
        found = (part.split("<", 1)[0].lower() for part in match.group(1).split("/")[1:])
        return tuple(dict.fromkeys(word for word in found if word and not word.startswith("@")))
