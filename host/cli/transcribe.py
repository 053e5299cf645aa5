"""`storyhost transcribe FILE`: a recording streamed through a recognizer as a microphone would
deliver it, its hypotheses printed, one `final:` line per utterance. With `--phrases` each
utterance is also decided as a spoken command exactly as a game decides it (the same phrase list
with the spelling alphabet, the same `nlp.commands.understand`): one `command:` line saying
whether the host would take it at once, ask about it first, or take it for no command. With
`--language` the recognizer hears that language, forced (and the phrases are spelled in it:
numbers and letters as its words); without it, the language of the last game (English before any)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from games.base import join_either
from games.language import N_, _, use
from host.adapters.base import language_named
from host.audio.sources import AudioFileError, FileSource
from host.speech.hearing import hear
from host.speech.recognizer import Hypothesis, RecognizerError
from host.cli.usage import chosen_language
from host.speech.registry import asr_help, kind_of, model_help, names, open_recognizer, takes_phrases
from host.storage.catalogs import DEFAULT, UnknownLanguage, languages, translations
from host.voice.phrases import each
from nlp.commands import Deciding, understand
from nlp.ticks import HeardWord

#: what a game does with an utterance, in the table's words (the labels final: and command: stay
#: as they are, for scripts that read the lines)
VERDICTS = {"take": N_("taken at once"), "ask": N_("asked about first"), "drop": N_("not a command")}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="storyhost transcribe",
        description=_("Print what the speech recognizer hears in a recording streamed as a microphone delivers it: "
                      "a final: line per utterance and, with --phrases, a command: line saying what a game would do "
                      "with it."))
    parser.add_argument("audio", type=Path, help=_("a WAV or FLAC file, at any sample rate"))
    parser.add_argument(
        "--asr", choices=names(), help=asr_help(_("the recognizer")),
    )
    parser.add_argument("--model", type=Path, metavar="NAME|DIR",
                        help=model_help())
    parser.add_argument(
        "--phrases", nargs="+", metavar="PHRASE",
        help=_("listen only for these phrases, and decide each utterance as a game does; ways of saying one command "
               "go in one phrase, split by '|' ('b three|flip b three')"),
    )
    parser.add_argument("--partials", action="store_true", help=_("also print partial hypotheses"))
    parser.add_argument(
        "--language", metavar="CODE",
        help=_("the language spoken, forced on the recognizer, and of the lines printed (default: the language of "
               "your last game, English before any): {languages}").format(
            languages=join_either([language_named(code) for code in languages()])),
    )
    args = parser.parse_args(argv)
    try:
        language = chosen_language(args.language)
    except UnknownLanguage as error:
        print(error, file=sys.stderr)
        return 2
    use(translations(language))
    listened = None if args.phrases is None else meanings(args.phrases)
    try:
        kind = kind_of(args.asr, args.model)
        recognizer = open_recognizer(kind.name if listened is None else takes_phrases(kind).name, args.model,
                                     language=language)
        recognizer.set_phrases(None if listened is None else list(listened))
        source = FileSource(args.audio, recognizer.sample_rate)
        try:
            hypotheses = [heard.hypothesis for heard in hear(source, recognizer)]
        finally:
            source.close()
    except (AudioFileError, RecognizerError) as error:
        print(error, file=sys.stderr)
        return 2
    for hypothesis in hypotheses:
        if hypothesis.final or args.partials:
            print(f"{'final' if hypothesis.final else 'partial'}: {' '.join(map(_timed, hypothesis.words))}")
        if hypothesis.final and listened is not None:
            print(f"command: {decision(hypothesis, listened, kind.deciding(language), language)}")
    return 0


def meanings(phrases: Sequence[str]) -> dict[str, str]:
    """Each way of saying the phrases, as a game listens for them (spelled as the recognizer
    spells, letters also with the spelling alphabet) -> the command it stands for: the phrase,
    or the first of its ways when they are given as "b three|flip b three"."""
    return {phrase.words: phrase.line for given in phrases
            for phrase in each(tuple(given.split("|")), given.split("|")[0])}


def decision(hypothesis: Hypothesis, listened: dict[str, str], deciding: Deciding, language: str = DEFAULT) -> str:
    """What a game does with a final hypothesis: "b three: asked about first (0.84; it rhymes
    with 'd three'); free recognition heard 'B3.'"."""
    understood = understand(hypothesis.text, hypothesis.loose, listened, deciding, language, hypothesis.vouched)
    heard = "" if hypothesis.loose is None else _("; free recognition heard {text}").format(text=repr(hypothesis.loose))
    if understood is None:
        return _("nothing heard, not a command") + heard
    why = f"; {understood.doubt}" if understood.doubt else ""
    return f"{listened[understood.phrase]}: {_(VERDICTS[understood.verdict])} ({understood.confidence:.2f}{why}){heard}"


def _timed(word: HeardWord) -> str:
    """The word with those of its times and confidence it has: "polar@1.67-2.04 (0.93)"."""
    times = f"@{word.start:.2f}-{word.end:.2f}" if word.start is not None and word.end is not None else ""
    confidence = f" ({word.confidence:.2f})" if word.confidence is not None else ""
    return f"{word.text}{times}{confidence}"
