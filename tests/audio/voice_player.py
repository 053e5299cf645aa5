"""A scripted player that knows the host only through sound: it hears the loudspeaker (the null
sink's monitor) through a speech recognizer, and acts only by speaking into the virtual
microphone. It never reads the host's output, saved games or internals; tests may, separately,
to check results or to explain a failure.

Ears: `parec` records the monitor into a pipe read, in 20 ms blocks, by a child process (`_Ears`)
that notes when sound was last loud, cuts the sound into utterances with PocketSphinx's
Endpointer (voice activity detection) and has Whisper (faster-whisper tiny.en, one thread, so
the host keeps a core, greedy decoding) transcribe each utterance in one batch, on a thread of its own while the
blocks keep coming; a player of another `language` hears with the multilingual base forced to
it, as the host hears that language (see `tests.speech.audio.whisper`). A thread here takes its
news. (A recognizer in this process would hold the GIL long enough to starve the MicFeeder: the
host then said its microphone "stopped sending sound".) Every utterance becomes an `Utterance`
with its text (lowercase words, as phrases are spelled: no punctuation, hyphens split, accents
kept; Whisper writes numbers as digits), the monotonic times at which it was said and heard,
and its audio (to listen to when a test fails). The Endpointer does not split at the host's 0.3 s pauses between lines: its opening ("Stories!, game 1. ...
normal or quirky.") comes out as one 14 s utterance, transcribed a second or two after it ends;
past 20 s, an utterance is cut at the host's next pause.

Whisper hears the host's own default voice (espeak-ng through pyttsx3): see
`tests/audio/test_voice_player.py`, where the player hears the opening of a game in it. (The
player heard it through PocketSphinx before, with a word error rate of about 0.9, so the
playthroughs ran the host in a slower voice PocketSphinx heard better.) What a strategy can
also count on is *that* the host spoke after an action and has finished (`wait_for_speech`,
`wait_quiet`). See `VoicePlayer.wait_to_hear` for the matching rules.

Mouth: `say` synthesizes (festival "slt" or "espeak:LANG", cached by text and voice), waits
until the loudspeaker has been quiet for a while (the host mutes its microphone while it
speaks), and plays the speech through the `MicFeeder` at real-time pace.
"""
from __future__ import annotations

import bisect
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import numpy as np
from pocketsphinx import Endpointer
from rapidfuzz import fuzz

from games.language import speaking
from host.speech.recognizer import phrase_words
from host.storage.catalogs import translations
from nlp.commands import fold, number_words
from tests.audio.pulse import MONITOR, MicFeeder, PulseAudio, read_pcm
from tests.speech.audio import synthesize, transcribe, whisper

ROOT = Path(__file__).resolve().parents[2]
RATE = 16000
BLOCK = 640  # bytes: 20 ms of 16-bit mono at 16 kHz
LOUD = 200.0  # RMS of a block (of 32767) above which the loudspeaker counts as sounding
THRESHOLD = 80  # rapidfuzz partial_ratio for a phrase to count as heard in recognised text
KEEP_AUDIO = 180.0  # seconds of monitor audio kept for utterances' `pcm`
PAD = 0.3  # seconds of audio kept either side of an utterance
LONG = 20.0  # seconds after which an utterance is cut at the next pause of PAUSE seconds
PAUSE = 0.15  # seconds of quiet: longer than between words, as short as between lines

NUMBERS = {
    "zero": 0, "oh": 0, "one": 1, "won": 1, "two": 2, "to": 2, "too": 2, "three": 3, "four": 4, "for": 4,
    "fore": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "ate": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
}


@dataclass(frozen=True)
class Utterance:
    """One utterance the player heard, as Whisper transcribed it."""

    text: str  # lowercase words, free speech recognition
    start: float  # time.monotonic() when the host began to say it (from the audio's position)
    end: float  # time.monotonic() when it stopped
    heard: float  # time.monotonic() when the final hypothesis came out
    audio: Path  # its audio, 16 kHz 16-bit mono raw PCM, with 0.3 s either side

    @property
    def pcm(self) -> bytes:
        return self.audio.read_bytes()

    def __str__(self) -> str:
        return f"{self.text!r} ({self.end - self.start:.1f} s)"


class NotHeard(AssertionError):
    """A wait ran out: the message lists what was heard."""


class VoicePlayer:
    """Use as a context manager, or `start()` and `stop()`.

    `language`: what the player hears (Whisper's model and language) and in which the numbers it
    listens for are spelled; its `voice` should speak the same ("espeak:es" for "es").
    Times are time.monotonic(). A *mark* bounds what a wait looks at: utterances that began at
    or after it. `say` sets the mark to the moment it begins to speak; `mark()` sets it to now.
    """

    def __init__(self, pulse: PulseAudio, feeder: MicFeeder, cache: Path, name: str = "player",
                 voice: str = "espeak:en-us", language: str = "en") -> None:
        self.pulse = pulse
        self.feeder = feeder
        self.cache = cache
        self.name = name
        self.voice = voice
        self.language = language
        with speaking(translations(language)):  # its number words, 0 to 20: Whisper's digits spelled out
            self.numbers = {str(n): number_words(n) for n in range(21)}
        self.heard: list[Utterance] = []  # everything heard, in order
        self.said: list[tuple[float, str]] = []  # (time it began, text) of everything said
        self.last_mark = time.monotonic()
        self.hearing = False  # an utterance is in progress (not yet transcribed)
        self.last_loud = float("-inf")  # when the loudspeaker last sounded
        self.last_block = float("-inf")  # when the last block of the monitor arrived
        self._changed = threading.Condition()
        self._process: subprocess.Popen[str] | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._parec: subprocess.Popen[bytes] | None = None

    # -- ears --------------------------------------------------------------------------------

    def start(self, timeout: float = 30.0) -> VoicePlayer:
        self.cache.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, **self.pulse.env)
        self._parec = subprocess.Popen(
            ["parec", f"--device={MONITOR}", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
             "--latency-msec=20"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )
        # Recognition runs in a process of its own: PocketSphinx holds the GIL while it decodes,
        # which in this process would delay the MicFeeder's writes until the host's microphone
        # "stops sending sound".
        folder = self.cache / f"heard-{self.name}-{time.monotonic_ns()}"
        folder.mkdir()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        self._process = subprocess.Popen(
            [sys.executable, "-c", "from tests.audio.voice_player import _ears_main; _ears_main()", str(folder),
             self.language],
            stdin=self._parec.stdout, stdout=subprocess.PIPE, text=True, env=env,
        )
        assert self._parec.stdout is not None
        self._parec.stdout.close()  # the child owns it now
        self._thread = threading.Thread(target=self._listen, name=f"{self.name}-ears", daemon=True)
        self._thread.start()
        # The monitor's first block comes after about 2 s, once Whisper is loaded (1-10 s, or more
        # on a busy machine); from then on one every 20 ms.
        with self._changed:
            if not self._changed.wait_for(lambda: self.last_block > 0 or self._error is not None, timeout):
                self.stop()
                raise NotHeard(f"{self.name}: the loudspeaker's monitor sent nothing within {timeout} s")
        return self

    def stop(self) -> None:
        for process in (self._parec, self._process):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _listen(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        try:
            for line in self._process.stdout:
                news = json.loads(line)
                with self._changed:
                    self.last_block = news.get("block", self.last_block)
                    self.last_loud = news.get("loud", self.last_loud)
                    self.hearing = news.get("hearing", self.hearing)
                    if "utterance" in news:
                        u = news["utterance"]
                        self.heard.append(Utterance(u["text"], u["start"], u["end"], u["heard"], Path(u["audio"])))
                    self._changed.notify_all()
            raise EOFError("the recognizer's process ended")
        except BaseException as error:  # noqa: BLE001 - reported by the waits
            self._error = error
        finally:
            with self._changed:
                self._changed.notify_all()

    # -- waiting -----------------------------------------------------------------------------

    def mark(self) -> float:
        """From now on, waits look only at what the host begins to say after this moment."""
        self.last_mark = time.monotonic()
        return self.last_mark

    def since(self, mark: float | None = None) -> list[Utterance]:
        """The utterances that began at or after `mark` (default: the last mark)."""
        mark = self.last_mark if mark is None else mark
        with self._changed:
            return [u for u in self.heard if u.start >= mark - 0.05]

    def quiet_for(self) -> float:
        """Seconds since the loudspeaker last sounded (0 while it sounds)."""
        return max(0.0, time.monotonic() - self.last_loud)

    def wait_quiet(self, seconds: float = 0.5, timeout: float = 60.0) -> None:
        """Until the loudspeaker has been silent for `seconds`."""
        self._wait(lambda: self.last_block > time.monotonic() - 0.5 and self.quiet_for() >= seconds,
                   timeout, f"for the loudspeaker to be quiet for {seconds} s")

    def wait_for_sound(self, since: float, timeout: float) -> bool:
        """Until the loudspeaker sounds after `since`; False if it stayed quiet for `timeout` s."""
        try:
            self._wait(lambda: self.last_loud >= since, timeout, "for the loudspeaker to sound")
        except NotHeard:
            if self._error is not None:
                raise
            return False
        return True

    def wait_for_speech(self, since: float | None = None, quiet: float = 1.0, timeout: float = 60.0) -> list[Utterance]:
        """Until the host has said something after `since` (default: the last mark) and then been
        quiet for `quiet` seconds: everything it said, as heard."""
        mark = self.last_mark if since is None else since
        self._wait(lambda: self.last_loud >= mark and self.quiet_for() >= quiet and self.since(mark),
                   timeout, f"for the host to speak and then be quiet for {quiet} s", mark)
        return self.since(mark)

    def wait_to_hear(self, *phrases: str, predicate: Callable[[str], bool] | None = None,
                     since: float | None = None, timeout: float = 30.0, threshold: int = THRESHOLD) -> str:
        """Until an utterance that began after `since` (default: the last mark) contains one of
        `phrases` (rapidfuzz partial_ratio of the phrase against the lowercased recognised text,
        at least `threshold`; an utterance is also tried joined to the one before it, as the
        recognizer cuts sentences at pauses), or satisfies `predicate(text)`. Numbers Whisper wrote
        as digits are compared spelled out in the player's language, as the phrases are ("mark 0"
        is "mark zero"), and accents aside ("si" is "sí"). The text matched."""
        wanted = [fold(" ".join(words)) for words in phrase_words(phrases)]
        mark = self.last_mark if since is None else since
        found: list[str] = []

        def matched() -> bool:
            heard = self.since(mark)
            for i, utterance in enumerate(heard):
                texts = [utterance.text] + ([heard[i - 1].text + " " + utterance.text] if i else [])
                for text in texts:
                    spelled = fold(re.sub(r"\d+", lambda number: self.numbers.get(number.group(), number.group()), text))
                    if any(fuzz.partial_ratio(p, spelled) >= threshold for p in wanted) or (predicate and predicate(text)):
                        found.append(text)
                        return True
            return False

        what = " or ".join(repr(p) for p in wanted) or "what the predicate wants"
        self._wait(matched, timeout, f"to hear {what}", mark)
        return found[0]

    def heard_number_after(self, word: str, since: float | None = None, timeout: float = 30.0) -> int:
        """Until the host said `word` (fuzzily) followed by a number: that number. Homophones
        count ("to" for 2, "for" for 4, "won" for 1), and so do digits and, in another language,
        its number words."""
        value: list[int] = []

        def number(text: str) -> bool:
            for following in _after(word, text):
                if following and (n := self._number(following[0])) is not None:
                    value.append(n)
                    return True
            return False

        self.wait_to_hear(predicate=number, since=since, timeout=timeout)
        return value[0]

    def heard_words_after(self, phrase: str, count: int = 1, since: float | None = None,
                          timeout: float = 30.0) -> list[str]:
        """Until the host said `phrase` (fuzzily, word by word) followed by `count` words: those."""
        value: list[list[str]] = []

        def words(text: str) -> bool:
            for following in _after(phrase, text):
                if len(following) >= count:
                    value.append(following[:count])
                    return True
            return False

        self.wait_to_hear(predicate=words, since=since, timeout=timeout)
        return value[0]

    def _number(self, word: str) -> int | None:
        spelled = {said: int(digits) for digits, said in self.numbers.items()}
        return _number(word) if self.language == "en" else spelled.get(fold(word), _number(word) if word.isdigit() else None)

    def _wait(self, done: Callable[[], object], timeout: float, what: str, mark: float | None = None) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done():
                if self._error is not None:
                    raise NotHeard(f"{self.name} stopped hearing ({self._error!r}) while waiting {what}.\n"
                                   + self.transcript(mark))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise NotHeard(f"{self.name} waited {timeout} s {what}.\n" + self.transcript(mark))
                self._changed.wait(min(left, 0.1))

    def transcript(self, mark: float | None = None, last: int = 10) -> str:
        """The last utterances heard and things said, in order, times relative to `mark` (default:
        the last mark): for failure messages."""
        mark = self.last_mark if mark is None else mark
        events = [(u.start, f"heard {u}") for u in self.heard[-last:]]
        events += [(t, f"said {text!r}") for t, text in self.said[-last:]]
        lines = [f"  {t - mark:+7.1f} s  {line}" for t, line in sorted(events)[-2 * last:]]
        now = time.monotonic()
        lines.append(f"  now {now - mark:+.1f} s; {'hearing an utterance; ' if self.hearing else ''}loudspeaker quiet for "
                     f"{self.quiet_for():.1f} s; last audio block {now - self.last_block:.1f} s ago")
        return "\n".join(lines)

    # -- mouth -------------------------------------------------------------------------------

    def speech(self, text: str, voice: str | None = None) -> bytes:
        """`text` synthesized with `voice` (default: the player's) at the microphone's rate."""
        path = synthesize([text], self.cache, voice or self.voice, pad=0.2)
        return read_pcm(path, self.feeder.rate)

    def say(self, text: str, voice: str | None = None, quiet: float = 1.0, tail: float = 0.3,
            timeout: float = 60.0) -> float:
        """Wait until the loudspeaker has been quiet for `quiet` seconds, then speak `text` into
        the microphone; return once it has been written and `tail` seconds more have passed.
        Sets the mark to the moment it began to speak, and returns that moment."""
        pcm = self.speech(text, voice)  # before waiting: synthesis takes a moment
        self.wait_quiet(quiet, timeout)
        began = self.mark()
        self.said.append((began, text))
        self.feeder.play(pcm)
        if not self.feeder.wait(len(pcm) / 2 / self.feeder.rate + 10):
            raise NotHeard(f"{self.name}: the microphone did not take {text!r} in time: PulseAudio reads its "
                           "pipe only while something records from it (is the host listening?)")
        time.sleep(tail)
        return began


def _words(text: str) -> list[str]:
    return re.sub(r"[^\w' ]", " ", text.lower()).split()


def _after(phrase: str, text: str, threshold: int = 75) -> list[list[str]]:
    """The words after each place where `phrase` (fuzzily, word by word) occurs in `text`."""
    target, words = _words(phrase), _words(text)
    n = len(target)
    out = []
    for i in range(len(words) - n + 1):
        if all(fuzz.ratio(a, b) >= threshold for a, b in zip(target, words[i:i + n])):
            out.append(words[i + n:])
    return out


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word)


class _Ears:
    """The listening process: raw PCM from parec on stdin, news as JSON lines on stdout. The main
    thread reads the blocks and cuts utterances; `_transcribe` makes them text."""

    def __init__(self, folder: Path, language: str = "en") -> None:
        self.folder = folder
        self.language = language
        self.endpointer = Endpointer(sample_rate=RATE)
        self.frames = b""  # the start of an incomplete Endpointer frame
        self.speech_from: float | None = None  # audio seconds where the utterance in progress began
        self.clock: deque[tuple[float, float]] = deque()  # (audio seconds read, arrival time)
        self.audio = bytearray()  # the last KEEP_AUDIO seconds of the monitor
        self.audio_start = 0.0  # audio seconds of the first byte of `audio`
        self.read = 0.0  # audio seconds read
        self.reported = float("-inf")  # when the last {"block"} news went out
        self.count = 0
        self.loud = False  # the loudspeaker sounded during the utterance in progress
        self.quiet_from: float | None = None  # audio seconds where the loudspeaker last fell quiet
        self.resumed = False  # the utterance in progress is the rest of one cut at a pause
        self.said: queue.Queue[tuple[bytes, float, float, bool]] = queue.Queue()  # utterances to transcribe
        self.writing = threading.Lock()
        whisper(threads=1, language=language)  # loaded before the first block is read: the import holds the GIL
        threading.Thread(target=self._transcribe, daemon=True).start()

    def run(self) -> None:
        fd = sys.stdin.fileno()
        rest = b""
        was_loud = False
        while block := os.read(fd, BLOCK * 2):
            arrived = time.monotonic()
            block, rest = rest + block, b""
            if len(block) % 2:
                block, rest = block[:-1], block[-1:]
            self.read += len(block) / 2 / RATE
            self.remember(block, arrived)
            samples = np.frombuffer(block, "<i2").astype(np.float64)
            loud = bool(samples.size) and float(np.sqrt(np.mean(samples**2))) > LOUD
            news: dict = {}
            if loud:
                news["loud"] = arrived
                self.loud = True
            if loud != was_loud or arrived - self.reported >= 0.1:
                news["block"] = arrived
                self.reported = arrived
            was_loud = loud
            if news:
                self.say(news)
            if loud:
                self.quiet_from = None
            elif self.quiet_from is None:
                self.quiet_from = self.read - len(block) / 2 / RATE
            self.cut(block)

    def cut(self, block: bytes) -> None:
        """Feed the Endpointer; an utterance that ended goes to be transcribed, with PAD seconds
        of audio either side. (Cut shorter, at the host's pauses, it would cost more: Whisper
        encodes a 30 s window whatever the length.) The Endpointer does not end an utterance at
        the host's pauses between lines, so a minute of lines read one after another (the cards
        laid out) would be heard only once it ends, and cut by Whisper's 30 s windows anywhere,
        in a word too: past LONG seconds, an utterance is cut at the next pause instead."""
        self.frames += block
        size = self.endpointer.frame_bytes
        whole = len(self.frames) - len(self.frames) % size
        for i in range(0, whole, size):
            self.endpointer.process(self.frames[i : i + size])
            if self.speech_from is None and self.endpointer.in_speech:
                self.speech_from = self.endpointer.speech_start
                self.say({"hearing": True})
            elif self.speech_from is not None and not self.endpointer.in_speech:
                self.end_utterance(self.endpointer.speech_end)
                self.speech_from, self.resumed = None, False
        self.frames = self.frames[whole:]
        if (self.speech_from is not None and self.quiet_from is not None and self.read - self.quiet_from >= PAUSE
                and self.quiet_from - self.speech_from >= LONG):
            self.end_utterance(self.quiet_from)
            self.speech_from, self.resumed = self.read, True

    def end_utterance(self, end: float) -> None:
        """The utterance in progress, up to `end` (audio seconds), goes to be transcribed."""
        assert self.speech_from is not None
        if end <= self.speech_from or (self.resumed and not self.loud):  # it ended at the pause where it was cut
            self.say({"hearing": False})
        else:
            first = max(0, int((self.speech_from - PAD - self.audio_start) * RATE)) * 2
            last = max(0, int((end + PAD - self.audio_start) * RATE)) * 2
            self.said.put((bytes(self.audio[first:last]), self.when(self.speech_from), self.when(end), self.loud))
        self.loud = False

    def _transcribe(self) -> None:
        while True:
            pcm, start, end, loud = self.said.get()
            text = " ".join(word for words in phrase_words([transcribe(pcm, threads=1, beam=1, language=self.language)]) for word in words)
            if text or loud:  # else the host did not speak: the Endpointer took noise for speech
                self.count += 1
                path = self.folder / f"{self.count:04d}.raw"
                path.write_bytes(pcm)
                utterance = {"text": text, "start": start, "end": end, "heard": time.monotonic(), "audio": str(path)}
                self.say({"utterance": utterance, "hearing": False})
            else:
                self.say({"hearing": False})

    def say(self, news: dict) -> None:
        with self.writing:
            sys.stdout.write(json.dumps(news) + "\n")
            sys.stdout.flush()

    def remember(self, block: bytes, arrived: float) -> None:
        self.clock.append((self.read, arrived))
        self.audio += block
        while self.clock and self.clock[0][1] < arrived - KEEP_AUDIO:
            self.clock.popleft()
        excess = len(self.audio) - int(KEEP_AUDIO * RATE) * 2
        if excess > 0:
            del self.audio[:excess]
            self.audio_start += excess / 2 / RATE

    def when(self, audio_seconds: float) -> float:
        """The monotonic time at which the audio at `audio_seconds` came out of the loudspeaker:
        the arrival of the block that held it, less what followed it in the block."""
        positions = [position for position, _ in self.clock]
        i = min(bisect.bisect_left(positions, audio_seconds), len(positions) - 1)
        position, arrived = self.clock[i]
        return arrived - (position - audio_seconds)


def _ears_main() -> None:
    try:
        _Ears(Path(sys.argv[1]), *sys.argv[2:3]).run()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
