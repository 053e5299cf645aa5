"""Speakers: pyttsx3 speech played to PulseAudio's null sink and recorded from its monitor."""
from __future__ import annotations

import time

import pytest
import soundfile

from games.language import speaking
from host.audio.speaker import (
    EARCONS, PrintSpeaker, Pyttsx3Speaker, SpeakerError, SpeakerUnavailable, UnknownVoice, open_speaker, tone,
)
from host.storage.catalogs import translations
from tests.audio.pulse import PORTAUDIO_DEVICE, SINK
from tests.audio.signals import audible_seconds

LONG = ("The bear walked across the frozen river, past the old mill and the sleeping village, "
        "until he reached the edge of the dark forest where the wolves were waiting.")


def wav_seconds(path) -> float:
    return soundfile.info(str(path)).duration


@pytest.mark.slow
def test_speech_reaches_the_output_device_and_is_recorded(pulse, tmp_path):
    monitor = pulse.recorder()
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE, record_to=tmp_path)
    try:
        started = time.monotonic()
        speaker.say("Once upon a time there was a polar bear.")
        seen_speaking = False
        while not speaker.wait(0.02):
            seen_speaking |= speaker.speaking
    finally:
        speaker.close()
    heard = monitor.stop()
    said = tmp_path / "0001.wav"
    assert seen_speaking and not speaker.speaking
    assert speaker.last_ended > started
    assert wav_seconds(said) > 1.0
    assert audible_seconds(heard, 16000) > 0.8 * wav_seconds(said) - 0.5  # the whole sentence came out


@pytest.mark.slow
def test_stop_interrupts_speech_and_drops_what_was_queued(pulse, tmp_path):
    monitor = pulse.recorder()
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE, record_to=tmp_path)
    try:
        speaker.say(LONG)
        speaker.say("This sentence is never said.")
        while not speaker.speaking:
            time.sleep(0.01)
        time.sleep(1.0)
        speaker.stop()
        assert speaker.wait(5)
    finally:
        speaker.close()
    heard = monitor.stop()
    assert [p.name for p in tmp_path.iterdir()] == ["0001.wav"]  # the second was never synthesized
    assert wav_seconds(tmp_path / "0001.wav") > 6
    assert audible_seconds(heard, 16000) < 3  # of more than six seconds


@pytest.mark.slow
def test_saying_with_interrupt_replaces_what_is_being_said(pulse, tmp_path):
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE, record_to=tmp_path)
    try:
        speaker.say(LONG)
        while not speaker.speaking:
            time.sleep(0.01)
        speaker.say("Time is up.", interrupt=True)
        assert speaker.wait(15)
    finally:
        speaker.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0001.wav", "0002.wav"]
    assert wav_seconds(tmp_path / "0002.wav") < 2


def test_rate_and_voice_change_the_speech_recorded_headless(tmp_path):
    durations = {}
    for rate in (120, 300):
        speaker = Pyttsx3Speaker(rate=rate, voice="en-us", record_to=tmp_path / str(rate), play=False)
        try:
            speaker.say(LONG)
            assert speaker.wait(15)
        finally:
            speaker.close()
        durations[rate] = wav_seconds(tmp_path / str(rate) / "0001.wav")
    assert durations[120] > 1.8 * durations[300]


def test_settings_that_cannot_work_are_refused_with_what_to_do():
    with pytest.raises(SpeakerError, match="no voice 'elvish'.*en-us"):
        Pyttsx3Speaker(voice="elvish", play=False)
    with pytest.raises(SpeakerError, match="from 80 to 450"):
        Pyttsx3Speaker(rate=2000, play=False)
    with pytest.raises(SpeakerError, match="pyttsx3 or print"):
        open_speaker("festival")


@pytest.mark.parametrize(("language", "refusal"), [
    ("es", "No hay ninguna voz 'elvish': prueba una de es, es-419 ('espeak-ng --voices' las lista todas)."),
    ("de", "Es gibt keine Stimme 'elvish': Versuch eine von de ('espeak-ng --voices' listet alle auf)."),
])
def test_an_unknown_voice_is_refused_with_the_voices_of_the_games_language(language, refusal):
    with speaking(translations(language)), pytest.raises(SpeakerError) as refused:
        Pyttsx3Speaker(voice="elvish", play=False, language=language)
    assert str(refused.value) == refusal


def test_an_unknown_voice_in_a_language_without_voices_points_to_the_list():
    with speaking(translations("es")):
        assert str(UnknownVoice("elvish", [])) == "No hay ninguna voz 'elvish' ('espeak-ng --voices' lista las que hay)."


@pytest.fixture
def no_tts(tmp_path, monkeypatch):
    """A machine without espeak-ng, which cannot exist here: the speech process finds a pyttsx3
    whose driver fails to load its library, as the real one does when libespeak-ng is missing."""
    fake = tmp_path / "no_tts" / "pyttsx3"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "def init(*args, **kwargs):\n"
        "    raise OSError('libespeak-ng.so.1: cannot open shared object file: No such file or directory')\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(fake.parent))


def test_without_tts_storyhost_prints_and_says_why_once(no_tts, capsys):
    notices: list[str] = []
    speaker = open_speaker(None, notice=notices.append)
    assert isinstance(speaker, PrintSpeaker)
    assert len(notices) == 1 and "espeak-ng" in notices[0] and "Printing" in notices[0]
    with pytest.raises(SpeakerUnavailable, match="install the Debian package espeak-ng"):
        open_speaker("pyttsx3")


def test_without_tts_the_notice_is_in_the_games_language(no_tts):
    notices: list[str] = []
    with speaking(translations("es")):
        assert isinstance(open_speaker(None, notice=notices.append, language="es"), PrintSpeaker)
    assert notices == ["La síntesis de voz no funciona aquí (pyttsx3: OSError: libespeak-ng.so.1: cannot open shared "
                       "object file: No such file or directory): instala el paquete de Debian espeak-ng para oír a "
                       "storyhost. En su lugar se escribe lo que dice."]


def test_without_an_output_device_speech_is_silent_and_said_so_once(without_devices):
    done = without_devices(
        "from host.audio.speaker import Pyttsx3Speaker\n"
        "speaker = Pyttsx3Speaker()\n"
        "speaker.say('One.'); speaker.say('Two.'); speaker.earcon('tick')\n"
        "assert speaker.wait(30) and not speaker.sound_intervals\n"
        "speaker.close()\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("No sound output") == 1 and "storyhost devices" in done.stderr


def test_without_an_output_device_the_notice_is_in_the_games_language(without_devices):
    done = without_devices(
        "from games.language import use\n"
        "from host.audio.speaker import Pyttsx3Speaker\n"
        "from host.storage.catalogs import translations\n"
        "use(translations('ca'))\n"
        "speaker = Pyttsx3Speaker(language='ca')\n"
        "speaker.say('Un.'); speaker.say('Dos.')\n"
        "assert speaker.wait(30)\n"
        "speaker.close()\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("No hi ha sortida de so (") == 1, done.stderr
    assert "storyhost està en silenci; 'storyhost devices' llista els altaveus." in done.stderr


def test_the_print_speaker_prints_each_line(capsys):
    speaker = open_speaker("print")
    speaker.say("Your story starts now.")
    speaker.earcon("tick")
    assert speaker.wait(0) and not speaker.speaking
    speaker.close()
    assert capsys.readouterr().out == "Your story starts now.\n"


def test_earcons_are_short_tones_and_unknown_ones_are_refused():
    for name in EARCONS:
        samples = tone(name)
        assert 0.05 < len(samples) / 22050 < 0.5
        peak = int(abs(samples).max())
        assert abs(int(samples[0])) < 0.02 * peak and abs(int(samples[-1])) < 0.02 * peak  # no clicks
    with pytest.raises(ValueError, match="unknown earcon"):
        tone("fanfare")


@pytest.mark.slow
def test_earcons_are_played_on_the_output_device(pulse):
    monitor = pulse.recorder()
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE)
    try:
        speaker.earcon("warning")
        assert speaker.wait(10)
        assert speaker.sound_intervals == ()  # a beep does not mute the microphone
    finally:
        speaker.close()
    assert 0.2 < audible_seconds(monitor.stop(), 16000) < 1.0


@pytest.mark.slow
def test_a_line_lost_in_a_stalled_output_is_said_again(pulse, tmp_path):
    """A sink that stops taking sound (here suspended) gives PortAudio no error: the stream
    just never ends. The speaker notices, says so, and says the line again on a new stream."""
    notices: list[str] = []
    speaker = Pyttsx3Speaker(device=PORTAUDIO_DEVICE, notice=notices.append)
    monitor = None
    try:
        pulse.pactl("suspend-sink", SINK, "1")
        speaker.say("Once upon a time there was a polar bear.")
        deadline = time.monotonic() + 30
        while not notices and time.monotonic() < deadline:
            time.sleep(0.05)
        pulse.pactl("suspend-sink", SINK, "0")
        monitor = pulse.recorder()
        assert speaker.wait(30)
    finally:
        pulse.pactl("suspend-sink", SINK, "0")
        speaker.close()
    heard = monitor.stop() if monitor else b""
    assert notices == ["The sound output stalled: saying it again."]
    assert audible_seconds(heard, 16000) > 1.0
