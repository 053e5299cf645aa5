"""The recognizers `--asr` chooses from, in one table: adding one is one `RecognizerKind` here.

Each entry says what the recognizer hears and how it is opened; `--asr`'s choices and help
(`storyhost play`, `resume`, `demo`, `transcribe`, `tick`) are read from it, and the table is
checked when this module is imported. An engine's module (Whisper's, Vosk's, PocketSphinx's) is
imported only by its opener, when that recognizer is opened: naming the choices loads no engine.

By default, and with "whisper", free speech (stories, clues, readings) goes to Whisper with the
models bundled in pip packages (nothing to download: tiny.en streams English, base confirms it;
see models.locate), and phrase lists (commands) to a recognizer that takes a closed grammar:
Vosk when an English Vosk model is found, else PocketSphinx, whose US English model ships inside
its wheel, cuts the utterances, and Whisper decodes each whole and weighs the phrases against it
(see host/speech/split_recognizer.py). Those grammar models hear English only: in another
language Whisper, forced to it, cuts the utterances too (host/speech/whisper_recognizer.py).
"vosk" or "pocketsphinx" use that one recognizer for both. Every model storyhost installed or
pinned is checked against its recorded checksums before it is loaded.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from games.base import join_either
from games.language import N_, _
from nlp.commands import BY_FREE_WORDS, BY_GRAMMAR, BY_WHISPERS_GRAMMAR, Deciding
from models import DamagedModel, ModelError, ModelNotFound, check_before_loading, found_at, locate_whisper
from models.locate import layout_problem, locate_confirming
from host.speech.recognizer import (
    SAMPLE_RATE, BrokenModel, MissingModel, Recognizer, RecognizerError, find_vosk_model,
)

#: (model, sample rate, confirming model, live, language) -> the recognizer; see `open_recognizer`
Opener = Callable[[Path | None, int, Path | None, bool, str], Recognizer]


@dataclass(frozen=True)
class RecognizerKind:
    """One choice of `--asr`."""

    name: str
    #: what it hears and with what, for help: "hears everything with PocketSphinx" (marked with N_,
    #: translated where the help is built)
    hears: str
    #: it takes a phrase list (`Recognizer.set_phrases`): spoken commands can be heard with it
    phrases: bool
    #: under a phrase list, how its two passes decide a command in a language (nlp.commands.Deciding)
    deciding: Callable[[str], Deciding]
    open: Opener
    #: the models `--model` gives it, for help, marked with N_ (None: it takes none)
    models: str | None = None
    #: whether a model folder given without `--asr` is one of this recognizer's (None: never chosen so)
    owns_folder: Callable[[Path], bool] | None = None


def _english_only(name: str, language: str) -> None:
    if language != "en":
        raise RecognizerError(_("{recognizer} hears English only here, not {language}: use --asr whisper.").format(
            recognizer=name, language=repr(language)))


def _pocketsphinx(model: Path | None, sample_rate: int, confirming: Path | None, live: bool,
                  language: str) -> Recognizer:
    from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer

    _english_only("PocketSphinx", language)
    if model is not None:
        raise RecognizerError(_("PocketSphinx uses its bundled model: drop --model, or use --asr vosk or whisper."))
    return PocketSphinxRecognizer(sample_rate)


def _vosk_in(folder: Path, sample_rate: int) -> Recognizer:
    from host.speech.vosk_recognizer import VoskRecognizer

    if folder.is_dir():
        check_before_loading(found_at(folder, "vosk"))
    return VoskRecognizer(folder, sample_rate)


def _vosk(model: Path | None, sample_rate: int, confirming: Path | None, live: bool, language: str) -> Recognizer:
    _english_only("Vosk", language)
    folder = model or find_vosk_model()
    if folder is None:
        raise MissingModel(_("No Vosk model folder given: set VOSK_MODEL_PATH or pass --model to a model "
                             "folder, or use --asr whisper."))
    return _vosk_in(folder, sample_rate)


def _whisper(model: Path | None, sample_rate: int, confirming: Path | None, live: bool, language: str) -> Recognizer:
    from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
    from host.speech.split_recognizer import SplitRecognizer
    from host.speech.whisper_recognizer import WhisperRecognizer

    found = locate_whisper(model, language=language)
    check_before_loading(found)
    confirmer = locate_confirming(confirming or model)
    if confirmer.path != found.path:
        check_before_loading(confirmer)
    whisper = WhisperRecognizer(found.path, sample_rate, confirming=confirmer.path, background=live, language=language)
    if language != "en":  # the grammar recognizers hear English only
        return whisper
    grammar_model = find_vosk_model()
    # Whisper makes the loose pass of the grammar's utterances (host/speech/split_recognizer.py)
    grammar = (PocketSphinxRecognizer(sample_rate, loose=False) if grammar_model is None
               else _vosk_in(grammar_model, sample_rate))
    return SplitRecognizer(whisper, grammar)


def _whispers(language: str) -> Deciding:
    """In English Whisper's grammar chooses (host/speech/split_recognizer.py says why). In another
    language its free words choose, and the host asks about the grammar's phrase where they fit
    their choice too little: on tests/benchmarks/bench_commands_languages.py that got 73 of 87 Spanish
    commands right, Whisper base's grammar choosing 71, its free words alone 65."""
    return BY_WHISPERS_GRAMMAR if language == "en" else BY_FREE_WORDS


def _by_grammar(language: str) -> Deciding:
    return BY_GRAMMAR


#: the first is the default
RECOGNIZERS: tuple[RecognizerKind, ...] = (
    RecognizerKind(
        "whisper", N_("hears stories and clues with Whisper and commands with Vosk if an English Vosk model is"
                      " installed, else PocketSphinx (in another language than English, commands with Whisper too)"),
        phrases=True, deciding=_whispers, open=_whisper,
        models=N_("a Whisper model by name (base, tiny.en) or folder"),
    ),
    RecognizerKind("vosk", N_("hears everything with Vosk"), phrases=True, deciding=_by_grammar, open=_vosk,
                   models=N_("a Vosk model folder"), owns_folder=lambda folder: layout_problem(folder) is None),
    RecognizerKind("pocketsphinx", N_("hears everything with PocketSphinx"), phrases=True, deciding=_by_grammar,
                   open=_pocketsphinx),
)


def check(kinds: tuple[RecognizerKind, ...]) -> dict[str, RecognizerKind]:
    """The kinds by name; ValueError for a table that `--asr` could not offer whole (a name
    twice, a name that is not one lowercase word, one that does not say what it hears)."""
    by_name: dict[str, RecognizerKind] = {}
    for kind in kinds:
        if kind.name in by_name or not kind.name.isalnum() or kind.name != kind.name.lower():
            raise ValueError(f"Recognizer {kind.name!r}: each needs a name of its own, one lowercase word.")
        if not kind.hears:
            raise ValueError(f"Recognizer {kind.name!r} needs what it hears, for help.")
        by_name[kind.name] = kind
    if not by_name:
        raise ValueError("There is no recognizer.")
    return by_name


check(RECOGNIZERS)


def names() -> tuple[str, ...]:
    """`--asr`'s choices."""
    return tuple(check(RECOGNIZERS))


def default() -> RecognizerKind:
    return RECOGNIZERS[0]


def _any_of(kinds: list[RecognizerKind]) -> str:
    """'whisper or vosk or pocketsphinx', in the active language: what an error asks to choose from."""
    return _(" or ").join(kind.name for kind in kinds)


class UnknownRecognizer(RecognizerError, ValueError):
    def __init__(self, kind: str):
        super().__init__(_("There is no recognizer called '{kind}': choose {recognizers}.").format(
            kind=kind, recognizers=_any_of(list(RECOGNIZERS))))


def _with_default(kind: RecognizerKind) -> str:
    """'whisper (the default)' for the default, else the name."""
    return _("{recognizer} (the default)").format(recognizer=kind.name) if kind is default() else kind.name


def asr_help(prefix: str) -> str:
    """`--asr`'s help, from the table, in the active language: '`prefix`: whisper (the default)
    hears ...; vosk hears everything with Vosk; ...'."""
    told = [f"{_with_default(kind)} {_(kind.hears)}" for kind in RECOGNIZERS]
    return f"{prefix}: {'; '.join(told)}"


def model_help() -> str:
    """`--model`'s help, from the table, in the active language: 'a Whisper model by name
    (base, tiny.en) or folder, or a Vosk model folder'."""
    return _(", or ").join(_(kind.models) for kind in RECOGNIZERS if kind.models)


def named() -> str:
    """The choices in a few words, in the active language: 'whisper (the default), vosk or pocketsphinx'."""
    return join_either([_with_default(kind) for kind in RECOGNIZERS])


def kind_of(kind: str | None, model: Path | str | None = None) -> RecognizerKind:
    """The recognizer `kind` names; without one, the recognizer whose model the `model` folder
    holds (a Vosk model: vosk), else the default."""
    by_name = check(RECOGNIZERS)
    if kind is None:
        folder = None if model is None else Path(model)
        owners = [known for known in RECOGNIZERS if folder and known.owns_folder and known.owns_folder(folder)]
        return owners[0] if owners else default()
    if kind not in by_name:
        raise UnknownRecognizer(kind)
    return by_name[kind]


def takes_phrases(kind: RecognizerKind) -> RecognizerKind:
    """`kind`, which is to hear spoken commands; RecognizerError when it takes no phrase list."""
    if not kind.phrases:
        raise RecognizerError(_("The recognizer {recognizer} cannot listen for commands (it takes no phrase list): "
                                "choose {recognizers}.").format(
            recognizer=kind.name, recognizers=_any_of([other for other in RECOGNIZERS if other.phrases])))
    return kind


def open_recognizer(
    kind: str | None = None,
    model: Path | str | None = None,
    sample_rate: int = SAMPLE_RATE,
    *,
    confirming: Path | str | None = None,
    live: bool = False,
    language: str = "en",
) -> Recognizer:
    """A recognizer of `kind` (see `kind_of`) for audio at `sample_rate`. `model` is a
    Whisper or a Vosk model folder, or a Whisper model's name ("base"). `confirming` is the
    Whisper model of the confirming pass (default: `model` when given, else base:
    models.locate.locate_confirming). `live`: the audio comes at its own pace (a microphone),
    and Whisper's confirmations run beside the stream, on a thread of their own; else between
    chunks, so that a file is always heard the same way. `language`: what it hears (Whisper's
    language is forced; the others hear English only and refuse another)."""
    chosen = kind_of(kind, model)
    try:
        return chosen.open(None if model is None else Path(model), sample_rate,
                           None if confirming is None else Path(confirming), live, language)
    except ModelNotFound as error:
        raise MissingModel(str(error)) from error
    except DamagedModel as error:
        raise BrokenModel(str(error)) from error
    except ModelError as error:
        raise RecognizerError(str(error)) from error
