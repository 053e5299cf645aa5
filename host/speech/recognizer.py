"""Speech recognizers behind one streaming protocol.

Audio goes in as 16-bit little-endian mono PCM chunks at the recognizer's `sample_rate`; out
come hypotheses of `nlp.ticks.HeardWord`s with times in seconds from the start of the stream
(cumulative across utterances until `reset()`), which the term matcher consumes directly. A
partial hypothesis may be revised by the next one; a final one closes an utterance (it may be
empty when what looked like speech was noise, so that earlier partials are withdrawn). Given a
context (`set_context`: the story card's sentence that a story continues), a recognizer that can
decode a finished utterance once more as a whole (Whisper) also gives that second opinion, as a
`confirmed` hypothesis after the utterance's final one: its consumer reconciles the two.

`open_recognizer` picks the adapters. By default, and with "whisper", free speech (stories,
clues, readings) goes to Whisper with the models bundled in pip packages (nothing to download:
tiny.en streams English, base confirms it; see models.locate), and phrase lists (commands) to a recognizer that takes a closed grammar: Vosk when an English
Vosk model is found, else PocketSphinx, whose US English model ships inside its wheel (see
host/speech/split_recognizer.py). "vosk" or "pocketsphinx" use that one recognizer for both. Every model
storyhost installed or pinned is checked against its recorded checksums before it is loaded.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from models import DamagedModel, ModelError, ModelNotFound, check_before_loading, find_model, found_at, locate_whisper
from models.locate import layout_problem, locate_confirming
from nlp.ticks import HeardWord

SAMPLE_RATE = 16000
KINDS = ("whisper", "vosk", "pocketsphinx")


@dataclass(frozen=True)
class Hypothesis:
    """What the recognizer currently believes one utterance says."""

    words: tuple[HeardWord, ...]
    final: bool
    #: under a phrase list, what free recognition heard in the same audio (final hypotheses of
    #: recognizers that make this second pass; else None). A closed grammar forces any sound into
    #: one of its phrases: this is how its answer is checked.
    loose: str | None = None
    #: a confirmation: a finished utterance (already given as a final hypothesis) decoded again
    #: as a whole, with its words' times; it closes nothing and opens nothing
    confirmed: bool = False

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
        """Forget the audio so far (times restart at 0); the phrase list and the context stay."""
        ...

    def set_context(self, text: str | None) -> None:
        """Free speech from now on continues `text` (a story card's sentence, which the storyteller
        reads aloud first), or has no context (None). A recognizer that can use it primes free
        recognition with it and confirms each finished utterance (`Hypothesis.confirmed`); one
        that cannot (a closed grammar, a model without prompts) ignores it. It never adds words
        to a hypothesis by itself."""
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
    kind: str | None = None,
    model: Path | str | None = None,
    sample_rate: int = SAMPLE_RATE,
    *,
    confirming: Path | str | None = None,
    live: bool = False,
) -> Recognizer:
    """A recognizer of `kind` for audio at `sample_rate`: "whisper" (None: the same) is Whisper
    for free speech and, for phrase lists, Vosk when an English Vosk model is found, else
    PocketSphinx; "vosk" and "pocketsphinx" are that one recognizer for both. `model` is a
    Whisper or a Vosk model folder, or a Whisper model's name ("base"); without `kind`, what the
    folder holds chooses. `confirming` is the Whisper model of the confirming pass (default:
    `model` when given, else base: models.locate.locate_confirming). `live`: the audio comes at
    its own pace (a microphone), and Whisper's confirmations run beside the stream, on a thread
    of their own; else between chunks, so that a file is always heard the same way."""
    if kind not in (None, *KINDS):
        raise UnknownRecognizer(str(kind))
    model = None if model is None else Path(model)
    if kind is None:
        kind = "vosk" if model is not None and layout_problem(model) is None else "whisper"
    try:
        if kind == "pocketsphinx":
            if model is not None:
                raise RecognizerError("PocketSphinx uses its bundled model: drop --model, or use --asr vosk or whisper.")
            return _pocketsphinx(sample_rate)
        if kind == "vosk":
            folder = model or find_vosk_model()
            if folder is None:
                raise MissingModel(
                    "No Vosk model folder given: set VOSK_MODEL_PATH or pass --model to a model "
                    "folder, or use --asr whisper."
                )
            return _vosk(folder, sample_rate)
        return _whisper(model, None if confirming is None else Path(confirming), sample_rate, live)
    except ModelNotFound as error:
        raise MissingModel(str(error)) from error
    except DamagedModel as error:
        raise BrokenModel(str(error)) from error
    except ModelError as error:
        raise RecognizerError(str(error)) from error


def _pocketsphinx(sample_rate: int, loose: bool = True) -> Recognizer:
    from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer

    return PocketSphinxRecognizer(sample_rate, loose)


def _vosk(folder: Path, sample_rate: int) -> Recognizer:
    from host.speech.vosk_recognizer import VoskRecognizer

    if folder.is_dir():
        check_before_loading(found_at(folder, "vosk"))
    return VoskRecognizer(folder, sample_rate)


def _whisper(model: Path | None, confirming: Path | None, sample_rate: int, live: bool) -> Recognizer:
    from host.speech.split_recognizer import SplitRecognizer
    from host.speech.whisper_recognizer import WhisperRecognizer

    found = locate_whisper(model)
    check_before_loading(found)
    confirmer = locate_confirming(confirming or model)
    if confirmer.path != found.path:
        check_before_loading(confirmer)
    grammar_model = find_vosk_model()
    # Whisper makes the loose pass of the grammar's utterances (host/speech/split_recognizer.py)
    grammar = _pocketsphinx(sample_rate, loose=False) if grammar_model is None else _vosk(grammar_model, sample_rate)
    whisper = WhisperRecognizer(found.path, sample_rate, confirming=confirmer.path, background=live)
    return SplitRecognizer(whisper, grammar)
