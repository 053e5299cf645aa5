"""Whole games typed from a script, compared line by line with a reviewed transcript.

After a deliberate change of wording, regenerate with STORYHOST_UPDATE_GOLDEN=1 and review the diff.
"""
from __future__ import annotations

import os

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
    """The demo as a new user runs it: the default recognizer (Whisper: tiny.en streaming, base
    confirming, the card's sentence as their context) hears the bundled recording, "There was
    snow everywhere" included; Melanie's fifth term calls Stop!, as in the rulebook's example;
    the rulebook's judgements hold on what was heard (ice-cold ticks neither cold nor ice, froze
    ticks freeze, polar bears ticks polar bear) and the story is scored."""
    result = run_storyhost(tmp_path, "demo", "--fast", "--silent", timeout=600)  # two models, a loaded machine
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    heard = " ".join(line for line in lines if line.startswith("Heard: ")).lower()
    assert "there was snow everywhere" in heard
    assert "ice cold" in heard or "ice-cold" in heard
    assert "froze" in heard and "polar bears" in heard
    assert any(line.endswith("] Stop! Melanie has ticked all five terms.") for line in lines)
    over = next(line for line in lines if "The story is over." in line)
    assert "Sabine ticked snow and polar bear; not cold, igloo or penguin." in over  # ice-cold is not cold
    assert "Stephan ticked Snow, polar bears and freeze; not Greenland or Eskimo." in over
    assert "Melanie ticked all 5: snow, seal, Canada, Russia and Alaska." in over
    assert "Points for this story: Sabine 1, Stephan 8, Melanie 17; Nina, the storyteller, 17." in lines
    assert not (tmp_path / "games.sqlite3").exists()


@pytest.mark.slow
def test_demo_referees_the_recorded_arctic_story(tmp_path):
    """The bundled recording through PocketSphinx (deterministic, so the whole output is golden)
    and the referee: ticks with their times, Stop! when Melanie has all five, the rulebook's
    judgements (ice-cold ticks neither cold nor ice, froze ticks freeze, polar bears ticks polar
    bear) and the scores. In English (its recording's language) after a game in Spanish."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "preferences.json").write_text('{"language": "es"}', encoding="utf-8")
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
