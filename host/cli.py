"""`storyhost`: the command line. Every failure the players can cause ends in one plain line."""
from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from importlib import resources
from typing import TextIO

from games.base import Match, SetupError
from host.catalog import GAMES, add_play_options, new_settings, referee
from host.decks import DeckError
from host.inputs import LineSource, ScriptSource, TerminalSource
from host.narration import NarrationListener
from host.session import Session, StoryClock, TextOutput
from host.store import GameStore, SavedGame, StoreError, data_dir
from nlp import LanguageResourceMissing


#: subcommands with argument parsers of their own: name -> module with main(argv) -> int
DELEGATED = {
    "tick": "host.tick_command",
    "models": "host.models_command",
    "transcribe": "host.recognizer",
    "devices": "host.devices",
}


class UserError(Exception):
    """A problem with what was asked for: printed as one line, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="storyhost",
        description="An offline, voice-driven host for Stories!, Storytelling and Dixit.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_play_options(commands.add_parser("play", help="start a new game"))
    resume = commands.add_parser("resume", help="continue a saved game (the latest unfinished one by default)")
    resume.add_argument("id", nargs="?", type=int, help="the game's number, as 'storyhost games' lists it")
    resume.add_argument("--script", default=None, help="read commands from this file instead of the keyboard")
    commands.add_parser("games", help="list saved games")
    rules = commands.add_parser("rules", help="the rules and rulings storyhost applies")
    rules.add_argument("game", choices=sorted(GAMES))
    commands.add_parser("demo", help="watch a scripted Stories! story, no microphone needed")
    commands.add_parser("tick", help="judge which written terms a story transcript ticks", add_help=False)
    commands.add_parser("models", help="list, download, install and verify speech and language models", add_help=False)
    commands.add_parser("devices", help="list microphones and speakers", add_help=False)
    commands.add_parser("transcribe", help="print what the speech recognizer hears in a WAV file", add_help=False)
    return parser


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


def _session(store: GameStore, saved: SavedGame, match: Match, wall_clock: bool) -> Session:
    timer = saved.settings.get("timer_seconds")
    clock = StoryClock(timer) if wall_clock and timer else None
    listener = NarrationListener(referee()) if saved.game == "stories" else None
    return Session(store, saved.id, match, TextOutput(), clock, listener)


def _play(options: argparse.Namespace) -> None:
    source, wall_clock = _source(options.script)
    try:
        settings = new_settings(options)
        factory = GAMES[options.game].factory(settings)
        match = Match(factory)
    except (SetupError, DeckError, ValueError) as error:
        raise UserError(str(error)) from error
    with GameStore.open() as store:
        game_id = store.create(options.game, settings)
        saved = store.get(game_id)
        assert saved is not None
        print(f"{GAMES[options.game].title}, game {game_id}. Players: {', '.join(settings['players'])}. Say 'help' at any time.")
        _session(store, saved, match, wall_clock).run(source)


def _resume(options: argparse.Namespace) -> None:
    source, wall_clock = _source(options.script)
    with GameStore.open() as store:
        saved = store.get(options.id) if options.id is not None else store.latest_unfinished()
        if saved is None:
            raise UserError(
                f"There is no saved game {options.id}; 'storyhost games' lists them."
                if options.id is not None else "There is no unfinished game to resume; start one with 'storyhost play'."
            )
        if saved.finished:
            raise UserError(f"Game {saved.id} is already over; start a new one with 'storyhost play'.")
        match = Match(GAMES[saved.game].factory(saved.settings), store.actions(saved.id))
        print(f"Resuming {GAMES[saved.game].title}, game {saved.id}, after {len(match.log)} moves.")
        _session(store, saved, match, wall_clock).run(source)


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


def _demo(options: argparse.Namespace) -> None:
    from host.demo import run_demo

    run_demo()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in DELEGATED:
        module = importlib.import_module(DELEGATED[argv[0]])
        return module.main(argv[1:])
    options = _parser().parse_args(argv)
    handlers = {"play": _play, "resume": _resume, "games": _games, "rules": _rules, "demo": _demo}
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
