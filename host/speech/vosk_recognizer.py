"""Vosk (Kaldi) recognizer over a model folder: the better recognizer on real voices.

Vosk segments utterances itself (its endpoint rules in the model's conf/model.conf) and gives
word times from the start of its stream; a phrase list needs a new KaldiRecognizer, whose times
restart at 0, so this adapter adds the audio taken before it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import vosk

from games.language import _
from host.audio.sources import native_stderr_silenced
from host.speech.recognizer import (
    SAMPLE_RATE,
    BrokenModel,
    Hypothesis,
    MissingModel,
    UnknownWords,
    check_pcm,
    check_rate,
    phrase_words,
)
from nlp.ticks import HeardWord

NAME = "Vosk"
UNKNOWN = "[unk]"  # Vosk's word for speech outside a phrase list


def model_rate(folder: Path) -> int:
    """The sample rate a model folder was trained at (Kaldi's default when unstated)."""
    mfcc = folder / "conf" / "mfcc.conf"
    found = re.search(r"--sample-frequency=(\d+)", mfcc.read_text()) if mfcc.is_file() else None
    return int(found.group(1)) if found else SAMPLE_RATE


@lru_cache(maxsize=2)
def _load(folder: Path) -> vosk.Model:
    """Models take seconds to load and are shared by recognizers. Kaldi's own messages, errors
    included (a damaged model prints them before failing), are silenced: the failure is told in
    storyhost's one line."""
    vosk.SetLogLevel(-3)
    try:
        with native_stderr_silenced():
            return vosk.Model(str(folder))
    except Exception as error:  # vosk raises a bare Exception
        raise _broken(folder, error) from error


def _broken(folder: Path, error: Exception) -> BrokenModel:
    return BrokenModel(_("Vosk could not load the model in {folder} ({error}): it is incomplete or not a Vosk model; "
                         "unpack it again, or use --asr pocketsphinx.").format(folder=folder, error=error))


class VoskRecognizer:
    """Final words carry times and Vosk's confidences; partial words carry neither, because
    Vosk's partial word times (SetPartialWords) hold partials back until a whole stretch of
    words is settled, a second or two late (alphacep/vosk-api#1224)."""

    def __init__(self, model: Path, sample_rate: int = SAMPLE_RATE):
        folder = Path(model).expanduser().resolve()
        if not folder.is_dir():
            raise MissingModel(_("There is no Vosk model folder {folder}: unpack a model there, point --model or "
                                 "VOSK_MODEL_PATH at one, or use --asr pocketsphinx.").format(folder=folder))
        if not ((folder / "am" / "final.mdl").is_file() or (folder / "final.mdl").is_file()):
            raise MissingModel(_("The folder {folder} holds no Vosk model (am/final.mdl is missing): point --model or "
                                 "VOSK_MODEL_PATH at the folder that has am/, conf/ and graph/ in it.").format(folder=folder))
        self.sample_rate = model_rate(folder)
        check_rate(NAME, self.sample_rate, sample_rate)
        self._folder = folder
        self._model = _load(folder)
        self._grammar: str | None = None
        self.reset()

    def reset(self) -> None:
        self._samples = 0  # taken since the last reset
        self._offset = 0.0  # stream time at which the current KaldiRecognizer started
        self._recognizer = self._new_recognizer()
        self._partial: tuple[str, ...] = ()
        self._pending: list[Hypothesis] = []
        self._heard = bytearray()  # the utterance's audio, for the loose pass under a phrase list

    def accept(self, pcm: bytes) -> list[Hypothesis]:
        check_pcm(pcm)
        out, self._pending = self._pending, []
        self._samples += len(pcm) // 2
        if self._grammar is not None:
            self._heard += pcm
        if self._recognizer.AcceptWaveform(pcm):
            out += self._final(self._recognizer.Result())
        else:
            texts = tuple(w for w in json.loads(self._recognizer.PartialResult())["partial"].split() if w != UNKNOWN)
            if texts != self._partial:
                self._partial = texts
                out.append(Hypothesis(tuple(HeardWord(text) for text in texts), final=False))
        return out

    def finish(self) -> list[Hypothesis]:
        out, self._pending = self._pending, []
        return out + self._final(self._recognizer.FinalResult())

    def knows(self, word: str) -> bool:
        index: int = self._model.vosk_model_find_word(word)  # -1 for a word not in the model
        return index >= 0

    def set_context(self, text: str | None) -> None:
        """Ignored: a Kaldi model takes no prompt (only a grammar, which would force every sound
        into the card's words), and Vosk keeps no audio to decode an utterance again."""

    def set_phrases(self, phrases: Sequence[str] | None) -> None:
        """Phrases become a Vosk grammar: utterances are sequences of them, or [unk] (dropped
        from results) when the model knows it. Models without a runtime graph (graph/HCLr.fst)
        ignore grammars."""
        grammar = None
        if phrases is not None:
            phrases = [" ".join(words) for words in phrase_words(phrases)]
            unknown = sorted({w for p in phrases for w in p.split() if not self.knows(w)})
            if unknown:
                raise UnknownWords(NAME, unknown)
            if self._model.vosk_model_find_word(UNKNOWN) >= 0:
                phrases.append(UNKNOWN)
            grammar = json.dumps(phrases, ensure_ascii=False)  # Vosk does not read \u escapes
        self._pending += self._final(self._recognizer.FinalResult())
        self._grammar = grammar
        self._offset = self._samples / self.sample_rate
        self._recognizer = self._new_recognizer()

    def _new_recognizer(self) -> vosk.KaldiRecognizer:
        grammar = () if self._grammar is None else (self._grammar,)
        try:  # the graph is read here: a damaged one fails now, and OpenFst says so on fd 2
            with native_stderr_silenced():
                recognizer = vosk.KaldiRecognizer(self._model, float(self.sample_rate), *grammar)
        except Exception as error:  # vosk raises a bare Exception
            raise _broken(self._folder, error) from error
        recognizer.SetWords(True)
        return recognizer

    def _final(self, result: str) -> list[Hypothesis]:
        """The final hypothesis; none for an utterance that never showed a word."""
        words = tuple(
            HeardWord(
                item["word"],
                round(self._offset + item["start"], 3),
                round(self._offset + item["end"], 3),
                item["conf"],
            )
            for item in json.loads(result).get("result", ())
            if item["word"] != UNKNOWN
        )
        shown, self._partial = self._partial, ()
        loose = self._loose_pass() if self._grammar is not None else None
        self._heard = bytearray()
        return [Hypothesis(words, final=True, loose=loose)] if words or shown or loose else []

    def _loose_pass(self) -> str:
        """The utterance decoded again without the phrase list: what was said, in any words."""
        free = vosk.KaldiRecognizer(self._model, float(self.sample_rate))
        free.AcceptWaveform(bytes(self._heard))
        return " ".join(w for w in json.loads(free.FinalResult()).get("text", "").split() if w != UNKNOWN)
