"""How much the host says: lines and words of a scripted Stories! story, Dixit turn and
Storytelling turns, at verbosity brief and normal, printed and spoken; then a Dixit turn told
in words and the seconds each card takes to read aloud (`described_turn`).

    .venv/bin/python tests/benchmarks/bench_table_talk.py [--code DIR]

The scripts are the openings of the golden games (tests/host/golden/): the first Stories! story
(side, ten terms with four refused, a typed story, the review and the score), the first Dixit
turn (storyteller to the last owner), and the first five Storytelling flips (three turns, one
card won). Each is played by the real session of a checkout (this one, and with `--code DIR`
another, such as main before a change: its figures are printed beside as "old"), in a process
of its own, with the real referee, store and decks; lines are read from the script as
`storyhost play --script` reads them. Counted: the lines printed in a game typed at the
keyboard (what a screen reader reads there), and the words spoken in the same game played with
--speech (its voice control on; the voice is the print speaker, which records what would be
said: no news while a story is told, "Noted." once in a row, never a player's private lines).
The seconds are the spoken words at the default speech rate, a rough guide (espeak-ng's pace
varies with the text).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.audio.speaker import DEFAULT_RATE  # noqa: E402
from tests.benchmarks import described_turn  # noqa: E402
from tests.host.test_golden import GAMES, GOLDEN  # noqa: E402


def _commands(name: str) -> list[str]:
    lines = (GOLDEN / f"{name}.script").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def _through(commands: list[str], last: str) -> list[str]:
    return commands[: commands.index(last) + 1]


SCRIPTS = {
    "Stories! story": ("stories", _through(_commands("stories"), "confirm")),
    "Dixit turn": ("dixit", _commands("dixit")[:10]),
    "Storytelling turns": ("storytelling", _commands("storytelling")[:5]),
}

#: one game played by a checkout's session: argv is the verbosity, the script, the saved games'
#: file, whether the game is played with --speech ("yes" or ""), and the `storyhost play` options;
#: it prints the lines printed (typed) or spoken (--speech) as a JSON list
PLAY = """
import argparse, io, json, sys
from pathlib import Path
from games.base import Match
from host.adapters.base import adapter_for
from host.audio.speaker import PrintSpeaker
from host.cli.catalog import add_play_options, make, new_settings
from host.session.inputs import ScriptSource
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.preferences import Preferences
from host.storage.store import GameStore
from host.voice.control import VoiceControl
from host.voice.phrases import Names

verbosity, script, store_path, voice, *args = sys.argv[1:]
parser = argparse.ArgumentParser()
add_play_options(parser)
options = parser.parse_args(args)
settings = new_settings(options)
adapter = adapter_for(options.game)
printed, spoken = [], []
with GameStore(Path(store_path)) as store:
    game = store.create(options.game, settings)
    output = TextOutput(write=printed.append, speaker=PrintSpeaker(spoken.append))
    # with --speech a game has voice control: nothing is written out for typing then
    control = VoiceControl(Names({}), output.note, adapter, brief=lambda: verbosity == "brief") if voice else None
    match, preferences, without = Match(make(options.game, settings)), Preferences(verbosity=verbosity), adapter.without(settings)
    try:  # a checkout whose game adapters give the session its listeners
        from host.adapters.listening import Hearing
        config = SessionConfig(store=store, game_id=game, match=match, output=output, preferences=preferences,
                               listeners=adapter.listeners(settings, Hearing()), voice=control, without=without, adapter=adapter)
    except ImportError:  # an older one (--code): the story's referee and clock given one by one
        from host.session.session import StoryClock
        config = SessionConfig(store, game, match, output, preferences, StoryClock(None), adapter.listener(), control,
                               without=without, adapter=adapter)
    session = Session(config)
    session.run(ScriptSource(io.BytesIO(script.encode()), echo=lambda line: None))
print(json.dumps(spoken if voice else printed))
"""


def talk(game: str, commands: list[str], verbosity: str, code: Path = ROOT, spoken: bool = False) -> list[str]:
    """What the session of the checkout `code` prints for `commands` at `verbosity`, typed; with
    `spoken`, what it says in a game played with --speech (the end-of-input note left out)."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, PYTHONPATH=str(code), STORYHOST_CONFIG_DIR=folder, STORYHOST_DATA_DIR=folder)
        result = subprocess.run(
            [sys.executable, "-c", PLAY, verbosity, "\n".join(commands) + "\n", str(Path(folder) / "games.sqlite3"),
             "yes" if spoken else "", *GAMES[game]],
            capture_output=True, text=True, cwd=code, env=env, timeout=600,
        )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    said: list[str] = json.loads(result.stdout.splitlines()[-1])
    return [line for line in said if not line.startswith("Input ended.")]


def words(lines: list[str]) -> int:
    return sum(len(line.split()) for line in lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, help="another checkout (an older commit), measured beside this one as old")
    options = parser.parse_args(argv)
    checkouts = [("new", ROOT)] + ([("old", options.code.resolve())] if options.code else [])
    print(f"{'script':<20} {'verbosity':<9} {'code':<4} {'lines':>5} {'printed':>8} {'spoken':>7} {'seconds':>7}")
    for label, (game, commands) in SCRIPTS.items():
        for verbosity in ("normal", "brief"):
            for name, code in checkouts:
                printed, spoken = talk(game, commands, verbosity, code), words(talk(game, commands, verbosity, code, True))
                print(f"{label:<20} {verbosity:<9} {name:<4} {len(printed):>5} {words(printed):>8} "
                      f"{spoken:>7} {spoken * 60 / DEFAULT_RATE:>7.0f}")

if __name__ == "__main__":
    main()
    described_turn.report()
