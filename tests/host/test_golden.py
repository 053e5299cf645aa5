"""Whole games typed from a script, compared line by line with a reviewed transcript.

After a deliberate change of wording, regenerate with STORYHOST_UPDATE_GOLDEN=1 and review the diff.
"""
from __future__ import annotations

import os
import re

import pytest

from tests.host.cli_helpers import ROOT, run_storyhost

GOLDEN = ROOT / "tests" / "host" / "golden"

GAMES = {
    "dixit": ["dixit", "--players", "Ana", "Bo", "Cy", "Di"],
    "storytelling": ["storytelling", "--players", "Marc", "Lea", "Ona", "--tale", "saint-george", "--seed", "11"],
    "storytelling-pigs": ["storytelling", "--players", "Marc", "Lea", "--tale", "three-pigs", "--advanced", "--seed", "5"],
    "storytelling-cinderella": [
        "storytelling", "--players", "Marc", "Lea", "Ona", "--tale", "cinderella", "--advanced", "--seed", "8",
    ],
    "storytelling-race": ["storytelling", "--players", "Marc", "Lea", "--tale", "hare-tortoise", "--advanced", "--seed", "9"],
    "stories": ["stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2"],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_scripted_game_matches_its_transcript(tmp_path, name):
    script = GOLDEN / f"{name}.script"
    result = run_storyhost(tmp_path, "play", *GAMES[name], "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "is over and saved." in result.stdout.splitlines()[-1]
    expected = GOLDEN / f"{name}.txt"
    if os.environ.get("STORYHOST_UPDATE_GOLDEN"):
        expected.write_text(result.stdout, encoding="utf-8")
    assert result.stdout.splitlines() == expected.read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
def test_demo_referees_the_recorded_arctic_story_with_whisper(tmp_path):
    """The demo as a new user runs it: the default recognizer (Whisper) hears the bundled
    recording; the rulebook's judgements hold on what it hears (ice-cold ticks neither cold nor
    ice, froze ticks freeze, polar bears ticks polar bear), the story ends (Stop!, or the sand
    timer when a term was not heard) and is scored."""
    result = run_storyhost(tmp_path, "demo", "--fast", "--silent")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    heard = " ".join(line for line in out.splitlines() if line.startswith("Heard: ")).lower()
    assert "ice cold" in heard or "ice-cold" in heard
    assert "froze" in heard and "polar bears" in heard
    over = next(line for line in out.splitlines() if "The story is over." in line)
    sabine, stephan = (re.search(rf"{player} ticked (.*?)[;.]", over) for player in ("Sabine", "Stephan"))
    assert sabine and stephan, over
    assert "cold" not in sabine[1] and "polar bear" in sabine[1]  # ice-cold is not cold
    assert "freeze" in stephan[1]
    assert "Points for this story:" in out and "Scores:" in out
    assert not (tmp_path / "games.sqlite3").exists()


@pytest.mark.slow
def test_demo_referees_the_recorded_arctic_story(tmp_path):
    """The bundled recording through PocketSphinx (deterministic, so the whole output is golden)
    and the referee: ticks with their times, Stop! when Melanie has all five, the rulebook's
    judgements (ice-cold ticks neither cold nor ice, froze ticks freeze, polar bears ticks polar
    bear) and the scores."""
    result = run_storyhost(tmp_path, "demo", "--fast", "--silent", "--asr", "pocketsphinx")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "[22.0 s] Stop! Melanie has ticked all five terms." in lines
    assert "Points for this story: Sabine 1, Stephan 8, Melanie 17; Nina, the storyteller, 17." in lines
    expected = GOLDEN / "demo.txt"
    if os.environ.get("STORYHOST_UPDATE_GOLDEN"):
        expected.write_text(result.stdout, encoding="utf-8")
    assert lines == expected.read_text(encoding="utf-8").splitlines()
    assert not (tmp_path / "games.sqlite3").exists()  # the demo leaves no saved game behind
