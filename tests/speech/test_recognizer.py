"""The recognizer protocol's shared parts: phrase spelling, the factory, `transcribe`."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import soundfile

from games.language import speaking
from host.cli.transcribe import main
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.speech.recognizer import (
    BrokenModel,
    MissingModel,
    RecognizerError,
    phrase_words,
)
from host.speech.registry import UnknownRecognizer, open_recognizer
from host.speech.split_recognizer import SplitRecognizer
from host.speech.whisper_recognizer import WhisperRecognizer
from host.storage.catalogs import translations
from models import locate_whisper
from models.integrity import sha256_of


def test_phrases_are_spelled_as_recognizers_spell_words():
    assert phrase_words(["Next card!", "next  CARD", "Ice-cold", "Don’t stop", "  ", "'quoted'", "오늘은 좋다"]) == [
        ("next", "card"),
        ("ice", "cold"),
        ("don't", "stop"),
        ("quoted",),
        ("오늘은", "좋다"),
    ]


@pytest.fixture
def no_vosk_model(monkeypatch, tmp_path):
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.setenv("STORYHOST_DATA_DIR", str(tmp_path / "data"))  # no downloaded model either
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.mark.slow
def test_without_a_vosk_model_whisper_hears_free_speech_and_pocketsphinx_phrases(no_vosk_model):
    default = open_recognizer()
    assert isinstance(default, SplitRecognizer)
    assert isinstance(default.free, WhisperRecognizer) and isinstance(default.grammar, PocketSphinxRecognizer)
    assert isinstance(open_recognizer("whisper"), SplitRecognizer)
    assert isinstance(open_recognizer("pocketsphinx"), PocketSphinxRecognizer)


def test_factory_errors_say_what_to_do(no_vosk_model, tmp_path):
    with pytest.raises(MissingModel, match="VOSK_MODEL_PATH"):
        open_recognizer("vosk")
    with pytest.raises(UnknownRecognizer, match="whisper or vosk or pocketsphinx"):
        open_recognizer("nope")
    with pytest.raises(RecognizerError, match="drop --model"):
        open_recognizer("pocketsphinx", tmp_path)
    with pytest.raises(MissingModel, match="is not a Whisper model in CTranslate2 format: it lacks model.bin"):
        open_recognizer("whisper", tmp_path)


@pytest.mark.slow
def test_a_damaged_whisper_model_is_refused_before_loading(no_vosk_model, tmp_path):
    """A downloaded model whose file changed: one line naming the file and what to do."""
    bundled = locate_whisper().path
    installed = tmp_path / "data" / "models" / "faster-whisper-tiny.en"
    shutil.copytree(bundled, installed)
    (installed / "storyhost-model.json").write_text(json.dumps({
        "name": installed.name, "kind": "whisper", "installed": "2026-01-01T00:00:00+00:00",
        "files": {path.name: {"size": path.stat().st_size, "sha256": sha256_of(path)} for path in bundled.iterdir()},
    }), encoding="utf-8")
    assert locate_whisper().path == installed  # the downloaded model is the one used
    assert isinstance(open_recognizer(), SplitRecognizer)  # intact: it loads
    with (installed / "config.json").open("r+b") as config:
        config.seek(10)
        config.write(b"#")
    with pytest.raises(BrokenModel) as raised:
        open_recognizer()
    assert str(raised.value) == (
        f"The speech model faster-whisper-tiny.en in {installed} is damaged: its file config.json has changed (its sha256"
        f" differs); delete {installed} and install it again (`storyhost models download faster-whisper-tiny.en`)."
    )
    with speaking(translations("es")), pytest.raises(BrokenModel) as refused:
        open_recognizer(language="es")
    assert str(refused.value) == (
        f"El modelo de voz faster-whisper-tiny.en de {installed} está dañado: su archivo config.json ha cambiado (su "
        f"sha256 es otro); borra {installed} y vuelve a instalarlo (`storyhost models download faster-whisper-tiny.en`)."
    )


@pytest.mark.slow
def test_transcribe_prints_final_hypotheses(synthesize, no_vosk_model, capsys):
    assert main([str(synthesize("Next card.")), "--asr", "pocketsphinx", "--phrases", "next card", "skip"]) == 0
    assert capsys.readouterr().out.startswith("final: next@")


@pytest.mark.slow
def test_transcribe_hears_any_rate_and_channels_through_whisper(synthesize, no_vosk_model, tmp_path, capsys):
    """espeak-ng's own 22050 Hz WAV, and festival speech as 44.1 kHz stereo FLAC: a final line
    per utterance, none for partial hypotheses."""
    espeak = tmp_path / "espeak-22k.wav"
    sentences = 'We flew home to Canada. <break time="1500ms"/> It was ice-cold.'
    subprocess.run(["espeak-ng", "-m", "-v", "en-us", "-w", espeak, sentences], check=True)  # -m: SSML, for the pause
    assert soundfile.info(str(espeak)).samplerate == 22050
    flac = tmp_path / "festival-44k-stereo.flac"
    subprocess.run(["sox", synthesize(["We flew home to Canada.", "It was ice-cold."]), "-r", "44100", "-c", "2", flac],
                   check=True)
    for path in (espeak, flac):
        assert main([str(path), "--asr", "whisper"]) == 0
        lines = capsys.readouterr().out.splitlines()
        # Whisper may add a low-confidence utterance of its own in the pause: not asserted here
        assert 2 <= len(lines) <= 3 and all(line.startswith("final: ") for line in lines), lines
        assert "Canada" in lines[0] and "ice" in lines[-1].lower() and "cold" in lines[-1].lower(), lines


@pytest.mark.slow
def test_transcribe_refuses_what_is_not_sound(no_vosk_model, tmp_path, capsys):
    text = tmp_path / "notes.wav"
    text.write_text("not audio")
    assert [main([str(path)]) for path in (text, tmp_path / "missing.wav")] == [2, 2]
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(line.startswith("Cannot read") for line in errors)
    assert "there is no such file" in errors[1]
