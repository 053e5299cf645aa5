"""What storyhost says out loud: pyttsx3 (espeak-ng on Linux), or printed lines without TTS.

pyttsx3 is not thread-safe and its espeak driver (2.99) is fragile: it initialises espeak once
per process, loops forever when run with nothing to say, prints "Audio saved to ..." on stdout,
and its runAndWait() returns before a long text's WAV file is written (espeak synthesises on its
own thread; only the 'finished-utterance' notification marks the end). So the engine lives
alone in a child process that only turns text into WAV files, and one owner thread here takes
requests from a queue, asks for the WAV and plays it through a PortAudio callback (blocking
writes stall for two seconds on ALSA's PulseAudio plugin). Owning the playback is what makes
speech interruptible and tells the microphone gate exactly when sound is coming out.
"""
from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Protocol

import numpy as np

from games.language import _
from host.audio.devices import AudioDeviceError, find_device, notice_on_stderr, portaudio

TONE_RATE = 22050
# Earcons: notes of (frequency in Hz, seconds); frequency 0 is a pause.
EARCONS: dict[str, tuple[tuple[int, float], ...]] = {
    "tick": ((1320, 0.06),),
    "warning": ((660, 0.12), (0, 0.08), (660, 0.12)),
    "wrong": ((330, 0.15), (220, 0.25)),
}
SYNTHESIS_TIMEOUT = 30.0
PLAY_PADDING = 0.3  # seconds of silence after each sound
MIN_RATE, DEFAULT_RATE, MAX_RATE = 80, 175, 450  # words a minute; espeak-ng speaks 175 by default


class SpeakerError(RuntimeError):
    """Speech cannot be set up as asked; the message says what to change."""


def check_rate(rate: int | None) -> None:
    if rate is not None and not MIN_RATE <= rate <= MAX_RATE:
        raise SpeakerError(_("A speech rate of {rate} words a minute cannot be understood: choose one from {low} to "
                             "{high}.").format(rate=rate, low=MIN_RATE, high=MAX_RATE))


class UnknownVoice(SpeakerError):
    """espeak-ng has no voice of the name asked for; `voices` are those it has for the game's
    language. The synthesis process finds out and the host says it, in the game's language
    (`_start_worker`)."""

    def __init__(self, wanted: str, voices: list[str]):
        offered = (_("There is no voice '{voice}': try one of {voices} ('espeak-ng --voices' lists all).") if voices else
                   _("There is no voice '{voice}' ('espeak-ng --voices' lists those there are)."))
        super().__init__(offered.format(voice=wanted, voices=", ".join(voices)))
        self.voices = voices


class SpeakerUnavailable(SpeakerError):
    """No text-to-speech engine works on this machine."""


class Speaker(Protocol):
    @property
    def speaking(self) -> bool:
        """Sound is coming out now."""

    @property
    def last_ended(self) -> float:
        """time.monotonic() when sound last stopped coming out: -inf before the first, inf
        while it is coming out."""

    @property
    def sound_intervals(self) -> tuple[tuple[float, float], ...]:
        """The latest (start, end) times, time.monotonic(), when sound came out; end is inf
        while it still does. What host.audio.sources.MicGate reads."""

    def say(self, text: str, interrupt: bool = False) -> None:
        """Queue `text`; with `interrupt`, first stop what is being said and drop what is queued."""

    def earcon(self, name: str) -> None:
        """Queue one of the short tones in EARCONS."""

    def set_rate(self, rate: int) -> None:
        """Speak at `rate` words a minute from the next utterance on (SpeakerError if unusable)."""

    def wait(self, timeout: float | None = None) -> bool:
        """Until everything queued has been said; False if `timeout` passed first."""

    def stop(self) -> None:
        """Stop speaking now and drop everything queued."""

    def close(self) -> None: ...


def tone(name: str, rate: int = TONE_RATE) -> np.ndarray:
    """An earcon as 16-bit samples, with 5 ms ramps so that it starts and ends without a click."""
    if name not in EARCONS:
        raise ValueError(f"unknown earcon {name!r}; known: {', '.join(EARCONS)}")
    parts = []
    for frequency, seconds in EARCONS[name]:
        t = np.arange(int(rate * seconds)) / rate
        ramp = np.clip(np.minimum(t, seconds - t) / 0.005, 0, 1)
        parts.append(np.sin(2 * np.pi * frequency * t) * ramp)
    return (np.concatenate(parts) * 0.4 * 32767).astype(np.int16)


class PrintSpeaker:
    """Prints what would be said. Earcons are silent: this is the speaker for a machine with no
    text-to-speech, where the text host already shows everything."""

    speaking = False
    last_ended = float("-inf")
    sound_intervals: tuple[tuple[float, float], ...] = ()

    def __init__(self, write: Callable[[str], None] = print) -> None:
        self.write = write

    def say(self, text: str, interrupt: bool = False) -> None:
        self.write(text)

    def earcon(self, name: str) -> None:
        tone(name)  # an unknown name is still a mistake worth hearing about

    def set_rate(self, rate: int) -> None:
        check_rate(rate)

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


class _Voice(Protocol):
    """A voice as pyttsx3 lists it."""

    id: str
    name: str


def _resolve_voice(voices: list[_Voice], wanted: str, language: str) -> str:
    """A pyttsx3 voice id from an id ('gmw/en-us'), its last part ('en-us') or its name, with
    an espeak-ng variant if asked for ('en-us+f2'); UnknownVoice offering `language`'s voices
    ('es' and 'es-419' for Spanish) when there is none."""
    key, plus, variant = wanted.strip().casefold().partition("+")
    for voice in voices:
        if key in (voice.id.casefold(), voice.id.rsplit("/", 1)[-1].casefold(), voice.name.casefold()):
            return voice.id + plus + variant
    short = (voice.id.rsplit("/", 1)[-1] for voice in voices)
    raise UnknownVoice(wanted, sorted(name for name in short if name == language or name.startswith(language + "-")))


def _synthesis_main() -> None:
    """The child process that owns the pyttsx3 engine. Its settings come as JSON in argv[1];
    each request is a JSON line {"text", "path"} on stdin, answered by one line on its stdout."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the espeak driver prints a line per file saved
    settings = json.loads(sys.argv[1])

    def reply(kind: str, message: str = "") -> None:
        replies.write(json.dumps({"kind": kind, "message": message}) + "\n")

    try:
        import pyttsx3

        engine = pyttsx3.init()
        if settings["voice"] is not None:
            engine.setProperty("voice", _resolve_voice(engine.getProperty("voices"), settings["voice"],
                                                       settings["language"]))
        if settings["rate"] is not None:
            engine.setProperty("rate", settings["rate"])
    except UnknownVoice as error:
        reply("no voice", json.dumps(error.voices))
        return
    except Exception as error:  # no espeak-ng library, a broken driver: all mean "no TTS here"
        reply("unavailable", f"{type(error).__name__}: {error}")
        return
    finished = threading.Event()
    engine.connect("finished-utterance", lambda **_: finished.set())
    reply("ready")
    for line in sys.stdin:
        request = json.loads(line)
        finished.clear()
        try:
            if request.get("rate") not in (None, settings["rate"]):  # only a change: pyttsx3 queues it
                engine.setProperty("rate", request["rate"])
                settings["rate"] = request["rate"]
            engine.save_to_file(request["text"], request["path"])
            engine.runAndWait()
        except Exception as error:
            reply("error", f"{type(error).__name__}: {error}")
            continue
        reply("done" if finished.wait(SYNTHESIS_TIMEOUT) else "unfinished")


def _answer(worker: subprocess.Popen[str], silence: str) -> tuple[str, str]:
    """The synthesis process's next reply, or ("unavailable", why) if none comes; `silence`
    says why when it is still running."""
    assert worker.stdout is not None
    ready, _unwritten, _failed = select.select([worker.stdout], [], [], SYNTHESIS_TIMEOUT)
    line = worker.stdout.readline() if ready else ""
    if not line:
        status = worker.poll()
        return "unavailable", silence if status is None else _("it ended with status {status}").format(status=status)
    answer = json.loads(line)
    return answer["kind"], answer["message"]


class Pyttsx3Speaker:
    """Speech through pyttsx3, played on `device` (PortAudio's default output if None).

    `rate` is in words a minute (espeak-ng's default is 175-200); `voice` an espeak-ng voice
    such as 'en-us', by default the voice of `language` (espeak-ng's 'es' for Spanish: Spain's;
    English: pyttsx3's default, espeak-ng's 'en'). With `record_to`, every utterance is also kept there as 0001.wav, 0002.wav,
    ...; with `play=False` nothing is played (for headless recording). Without an output device
    speech is silent, said once through `notice`, and the game goes on.
    """

    def __init__(
        self,
        rate: int | None = None,
        voice: str | None = None,
        device: str | int | None = None,
        record_to: Path | None = None,
        play: bool = True,
        notice: Callable[[str], None] = notice_on_stderr,
        language: str = "en",
    ) -> None:
        check_rate(rate)
        voice = voice if voice is not None or language == "en" else language
        self.rate = rate
        output = find_device(device, "output") if play else None
        self.device = None if output is None else output.index
        self.play = play
        self.notice = notice
        self.record_to = record_to
        if record_to is not None:
            record_to.mkdir(parents=True, exist_ok=True)
        self._worker = self._start_worker(rate, voice, language)
        self._scratch = tempfile.TemporaryDirectory(prefix="storyhost-speech-")
        self._queue: queue.Queue[tuple[int, str, str] | None] = queue.Queue()
        self._state = threading.Condition()
        self._generation = 0  # stop() moves it on: what was queued or playing before is dropped
        self._pending = 0
        self._intervals: deque[tuple[float, float]] = deque(maxlen=16)
        self._said = 0
        self._failed: set[str] = set()  # notices given once
        self._owner = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._owner.start()

    @staticmethod
    def _start_worker(rate: int | None, voice: str | None, language: str) -> subprocess.Popen[str]:
        # A fresh interpreter rather than multiprocessing: spawning re-runs an unguarded __main__.
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        worker = subprocess.Popen(
            [sys.executable, "-c", "from host.audio.speaker import _synthesis_main; _synthesis_main()",
             json.dumps({"rate": rate, "voice": voice, "language": language})],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        kind, message = _answer(worker, _("it did not start"))
        if kind == "ready":
            return worker
        worker.kill()
        worker.wait()
        if kind == "no voice":
            raise UnknownVoice(str(voice), json.loads(message))
        raise SpeakerUnavailable(_("Text-to-speech does not work here (pyttsx3: {reason}): install the Debian package "
                                   "espeak-ng to hear storyhost.").format(reason=message))

    @property
    def speaking(self) -> bool:
        return self.last_ended == float("inf")

    @property
    def last_ended(self) -> float:
        intervals = self.sound_intervals
        return intervals[-1][1] if intervals else float("-inf")

    @property
    def sound_intervals(self) -> tuple[tuple[float, float], ...]:
        return tuple(self._intervals)

    def set_rate(self, rate: int) -> None:
        """Speak at `rate` words a minute from the next utterance on."""
        check_rate(rate)
        self.rate = rate

    def say(self, text: str, interrupt: bool = False) -> None:
        if interrupt:
            self.stop()
        if text.strip():  # pyttsx3 waits forever for an empty utterance
            self._submit("say", text)

    def earcon(self, name: str) -> None:
        tone(name)
        self._submit("earcon", name)

    def _submit(self, kind: str, payload: str) -> None:
        with self._state:
            self._pending += 1
            self._queue.put((self._generation, kind, payload))

    def wait(self, timeout: float | None = None) -> bool:
        with self._state:
            return self._state.wait_for(lambda: self._pending == 0, timeout)

    def stop(self) -> None:
        with self._state:
            self._generation += 1

    def close(self) -> None:
        self.stop()
        self._queue.put(None)
        self._owner.join(timeout=10)
        try:
            self._worker.communicate(timeout=5)  # closes its stdin: it ends
        except subprocess.TimeoutExpired:
            self._worker.kill()
            self._worker.wait()
        self._scratch.cleanup()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            generation, kind, payload = item
            try:
                if generation == self._generation:
                    if kind == "say":
                        samples, rate = self._synthesise(payload)
                    else:
                        samples, rate = tone(payload), TONE_RATE
                    if self.play and generation == self._generation:
                        self._play_through(samples, rate, generation, muting=kind == "say")
            except SpeakerError as error:
                self._notice_once(str(error))
            except Exception as error:  # this thread must outlive any one sound: wait() counts on it
                self._notice_once(_("Could not play a sound ({error}).").format(error=f"{type(error).__name__}: {error}"))
            finally:
                with self._state:
                    self._pending -= 1
                    self._state.notify_all()

    def _synthesise(self, text: str) -> tuple[np.ndarray, int]:
        import soundfile

        self._said += 1
        folder = self.record_to or Path(self._scratch.name)
        path = folder / f"{self._said:04d}.wav"
        assert self._worker.stdin is not None
        try:
            self._worker.stdin.write(json.dumps({"text": text, "path": str(path), "rate": self.rate}) + "\n")
            self._worker.stdin.flush()
        except OSError:
            pass  # it died: _answer says so
        kind, message = _answer(self._worker, _("it stopped answering"))
        if kind == "unavailable":
            raise SpeakerError(_("Text-to-speech stopped working ({reason}): storyhost goes on without speech.").format(
                reason=message))
        if kind != "done":
            reason = _("espeak-ng did not finish") if kind == "unfinished" else message
            raise SpeakerError(_("Could not say '{text}': {reason}.").format(text=text, reason=reason))
        samples, rate = soundfile.read(path, dtype="int16")
        if self.record_to is None:
            path.unlink()
        return samples, rate

    def _play_through(self, samples: np.ndarray, rate: int, generation: int, muting: bool) -> None:
        """Play, once more on a new stream if the output stalled: the table must hear it."""
        for attempt in range(2):
            if self._play(samples, rate, generation, muting) or generation != self._generation:
                return
            self.notice(_("The sound output stalled: saying it again.") if attempt == 0 else
                        _("The sound output stalled: this line was not heard."))

    def _play(self, samples: np.ndarray, rate: int, generation: int, muting: bool) -> bool:
        """Play; False if the output stalled (no end within 5 s of the sound's length). `muting` sounds
        (speech) are recorded in `sound_intervals` for the microphone gate. Earcons are not: a
        short beep would otherwise deafen the host for most of a second after every tick, and
        the recognizer does not take a beep for a word."""
        try:
            sd = portaudio()
        except AudioDeviceError as error:
            self._notice_once(str(error))
            return True
        position = 0
        finished = threading.Event()

        def fill(out: np.ndarray, frames: int, time_info: object, status: object) -> None:  # PortAudio's thread: slicing only
            nonlocal position
            block = samples[position:position + frames]
            out[:len(block), 0] = block
            out[len(block):] = 0
            position += frames
            if position >= len(samples):
                raise sd.CallbackStop  # finished_callback follows once the last block was played

        try:
            samples, rate = self._fit_rate(sd, samples, rate)
            # Closing the stream drops what PulseAudio still holds: trailing silence keeps the
            # last syllable. Through ALSA's PulseAudio plugin, 0.2 s of latency primed by the
            # callback plays without underruns (shorter ones print "underrun occurred" lines).
            samples = np.concatenate([samples, np.zeros(round(rate * PLAY_PADDING), np.int16)])
            with sd.OutputStream(device=self.device, samplerate=rate, channels=1, dtype="int16", latency=0.2,
                                 prime_output_buffers_using_stream_callback=True,
                                 callback=fill, finished_callback=finished.set) as stream:
                if muting:
                    self._intervals.append((time.monotonic(), float("inf")))
                deadline = time.monotonic() + len(samples) / rate + 5
                while not finished.wait(0.02):
                    stalled = time.monotonic() > deadline
                    if stalled or generation != self._generation:  # stop(): drop what is buffered too
                        stream.abort()
                        return not stalled
        except (sd.PortAudioError, ValueError) as error:  # ValueError: no default output device
            self._notice_once(_("No sound output ({error}): storyhost is silent; 'storyhost devices' lists the "
                                "speakers.").format(error=error))
            return True
        finally:
            if muting and self.speaking:
                self._intervals[-1] = (self._intervals[-1][0], time.monotonic())
        return True

    def _fit_rate(self, sd: ModuleType, samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
        """The samples at a rate the output device takes: their own, or else its default rate."""
        try:
            sd.check_output_settings(device=self.device, samplerate=rate, channels=1, dtype="int16")
            return samples, rate
        except sd.PortAudioError:
            import soxr

            device_rate = round(sd.query_devices(self.device, "output")["default_samplerate"])
            return soxr.resample(samples, rate, device_rate), device_rate

    def _notice_once(self, line: str) -> None:
        if line not in self._failed:
            self._failed.add(line)
            self.notice(line)


def open_speaker(
    kind: str | None = None,
    *,
    rate: int | None = None,
    voice: str | None = None,
    device: str | int | None = None,
    notice: Callable[[str], None] = notice_on_stderr,
    language: str = "en",
) -> Speaker:
    """'pyttsx3', 'print', or None for pyttsx3 falling back to printing with a one-line notice;
    its voice is `language`'s unless `voice` is given (see Pyttsx3Speaker)."""
    if kind == "print":
        return PrintSpeaker()
    if kind not in (None, "pyttsx3"):
        raise SpeakerError(_("There is no speaker '{kind}': choose pyttsx3 or print.").format(kind=kind))
    try:
        return Pyttsx3Speaker(rate=rate, voice=voice, device=device, notice=notice, language=language)
    except SpeakerUnavailable as error:
        if kind == "pyttsx3":
            raise
        notice(_("{error} Printing what it says instead.").format(error=error))
        return PrintSpeaker()
