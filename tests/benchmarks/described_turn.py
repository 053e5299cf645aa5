"""What the host says in Dixit told in words, for bench_table_talk.py: the words of one turn at
verbosity normal and brief, and the seconds each card laid out takes to read aloud.

A whole game with the bundled deck (4 players, seed 1: 15 turns, 60 cards laid out) is played by
the real session and engine, every move typed as a script would type it (the first move each
player may make; the clue "Two of a kind"), at each verbosity. Counted: the lines the host prints
from its opening to the start of turn 2. Each card read as the table hears it ("Card 2, The Kite:
..." at normal, its first sentence at brief) is synthesised by espeak-ng, the host's voice, at the
default rate; its seconds are the WAV's length. Target (issue 18): at most 20 s a card at normal,
and brief reads only the first sentence.
"""
from __future__ import annotations

import re
import statistics
import tempfile
from dataclasses import asdict
from pathlib import Path

from games.base import Action, Match
from games.decks import sentences
from games.dixit import DescribedDixit
from host.audio.speaker import DEFAULT_RATE
from host.cli.catalog import make
from host.session.events import InputEnded, InputEvent, Typed
from host.session.inputs import Listening
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.decks import load_described_deck
from host.storage.preferences import Preferences
from host.storage.store import GameStore
from tests.host.test_described_deck import MAX_SPEECH_SECONDS, spoken_seconds

PLAYERS = ["Ana", "Bo", "Cy", "Di"]
CLUE = "Two of a kind"
#: a card read aloud: "Card 2, The Kite: ..." (normal) or "Card 2: ..." (brief)
READ = re.compile(r"Card \d+(, [^:]+)?: ")


class FirstMoves:
    """Typed input: each time, the first move the game allows that moves it on (not a card taken
    back, nor the storyteller's card chosen again; a clue is CLUE)."""

    def __init__(self) -> None:
        self.session: Session | None = None

    def read(self, timeout: float | None) -> InputEvent:
        assert self.session is not None
        state = self.session.state
        if state.is_over():
            return InputEnded()
        assert isinstance(state, DescribedDixit)
        choice = next(choice for choice in state.legal_actions()
                      if choice.action.verb != "take" and not (choice.action.verb == "pick" and state.pick is not None))
        action = choice.action
        if choice.free_text:
            action = Action(action.verb, action.player, (CLUE,))
        return Typed(str(action))

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        pass


def game_lines(verbosity: str) -> list[str]:
    """Every line a whole game told in words prints at `verbosity`."""
    deck = load_described_deck(players=len(PLAYERS))
    settings = {"players": PLAYERS, "seed": 1, "contando": False, "owners": "needed", "deck_size": len(deck.cards),
                "deck": {"title": deck.title, "cards": [asdict(card) for card in deck.cards]}}
    printed: list[str] = []
    with tempfile.TemporaryDirectory() as folder, GameStore(Path(folder) / "games.sqlite3") as store:
        game_id = store.create("dixit", settings)
        source = FirstMoves()
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("dixit", settings)),
                                        output=TextOutput(write=printed.append),
                                        preferences=Preferences(verbosity=verbosity)))
        assert isinstance(session.state, DescribedDixit)
        source.session = session
        session.run(source)
    return printed


def report() -> None:
    print(f"\nDixit told in words (the bundled deck, {len(PLAYERS)} players, a whole game by the session)")
    cards: dict[str, list[str]] = {verbosity: [] for verbosity in ("normal", "brief")}
    for verbosity in cards:
        lines = game_lines(verbosity)
        turn = lines[:next(index for index, line in enumerate(lines) if line.startswith("Turn 2"))]
        words = sum(len(line.split()) for line in turn)
        print(f"{'turn 1':<20} {verbosity:<9} {len(turn):>5} {words:>6} {words * 60 / DEFAULT_RATE:>7.0f}")
        cards[verbosity] = [line for line in lines if READ.match(line)]
    descriptions = [card.description for card in load_described_deck().cards]
    brief_first = all(READ.sub("", line) == sentences(READ.sub("", line))[0] for line in cards["brief"])
    whole = all(any(line.endswith(text) for text in descriptions) for line in cards["normal"])
    with tempfile.TemporaryDirectory() as folder:
        for verbosity, lines in cards.items():
            seconds = [spoken_seconds(line, Path(folder)) for line in lines]
            longest = lines[seconds.index(max(seconds))]
            print(f"cards read at {verbosity:<7} {len(lines)} cards: max {max(seconds):4.1f} s, mean "
                  f"{statistics.mean(seconds):4.1f} s (espeak-ng at {DEFAULT_RATE} words a minute); longest: "
                  f"{longest[:longest.index(':')]}")
    print(f"target: at most {MAX_SPEECH_SECONDS:.0f} s a card at normal; normal reads every whole description: "
          f"{whole}; brief reads only the first sentence: {brief_first}")
