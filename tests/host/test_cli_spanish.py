"""The command line in Spanish: `storyhost rules GAME` from rules.es.md, the games list, the
resume line and usage errors (argparse's too) in the language of the last game; every game's
rules translated into every language storyhost offers, with the same sections."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from games import dixit, stories, storytelling
from games.language import speaking
from host.adapters.base import adapter_for
from host.cli.main import when
from host.cli.rules import COMMAND, rules_file
from host.commands import offered
from host.storage.catalogs import DEFAULT, languages, translations
from host.storage.preferences import load as load_preferences
from tests.host.cli_helpers import run_storyhost

ROOT = Path(__file__).resolve().parents[2]
GAMES_DATA = ROOT / "games" / "data"
ENGINES = {"stories": [stories.StoriesState], "storytelling": [storytelling.StorytellingState],
           "dixit": [dixit.DixitState, dixit.DescribedDixit]}
DIXIT = ["play", "dixit", "--players", "Julián", "Matilde", "Leo"]
#: common English words that no Spanish line of the command line may hold (names and titles aside)
ENGLISH = re.compile(r"\b(the|your|is|and|with|game|moves?|played|today|there)\b", re.IGNORECASE)


def rules_problems(data: Path, offered: tuple[str, ...]) -> list[str]:
    """What is wrong with the translated rules under `data`: a game with rules.md lacking a
    translation into an offered language, or a translation with other sections (headings)."""
    found = []
    for english in sorted(data.glob("*/rules.md")):
        headings = len(re.findall(r"^#", english.read_text(encoding="utf-8"), re.MULTILINE))
        for language in offered:
            translated = english.with_name(rules_file(language))
            if not translated.is_file():
                found.append(f"{english.parent.name} has no {translated.name}")
            elif len(re.findall(r"^#", translated.read_text(encoding="utf-8"), re.MULTILINE)) != headings:
                found.append(f"{english.parent.name}/{translated.name} has other sections than rules.md")
    return found


def test_every_games_rules_are_translated_into_every_offered_language_with_the_same_sections() -> None:
    assert rules_problems(GAMES_DATA, tuple(code for code in languages() if code != DEFAULT)) == []


def test_the_rules_check_catches_a_missing_translation_and_a_lost_section(tmp_path: Path) -> None:
    for game, spanish in (("whole", "# Whole\n\n## Uno\n"), ("short", "# Short\n"), ("missing", None)):
        (tmp_path / game).mkdir()
        (tmp_path / game / "rules.md").write_text(f"# {game.title()}\n\n## One\n", encoding="utf-8")
        if spanish is not None:
            (tmp_path / game / "rules.es.md").write_text(spanish, encoding="utf-8")
    assert rules_problems(tmp_path, ("es",)) == ["missing has no rules.es.md",
                                                 "short/rules.es.md has other sections than rules.md"]


@pytest.fixture(scope="module")
def spanish_rules(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    texts = {}
    for game in ENGINES:
        done = run_storyhost(tmp_path_factory.mktemp(game), "rules", game, "--language", "es")
        assert done.returncode == 0 and done.stderr == "", done.stderr
        texts[game] = done.stdout
    return texts


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_spanish_rules_name_every_command_as_the_game_takes_it(spanish_rules: dict[str, str], game: str) -> None:
    text = spanish_rules[game]
    assert text.splitlines()[0] == f"# {'Stories!' if game == 'stories' else game.capitalize()}"
    assert "{cmd:" not in text and not COMMAND.search(text)
    with speaking(translations("es")):
        usages = [verb.usage for engine in ENGINES[game] for verb in engine.verbs.values()]
        usages += [command.local_usage for command in offered(adapter_for(game).commands)]
    for usage in usages:
        assert f"\n- {usage}: " in text, usage
    for line in text.splitlines():  # plain text for a screen reader, as the English rules
        assert not re.search(r"\*\*|__|`|\|", line), line


def test_the_spanish_rules_use_the_rulebooks_words(spanish_rules: dict[str, str]) -> None:
    assert "cuentacuentos" in spanish_rules["dixit"] and "mazo de robo" in spanish_rules["dixit"]
    assert "Contando" in spanish_rules["dixit"] and "mímica" in spanish_rules["dixit"]
    assert "dámelo" in spanish_rules["stories"] and "fin de semana" in spanish_rules["stories"]
    assert "ser, estar, haber y tener" in spanish_rules["stories"]
    assert "Cenicienta" in spanish_rules["storytelling"] and "La liebre y la tortuga" in spanish_rules["storytelling"]


def test_rules_refuse_a_language_storyhost_lacks_in_one_line(tmp_path: Path) -> None:
    done = run_storyhost(tmp_path, "rules", "dixit", "--language", "fr")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("storyhost does not speak 'fr'; it speaks en (English), es (español)")
    assert len(done.stderr.splitlines()) == 1


def test_the_command_line_speaks_the_language_of_the_last_game(tmp_path: Path) -> None:
    played = run_storyhost(tmp_path, *DIXIT, "--language", "es", "--seed", "1", stdin="storyteller Leo\n")
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("Dixit, partida 1. Jugadores: Julián, Matilde y Leo. Escribe ")
    rules = run_storyhost(tmp_path, "rules", "dixit")  # no --language: the remembered one
    assert "cuentacuentos" in rules.stdout and rules.stderr == ""
    english = run_storyhost(tmp_path, "rules", "dixit", "--language", "en")
    assert "storyteller" in english.stdout and "cuentacuentos" not in english.stdout
    listed = run_storyhost(tmp_path, "games")
    assert listed.stdout.startswith(
        "1: Dixit con Julián, Matilde y Leo; 1 jugada, en curso, jugada por última vez hoy a las "), listed.stdout
    resumed = run_storyhost(tmp_path, "resume", stdin="quit\n")
    assert resumed.stdout.startswith("Continuamos Dixit, partida 1, tras 1 jugada."), resumed.stdout
    unknown = run_storyhost(tmp_path, "resume", "7")
    assert unknown.returncode == 2
    assert unknown.stderr == "No hay ninguna partida guardada con el número 7; 'storyhost games' las enumera.\n"
    out_of_range = run_storyhost(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan",
                                 "--timer", "0", stdin="quit\n")
    assert out_of_range.returncode == 2
    assert out_of_range.stderr == "--timer tiene que ser un número entero de 1 a 3600, no 0.\n"
    no_players = run_storyhost(tmp_path, "play", "dixit")  # argparse's own error, through the catalog
    assert no_players.returncode == 2
    assert no_players.stderr.splitlines()[-1] == "storyhost play: error: faltan estos argumentos obligatorios: --players"
    for line in (listed.stdout + resumed.stdout.splitlines()[0] + unknown.stderr + out_of_range.stderr).splitlines():
        assert not ENGLISH.search(line.replace("Dixit", "")), line


def test_a_saved_time_is_said_in_spanish_with_babels_month_names() -> None:
    now = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)
    with speaking(translations("es")):
        assert when((now - timedelta(hours=1)).isoformat(), now, "es") == "hoy a las 11:00"
        assert when((now - timedelta(days=1)).isoformat(), now, "es") == "ayer a las 12:00"
        assert when("2026-03-03T18:00:00+00:00", now, "es") == "el 3 de marzo de 2026 a las 18:00"
    assert when("2026-03-03T18:00:00+00:00", now) == "on 3 March 2026 at 18:00"


def test_troubles_with_the_preferences_are_told_in_spanish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path))
    (tmp_path / "preferences.json").write_text('{"rate": "fast", "verbosity": 3}', encoding="utf-8")
    with speaking(translations("es")):
        _preferences, trouble = load_preferences()
    assert trouble == (f"Las preferencias de {tmp_path / 'preferences.json'} tienen un valor inservible de "
                       "detalle y velocidad; uso el valor por defecto.")


def test_spanish_plurals_follow_the_catalogs_own_plural_forms() -> None:
    spanish = translations("es")
    assert [spanish.ngettext("{count} move", "{count} moves", count) for count in (1, 2, 0)] == [
        "{count} jugada", "{count} jugadas", "{count} jugadas"]
