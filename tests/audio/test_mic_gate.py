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


def chunk(captured_at: float) -> AudioChunk:
    return AudioChunk(bytes(960), 16000, 0.0, captured_at)  # 30 ms


def test_chunks_captured_while_speaking_or_within_the_tail_are_dropped():
    talker = Talker()
    gate = MicGate(talker, tail=0.3)
    assert gate.admits(chunk(100.0))
    talker.sound_intervals = ((100.5, float("inf")),)
    assert gate.admits(chunk(100.49))  # the player's last words before the host spoke, read late
    assert not gate.admits(chunk(100.51))
    talker.sound_intervals = ((100.5, 101.0),)
    assert not gate.admits(chunk(100.9))  # heard during the speech, read after it: still the host
    assert not gate.admits(chunk(101.32))  # began within the tail
    assert gate.admits(chunk(101.34))
    talker.sound_intervals = ((100.5, 101.0), (105.0, 106.0))
    assert not gate.admits(chunk(100.8))  # an earlier utterance counts too
    assert gate.admits(chunk(103.0))
    assert gate.dropped == 4
    assert [c.captured_at for c in gate.filter([chunk(101.1), chunk(102.0)])] == [102.0]


@pytest.mark.slow
def test_a_microphone_that_hears_the_speaker_gets_nothing_of_its_speech_through_the_gate(pulse, monkeypatch):
    # The microphone is the speaker's own output (the null sink's monitor): a laptop with no echo
    # cancellation, at its worst.
    monkeypatch.setenv("PULSE_SOURCE", MONITOR)
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE)
    mic = MicrophoneSource(PORTAUDIO_DEVICE, lost_after=5)  # an idle null sink sends its monitor 2 s blocks
    gate = MicGate(speaker, tail=0.3)
    heard, admitted = [], []
    try:
        for piece in mic:  # sound flows before the host speaks
            if piece.time > 0.5:
                break
        speaker.say("Once upon a time there was a polar bear.")
        for piece in mic:
            heard.append(piece)
            if gate.admits(piece):
                admitted.append(piece)
            if speaker.wait(0) and time.monotonic() > speaker.last_ended + 1.0:
                break
    finally:
        mic.close()
        speaker.close()

    def loudest(chunks: list[AudioChunk]) -> int:
        return int(np.abs(np.frombuffer(b"".join(c.pcm for c in chunks), dtype="<i2")).max())

    assert loudest(heard) > 5000  # the microphone did hear the speech
    assert loudest(admitted) < 100  # none of it came through
    assert any(c.captured_at > speaker.last_ended + 0.3 for c in admitted)  # listening again after the tail
