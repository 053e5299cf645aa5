"""How much the host says: lines and words of a scripted Stories! story, Dixit turn and
Storytelling turns, at verbosity brief and normal, through the real `storyhost` command; then a
Dixit turn told in words and the seconds each card takes to read aloud (`described_turn`).

    .venv/bin/python tests/benchmarks/bench_table_talk.py

The scripts are the openings of the golden games (tests/host/golden/): the first Stories! story
(side, ten terms with four refused, a typed story, the review and the score), the first Dixit
turn (storyteller to the last owner), and the first five Storytelling flips (three turns, one
card won). The verbosity is set in the preferences file before the game starts. Counted: every
line the host prints after its first (the game's number and players), not the echoed commands. The
seconds are words at the default speech rate, a rough guide (espeak-ng's pace varies with the text).
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from host.audio.speaker import DEFAULT_RATE  # noqa: E402
from tests.host.cli_helpers import run_storyhost  # noqa: E402
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


def said(game: str, commands: list[str], verbosity: str) -> list[str]:
    """The host's lines for `commands` played at `verbosity` (echoes and the end-of-input note left out)."""
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config"  # where cli_helpers points STORYHOST_CONFIG_DIR
        config.mkdir()
        (config / "preferences.json").write_text(json.dumps({"verbosity": verbosity}), encoding="utf-8")
        result = run_storyhost(Path(folder), "play", *GAMES[game], stdin="\n".join(commands) + "\n")
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return [line for line in result.stdout.splitlines()[1:] if not line.startswith(("> ", "Input ended."))]


def main() -> None:
    print(f"{'script':<20} {'verbosity':<9} {'lines':>5} {'words':>6} {'seconds':>7}")
    for label, (game, commands) in SCRIPTS.items():
        for verbosity in ("normal", "brief"):
            lines = said(game, commands, verbosity)
            words = sum(len(line.split()) for line in lines)
            print(f"{label:<20} {verbosity:<9} {len(lines):>5} {words:>6} {words * 60 / DEFAULT_RATE:>7.0f}")


if __name__ == "__main__":
    main()
    described_turn.report()
