"""`storyhost tick`: which of the players' written terms a story ticks.

    storyhost tick --card TEXT --terms FILE.json (--transcript FILE | --audio FILE.wav) [--json]
                   [--asr whisper|vosk|pocketsphinx] [--model PATH]

The terms file maps each player to their terms: {"Sabine": ["Snow", "cold"], ...}. Each term
is first checked against the rules (a player's later term may duplicate an earlier one), then
the story is searched. With --json, stdout is one object:
{"players": {player: [{"term", "status", "reason", "evidence", "time"}, ...]}}, where status
is "ticked", "not_heard" or "rejected", reason the rule's code (when rejected), evidence the
words heard and time the end of the last of them in seconds (when ticked from audio); the
fields that do not apply are null. A recording (WAV or FLAC, any rate) goes through the live
round's pipeline as fast as it decodes, partial hypotheses included: a tick that a later
revision of the recognizer withdrew is not ticked. A missing or unreadable file, malformed
JSON, an empty card or a recognizer that cannot be set up: exit status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nlp import TermReferee, TickTracker

PROG = "storyhost tick"


class _Failure(Exception):
    """A problem with the input: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise _Failure(f"{message}; see '{PROG} --help'")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Judge which written terms a story ticks, by the Stories! rules.")
    parser.add_argument("--card", required=True, help="the text of the story card")
    parser.add_argument("--terms", required=True, type=Path, help='JSON file: {"player": ["term", ...], ...}')
    story = parser.add_mutually_exclusive_group(required=True)
    story.add_argument("--transcript", type=Path, help="the story as a text file")
    story.add_argument("--audio", type=Path, help="the story as a WAV or FLAC recording")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    parser.add_argument(
        "--asr", metavar="NAME", help="recognizer for --audio: whisper (the default), vosk or pocketsphinx"
    )
    parser.add_argument("--model", type=Path, help="Whisper or Vosk model folder for --audio")
    return parser


def _read_terms(path: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise _Failure(f"cannot read the terms file {path}: {error.strerror or error}") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise _Failure(f"the terms file {path} is not valid JSON: {error}") from error
    if not isinstance(data, dict) or not all(
        isinstance(terms, list) and all(isinstance(term, str) for term in terms) for terms in data.values()
    ):
        raise _Failure(f'the terms file {path} must map each player to a list of terms: {{"Ann": ["dog", "snow"]}}')
    return data


def _read_story(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise _Failure(f"cannot read the transcript {path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise _Failure(f"the transcript {path} is not UTF-8 text") from error


def judge(
    referee: TermReferee, card: str, terms: dict[str, list[str]], tell: Callable[[TickTracker], object]
) -> dict[str, list[dict[str, Any]]]:
    """The result per player and term, in input order (the JSON shape of --json); `tell` gives
    the story to the tracker of the allowed terms."""
    from nlp import TickTracker

    results: dict[str, list[dict[str, Any]]] = {}
    accepted: dict[str, list[str]] = {}
    for player, written in terms.items():
        results[player], accepted[player] = [], []
        for term in written:
            verdict = referee.check(term, card, accepted[player])
            entry = {"term": term, "status": "rejected", "reason": verdict.code, "evidence": None, "time": None}
            if verdict.allowed:
                entry["status"] = "not_heard"
                accepted[player].append(term)
            else:
                entry["message"] = verdict.message  # for the readable lines only
            results[player].append(entry)
    tracker = TickTracker(referee, accepted)
    tell(tracker)
    tracker.finish()
    for player, ticks in tracker.ticked().items():
        allowed = [entry for entry in results[player] if entry["status"] == "not_heard"]
        for entry, tick in zip(allowed, ticks):
            if tick is not None:
                entry.update(status="ticked", evidence=tick.evidence, time=tick.time)
    return results


def _line(player: str, entry: dict[str, Any]) -> str:
    if entry["status"] == "ticked":
        at = "" if entry["time"] is None else f' at {entry["time"]:.2f} s'
        return f'{player}: "{entry["term"]}" ticked, heard "{entry["evidence"]}"{at}.'
    if entry["status"] == "not_heard":
        return f'{player}: "{entry["term"]}" not heard.'
    return f'{player}: "{entry["term"]}" rejected ({entry["reason"]}). {entry["message"]}'


def _teller(args: argparse.Namespace) -> Callable[[TickTracker], object]:
    """What tells the story to the tracker."""
    if args.audio is not None:
        return _recording(args)
    if args.asr is not None or args.model is not None:
        raise _Failure("--asr and --model apply to --audio only; drop them, or give the story as --audio FILE")
    story = _read_story(args.transcript)
    return lambda tracker: tracker.say(story)


def _recording(args: argparse.Namespace) -> Callable[[TickTracker], object]:
    """The recording through the recognizer, both opened now: their errors come before the slow
    loading of the language resources."""

    from host.audio_in import AudioFileError, FileSource
    from host.audio_referee import referee_heard
    from host.hearing import hear
    from host.recognizer import RecognizerError, open_recognizer

    try:
        recognizer = open_recognizer(args.asr, args.model)
        source = FileSource(args.audio, recognizer.sample_rate)
    except (AudioFileError, RecognizerError) as error:
        raise _Failure(str(error).rstrip(".")) from error

    def tell(tracker: TickTracker) -> None:
        try:
            for _ in referee_heard(tracker, hear(source, recognizer)):
                pass
        except AudioFileError as error:  # a file whose header was fine can still break part-way
            raise _Failure(str(error).rstrip(".")) from error
        finally:
            source.close()

    return tell


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        if not args.card.strip():
            raise _Failure("the card text is empty; give the card's sentence with --card")
        terms = _read_terms(args.terms)
        tell = _teller(args)
    except _Failure as failure:
        print(f"{PROG}: {failure}.", file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    # the language resources take a second to load: only once the input is known to be good
    from nlp import LanguageResourceMissing, load_referee

    try:
        referee = load_referee()
    except LanguageResourceMissing as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    try:
        results = judge(referee, args.card, terms, tell)
    except _Failure as failure:
        print(f"{PROG}: {failure}.", file=sys.stderr)
        return 2
    if args.json:
        fields = ("term", "status", "reason", "evidence", "time")
        players = {
            player: [{key: entry[key] for key in fields} for entry in entries] for player, entries in results.items()
        }
        print(json.dumps({"players": players}, ensure_ascii=False))
    else:
        for player, entries in results.items():
            for entry in entries:
                print(_line(player, entry))
    return 0
