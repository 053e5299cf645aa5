"""Benchmark: the silence a recognizer's word times show between two words, inside a sentence
and across a sentence or clause boundary, in real synthesized speech. It tunes nlp.ticks.PAUSE,
the gap above which two words never make one compound.

    .venv/bin/python tests/benchmarks/bench_pauses.py [--asr pocketsphinx|vosk]

Each story is spoken by festival (slt) and espeak-ng (en-us) as one stretch of speech, the
voice making its own pauses at the punctuation; the recognized words are aligned with the text,
and each gap is labelled by whether the text has punctuation there. Prints the gaps' spread and,
for PAUSE, how many boundaries it closes of each kind. Most full stops end the recognizer's
utterance, so few gaps at a full stop remain inside one; PocketSphinx hears espeak-ng's voice
too poorly to align much. Figures hold for these voices only.
"""

from __future__ import annotations

import argparse
import difflib
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.speech.registry import open_recognizer  # noqa: E402
from nlp.ticks import PAUSE  # noqa: E402
from tests.speech.audio import read_pcm, stream, synthesize  # noqa: E402

STORIES = [
    "We drove to the barn. Children screamed in the yard, and the motor sled stood by the fence.",
    "He rode on his sled yesterday. He fell into the snow, and his brother laughed at the polar bear.",
    "The knight climbed the tower. Dragons circled above the castle gate and the village baker ran home.",
    "She opened the window. Light flooded into the kitchen where the fire truck toy lay on the table.",
    "The pirate buried the treasure; sailors sang on the ship while parrots screamed at the ocean waves.",
    "My grandmother baked bread. The neighbours came over with apple pie and a birthday cake for the party.",
]
VOICES = ("slt", "espeak:en-us")


def labelled_gaps(text: str, words: list) -> list[tuple[str, float]]:
    """(the punctuation in the text between the two words, "" for none; gap in seconds) for each
    pair of consecutive recognized words that match consecutive words of the text."""
    source = re.findall(r"[a-z']+[.,;:!?]?", text.lower())
    plain = [w.rstrip(".,;:!?") for w in source]
    heard = [re.sub(r"\(\d+\)$", "", w.text.lower()) for w in words]
    out = []
    matcher = difflib.SequenceMatcher(a=plain, b=heard, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for i in range(size - 1):
            first, second = words[b + i], words[b + i + 1]
            if first.end is not None and second.start is not None:
                mark = source[a + i][-1]
                out.append((mark if mark in ".,;:!?" else "", second.start - first.end))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--asr", default=None)
    args = parser.parse_args()
    gaps: dict[str, list[float]] = {"": [], ",": [], ".": []}
    with tempfile.TemporaryDirectory() as folder:
        for voice in VOICES:
            for story in STORIES:
                recognizer = open_recognizer(args.asr)
                pcm = read_pcm(synthesize(story, Path(folder), voice=voice))
                words = [w for _, h in stream(recognizer, pcm) if h.final for w in h.words]
                words = [w for w in words if not w.text.startswith(("<", "["))]
                for mark, gap in labelled_gaps(story, words):
                    gaps["." if mark in tuple(".;:!?") else mark].append(gap)
    for boundary, label in (("", "no punctuation"), (",", "at a comma"), (".", "at a full stop or semicolon")):
        values = sorted(gaps[boundary])
        if not values:
            print(f"{label}: no aligned gaps")
            continue
        closed = sum(gap > PAUSE for gap in values)
        print(
            f"{label}: {len(values)} gaps, median {statistics.median(values):.2f} s, "
            f"max {values[-1]:.2f} s; "
            f"> PAUSE ({PAUSE} s): {closed} ({closed / len(values):.0%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
