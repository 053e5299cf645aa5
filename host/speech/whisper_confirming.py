"""The confirming pass of the Whisper stream (host.speech.whisper_recognizer): finished utterances
decoded once more as a whole, with a wide encoder window and a wider beam, the card and the story's
confirmed sentences as the prompt (from where the prompt made Whisper loop, without it). It runs
on the caller's thread (deterministic: files) or on a thread of its own (a microphone), so that it
never holds the stream up.
"""
from __future__ import annotations

import atexit
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from host.speech.recognizer import Hypothesis
from host.speech.whisper_decoding import WHOLE_BEAM, ShortWindowWhisper, give_back_memory, transcribe

LATE_START = 0.1  # seconds before the streamed last word's end: a confirmed word starting later is dropped
PROMPT_CHARS = 200  # the previous sentences in a confirmation's prompt, at most (after the card)
# seconds: a confirmation's shortest encoder window (30: Whisper's full window). The encoder's
# window is most of a confirmation's cost (base, beam 5, 4 s of speech on idle cores: 1.37 s with
# 30, 0.73 with 20, 0.62 with 15) and its beams' attention over it a live round's peak memory.
# Measured live, each story after its card (bench_audio_terms.py --every 6 --cards --live), 20
# against 30: judged slt 0.973 / 0.959, kal 0.946 / 0.955, joe 0.973 / 0.964, slt+talk 0.743 /
# 0.761 (joe and slt+talk with 30 fed at once); a confirmation's added tick p95 slt 2.07 / 2.53 s,
# kal 2.41 / 3.81 s. Earlier, every 9th story: 15 judged slt, kal, slt+talk 0.965, 0.924, 0.676
# against 0.971, 0.929, 0.688 with 30; 10 heard a term in table talk that has none.
# Again with the talk mixed three ways (--card-half --talk-from 0 5 11), 15 against 20: slt+talk
# judged 517 / 508 of 666, slt, kal, joe the same (214, 209, 217 of 222), CPU / 2 cores about
# 0.58 / 0.60, slt+talk's added tick p95 3.9 and 4.5 s (two runs) / 4.2 s; but 15 heard "two"
# in 60 s of table talk with no term in it (bench_audio_terms.py --every 30), 20 nothing.
CONFIRM_WINDOW = 20


class Confirmer:
    """Decodes finished utterances again (batch after batch, in order) with an encoder window of
    at least CONFIRM_WINDOW and WHOLE_BEAM, the card and the story's confirmed sentences so far
    (at most PROMPT_CHARS) as the prompt: one confirmed hypothesis per utterance. On the caller's
    thread, or with `background` on its own, whose results the caller collects as they come."""

    def __init__(self, model: Future[ShortWindowWhisper], background: bool) -> None:
        self._model = model
        self._background = background
        self.story = 0  # which story the caller is hearing (a reset starts the next)
        self._heard_story = -1  # the story of `self._said` (the decoding thread's)
        self._said: list[str] = []
        self._todo: queue.Queue[Batch] = queue.Queue()
        self._done: queue.Queue[tuple[int, list[Hypothesis] | Exception]] = queue.Queue()
        self._waiting = 0  # batches on the thread, not collected yet
        self._thread: threading.Thread | None = None
        self._decoding = threading.Lock()  # held by the thread while it decodes
        self._closing = False

    def reset(self) -> None:
        """What is on its way belongs to a story that is over: it is dropped."""
        self.story += 1

    def submit(self, batch: Batch) -> list[Hypothesis]:
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

    def _confirm(self, batch: Batch) -> list[Hypothesis]:
        """Words that start after the streamed last word did are the next utterance's start, or
        Whisper's inventions in the silence after the utterance ("moment. We'll see you in the
        next video"). Each utterance takes the words from its start on."""
        if batch.story != self._heard_story:
            self._heard_story, self._said = batch.story, []
        give_back_memory()
        words = [] if not len(batch.audio) else transcribe(
            self._model.result(), batch.audio, batch.offset, WHOLE_BEAM, self._prompt(batch.context), CONFIRM_WINDOW,
            unprompted_retry=True,
        )
        give_back_memory()
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
class Batch:
    """Finished utterances to decode again together: their audio, from `offset` stream seconds;
    each utterance's start; the streamed last word's end; the card's sentence; the story."""

    audio: np.ndarray
    offset: float
    starts: tuple[float, ...]
    end: float
    context: str
    story: int
