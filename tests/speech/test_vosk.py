"""The Vosk adapter end to end with the Korean model from PyPI on espeak-ng Korean speech.

espeak-ng's Korean is robotic and the small model gets many words wrong, so these tests check
the plumbing (streaming, times, phrase lists, errors) more than the words."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import wave
from itertools import pairwise
from pathlib import Path

import pytest

from games.language import speaking
from host.storage.catalogs import translations
from host.speech.recognizer import (
    BrokenModel,
    MissingModel,
    UnknownWords,
    WrongSampleRate,
)
from host.speech.registry import open_recognizer
from host.speech.split_recognizer import SplitRecognizer
from host.speech.vosk_recognizer import VoskRecognizer
from tests.speech.audio import chunks, finals, read_pcm, seconds, speech_spans, stream

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

SENTENCES = ["오늘은 날씨가 좋습니다", "저는 학생입니다"]  # "The weather is nice today", "I am a student"
WEATHER = ["오늘", "날씨", "학생"]  # today, weather, student: words of the model's vocabulary
FRUIT = ["사과", "바나나"]  # apple, banana


@pytest.fixture(scope="module")
def recognizer(korean_vosk_model) -> VoskRecognizer:
    return VoskRecognizer(korean_vosk_model)


@pytest.fixture(autouse=True)
def fresh(recognizer: VoskRecognizer):
    recognizer.set_phrases(None)
    recognizer.reset()


@pytest.fixture
def korean(synthesize) -> bytes:
    return read_pcm(synthesize(SENTENCES, voice="espeak:ko"))


def words(hypotheses) -> set[str]:
    return {w.text for h in hypotheses for w in h.words}


def test_streams_partial_then_final_hypotheses_per_utterance(recognizer, korean):
    timed = stream(recognizer, korean)
    utterances = finals(timed)
    assert len(utterances) == 2
    assert "오늘" in utterances[0].text.split()
    ends = [t for t, h in timed if h.final]
    partials = [t for t, h in timed if not h.final and h.words]
    assert partials[0] < ends[0] < next(t for t in partials if t > ends[0]) < ends[1]
    assert all(w.start is None and w.confidence is None for _, h in timed if not h.final for w in h.words)


def test_final_words_have_times_where_the_speech_is_and_confidences(recognizer, korean):
    utterances = finals(stream(recognizer, korean))
    spans = speech_spans(korean)
    assert len(spans) == 2
    for utterance, (start, end) in zip(utterances, spans):
        ws = utterance.words
        assert all(w.start < w.end and 0 < w.confidence <= 1 for w in ws)
        assert all(a.end <= b.start + 1e-6 for a, b in pairwise(ws))
        assert start - 0.3 < ws[0].start and ws[-1].end < end + 0.3
    assert utterances[-1].words[-1].end <= seconds(korean)


def test_phrase_lists_restrict_results_and_switch(recognizer, korean):
    recognizer.set_phrases(WEATHER)
    weather = finals(stream(recognizer, korean))
    recognizer.set_phrases(FRUIT)
    fruit = finals(stream(recognizer, korean))
    recognizer.set_phrases(None)
    free = finals(stream(recognizer, korean))
    assert words(weather) and words(weather) <= set(WEATHER)
    assert words(fruit) and words(fruit) <= set(FRUIT)
    assert words(free) - set(WEATHER) - set(FRUIT)
    # under a list each final also carries what free recognition heard in the same audio
    assert all(h.loose for h in weather + fruit) and all(h.loose is None for h in free)
    loose = set(" ".join(h.loose for h in weather).split())
    assert len(loose & words(free)) >= len(words(free)) / 2  # the same audio, cut a little differently
    duration = seconds(korean)  # a new Vosk recognizer per list, yet one clock
    assert duration < fruit[0].words[0].start < 2 * duration < free[0].words[0].start < 3 * duration


def test_switching_phrases_mid_utterance_closes_it_first(recognizer, korean):
    heard = [h for chunk in chunks(korean[: int(1.8 * recognizer.sample_rate) * 2]) for h in recognizer.accept(chunk)]
    assert heard and not heard[-1].final
    recognizer.set_phrases(FRUIT)
    closed = recognizer.accept(b"")
    assert closed[0].final and "오늘" in closed[0].text.split()


def test_times_run_on_across_streams_until_reset(recognizer, korean):
    once = finals(stream(recognizer, korean))
    twice = finals(stream(recognizer, korean))
    assert twice[0].words[0].start == pytest.approx(once[0].words[0].start + seconds(korean), abs=0.1)
    recognizer.reset()
    again = finals(stream(recognizer, korean))  # Vosk is not quite deterministic: a word may differ
    assert [h.words[0].start for h in again] == pytest.approx([h.words[0].start for h in once], abs=0.1)
    assert again[-1].words[-1].end <= seconds(korean)


def test_phrases_with_unknown_words_are_refused(recognizer):
    with pytest.raises(UnknownWords, match="storyhost"):
        recognizer.set_phrases(["오늘", "storyhost"])


def test_missing_model_folder(tmp_path):
    with pytest.raises(MissingModel, match=str(tmp_path / "nowhere")):
        VoskRecognizer(tmp_path / "nowhere")
    with pytest.raises(MissingModel, match="am/final.mdl"):
        VoskRecognizer(tmp_path)


def test_broken_model_folder(tmp_path, korean_vosk_model):
    shutil.copytree(korean_vosk_model / "conf", tmp_path / "conf")
    (tmp_path / "am").mkdir()
    (tmp_path / "am" / "final.mdl").write_bytes((korean_vosk_model / "am" / "final.mdl").read_bytes()[:1000])
    with pytest.raises(BrokenModel, match=str(tmp_path)):
        VoskRecognizer(tmp_path)


def test_wrong_sample_rate_says_the_rate_it_needs(korean_vosk_model):
    with pytest.raises(WrongSampleRate, match="needs 16000 Hz audio, not 44100 Hz"):
        VoskRecognizer(korean_vosk_model, 44100)


def test_the_refusals_are_in_the_active_language(recognizer, korean_vosk_model, tmp_path):
    with speaking(translations("es")), pytest.raises(UnknownWords) as unknown:
        recognizer.set_phrases(["오늘", "storyhost", "anfitrión"])
    assert str(unknown.value) == ("Vosk no conoce las palabras 'anfitrión', 'storyhost': elige frases con otras palabras, "
                                  "o escucha sin lista de frases.")
    with speaking(translations("de")), pytest.raises(MissingModel) as missing:
        VoskRecognizer(tmp_path / "nowhere")
    assert str(missing.value).startswith(f"Den Vosk-Modellordner {tmp_path / 'nowhere'} gibt es nicht: Entpack dort")
    with speaking(translations("ca")), pytest.raises(WrongSampleRate) as rate:
        VoskRecognizer(korean_vosk_model, 44100)
    assert str(rate.value) == ("Vosk necessita àudio a 16000 Hz, no a 44100 Hz: obre el micròfon a 16000 Hz o remostreja "
                               "l'àudio a aquesta freqüència.")


def test_with_an_english_vosk_model_found_vosk_hears_the_phrase_lists(korean_vosk_model, monkeypatch):
    """$VOSK_MODEL_PATH naming a model folder serves any language; Whisper still hears free speech."""
    monkeypatch.setenv("VOSK_MODEL_PATH", str(korean_vosk_model))
    default = open_recognizer()
    assert isinstance(default, SplitRecognizer) and isinstance(default.grammar, VoskRecognizer)
    assert isinstance(open_recognizer("vosk"), VoskRecognizer)
    monkeypatch.delenv("VOSK_MODEL_PATH")
    assert isinstance(open_recognizer(model=korean_vosk_model), VoskRecognizer)  # the folder says which recognizer


def test_a_damaged_model_is_one_line_without_kaldis_log(tmp_path, korean_vosk_model, korean):
    """A graph cut short loads, then fails when the first recognizer reads it; OpenFst and Kaldi
    print their errors straight to the terminal."""
    for part in ("am", "conf", "ivector"):
        shutil.copytree(korean_vosk_model / part, tmp_path / "model" / part)
    (tmp_path / "model" / "graph").mkdir()
    for name in ("Gr.fst", "disambig_tid.int", "phones.txt"):
        shutil.copy(korean_vosk_model / "graph" / name, tmp_path / "model" / "graph" / name)
    shutil.copytree(korean_vosk_model / "graph" / "phones", tmp_path / "model" / "graph" / "phones")
    (tmp_path / "model" / "graph" / "HCLr.fst").write_bytes((korean_vosk_model / "graph" / "HCLr.fst").read_bytes()[:100_000])
    wav = tmp_path / "speech.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
        out.writeframes(korean)
    done = subprocess.run(
        [sys.executable, "-m", "host.cli.main", "transcribe", "--asr", "vosk", "--model", tmp_path / "model", wav],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("Vosk could not load the model in"), done.stderr
