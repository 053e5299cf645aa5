"""One recognizer made of two: free speech through one (Whisper), phrase lists through another
(PocketSphinx or Vosk), on one clock.

Whisper hears stories, clues and readings far better, but cannot be restricted to a closed
grammar; the commands need one. Only the recognizer in use is fed audio. Each restarts its clock
when it takes over, and its times are shifted by the stream time at which it did, so every
hypothesis is in stream time, as from a single recognizer.

Under a phrase list the grammar recognizer cuts the utterances, and Whisper decodes each one whole:
its words are the hypothesis' loose pass. Whisper then weighs the phrases its words sound most like,
and the grammar's answer, each held to the audio (`WhisperRecognizer.weigh`): the likeliest is the
hypothesis' words, the grammar's answer on which the command is decided (`nlp.commands.understand`),
vouched for when it is the grammar recognizer's answer too. On a real human voice over a telephone
line (Debian's asterisk-core-sounds-en-wav) the closed grammar heard 22 of 32 grid coordinates right
(C heard as D, D as B), Whisper's whole decode all 32 (tests/benchmarks/bench_commands.py).
Whisper's free words alone, though, are often no phrase at all for a synthetic voice's short command
("T1" for "c one", "Do you want?" for "d one"); weighed, the phrases took the host from 93.8, 93.8,
87.5 % of the grid coordinates right on festival's kal, Piper's joe and espeak-ng to 96.9, 96.9,
93.8 % (the free words choosing, checked by PocketSphinx's grammar, before). Whisper is given no
context: with the 16 phrases as its prompt it heard nothing in 26 of those 32 utterances; with the
phrases of the moment as hot words (measured once on every voice) it got the other commands of the
games right less often on every voice (83 to 86 % instead of 83 to 97 %) and this human voice's
coordinates 27 times in 32.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from games.language import _
from host.speech.recognizer import Hypothesis, Recognizer, RecognizerError, check_pcm
from nlp.commands import spoken
from nlp.ticks import HeardWord

#: seconds of audio kept before the grammar's first word for the whole decode (its word times
#: are those of a forced alignment: the speech may start earlier)
LEAD_IN = 0.5
#: seconds: a command is short; a longer utterance is decoded from its last seconds
MAX_UTTERANCE = 10.0


class WholeDecoder(Recognizer, Protocol):
    """A free-speech recognizer that can also decode one short utterance whole."""

    def decode(self, pcm: bytes) -> tuple[HeardWord, ...]:
        """The words said in `pcm`, one short utterance."""
        ...

    def weigh(self, pcm: bytes, phrases: Sequence[str], heard: str, also: str | None = None) -> tuple[str, float]:
        """Of `phrases`, the likeliest said in `pcm` (among those `heard` sounds most like, and
        `also`), or "" when even it is too unlikely to have been said; and how likely."""
        ...


class SplitRecognizer:
    """`free` hears free speech (no phrase list) and, under a phrase list, what each utterance
    the `grammar` recognizer closed said in any words; `knows()` is the grammar recognizer's,
    since only a phrase list needs a word to be in the dictionary."""

    def __init__(self, free: WholeDecoder, grammar: Recognizer) -> None:
        if free.sample_rate != grammar.sample_rate:
            raise RecognizerError(_("The two recognizers need different sample rates ({free} and {grammar} Hz).").format(
                free=free.sample_rate, grammar=grammar.sample_rate))
        self.sample_rate = free.sample_rate
        self.free, self.grammar = free, grammar
        self._active: Recognizer = free
        self._phrases: tuple[str, ...] = ()  # the grammar's phrase list, which the free recognizer weighs too
        self.reset()

    def reset(self) -> None:
        self._active.reset()
        self._samples = 0  # taken since the last reset
        self._offset = 0.0  # stream time at which the active recognizer's clock started
        self._pending: list[Hypothesis] = []  # the utterance closed by a switch
        self._audio = bytearray()  # under a phrase list: the audio since the last utterance closed
        self._audio_start = 0.0  # its start on the active recognizer's clock

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        check_pcm(pcm)
        self._samples += len(pcm) // 2
        out, self._pending = self._pending, []
        if self._active is self.grammar:
            self._audio += pcm
        return out + self._shifted(self._decoded(self._active.accept(pcm)))

    def finish(self) -> list[Hypothesis]:
        out, self._pending = self._pending, []
        return out + self._shifted(self._decoded(self._active.finish()))

    def knows(self, word: str) -> bool:
        return self.grammar.knows(word)

    def set_context(self, text: str | None) -> None:
        """The context of free speech (a story's card), for the free recognizer."""
        self.free.set_context(text)

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """A phrase list goes to the grammar recognizer (checked there first: a refused list
        changes nothing); None hands free speech back to the free one. On a switch the utterance
        in progress is closed, and comes out of the next `accept` or `finish`."""
        chosen = self.free if phrases is None else self.grammar
        if chosen is self.grammar:
            self.grammar.set_phrases(phrases)
            self._phrases = tuple(phrases or ())
        if chosen is self._active:
            return
        self._pending += self._shifted(self._decoded(self._active.finish()))
        chosen.reset()
        self._active = chosen
        self._offset = self._samples / self.sample_rate
        self._audio, self._audio_start = bytearray(), 0.0

    def _decoded(self, hypotheses: list[Hypothesis]) -> list[Hypothesis]:
        """The grammar's final hypotheses with Whisper's whole decode of their audio as the loose
        pass, and the phrase Whisper weighs likeliest as their words (spanning the grammar's
        words, the phrase's likelihood their confidence), or none when it is too unlikely. An
        utterance Whisper hears as nothing keeps the grammar's words: no free words, no command."""
        if self._active is not self.grammar:
            return hypotheses
        out = []
        for hypothesis in hypotheses:
            if hypothesis.final:
                pcm = self._utterance(hypothesis)
                loose = " ".join(w.text for w in self.free.decode(pcm))
                hypothesis = replace(hypothesis, loose=loose)
                if loose and self._phrases:
                    grammar_answer = spoken(hypothesis.text)
                    best, likelihood = self.free.weigh(pcm, self._phrases, loose, grammar_answer)
                    start = hypothesis.words[0].start if hypothesis.words else None
                    end = hypothesis.words[-1].end if hypothesis.words else None
                    words = tuple(HeardWord(word, start, end, likelihood) for word in best.split())
                    hypothesis = replace(hypothesis, words=words, vouched=bool(best) and best == grammar_answer)
            out.append(hypothesis)
        return out

    def _utterance(self, hypothesis: Hypothesis) -> bytes:
        """The audio of a closed utterance: from a little before its first word (or since the
        last utterance closed) to now; the audio kept is cut there."""
        now = self._audio_start + len(self._audio) / 2 / self.sample_rate
        first = hypothesis.words[0].start if hypothesis.words else None
        start = max(self._audio_start, now - MAX_UTTERANCE, -1.0 if first is None else first - LEAD_IN)
        pcm = bytes(self._audio[int((start - self._audio_start) * self.sample_rate) * 2:])
        self._audio, self._audio_start = bytearray(), now
        return pcm

    def _shifted(self, hypotheses: list[Hypothesis]) -> list[Hypothesis]:
        if not self._offset:
            return hypotheses
        return [replace(hypothesis, words=self._moved(hypothesis.words), lookahead=self._moved(hypothesis.lookahead))
                for hypothesis in hypotheses]

    def _moved(self, words: tuple[HeardWord, ...]) -> tuple[HeardWord, ...]:
        return tuple(replace(word, start=None if word.start is None else round(word.start + self._offset, 3),
                             end=None if word.end is None else round(word.end + self._offset, 3)) for word in words)

