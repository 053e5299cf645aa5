"""WordNet 3.0 read straight from its database files (Debian package `wordnet-base`).

Only what the term rules need: which parts of speech a lemma has, the multi-word entries
(collocations such as "polar_bear", "ice-cold"), the irregular forms of the exception lists,
synset offsets (to recognise spelling variants such as colour/color), the sense frequencies
of the tagged SemCor corpus (to tell a word mostly used as an adverb), and for a few synsets
their hypernyms and pertainyms (to tell a compound from a free adjective+noun phrase). The
index files are read whole and searched with regular expressions, which keeps loading to a
fraction of a second; a synset of the data files is read only when asked for, at its offset.
"""

from __future__ import annotations

import bisect
import mmap
import os
import re
from pathlib import Path

from nlp.caching import cache_methods

POS = ("noun", "verb", "adj", "adv")
_SS_TYPE_POS = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}
DATA_POS = ("noun", "adj")  # the data files read: synsets of nouns and adjectives
WORDNET_FILES = (
    tuple(f"index.{pos}" for pos in POS)
    + tuple(f"{pos}.exc" for pos in POS)
    + ("cntlist.rev",)
    + tuple(f"data.{pos}" for pos in DATA_POS)
)
HYPERNYM_POINTERS = ("@", "@i")  # hypernym, instance hypernym
_PERTAINYM_POINTER = "\\"
MEMBER_OF = "#m"  # member holonym: a species is a member of its genus


def wordnet_folder() -> Path | None:
    """The folder holding the WordNet database: $STORYHOST_WORDNET, else Debian's location."""
    for folder in (os.environ.get("STORYHOST_WORDNET"), "/usr/share/wordnet"):
        if folder and all((Path(folder) / name).is_file() for name in WORDNET_FILES):
            return Path(folder)
    return None


def _entry_lines(text: str) -> list[str]:
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if not line.startswith(" "))
    return lines[header:]


class WordNet:
    """Lemmas are looked up in WordNet's own spelling: lowercase, words joined by "_"."""

    def __init__(self, folder: Path) -> None:
        index = {pos: (folder / f"index.{pos}").read_text(encoding="latin-1") for pos in POS}
        # the lemmas in file order (sorted), and the lines they begin (after the licence header)
        self._sorted = {pos: re.findall(r"^([^ \n]+) ", text, re.MULTILINE) for pos, text in index.items()}
        self._lines = {pos: _entry_lines(text) for pos, text in index.items()}
        self.lemmas: dict[str, frozenset[str]] = {pos: frozenset(lemmas) for pos, lemmas in self._sorted.items()}
        self.exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
        for pos in POS:
            table: dict[str, tuple[str, ...]] = {}
            for line in (folder / f"{pos}.exc").read_text(encoding="latin-1").splitlines():
                form, *bases = line.split()
                table[form] = tuple(bases)
            self.exceptions[pos] = table
        self._counts = (folder / "cntlist.rev").read_text(encoding="latin-1").splitlines()  # sorted by sense key
        self._data = {pos: _map(folder / f"data.{pos}") for pos in DATA_POS}
        cache_methods(self, ("synsets", "senses", "tagged_counts", "synset", "gloss", "hypernyms", "relational"), 16384)

    def parts_of_speech(self, lemma: str) -> frozenset[str]:
        return frozenset(pos for pos in POS if lemma in self.lemmas[pos])

    def has_prefix(self, prefix: str, pos: str) -> bool:
        """Whether some lemma of `pos` starts with `prefix` (the index files are sorted)."""
        lemmas = self._sorted[pos]
        i = bisect.bisect_left(lemmas, prefix)
        return i < len(lemmas) and lemmas[i].startswith(prefix)

    def synsets(self, lemma: str, pos: str) -> frozenset[str]:
        """Offsets of the synsets holding `lemma` in `pos` (empty when WordNet lacks it)."""
        return frozenset(self.senses(lemma, pos))

    def senses(self, lemma: str, pos: str, everyday: bool = False) -> tuple[str, ...]:
        """Offsets of the synsets holding `lemma`, most frequent sense first; `everyday`: only the
        senses SemCor's tagged texts use (at least the first), so "dog" the sausage is left out."""
        if lemma not in self.lemmas[pos]:
            return ()
        fields = self._lines[pos][bisect.bisect_left(self._sorted[pos], lemma)].split()
        # lemma pos synset_cnt p_cnt ptr_symbol{p_cnt} sense_cnt tagsense_cnt offset{synset_cnt}
        offsets = tuple(fields[-int(fields[2]) :])
        return offsets[: max(1, int(fields[5 + int(fields[3])]))] if everyday else offsets

    def synset(self, offset: str, pos: str) -> tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]:
        """The words of a noun or adjective synset as written (capitals, markers such as "(a)" cut)
        and its pointers as (symbol, target offset, source/target word numbers)."""
        data = self._data[pos]
        start = int(offset)
        fields = data[start : data.find(b"\n", start)].decode("latin-1").split(" | ")[0].split()
        # offset lex_filenum ss_type w_cnt (word lex_id){w_cnt} p_cnt (symbol offset pos source/target){p_cnt}
        count = int(fields[3], 16)
        words = tuple(re.sub(r"\(\w+\)$", "", word) for word in fields[4 : 4 + 2 * count : 2])
        at = 4 + 2 * count
        pointers = fields[at + 1 : at + 1 + 4 * int(fields[at])]
        return words, tuple((pointers[i], pointers[i + 1], pointers[i + 3]) for i in range(0, len(pointers), 4))

    def gloss(self, offset: str, pos: str) -> str:
        """The definition of a noun or adjective synset, without its examples."""
        data = self._data[pos]
        start = int(offset)
        return data[start : data.find(b"\n", start)].decode("latin-1").split(" | ", 1)[1].split(";")[0].strip()

    def hypernyms(self, offset: str, levels: int) -> frozenset[str]:
        """Noun synsets up to `levels` above a noun synset (hypernyms and instance hypernyms)."""
        found: set[str] = set()
        frontier = {offset}
        for _ in range(levels):
            frontier = {
                target
                for synset in frontier
                for symbol, target, _ in self.synset(synset, "noun")[1]
                if symbol in HYPERNYM_POINTERS
            } - found
            found |= frontier
        return frozenset(found)

    def relational(self, adjective: str) -> bool:
        """Whether some sense of the adjective pertains to a noun ("polar": of the poles)."""
        for offset in self.senses(adjective, "adj"):
            words, pointers = self.synset(offset, "adj")
            number = next((i for i, word in enumerate(words, 1) if word.lower() == adjective), 0)
            if any(s == _PERTAINYM_POINTER and int(st[:2], 16) in (0, number) for s, _, st in pointers):
                return True
        return False

    def tagged_counts(self, lemma: str) -> dict[str, int]:
        """How often `lemma` was tagged in SemCor with a sense of each part of speech."""
        counts = dict.fromkeys(POS, 0)
        for line in starting(self._counts, f"{lemma}%"):
            key, _, count = line.split()
            counts[_SS_TYPE_POS[key[len(lemma) + 1]]] += int(count)
        return counts


def starting(lines: list[str], prefix: str) -> list[str]:
    """The lines of a sorted list that start with `prefix`."""
    i = j = bisect.bisect_left(lines, prefix)
    while j < len(lines) and lines[j].startswith(prefix):
        j += 1
    return lines[i:j]


def _map(path: Path) -> mmap.mmap:
    """A data file mapped read-only: its pages are read only when a synset is looked up."""
    with path.open("rb") as file:
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
