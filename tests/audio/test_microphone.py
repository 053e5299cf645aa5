"""MicrophoneSource through a real input device: PulseAudio's pipe source, read by PortAudio."""
from __future__ import annotations

import threading
import time

import pytest

from games.language import speaking
from host.audio.sources import MicrophoneLost, MicrophoneSource
from host.audio.devices import DeviceNotFound
from host.storage.catalogs import translations
from tests.audio.pulse import PORTAUDIO_DEVICE, read_pcm
from tests.audio.signals import best_alignment, samples

pytestmark = pytest.mark.slow


def read_until(mic: MicrophoneSource, seconds: float) -> list:
    chunks = []
    for chunk in mic:
        chunks.append(chunk)
        if chunk.time + chunk.duration >= seconds:
            return chunks
    raise AssertionError("the microphone ended")


def test_speech_fed_to_the_virtual_microphone_is_read_back_resampled_and_on_time(pulse, feeder, speech_wav):
    fed = read_pcm(speech_wav, 16000)
    mic = MicrophoneSource(PORTAUDIO_DEVICE, rate=16000, block_ms=30)
    try:
        assert mic.native_rate == 44100  # the pulse device's own rate: converted here, not by PortAudio
        read_until(mic, 0.3)
        feeder.play(fed)
        chunks = read_until(mic, 0.3 + len(fed) / 32000 + 1.5)
    finally:
        mic.close()
    assert mic.overflows == 0
    assert all(chunk.rate == 16000 for chunk in chunks)
    for before, after in zip(chunks, chunks[1:]):  # the stream's clock has no gaps and no overlaps
        assert after.time == pytest.approx(before.time + before.duration, abs=1e-6)
    # small blocks (latency='low'), those PortAudio delivers together handed over together
    assert 0.02 < sum(c.duration for c in chunks[5:-5]) / len(chunks[5:-5]) < 0.06
    recorded = b"".join(chunk.pcm for chunk in chunks)
    offset, similarity = best_alignment(recorded, fed)
    assert similarity > 0.9  # the same waveform came back, through two resamplers
    start = chunks[0].time + offset / 16000
    arrival = next(c.captured_at for c in chunks if c.time + c.duration > start)
    assert 0 <= arrival - feeder.started_speech[0] < 1.0  # heard as it was spoken, not later


def test_losing_the_microphone_raises_and_reconnecting_resumes_the_stream(pulse, feeder, speech_wav):
    mic = MicrophoneSource(PORTAUDIO_DEVICE, lost_after=0.5)
    try:
        before = read_until(mic, 0.5)
        pulse.unload_mic()
        with pytest.raises(MicrophoneLost, match="stopped sending sound"):
            read_until(mic, 60)
        with pytest.raises(MicrophoneLost, match="not connected"):
            next(mic)
        assert not mic.reconnect(timeout=1.0, interval=0.2)  # still unplugged
        plug_in = threading.Timer(1.0, pulse.load_mic)
        plug_in.start()
        assert mic.reconnect(timeout=30, interval=0.2)
        plug_in.join()
        resumed = next(mic)
        assert resumed.time == pytest.approx(before[-1].time + before[-1].duration, abs=0.05)
        feeder.play_file(speech_wav)
        after = read_until(mic, resumed.time + 3)
    finally:
        mic.close()
    assert max(abs(samples(b"".join(c.pcm for c in after)))) > 5000  # the plugged-in microphone is heard


def test_a_reader_too_slow_for_the_microphone_is_told_about_lost_sound(pulse, feeder):
    notices: list[str] = []
    mic = MicrophoneSource(PORTAUDIO_DEVICE, buffer_seconds=0.3, notice=notices.append)
    try:
        next(mic)
        time.sleep(1.0)  # nobody reads: the queue fills and the microphone's blocks are lost
        next(mic)
    finally:
        mic.close()
    assert mic.overflows > 0
    assert len(notices) == 1 and "lost sound" in notices[0]


def test_a_reader_that_fell_behind_gets_what_waited_in_one_chunk(pulse, feeder):
    """A decode that took half a second: the blocks that came meanwhile come as one chunk, and the
    stream's clock goes on without a gap."""
    mic = MicrophoneSource(PORTAUDIO_DEVICE, rate=16000, block_ms=30)
    try:
        before = read_until(mic, 0.3)[-1]
        time.sleep(0.5)
        waited, after = next(mic), next(mic)
    finally:
        mic.close()
    assert mic.overflows == 0
    assert waited.time == pytest.approx(before.time + before.duration, abs=1e-6)
    assert waited.duration >= 0.4 and after.duration < 0.1
    assert after.time == pytest.approx(waited.time + waited.duration, abs=1e-6)


def test_a_lost_microphone_is_told_in_the_games_language(pulse, feeder):
    """The device's name keeps its own case at the start of the sentence."""
    mic = MicrophoneSource(PORTAUDIO_DEVICE, lost_after=0.5)
    try:
        read_until(mic, 0.5)
        pulse.unload_mic()
        with speaking(translations("es")):
            with pytest.raises(MicrophoneLost) as stopped:
                read_until(mic, 60)
            with pytest.raises(MicrophoneLost) as gone:
                next(mic)
    finally:
        mic.close()
    assert str(stopped.value) == f"El micrófono '{PORTAUDIO_DEVICE}' ha dejado de enviar sonido: ¿sigue conectado?"
    assert str(gone.value) == f"El micrófono '{PORTAUDIO_DEVICE}' no está conectado: esperando a que vuelva."


def test_an_unknown_microphone_is_refused_with_what_to_do(pulse):
    with pytest.raises(DeviceNotFound, match="storyhost devices"):
        MicrophoneSource("no such microphone")
    with pytest.raises(DeviceNotFound, match="number 999"):
        MicrophoneSource(999)


def test_closing_ends_iteration(pulse, feeder):
    mic = MicrophoneSource(PORTAUDIO_DEVICE)
    next(mic)
    mic.close()
    assert list(mic) == []
