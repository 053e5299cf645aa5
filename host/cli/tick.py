"""`storyhost tick`: which of the players' written terms a story ticks.

    storyhost tick --card TEXT --terms FILE.json (--transcript FILE | --audio FILE.wav) [--json]
                   [--asr whisper|vosk|pocketsphinx] [--model PATH] [--language en|es]

The terms file maps each player to their terms: {"Sabine": ["Snow", "cold"], ...}. Each term
is first checked against the rules (a player's later term may duplicate an earlier one), then
the story is searched. As in a game, when a player with 5 terms has all 5 ticked, Stop! ends
the story, after every tick that the same heard word earns. With --json, stdout is one object:
{"players": {player: [{"term", "status", "reason", "evidence", "time"}, ...]}, "stop": null or
{"players", "evidence", "time"}}, where status is "ticked", "heard_after_stop", "not_heard" or
"rejected", reason the rule's code (when rejected: empty, several_terms, adverb, pronoun,
have_be, on_card, free_phrase, not_content_word, duplicate), evidence the words heard and time
the end of the last of them in seconds (when heard in a recording); the fields that do not
apply are null. A recording (WAV or FLAC, any rate) goes through the live
round's pipeline as fast as it decodes, partial hypotheses included, with the card as the
recognizer's context: a tick that a later revision of the recognizer withdrew is not ticked, and
Whisper's confirmations of finished sentences are reconciled with its stream (nlp.reconcile).
A confirmation comes a moment after its sentence, but counts where its words were said: Stop!
falls on the word that completed the fifth term, and a tick heard after that word is "heard after
Stop!", whenever it was given. A missing or unreadable file, malformed JSON, an empty card or a
recognizer that cannot be set up: exit status 2 and one line on stderr.

--language es judges by the rulings' "Stories! in Spanish" (nlp.spanish), a recording heard by
Whisper forced to Spanish, and prints its lines in Spanish; without --language, the language of
the last game (English before any). A language without term rules is refused in one line naming
those there are.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.base import join_either, join_names
from games.language import N_, _, n_, speaking
from host.adapters.base import language_named
from host.adapters.stories import without_term_rules
from host.storage.catalogs import UnknownLanguage, translations
from host.cli.usage import OneLineParser, UsageError, chosen_language
from host.storage.files import FileRefused, read_json, read_text
from host.session.screen import visible
from host.speech import registry as recognizers

from games.stories import TERMS_PER_PLAYER
from nlp.referee import LANGUAGES as TERM_LANGUAGES

if TYPE_CHECKING:
    from nlp import ReconcilingTracker, Referee, TickEvent

PROG = "storyhost tick"
#: the longest transcript read: an hour of speech is about 60 kB
MAX_TRANSCRIPT_BYTES = 1 << 20


class _Parser(OneLineParser):
    error_format = N_("{message}; see 'storyhost tick --help'")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=_("Judge which written terms a story ticks, by the Stories! rules."))
    parser.add_argument("--card", required=True, help=_("the text of the story card"))
    parser.add_argument("--terms", required=True, type=Path,
                        help=_("JSON file: {example}").format(example='{"player": ["term", ...], ...}'))
    story = parser.add_mutually_exclusive_group(required=True)
    story.add_argument("--transcript", type=Path, help=_("the story as a text file"))
    story.add_argument("--audio", type=Path, help=_("the story as a WAV or FLAC recording"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object instead of lines"))
    parser.add_argument(
        "--asr", metavar="NAME",
        help=_("recognizer for --audio: {recognizers}").format(recognizers=recognizers.named()),
    )
    parser.add_argument("--model", type=Path, metavar="NAME|DIR",
                        help=_("for --audio: {models}").format(models=recognizers.model_help()))
    parser.add_argument("--language", metavar="CODE",
                        help=_("the language of the card, terms and story, and of the lines printed (default: the "
                               "language of your last game, English before any): {languages}").format(
                            languages=join_either([language_named(code) for code in TERM_LANGUAGES])))
    return parser


def _composed(text: str) -> str:
    """Text in composed Unicode (NFC): a decomposed "é" is the same letter as a composed one."""
    return unicodedata.normalize("NFC", text)


def _read_terms(path: Path) -> dict[str, list[str]]:
    try:
        data = read_json(path)
    except FileRefused as refused:
        raise UsageError(_("the terms file {refused}").format(refused=refused)) from None
    if not isinstance(data, dict) or not all(
        isinstance(terms, list) and all(isinstance(term, str) for term in terms) for terms in data.values()
    ):
        raise UsageError(_('the terms file {file} must map each player to a list of terms: {example}').format(
            file=path, example='{"Ann": ["dog", "snow"]}'))
    return {_composed(player): [_composed(term) for term in terms] for player, terms in data.items()}


def _read_story(path: Path) -> str:
    try:
        return _composed(read_text(path, MAX_TRANSCRIPT_BYTES))
    except FileRefused as refused:
        raise UsageError(_("the transcript {refused}").format(refused=refused)) from None


def judge(
    referee: Referee, card: str, terms: dict[str, list[str]], tell: Callable[[ReconcilingTracker], Iterable[TickEvent]]
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any] | None]:
    """The result per player and term, in input order, and the Stop! (the JSON shape of --json);
    `tell` gives the story to the tracker of the allowed terms and returns its events."""
    from nlp import ReconcilingTracker

    results: dict[str, list[dict[str, Any]]] = {}
    accepted: dict[str, list[str]] = {}
    for player, written in terms.items():
        results[player], accepted[player] = [], []
        for term in written:
            verdict = referee.check(term, card, accepted[player])
            entry: dict[str, Any] = {"term": term, "status": "rejected", "reason": verdict.code, "evidence": None, "time": None}
            if verdict.allowed:
                entry["status"] = "not_heard"
                accepted[player].append(term)
            else:
                entry["message"] = verdict.message  # for the readable lines only
            results[player].append(entry)
    tracker = ReconcilingTracker(referee, accepted)
    events = list(tell(tracker)) + tracker.finish()
    at_stop, stop = _until_stop(events, accepted)
    for player, ticks in tracker.ticked().items():
        allowed = [entry for entry in results[player] if entry["status"] == "not_heard"]
        for index, (entry, tick) in enumerate(zip(allowed, ticks)):
            tick = at_stop.get((player, index), tick) if stop else tick
            if tick is not None:
                status = "ticked" if stop is None or (player, index) in at_stop else "heard_after_stop"
                entry.update(status=status, evidence=tick.evidence, time=tick.time)
    return results, stop


def _until_stop(
    events: Sequence[TickEvent], accepted: dict[str, list[str]]
) -> tuple[dict[tuple[str, int], TickEvent], dict[str, Any] | None]:
    """The ticks standing at Stop!, and the Stop! (None: the story ran to its end). Stop! is
    called after the last of the ticks one heard word earns, for every player; then, as in a game
    (host.adapters.stop), only what was said up to the word that called it counts: a tick of a
    later word given before it (a confirmation completed the fifth term a moment late) is heard
    after Stop!, and a tick of an earlier word given after it (a confirmation still on its way)
    counts. Typed text has no times: the tick that completed the fifth term is the word."""
    from host.adapters.stop import calls_stop, said_after, stop_word

    ticked: dict[tuple[str, int], TickEvent] = {}
    for i, event in enumerate(events):
        _apply(ticked, event)
        if not event.ticked:
            continue
        following = events[i + 1] if i + 1 < len(events) else None
        if following is not None and following.ticked and (following.heard_at, following.time) == (event.heard_at, event.time):
            continue  # the same word earns more ticks
        standing = {player: [ticked.get((player, j)) for j in range(len(written))] for player, written in accepted.items()}
        word = stop_word(standing)
        if word is None:
            continue
        if word.time is None or event.time is None:
            word = event
        else:
            for later in events[i + 1 :]:
                if later.time is not None and not said_after(later, word.time):
                    _apply(ticked, later)
            ticked = {key: tick for key, tick in ticked.items() if not said_after(tick, word.time)}
        done = [player for player, ticks in standing.items() if calls_stop(ticks)]
        return ticked, {"players": done, "evidence": word.evidence, "time": word.time}
    return ticked, None


def _apply(ticked: dict[tuple[str, int], TickEvent], event: TickEvent) -> None:
    if event.ticked:
        ticked[(event.player, event.index)] = event
    else:
        ticked.pop((event.player, event.index), None)


#: a refusal's code (in --json) in words, for the printed lines
REASONS = {
    "adverb": N_("an adverb"),
    "pronoun": N_("a pronoun"),
    "have_be": N_("a form of have or be"),
    "on_card": N_("on the card"),
    "not_content_word": N_("not a noun, verb or adjective"),
    "duplicate": N_("written twice"),
    "empty": N_("empty"),
}


def _line(player: str, entry: dict[str, Any]) -> str:
    """One term's judgement, in the language of the terms."""
    fields = {"player": player, "term": entry["term"], "evidence": entry["evidence"],
              "seconds": None if entry["time"] is None else f'{entry["time"]:.2f}'}
    if entry["status"] == "ticked":
        return (_('{player}: "{term}" ticked, heard "{evidence}".') if entry["time"] is None else
                _('{player}: "{term}" ticked, heard "{evidence}" at {seconds} s.')).format(**fields)
    if entry["status"] == "heard_after_stop":
        return (_('{player}: "{term}" heard only after Stop!, "{evidence}".') if entry["time"] is None else
                _('{player}: "{term}" heard only after Stop!, "{evidence}" at {seconds} s.')).format(**fields)
    if entry["status"] == "not_heard":
        return _('{player}: "{term}" not heard.').format(**fields)
    reason = _(REASONS[entry["reason"]]) if entry["reason"] in REASONS else entry["reason"].replace("_", " ")
    return _('{player}: "{term}" refused, {reason}. {message}').format(reason=reason, message=entry["message"], **fields)


def _stop_line(stop: dict[str, Any]) -> str:
    """Who called Stop!, on which words and, in a recording, when."""
    fields = {"players": join_names(stop["players"]), "count": TERMS_PER_PLAYER, "evidence": stop["evidence"],
              "seconds": None if stop["time"] is None else f'{stop["time"]:.2f}'}
    if stop["time"] is None:
        return n_('Stop! {players} has all {count} terms ticked, on "{evidence}".',
                  'Stop! {players} have all {count} terms ticked, on "{evidence}".', len(stop["players"])).format(**fields)
    return n_('Stop! {players} has all {count} terms ticked, on "{evidence}" at {seconds} s.',
              'Stop! {players} have all {count} terms ticked, on "{evidence}" at {seconds} s.',
              len(stop["players"])).format(**fields)


def _teller(args: argparse.Namespace) -> Callable[[ReconcilingTracker], Iterable[TickEvent]]:
    """What tells the story to the tracker."""
    if args.audio is not None:
        return _recording(args)
    if args.asr is not None or args.model is not None:
        raise UsageError(_("--asr and --model apply to --audio only; drop them, or give the story as --audio FILE"))
    story = _read_story(args.transcript)
    return lambda tracker: tracker.say(story)


def _recording(args: argparse.Namespace) -> Callable[[ReconcilingTracker], Iterable[TickEvent]]:
    """The recording through the recognizer, both opened now: their errors come before the slow
    loading of the language resources."""

    from host.audio.sources import AudioFileError, FileSource
    from host.adapters.audio_referee import referee_heard
    from host.speech.hearing import hear
    from host.speech.recognizer import RecognizerError

    try:
        recognizer = recognizers.open_recognizer(args.asr, args.model, language=args.language)
        source = FileSource(args.audio, recognizer.sample_rate)
    except (AudioFileError, RecognizerError) as error:
        raise UsageError(str(error).rstrip(".")) from error
    recognizer.set_context(_composed(args.card))

    def tell(tracker: ReconcilingTracker) -> list[TickEvent]:
        try:
            return [timed.event for timed in referee_heard(tracker, hear(source, recognizer))]
        except AudioFileError as error:  # a file whose header was fine can still break part-way
            raise UsageError(str(error).rstrip(".")) from error
        finally:
            source.close()

    return tell


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        args.language = chosen_language(args.language)
    except UsageError as failure:
        print(visible(f"{PROG}: {failure}."), file=sys.stderr)
        return 2
    except UnknownLanguage as unknown:
        print(visible(f"{PROG}: {unknown}"), file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    with speaking(translations(args.language)):
        return _judged(args)


def _judged(args: argparse.Namespace) -> int:
    """The terms judged and printed, in the language of the game (the active catalog's)."""
    try:
        if not args.card.strip():
            raise UsageError(_("the card text is empty; give the card's sentence with --card"))
        terms = _read_terms(args.terms)
        tell = _teller(args)
    except UsageError as failure:
        print(visible(f"{PROG}: {failure}."), file=sys.stderr)
        return 2
    # the language resources take a second to load: only once the input is known to be good
    from nlp import LanguageResourceMissing
    from nlp.referee import referee_for

    refused = without_term_rules(args.language)
    if refused is not None:
        print(visible(f"{PROG}: {refused}"), file=sys.stderr)
        return 2
    try:
        referee = referee_for(args.language)
    except LanguageResourceMissing as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    try:
        results, stop = judge(referee, args.card, terms, tell)
    except UsageError as failure:
        print(visible(f"{PROG}: {failure}."), file=sys.stderr)
        return 2
    if args.json:
        fields = ("term", "status", "reason", "evidence", "time")
        players = {
            player: [{key: entry[key] for key in fields} for entry in entries] for player, entries in results.items()
        }
        print(json.dumps({"players": players, "stop": stop}, ensure_ascii=False))
    else:
        for player, entries in results.items():
            for entry in entries:
                print(visible(_line(player, entry)))
        if stop is not None:
            print(visible(_stop_line(stop)))
    return 0
