"""`storyhost demo`: a Stories! story from the rulebook's Arctic example, refereed from a recording.

The players' commands come from a bundled script; Nina's story is a bundled recording (festival's
cmu_us_slt_arctic_hts voice) heard through the same pipeline as a microphone: recognizer, term
matcher, live ticks with their times, Stop!, scores. No microphone, network or download is
needed; with a sound card the host reads its announcements aloud. It runs in a temporary
saved-games folder, so the demo never shows up in 'storyhost games'.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

from games.base import Match
from games.language import _, p_, use
from host.audio.sources import FileSource
from host.adapters.base import adapter_for, language_named
from host.adapters.listening import Hearing
from host.cli.catalog import make, new_settings
from host.speech.hearing import Heard, hear
from host.session.events import InputEvent, Typed
from host.session.inputs import Listening, ScriptSource
from host.speech.recognizer import Recognizer, RecognizerError
from host.speech import registry as recognizers
from host.speech.registry import open_recognizer
from host.session.session import Session, SessionConfig, TextOutput
from host.audio.speaker import PrintSpeaker, Speaker, open_speaker
from host.storage.catalogs import DEFAULT, UnknownLanguage, check_language, translations
from host.storage.store import GameStore

GAME = "stories"
PLAYERS = ["Nina", "Sabine", "Stephan", "Melanie"]
#: the seed that deals the built-in deck with the Arctic card on top
SEED = 53
#: the script line at which the recording of the story plays
LISTEN = "listen"
TIME_UP = "timeup"


class RecordedStory:
    """The demo's input: the script's lines, and at 'listen' the recording as it is heard. When
    the recording ends with the story still running (a term not heard), the sand timer runs out
    then: the demo has no clock to wait for."""

    #: the story is heard from the recording, as through a microphone
    hears_speech = True

    def __init__(self, script: ScriptSource, recording: Path, recognizer: Recognizer, realtime: bool,
                 speaker: Speaker | None, telling: Callable[[], bool]) -> None:
        self.script, self.recording, self.recognizer, self.realtime = script, recording, recognizer, realtime
        self.speaker, self.telling = speaker, telling
        self._heard: Iterator[Heard] | None = None
        self._context: str | None = None  # the card's sentence, once the story starts

    def read(self, timeout: float | None) -> InputEvent:
        if self._heard is not None:
            heard = next(self._heard, None)
            if heard is not None:
                return heard
            self._heard = None
            if self.telling():
                print(_("(The recording is over; the sand timer runs out.)"))
                return Typed(TIME_UP)
        if self.speaker is not None:
            self.speaker.wait(timeout=60)  # let the table hear each announcement to its end
        line = self.script.read(timeout)
        if line != Typed(LISTEN):
            return line
        print(_("(Nina tells her story: the recording {file} is heard as through a microphone.)").format(
            file=self.recording.name))
        self.recognizer.reset()
        self.recognizer.set_context(self._context)
        self._heard = hear(FileSource(self.recording, rate=self.recognizer.sample_rate, realtime=self.realtime),
                           self.recognizer)
        return self.read(timeout)

    def secret(self, hidden: bool) -> None:
        """The demo's terms are typed by the script: there is nothing to hide from."""

    def listen(self, wanted: Listening | None) -> None:
        """The recording plays at 'listen', whatever the session would have the microphone do;
        what the story continues (the card's sentence) primes the recognizer for it."""
        if wanted is not None and wanted.story:
            self._context = wanted.context


def _language_refused(language: str) -> str | None:
    """Why the demo cannot be shown in `language` (None: it can, English). Its story is a
    recording of a natural voice; the only Spanish voice here is espeak-ng's synthesis, so no
    Spanish recording of a story told as players tell it can be made."""
    try:
        check_language(language)
    except UnknownLanguage as error:
        return str(error)
    if language == DEFAULT:
        return None
    return _("the demo is in English only: its story is an English recording, and no natural voice here can record "
             "one in {language}. To play Stories! in {language}: {command}").format(
        language=language_named(language),
        command=f"storyhost play stories --language {language} --players {' '.join([p_('param', 'name').upper()] * 3)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="storyhost demo",
                                     description=_("A Stories! story refereed from a recording."))
    parser.add_argument("--fast", action="store_true",
                        help=_("hear the recording as fast as possible, not at its pace"))
    parser.add_argument("--silent", action="store_true", help=_("print the announcements without reading them aloud"))
    parser.add_argument("--asr", choices=recognizers.names(),
                        help=_("the recognizer that hears the story (default: {default})").format(
                            default=recognizers.default().name))
    parser.add_argument("--model", type=Path, metavar="NAME|DIR",
                        help=recognizers.model_help())
    parser.add_argument("--language", default=DEFAULT, metavar="CODE",
                        help=_("the demo's language: en only, since its story is a recording in English"))
    options = parser.parse_args(argv)
    refusal = _language_refused(options.language)
    if refusal:
        print(f"storyhost demo: {refusal}", file=sys.stderr)
        return 2
    use(translations(options.language))  # the recording's language, whatever the last game's was
    try:
        recognizer = open_recognizer(options.asr, options.model, live=not options.fast)
    except RecognizerError as error:
        print(f"storyhost demo: {error}", file=sys.stderr)
        return 1
    speaker = PrintSpeaker() if options.silent else open_speaker(None)
    voice = None if isinstance(speaker, PrintSpeaker) else speaker
    settings = new_settings(argparse.Namespace(game=GAME, players=PLAYERS, seed=SEED, timer_seconds=60, deck=None,
                                               language=DEFAULT))
    print(
        "storyhost demo: a Stories! story after the rulebook's Arctic example. Nina tells the story; "
        "Sabine, Stephan and Melanie have secretly written five terms each. The lines after '> ' "
        "are what the players type; then Nina's recorded story is heard and refereed as it comes."
    )
    data = resources.files("host").joinpath("data")
    try:
        with tempfile.TemporaryDirectory(prefix="storyhost-demo-") as folder, \
                GameStore(Path(folder) / "demo.sqlite3") as store, \
                resources.as_file(data.joinpath("demo-narration.flac")) as recording, \
                data.joinpath("demo.script").open("rb") as lines:
            game_id = store.create(GAME, settings)
            match = Match(make(GAME, settings))
            listeners = adapter_for(GAME).listeners(settings, Hearing())  # the script says when time is up
            session = Session(SessionConfig(store=store, game_id=game_id, match=match, output=TextOutput(speaker=voice),
                                            listeners=listeners))
            session.end_note = (
                "That was one story; with four players a whole game has eight. Start your own with: "
                "storyhost play stories --players NAME NAME NAME"
            )
            telling = lambda: any(choice.action.verb == TIME_UP for choice in session.state.legal_actions())  # noqa: E731
            source = RecordedStory(ScriptSource(lines), recording, recognizer, realtime=not options.fast,
                                   speaker=voice, telling=telling)
            session.run(source)
    finally:
        speaker.wait(timeout=60)
        speaker.close()
    return 0
