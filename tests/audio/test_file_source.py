"""FileSource: WAV and FLAC files as 16 kHz mono chunks, at real-time pace or as fast as possible."""
from __future__ import annotations

import time

import numpy as np
import pytest
import soundfile

from games.language import speaking
from host.audio.sources import AudioFileError, FileSource
from host.storage.catalogs import translations
from tests.audio.pulse import read_pcm
from tests.audio.signals import best_alignment


def read_all(source: FileSource) -> tuple[list, float]:
    started = time.monotonic()
    try:
        return list(source), time.monotonic() - started
    finally:
        source.close()


@pytest.fixture(scope="module")
def stereo_flac(speech_wav, tmp_path_factory):
    """The sentence at 44.1 kHz in stereo FLAC: both a different rate and a channel count to undo."""
    mono, rate = soundfile.read(speech_wav, dtype="float32")
    upsampled = np.interp(np.arange(0, len(mono), rate / 44100), np.arange(len(mono)), mono)
    path = tmp_path_factory.mktemp("flac") / "sentence.flac"
    soundfile.write(path, np.stack([upsampled, upsampled * 0.5], axis=1), 44100, format="FLAC")
    return path


def test_a_wav_file_read_fast_gives_all_its_audio_at_16_khz(speech_wav):
    source = FileSource(speech_wav, rate=16000)
    chunks, elapsed = read_all(source)
    assert source.native_rate == 22050
    assert all(chunk.rate == 16000 for chunk in chunks)
    assert sum(c.duration for c in chunks) == pytest.approx(source.duration, abs=0.01)
    for before, after in zip(chunks, chunks[1:]):
        assert after.time == pytest.approx(before.time + before.duration, abs=1e-6)
    assert elapsed < source.duration  # not paced to the clock
    _, similarity = best_alignment(b"".join(c.pcm for c in chunks) + bytes(64), read_pcm(speech_wav, 16000))
    assert similarity > 0.99


@pytest.mark.slow
def test_a_flac_file_read_in_real_time_takes_as_long_as_it_lasts(stereo_flac, speech_wav):
    source = FileSource(stereo_flac, rate=16000, realtime=True)
    chunks, elapsed = read_all(source)
    assert source.native_rate == 44100
    assert elapsed >= 0.8 * source.duration
    assert all(0 <= b.captured_at - a.captured_at for a, b in zip(chunks, chunks[1:]))
    _, similarity = best_alignment(b"".join(c.pcm for c in chunks) + bytes(64), read_pcm(speech_wav, 16000))
    assert similarity > 0.95  # the same speech, mixed down to mono and resampled


@pytest.mark.slow
def test_a_file_read_in_real_time_by_a_reader_that_fell_behind_gives_what_waited_in_one_chunk(speech_wav):
    source = FileSource(speech_wav, rate=16000, realtime=True)
    first = next(source)
    time.sleep(0.5)
    waited, after = next(source), next(source)
    source.close()
    assert waited.duration >= 0.4 and after.duration < 0.1
    assert waited.time == pytest.approx(first.time + first.duration, abs=1e-6)
    assert after.time == pytest.approx(waited.time + waited.duration, abs=1e-6)


def test_a_missing_or_unreadable_file_is_one_clear_error(tmp_path):
    with pytest.raises(AudioFileError, match="no such file.*WAV or FLAC"):
        FileSource(tmp_path / "missing.wav")
    text = tmp_path / "notes.wav"
    text.write_text("not sound")
    with pytest.raises(AudioFileError, match="notes.wav.*WAV or FLAC"):
        FileSource(text)


@pytest.mark.parametrize(("language", "refusal"), [
    ("es", "No se puede leer {file} como sonido (no existe ese archivo): da un archivo WAV o FLAC."),
    ("de", "{file} lässt sich nicht als Ton lesen (diese Datei gibt es nicht): Gib eine WAV- oder FLAC-Datei an."),
])
def test_a_missing_file_is_refused_in_the_active_language(tmp_path, language, refusal):
    missing = tmp_path / "missing.wav"
    with speaking(translations(language)), pytest.raises(AudioFileError) as refused:
        FileSource(missing)
    assert str(refused.value) == refusal.format(file=missing)
