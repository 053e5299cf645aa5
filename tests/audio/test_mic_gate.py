"""MicGate: the microphone hears nothing of what the host says, nor the moment after."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pytest

from host.audio.sources import AudioChunk, MicGate, MicrophoneSource
from host.audio.speaker import Pyttsx3Speaker
from tests.audio.pulse import MONITOR, PORTAUDIO_DEVICE


@dataclass
class Talker:
    """A SpeakingState written by hand."""

    sound_intervals: tuple[tuple[float, float], ...] = ()


def chunk(captured_at: float, seconds: float = 0.03) -> AudioChunk:
    """`seconds` of a loud tone (every sample 1000) whose last sample was heard at `captured_at`."""
    return AudioChunk(np.full(round(seconds * 16000), 1000, "<i2").tobytes(), 16000, 0.0, captured_at)


def kept(gate: MicGate, piece: AudioChunk) -> np.ndarray:
    """Which samples of the chunk the gate let through."""
    muted = gate.mute(piece)
    assert len(muted.pcm) == len(piece.pcm) and muted.time == piece.time and muted.captured_at == piece.captured_at
    return np.frombuffer(muted.pcm, "<i2") != 0


def test_sound_captured_while_speaking_or_within_the_tail_is_silenced():
    talker = Talker()
    gate = MicGate(talker, tail=0.3)
    assert kept(gate, chunk(100.0)).all()
    talker.sound_intervals = ((100.5, float("inf")),)
    assert kept(gate, chunk(100.49)).all()  # the player's last words before the host spoke, read late
    assert not kept(gate, chunk(100.53)).any()
    talker.sound_intervals = ((100.5, 101.0),)
    assert not kept(gate, chunk(100.9)).any()  # heard during the speech, read after it: still the host
    assert not kept(gate, chunk(101.3)).any()  # within the tail
    assert kept(gate, chunk(101.34)).all()
    talker.sound_intervals = ((100.5, 101.0), (105.0, 106.0))
    assert not kept(gate, chunk(100.8)).any()  # an earlier utterance counts too
    assert kept(gate, chunk(103.0)).all()
    assert gate.muted == 4


def test_a_long_chunk_read_late_loses_only_what_was_heard_while_the_host_spoke():
    """A second and a half handed over at once (a reader that fell behind) across the host's
    speech: the player's sound before it and after the tail is kept, sample by sample."""
    gate = MicGate(Talker(((100.5, 100.8),)), tail=0.3)
    times = 100.0 + np.arange(24000) / 16000  # when each sample was heard
    assert (kept(gate, chunk(101.5, seconds=1.5)) == ((times < 100.5) | (times >= 101.1))).all()
    assert gate.muted == 1


@pytest.mark.slow
def test_a_microphone_that_hears_the_speaker_gets_nothing_of_its_speech_through_the_gate(pulse, monkeypatch):
    # The microphone is the speaker's own output (the null sink's monitor): a laptop with no echo
    # cancellation, at its worst.
    monkeypatch.setenv("PULSE_SOURCE", MONITOR)
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE)
    mic = MicrophoneSource(PORTAUDIO_DEVICE, lost_after=5)  # an idle null sink sends its monitor 2 s blocks
    gate = MicGate(speaker, tail=0.3)
    heard: list[AudioChunk] = []
    admitted: list[AudioChunk] = []
    try:
        for piece in mic:  # sound flows before the host speaks
            if piece.time > 0.5:
                break
        speaker.say("Once upon a time there was a polar bear.")
        for piece in mic:
            heard.append(piece)
            admitted.append(gate.mute(piece))
            if speaker.wait(0) and time.monotonic() > speaker.last_ended + 1.0:
                break
    finally:
        mic.close()
        speaker.close()

    def loudest(chunks: list[AudioChunk]) -> int:
        return int(np.abs(np.frombuffer(b"".join(c.pcm for c in chunks), dtype="<i2")).max())

    assert loudest(heard) > 5000  # the microphone did hear the speech
    assert loudest(admitted) < 100  # none of it came through
    after = chunk(speaker.last_ended + 0.4)
    assert gate.mute(after).pcm == after.pcm  # listening again after the tail
