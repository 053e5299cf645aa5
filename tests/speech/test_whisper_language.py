"""Whisper hears the table's language, forced (never detected): a Spanish sentence read by
espeak-ng's Spanish voice comes out as Spanish words through the multilingual base the language
defaults to; an English-only model and the English-only recognizers refuse another language in
one line."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from host.speech.recognizer import RecognizerError
from host.speech.registry import open_recognizer
from host.speech.whisper_recognizer import WhisperRecognizer
from models import locate_whisper
from tests.speech.audio import finals, read_pcm, stream

SENTENCE = "El dragón de arena duerme en la playa y la marea sube despacio."


@pytest.mark.slow
def test_a_spanish_sentence_is_heard_in_spanish(synthesize: Callable[..., Path]) -> None:
    speech = read_pcm(synthesize(SENTENCE, voice="espeak:es"))
    found = locate_whisper(language="es")
    heard = " ".join(h.text for h in finals(stream(WhisperRecognizer(found.path, language="es"), speech)))
    assert fuzz.ratio(heard.lower().strip(" ."), SENTENCE.lower().strip(" .")) >= 80, heard


def test_an_english_only_model_refuses_another_language() -> None:
    english = locate_whisper(language="en")
    with pytest.raises(RecognizerError, match="hears English only, not 'es'"):
        WhisperRecognizer(english.path, language="es")


@pytest.mark.parametrize("kind", ["pocketsphinx", "vosk"])
def test_the_english_only_recognizers_refuse_another_language(kind: str) -> None:
    with pytest.raises(RecognizerError, match="hears English only here, not 'es'"):
        open_recognizer(kind, language="es")
