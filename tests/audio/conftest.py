"""Fixtures for tests through real audio devices: a private PulseAudio with a virtual microphone.

Without PulseAudio installed these tests are skipped on a developer's machine, but fail in CI
(CI=true), where a skip would hide a missing install step.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.audio.pulse import MicFeeder, PulseAudio, PulseUnavailable

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "Once upon a time a polar bear found a golden key under the frozen river."


@pytest.fixture(scope="session")
def pulse_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PulseAudio]:
    server = PulseAudio(tmp_path_factory.mktemp("pulse"))
    try:
        server.start()
    except PulseUnavailable as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(str(error))
    yield server
    server.stop()


@pytest.fixture
def pulse(pulse_server: PulseAudio) -> Iterator[PulseAudio]:
    """The daemon, with this process's PortAudio pointed at it for the test."""
    with pulse_server.activate():
        yield pulse_server


@pytest.fixture
def feeder(pulse: PulseAudio) -> Iterator[MicFeeder]:
    mic = pulse.feeder()
    yield mic
    mic.stop()
    if not pulse.mic_plugged:  # a test that unplugged the microphone leaves it plugged in again
        pulse.load_mic()


def espeak(text: str, path: Path) -> Path:
    subprocess.run(["espeak-ng", "-w", str(path), text], check=True)
    return path


@pytest.fixture(scope="session")
def speech_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About four seconds of synthesized speech, 22050 Hz mono WAV."""
    return espeak(SENTENCE, tmp_path_factory.mktemp("speech") / "sentence.wav")


@pytest.fixture
def without_devices() -> Callable[[str], subprocess.CompletedProcess[str]]:
    """Runs Python code in a process whose PortAudio reaches no PulseAudio. Here that means no
    sound device at all; a machine with sound cards of its own skips the test."""
    env = dict(os.environ, PULSE_SERVER="unix:/nonexistent/storyhost", PYTHONPATH=str(ROOT))
    probe = "import sounddevice, sys; sys.exit(len(sounddevice.query_devices()))"
    if subprocess.run([sys.executable, "-c", probe], env=env, timeout=60).returncode:
        pytest.skip("this machine has sound devices of its own")

    def run(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)

    return run
