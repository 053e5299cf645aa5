"""Speech recognizers behind one streaming protocol.

Audio goes in as 16-bit little-endian mono PCM chunks at the recognizer's `sample_rate`; out
come hypotheses of `nlp.ticks.HeardWord`s with times in seconds from the start of the stream
(cumulative across utterances until `reset()`), which the term matcher consumes directly. A
partial hypothesis may be revised by the next one; a final one closes an utterance (it may be
empty when what looked like speech was noise, so that earlier partials are withdrawn).

`open_recognizer` picks the adapter: Vosk when a model is found, else PocketSphinx, whose US
English model ships inside its wheel.
"""
from __future__ import annotations

import argparse
import re
import sys
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from models import ModelNotFound, find_model
from nlp.ticks import HeardWord

SAMPLE_RATE = 16000
KINDS = ("vosk", "pocketsphinx")


@dataclass(frozen=True)
class Hypothesis:
    """What the recognizer currently believes one utterance says."""

    words: tuple[HeardWord, ...]
    final: bool
    #: under a phrase list, what free recognition heard in the same audio (final hypotheses of
    #: recognizers that make this second pass; else None). A closed grammar forces any sound into
    #: one of its phrases: this is how its answer is checked.
    loose: str | None = None

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)


class Recognizer(Protocol):
    sample_rate: int

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        """Feed audio; return what changed: zero or more hypotheses in order, e.g. the final
        one of a finished utterance, then a partial one of the next."""
        ...

    def finish(self) -> list[Hypothesis]:
        """End of stream: close the utterance in progress with a final hypothesis."""
        ...

    def reset(self) -> None:
        """Forget the audio so far (times restart at 0); the phrase list stays."""
        ...

    def knows(self, word: str) -> bool:
        """Whether the recognizer's dictionary has this (lowercase) word."""
        ...

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """Restrict recognition to these phrases (commands), or free speech again with None.
        An utterance in progress is closed first: its final hypothesis comes out of the next
        `accept` or `finish`. Restricted results are still guesses: check them."""
        ...


class RecognizerError(RuntimeError):
    """The recognizer cannot be set up or used as asked."""


class MissingModel(RecognizerError):
    """No model folder, or a folder without the model files."""


class BrokenModel(RecognizerError):
    """The model folder has the files but the recognizer cannot load them."""


class WrongSampleRate(RecognizerError):
    """The audio's sample rate is not the one the recognizer's model needs."""

    def __init__(self, name: str, expected: int, got: int):
        super().__init__(
            f"{name} needs {expected} Hz audio, not {got} Hz: "
            f"open the microphone at {expected} Hz or resample the audio to it."
        )
        self.expected = expected
        self.got = got


class UnknownWords(RecognizerError):
    """A phrase list uses words the recognizer's dictionary lacks."""

    def __init__(self, name: str, words: Sequence[str]):
        listed = ", ".join(f"'{word}'" for word in words)
        super().__init__(
            f"{name} does not know the word(s) {listed}: "
            "choose phrases of other words, or listen without a phrase list."
        )
        self.words = tuple(words)


class UnknownRecognizer(RecognizerError, ValueError):
    def __init__(self, kind: str):
        super().__init__(f"There is no recognizer called '{kind}': choose {' or '.join(KINDS)}.")


def check_rate(name: str, expected: int, got: int) -> None:
    if got != expected:
        raise WrongSampleRate(name, expected, got)


def check_pcm(pcm: bytes) -> None:
    if len(pcm) % 2:
        raise ValueError("PCM audio must be whole 16-bit samples: got an odd number of bytes.")


def phrase_words(phrases: Sequence[str]) -> list[tuple[str, ...]]:
    """Phrases as recognizers spell them: lowercase words without punctuation, hyphens split
    ("Ice-cold!" -> ("ice", "cold")); empty and repeated phrases dropped."""
    out: list[tuple[str, ...]] = []
    for phrase in phrases:
        words = tuple(
            word.strip("'")
            for word in re.sub(r"[^\w'\s-]|_", " ", phrase.lower().replace("’", "'")).replace("-", " ").split()
            if word.strip("'")
        )
        if words and words not in out:
            out.append(words)
    return out


def find_vosk_model() -> Path | None:
    """The English Vosk model to use when none is given ($VOSK_MODEL_PATH first; see
    models.locate), or None when there is none."""
    try:
        return find_model("en")
    except ModelNotFound:
        return None


def open_recognizer(
    kind: str | None = None, model: Path | None = None, sample_rate: int = SAMPLE_RATE
) -> Recognizer:
    """A recognizer of `kind` ("vosk", "pocketsphinx"; None: Vosk when a model is found, else
    PocketSphinx) for audio at `sample_rate`. `model` is a Vosk model folder."""
    if kind not in (None, *KINDS):
        raise UnknownRecognizer(str(kind))
    if kind != "pocketsphinx":
        model = model or find_vosk_model()
    if kind == "vosk" or (kind is None and model is not None):
        if model is None:
            raise MissingModel(
                "No Vosk model folder given: set VOSK_MODEL_PATH or pass --model to a model "
                "folder, or use --asr pocketsphinx."
            )
        from host.vosk_recognizer import VoskRecognizer

        return VoskRecognizer(model, sample_rate)
    if model is not None:
        raise RecognizerError("PocketSphinx uses its bundled model: drop --model, or use --asr vosk.")
    from host.pocketsphinx_recognizer import PocketSphinxRecognizer

    return PocketSphinxRecognizer(sample_rate)


def main(argv: list[str]) -> int:
    """`transcribe FILE.wav`: stream a WAV file through a recognizer and print its hypotheses."""
    parser = argparse.ArgumentParser(prog="storyhost transcribe", description=main.__doc__)
    parser.add_argument("wav", type=Path, help="16-bit mono WAV file")
    parser.add_argument("--asr", choices=KINDS, help="recognizer (default: Vosk if a model is found)")
    parser.add_argument("--model", type=Path, help="Vosk model folder")
    parser.add_argument("--phrases", nargs="+", metavar="PHRASE", help="listen only for these phrases")
    parser.add_argument("--partials", action="store_true", help="also print partial hypotheses")
    args = parser.parse_args(argv)
    try:
        with wave.open(str(args.wav), "rb") as audio:
            if audio.getnchannels() != 1 or audio.getsampwidth() != 2:
                print(f"{args.wav} is not 16-bit mono: convert it, e.g. with sox -c 1 -b 16.", file=sys.stderr)
                return 2
            recognizer = open_recognizer(args.asr, args.model, audio.getframerate())
            recognizer.set_phrases(args.phrases)
            chunk = recognizer.sample_rate * 3 // 100  # 30 ms, like a microphone's blocks
            hypotheses = []
            while pcm := audio.readframes(chunk):
                hypotheses += recognizer.accept(pcm)
            hypotheses += recognizer.finish()
    except (OSError, EOFError, wave.Error) as error:
        print(f"Cannot read {args.wav} as a WAV file: {error}", file=sys.stderr)
        return 2
    except RecognizerError as error:
        print(error, file=sys.stderr)
        return 2
    for hypothesis in hypotheses:
        if hypothesis.final or args.partials:
            print(f"{'final' if hypothesis.final else 'partial'}: {' '.join(map(_timed, hypothesis.words))}")
    return 0


def _timed(word: HeardWord) -> str:
    """The word with those of its times and confidence it has: "polar@1.67-2.04 (0.93)"."""
    times = f"@{word.start:.2f}-{word.end:.2f}" if word.start is not None and word.end is not None else ""
    confidence = f" ({word.confidence:.2f})" if word.confidence is not None else ""
    return f"{word.text}{times}{confidence}"
