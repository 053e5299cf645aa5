"""Speech recognizers behind one streaming protocol.

Audio goes in as 16-bit little-endian mono PCM chunks at the recognizer's `sample_rate`; out
come hypotheses of `nlp.ticks.HeardWord`s with times in seconds from the start of the stream
(cumulative across utterances until `reset()`), which the term matcher consumes directly. A
partial hypothesis may be revised by the next one; a final one closes an utterance (it may be
empty when what looked like speech was noise, so that earlier partials are withdrawn). Given a
context (`set_context`: the story card's sentence that a story continues), a recognizer that can
decode a finished utterance once more as a whole (Whisper) also gives that second opinion, as a
`confirmed` hypothesis after the utterance's final one: its consumer reconciles the two.

The recognizers `--asr` chooses from, and how each is opened: host/speech/registry.py.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from games.language import _, n_
from models import ModelNotFound, find_model
from nlp.ticks import HeardWord

SAMPLE_RATE = 16000


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
    #: in a partial hypothesis, the words heard after `words` that the recognizer is not sure of
    #: yet: context for deciding the edges of the last words (is "snow" part of "snow man"?),
    #: never evidence of a tick themselves
    lookahead: tuple[HeardWord, ...] = ()
    #: under a phrase list, whether a second grammar, independent of the one whose phrase `words`
    #: is, heard the same phrase in the same audio (host.speech.split_recognizer)
    vouched: bool = False

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
        super().__init__(_("{recognizer} needs {expected} Hz audio, not {got} Hz: open the microphone at {expected} Hz "
                           "or resample the audio to it.").format(recognizer=name, expected=expected, got=got))
        self.expected = expected
        self.got = got


class UnknownWords(RecognizerError):
    """A phrase list uses words the recognizer's dictionary lacks."""

    def __init__(self, name: str, words: Sequence[str]):
        listed = _(", ").join(f"'{word}'" for word in words)
        super().__init__(n_("{recognizer} does not know the word {words}: choose phrases of other words, or listen "
                            "without a phrase list.",
                            "{recognizer} does not know the words {words}: choose phrases of other words, or listen "
                            "without a phrase list.", len(words)).format(recognizer=name, words=listed))
        self.words = tuple(words)


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
