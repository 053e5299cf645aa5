"""A microphone that `storyhost play --speech` cannot open is refused before anything is saved:
one line in the language in use, a non-zero exit, no game to list or resume, no language
remembered; through the real process, with PulseAudio's devices present."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.audio.pulse import PulseAudio
from tests.host.cli_helpers import ROOT, run_storyhost, storyhost_command, storyhost_env


@pytest.mark.parametrize(("language", "refusal"), [
    ([], "No input device is called 'tuba': run 'storyhost devices' to list them."),
    (["--language", "es"], "Ningún dispositivo de entrada se llama 'tuba': ejecuta 'storyhost devices' para verlos."),
])
def test_a_microphone_that_cannot_be_opened_is_refused_and_nothing_is_saved(
        pulse: PulseAudio, tmp_path: Path, language: list[str], refusal: str) -> None:
    played = subprocess.run(
        storyhost_command("play", "stories", "--players", "A", "B", "C", "--speech", "--input", "tuba", *language),
        input="quit\n", capture_output=True, text=True, env=storyhost_env(tmp_path) | pulse.env, cwd=ROOT,
        timeout=120,
    )
    assert played.returncode == 2
    assert (played.stdout, played.stderr) == ("", refusal + "\n")
    listed = run_storyhost(tmp_path, "games")
    assert listed.returncode == 0 and listed.stdout.startswith("No saved games yet;"), listed.stdout
    resumed = run_storyhost(tmp_path, "resume")
    assert resumed.returncode == 2 and resumed.stderr.startswith("There is no unfinished game to resume;")
    assert not (tmp_path / "config" / "preferences.json").exists()  # the language of no game is not remembered
