"""WordNet 3.0 read straight from its database files (Debian package `wordnet-base`).

Only what the term rules need: which parts of speech a lemma has, the multi-word entries
(collocations such as "polar_bear", "ice-cold"), the irregular forms of the exception lists,
synset offsets (to recognise spelling variants such as colour/color) and the sense frequencies
of the tagged SemCor corpus (to tell a word mostly used as an adverb). Files are read whole and
searched with regular expressions, which keeps loading to a fraction of a second.
"""

from __future__ import annotations

import bisect
import os
import re
from pathlib import Path

from nlp.caching import cache_methods

POS = ("noun", "verb", "adj", "adv")
_SS_TYPE_POS = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}
WORDNET_FILES = tuple(f"index.{pos}" for pos in POS) + tuple(f"{pos}.exc" for pos in POS) + ("cntlist.rev",)


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
        self._counts = (folder / "cntlist.rev").read_text(encoding="latin-1")
        cache_methods(self, ("synsets", "tagged_counts"), 16384)

    def parts_of_speech(self, lemma: str) -> frozenset[str]:
        return frozenset(pos for pos in POS if lemma in self.lemmas[pos])

    def has_prefix(self, prefix: str, pos: str) -> bool:
        """Whether some lemma of `pos` starts with `prefix` (the index files are sorted)."""
        lemmas = self._sorted[pos]
        i = bisect.bisect_left(lemmas, prefix)
        return i < len(lemmas) and lemmas[i].startswith(prefix)

    def synsets(self, lemma: str, pos: str) -> frozenset[str]:
        """Offsets of the synsets holding `lemma` in `pos` (empty when WordNet lacks it)."""
        if lemma not in self.lemmas[pos]:
            return frozenset()
        fields = self._lines[pos][bisect.bisect_left(self._sorted[pos], lemma)].split()
        # lemma pos synset_cnt p_cnt ptr_symbol{p_cnt} sense_cnt tagsense_cnt offset{synset_cnt}
        return frozenset(fields[-int(fields[2]) :])

    def tagged_counts(self, lemma: str) -> dict[str, int]:
        """How often `lemma` was tagged in SemCor with a sense of each part of speech."""
        counts = dict.fromkeys(POS, 0)
        for ss_type, count in re.findall(rf"^{re.escape(lemma)}%(\d):\S* \d+ (\d+)$", self._counts, re.MULTILINE):
            counts[_SS_TYPE_POS[ss_type]] += int(count)
        return counts
