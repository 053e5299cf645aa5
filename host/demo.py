"""`storyhost demo`: the rulebook's Arctic story, played from a script and refereed live.

It runs in a temporary saved-games folder, so the demo never shows up in 'storyhost games'.
"""
from __future__ import annotations

import tempfile
from dataclasses import asdict
from importlib import resources
from pathlib import Path

from games.base import Match
from host import decks
from host.catalog import GAMES, referee
from host.inputs import ScriptSource
from host.narration import NarrationListener
from host.session import Session, TextOutput
from host.store import GameStore

PLAYERS = ["Nina", "Sabine", "Stephan", "Melanie"]
#: the seed that deals the built-in deck with the Arctic card on top
SEED = 53


def run_demo() -> None:
    settings = {
        "players": PLAYERS,
        "seed": SEED,
        "timer_seconds": 60,
        "cards": [asdict(card) for card in decks.load_opening_cards()],
    }
    print(
        "storyhost demo: the Arctic story from the Stories! rulebook. Nina tells the story; Sabine, "
        "Stephan and Melanie have secretly written five terms each. The lines after '> ' are what "
        "the players type; 'say' lines are Nina's words, which the host referees as they come."
    )
    with tempfile.TemporaryDirectory(prefix="storyhost-demo-") as folder, GameStore(Path(folder) / "demo.sqlite3") as store:
        game_id = store.create("stories", settings)
        match = Match(GAMES["stories"].factory(settings))
        session = Session(store, game_id, match, TextOutput(), listener=NarrationListener(referee()))
        session.end_note = (
            "That was one story; with four players a whole game has eight. Start your own with: "
            "storyhost play stories --players NAME NAME NAME"
        )
        script = resources.files("host").joinpath("data", "demo.script")
        with script.open(encoding="utf-8") as lines:
            session.run(ScriptSource(lines))
