"""`storyhost`: the command line. Every failure the players can cause ends in one plain line."""
from __future__ import annotations

import argparse
import faulthandler
import importlib
import signal
import sys
import traceback
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

from games.base import Match, SetupError
from host.audio_in import MicGate, MicrophoneSource
from host.card_reading import CardReading
from host.catalog import GAMES, add_play_options, new_settings, referee
from host.decks import DeckError
from host.inputs import LineSource, ScriptSource, TerminalSource
from host.live import LiveInput
from host.narration import NarrationListener
from host.recognizer import KINDS, Recognizer, RecognizerError, open_recognizer
from host.preferences import Preferences
from host.preferences import load as load_preferences
from host.session import Session, StoryClock, TextOutput
from host.spoken_names import CallError, parse_calls, spoken_names
from host.voice_control import VoiceControl
from host.voice_phrases import Names, nearest_term
from host.speaker import PrintSpeaker, Speaker, SpeakerError, open_speaker
from host.store import GameStore, SavedGame, StoreError, data_dir
from nlp import LanguageResourceMissing
from nlp.commands import fold

#: subcommands with argument parsers of their own: name -> module with main(argv) -> int
DELEGATED = {
    "tick": "host.tick_command",
    "models": "host.models_command",
    "transcribe": "host.recognizer",
    "devices": "host.devices",
    "demo": "host.demo",
}


class UserError(Exception):
    """A problem with what was asked for: printed as one line, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="storyhost",
        description="An offline, voice-driven host for Stories!, Storytelling and Dixit.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser("play", help="start a new game")
    add_play_options(play)
    add_speech_options(play)
    resume = commands.add_parser("resume", help="continue a saved game (the latest unfinished one by default)")
    resume.add_argument("id", nargs="?", type=int, help="the game's number, as 'storyhost games' lists it")
    resume.add_argument("--script", default=None, help="read commands from this file instead of the keyboard")
    add_speech_options(resume)
    commands.add_parser("games", help="list saved games")
    rules = commands.add_parser("rules", help="the rules and rulings storyhost applies")
    rules.add_argument("game", choices=sorted(GAMES))
    commands.add_parser("demo", help="watch a Stories! story refereed from a recording, no microphone needed", add_help=False)
    commands.add_parser("tick", help="judge which written terms a story transcript or recording ticks", add_help=False)
    commands.add_parser("models", help="list, download, install and verify speech and language models", add_help=False)
    commands.add_parser("devices", help="list microphones and speakers", add_help=False)
    commands.add_parser("transcribe", help="print what the speech recognizer hears in a WAV or FLAC file", add_help=False)
    return parser


def add_speech_options(parser: argparse.ArgumentParser) -> None:
    speech = parser.add_argument_group("speech")
    speech.add_argument(
        "--speech", action="store_true",
        help="play by voice: the host speaks, hears spoken commands, and in Stories! ticks the story live",
    )
    speech.add_argument("--input", default=None, metavar="NAME|INDEX", help="the microphone ('storyhost devices' lists them)")
    speech.add_argument(
        "--asr", choices=KINDS, default=None,
        help="the speech recognizer: whisper (the default) hears stories and clues with Whisper and commands with"
        " Vosk if an English Vosk model is installed, else PocketSphinx; vosk or pocketsphinx hear everything",
    )
    speech.add_argument("--model", type=Path, default=None, help="a Whisper or Vosk model folder")
    speech.add_argument("--voice", default=None, help="the voice of the host (an espeak-ng voice such as en-us)")
    speech.add_argument("--rate", type=int, default=None, help="speech rate in words per minute (80 to 450), remembered")
    speech.add_argument(
        "--prefix", default=None, metavar="WORD",
        help="take a spoken command only when it starts with WORD (e.g. host), so talk at the table is not taken for one",
    )
    speech.add_argument(
        "--call", action="append", default=[], metavar="NAME=WORD",
        help="call a player by another word by voice, for a name the speech recognizer does not know",
    )


def _source(script: str | None) -> tuple[LineSource, bool]:
    """The command source, and whether the story clock runs on the wall clock."""
    if script is not None:
        try:
            return ScriptSource(open(script, encoding="utf-8")), False
        except OSError as error:
            raise UserError(f"Cannot read the script {script}: {error.strerror}.") from error
    if sys.stdin.isatty():
        return TerminalSource(), True
    return ScriptSource(sys.stdin), False


@dataclass
class Speech:
    """--speech: the voice, the recognizer and the players' spoken names, set up before any
    game changes."""

    speaker: Speaker
    recognizer: Recognizer
    names: Names
    preferences: Preferences

    def close(self) -> None:
        self.speaker.wait(timeout=30)
        self.speaker.close()


def _inputs(options: argparse.Namespace, players: list[str]) -> tuple[LineSource, bool] | Speech:
    """Typed commands (a source, and whether the story clock runs on the wall clock), or speech;
    everything that can fail is opened here, before a game is created or resumed."""
    if not options.speech:
        return _source(options.script)
    if options.script is not None:
        raise UserError("--speech plays live from the keyboard and microphone: leave out --script.")
    preferences, trouble = load_preferences()
    if trouble:
        print(trouble, file=sys.stderr)
    if options.rate is not None:
        preferences.rate = options.rate
    try:
        speaker = open_speaker(rate=preferences.rate, voice=options.voice)
    except SpeakerError as error:
        raise UserError(str(error)) from error
    try:
        recognizer = open_recognizer(options.asr, options.model)
        names = spoken_names(players, recognizer, parse_calls(options.call, players), print)
        if options.prefix is not None and not recognizer.knows(fold(options.prefix)):
            raise UserError(f"The speech recognizer does not know the word '{options.prefix}': choose another --prefix.")
    except (RecognizerError, CallError, UserError) as error:
        speaker.close()
        raise UserError(str(error)) from error
    return Speech(speaker, recognizer, names, preferences)


def _run(store: GameStore, saved: SavedGame, match: Match, options: argparse.Namespace,
         inputs: tuple[LineSource, bool] | Speech) -> None:
    timer = saved.settings.get("timer_seconds")
    listener = NarrationListener(referee()) if saved.game == "stories" else None
    if not isinstance(inputs, Speech):
        source, wall_clock = inputs
        clock = StoryClock(timer) if wall_clock and timer else None
        Session(store, saved.id, match, TextOutput(), clock, listener).run(source)
        return
    speaker, recognizer, preferences = inputs.speaker, inputs.recognizer, inputs.preferences
    output = TextOutput(speaker=None if isinstance(speaker, PrintSpeaker) else speaker)
    voice = VoiceControl(
        inputs.names, output.note, fold(options.prefix) if options.prefix else None,
        brief=lambda: preferences.verbosity == "brief", resolve=nearest_term,
        without=frozenset() if saved.settings.get("storyteller") == "human" else frozenset({"read"}),
    )
    try:
        microphone = lambda: MicrophoneSource(options.input, rate=recognizer.sample_rate)  # noqa: E731
        source = LiveInput(microphone, recognizer, MicGate(speaker))
        clock = StoryClock(timer) if timer else None
        reading = None
        if saved.settings.get("storyteller") == "human":
            reading = CardReading({card["number"]: card["text"] for card in saved.settings["tale"]["cards"]})
        Session(store, saved.id, match, output, clock, listener, voice, preferences, reading).run(source)
    finally:
        inputs.close()


def _play(options: argparse.Namespace) -> None:
    try:
        settings = new_settings(options)
        factory = GAMES[options.game].factory(settings)
        match = Match(factory)
    except (SetupError, DeckError, ValueError) as error:
        raise UserError(str(error)) from error
    inputs = _inputs(options, settings["players"])
    with GameStore.open() as store:
        game_id = store.create(options.game, settings)
        saved = store.get(game_id)
        assert saved is not None
        print(f"{GAMES[options.game].title}, game {game_id}. Players: {', '.join(settings['players'])}. Say 'help' at any time.")
        _run(store, saved, match, options, inputs)


def _resume(options: argparse.Namespace) -> None:
    with GameStore.open() as store:
        saved = store.get(options.id) if options.id is not None else store.latest_unfinished()
        if saved is None:
            raise UserError(
                f"There is no saved game {options.id}; 'storyhost games' lists them."
                if options.id is not None else "There is no unfinished game to resume; start one with 'storyhost play'."
            )
        if saved.finished:
            raise UserError(f"Game {saved.id} is already over; start a new one with 'storyhost play'.")
        inputs = _inputs(options, saved.settings["players"])
        match = Match(GAMES[saved.game].factory(saved.settings), store.actions(saved.id))
        print(f"Resuming {GAMES[saved.game].title}, game {saved.id}, after {len(match.log)} moves.")
        _run(store, saved, match, options, inputs)


def _games(options: argparse.Namespace) -> None:
    with GameStore.open() as store:
        saved_games = list(store.games())
    if not saved_games:
        print("No saved games yet; start one with 'storyhost play GAME --players NAME NAME NAME'.")
    for saved in saved_games:
        state = "over" if saved.finished else "in progress"
        players = ", ".join(saved.settings["players"])
        print(f"{saved.id}: {GAMES[saved.game].title}, {players}; {saved.moves} moves, {state}, last played {saved.updated}.")


def _rules(options: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    out.write(resources.files("host").joinpath("rules", f"{options.game}.md").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in DELEGATED:
        module = importlib.import_module(DELEGATED[argv[0]])
        return module.main(argv[1:])
    options = _parser().parse_args(argv)
    # A host that stops answering at the table can be asked where it is: kill -USR1 PID prints
    # every thread's stack on stderr, and the game goes on.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    handlers = {"play": _play, "resume": _resume, "games": _games, "rules": _rules}
    try:
        handlers[options.command](options)
    except UserError as error:
        print(error, file=sys.stderr)
        return 2
    except (StoreError, LanguageResourceMissing) as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nStopped. The game is saved: 'storyhost resume' continues it.")
        return 130
    except Exception as error:  # a bug: keep the details for the developers, not the table
        log = data_dir() / "crash.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as file:
            traceback.print_exc(file=file)
        print(
            f"storyhost met an internal error ({type(error).__name__}: {error}). Every move made so far is saved;"
            f" 'storyhost resume' continues the game. Details are in {log}.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
