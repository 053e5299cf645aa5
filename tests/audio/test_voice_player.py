"""The audio-only player: it hears the host's loudspeaker and speaks into the microphone."""
from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from host.speech.registry import open_recognizer
from tests.audio.pulse import MIC, MicFeeder, PulseAudio
from tests.audio.test_live_round import LiveHost
from tests.audio.voice_player import NotHeard, VoicePlayer, _after, _number
from tests.speech.audio import finals, stream


class TimedHost(LiveHost):
    """LiveHost that notes when each line was printed (for latency figures and failures only:
    the player never reads them)."""

    def __init__(self, *args, **kwargs) -> None:
        self.printed: list[tuple[float, str]] = []
        super().__init__(*args, **kwargs)

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.printed.append((time.monotonic(), line.rstrip("\n")))
            self.lines.append(line.rstrip("\n"))


@pytest.fixture
def player(pulse: PulseAudio, feeder: MicFeeder, tmp_path_factory: pytest.TempPathFactory):
    with VoicePlayer(pulse, feeder, tmp_path_factory.getbasetemp() / "voice-player") as ears_and_mouth:
        yield ears_and_mouth


def test_words_after_a_phrase_and_spoken_numbers():
    assert _after("card", "all votes are in card three cy card for bo") == [["three", "cy", "card", "for", "bo"], ["for", "bo"]]
    assert _after("is the", "d four is the mother") == [["mother"]]
    assert _after("is the", "d four is a mother") == []
    assert [_number(w) for w in ("three", "for", "to", "won", "12", "bo")] == [3, 4, 2, 1, 12, None]


@pytest.mark.slow
def test_the_player_hears_the_opening_of_a_stories_game(pulse, player: VoicePlayer, tmp_path):
    began = player.mark()
    host = TimedHost(pulse, tmp_path, "play", "stories", "--speech", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    try:
        # "Stories!, game 1. Players: ... Round 1, ... Nina, choose normal or quirky. Normal side: ...": 14 s of speech
        opening = player.wait_for_speech(quiet=1.5, timeout=45)
        said = sum(u.end - u.start for u in opening)
        assert said > 8, player.transcript(began)
        printed = next(t for t, line in host.printed if "choose normal or quirky" in line)
        assert opening[0].start - printed < 5, (opening[0].start - printed, player.transcript(began))
        # the recognizer keeps up: Whisper transcribes the 14 s utterance in one batch on one thread
        # (2-10 s on a shared 2-core machine)
        assert opening[-1].heard - opening[-1].end < 15, player.transcript(began)
        # understood, in the host's default espeak voice (PocketSphinx heard it with a word error rate of 0.9)
        for phrase in ("nina is the storyteller", "stuck in a traffic jam", "the mirror in the hallway"):
            player.wait_to_hear(phrase, since=began, timeout=1)
        host.type("side Nina normal")  # spoken commands do not exist yet
        player.mark()
        # "Nina chooses the normal side: '...' Everyone else, secretly write 5 terms you expect in the story."
        try:
            heard = player.wait_to_hear("everyone else secretly", timeout=40)
        except NotHeard as error:
            stderr = host.finish()
            raise AssertionError(f"{error}\nThe host printed: {host.printed[-4:]}\nand on stderr: {stderr[-1500:]}") from None
        assert "everyone" in heard
        with pytest.raises(NotHeard, match=r"(?s)waited 1 s to hear 'quirky side'.*everyone.*now"):
            player.wait_to_hear("quirky side", timeout=1)
    finally:
        if host.process.poll() is None:
            host.finish()


@pytest.fixture
def mic_recording(pulse: PulseAudio, tmp_path: Path):
    """Records the microphone, as the host does while it listens: PulseAudio reads the pipe
    source's FIFO only while something records from it, so without this `say` would stall."""
    recording = tmp_path / "mic.raw"
    parec = subprocess.Popen(
        ["parec", f"--device={MIC}", "--raw", "--format=s16le", "--rate=16000", "--channels=1",
         "--latency-msec=20", str(recording)],
        env=os.environ | pulse.env,
    )
    deadline = time.monotonic() + 10
    while not (recording.exists() and recording.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.02)
    yield recording
    parec.terminate()
    parec.wait(timeout=5)


@pytest.mark.slow
def test_what_the_player_says_arrives_in_the_microphone(player: VoicePlayer, mic_recording: Path):
    speech = player.speech("vote three for card four", voice="slt")  # synthesized now: say() is quick
    began = time.monotonic()
    player.say("vote three for card four", voice="slt")
    took = time.monotonic() - began
    assert len(speech) / 32000 <= took < len(speech) / 32000 + 2  # real-time pace, plus the tail
    assert player.said[-1][1] == "vote three for card four"
    heard = " ".join(h.text for h in finals(stream(open_recognizer("pocketsphinx"), mic_recording.read_bytes())))
    assert "three" in heard and "card" in heard, heard


@pytest.mark.slow
def test_the_player_waits_for_the_loudspeaker_to_be_quiet_before_it_speaks(pulse, player: VoicePlayer, mic_recording):
    import numpy as np

    noise = subprocess.Popen(  # two seconds of a loud tone on the loudspeaker
        ["pacat", "--playback", "--raw", "--format=s16le", "--rate=16000", "--channels=1"],
        stdin=subprocess.PIPE, env=os.environ | pulse.env,
    )
    tone = (np.sin(np.arange(32000) * 2 * np.pi * 440 / 16000) * 8000).astype("<i2").tobytes()
    writer = threading.Thread(target=lambda: (noise.stdin.write(tone), noise.stdin.close()))  # type: ignore[union-attr]
    writer.start()
    deadline = time.monotonic() + 5
    while player.quiet_for() > 0.2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert player.quiet_for() < 0.2, "the player did not hear the tone"
    first_heard = time.monotonic()
    began = player.say("yes", voice="slt")
    writer.join()
    noise.wait(timeout=10)
    assert began - player.last_loud >= 0.5
    assert player.last_loud - first_heard > 1.5  # it waited out the whole tone
