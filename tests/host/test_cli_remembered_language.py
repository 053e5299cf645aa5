"""`storyhost tick` and `storyhost transcribe` without --language work in the remembered language
(the last game's, as `rules` and `games` do), through the real process: a Spanish table's tick
judges and speaks Spanish, its transcribe hears Spanish; a remembered language they cannot work
in is refused in one line, as the same --language is; --help says what the default is."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.host.cli_helpers import run_storyhost
from tests.host.test_cli_help_language import remember, said

TERMS = {"Ana": ["nieve", "rápidamente"], "Bo": ["perro"]}
STORY = "Había mucha nieve en el camino."


def tick(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    data_dir.mkdir(exist_ok=True)
    terms, story = data_dir / "terms.json", data_dir / "story.txt"
    terms.write_text(json.dumps(TERMS), encoding="utf-8")
    story.write_text(STORY, encoding="utf-8")
    return run_storyhost(data_dir, "tick", "--card", "Cuando estuve en el Ártico...", "--terms", str(terms),
                         "--transcript", str(story), *args)


def test_tick_judges_in_the_remembered_language(tmp_path: Path) -> None:
    remember(tmp_path / "remembered", "es")
    remembered = tick(tmp_path / "remembered")
    assert remembered.returncode == 0 and remembered.stderr == "", remembered.stderr
    assert remembered.stdout.splitlines()[:2] == [
        "Ana: «nieve» marcado, se oyó «nieve».",
        "Ana: «rápidamente» rechazado, un adverbio. «rápidamente» es un adverbio, y los adverbios no se permiten. "
        "Escribe en su lugar un sustantivo, un verbo o un adjetivo.",
    ]
    assert remembered.stdout == tick(tmp_path / "given", "--language", "es").stdout


def test_a_remembered_language_without_term_rules_is_refused_as_the_same_language_given(tmp_path: Path) -> None:
    remember(tmp_path / "remembered", "de")
    refused = tick(tmp_path / "remembered")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("storyhost tick: Stories! wird auf en (English) oder es (español) gespielt")
    assert refused.stderr.count("\n") == 1
    assert refused.stderr == tick(tmp_path / "given", "--language", "de").stderr
    assert tick(tmp_path / "remembered", "--language", "es").returncode == 0  # a --language still wins


def test_transcribe_hears_the_remembered_language(tmp_path: Path) -> None:
    remember(tmp_path, "es")
    recording = tmp_path / "nieve.wav"
    subprocess.run(["espeak-ng", "-v", "es", "-w", str(recording), STORY], check=True)
    heard = run_storyhost(tmp_path, "transcribe", str(recording))
    assert heard.returncode == 0, heard.stderr
    (final,) = heard.stdout.splitlines()
    assert final.startswith("final: ") and "nieve@" in final and "camino" in final


@pytest.mark.parametrize(("asr", "refusal"), [
    ("vosk", "Vosk aquí solo oye inglés, no 'es': usa --asr whisper.\n"),
    ("pocketsphinx", "PocketSphinx aquí solo oye inglés, no 'es': usa --asr whisper.\n"),
])
def test_a_recognizer_that_hears_english_only_is_refused_in_the_remembered_language(
        tmp_path: Path, asr: str, refusal: str) -> None:
    remember(tmp_path, "es")
    refused = run_storyhost(tmp_path, "transcribe", "--asr", asr, str(tmp_path / "any.wav"))
    assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", refusal)


def test_the_help_says_the_default_is_the_language_of_the_last_game(tmp_path: Path) -> None:
    default = "(default: the language of your last game, English before any)"
    assert default in said(tmp_path, "tick", "--help")
    assert default in said(tmp_path, "transcribe", "--help")
    remember(tmp_path, "es")
    default = "(por defecto: el de tu última partida, inglés si aún no has jugado ninguna)"
    assert default in said(tmp_path, "tick", "--help")
    assert default in said(tmp_path, "transcribe", "--help")
