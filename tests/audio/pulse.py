"""A private PulseAudio daemon with a virtual microphone, for tests that need real audio devices.

The daemon loads these modules and nothing else (no configuration of the machine's is read):

- module-native-protocol-unix on a socket in the harness's own folder (clients find it through
  PULSE_SERVER, so a developer's own PulseAudio or PipeWire is never touched);
- module-pipe-source `storyhost_mic`: whatever is written to its FIFO is what the microphone
  hears. It produces no samples while nothing is written, so `MicFeeder` writes speech and then
  silence at real-time pace, as a real microphone delivers;
- module-null-sink `storyhost_out`: what is played to it can be recorded from its `.monitor`
  (while nothing plays, the monitor delivers 2 s blocks until a reader asks for less latency);
- a second pipe source, `storyhost_unplugged`, that nobody writes to. PulseAudio moves the
  streams of a source that goes away to the default source; without this one, that would be
  the null sink's monitor, and a test that pulls the microphone out would go on hearing sound.
  Moved here, a stream hears nothing, as it would from an unplugged USB microphone on a
  machine without PulseAudio.

PortAudio reaches the daemon through ALSA's "pulse" device (Debian `libasound2-plugins`), which
reads PULSE_SERVER, PULSE_SOURCE and PULSE_SINK. PortAudio lists devices once, when it is
initialised: `PulseAudio.activate()` sets those variables and re-initialises PortAudio if
sounddevice was imported already. Ask for the device "pulse" by name: ALSA's "default" follows
PulseAudio only if the daemon was running when ALSA first read its configuration.

Runs as root as well as an ordinary user: `pulseaudio` only warns that it "is not intended to be
run as root" and works in per-user mode (`--system` is not needed and would ignore our modules).
An ordinary developer needs the Debian packages pulseaudio, pulseaudio-utils and
libasound2-plugins, and no privileges; a desktop's own PulseAudio or PipeWire keeps running
beside this daemon, untouched.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MIC = "storyhost_mic"
SINK = "storyhost_out"
MONITOR = f"{SINK}.monitor"
UNPLUGGED = "storyhost_unplugged"
PORTAUDIO_DEVICE = "pulse"


class PulseUnavailable(RuntimeError):
    """PulseAudio or its tools are not installed, or the daemon did not start."""


class PulseAudio:
    """One daemon; `start()` it, `stop()` it (or use it as a context manager)."""

    def __init__(self, folder: Path, rate: int = 16000) -> None:
        self.folder = folder
        self.rate = rate
        self.fifo = folder / "mic.fifo"
        self.socket = folder / "native"
        self.log = folder / "pulseaudio.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._mic_module: str | None = None

    @property
    def env(self) -> dict[str, str]:
        """What a client process needs in its environment to use this daemon's devices."""
        return {
            "PULSE_SERVER": f"unix:{self.socket}",
            "PULSE_SOURCE": MIC,
            "PULSE_SINK": SINK,
            # Keeps the client library's cookie and state out of the developer's home.
            "PULSE_RUNTIME_PATH": str(self.folder / "runtime"),
            "PULSE_STATE_PATH": str(self.folder / "state"),
            "PULSE_COOKIE": str(self.folder / "cookie"),
        }

    def start(self) -> PulseAudio:
        missing = [tool for tool in ("pulseaudio", "pactl", "parec") if shutil.which(tool) is None]
        if missing:
            raise PulseUnavailable(
                f"{', '.join(missing)} not found: install the Debian packages pulseaudio and pulseaudio-utils."
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "default.pa"
        config.write_text(
            f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}\n"
            f"load-module module-null-sink sink_name={SINK} rate={self.rate} channels=1\n"
            f"set-default-sink {SINK}\n"
            f"load-module module-pipe-source source_name={UNPLUGGED} file={self.folder / 'unplugged.fifo'}"
            f" format=s16le rate={self.rate} channels=1\n"
        )
        env = dict(os.environ, **self.env)
        env["HOME"] = str(self.folder)  # the daemon writes ~/.config/pulse otherwise
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                ["pulseaudio", "-n", "-F", str(config), "--daemonize=no", "--exit-idle-time=-1",
                 "--disallow-exit", "--use-pid-file=no", "--log-target=stderr"],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            )
        deadline = time.monotonic() + 10
        while not self._answers():
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise PulseUnavailable(f"PulseAudio did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        self.load_mic()
        return self

    def _answers(self) -> bool:
        if not self.socket.exists():
            return False
        return subprocess.run(["pactl", "info"], env=dict(os.environ, **self.env),
                              capture_output=True).returncode == 0

    def pactl(self, *args: str) -> str:
        done = subprocess.run(["pactl", *args], env=dict(os.environ, **self.env),
                              capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise RuntimeError(f"pactl {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def load_mic(self) -> None:
        """Plug the virtual microphone in (again): the module creates the FIFO itself."""
        self._mic_module = self.pactl(
            "load-module", "module-pipe-source", f"source_name={MIC}", f"file={self.fifo}",
            "format=s16le", f"rate={self.rate}", "channels=1",
        )
        self.pactl("set-default-source", MIC)

    @property
    def mic_plugged(self) -> bool:
        return self._mic_module is not None

    def unload_mic(self) -> None:
        """Pull the virtual microphone out: its recording streams end, the FIFO goes away."""
        if self._mic_module is not None:
            self.pactl("unload-module", self._mic_module)
            self._mic_module = None

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None

    def __enter__(self) -> PulseAudio:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @contextmanager
    def activate(self) -> Iterator[None]:
        """This process's PortAudio sees the daemon's devices while inside the block."""
        saved = {name: os.environ.get(name) for name in self.env}
        os.environ.update(self.env)
        _reinitialise_portaudio()
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            _reinitialise_portaudio()

    def feeder(self) -> MicFeeder:
        return MicFeeder(self.fifo, self.rate).start()

    def recorder(self) -> MonitorRecorder:
        return MonitorRecorder(self).start()


def _reinitialise_portaudio() -> None:
    sd = sys.modules.get("sounddevice")
    if sd is not None:
        sd._terminate()
        sd._initialize()


class MicFeeder:
    """Writes 16-bit mono PCM into the pipe source at real-time pace, and silence when it has none.

    Survives the microphone being unloaded: writing pauses until the FIFO is back.
    """

    step = 0.02  # seconds written at a time

    def __init__(self, fifo: Path, rate: int) -> None:
        self.fifo = fifo
        self.rate = rate
        self._pending = bytearray()
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._new_speech = False
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mic-feeder", daemon=True)
        self.started_speech: list[float] = []  # time.monotonic() when each play() began to be written

    def start(self) -> MicFeeder:
        self._thread.start()
        return self

    def play(self, pcm: bytes) -> None:
        with self._lock:
            self._idle.clear()
            self._pending.extend(pcm)
            self._new_speech = True

    def play_file(self, path: Path) -> None:
        self.play(read_pcm(path, self.rate))

    def wait(self, timeout: float | None = None) -> bool:
        """Until everything given to play() has been written."""
        return self._idle.wait(timeout)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)

    def _next_block(self, size: int) -> bytes:
        with self._lock:
            if self._new_speech and self._pending:
                self.started_speech.append(time.monotonic())
                self._new_speech = False
            block = bytes(self._pending[:size])
            del self._pending[:size]
            if not self._pending:
                self._idle.set()
        return block + bytes(size - len(block))

    def _open(self) -> int | None:
        try:
            return os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # not there (unloaded) or nobody reading it yet
            return None

    def _run(self) -> None:
        size = int(self.rate * self.step) * 2
        fd: int | None = None
        due = time.monotonic()
        while not self._stopping.is_set():
            if fd is None:
                fd = self._open()
                if fd is None:
                    time.sleep(self.step)
                    due = time.monotonic()
                    continue
                os.set_blocking(fd, True)
            try:
                os.write(fd, self._next_block(size))
            except OSError:  # BrokenPipeError once the module is unloaded
                os.close(fd)
                fd = None
                continue
            due += self.step
            time.sleep(max(0.0, due - time.monotonic()))
        if fd is not None:
            os.close(fd)


class MonitorRecorder:
    """Records the null sink's monitor with parec: what the host said, as 16-bit mono PCM."""

    def __init__(self, pulse: PulseAudio) -> None:
        self.pulse = pulse
        self.path = pulse.folder / f"monitor-{time.monotonic_ns()}.raw"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> MonitorRecorder:
        self._process = subprocess.Popen(
            ["parec", f"--device={MONITOR}", "--raw", "--format=s16le", f"--rate={self.pulse.rate}",
             "--channels=1", "--latency-msec=20", str(self.path)],
            env=dict(os.environ, **self.pulse.env),
        )
        # The monitor delivers silence while nothing plays: recording has begun once bytes arrive.
        deadline = time.monotonic() + 5
        while not (self.path.exists() and self.path.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> bytes:
        """Stops recording; the PCM recorded."""
        assert self._process is not None
        self._process.terminate()
        self._process.wait(timeout=5)
        return self.path.read_bytes()


def read_pcm(path: Path, rate: int) -> bytes:
    """A sound file's samples as 16-bit mono PCM at `rate`."""
    import numpy as np
    import soundfile
    import soxr

    samples, native = soundfile.read(str(path), dtype="float32", always_2d=True)
    mono = soxr.resample(samples.mean(axis=1), native, rate)
    return (np.clip(mono, -1, 1) * 32767).astype("<i2").tobytes()
