"""A live Stories! story through the real pipeline: `storyhost play stories --speech` in a
subprocess, the narration spoken (festival's voice) into a PulseAudio virtual microphone, the
host's own voice going to a null sink whose monitor is recorded."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.audio.pulse import MONITOR, MicFeeder, PulseAudio
from tests.host.cli_helpers import RunningStoryhost, storyhost_env

pytestmark = pytest.mark.slow

# seed 2 deals "We were stuck in a traffic jam for five hours..." first (see tests/host/golden)
SETUP = ["side Nina normal"]
SETUP += [f"term Sabine {t}" for t in ("car", "radio", "police", "sandwich", "bag")]
SETUP += [f"term Stephan {t}" for t in ("car", "brother", "truck", "pizza", "dinosaur")]
# each term is said twice, so one misheard word cannot decide the test
NARRATION = (
    "Dad turned on the radio. The radio was very loud. "
    "The old car was hot, and the car had no air. "
    "Then the police came. The police drove a big truck. "
    "My little brother was hungry. My brother ate a sandwich, and then another sandwich. "
    "He hid the paper in the bag, and the bag was empty."
)


def festival(text: str, path: Path) -> Path:
    subprocess.run(["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", str(path)], input=text.encode(), check=True)
    return path


class LiveHost(RunningStoryhost):
    """The storyhost process on the private PulseAudio, its output collected line by line."""

    def __init__(self, pulse: PulseAudio, data: Path, *args: str, source: str | None = None) -> None:
        super().__init__(args, storyhost_env(data) | pulse.env | ({"PULSE_SOURCE": source} if source else {}))

    def wait_for(self, text: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in self.lines if text in line]
            if found:
                return found[0]
            assert self.process.poll() is None, f"storyhost ended: {self.lines[-5:]} {self.process.stderr.read() if self.process.stderr else ''}"
            time.sleep(0.05)
        raise AssertionError(f"no line with {text!r} within {timeout} s; last lines: {self.lines[-8:]}")

    def finish(self) -> str:
        self.type("quit")
        assert self.process.stdin and self.process.stderr
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self._reader.join(timeout=10)
        return self.process.stderr.read()


@pytest.fixture
def narration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return festival(NARRATION, tmp_path_factory.mktemp("narration") / "story.wav")


@pytest.mark.parametrize("asr", [(), ("--asr", "pocketsphinx")], ids=["default (Whisper)", "pocketsphinx"])
def test_a_story_told_into_the_microphone_is_ticked_stopped_and_scored(pulse, feeder: MicFeeder, narration, tmp_path, asr):
    host = LiveHost(pulse, tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2",
                    "--timer", "60", "--speech", "--input", "pulse", *asr)
    host.wait_for("Nina, choose normal or quirky", 60)
    host.type(*SETUP)
    host.wait_for("Everyone has written 5 terms", 30)
    recording = pulse.recorder()
    host.type("start")
    host.wait_for("The timer runs 60 seconds", 30)
    time.sleep(8)  # the storyteller waits for the host to finish reading the card
    feeder.play_file(narration)
    stop = host.wait_for("Stop!", 60)
    assert stop.endswith("] Stop! Sabine has ticked all five terms.")  # stamped with its time in the story
    host.type("confirm")
    points = host.wait_for("Points for this story", 30)
    spoken = recording.stop()
    stderr = host.finish()
    # Sabine's five: car (also Stephan's: 2) and four of her own (4 each); Stephan's ticks stop
    # with hers, wherever the story had got to
    review = host.wait_for("The story is over.", 1)
    assert "Sabine ticked all 5: car, radio, police, sandwich and bag." in review
    stephan = review.split("Stephan ticked ")[1].split(";")[0]  # the terms ticked, before the ones not
    assert "pizza" not in stephan and "dinosaur" not in stephan
    assert points.startswith("Points for this story: Sabine 18, Stephan ") and points.endswith("; Nina, the storyteller, 18."), host.lines
    ticks = [line for line in host.lines if "ticks a term" in line]
    assert all("car" not in tick and "radio" not in tick for tick in ticks)  # never the term itself
    assert len(spoken) > 16000 * 2 * 5  # the host spoke: more than five seconds of its voice were played
    assert "Traceback" not in stderr


@pytest.fixture
def sink_running(pulse: PulseAudio):
    """Silence played into the loudspeaker, so that its monitor delivers sound all the time (an
    idle null sink's monitor sends nothing, which storyhost rightly takes for a lost microphone)."""
    zeros = open("/dev/zero", "rb")
    silence = subprocess.Popen(
        ["pacat", "--playback", "--raw", "--format=s16le", "--rate=16000", "--channels=1"],
        stdin=zeros, env=os.environ | pulse.env,
    )
    yield
    silence.terminate()
    silence.wait(timeout=10)
    zeros.close()


def test_the_host_never_ticks_its_own_words(pulse, sink_running, tmp_path):
    """The microphone here is the loudspeaker itself (the null sink's monitor), so everything the
    host says reaches it, like a laptop with no echo cancellation. At 'start' the host reads out
    "The timer runs 60 seconds. Nina tells the story: ..."; the players wrote exactly those words."""
    host = LiveHost(pulse, tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2",
                    "--timer", "20", "--speech", "--input", "pulse", source=MONITOR)
    host.wait_for("Nina, choose normal or quirky", 60)
    host.type("side Nina normal", *[f"term Sabine {t}" for t in ("timer", "second", "story", "tell", "nina")])
    host.type(*[f"term Stephan {t}" for t in ("timer", "run", "sixty", "seconds", "story")])
    host.wait_for("Everyone has written 5 terms", 60)
    host.type("start")
    host.wait_for("The timer runs 20 seconds", 30)
    host.wait_for("Time is up!", 60)
    host.finish()
    assert not [line for line in host.lines if "ticks a term" in line], host.lines


def test_losing_the_microphone_pauses_the_timer_and_says_so(pulse, feeder: MicFeeder, tmp_path):
    host = LiveHost(pulse, tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2",
                    "--timer", "12", "--speech", "--input", "pulse")
    host.wait_for("Nina, choose normal or quirky", 60)
    host.type(*SETUP)
    host.wait_for("Everyone has written 5 terms", 30)
    host.type("start")
    host.wait_for("The timer runs 12 seconds", 30)
    time.sleep(2)
    pulse.unload_mic()
    paused = host.wait_for("The timer is paused until the microphone is back.", 30)
    assert "stopped sending sound" in paused
    time.sleep(15)  # longer than the whole timer: a paused timer does not run out
    assert not [line for line in host.lines if "Time is up!" in line]
    pulse.load_mic()
    host.wait_for("The microphone is back: the story and the timer go on.", 60)
    host.wait_for("Time is up!", 30)
    host.finish()
