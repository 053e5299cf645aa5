"""Where sound comes from: a microphone through PortAudio, or a WAV/FLAC file.

Every source yields `AudioChunk`s of 16-bit mono PCM at the recognizer's rate (16 kHz unless
asked otherwise). The microphone is opened at a rate the device supports, and converted here,
outside PortAudio's callback: the callback only copies bytes into a queue, so a slow recognizer
can never make the sound card lose samples. Resampling uses soxr (PyPI `soxr`, a small wheel
around libsoxr): a streaming resampler that keeps its state from block to block, so 30 ms blocks
join without clicks, at a fraction of scipy's install size.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np

from games.language import _, n_
# AudioDeviceError is re-exported: what a microphone raises comes with the microphone
from host.audio.devices import AudioDeviceError as AudioDeviceError
from host.audio.devices import Device, find_device, notice_on_stderr, portaudio

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

RATE = 16000


class _InputFlags(Protocol):
    """What PortAudio's callback says of a block (sounddevice's CallbackFlags), as read here."""

    input_overflow: bool


@dataclass(frozen=True)
class AudioChunk:
    pcm: bytes  # 16-bit little-endian mono samples
    rate: int
    time: float  # where the chunk starts in the source's audio, in seconds
    captured_at: float  # time.monotonic() when its last sample arrived

    @property
    def duration(self) -> float:
        return len(self.pcm) / 2 / self.rate


class AudioSource(Protocol):
    rate: int

    def __iter__(self) -> Iterator[AudioChunk]: ...

    def close(self) -> None: ...


class Microphone(AudioSource, Protocol):
    """A live source that can be lost (MicrophoneLost while iterating) and opened again."""

    def reconnect(self, timeout: float | None = None, interval: float = 0.5,
                  cancel: threading.Event | None = None) -> bool: ...


#: how long a just-opened microphone may take to deliver its first block before it counts as lost
FIRST_BLOCK_SECONDS = 3.0


class MicrophoneLost(AudioDeviceError):
    """The microphone stopped delivering sound; `MicrophoneSource.reconnect()` waits for it."""


class AudioFileError(ValueError):
    """An audio file cannot be read."""


class _Converter:
    """Native-rate blocks (int16, any channel count) to `rate` mono chunks, block after block."""

    def __init__(self, native_rate: int, channels: int, rate: int, samples_before: int = 0) -> None:
        import soxr

        self.channels = channels
        self.rate = rate
        self._resampler = soxr.ResampleStream(native_rate, rate, 1, dtype="float32")
        self.samples_out = samples_before  # so that time runs on when a new stream continues a source

    def convert(self, samples: np.ndarray, captured_at: float, last: bool = False) -> AudioChunk | None:
        """`samples`: float32 in [-1, 1], shape (frames, channels) or (frames,)."""
        if samples.ndim == 2:
            samples = samples.mean(axis=1, dtype=np.float32) if samples.shape[1] > 1 else samples[:, 0]
        out = self._resampler.resample_chunk(np.ascontiguousarray(samples, dtype=np.float32), last=last)
        if not len(out):
            return None
        pcm = (np.clip(out, -1.0, 1.0) * 32767).astype("<i2").tobytes()
        chunk = AudioChunk(pcm, self.rate, self.samples_out / self.rate, captured_at)
        self.samples_out += len(out)
        return chunk


class MicrophoneSource:
    """A live microphone. Iterating yields chunks as they arrive (about every `block_ms`; what
    arrived while the reader was busy comes as one chunk).

    When no sound arrives for `lost_after` seconds, or PortAudio stops the stream (the device was
    unplugged), iteration raises `MicrophoneLost`; call `reconnect()` and iterate again.
    Overflows (the sound card had to drop samples, or more than `buffer_seconds` of sound waited
    for a reader) are counted in `overflows` and reported through `notice`, at most every 10 s.
    """

    def __init__(
        self,
        device: str | int | None = None,
        rate: int = RATE,
        block_ms: int = 30,
        lost_after: float = 1.0,
        buffer_seconds: float = 10.0,
        notice: Callable[[str], None] = notice_on_stderr,
    ) -> None:
        self.spec = device
        self.rate = rate
        self.block_ms = block_ms
        self.lost_after = lost_after
        self.notice = notice
        self.overflows = 0
        self.native_rate = 0
        blocks = max(1, round(buffer_seconds * 1000 / block_ms))
        self._queue: queue.Queue[tuple[bytes, float]] = queue.Queue(maxsize=blocks)
        self._stream = None
        self._converter: _Converter | None = None
        self._closed = False
        self._last_arrival = 0.0
        self._reported = (0, 0.0)  # overflow count and when it was last reported
        self._open()

    @property
    def name(self) -> str:
        """The microphone as a sentence names it, in the active language: 'the default microphone'."""
        return _("the default microphone") if self.spec is None else _("the microphone '{name}'").format(name=self.spec)

    @property
    def named(self) -> str:
        """`name` starting a sentence: 'The microphone 'USB Mic'' (the device's own capitals kept)."""
        return self.name[:1].upper() + self.name[1:]

    def _open(self) -> None:
        sd = portaudio()
        device = find_device(self.spec, "input")
        rate, channels = self._settings(sd, device)
        blocksize = max(1, round(rate * self.block_ms / 1000))
        try:
            stream = sd.RawInputStream(
                device=None if device is None else device.index, samplerate=rate, channels=channels,
                dtype="int16", blocksize=blocksize, callback=self._callback,
                latency="low",  # small fragments: words reach the recognizer (and ticks the table) sooner
            )
            stream.start()
        except sd.PortAudioError as error:
            raise AudioDeviceError(_("Cannot open {microphone} ({error}): check it is plugged in and not in use.").format(
                microphone=self.name, error=error)) from error
        before = 0 if self._converter is None else self._converter.samples_out
        self._converter = _Converter(rate, channels, self.rate, before)
        self._stream, self.native_rate = stream, rate
        self._last_arrival, self._delivered = time.monotonic(), False

    def _settings(self, sd: ModuleType, device: Device | None) -> tuple[int, int]:
        """A (rate, channels) the device accepts: its own rate first, mono if it can."""
        index = None if device is None else device.index
        try:
            default_rate = round(sd.query_devices(index, "input")["default_samplerate"])
        except (sd.PortAudioError, ValueError) as error:
            raise AudioDeviceError(_("There is no microphone to open ({error}): run 'storyhost devices' to list them.")
                                   .format(error=error)) from error
        for rate, channels in ((default_rate, 1), (self.rate, 1), (default_rate, 2)):
            try:
                sd.check_input_settings(device=index, samplerate=rate, channels=channels, dtype="int16")
                return rate, channels
            except sd.PortAudioError:
                continue
        raise AudioDeviceError(_("{microphone} accepts neither {native} Hz nor {rate} Hz, mono or stereo: choose "
                                 "another with --input.").format(microphone=self.named, native=default_rate, rate=self.rate))

    def _callback(self, indata: ReadableBuffer, frames: int, time_info: object, status: _InputFlags) -> None:
        # PortAudio's thread: copy and go. No decoding, no resampling, no locks held for long.
        if status.input_overflow:
            self.overflows += 1
        try:
            self._queue.put_nowait((bytes(indata), time.monotonic()))
        except queue.Full:
            self.overflows += 1

    def __iter__(self) -> Iterator[AudioChunk]:
        return self

    def __next__(self) -> AudioChunk:
        while True:
            if self._closed:
                raise StopIteration
            if self._stream is None:
                raise MicrophoneLost(_("{microphone} is not connected: waiting for it to come back.").format(
                    microphone=self.named))
            try:
                data, arrived = self._queue.get(timeout=0.1)
            except queue.Empty:
                # a device may take a moment to deliver its first block after opening
                allowed = self.lost_after if self._delivered else max(self.lost_after, FIRST_BLOCK_SECONDS)
                if not self._stream.active or time.monotonic() - self._last_arrival > allowed:
                    self._drop_stream()
                    raise MicrophoneLost(_("{microphone} stopped sending sound: is it still plugged in?").format(
                        microphone=self.named)) from None
                continue
            data, arrived = self._with_waiting(data, arrived)
            self._last_arrival, self._delivered = arrived, True
            self._report_overflows()
            assert self._converter is not None
            channels = self._converter.channels
            samples = np.frombuffer(data, dtype="<i2").reshape(-1, channels).astype(np.float32) / 32768
            chunk = self._converter.convert(samples, arrived)
            if chunk is not None:
                return chunk

    def _with_waiting(self, data: bytes, arrived: float) -> tuple[bytes, float]:
        """The block and those queued behind it, as one: a reader that fell behind (a decode took
        longer than the sound it decoded) catches up in one step, not block after block."""
        blocks = [data]
        while True:
            try:
                data, arrived = self._queue.get_nowait()
            except queue.Empty:
                return b"".join(blocks), arrived
            blocks.append(data)

    def _report_overflows(self) -> None:
        count, when = self._reported
        now = time.monotonic()
        if self.overflows > count and now - when >= 10:
            lost = self.overflows - count
            self.notice(n_("The microphone lost sound {count} time: the computer is too busy; close other programs if "
                           "words go missing.",
                           "The microphone lost sound {count} times: the computer is too busy; close other programs "
                           "if words go missing.", lost).format(count=lost))
            self._reported = (self.overflows, now)

    def reconnect(self, timeout: float | None = None, interval: float = 0.5,
                  cancel: threading.Event | None = None) -> bool:
        """Reopen the microphone, retrying every `interval` s until sound arrives again.

        False when `timeout` passes or `cancel` is set first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        cancel = cancel or threading.Event()
        while not cancel.is_set():
            self._drop_stream()
            try:
                with native_stderr_silenced():
                    self._open()
                if self._first_sound():
                    return True
            except AudioDeviceError:
                pass
            if deadline is not None and time.monotonic() >= deadline:
                break
            cancel.wait(interval)
        self._drop_stream()
        return False

    def _first_sound(self) -> bool:
        deadline = time.monotonic() + self.lost_after
        while self._queue.empty():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def _drop_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except portaudio().PortAudioError:
                pass  # the device is gone already
        while not self._queue.empty():
            self._queue.get_nowait()

    def close(self) -> None:
        self._closed = True
        self._drop_stream()


@contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """ALSA and PortAudio print their errors straight to file descriptor 2: while a lost
    microphone is retried, that would be several lines every half second. (Vosk's OpenFst does
    the same when it reads a damaged graph.)"""
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class FileSource:
    """A WAV or FLAC file (soundfile/libsndfile reads both), as mono chunks at `rate`.

    `realtime`: each chunk is yielded when a microphone would have delivered it (what came while
    the reader was busy in one chunk, as MicrophoneSource does); otherwise as fast as they can be
    converted.
    """

    def __init__(self, path: Path | str, rate: int = RATE, realtime: bool = False, block_ms: int = 30) -> None:
        import soundfile

        self.path = Path(path)
        self.rate = rate
        self.realtime = realtime
        try:
            self._file = soundfile.SoundFile(str(self.path))
        except (soundfile.LibsndfileError, OSError) as error:
            reason = _("there is no such file") if not self.path.exists() else str(error)
            raise AudioFileError(_("Cannot read {file} as sound ({reason}): give a WAV or FLAC file.").format(
                file=self.path, reason=reason)) from error
        self.native_rate = self._file.samplerate
        self.duration = self._file.frames / self.native_rate
        self._chunks = self._generate(max(1, round(self.native_rate * block_ms / 1000)))

    def _generate(self, blocksize: int) -> Generator[AudioChunk, None, None]:
        import soundfile

        converter = _Converter(self.native_rate, self._file.channels, self.rate)
        start = time.monotonic()
        frames = 0
        done = False
        while not done:
            wanted = blocksize
            if self.realtime:  # a microphone delivers a block once its last sample was heard
                time.sleep(max(0.0, start + (frames + blocksize) / self.native_rate - time.monotonic()))
                heard = int((time.monotonic() - start) * self.native_rate) - frames
                wanted = max(blocksize, heard // blocksize * blocksize)  # and those heard meanwhile, as one
            try:
                samples = self._file.read(wanted, dtype="float32", always_2d=True)
            except soundfile.LibsndfileError as error:  # the header was fine, the rest is not
                raise AudioFileError(_("Cannot read {file} to the end ({error}): give a complete WAV or FLAC file.")
                                     .format(file=self.path, error=error)) from error
            done = len(samples) < wanted
            frames += len(samples)
            chunk = converter.convert(samples, time.monotonic(), last=done)
            if chunk is not None:
                yield chunk

    def __iter__(self) -> Iterator[AudioChunk]:
        return self

    def __next__(self) -> AudioChunk:
        return next(self._chunks)

    def close(self) -> None:
        self._chunks.close()
        self._file.close()


class SpeakingState(Protocol):
    """What a speaker tells the microphone gate (host.audio.speaker.Speaker has it)."""

    @property
    def sound_intervals(self) -> tuple[tuple[float, float], ...]:
        """Recent (start, end) times, time.monotonic(), when sound came out; end is inf while
        it still does."""


@dataclass
class MicGate:
    """Silences what the microphone heard while the host spoke and for `tail` seconds after.

    There is no echo cancellation: without this storyhost would hear, and tick, its own words.
    Sound is judged by when it was captured, not when it is read, sample by sample: a reader
    running behind (handed seconds in one chunk) still loses what was heard during speech, and
    still gets the player's last words from just before the host began to speak.
    """

    speaker: SpeakingState
    tail: float = 0.3
    muted: int = 0  # chunks silenced, whole or in part

    def mute(self, chunk: AudioChunk) -> AudioChunk:
        """The chunk, with silence where the host was heard; as long as it was, so that the
        recognizer's clock stays the stream's."""
        began = chunk.captured_at - chunk.duration
        samples = len(chunk.pcm) // 2
        spans = [(round(max(0.0, (start - began) * chunk.rate)), round(min(samples, (end + self.tail - began) * chunk.rate)))
                 for start, end in self.speaker.sound_intervals]  # the end is infinite while the host speaks
        spans = [(first, last) for first, last in spans if first < last]
        if not spans:
            return chunk
        self.muted += 1
        pcm = bytearray(chunk.pcm)
        for first, last in spans:
            pcm[2 * first : 2 * last] = bytes(2 * (last - first))
        return AudioChunk(bytes(pcm), chunk.rate, chunk.time, chunk.captured_at)
