"""Whisper (faster-whisper, CTranslate2 int8 on the CPU) made a stream, for free speech.

Whisper transcribes windows of audio, not streams. This adapter makes it one:

- Silero VAD (the model faster-whisper ships), run on every 32 ms window as audio arrives,
  opens an utterance where speech starts (with a short lead-in) and ends it after
  `END_SILENCE` of quiet. Nothing else is ever decoded: silence, noise and music cost nothing
  and say nothing.
- During an utterance the buffer (its audio so far) is decoded every `INTERVAL` of audio, when it
  holds `MIN_SPEECH` of speech, at most once per chunk: a reader that fell behind the microphone is
  handed what waited as one chunk (host/audio/sources.py) and decodes it once. A word is committed
  once two successive decodes agree on it (a sentence end too, but for the full stop Whisper ends
  each buffer with: `_same`), the LocalAgreement-2 policy of ufal/whisper_streaming: Whisper's last
  words in a buffer that cuts speech short are guesses it often revises, the words both decodes
  share rarely change. Partial hypotheses show committed words only, so a word shown is never taken
  back: showing the last decode's other words as well made ticks sooner but took back 1.4 to 4.5 %
  of them. Those words come as the hypothesis' lookahead instead: the context that decides whether a
  committed word ends a compound, a decode before they are committed. The interval sets the delay
  and the cost: on the spoken-story benchmark (festival slt), a tick came a p95 of 1.50 s after its
  word with 0.5 s, 1.19 s with 0.4 s (live, add a decode), for a fifth more CPU time and 0.930
  judgement accuracy, not 0.939.
- A committed sentence end ("river.") closes the utterance with a final hypothesis, so no
  compound is read across it, and the buffer is cut there: the next sentence is decoded alone.
  The end of speech closes it too, after one last decode whose words are all taken: no second
  decode agrees on them, so it looks wider (`WHOLE_BEAM`), and what it writes in the quiet after
  the speech, aligned to no audio, is dropped (`_heard_before`). On LibriVox (bench_asr.py) the
  stream's word errors went from 5 of 71 to 2 ("ill-disposed" was "old-sposed", and "hearted" of
  "cold-hearted" lost: `_after_committed`); on the spoken stories' card half
  (bench_audio_terms.py --every 6 --cards --card-half) from 4.0 to 3.6 % on slt and 11.4 to 8.9 %
  on kal, fewer of Whisper's "Thank you." in the pauses.
- The encoder sees the buffer plus `PADDING`, at least `MIN_WINDOW` (shorter windows make it
  loop), not the 30 s window faster-whisper pads every buffer to: a decode then costs less than
  half (0.44 on LibriVox), which makes decoding twice a second affordable on two cores. The
  price on LibriVox, file by file: 7 word errors in 71 against 3 with the full window (beam 2).
  The buffer never exceeds `MAX_BUFFER`, well inside the 30 s the model can see.
- Whisper's inventions on what VAD let through (coughs, music) are dropped: segments Whisper
  itself rates as repetitive (compression ratio) or as no speech, known caption phrases that
  make up a whole segment ("Thank you for watching."), and repetition loops
  (host.speech.whisper_decoding, which the confirming pass shares).

With a context (`set_context`: a story's card), every finished utterance is decoded once more
as a whole (host.speech.whisper_confirming): a wide encoder window and a wider beam, the card
and the story's confirmed sentences as the prompt. The stream misses words the model hears that
way (on the spoken stories of tests/benchmarks/bench_audio_terms.py, tiny.en streaming, base
confirming).
Confirmations run on the caller's thread, between chunks (deterministic: files), or on a thread
of their own (`background`: a microphone), so that they never hold the stream up; utterances that
finish while that thread is busy wait for it and go together, in one window.

Under a phrase list (spoken commands, in a language that has no grammar recognizer here:
host/speech/registry.py) nothing is decoded while an utterance lasts: at its end its audio, at
most `MAX_COMMAND` seconds, is decoded once, whole (`decode`), as its loose pass, and the
phrase Whisper finds likeliest when held to each of those the loose pass sounds most like
(`weigh`) is the final hypothesis' words, the grammar's answer that `nlp.commands.understand`
checks against the loose pass. In English a grammar recognizer cuts the utterances, and
host.speech.split_recognizer asks `decode` and `weigh` for each.

Word times are seconds from the stream start, confidences Whisper's word probabilities; the
words keep Whisper's punctuation and hyphens ("river.", "ice-cold"), which the term rules use.
"""
from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from faster_whisper.vad import get_vad_model

from host.speech.recognizer import SAMPLE_RATE, Hypothesis, RecognizerError, check_pcm, check_rate
from host.speech.whisper_confirming import Batch, Confirmer
from host.speech.whisper_decoding import (
    MIN_WINDOW, NAME, WHOLE_BEAM, ShortWindowWhisper, Word, load, load_into, phrase_likelihoods, transcribe, word_key,
)
from nlp.commands import alike, spoken, written
from nlp.ticks import HeardWord

INTERVAL = 0.4  # seconds of new audio between decodes of an utterance's buffer (see the docstring)
END_SILENCE = 0.6  # seconds of quiet that end an utterance
LEAD_IN = 0.3  # seconds of audio before the detected start of speech, kept in the buffer
FIRST_DECODE = 1.0  # seconds of buffer before it is decoded: shorter, its first words are guesses
MIN_SPEECH = 0.2  # seconds of speech in the buffer before it is decoded at all
MAX_BUFFER = 20.0  # seconds: a longer buffer is cut at its last committed word
SPEECH_ON, SPEECH_OFF = 0.5, 0.35  # Silero probabilities: speech starts above one, ends below the other
BEAM = 2
# The confirming pass (only with a context: see `set_context`)
CONFIRM_WAIT = 0.5  # seconds of continued speech after which a confirmation runs anyway (`_confirm_due`)
CONFIRM_MARGIN = 0.4  # seconds of audio kept before an utterance's first word and after its last
HISTORY = 30.0  # seconds of recent audio kept for confirmations: Whisper's window
OVERFLOW_MARGIN = 2.0  # seconds: waiting jobs go before their audio is this close to outgrowing HISTORY
# finished utterances wait for a busy confirming thread, to be decoded together (live, every 9th
# story, load 5-10: a confirmation's added tick p95 slt+talk 21.8 s against 36.8, slt 10.6 / 11.4,
# kal 4.1 / 3.9, joe 4.5 / 3.6: noisy, it helps most when furthest behind)
MERGE_WHEN_BUSY = 1
STREAM_PROMPT = 1  # the stream's decodes primed with the card (0: only confirmations are)
WEIGHED = 12  # phrases Whisper weighs under a phrase list: those the free transcription sounds most like
#: below this likelihood (the mean probability of its tokens) even the likeliest phrase was not
#: said: the grammar heard nothing. Weighed were story sentences and Allison's prompts in English
#: (tests/benchmarks/bench_commands.py) at most 0.0097, espeak-ng's Spanish story openings 0.005
#: and Colombian telephone prompts 0.019; English commands heard right at least 0.024 but one
#: ("undo" written "And you.", 0.0054), Spanish ones 0.007 (bench_commands_languages.py)
UNLIKELY = 0.02
MAX_COMMAND = 10.0  # seconds: under a phrase list a longer utterance is decoded from its last seconds
NO_TIME = 0.02  # seconds: a word aligned to less is aligned to no audio (one step of Whisper's alignment)
OVERLAP = 0.1  # seconds: a decode's word starting later than this before the last committed word's end follows it

_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "prof", "mt", "no"})
_SENTENCE_END = re.compile(r"[.?!][\"')\]]*$")
_WINDOW = 512  # Silero VAD's window in samples (32 ms)
_CONTEXT = 64  # samples of the previous window Silero sees with each window


class _SpeechDetector:
    """Silero VAD over a stream: one speech probability per 512-sample window, the network's
    state carried from call to call (the same figures as faster-whisper's whole-file pass).

    It hears any voice, so a second person talking across the table leaves the storyteller no
    quiet. A detector following the storyteller's voice alone would not make their ticks come
    in time: with Silero run on the storyteller's audio without the talk (an oracle no real
    detector beats), bench_audio_terms.py --voices slt+talk --every 6 --cards --card-half
    --talk-from 0 judged 167 of 222, not 166; first tick p95 1.83 s after the word in audio
    time, not 1.87; a confirmation's added tick p95 3.69 s after the utterance, not 5.04 (the
    targets: 1.5 and 2.5 s). What delays them is how late Whisper writes a word it hears through
    the talk (`WhisperRecognizer._agree`)."""

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


@dataclass(frozen=True)
class _Confirmation:
    """A finished utterance waiting to be decoded again: its audio from `start` (stream seconds,
    with the margin) to its last word's `end`; `closed_at`, the stream sample where it closed."""

    start: float
    end: float
    closed_at: int


def _same(new: Word, old: Word) -> bool:
    """A decode agrees with the one before on a word when they spell it alike, case and
    punctuation aside, and the new one ends a sentence with it only if the old one did. The old
    decode's sentence end alone is no disagreement: Whisper ends every buffer with a full stop,
    so the word the old buffer ended on has one whether or not the sentence ends there, and the
    new decode, which hears what follows, says which (its word is the one committed). Waiting for a
    third decode delayed first ticks: bench_audio_terms.py --every 6 --cards, fed at once, slt /
    kal / joe / slt+talk, median 0.65 / 0.65 / 0.60 / 0.81 s after the word in audio time, now
    0.49 / 0.55 / 0.52 / 0.70 (p95 0.95 / 1.26 / 0.94 / 2.15, now 0.93 / 1.26 / 0.92 / 1.76);
    judgements the same but slt+talk's 169 → 171 of 222; ticks taken back 5 of 562 → 7 of 564. The
    price, on real speech streamed alone (bench_asr.py): LibriVox 6 → 7 word errors of 71, Asterisk
    32 → 34 of 522, one of them a buffer cut inside "cold-hearted" committing "cold"; the
    confirmations heard all of them right."""
    return new.key == old.key and (not _ends_sentence(new.text) or _ends_sentence(old.text))


def _heard_before(words: list[Word], quiet: float) -> list[Word]:
    """The words up to the first one Whisper wrote where there was nothing to hear: it starts
    after the speech detector heard the speech end (`quiet`, stream seconds) and no audio is
    aligned to it (`NO_TIME`). After a card read by festival's kal, the decode ending the
    utterance wrote "backwards Thank you very much." there; Allison's telephone prompts end in
    words the speech detector heard as quiet ("That is not a valid balance."), each taking time."""
    for k, word in enumerate(words):
        if word.start >= quiet and word.end - word.start < NO_TIME:
            return words[:k]
    return words


def _ends_sentence(text: str) -> bool:
    key = word_key(text)
    return bool(_SENTENCE_END.search(text)) and len(key) > 1 and key not in _ABBREVIATIONS


class WhisperRecognizer:
    """Streaming Whisper with a stable prefix (see the module's docstring). Whisper's vocabulary
    is open (byte-pair pieces spell any word), so `knows` says yes to any plain word.

    `accept` decodes on the caller's thread, like the other adapters, twice a second while
    someone speaks; a decode of the tiny model takes 0.25 to 0.65 s on two idle cores (the
    longer the buffer, the longer), and what the microphone heard meanwhile comes as one chunk."""

    sample_rate = SAMPLE_RATE

    def __init__(
        self,
        model: Path,
        sample_rate: int = SAMPLE_RATE,
        *,
        threads: int = 2,
        confirming: Path | None = None,
        background: bool = False,
        language: str = "en",
    ):
        """`model` streams; `confirming` (default: the same) makes the confirming pass, on a
        thread of its own with `background`. A second model loads on a thread of its own while
        the caller goes on (launch to listening): the first confirmation waits for it, and so does
        the end of the process (CTranslate2 aborts one that ends while it loads). Both hear
        `language` (a code such as "es"; the models must know it: see models.locate)."""
        check_rate(NAME, self.sample_rate, sample_rate)
        self._model = load(model, threads, language)
        confirmer: Future[ShortWindowWhisper] = Future()
        if confirming is None or confirming == model:
            confirmer.set_result(self._model)
        else:
            threading.Thread(target=load_into, args=(confirmer, confirming, threads, language), name="whisper-loading").start()
        self._confirmer = Confirmer(confirmer, background)
        self._vad = _SpeechDetector()
        self._context: str | None = None
        self._commands = False  # under a phrase list: each utterance decoded whole at its end
        self._phrases: tuple[str, ...] = ()  # the phrase list's phrases, which Whisper weighs (`_end_command`)
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
        self._committed: list[Word] = []  # committed words of the buffer
        self._tentative: list[Word] = []  # the last decode's words after them
        self._utterance: list[Word] = []  # committed words of the utterance (hypothesis) in progress
        self._shown: tuple[tuple[str, ...], ...] = ()  # words and lookahead of the last partial hypothesis given out
        self._pending: list[Hypothesis] = []
        self._recent = np.zeros(0, np.float32)  # the last HISTORY seconds of audio, for confirmations
        self._recent_start = 0  # stream sample of self._recent[0]
        self._jobs: list[_Confirmation] = []  # finished utterances waiting for their confirmation
        self._closed_end = -math.inf  # stream seconds: the end of the last word of the last utterance closed
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
        out += self._decode_if_due()
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
        """A phrase list: from now on each utterance is a command, decoded whole at its end and
        held to each phrase in turn (`_end_command`); None: free speech again, and the utterance
        in progress is closed, as on a switch."""
        commands = phrases is not None
        if (not commands or not self._commands) and self._speaking:
            self._pending += self._end_utterance(self._audio_start + len(self._audio))
        self._commands = commands
        self._phrases = tuple(phrases or ())

    # -- utterances ----------------------------------------------------------------------------
    def _judge(self, probability: float) -> list[Hypothesis]:
        """One VAD window, ending at stream sample self._vad_at: open or end an utterance."""
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
        if self._commands:
            self._keep_command(end)
        return []

    def _decode_if_due(self) -> list[Hypothesis]:
        """The buffer decoded up to the last window judged, if `INTERVAL` has passed since the
        last decode: once per `accept` at most, so that a reader behind the microphone, handed
        all that waited in one chunk, decodes it once instead of falling further behind."""
        end = self._vad_at
        if not self._speaking or self._commands or end < self._next_decode:
            return []
        self._next_decode = end + int(INTERVAL * self.sample_rate)
        if end - self._audio_start >= FIRST_DECODE * self.sample_rate and self._speaks():
            return self._agree(self._decode(end), end)
        return []

    def _speaks(self) -> bool:
        """Whether the buffer holds enough speech to decode: a buffer cut at a sentence end may
        hold only the breath after it, where Whisper would hear "Thank you."."""
        voiced = sum(end > self._audio_start for end in self._voiced)
        return voiced * _WINDOW >= MIN_SPEECH * self.sample_rate

    def _agree(self, words: list[Word], end: int) -> list[Hypothesis]:
        """LocalAgreement-2: commit what this decode and the last one agree on. Letting the decode
        before the last one vote too (two of the last three, for the words it heard INTERVAL before
        its buffer's end) made the second talker's first ticks sooner, but committed more of what
        the talk masked: bench_audio_terms.py --every 6 --cards --card-half, slt+talk with the talk
        from 0, 5 and 11 s in, the last two / two of three: first tick p95 1.87 / 1.85, 1.98 / 1.79,
        2.09 / 1.72 s after the word in audio time; judged 166 / 159, 181 / 178, 161 / 162 of 222.
        slt, kal, joe, LibriVox and Asterisk heard the same either way. Committing a word on one
        decode when Whisper is sure of it gains little: with probability 0.9 and ending 0.5 s
        before the buffer's end, talk from 0 s, first tick p95 1.83 s, judged 166; with 0.6 and
        0.2 s, 1.70 s and 164. Under the talk, Whisper writes the word late, not only unsure."""
        new = self._after_committed(words)
        agreed = 0
        while agreed < min(len(new), len(self._tentative)) and _same(new[agreed], self._tentative[agreed]):
            agreed += 1
        self._tentative = new[agreed:]
        out = self._commit(new[:agreed])
        if len(self._audio) > MAX_BUFFER * self.sample_rate:
            self._cut_at_last_word(end)
        return out + self._partial()

    def _keep_command(self, end: int) -> None:
        """A command's buffer keeps its last MAX_COMMAND seconds."""
        excess = end - self._audio_start - int(MAX_COMMAND * self.sample_rate)
        if excess > 0:
            self._audio = self._audio[excess:]
            self._audio_start += excess

    def _end_command(self, end: int) -> list[Hypothesis]:
        """A command's utterance, decoded whole (its loose pass) and as a grammar would hear it:
        the phrase Whisper finds likeliest when held to each (`phrase_likelihoods`), its words
        spanning the utterance with that likelihood as their confidence (none when UNLIKELY). An utterance Whisper
        hears as nothing (a cough) is no command, whatever phrase would fit it best."""
        audio = self._audio[: end - self._audio_start]
        words = transcribe(self._model, audio, self._audio_start / self.sample_rate, WHOLE_BEAM, None, MIN_WINDOW) \
            if self._speaks() else []
        self._speaking = False
        self._audio = self._audio[end - self._audio_start :]
        self._audio_start = end
        if not words:
            return []
        loose = " ".join(word.text for word in words)
        if not self._phrases:
            return [Hypothesis(tuple(word.heard() for word in words), final=True, loose=loose)]
        best, likelihood = self._weigh(audio, self._phrases, loose)
        grammar = tuple(Word(word, words[0].start, words[-1].end, likelihood).heard() for word in best.split())
        return [Hypothesis(grammar, final=True, loose=loose)]

    def weigh(self, pcm: bytes, phrases: Sequence[str], heard: str, also: str | None = None) -> tuple[str, float]:
        """Of `phrases`, the one Whisper's decoder finds likeliest in one short utterance ("" when
        it is UNLIKELY), and its likelihood (0..1): Whisper as a closed grammar
        (`phrase_likelihoods`). Weighed are the phrases that `heard` (its free transcription)
        sounds most like, and `also` (another recognizer's answer)."""
        check_pcm(pcm)
        return self._weigh(np.frombuffer(pcm, "<i2").astype(np.float32) / 32768, phrases, heard, also)

    def _weigh(self, audio: np.ndarray, phrases: Sequence[str], heard: str, also: str | None = None) -> tuple[str, float]:
        # the phrases the free transcription sounds most like (weighing them all takes seconds), each
        # as a grammar spells it and as Whisper would write it ("voltea B3"), the likelier
        said = spoken(heard)
        nearest = sorted(phrases, key=lambda phrase: alike(said, phrase, self._model.language), reverse=True)[:WEIGHED]
        weighed = dict.fromkeys([*nearest, *([also] if also is not None and also in phrases else [])])
        forms = [(phrase, form) for phrase in weighed for form in dict.fromkeys((phrase, written(phrase)))]
        likelihood: dict[str, float] = {}
        for (phrase, _form), score in zip(forms, phrase_likelihoods(self._model, audio, [form for _p, form in forms])):
            likelihood[phrase] = max(score, likelihood.get(phrase, -math.inf))
        best = max(likelihood, key=likelihood.__getitem__)
        return (best if math.exp(likelihood[best]) >= UNLIKELY else ""), math.exp(likelihood[best])

    def _end_utterance(self, end: int) -> list[Hypothesis]:
        """The last decode's words are all taken; the final hypotheses close the utterance."""
        if self._commands:
            return self._end_command(end)
        words = self._decode(end, WHOLE_BEAM) if self._speaks() else []
        if self._quiet_since is not None:
            words = _heard_before(words, self._quiet_since / self.sample_rate)
        self._tentative = []
        out = self._commit(self._after_committed(words), cut=False)
        if self._utterance or self._shown:
            out.append(self._close(len(self._utterance)))
        self._speaking, self._committed = False, []
        self._audio = self._audio[end - self._audio_start :]
        self._audio_start = end
        return out

    def _commit(self, words: list[Word], cut: bool = True) -> list[Hypothesis]:
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
        longer fit in it). A speaker who goes on without a pause waits CONFIRM_WAIT for the
        sentences they finished: bench_audio_terms.py --every 6 --cards, one voice at a time on two
        cores, 1.0 / 0.5 s: a confirmation's added tick p95 slt 1.62 / 1.63 s, kal 1.91 / 1.64,
        joe 1.83 / 1.41, slt+talk 4.31 / 3.65; judgements the same but joe 216 / 215 of 222 ("van"
        in "the ice-cream van", confirmed without the next sentence); CPU time the same. With 0.2
        slt+talk's p95 was 3.43 s, but kal's confirmations, decoded with less after them, made 5.1 %
        word errors instead of 4.1 %."""
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
        return self._vad_at / self.sample_rate - self._jobs[0].start > HISTORY - OVERFLOW_MARGIN

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

    def _batch(self, jobs: list[_Confirmation]) -> Batch:
        """The jobs' audio, from the first one's start to CONFIRM_MARGIN after the streamed last
        word, or halfway to the next word heard (not to clip that word)."""
        end = jobs[-1].end
        following = [w.start for w in (*self._utterance, *self._tentative) if w.start >= end]
        stop = min(end + CONFIRM_MARGIN, (end + min(following, default=math.inf)) / 2)
        first = max(int(jobs[0].start * self.sample_rate), self._recent_start)
        last = max(first, min(int(stop * self.sample_rate), self._recent_start + len(self._recent)))
        audio = self._recent[first - self._recent_start : last - self._recent_start].copy()
        starts = tuple(job.start for job in jobs)
        return Batch(audio, first / self.sample_rate, starts, end, self._context or "", self._confirmer.story)

    def _partial(self) -> list[Hypothesis]:
        """The committed words of the utterance, and as its lookahead the last decode's words
        after them up to a sentence end: the tracker decides the last committed words' edges
        with them a decode sooner than it would wait for the next word to be committed."""
        if not self._utterance:
            return []
        ahead = []
        for word in self._tentative:
            ahead.append(word)
            if _ends_sentence(word.text):
                break
        shown = tuple(w.text for w in self._utterance), tuple(w.text for w in ahead)
        if shown == self._shown:
            return []
        self._shown = shown
        return [Hypothesis(tuple(w.heard() for w in self._utterance), final=False,
                           lookahead=tuple(w.heard() for w in ahead))]

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

    def _after_committed(self, words: list[Word]) -> list[Word]:
        """The decode's words past the committed ones (which the buffer's audio still holds):
        those starting before the last committed word's end are dropped, but for the rest of a
        hyphenated word the last one began ("cold" committed where the buffer ended, then
        "cold-hearted" heard whole: "hearted"), then any of its last words repeated at the start
        (the same word, its time shifted by the new decode)."""
        if not self._committed:
            return words
        last = self._committed[-1]
        hyphens = last.key.count("-") + 1
        rest = [w for w in words if w.start > last.end - OVERLAP]
        extending = [w for w in words if w.start <= last.end - OVERLAP][-1:]
        words = [Word(w.text.split("-", hyphens)[hyphens], last.end, w.end, w.probability)
                 for w in extending if w.key.startswith(last.key + "-")] + rest
        if words and words[0].start - last.end < 1.0:
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
        words = transcribe(self._model, audio, 0.0, WHOLE_BEAM, None, MIN_WINDOW)
        return tuple(word.heard() for word in words)

    def _decode(self, end: int, beam: int = BEAM) -> list[Word]:
        """The buffer up to stream sample `end`, transcribed, without Whisper's inventions."""
        audio = self._audio[: end - self._audio_start]
        prompt = (self._context or None) if STREAM_PROMPT else None  # the card's sentence
        return transcribe(self._model, audio, self._audio_start / self.sample_rate, beam, prompt, MIN_WINDOW)
