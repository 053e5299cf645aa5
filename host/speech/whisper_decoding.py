"""One Whisper decode (faster-whisper, CTranslate2 int8 on the CPU) without Whisper's inventions,
shared by the stream and its confirming pass (host.speech.whisper_recognizer): the model with a
short encoder window, its loading, and the guards against what Whisper makes up on non-speech.

- The encoder sees the audio plus `PADDING`, at least the caller's window (`MIN_WINDOW` for the
  stream: shorter windows make it loop), not the 30 s window faster-whisper pads every buffer to.
- No second window over the fraction of a word left after the last one (less than `REST`):
  faster-whisper decodes one from the last word on whenever the first window does not end on a
  timestamp, as a stream's buffer primed by a card does not. That second decode cost as much as
  the first and heard "Thank you." or "here." in the scrap.
- Segments Whisper itself rates as repetitive (compression ratio) or as no speech, known caption
  phrases that make up a whole segment ("Thank you for watching."), and repetition loops are
  dropped. A confirmation primed with the card and the story decodes again without that prompt
  from a looped segment on: the prompt is what starts such loops.
"""
from __future__ import annotations

import ctypes
import math
import re
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import ctranslate2
import numpy as np
from faster_whisper import WhisperModel
from faster_whisper.audio import pad_or_trim
from faster_whisper.tokenizer import Tokenizer

from games.language import _
from host.speech.recognizer import SAMPLE_RATE, BrokenModel, MissingModel, RecognizerError
from nlp.ticks import HeardWord

NAME = "Whisper"

PADDING = 1.0  # seconds of padding after the audio in the encoder's window
# seconds: the encoder's shortest window. Shorter ones hear worse: with 6, the stream's word
# errors (bench_audio_terms.py --every 6 --cards --card-half) slt 3.6 -> 8.4 %, kal 8.9 -> 13.0 %,
# joe 5.6 -> 13.2 %; one decode of 3 s cost 0.37 CPU-s against 0.43
MIN_WINDOW = 10
REST = 0.5  # seconds after the last word heard: less is not decoded again (see the docstring)
_SCORED_TOGETHER = 16  # phrases scored in one batch: each step of each keeps 51,865 logits
WHOLE_BEAM = 5  # a whole utterance is decoded once, not twice a second: a wider beam is affordable

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
_TRAILING_OFF = re.compile(r"(?:\.\.\.|…|-)$")  # Whisper's marks of speech cut short by the buffer's end


class ShortWindowWhisper(WhisperModel):  # type: ignore[misc]  # faster_whisper has no type hints: WhisperModel is Any
    """Encodes `frames` mel frames (10 ms each) instead of the 30 s window faster-whisper pads
    every segment to; the padding's encoder work is what makes a short buffer slow. The stream
    and the confirmations may share the model from two threads: each sets its own window."""

    def __init__(self, *args: object, language: str = "en", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._window = threading.local()
        #: what it hears: its language is forced, never detected (a multilingual model would
        #: otherwise take a Spanish story's English name for English speech)
        self.language = language

    @property
    def frames(self) -> int:
        return getattr(self._window, "frames", 3000)

    @frames.setter
    def frames(self, frames: int) -> None:
        self._window.frames = frames

    def encode(self, features: np.ndarray) -> ctranslate2.StorageView:
        return super().encode(features[..., : self.frames])


def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc, whose malloc_trim hands freed memory back; else None."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


_LIBC = _glibc()


def give_back_memory() -> None:
    """Hand the memory freed since (models loaded, the last decode) back to the system, so that a
    whole-window decode's working memory (its beams' attention over 1,500 frames: about 180 MB
    with base) is not added to it: glibc keeps what is freed unless asked (bench_live.py's peak
    memory of a live round). Elsewhere, nothing to do."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def load_into(future: Future[ShortWindowWhisper], model: Path, threads: int, language: str = "en") -> None:
    try:
        future.set_result(load(model, threads, language))
    except Exception as error:  # raised where the model is first used, whatever it is
        future.set_exception(error)
    give_back_memory()  # what loading needed (the file's float16 weights made int8)


def load(model: Path, threads: int, language: str = "en") -> ShortWindowWhisper:
    folder = Path(model).expanduser()
    if not (folder / "model.bin").is_file():
        raise MissingModel(_("There is no Whisper model in {folder}: point it at a CTranslate2 Whisper model folder "
                             "(model.bin, config.json, tokenizer.json).").format(folder=folder))
    try:
        loaded = ShortWindowWhisper(str(folder), device="cpu", compute_type="int8", cpu_threads=threads,
                                    language=language)
    except Exception as error:  # CTranslate2 raises RuntimeError, tokenizers their own
        raise BrokenModel(_("{recognizer} could not load the model in {folder} ({error}): install it again.").format(
            recognizer=NAME, folder=folder, error=error)) from error
    if language != "en" and not loaded.model.is_multilingual:
        raise RecognizerError(_("The Whisper model in {folder} hears English only, not {language!r}: choose a "
                                "multilingual one (--model base).").format(folder=folder, language=language))
    return loaded


@dataclass(frozen=True)
class Word:
    text: str
    start: float  # seconds from the stream start
    end: float
    probability: float

    @property
    def key(self) -> str:
        """The word as decodes are compared: case and punctuation aside."""
        return word_key(self.text)

    def heard(self) -> HeardWord:
        return HeardWord(self.text, round(self.start, 3), round(self.end, 3), round(self.probability, 3))


def word_key(text: str) -> str:
    return re.sub(r"[^\w'-]", "", text.lower().replace("’", "'")).strip("-'")


def transcribe(
    model: ShortWindowWhisper, audio: np.ndarray, offset: float, beam: int, prompt: str | None, window: float,
    *, unprompted_retry: bool = False,
) -> list[Word]:
    """`audio`, starting `offset` stream seconds in, transcribed, without Whisper's inventions;
    the encoder sees the audio and PADDING, at least `window` seconds (at most Whisper's 30).
    With `unprompted_retry`, from a segment dropped as a loop on: the words of the same audio
    decoded again without the prompt (see `_decoded`)."""
    words, looped = _decoded(model, audio, offset, beam, prompt, window)
    if looped is None or prompt is None or not unprompted_retry:
        return words
    again, _ = _decoded(model, audio, offset, beam, None, window)
    return [word for word in words if word.end <= looped] + [word for word in again if word.end > looped]


def _decoded(
    model: ShortWindowWhisper, audio: np.ndarray, offset: float, beam: int, prompt: str | None, window: float
) -> tuple[list[Word], float | None]:
    """`transcribe`'s decode: its words, and where the first segment dropped as a loop started
    (None: none was). A prompt can start a loop, the segment's real words lost with it. Of 12
    syntheses of the card read aloud (slt, kal, joe; two texts, two paddings), decoded whole
    with the card as the prompt, base heard nothing in 7. The confirmations of
    bench_audio_terms.py --every 6 --cards dropped a looped segment in 1 of 30 stories each of
    slt, kal and joe, and in 5 with a second person talking ("We flew in for Canada and on the
    way back. Sorry. Sorry. Sorry. ..."); decoded again without the prompt, slt's, kal's and the
    talk's heard their words (the talker's too). No judgement of those stories changed: the
    stream had ticked their terms."""
    model.frames = min(3000, max(round(window * 100), math.ceil(len(audio) / 160 + PADDING * 100)))
    segments, _ = model.transcribe(
        audio,
        language=model.language,
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
    words: list[Word] = []
    looped: float | None = None  # where the first segment dropped as a loop started
    for segment in segments:
        if segment.compression_ratio > MAX_COMPRESSION:
            looped = min(offset + segment.start, limit) if looped is None else looped
            continue
        if is_caption(segment.text):
            continue
        if segment.no_speech_prob > NO_SPEECH and segment.avg_logprob < LOW_LOGPROB:
            continue
        pieces: list[Word] = []
        for w in segment.words or ():
            text = _TRAILING_OFF.sub("", w.word.strip())
            if pieces and text.startswith("-"):  # faster-whisper splits "cold-hearted" at "-"
                last = pieces.pop()
                pieces.append(Word(last.text + text, last.start, min(offset + w.end, limit), min(last.probability, w.probability)))
            elif word_key(text):
                pieces.append(Word(text, min(offset + w.start, limit), min(offset + w.end, limit), w.probability))
        words += unlooped(pieces)
        if words and limit - words[-1].end < REST:
            break  # faster-whisper's next window would be the scrap after the last word
    return words, looped


def is_caption(text: str) -> bool:
    """A segment that is one of the phrases Whisper invents on non-speech (from video captions)."""
    plain = " ".join(re.sub(r"[^\w' ]", " ", text.lower()).split())
    return plain in CAPTIONS or plain.startswith(_CAPTION_PREFIXES)


def unlooped(words: list[Word]) -> list[Word]:
    """The words with any n-gram said LOOPS[n] or more times in a row kept once ("very very"
    and "run away, run away" may be meant, three words twice over hardly)."""
    keys = [w.key for w in words]
    out: list[Word] = []
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


def phrase_likelihoods(model: ShortWindowWhisper, audio: np.ndarray, phrases: Sequence[str]) -> list[float]:
    """How well each phrase explains `audio`: the mean natural log of the probability Whisper's
    decoder gives each of its tokens and then the end of the text, held to the phrase. This makes
    Whisper a closed grammar: its own acoustics and language model judge the allowed phrases,
    where its free transcription of a short command is often no phrase at all ("¡Porte almo!" for
    "voltea a uno"). The mean, not the sum: each token of a phrase written as a grammar writes it
    (lowercase, no accents) costs more than Whisper's own spelling would, which would make the
    shortest phrases win. The encoder sees the audio and PADDING only (no loops to fear: nothing
    is generated), once for all the phrases."""
    if not phrases:
        return []
    model.frames = min(3000, math.ceil(len(audio) / 160 + PADDING * 100))
    encoded = np.asarray(model.encode(pad_or_trim(model.feature_extractor(audio))))
    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=model.language)
    start = [*tokenizer.sot_sequence, tokenizer.no_timestamps]
    texts = [tokenizer.encode(" " + phrase) for phrase in phrases]
    scores = []
    for first in range(0, len(texts), _SCORED_TOGETHER):
        batch = texts[first : first + _SCORED_TOGETHER]
        # each phrase ends its prompt, so the decoder is held to it; the logits of each step give
        # the next token's probability, those of the last step the end of the text's
        results = model.model.generate(
            ctranslate2.StorageView.from_array(np.repeat(encoded, len(batch), axis=0)), [start + text for text in batch],
            beam_size=1, max_length=2 * (len(start) + max(map(len, batch))) + 4, return_logits_vocab=True,
            suppress_blank=False, suppress_tokens=[])
        for text, result in zip(batch, results):
            tokens = [*text, tokenizer.eot]
            steps = np.asarray([np.asarray(logits, np.float32).ravel() for logits in result.logits[0][: len(tokens)]],
                               np.float64)
            scores.append(float(np.mean(steps[np.arange(len(tokens)), tokens] - _log_total(steps))))
    return scores


def _log_total(steps: np.ndarray) -> np.ndarray:
    """log(sum(exp(row))) of each row of logits, shifted by its largest so that nothing overflows:
    the log of the softmax's denominator (numpy's logaddexp.reduce takes 10 times as long)."""
    top: np.ndarray = steps.max(axis=1)
    total: np.ndarray = top + np.log(np.exp(steps - top[:, None]).sum(axis=1))
    return total
