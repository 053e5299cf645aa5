"""'private NAME' in a game played by voice, at a terminal: the secret waits for Enter and is
wiped at the next Enter (it is never spoken: tests/host/companion/test_shared_channel.py)."""
from __future__ import annotations

import pytest

from tests.host.test_private_terminal import Terminal

pytestmark = pytest.mark.slow


def test_private_waits_for_enter_in_a_spoken_game(pulse, tmp_path):
    terminal = Terminal(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--seed", "1",
                        "--speech", "--input", "pulse", "--asr", "pocketsphinx", env=pulse.env)
    try:
        terminal.until("say 'storyteller' and their name")
        for line in ("storyteller Ana", "clue Two of a kind", "shown", "vote Bo 4"):
            terminal.keys(line + "\r")
        terminal.until("Bo has voted (1 of 3).")
        terminal.keys("private Bo\r")
        shown = terminal.until("Press Enter to show, and Enter again to hide.")
        assert "Only Bo should look." in shown and "card 4" not in shown
        terminal.keys("\r")
        assert "Your vote: card 4." in terminal.until("Press Enter to hide.")
        terminal.keys("\r")
        terminal.until("\x1b[F\x1b[K" * 2)  # both lines of the secret are wiped
        terminal.keys("score\r")
        terminal.until("Scores: Ana 0")  # the game goes on
    finally:
        terminal.close()
