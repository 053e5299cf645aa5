"""The recognizer protocol's shared parts: phrase spelling, the factory, `transcribe`."""
from __future__ import annotations

import subprocess

import pytest

from host.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.recognizer import (
    MissingModel,
    RecognizerError,
    UnknownRecognizer,
    main,
    open_recognizer,
    phrase_words,
)
from tests.speech.audio import RATE


def test_phrases_are_spelled_as_recognizers_spell_words():
    assert phrase_words(["Next card!", "next  CARD", "Ice-cold", "Don’t stop", "  ", "'quoted'", "오늘은 좋다"]) == [
        ("next", "card"),
        ("ice", "cold"),
        ("don't", "stop"),
        ("quoted",),
        ("오늘은", "좋다"),
    ]


@pytest.fixture
def no_vosk_model(monkeypatch):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)


def test_without_a_vosk_model_the_factory_picks_pocketsphinx(no_vosk_model):
    assert isinstance(open_recognizer(), PocketSphinxRecognizer)
    assert isinstance(open_recognizer("pocketsphinx"), PocketSphinxRecognizer)


def test_factory_errors_say_what_to_do(no_vosk_model, tmp_path):
    with pytest.raises(MissingModel, match="VOSK_MODEL_PATH"):
        open_recognizer("vosk")
    with pytest.raises(UnknownRecognizer, match="vosk or pocketsphinx"):
        open_recognizer("whisper")
    with pytest.raises(RecognizerError, match="drop --model"):
        open_recognizer("pocketsphinx", tmp_path)


@pytest.mark.slow
def test_transcribe_prints_final_hypotheses(synthesize, no_vosk_model, capsys):
    assert main([str(synthesize("Next card.")), "--phrases", "next card", "skip"]) == 0
    assert capsys.readouterr().out.startswith("final: next@")


@pytest.mark.slow
def test_transcribe_refuses_audio_it_cannot_use(synthesize, no_vosk_model, tmp_path, capsys):
    wav = synthesize("Next card.")
    stereo = tmp_path / "stereo.wav"
    subprocess.run(["sox", wav, "-c", "2", stereo], check=True)
    fast = tmp_path / "fast.wav"
    subprocess.run(["sox", wav, "-r", str(2 * RATE), fast], check=True)
    text = tmp_path / "notes.wav"
    text.write_text("not audio")
    assert [main([str(path)]) for path in (stereo, fast, text, tmp_path / "missing.wav")] == [2, 2, 2, 2]
    errors = capsys.readouterr().err.splitlines()
    assert "not 16-bit mono" in errors[0]
    assert "needs 16000 Hz audio, not 32000 Hz" in errors[1]
    assert all(line.startswith("Cannot read") for line in errors[2:])
