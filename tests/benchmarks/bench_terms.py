"""Benchmark of the Stories! term rules: judgement accuracy, matcher throughput, load time.

    .venv/bin/python tests/benchmarks/bench_terms.py

Targets: accuracy >= 0.98 on the corpus (tests/nlp/corpus), the incremental matcher >= 1000
words/s, the language pipeline loaded in <= 2 s (in a fresh process, imports included).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from nlp import HeardWord, TickTracker, load_referee
from tests.nlp.corpus_judge import judge_all, load, recognizer_utterances, story_terms

LOAD_RUNS = 3


def load_seconds() -> list[float]:
    """Import + load_referee() in fresh processes."""
    code = "import time; t = time.perf_counter(); from nlp import load_referee; load_referee(); print(time.perf_counter() - t)"
    return [
        float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
        for _ in range(LOAD_RUNS)
    ]


def feed(tracker: TickTracker, utterances: list[list[str]]) -> int:
    """As a recognizer would: each utterance grows word by word, then is final. Returns the word count."""
    clock = 0.0
    for utterance in utterances:
        heard = []
        for word in utterance:
            heard.append(HeardWord(word, clock, clock + 0.3))
            clock += 0.3
            tracker.update(heard)
        tracker.update(heard, final=True)
    tracker.finish()
    return sum(len(u) for u in utterances)


def matcher_throughput(referee) -> tuple[float, float]:
    """Words/s over the corpus stories (one tracker each, one utterance per sentence), and over
    the same words as a single utterance that never ends, with all their terms at once."""
    stories = load("ticking")["stories"]
    start, words = time.perf_counter(), 0
    for story in stories:
        words += feed(TickTracker(referee, story_terms(story)), recognizer_utterances(story["story"]))
    per_story = words / (time.perf_counter() - start)
    everything = [word for story in stories for u in recognizer_utterances(story["story"]) for word in u]
    terms = {f"player {i}": story["ticked"][:5] for i, story in enumerate(stories[:8])}
    start = time.perf_counter()
    count = feed(TickTracker(referee, terms), [everything])
    return per_story, count / (time.perf_counter() - start)


def main() -> int:
    loads = load_seconds()
    referee = load_referee()
    per_story, one_utterance = matcher_throughput(referee)
    total, mistakes = judge_all(referee)
    accuracy = 1 - len(mistakes) / total
    print(f"judgement accuracy: {accuracy:.4f} ({total - len(mistakes)}/{total} judgements)  target >= 0.98")
    for mistake in mistakes:
        print(f"  wrong: {mistake}")
    print(
        f"matcher throughput: {per_story:.0f} words/s (word by word, per story); "
        f"{one_utterance:.0f} words/s (one endless utterance)  target >= 1000"
    )
    print(
        f"pipeline load time: {statistics.median(loads):.2f} s median of {LOAD_RUNS} fresh processes "
        f"(max {max(loads):.2f} s)  target <= 2 s"
    )
    met = accuracy >= 0.98 and min(per_story, one_utterance) >= 1000 and max(loads) <= 2
    print("all targets met" if met else "TARGET MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
