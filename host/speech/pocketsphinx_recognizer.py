"""PocketSphinx 5 with the US English model bundled in its wheel: works with no download.

Utterances are cut by PocketSphinx's voice-activity Endpointer (its defaults: a pause of about
0.3 s; stricter settings split festival's sentences but clip words), but the decoder is fed
every frame as it arrives, not the Endpointer's output, which lags by its decision window: a
word then shows in a partial hypothesis a median 0.05 s after its end (p95 0.3 s; see
tests/benchmarks/bench_asr.py). Between utterances the last window of frames is kept, so an
utterance starts where the Endpointer says speech began.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from pocketsphinx import Decoder, Endpointer

from host.speech.recognizer import (
    SAMPLE_RATE,
    Hypothesis,
    UnknownWords,
    check_pcm,
    check_rate,
    phrase_words,
)
from nlp.ticks import HeardWord

NAME = "PocketSphinx"
_PHRASES = "phrases"  # name of the grammar search


class PocketSphinxRecognizer:
    """Word times come from the decoder's segmentation, for partial hypotheses too (their last
    word's end moves while it is being spoken). Confidences are word posteriors, on final
    hypotheses only: mid-utterance PocketSphinx has none, so partial words carry None."""

    sample_rate = SAMPLE_RATE

    def __init__(self, sample_rate: int = SAMPLE_RATE, loose: bool = True):
        """`loose`: hear free speech, and under a phrase list make the loose pass. False when
        another recognizer does both (host.speech.split_recognizer): the loose pass costs about as
        much as the grammar's own decode, and the n-gram model is then not loaded (65 MB less in
        memory, tests/benchmarks/bench_live.py); with no phrase list it hears nothing."""
        check_rate(NAME, self.sample_rate, sample_rate)
        self._loose = loose
        self._decoder = Decoder(loglevel="FATAL", samprate=self.sample_rate, **({} if loose else {"lm": None}))
        self._frames_per_second = self._decoder.config["frate"]
        self._utterance_start: float | None = None  # seconds; None between utterances
        self._phrases = False  # a phrase list is active: finals also get a loose pass
        self.reset()
        self.set_phrases(None)  # without the n-gram model, a decoder with no search crashes

    def reset(self) -> None:
        if self._utterance_start is not None:
            self._decoder.end_utt()
        self._decoder.reinit_feat()  # forget the channel estimate: the same audio, the same result
        self._endpointer = Endpointer(sample_rate=self.sample_rate)
        self._frame_bytes = self._endpointer.frame_bytes
        self._frame_seconds = self._frame_bytes / 2 / self.sample_rate
        window = int(Endpointer.DEFAULT_WINDOW / self._frame_seconds) + 2
        self._recent: deque[tuple[float, bytes]] = deque(maxlen=window)  # frames before speech
        self._buffer = b""  # the start of an incomplete frame
        self._time = 0.0  # seconds of audio taken so far
        self._utterance_start = None
        self._partial: tuple[str, ...] = ()  # words of the last partial hypothesis given out
        self._heard = bytearray()  # the utterance's audio, for the loose pass under a phrase list
        self._pending: list[Hypothesis] = []

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        check_pcm(pcm)
        out, self._pending = self._pending, []
        self._buffer += pcm
        whole = len(self._buffer) - len(self._buffer) % self._frame_bytes
        for i in range(0, whole, self._frame_bytes):
            out += self._take(self._buffer[i : i + self._frame_bytes])
        self._buffer = self._buffer[whole:]
        if self._utterance_start is not None:
            words = self._words(final=False)
            if tuple(w.text for w in words) != self._partial:
                self._partial = tuple(w.text for w in words)
                out.append(Hypothesis(words, final=False))
        return out

    def finish(self) -> list[Hypothesis]:
        out, self._pending = self._pending, []
        if self._utterance_start is not None:
            if self._buffer:
                self._decoder.process_raw(self._buffer)
                self._heard += self._buffer
            out += self._end_utterance()
        self._time += len(self._buffer) / 2 / self.sample_rate
        self._buffer = b""
        return out

    def knows(self, word: str) -> bool:
        return self._decoder.lookup_word(word) is not None

    def set_context(self, text: str | None) -> None:
        """Ignored: PocketSphinx's n-gram model takes no prompt, and a grammar of the card's words
        would force every sound into them; nor can it decode an utterance again to confirm it."""

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """Phrases become a JSGF grammar: an utterance is one of them, or nothing."""
        if phrases is not None:
            phrases = [" ".join(words) for words in phrase_words(phrases)]
            unknown = sorted({w for p in phrases for w in p.split() if not self.knows(w)})
            if unknown:
                raise UnknownWords(NAME, unknown)
        if self._utterance_start is not None:
            self._pending += self._end_utterance()
        self._phrases = phrases is not None
        if phrases is None and self._loose:
            self._decoder.activate_search()
            return
        rule = " | ".join(phrases) if phrases else "<VOID>"
        self._decoder.add_jsgf_string(_PHRASES, f"#JSGF V1.0;\ngrammar {_PHRASES};\npublic <phrase> = {rule};\n")
        self._decoder.activate_search(_PHRASES)

    def _take(self, frame: bytes) -> list[Hypothesis]:
        """One Endpointer frame: start, feed or end an utterance."""
        time, self._time = self._time, self._time + self._frame_seconds
        self._endpointer.process(frame)
        if self._utterance_start is not None:
            self._decoder.process_raw(frame)
            self._heard += frame
            return [] if self._endpointer.in_speech else self._end_utterance()
        self._recent.append((time, frame))
        if self._endpointer.in_speech:
            start = self._endpointer.speech_start - self._frame_seconds / 2
            backlog = [(t, f) for t, f in self._recent if t >= start]
            self._recent.clear()
            self._utterance_start = backlog[0][0]
            self._decoder.start_utt()
            self._heard = bytearray(b"".join(f for _, f in backlog))
            self._decoder.process_raw(bytes(self._heard))
        return []

    def _end_utterance(self) -> list[Hypothesis]:
        """The final hypothesis; none for free speech that never showed a word."""
        self._decoder.end_utt()
        words = self._words(final=True)
        self._utterance_start = None
        shown, self._partial = self._partial, ()
        loose = self._loose_pass() if self._phrases and self._loose else None
        # under a phrase list every utterance is closed: the loose pass may hear what the grammar did not
        return [Hypothesis(words, final=True, loose=loose)] if words or shown or self._phrases else []

    def _loose_pass(self) -> str:
        """The utterance decoded again with the language model: what was said, in any words."""
        self._decoder.activate_search()
        self._decoder.start_utt()
        self._decoder.process_raw(bytes(self._heard), full_utt=True)
        self._decoder.end_utt()
        hypothesis = self._decoder.hyp()
        self._decoder.activate_search(_PHRASES)
        return "" if hypothesis is None else hypothesis.hypstr

    def _words(self, final: bool) -> tuple[HeardWord, ...]:
        start, rate = self._utterance_start, self._frames_per_second
        return tuple(
            HeardWord(
                word,
                round(start + segment.start_frame / rate, 3),
                round(start + (segment.end_frame + 1) / rate, 3),
                min(segment.prob, 1.0) if final else None,  # log-space rounding: up to 1.0003
            )
            for segment in self._decoder.seg() or ()  # None when a grammar matched nothing yet
            if (word := spoken_word(segment.word)) is not None
        )


def spoken_word(token: str) -> str | None:
    """A decoder's token as the word said: None for its fillers (<s>, </s>, <sil>, [NOISE],
    [SPEECH]), the word alone for an alternative pronunciation ("was(2)")."""
    if token.startswith(("<", "[")):
        return None
    return token.split("(")[0]
