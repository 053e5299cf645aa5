"""A live Stories! round: the keyboard and the microphone feed one queue that the session reads.

The keyboard is read by one thread all game long. The microphone is opened when a story's
narration starts and closed when it ends; its thread streams chunks through the gate (muted
while the host makes a sound) and the recognizer, and puts each hypothesis on the queue. The
session alone touches the game: threads only put things on the queue.
"""
from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

from games.language import _
from host.audio.sources import AudioChunk, AudioDeviceError, MicGate, Microphone, MicrophoneLost
from host.session.events import ClockWake, Heard, InputEnded, InputEvent, MicrophoneBack, MicrophoneGone, Typed
from host.session.inputs import Listening, reveal, set_echo
from host.speech.hearing import hear
from host.speech.recognizer import Recognizer


class LiveInput:
    """Keyboard lines, heard speech and microphone news, in the order they happened."""

    #: a microphone hears the story (the session need not tell the table to type it)
    hears_speech = True

    def __init__(
        self,
        open_microphone: Callable[[], Microphone],
        recognizer: Recognizer,
        gate: MicGate,
        keyboard: TextIO = sys.stdin,
    ) -> None:
        self.open_microphone, self.recognizer, self.gate, self.keyboard = open_microphone, recognizer, gate, keyboard
        self._queue: queue.Queue[InputEvent] = queue.Queue()
        self._listening: threading.Event | None = None
        self._listener: threading.Thread | None = None
        self._retune: tuple[Sequence[str] | None, bool, str | None] | None = None  # phrases, restart, context: for the mic thread
        self._retune_lock = threading.Lock()
        self._phrases: tuple[str, ...] | None | bool = False  # what the recognizer listens for (False: not set)
        self._context: str | None = None  # what the free speech continues
        self.hidden = False  # typing hidden: terms or votes are typed (`_secret`), or a tick (`_secret_words`)
        self._secret = self._secret_words = False
        threading.Thread(target=self._read_keyboard, name="keyboard", daemon=True).start()

    def _read_keyboard(self) -> None:
        for line in self.keyboard:
            self._queue.put(Typed(line.strip()))
        self._queue.put(InputEnded())

    def put(self, item: InputEvent) -> None:
        """Something for the session from another thread (a phone's command), in its turn."""
        self._queue.put(item)

    def read(self, timeout: float | None) -> InputEvent:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return ClockWake()

    def secret(self, hidden: bool) -> None:
        self._hide(hidden, self._secret_words)

    def hide_after(self, commands: frozenset[str]) -> None:
        """The terminal echoes a line as it is typed and cannot hide the words after a command
        alone: while some command's words are secret (a tick during a story told aloud, when
        nobody types the story), all typing is hidden."""
        self._hide(self._secret, bool(commands))

    def _hide(self, secret: bool, secret_words: bool) -> None:
        self._secret, self._secret_words = secret, secret_words
        if (secret or secret_words) != self.hidden:
            self.hidden = secret or secret_words
            set_echo(self.keyboard, not self.hidden)

    def reveal(self, title: str, lines: list[str]) -> None:
        """At a terminal, one player's secret lines only after Enter, wiped at the next Enter;
        what is heard meanwhile waits its turn. Elsewhere (a pipe) they are printed."""
        if not self.keyboard.isatty():
            for line in lines:
                print(line)
            return
        waiting: list[InputEvent] = []
        set_echo(self.keyboard, False)
        try:
            reveal(sys.stdout, title, lines, lambda: self._next_typed(waiting), _("Enter"))
        finally:
            set_echo(self.keyboard, not self.hidden)
            for item in waiting:
                self._queue.put(item)

    def _next_typed(self, waiting: list[InputEvent]) -> None:
        """Wait for the next typed line, keeping everything else that comes first."""
        if any(isinstance(item, InputEnded) for item in waiting):  # the keyboard is gone: nothing more will be typed
            return
        while not isinstance(item := self._queue.get(), (InputEnded, Typed)):
            waiting.append(item)
        if isinstance(item, InputEnded):
            waiting.append(item)

    @property
    def listening(self) -> bool:
        return self._listening is not None

    def listen(self, wanted: Listening | None) -> None:
        """The microphone open for `wanted` (a change of phrases is made from the next chunk on;
        a story forgets the audio before it, so its times count from its start), or closed."""
        if wanted is None:
            self.stop_listening()
            return
        if wanted.phrases != self._phrases or wanted.context != self._context:
            self.listen_for(wanted.phrases, restart=wanted.story and self._phrases is not None, context=wanted.context)
            self._phrases, self._context = wanted.phrases, wanted.context
        self.start_listening()

    def start_listening(self) -> None:
        """Open the microphone and hear the story (times start at 0 now)."""
        if self._listening is not None:
            return
        self.recognizer.reset()
        self._listening = threading.Event()
        self._listener = threading.Thread(target=self._listen, args=(self._listening,), name="microphone", daemon=True)
        self._listener.start()

    def listen_for(self, phrases: Sequence[str] | None, restart: bool = False, context: str | None = None) -> None:
        """From the next chunk on, hear only these phrases (None: free speech, continuing
        `context`); with `restart` forget the audio so far, so times count from now (a story's
        start). The change is made on the microphone's thread, which alone touches the
        recognizer while it listens."""
        with self._retune_lock:
            self._retune = (phrases, restart, context)
        if self._listening is None:
            self._apply_retune()

    def _apply_retune(self) -> None:
        with self._retune_lock:
            retune, self._retune = self._retune, None
        if retune is not None:
            phrases, restart, context = retune
            if restart:
                self.recognizer.reset()
            self.recognizer.set_phrases(phrases)
            self.recognizer.set_context(context)

    def _retuned(self, chunks: Iterable[AudioChunk]) -> Iterator[AudioChunk]:
        for chunk in chunks:
            self._apply_retune()
            yield chunk

    def stop_listening(self) -> None:
        """Close the microphone; what was still being heard comes out as a final hypothesis."""
        if self._listening is None or self._listener is None:
            return
        self._listening.set()
        self._listener.join(timeout=5)
        self._listening = self._listener = None

    def _listen(self, stop: threading.Event) -> None:
        try:
            microphone = self.open_microphone()
        except AudioDeviceError as error:
            self._queue.put(MicrophoneGone(str(error)))
            return
        at = 0.0
        try:
            while not stop.is_set():
                try:
                    for heard in hear(self._retuned(until(stop, map(self.gate.mute, microphone))), self.recognizer, finish=False):
                        self._queue.put(heard)
                        at = heard.at
                    return  # stopped, or the source ended (a file standing in for a microphone)
                except MicrophoneLost as lost:
                    self._queue.put(MicrophoneGone(str(lost)))
                    if not microphone.reconnect(cancel=stop):
                        return
                    self._queue.put(MicrophoneBack())
        finally:
            for hypothesis in self.recognizer.finish():
                self._queue.put(Heard(hypothesis, at))
            microphone.close()


def until(stop: threading.Event, chunks: Iterable[AudioChunk]) -> Iterator[AudioChunk]:
    """The chunks, until `stop` is set."""
    for chunk in chunks:
        if stop.is_set():
            return
        yield chunk
