"""The built-in Dixit deck told in words (games/data/dixit/dixit-described.json), measured against
issue 18's targets: each card read aloud in at most 20 s at the default rate, 20 to 80 words,
and no two cards alike.

    .venv/bin/python tests/benchmarks/bench_described_deck.py

Every card is synthesised by espeak-ng (the host's voice) at the default rate, in full and its
first sentence alone (what verbosity brief reads); the seconds are the WAV's length. Printed too:
the words and sentences, the closest pair of cards by rapidfuzz's token_set_ratio (the measure
and limit of tests/host/test_described_deck.py), and the most distinctive nouns two cards share.
"""
from __future__ import annotations

import itertools
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.decks import sentences  # noqa: E402
from host.audio.speaker import DEFAULT_RATE  # noqa: E402
from host.storage.decks import load_described_deck  # noqa: E402
from tests.host.test_described_deck import (  # noqa: E402
    MAX_SPEECH_SECONDS, SIMILARITY_LIMIT, distinctive_nouns, similarity, spoken_seconds,
)


def spread(label: str, values: list[float], unit: str = "") -> str:
    figures = {
        "max": max(values), "mean": statistics.mean(values), "median": statistics.median(values), "min": min(values),
    }
    return f"{label:<22} " + "  ".join(f"{name} {value:5.1f}{unit}" for name, value in figures.items())


def main() -> None:
    cards = load_described_deck().cards
    texts = tuple(card.description for card in cards)
    with tempfile.TemporaryDirectory() as folder:
        full = [spoken_seconds(text, Path(folder)) for text in texts]
        brief = [spoken_seconds(card.brief, Path(folder)) for card in cards]
    longest = max(range(len(cards)), key=full.__getitem__)
    print(f"{len(cards)} cards, espeak-ng at {DEFAULT_RATE} words a minute; "
          f"target: at most {MAX_SPEECH_SECONDS:.0f} s a card")
    print(spread("read in full", full, " s"))
    print(spread("brief (first sentence)", brief, " s"))
    print(f"longest to read: card {cards[longest].id} ({cards[longest].title}), {full[longest]:.1f} s")
    print(spread("words", [len(text.split()) for text in texts]))
    counts = Counter(len(sentences(text)) for text in texts)
    print("sentences:", ", ".join(f"{count} cards of {n}" for n, count in sorted(counts.items())))
    pairs = list(itertools.combinations(range(len(cards)), 2))
    scores = sorted(((similarity(texts[i], texts[j]), i, j) for i, j in pairs), reverse=True)
    print(f"closest pairs (token_set_ratio, limit {SIMILARITY_LIMIT}):")
    for score, i, j in scores[:3]:
        print(f"  {score:5.1f}  card {cards[i].id} ({cards[i].title}) and card {cards[j].id} ({cards[j].title})")
    nouns = distinctive_nouns(texts)
    shared = max(pairs, key=lambda pair: len(nouns[pair[0]] & nouns[pair[1]]))
    i, j = shared
    print(f"most distinctive nouns shared: {len(nouns[i] & nouns[j])} ({', '.join(sorted(nouns[i] & nouns[j]))}), "
          f"cards {cards[i].id} and {cards[j].id}")


if __name__ == "__main__":
    main()
