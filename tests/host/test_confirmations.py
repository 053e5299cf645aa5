"""A Stories! round hearing the recognizer's confirmations of finished sentences: a tick the
stream missed is added at its time in the story, a confirmation that completes a fifth term calls
Stop! on its word and what was said after that word is taken back, and a confirmation that comes
after the story ended still counts for what was said before. The session runs with the real
referee and store; the hypotheses are given as a recognizer gives them."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from games.base import Match
from host.adapters.base import referee
from host.adapters.narration import NarrationListener
from host.cli.catalog import make
from host.session.events import Heard, InputEvent
from host.session.session import Session, SessionConfig, TextOutput
from host.speech.recognizer import Hypothesis
from host.storage.decks import load_opening_cards
from host.storage.store import GameStore
from nlp.ticks import HeardWord
from tests.host.test_spoken_news import SETUP, Scripted


def said(text: str, start: float, confirmed: bool = False) -> Heard:
    """A final hypothesis of the text, a word every 0.4 s from `start`, or its confirmation."""
    words = tuple(HeardWord(word, start + i * 0.4, start + i * 0.4 + 0.3, 0.95) for i, word in enumerate(text.split()))
    return Heard(Hypothesis(words, final=True, confirmed=confirmed), words[-1].end + 1.0)


def round_of(tmp_path: Path, heard: list[Heard | str]) -> tuple[list[str], list[str]]:
    """What was printed, and the moves saved."""
    settings = {"players": ["Nina", "Sabine", "Stephan"], "seed": 2, "timer_seconds": 60,
                "cards": [asdict(card) for card in load_opening_cards(None)]}
    printed: list[str] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("stories", settings)
        session = Session(SessionConfig(store=store, game_id=game, match=Match(make("stories", settings)),
                                        output=TextOutput(write=printed.append),
                                        listeners=(NarrationListener(referee()),)))
        items: list[str | InputEvent] = [*SETUP, *heard]
        session.run(Scripted(items))
        return printed, [str(action) for action in store.actions(game)]


FIRST = "dad turned on the radio and the old car was hot then the police came"  # radio, car, police: 3 of 5


def test_a_confirmation_completing_a_fifth_term_calls_stop_on_its_word(tmp_path: Path) -> None:
    """The stream heard "back" for "bag" and went on to the truck; the confirmation hears "bag",
    Sabine's fifth term: Stop! on it, and Stephan's truck, said after it, is taken back."""
    second = "with a sandwich in a {} and a truck honked"
    printed, moves = round_of(tmp_path, [said(FIRST, 0.0), said(FIRST, 0.0, confirmed=True),
                                         said(second.format("back"), 6.0), said(second.format("bag"), 6.0, confirmed=True)])
    assert "tick Stephan truck" in moves and "tick Sabine bag" in moves
    assert moves[moves.index("tick Sabine bag") + 1] == "untick Stephan truck"
    assert "[8.3 s] Stop! Sabine has ticked all five terms." in printed  # "bag" ends at 6.0 + 5 * 0.4 + 0.3
    assert "[9.5 s] Correction: Stephan unticks 'truck' (0 of 5)." in printed


def test_a_confirmation_after_the_sand_timer_counts_for_what_was_said_before(tmp_path: Path) -> None:
    printed, moves = round_of(tmp_path, [said(FIRST + " with a sandwich in a back", 0.0), "timeup",
                                         said(FIRST + " with a sandwich in a bag", 0.0, confirmed=True)])
    assert moves[-2:] == ["timeup", "tick Sabine bag"]
    assert "[8.3 s] Sabine ticks 'bag' (5 of 5)." in printed  # in review the terms are revealed
    assert not any(line.startswith("Heard: ") and "bag" in line for line in printed)  # only the stream is printed as heard
