"""Whisper (faster-whisper, CTranslate2 int8 on the CPU) made a stream, for free speech.

Whisper transcribes windows of audio, not streams. This adapter makes it one:

- Silero VAD (the model faster-whisper ships), run on every 32 ms window as audio arrives,
  opens an utterance where speech starts (with a short lead-in) and ends it after
  `END_SILENCE` of quiet. Nothing else is ever decoded: silence, noise and music cost nothing
  and say nothing.
- During an utterance the buffer (its audio so far) is decoded every `INTERVAL` of audio, when
  it holds `MIN_SPEECH` of speech. A word is committed once two successive decodes agree on it
  (a sentence end too), the LocalAgreement-2 policy of ufal/whisper_streaming: Whisper's last
  words in a buffer that cuts speech short are guesses it often revises, the words both decodes
  share rarely change. Partial hypotheses show committed words only, so a word shown is never
  taken back: showing the last decode's other words as well made ticks sooner but took back
  1.4 to 4.5 % of them. The interval sets the delay and the cost: on the spoken-story benchmark
  (festival slt), a tick came a p95 of 1.50 s after its word with 0.5 s, 1.19 s with 0.4 s
  (live, add a decode), for a fifth more CPU time and 0.930 judgement accuracy, not 0.939.
- A committed sentence end ("river.") closes the utterance with a final hypothesis, so no
  compound is read across it, and the buffer is cut there: the next sentence is decoded alone.
  The end of speech closes it too, after one last decode whose words are all taken.
- The encoder sees the buffer plus `PADDING`, at least `MIN_WINDOW` (shorter windows make it
  loop), not the 30 s window faster-whisper pads every buffer to: a decode then costs less than
  half (0.44 on LibriVox), which makes decoding twice a second affordable on two cores. The
  price on LibriVox, file by file: 7 word errors in 71 against 3 with the full window (beam 2).
  The buffer never exceeds `MAX_BUFFER`, well inside the 30 s the model can see.
- Whisper's inventions on what VAD let through (coughs, music) are dropped: segments Whisper
  itself rates as repetitive (compression ratio) or as no speech, known caption phrases that
  make up a whole segment ("Thank you for watching."), and repetition loops.

With a context (`set_context`: a story's card), every finished utterance is decoded once more
as a whole (`_Confirmer`): Whisper's full window and a wider beam, the card and the story's
confirmed sentences as the prompt. The stream misses words the model hears that way (on the
spoken stories of tests/benchmarks/bench_audio_terms.py, tiny.en streaming, base confirming).
Confirmations run on the caller's thread, between chunks (deterministic: files), or on a thread
of their own (`background`: a microphone), so that they never hold the stream up; utterances that
finish while that thread is busy wait for it and go together, in one window.

Word times are seconds from the stream start, confidences Whisper's word probabilities; the
words keep Whisper's punctuation and hyphens ("river.", "ice-cold"), which the term rules use.
"""
from __future__ import annotations

import atexit
import ctypes
import math
import queue
import re
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import ctranslate2
import numpy as np
from faster_whisper import WhisperModel
from faster_whisper.vad import get_vad_model

from host.speech.recognizer import (
    SAMPLE_RATE,
    BrokenModel,
    Hypothesis,
    MissingModel,
    RecognizerError,
    check_pcm,
    check_rate,
)
from nlp.ticks import HeardWord

NAME = "Whisper"

INTERVAL = 0.4  # seconds of new audio between decodes of an utterance's buffer (see the docstring)
END_SILENCE = 0.6  # seconds of quiet that end an utterance
LEAD_IN = 0.3  # seconds of audio before the detected start of speech, kept in the buffer
FIRST_DECODE = 1.0  # seconds of buffer before it is decoded: shorter, its first words are guesses
MIN_SPEECH = 0.2  # seconds of speech in the buffer before it is decoded at all
PADDING = 1.0  # seconds of padding after the buffer in the encoder's window
MIN_WINDOW = 10  # seconds: the encoder's shortest window
MAX_BUFFER = 20.0  # seconds: a longer buffer is cut at its last committed word
SPEECH_ON, SPEECH_OFF = 0.5, 0.35  # Silero probabilities: speech starts above one, ends below the other
BEAM = 2
WHOLE_BEAM = 5  # a whole utterance is decoded once, not twice a second: a wider beam is affordable
# The confirming pass (only with a context: see `set_context`)
CONFIRM_WAIT = 1.0  # seconds of continued speech after which a confirmation runs anyway
CONFIRM_MARGIN = 0.4  # seconds of audio kept before an utterance's first word and after its last
LATE_START = 0.1  # seconds before the streamed last word's end: a confirmed word starting later is dropped
PROMPT_CHARS = 200  # the previous sentences in a confirmation's prompt, at most (after the card)
HISTORY = 30.0  # seconds of recent audio kept for confirmations: Whisper's window
# finished utterances wait for a busy confirming thread, to be decoded together (live, every 9th
# story, load 5-10: a confirmation's added tick p95 slt+talk 21.8 s against 36.8, slt 10.6 / 11.4,
# kal 4.1 / 3.9, joe 4.5 / 3.6: noisy, it helps most when furthest behind)
MERGE_WHEN_BUSY = 1
# seconds: a confirmation's shortest encoder window (30: Whisper's full window). The encoder's
# window is most of a confirmation's cost and its beams' attention over it a live round's peak
# memory. Measured (bench_audio_terms.py --every 9; bench_live.py): 15 s cut the CPU of stream +
# confirmations by a third and the peak memory from 842 to 755 MB, but judged slt, kal, slt+talk
# 0.965, 0.924, 0.676 against 0.971, 0.929, 0.688; 10 s heard a term in table talk that has none.
CONFIRM_WINDOW = 30
STREAM_PROMPT = 1  # the stream's decodes primed with the card (0: only confirmations are)

# Segment guards: Whisper's own thresholds for text that is no speech or a loop of tokens
MAX_COMPRESSION = 2.4
NO_SPEECH, LOW_LOGPROB = 0.6, -1.0
MAX_TOKEN_RATE = 12  # tokens per second of audio: speech takes about 5, a loop runs on to 448
LOOPS = {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2}  # an n-gram said this many times in a row is a loop: one is kept
CAPTIONS = frozenset(
    {
        "thank you for watching",
        "thanks for watching",
        "thank you very much for watching",
        "thank you so much for watching",
        "thank you for listening",
        "please subscribe",
        "please like and subscribe",
        "subscribe to my channel",
        "see you next time",
        "see you in the next video",
        "you",
    }
)
_CAPTION_PREFIXES = ("subtitles by", "captions by", "transcribed by", "translated by", "transcription by")
_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "prof", "mt", "no"})
_TRAILING_OFF = re.compile(r"(?:\.\.\.|…|-)$")  # Whisper's marks of speech cut short by the buffer's end
_SENTENCE_END = re.compile(r"[.?!][\"')\]]*$")
_WINDOW = 512  # Silero VAD's window in samples (32 ms)
_CONTEXT = 64  # samples of the previous window Silero sees with each window


class FreeSpeechOnly(RecognizerError):
    """Whisper transcribes what is said: it cannot be held to a phrase list."""

    def __init__(self) -> None:
        super().__init__(
            f"{NAME} hears free speech only, not a phrase list: use PocketSphinx or Vosk for phrases."
        )


class _ShortWindowWhisper(WhisperModel):  # type: ignore[misc]  # faster_whisper has no type hints: WhisperModel is Any
    """Encodes `frames` mel frames (10 ms each) instead of the 30 s window faster-whisper pads
    every segment to; the padding's encoder work is what makes a short buffer slow. The stream
    and the confirmations may share the model from two threads: each sets its own window."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._window = threading.local()

    @property
    def frames(self) -> int:
        return getattr(self._window, "frames", 3000)

    @frames.setter
    def frames(self, frames: int) -> None:
        self._window.frames = frames

    def encode(self, features: np.ndarray) -> ctranslate2.StorageView:
        return super().encode(features[..., : self.frames])


class _SpeechDetector:
    """Silero VAD over a stream: one speech probability per 512-sample window, the network's
    state carried from call to call (the same figures as faster-whisper's whole-file pass)."""

    def __init__(self) -> None:
        self._session = get_vad_model().session
        self.reset()

    def reset(self) -> None:
        self._state = np.zeros((1, 1, 128), np.float32), np.zeros((1, 1, 128), np.float32)
        self._context = np.zeros(_CONTEXT, np.float32)
        self._pending = np.zeros(0, np.float32)

    def probabilities(self, samples: np.ndarray) -> np.ndarray:
        """Speech probabilities of the whole windows completed by these samples."""
        pending = np.concatenate((self._pending, samples))
        whole = len(pending) // _WINDOW * _WINDOW
        self._pending = pending[whole:]
        if not whole:
            return np.zeros(0, np.float32)
        windows = pending[:whole].reshape(-1, _WINDOW)
        contexts = np.vstack((self._context[None], windows[:-1, -_CONTEXT:]))
        self._context = windows[-1, -_CONTEXT:].copy()
        h, c = self._state
        out, h, c = self._session.run(None, {"input": np.hstack((contexts, windows)), "h": h, "c": c})
        self._state = h, c
        return np.asarray(out).reshape(-1)


def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc, whose malloc_trim hands freed memory back; else None."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


_LIBC = _glibc()


def _give_back_memory() -> None:
    """Hand the memory freed since (models loaded, the last decode) back to the system, so that a
    whole-window decode's working memory (its beams' attention over 1,500 frames: about 180 MB
    with base) is not added to it: glibc keeps what is freed unless asked (bench_live.py's peak
    memory of a live round). Elsewhere, nothing to do."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_into(future: Future[_ShortWindowWhisper], model: Path, threads: int) -> None:
    try:
        future.set_result(_load(model, threads))
    except Exception as error:  # raised where the model is first used, whatever it is
        future.set_exception(error)
    _give_back_memory()  # what loading needed (the file's float16 weights made int8)


def _load(model: Path, threads: int) -> _ShortWindowWhisper:
    folder = Path(model).expanduser()
    if not (folder / "model.bin").is_file():
        raise MissingModel(
            f"There is no Whisper model in {folder}: point it at a CTranslate2 Whisper model "
            "folder (model.bin, config.json, tokenizer.json)."
        )
    try:
        return _ShortWindowWhisper(str(folder), device="cpu", compute_type="int8", cpu_threads=threads)
    except Exception as error:  # CTranslate2 raises RuntimeError, tokenizers their own
        raise BrokenModel(f"{NAME} could not load the model in {folder} ({error}): install it again.") from error


@dataclass(frozen=True)
class _Confirmation:
    """A finished utterance waiting to be decoded again: its audio from `start` (stream seconds,
    with the margin) to its last word's `end`; `closed_at`, the stream sample where it closed."""

    start: float
    end: float
    closed_at: int


@dataclass(frozen=True)
class _Word:
    text: str
    start: float  # seconds from the stream start
    end: float
    probability: float

    @property
    def key(self) -> str:
        """The word as decodes are compared: case and punctuation aside."""
        return _key(self.text)

    def heard(self) -> HeardWord:
        return HeardWord(self.text, round(self.start, 3), round(self.end, 3), round(self.probability, 3))


def _key(text: str) -> str:
    return re.sub(r"[^\w'-]", "", text.lower().replace("’", "'")).strip("-'")


def _same(word: _Word, other: _Word) -> bool:
    """Two decodes agree on a word when they spell it alike, case and punctuation aside, and both
    end a sentence with it or neither does (Whisper ends every buffer with a full stop)."""
    return word.key == other.key and _ends_sentence(word.text) == _ends_sentence(other.text)


def _ends_sentence(text: str) -> bool:
    key = _key(text)
    return bool(_SENTENCE_END.search(text)) and len(key) > 1 and key not in _ABBREVIATIONS


class WhisperRecognizer:
    """Streaming Whisper with a stable prefix (see the module's docstring). Whisper's vocabulary
    is open (byte-pair pieces spell any word), so `knows` says yes to any plain word.

    `accept` decodes on the caller's thread, like the other adapters, twice a second while
    someone speaks; a decode of the tiny model takes about 0.2 s on two idle cores, and
    the microphone buffers 10 s of chunks meanwhile (host/audio/sources.py)."""

    sample_rate = SAMPLE_RATE

    def __init__(
        self,
        model: Path,
        sample_rate: int = SAMPLE_RATE,
        *,
        threads: int = 2,
        confirming: Path | None = None,
        background: bool = False,
    ):
        """`model` streams; `confirming` (default: the same) makes the confirming pass, on a
        thread of its own with `background`. A second model loads on a thread of its own while
        the caller goes on (launch to listening): the first confirmation waits for it, and so does
        the end of the process (CTranslate2 aborts one that ends while it loads)."""
        check_rate(NAME, self.sample_rate, sample_rate)
        self._model = _load(model, threads)
        confirmer: Future[_ShortWindowWhisper] = Future()
        if confirming is None or confirming == model:
            confirmer.set_result(self._model)
        else:
            threading.Thread(target=_load_into, args=(confirmer, confirming, threads), name="whisper-loading").start()
        self._confirmer = _Confirmer(confirmer, background)
        self._vad = _SpeechDetector()
        self._context: str | None = None
        self.reset()

    # -- the protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        self._vad.reset()
        self._audio = np.zeros(0, np.float32)  # the buffer, or the lead-in between utterances
        self._audio_start = 0  # stream sample of self._audio[0]
        self._vad_at = 0  # stream sample up to which windows were judged
        self._speaking = False  # in an utterance
        self._voiced: list[int] = []  # stream samples ending the windows judged speech in this utterance
        self._quiet_since: int | None = None  # stream sample where the speech last fell quiet
        self._next_decode = 0  # stream sample at which the buffer is decoded next
        self._committed: list[_Word] = []  # committed words of the buffer
        self._tentative: list[_Word] = []  # the last decode's words after them
        self._utterance: list[_Word] = []  # committed words of the utterance (hypothesis) in progress
        self._shown: tuple[str, ...] = ()  # words of the last partial hypothesis given out
        self._pending: list[Hypothesis] = []
        self._recent = np.zeros(0, np.float32)  # the last HISTORY seconds of audio, for confirmations
        self._recent_start = 0  # stream sample of self._recent[0]
        self._jobs: list[_Confirmation] = []  # finished utterances waiting for their confirmation
        self._closed_end = 0.0  # stream seconds: the end of the last word of the last utterance closed
        self._confirmer.reset()

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        check_pcm(pcm)
        out, self._pending = self._pending, []
        samples = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768
        self._audio = np.concatenate((self._audio, samples))
        if self._context is not None:
            self._keep(samples)
        for probability in self._vad.probabilities(samples):
            self._vad_at += _WINDOW
            out += self._judge(float(probability))
        if not self._speaking:
            lead_in = int(LEAD_IN * self.sample_rate)
            if len(self._audio) > lead_in:
                self._audio_start += len(self._audio) - lead_in
                self._audio = self._audio[-lead_in:]
        return out + self._confirm_due() + self._confirmer.collect(wait=False)

    def finish(self) -> list[Hypothesis]:
        out, self._pending = self._pending, []
        if self._speaking:
            out += self._end_utterance(self._audio_start + len(self._audio))
        self._vad.reset()
        self._vad_at = self._audio_start + len(self._audio)
        jobs, self._jobs = self._jobs, []
        return out + self._confirm(jobs) + self._confirmer.collect(wait=True)

    def set_context(self, text: str | None) -> None:
        """The card's sentence primes the stream's decodes (`STREAM_PROMPT`) and, with the story's
        confirmed sentences so far, each confirmation's; finished utterances are confirmed from
        now on. None: no prompt, no confirmations (a dictated term or a clue is heard once)."""
        self._context = " ".join(text.split()) if text is not None else None

    def knows(self, word: str) -> bool:
        return bool(re.fullmatch(r"[^\W\d_]+(?:['’-][^\W\d_]+)*'?", word))

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """Free speech (None) closes the utterance in progress; a phrase list is refused."""
        if phrases is not None:
            raise FreeSpeechOnly()
        if self._speaking:
            self._pending += self._end_utterance(self._audio_start + len(self._audio))

    # -- utterances ----------------------------------------------------------------------------
    def _judge(self, probability: float) -> list[Hypothesis]:
        """One VAD window, ending at stream sample self._vad_at: open, decode or end an utterance."""
        end = self._vad_at
        if not self._speaking:
            if probability < SPEECH_ON:
                return []
            self._speaking, self._voiced, self._quiet_since = True, [], None
            start = max(self._audio_start, end - _WINDOW - int(LEAD_IN * self.sample_rate))
            self._audio = self._audio[start - self._audio_start :]
            self._audio_start = start
            self._next_decode = end + int(INTERVAL * self.sample_rate)
        if probability >= SPEECH_ON:
            self._voiced.append(end)
            self._quiet_since = None
        elif probability < SPEECH_OFF and self._quiet_since is None:
            self._quiet_since = end - _WINDOW
        if self._quiet_since is not None and end - self._quiet_since >= END_SILENCE * self.sample_rate:
            return self._end_utterance(end)
        if end >= self._next_decode:
            self._next_decode = end + int(INTERVAL * self.sample_rate)
            if end - self._audio_start >= FIRST_DECODE * self.sample_rate and self._speaks():
                return self._agree(self._decode(end), end)
        return []

    def _speaks(self) -> bool:
        """Whether the buffer holds enough speech to decode: a buffer cut at a sentence end may
        hold only the breath after it, where Whisper would hear "Thank you."."""
        voiced = sum(end > self._audio_start for end in self._voiced)
        return voiced * _WINDOW >= MIN_SPEECH * self.sample_rate

    def _agree(self, words: list[_Word], end: int) -> list[Hypothesis]:
        """LocalAgreement-2: commit what this decode and the last one agree on."""
        new = self._after_committed(words)
        agreed = 0
        while agreed < min(len(new), len(self._tentative)) and _same(new[agreed], self._tentative[agreed]):
            agreed += 1
        self._tentative = new[agreed:]
        out = self._commit(new[:agreed])
        if len(self._audio) > MAX_BUFFER * self.sample_rate:
            self._cut_at_last_word(end)
        return out + self._partial()

    def _end_utterance(self, end: int) -> list[Hypothesis]:
        """The last decode's words are all taken; the final hypotheses close the utterance."""
        words = self._decode(end) if self._speaks() else []
        self._tentative = []
        out = self._commit(self._after_committed(words), cut=False)
        if self._utterance or self._shown:
            out.append(self._close(len(self._utterance)))
        self._speaking, self._committed = False, []
        self._audio = self._audio[end - self._audio_start :]
        self._audio_start = end
        return out

    def _commit(self, words: list[_Word], cut: bool = True) -> list[Hypothesis]:
        """Commit words; each sentence end among them closes an utterance (and cuts the buffer)."""
        out = []
        for word in words:
            self._committed.append(word)
            self._utterance.append(word)
            if _ends_sentence(word.text):
                out.append(self._close(len(self._utterance)))
                if cut:
                    following = [w.start for w in self._tentative if w.start >= word.end]
                    self._cut((word.end + min(following, default=word.end)) / 2)
        return out

    def _close(self, count: int) -> Hypothesis:
        """A final hypothesis of the first `count` words of the utterance; the rest open the next.
        With a context, the utterance waits for its confirmation."""
        words, self._utterance = self._utterance[:count], self._utterance[count:]
        self._shown = ()
        if words and self._context is not None:
            start = max(words[0].start - CONFIRM_MARGIN, (self._closed_end + words[0].start) / 2)
            self._jobs.append(_Confirmation(start, words[-1].end, self._vad_at))
        if words:
            self._closed_end = words[-1].end
        return Hypothesis(tuple(w.heard() for w in words), final=True)

    # -- the confirming pass -------------------------------------------------------------------
    def _keep(self, samples: np.ndarray) -> None:
        """Recent audio for confirmations: the last HISTORY seconds."""
        self._recent = np.concatenate((self._recent, samples))
        excess = len(self._recent) - int(HISTORY * self.sample_rate)
        if excess > 0:
            self._recent = self._recent[excess:]
            self._recent_start += excess

    def _confirm_due(self) -> list[Hypothesis]:
        """Confirmations run as soon as the speaker is quiet, or once one has waited CONFIRM_WAIT
        for a pause (then every one waiting runs, in order). While the confirming thread is still
        busy, they wait for it, to be decoded together: one window for all (unless they would no
        longer fit in it)."""
        if not self._jobs:
            return []
        waited = self._vad_at - self._jobs[0].closed_at
        quiet = not self._speaking or self._quiet_since is not None
        if not quiet and waited < CONFIRM_WAIT * self.sample_rate:
            return []
        if MERGE_WHEN_BUSY and self._confirmer.busy and not self._overflowing():
            return []
        jobs, self._jobs = self._jobs, []
        return self._confirm(jobs)

    def _overflowing(self) -> bool:
        """Whether the waiting jobs' audio is about to outgrow the recent audio kept (HISTORY)."""
        return self._vad_at / self.sample_rate - self._jobs[0].start > HISTORY - 2 * CONFIRM_WAIT

    def _confirm(self, jobs: list[_Confirmation]) -> list[Hypothesis]:
        """The jobs to the confirmer; what it already confirmed (on this thread). The window costs
        the same however little it holds, so utterances that waited together go together (up to
        the window)."""
        out: list[Hypothesis] = []
        while jobs:
            together = [job for job in jobs if job.end - jobs[0].start <= HISTORY - 2 * CONFIRM_MARGIN] or jobs[:1]
            jobs = jobs[len(together) :]
            out += self._confirmer.submit(self._batch(together))
        return out

    def _batch(self, jobs: list[_Confirmation]) -> _Batch:
        """The jobs' audio, from the first one's start to CONFIRM_MARGIN after the streamed last
        word, or halfway to the next word heard (not to clip that word)."""
        end = jobs[-1].end
        following = [w.start for w in (*self._utterance, *self._tentative) if w.start >= end]
        stop = min(end + CONFIRM_MARGIN, (end + min(following, default=math.inf)) / 2)
        first = max(int(jobs[0].start * self.sample_rate), self._recent_start)
        last = max(first, min(int(stop * self.sample_rate), self._recent_start + len(self._recent)))
        audio = self._recent[first - self._recent_start : last - self._recent_start].copy()
        starts = tuple(job.start for job in jobs)
        return _Batch(audio, first / self.sample_rate, starts, end, self._context or "", self._confirmer.story)

    def _partial(self) -> list[Hypothesis]:
        texts = tuple(w.text for w in self._utterance)
        if texts == self._shown:
            return []
        self._shown = texts
        return [Hypothesis(tuple(w.heard() for w in self._utterance), final=False)]

    def _cut(self, time: float) -> None:
        """Drop the buffer's audio and committed words before `time` (stream seconds)."""
        sample = min(max(int(time * self.sample_rate), self._audio_start), self._audio_start + len(self._audio))
        self._audio = self._audio[sample - self._audio_start :]
        self._audio_start = sample
        self._committed = [w for w in self._committed if w.end > time]

    def _cut_at_last_word(self, end: int) -> None:
        """A buffer grown too long without a sentence end is cut at its last committed word, or,
        with none, all of its words are taken as they stand (a buffer of no words is dropped)."""
        if not self._committed and self._tentative:
            self._utterance += self._tentative
            self._committed, self._tentative = self._tentative, []
        self._cut(self._committed[-1].end if self._committed else end / self.sample_rate)

    def _after_committed(self, words: list[_Word]) -> list[_Word]:
        """The decode's words past the committed ones (which the buffer's audio still holds):
        those starting before the last committed word's end are dropped, then any of its last
        words repeated at the start (the same word, its time shifted by the new decode)."""
        if not self._committed:
            return words
        last = self._committed[-1].end
        words = [w for w in words if w.start > last - 0.1]
        if words and words[0].start - last < 1.0:
            committed = [w.key for w in self._committed]
            for n in range(min(5, len(committed), len(words)), 0, -1):
                if committed[-n:] == [w.key for w in words[:n]]:
                    return words[n:]
        return words

    # -- decoding ------------------------------------------------------------------------------
    def decode(self, pcm: bytes) -> tuple[HeardWord, ...]:
        """One short utterance (a spoken command) decoded once, whole: beam `WHOLE_BEAM`, no
        prompt (host.speech.split_recognizer says why), the same window and guards as the
        stream. Word times are seconds from the start of `pcm`. The stream's agreement policy
        loses the words of a two-word command ("c one" heard as "Thank you.")."""
        check_pcm(pcm)
        audio = np.frombuffer(pcm, "<i2").astype(np.float32) / 32768
        words = _transcribe(self._model, audio, 0.0, WHOLE_BEAM, None, MIN_WINDOW)
        return tuple(word.heard() for word in words)

    def _decode(self, end: int) -> list[_Word]:
        """The buffer up to stream sample `end`, transcribed, without Whisper's inventions."""
        audio = self._audio[: end - self._audio_start]
        prompt = (self._context or None) if STREAM_PROMPT else None  # the card's sentence
        return _transcribe(self._model, audio, self._audio_start / self.sample_rate, BEAM, prompt, MIN_WINDOW)


class _Confirmer:
    """Decodes finished utterances again (batch after batch, in order) with Whisper's full window
    and WHOLE_BEAM, the card and the story's confirmed sentences so far (at most PROMPT_CHARS)
    as the prompt: one confirmed hypothesis per utterance. On the caller's thread, or with
    `background` on its own, whose results the caller collects as they come."""

    def __init__(self, model: Future[_ShortWindowWhisper], background: bool) -> None:
        self._model = model
        self._background = background
        self.story = 0  # which story the caller is hearing (a reset starts the next)
        self._heard_story = -1  # the story of `self._said` (the decoding thread's)
        self._said: list[str] = []
        self._todo: queue.Queue[_Batch] = queue.Queue()
        self._done: queue.Queue[tuple[int, list[Hypothesis] | Exception]] = queue.Queue()
        self._waiting = 0  # batches on the thread, not collected yet
        self._thread: threading.Thread | None = None
        self._decoding = threading.Lock()  # held by the thread while it decodes
        self._closing = False

    def reset(self) -> None:
        """What is on its way belongs to a story that is over: it is dropped."""
        self.story += 1

    def submit(self, batch: _Batch) -> list[Hypothesis]:
        """The batch's confirmations, or (background) none yet."""
        if not self._background:
            return self._confirm(batch)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="whisper-confirming", daemon=True)
            self._thread.start()
            atexit.register(self._close)
        self._todo.put(batch)
        self._waiting += 1
        return []

    @property
    def busy(self) -> bool:
        """Whether the thread is decoding or has batches waiting."""
        return self._background and (self._decoding.locked() or not self._todo.empty())

    def collect(self, wait: bool) -> list[Hypothesis]:
        """The confirmations done on the thread (with `wait`, all of those on their way)."""
        out: list[Hypothesis] = []
        while self._waiting:
            try:
                story, result = self._done.get(block=wait)
            except queue.Empty:
                break
            self._waiting -= 1
            if isinstance(result, Exception):
                raise result
            if story == self.story:
                out += result
        return out

    def _work(self) -> None:
        while True:
            batch = self._todo.get()
            with self._decoding:
                if self._closing:
                    return
                try:
                    self._done.put((batch.story, self._confirm(batch)))
                except Exception as error:  # handed to the caller's thread, which raises it
                    self._done.put((batch.story, error))

    def _close(self) -> None:
        """At the process's end: the decode under way is finished (CTranslate2 aborts a process
        that ends in one), the rest dropped."""
        self._closing = True
        with self._decoding:
            pass

    def _confirm(self, batch: _Batch) -> list[Hypothesis]:
        """Words that start after the streamed last word did are the next utterance's start, or
        Whisper's inventions in the silence after the utterance ("moment. We'll see you in the
        next video"). Each utterance takes the words from its start on."""
        if batch.story != self._heard_story:
            self._heard_story, self._said = batch.story, []
        _give_back_memory()
        words = [] if not len(batch.audio) else _transcribe(
            self._model.result(), batch.audio, batch.offset, WHOLE_BEAM, self._prompt(batch.context), CONFIRM_WINDOW
        )
        _give_back_memory()
        words = [w for w in words if w.start < batch.end - LATE_START]
        out = []
        for following in [*batch.starts[1:], None]:
            own = [w for w in words if following is None or (w.start + w.end) / 2 < following]
            words = words[len(own) :]
            if own:
                self._said.append(" ".join(w.text for w in own))
            out.append(Hypothesis(tuple(w.heard() for w in own), final=True, confirmed=True))
        return out

    def _prompt(self, context: str) -> str | None:
        """The card's sentence, then as much of the story as fits in PROMPT_CHARS (whole words)."""
        story = " ".join(self._said)
        if len(story) > PROMPT_CHARS:
            story = story[-PROMPT_CHARS:].partition(" ")[2]
        return " ".join(part for part in (context, story) if part) or None


@dataclass(frozen=True)
class _Batch:
    """Finished utterances to decode again together: their audio, from `offset` stream seconds;
    each utterance's start; the streamed last word's end; the card's sentence; the story."""

    audio: np.ndarray
    offset: float
    starts: tuple[float, ...]
    end: float
    context: str
    story: int


def _transcribe(
    model: _ShortWindowWhisper, audio: np.ndarray, offset: float, beam: int, prompt: str | None, window: float
) -> list[_Word]:
    """`audio`, starting `offset` stream seconds in, transcribed, without Whisper's inventions;
    the encoder sees the audio and PADDING, at least `window` seconds (at most Whisper's 30)."""
    model.frames = min(3000, max(round(window * 100), math.ceil(len(audio) / 160 + PADDING * 100)))
    segments, _ = model.transcribe(
        audio,
        language="en",
        beam_size=beam,
        temperature=0.0,
        condition_on_previous_text=False,
        initial_prompt=prompt,
        word_timestamps=True,
        no_speech_threshold=NO_SPEECH,
        log_prob_threshold=LOW_LOGPROB,
        compression_ratio_threshold=MAX_COMPRESSION,
        max_new_tokens=int(len(audio) / SAMPLE_RATE * MAX_TOKEN_RATE) + 16,
    )
    limit = offset + len(audio) / SAMPLE_RATE
    words = []
    for segment in segments:
        if segment.compression_ratio > MAX_COMPRESSION or _caption(segment.text):
            continue
        if segment.no_speech_prob > NO_SPEECH and segment.avg_logprob < LOW_LOGPROB:
            continue
        pieces: list[_Word] = []
        for w in segment.words or ():
            text = _TRAILING_OFF.sub("", w.word.strip())
            if pieces and text.startswith("-"):  # faster-whisper splits "cold-hearted" at "-"
                last = pieces.pop()
                pieces.append(_Word(last.text + text, last.start, min(offset + w.end, limit), min(last.probability, w.probability)))
            elif _key(text):
                pieces.append(_Word(text, min(offset + w.start, limit), min(offset + w.end, limit), w.probability))
        words += _unlooped(pieces)
    return words


def _caption(text: str) -> bool:
    """A segment that is one of the phrases Whisper invents on non-speech (from video captions)."""
    plain = " ".join(re.sub(r"[^\w' ]", " ", text.lower()).split())
    return plain in CAPTIONS or plain.startswith(_CAPTION_PREFIXES)


def _unlooped(words: list[_Word]) -> list[_Word]:
    """The words with any n-gram said LOOPS[n] or more times in a row kept once ("very very"
    and "run away, run away" may be meant, three words twice over hardly)."""
    keys = [w.key for w in words]
    out: list[_Word] = []
    i = 0
    while i < len(words):
        for n, loop in LOOPS.items():
            gram = keys[i : i + n]
            repeats = 1
            while keys[i + repeats * n : i + (repeats + 1) * n] == gram:
                repeats += 1
            if len(gram) == n and repeats >= loop:
                out += words[i : i + n]
                i += repeats * n
                break
        else:
            out.append(words[i])
            i += 1
    return out
