"""What the table hears in a Stories! round: the news that starts and ends a story is spoken;
what happens while it is told (ticks) is only printed, so the host never talks over the
storyteller. The session runs with the real referee, store and the speaker that stands in for
text-to-speech (PrintSpeaker: it prints what it would say)."""
from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from games.base import Match
from games.stories import TermView
from host.adapters.base import adapter_for, referee
from host.cli.catalog import make
from host.storage.decks import load_opening_cards, load_tale
from host.adapters.card_reading import CardReading
from host.session.events import Heard, InputEnded, InputEvent, Typed
from host.session.inputs import Listening
from host.adapters.narration import NarrationListener
from host.speech.recognizer import Hypothesis
from host.session.session import Session, SessionConfig, TextOutput
from host.audio.speaker import PrintSpeaker
from host.voice.control import VoiceControl
from host.voice.phrases import Names
from host.storage.store import GameStore
from nlp.ticks import HeardWord

SETUP = ["side Nina normal", *(f"term Sabine {t}" for t in ("car", "radio", "police", "sandwich", "bag")),
         *(f"term Stephan {t}" for t in ("truck", "brother", "pizza", "dinosaur", "mountain")), "start"]
STORY = "dad turned on the radio and the old car was hot then the police came with a sandwich in a bag"


def said(text: str) -> Heard:
    """A final hypothesis of `text`, as a recognizer hears a spoken command."""
    return Heard(Hypothesis(tuple(HeardWord(word) for word in text.split()), True, loose=text), 0.0)


class Scripted:
    """Typed lines and heard utterances, in order: what the keyboard and microphone deliver."""

    def __init__(self, items: list[str | InputEvent]) -> None:
        self.items = items

    def read(self, timeout: float | None) -> InputEvent:
        if not self.items:
            return InputEnded()
        item = self.items.pop(0)
        return Typed(item) if isinstance(item, str) else item

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        pass


def test_stop_and_the_terms_are_spoken_the_ticks_before_only_printed(tmp_path: Path) -> None:
    settings = {"players": ["Nina", "Sabine", "Stephan"], "seed": 2, "timer_seconds": 60,
                "cards": [asdict(card) for card in load_opening_cards(None)]}
    printed: list[str] = []
    said: list[str] = []
    words = tuple(HeardWord(word, start=i * 0.4, end=i * 0.4 + 0.3) for i, word in enumerate(STORY.split()))
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("stories", settings)
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(write=said.append))
        session = Session(SessionConfig(store=store, game_id=game, match=Match(make("stories", settings)),
                                        output=output, listeners=(NarrationListener(referee()),)))
        session.run(Scripted([*SETUP, Heard(Hypothesis(words, True), words[-1].end)]))
    assert any(line.startswith("The timer runs 60 seconds") for line in said)  # the story's start
    ticks = [line for line in printed if "ticks a term" in line]
    assert len(ticks) == 5
    assert [line for line in said if "ticks a term" in line] == ["Sabine ticks a term."]  # it ends the story
    stop = next(line for line in said if line.startswith("Stop!"))
    assert stop == "Stop! Sabine has ticked all five terms."
    assert any(line.startswith("The story is over. Sabine ticked") for line in said)


def test_heard_live_the_word_that_completes_a_fifth_term_ticks_for_everyone_before_stop(tmp_path: Path) -> None:
    """RULINGS: "bag" completes Sabine's fifth term; Stephan wrote "bag" too, and his tick counts
    before Stop!. The truck comes after Stop! and ticks nothing."""
    settings = {"players": ["Nina", "Sabine", "Stephan"], "seed": 2, "timer_seconds": 60,
                "cards": [asdict(card) for card in load_opening_cards(None)]}
    setup = [*SETUP[:6], *(f"term Stephan {t}" for t in ("truck", "brother", "pizza", "bag", "mountain")), "start"]
    story = STORY + " and a truck honked"
    printed: list[str] = []
    words = tuple(HeardWord(word, start=i * 0.4, end=i * 0.4 + 0.3) for i, word in enumerate(story.split()))
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("stories", settings)
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(write=lambda line: None))
        match = Match(make("stories", settings))
        session = Session(SessionConfig(store=store, game_id=game, match=match, output=output,
                                        listeners=(NarrationListener(referee()),)))
        session.run(Scripted([*setup, Heard(Hypothesis(words, True), words[-1].end)]))
        moves = [str(action) for action in store.actions(game)]
    assert "tick Sabine bag, Stephan bag" in moves and not any(m.startswith("tick") and "truck" in m for m in moves)
    lines = [re.sub(r"^\[[\d.]+ s\] ", "", line) for line in printed]  # the time in the story
    stop = lines.index("Stop! Sabine has ticked all five terms.")
    assert lines[stop - 2:stop] == ["Sabine ticks a term.", "Stephan ticks a term."]
    assert match.state.view(None).terms("Stephan")[3] == TermView("bag", True)


def test_quit_said_and_confirmed_ends_the_session_and_nothing_after_it_is_played(tmp_path: Path) -> None:
    settings = {"players": ["Ana", "Bo", "Cy"], "contando": False, "deck_size": 84}
    printed: list[str] = []

    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("dixit", settings)
        output = TextOutput(write=printed.append)
        voice = VoiceControl(Names({}), output.note, adapter_for("dixit"))
        session = Session(SessionConfig(store=store, game_id=game, match=Match(make("dixit", settings)), output=output,
                                        voice=voice))
        session.run(Scripted([said("quit"), said("yes"), "storyteller Ana"]))
        assert store.actions(game) == []
    assert printed[-1] == f"Game {game} is saved: 'storyhost resume {game}' continues it."


def storytelling_session(
    store: GameStore, settings: dict[str, Any], printed: list[str], reading: CardReading
) -> tuple[int, Session, int]:
    """A Storytelling game created in `store`, its session with `reading` listening for the card
    read aloud and printing into `printed`, and the number of the card on top of the pile."""
    game = store.create("storytelling", settings)
    match = Match(make("storytelling", settings))
    output = TextOutput(write=printed.append)
    session = Session(SessionConfig(store=store, game_id=game, match=match, output=output,
                                    voice=VoiceControl(Names({}), output.note, adapter_for("storytelling")),
                                    listeners=(reading,)))
    return game, session, match.state.card_number


def test_a_card_read_aloud_that_is_not_on_top_is_played_once_the_storyteller_says_yes(tmp_path: Path) -> None:
    tale = asdict(load_tale("saint-george"))
    settings = {"players": ["Marc", "Lea"], "seed": 11, "tale": tale, "advanced": False,
                "clock_steps": 12, "track_length": 16, "storyteller": "human"}
    texts = {card["number"]: card["text"] for card in tale["cards"]}
    printed: list[str] = []

    with GameStore(tmp_path / "games.sqlite3") as store:
        game, session, on_top = storytelling_session(store, settings, printed, CardReading(texts))
        other = next(number for number in texts if number != on_top)
        session.run(Scripted([said(texts[other].lower()), said("yes")]))
        assert [str(action) for action in store.actions(game)] == [f"read {other}"]
    assert f"That was card {other}, not card {on_top} on top of the pile. Play card {other}? Say yes or no." in printed
