"""The language seam at the command line: `storyhost play --language`, saved with the game and
kept on resume, remembered for the next game; a language storyhost lacks refused in one line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.storage.store import GameStore
from tests.host.cli_helpers import run_storyhost, storyhost_env

PLAYERS = ["--players", "Nina", "Leo", "Marc"]


def saved_language(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    for key, value in storyhost_env(data_dir).items():
        monkeypatch.setenv(key, value)
    with GameStore.open() as store:
        (saved,) = store.games()
    return str(saved.settings.get("language"))


def test_a_language_storyhost_lacks_is_refused_in_one_line_and_nothing_is_saved(tmp_path: Path) -> None:
    done = run_storyhost(tmp_path, "play", "dixit", *PLAYERS, "--language", "fr", stdin="quit\n")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "storyhost does not speak 'fr'; it speaks " + done.stderr.split("it speaks ", 1)[1].strip()]
    assert "en (English)" in done.stderr and "es (español)" in done.stderr
    assert not (tmp_path / "config" / "preferences.json").exists()


def test_the_language_is_saved_with_the_game_kept_on_resume_and_remembered(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    played = run_storyhost(tmp_path, "play", "dixit", *PLAYERS, "--language", "es", "--seed", "1",
                           stdin="storyteller Zed\n")
    assert "No hay ningún jugador llamado 'Zed'." in played.stdout, played.stdout + played.stderr
    assert saved_language(tmp_path, monkeypatch) == "es"
    assert json.loads((tmp_path / "config" / "preferences.json").read_text())["language"] == "es"
    resumed = run_storyhost(tmp_path, "resume", stdin="storyteller Zed\n")
    assert "No hay ningún jugador llamado 'Zed'." in resumed.stdout, resumed.stdout + resumed.stderr
    remembered = run_storyhost(tmp_path, "play", "dixit", *PLAYERS, stdin="storyteller Zed\n")
    assert "No hay ningún jugador llamado 'Zed'." in remembered.stdout
    again = run_storyhost(tmp_path, "play", "dixit", *PLAYERS, "--language", "en", stdin="storyteller Zed\n")
    assert "There is no player called 'Zed'." in again.stdout
