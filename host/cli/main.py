"""`storyhost`: the command line. Every failure the players can cause ends in one plain line."""
from __future__ import annotations

import argparse
import errno
import faulthandler
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from babel.dates import format_date

from games.base import DeckTooSmall, IllegalAction, Match, SetupError, join_either, join_names
from host.adapters.base import adapter_for, language_named
from host.adapters.listening import Hearing
from host.audio.sources import AudioDeviceError, MicGate, Microphone, MicrophoneSource
from host.cli.usage import UsageError, chosen_language, speak_argparse
from host.cli.catalog import add_play_options, games, make, new_settings
from host.storage.decks import DeckError
from host.storage.files import FileRefused
from host.session.inputs import LineSource, ScriptSource, TerminalSource, read_script
from host.session.live import LiveInput
from host.speech.recognizer import Recognizer, RecognizerError
from host.speech import registry as recognizers
from host.storage.preferences import Preferences
from host.storage.preferences import load as load_preferences
from host.storage.preferences import save as save_preferences
from host.storage.catalogs import DEFAULT as DEFAULT_LANGUAGE
from host.storage.catalogs import UnknownLanguage, check_language, languages, translations
from games.language import _, n_, p_, speaking, use
from host.cli.rules import rules_in, with_rules
from host.session.screen import visible
from host.session.session import Session, SessionConfig, TextOutput
from host.voice.names import CallError, parse_calls, spoken_names
from host.voice.control import VoiceControl
from host.voice.phrases import Names
from host.audio.speaker import MAX_RATE, MIN_RATE, PrintSpeaker, Speaker, SpeakerError, open_speaker
from host.storage.store import GameBusy, GameDamaged, GameStore, SavedGame, StoreError
from models.locate import data_dir
from nlp import LanguageResourceMissing
from nlp.commands import fold

if TYPE_CHECKING:
    from host.companion.addresses import Served
    from host.companion.server import Companion

#: subcommands with argument parsers of their own: name -> module with main(argv) -> int
DELEGATED = {
    "tick": "host.cli.tick",
    "models": "host.cli.models",
    "transcribe": "host.cli.transcribe",
    "devices": "host.audio.devices",
    "demo": "host.cli.demo",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="storyhost",
        description=_("An offline, voice-driven host for Stories!, Storytelling and Dixit."),
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser("play", help=_("start a new game"))
    add_play_options(play)
    play.add_argument(
        "--language", default=None, metavar="CODE",
        help=_("the language the game is played in, saved with it and remembered for the next: {languages}").format(
            languages=join_either([language_named(code) for code in languages()])),
    )
    add_speech_options(play)
    add_companion_options(play)
    resume = commands.add_parser("resume", help=_("continue a saved game (the latest unfinished one by default)"))
    resume.add_argument("id", nargs="?", type=int, help=_("the game's number, as 'storyhost games' lists it"))
    resume.add_argument("--script", default=None, help=_("read commands from this file instead of the keyboard"))
    add_speech_options(resume)
    add_companion_options(resume)
    commands.add_parser("games", help=_("list saved games"))
    rules = commands.add_parser("rules", help=_("the rules and rulings storyhost applies"))
    rules.add_argument("game", choices=with_rules(games()))
    rules.add_argument("--language", default=None, metavar="CODE",
                       help=_("the language of the rules (default: the language of your last game)"))
    commands.add_parser("demo", help=_("watch a Stories! story refereed from a recording, no microphone needed"),
                        add_help=False)
    commands.add_parser("tick", help=_("judge which written terms a story transcript or recording ticks"),
                        add_help=False)
    commands.add_parser("models", help=_("list, download, install and verify speech and language models"),
                        add_help=False)
    commands.add_parser("devices", help=_("list microphones and speakers"), add_help=False)
    commands.add_parser("transcribe", help=_("print what the speech recognizer hears in a WAV or FLAC file"),
                        add_help=False)
    return parser


def add_speech_options(parser: argparse.ArgumentParser) -> None:
    speech = parser.add_argument_group(_("speech"))
    speech.add_argument(
        "--speech", action="store_true",
        help=_("play by voice: the host speaks, hears spoken commands, and in Stories! ticks the story live"),
    )
    speech.add_argument("--input", default=None, metavar="NAME|INDEX",
                        help=_("the microphone ('storyhost devices' lists them)"))
    speech.add_argument(
        "--asr", choices=recognizers.names(), default=None, help=recognizers.asr_help(_("the speech recognizer")),
    )
    speech.add_argument(
        "--model", type=Path, default=None, metavar="NAME|DIR",
        help=recognizers.model_help(),
    )
    speech.add_argument("--voice", default=None, help=_("the voice of the host (an espeak-ng voice such as en-us; "
                                                        "default: the game's language's, es for Spanish)"))
    speech.add_argument("--rate", type=int, default=None,
                        help=_("speech rate in words per minute ({low} to {high}), remembered").format(
                            low=MIN_RATE, high=MAX_RATE))
    speech.add_argument(
        "--prefix", default=None, metavar="WORD",
        help=_("take a spoken command only when it starts with WORD (e.g. host), so talk at the table is not taken "
               "for one"),
    )
    speech.add_argument(
        "--call", action="append", default=[], metavar="NAME=WORD",
        help=_("call a player by another word by voice, for a name the speech recognizer does not know"),
    )


def add_companion_options(parser: argparse.ArgumentParser) -> None:
    companion = parser.add_argument_group(_("phones"))
    companion.add_argument(
        "--companion", action="store_true",
        help=_("serve each player a private page on their phone, and a table page, over the local network"),
    )
    companion.add_argument("--port", type=port_number, default=8765,
                           help=_("the port the pages are served on (default 8765; 0: any free port)"))
    companion.add_argument(
        "--host", default=None, metavar="ADDRESS",
        help=_("serve the pages on this one address of this computer (default: every address phones may reach, "
               "the likeliest said first)"),
    )


def port_number(text: str) -> int:
    """A port for --port: 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _("{text!r} is no port: give a number from 1 to 65535, or 0 for any free one").format(text=text))
    return port


def _phones_port(options: argparse.Namespace, held: ExitStack) -> Served | None:
    """With --companion, the phones' port bound now on the addresses served, before a game is
    created or resumed, so that a port in use or an address this computer lacks leaves nothing behind."""
    if not options.companion:
        if options.host is not None:
            raise UsageError(_("--host chooses the address of the phones' pages: add --companion."))
        return None
    from host.companion.addresses import AddressError, Served  # the web server only for a game with phones

    try:
        return held.enter_context(Served(options.port, options.host))
    except AddressError as error:
        raise UsageError(str(error)) from error


def _needs_phones(saved_game: str, settings: dict[str, Any], options: argparse.Namespace) -> None:
    """A game whose hands are dealt to the phones (Dixit told in words) is refused without
    --companion, with why and what to play instead; before a game is created or resumed."""
    reason = adapter_for(saved_game).phones(settings)
    if reason is not None and not options.companion:
        raise UsageError(_("{reason} To play it, add --companion.").format(reason=reason))


def _start_companion(store: GameStore, saved: SavedGame, listening: Served, output: TextOutput) -> Companion:
    """Serve the phones' pages and tell the table how to join; then why every player needs a
    phone, in a game whose hands are dealt to them."""
    from host.companion.server import Companion

    title = _("{title}, game {number}").format(title=games()[saved.game].title, number=saved.id)
    companion = Companion(store, saved.id, title, saved.game,
                          saved.settings["players"], listening)
    companion.start()
    companion.invite(output)
    reason = adapter_for(saved.game).phones(saved.settings)
    if reason is not None:
        output.note(reason)
    output.also = companion.announce
    return companion


def _source(script: str | None) -> tuple[LineSource, bool]:
    """The command source, and whether the story clock runs on the wall clock."""
    if script is not None:
        try:
            return ScriptSource(read_script(script)), False
        except FileRefused as refused:
            raise UsageError(_("The script {refused}.").format(refused=refused)) from refused
    if sys.stdin.isatty():
        return TerminalSource(), True
    return ScriptSource(sys.stdin.buffer), False


@dataclass
class Speech:
    """--speech: the voice, the recognizer, the microphone and the players' spoken names, set
    up before any game changes."""

    speaker: Speaker
    recognizer: Recognizer
    microphone: Callable[[], Microphone]
    kind: recognizers.RecognizerKind
    names: Names
    language: str

    def close(self) -> None:
        self.speaker.wait(timeout=30)
        self.speaker.close()


def _inputs(options: argparse.Namespace, players: list[str], language: str,
            preferences: Preferences) -> tuple[LineSource, bool] | Speech:
    """Typed commands (a source, and whether the story clock runs on the wall clock), or speech
    in the game's `language`; everything that can fail (the voice, the recognizer, the
    microphone) is opened here, before a game is created or resumed."""
    if not options.speech:
        return _source(options.script)
    if options.script is not None:
        raise UsageError(_("--speech plays live from the keyboard and microphone: leave out --script."))
    if options.rate is not None:
        preferences.rate = options.rate
    try:
        speaker = open_speaker(rate=preferences.rate, voice=options.voice, language=language)
    except SpeakerError as error:
        raise UsageError(str(error)) from error
    try:
        kind = recognizers.takes_phrases(recognizers.kind_of(options.asr, options.model))
        recognizer = recognizers.open_recognizer(kind.name, options.model, live=True, language=language)
        names = spoken_names(players, recognizer, parse_calls(options.call, players), print)
        if options.prefix is not None and not recognizer.knows(fold(options.prefix)):
            raise UsageError(_("The speech recognizer does not know the word '{word}': choose another --prefix.")
                             .format(word=options.prefix))
        microphone = partial(MicrophoneSource, options.input, rate=recognizer.sample_rate)
        microphone().close()  # opened when the game listens; one that cannot be is refused now
    except (RecognizerError, CallError, UsageError, AudioDeviceError) as error:
        speaker.close()
        raise UsageError(str(error)) from error
    return Speech(speaker, recognizer, microphone, kind, names, language)


def _preferences() -> Preferences:
    """The remembered preferences; the defaults, said why on stderr, when they cannot be read."""
    preferences, trouble = load_preferences()
    if trouble:
        print(visible(trouble), file=sys.stderr)
    return preferences


def _run(store: GameStore, saved: SavedGame, match: Match, options: argparse.Namespace,
         inputs: tuple[LineSource, bool] | Speech, listening: Served | None, preferences: Preferences) -> None:
    """Play the saved game; `preferences` (verbosity, rate) are changed and saved by the game."""
    if isinstance(inputs, Speech):
        _run_speech(store, saved, match, options, inputs, listening, preferences)
        return
    adapter = adapter_for(saved.game)
    source, wall_clock = inputs
    output = TextOutput()
    companion = _start_companion(store, saved, listening, output) if listening else None
    listeners = adapter.listeners(saved.settings, Hearing(wall_clock=wall_clock))
    try:
        Session(SessionConfig(store=store, game_id=saved.id, match=match, output=output, preferences=preferences,
                              listeners=listeners, without=adapter.without(saved.settings), private=companion,
                              adapter=adapter)
                ).run(companion.attach(source) if companion else source)
    finally:
        if companion is not None:
            companion.close()


def _run_speech(store: GameStore, saved: SavedGame, match: Match, options: argparse.Namespace,
                inputs: Speech, listening: Served | None, preferences: Preferences) -> None:
    adapter = adapter_for(saved.game)
    without = adapter.without(saved.settings)
    speaker, recognizer = inputs.speaker, inputs.recognizer
    output = TextOutput(speaker=None if isinstance(speaker, PrintSpeaker) else speaker)
    companion = None
    voice = VoiceControl(
        inputs.names, output.note, adapter, fold(options.prefix) if options.prefix else None,
        brief=lambda: preferences.verbosity == "brief", without=without,
        deciding=inputs.kind.deciding(inputs.language), language=inputs.language,
    )
    try:
        source = LiveInput(inputs.microphone, recognizer, MicGate(speaker))
        if listening is not None:
            companion = _start_companion(store, saved, listening, output)
            companion.attach(source)
        listeners = adapter.listeners(saved.settings, Hearing(speech=True, wall_clock=True))
        Session(SessionConfig(store=store, game_id=saved.id, match=match, output=output, preferences=preferences,
                              listeners=listeners, voice=voice, without=without, private=companion, adapter=adapter)
                ).run(source)
    finally:
        if companion is not None:
            companion.close()
        inputs.close()


def _remember(preferences: Preferences, language: str) -> None:
    """The language of a game just created, remembered for the next."""
    if language != preferences.language:
        preferences.language = language
        trouble = save_preferences(preferences)
        if trouble:
            print(visible(trouble), file=sys.stderr)


def _offered(language: str) -> str:
    """`language` if storyhost speaks it, else a usage error in one line listing those it does."""
    try:
        return check_language(language)
    except UnknownLanguage as error:
        raise UsageError(str(error)) from error


def _speak(language: str) -> None:
    """Every sentence from now on in `language`: a game's, from its settings (older saved games
    were English); a language whose catalog is gone is a usage error, not a damaged game."""
    try:
        use(translations(language))
    except UnknownLanguage as error:
        raise UsageError(str(error)) from error


def _play(options: argparse.Namespace) -> None:
    """A new game: every setting, the phones' port and the speech setup checked first, so that
    a refusal saves nothing (neither a game nor the language)."""
    preferences = _preferences()
    language = preferences.language if options.language is None else _offered(options.language)
    options.language = language  # the adapters read it for their decks (new_settings)
    _speak(language)
    try:
        settings = {**new_settings(options), "language": language}
        match = Match(make(options.game, settings))
    except DeckTooSmall as error:
        deck = options.deck or _("The built-in deck")
        raise UsageError(f"{deck}: {error}") from error
    except DeckError as error:  # every problem of the file, one line each
        raise UsageError(*(f"{error.source}: {problem}" for problem in error.problems)) from error
    except (SetupError, ValueError) as error:
        raise UsageError(str(error)) from error
    _needs_phones(options.game, settings, options)
    with ExitStack() as held:
        listening = _phones_port(options, held)
        inputs = _inputs(options, settings["players"], language, preferences)
        store = held.enter_context(GameStore.open())
        game_id = store.create(options.game, settings, held)
        _remember(preferences, language)
        saved = store.get(game_id)
        assert saved is not None
        started = (_("{game}, game {number}. Players: {players}. Say '{help}' at any time.") if options.speech else
                   _("{game}, game {number}. Players: {players}. Type {help} at any time."))
        print(started.format(game=games()[options.game].title, number=game_id, players=join_names(settings["players"]),
                             help=p_("verb", "help")))
        _run(store, saved, match, options, inputs, listening, preferences)


def _open(store: GameStore, saved: SavedGame, held: ExitStack) -> Match:
    """Hold the saved game open and replay it; GameDamaged if it cannot be read whole or
    replayed, GameBusy if it is open in another storyhost."""
    if saved.damage is not None:
        raise GameDamaged(saved.damage)
    held.enter_context(store.hold(saved.id))
    actions = store.actions(saved.id)
    try:
        factory = make(saved.game, saved.settings)
        factory()  # settings that cannot build the game are damaged, whatever the moves
    except SetupError as error:
        raise GameDamaged(_("Game {number} cannot be resumed with its saved settings: {error}")
                          .format(number=saved.id, error=error)) from error
    except (KeyError, TypeError) as error:
        raise GameDamaged(_("Game {number} cannot be resumed: its saved settings are damaged.")
                          .format(number=saved.id)) from error
    try:
        return Match(factory, actions)
    except (IllegalAction, SetupError, DeckError) as error:
        raise GameDamaged(_("Game {number} cannot be replayed by this storyhost: {error}")
                          .format(number=saved.id, error=error)) from error


def _resume(options: argparse.Namespace) -> None:
    """`resume N` opens game N, even one that is over (its last move can be undone); a bare
    `resume` the latest unfinished game that is neither open elsewhere nor damaged."""
    with ExitStack() as phones, GameStore.open() as store, ExitStack() as held:
        listening = _phones_port(options, phones)
        if options.id is not None:
            saved = store.get(options.id)
            if saved is None:
                raise UsageError(_("There is no saved game {number}; 'storyhost games' lists them.").format(number=options.id))
            match = _open(store, saved, held)
        else:
            passed_over = []
            for saved in store.unfinished():
                try:
                    match = _open(store, saved, held)
                    break
                except (GameBusy, GameDamaged) as error:
                    held.close()
                    passed_over.append(str(error))
            else:
                for line in passed_over[:-1]:
                    print(line, file=sys.stderr)
                raise UsageError(passed_over[-1] if passed_over else
                                _("There is no unfinished game to resume; start one with 'storyhost play'."))
            for line in passed_over:
                print(_("{trouble} Resuming another game.").format(trouble=line), file=sys.stderr)
        _speak(saved.settings.get("language", DEFAULT_LANGUAGE))
        _needs_phones(saved.game, saved.settings, options)
        preferences = _preferences()
        inputs = _inputs(options, saved.settings["players"], saved.settings.get("language", DEFAULT_LANGUAGE),
                         preferences)
        print(n_("Resuming {game}, game {number}, after {count} move.", "Resuming {game}, game {number}, after {count} moves.",
                 len(match.log)).format(game=games()[saved.game].title, number=saved.id, count=len(match.log)))
        _run(store, saved, match, options, inputs, listening, preferences)


def when(stamp: str, now: datetime, language: str = DEFAULT_LANGUAGE) -> str:
    """A saved time as a person says it, in local time: 'today at 09:06', 'yesterday at 21:40',
    'on 3 March 2026 at 18:00' (the month's name by Babel, in the language)."""
    moment = datetime.fromisoformat(stamp).astimezone(now.tzinfo)
    clock = f"{moment:%H:%M}"
    if moment.date() == now.date():
        return _("today at {time}").format(time=clock)
    if moment.date() == now.date() - timedelta(days=1):
        return _("yesterday at {time}").format(time=clock)
    # the date's pattern (Unicode CLDR's) is the language's: '28 February 2026', '28 de febrero de 2026'
    day = format_date(moment.date(), _("d MMMM y"), locale=language)
    return _("on {date} at {time}").format(date=day, time=clock)


def _games(options: argparse.Namespace) -> None:
    with GameStore.open() as store:
        saved_games = list(store.games())
    if not saved_games:
        print(_("No saved games yet; start one with 'storyhost play GAME --players NAME NAME NAME'."))
    now = datetime.now().astimezone()
    language = load_preferences()[0].language
    for saved in saved_games:
        if saved.damage is not None:
            print(f"{saved.id}: {saved.damage}")
            continue
        listed = (_("{number}: {game} with {players}; {moves}, over, last played {when}.") if saved.finished else
                  _("{number}: {game} with {players}; {moves}, in progress, last played {when}."))
        moves = (_("no moves yet") if saved.moves == 0 else
                 n_("{count} move", "{count} moves", saved.moves).format(count=saved.moves))
        adapter = adapter_for(saved.game)
        print(visible(listed.format(
            number=saved.id, game=adapter.spec.title + adapter.variant(saved.settings),
            players=join_names(saved.settings["players"]), moves=moves, when=when(saved.updated, now, language))))


def _rules(options: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """The rules in --language, else in the language of the last game."""
    try:
        language = chosen_language(options.language)
    except UnknownLanguage as error:
        raise UsageError(str(error)) from error
    with speaking(translations(language)):
        out.write(rules_in(options.game, language))


def main(argv: list[str] | None = None) -> int:
    """Run one command. Output that goes away ends it quietly (a closed pipe, as in
    `storyhost models list | head -1`) or in one line (a full disk), for every command."""
    argv = sys.argv[1:] if argv is None else argv
    handlers = {"play": _play, "resume": _resume, "games": _games, "rules": _rules}
    speak_argparse()
    language = _language_on_line(argv) or load_preferences()[0].language  # what is wrong with them: the command's to say
    with speaking(translations(language)):  # play and resume switch to the game's language
        return _run_command(argv, handlers)


def _language_on_line(argv: list[str]) -> str | None:
    """The language a `--language CODE` (or `--language=CODE`) of the command line names, when
    storyhost speaks it: this run's words (--help's too) are in it, whatever was remembered;
    an unknown code is left for the command to refuse. The last one given counts, as argparse's."""
    named = None
    for before, argument in zip(["", *argv], argv):
        if argument == "--":
            break
        if before == "--language":
            named = argument
        elif argument.startswith("--language="):
            named = argument.removeprefix("--language=")
    return named if named in languages() else None


def _run_command(argv: list[str], handlers: Mapping[str, Callable[[argparse.Namespace], None]]) -> int:
    try:
        if argv[:1] and argv[0] in DELEGATED:
            status = int(importlib.import_module(DELEGATED[argv[0]]).main(argv[1:]))
        else:
            options = _parser().parse_args(argv)
            # A host that stops answering at the table can be asked where it is: kill -USR1 PID
            # prints every thread's stack on stderr, and the game goes on.
            faulthandler.register(signal.SIGUSR1, all_threads=True)
            handlers[options.command](options)
            status = 0
        sys.stdout.flush()  # a full disk shows here, not after main when nobody can answer it
        return status
    except UsageError as error:
        for line in error.lines:
            _tell(line)
        return 2
    except (StoreError, LanguageResourceMissing) as error:
        _tell(str(error))
        return 1
    except KeyboardInterrupt:
        print("\n" + _("Stopped. The game is saved: 'storyhost resume' continues it."))
        return 130
    except BrokenPipeError:  # the reader has gone (| head): nobody is left to tell
        _discard_output()
        return 128 + signal.SIGPIPE
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return _crash(error)
        _discard_output()
        if error.filename:
            _tell(_("storyhost stopped: {reason} (writing {file}).").format(reason=error.strerror, file=error.filename))
        else:
            _tell(_("storyhost stopped: {reason} (writing its output).").format(reason=error.strerror))
        return 1
    except Exception as error:  # a bug: keep the details for the developers, not the table
        return _crash(error)


def _crash(error: Exception) -> int:
    log = data_dir() / "crash.log"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as file:
            traceback.print_exc(file=file)
        details = _("Details are in {file}.").format(file=log)
    except OSError as trouble:
        details = _("Its details could not be written to {file} ({reason}).").format(file=log, reason=trouble.strerror)
    _tell(_("storyhost met an internal error ({kind}: {error}). Every move made so far is saved;"
            " 'storyhost resume' continues the game. {details}").format(kind=type(error).__name__, error=error,
                                                                       details=details))
    return 1


def _tell(line: str) -> None:
    """One line on standard error, unless that is gone too."""
    try:
        print(visible(line), file=sys.stderr, flush=True)
    except OSError:
        pass


def _discard_output() -> None:
    """Send what is left in stdout's buffer nowhere, so the exit does not fail on it again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
