"""The command line's own words in the remembered language, or in a --language given on the same
line: --help (argparse's headings, every command's and option's help, the games' options, the
recognizers'), `storyhost models list`, a deck file's broken JSON and the refusals of --speech's
settings, through the real `storyhost` process; English before any game chose a language."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.language import speaking
from host.storage.catalogs import translations
from host.storage.files import JSON_ERRORS, json_error
from tests.host.cli_helpers import run_storyhost


def remember(data_dir: Path, language: str) -> None:
    """The preferences a game in `language` leaves behind (the config folder of cli_helpers)."""
    (data_dir / "config").mkdir(parents=True, exist_ok=True)
    (data_dir / "config" / "preferences.json").write_text(json.dumps({"language": language}), encoding="utf-8")


def said(data_dir: Path, *args: str) -> str:
    """A command's standard output with argparse's line wrapping undone."""
    done = run_storyhost(data_dir, *args)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return " ".join(done.stdout.split())


def test_help_is_english_before_any_game_chose_a_language(tmp_path: Path) -> None:
    top = said(tmp_path, "--help")
    assert top.startswith("usage: storyhost") and "play start a new game" in top
    assert "options: -h, --help show this help message and exit" in top
    play = said(tmp_path, "play", "--help")
    assert "--timer N Stories!: seconds per story (1 to 3600, default 60)" in play
    assert "or de (Deutsch)" in play
    assert ("--asr {whisper,vosk,pocketsphinx} the speech recognizer: whisper (the default) hears stories and clues "
            "with Whisper and commands with Vosk if an English Vosk model is installed, else PocketSphinx (in another "
            "language than English, commands with Whisper too); vosk hears everything with Vosk; pocketsphinx hears "
            "everything with PocketSphinx --model NAME|DIR a Whisper model by name (base, tiny.en) or folder, or a "
            "Vosk model folder") in play
    assert "--asr NAME recognizer for --audio: whisper (the default), vosk or pocketsphinx" in said(tmp_path, "tick",
                                                                                                     "--help")
    assert "List the microphones and speakers storyhost can use (for --input)." in said(tmp_path, "devices", "--help")
    assert "See, fetch, install and check speech and language models." in said(tmp_path, "models", "--help")


def test_help_is_in_the_remembered_language(tmp_path: Path) -> None:
    remember(tmp_path, "es")
    top = said(tmp_path, "--help")
    assert top.startswith("uso: storyhost")
    assert "Un anfitrión sin conexión y guiado por voz para Stories!, Storytelling y Dixit." in top
    assert "argumentos posicionales:" in top and "play empezar una partida nueva" in top
    assert "opciones: -h, --help mostrar esta ayuda y salir" in top
    play = said(tmp_path, "play", "--help")
    assert "--timer N Stories!: segundos por historia (de 1 a 3600, por defecto 60)" in play
    assert "--contando Dixit: la variante de puntuación Contando" in play
    assert "en (English), es (español), ca (català) o de (Deutsch)" in play
    assert "voz: --speech jugar por voz" in play and "móviles: --companion servir a cada jugador" in play
    assert ("--asr {whisper,vosk,pocketsphinx} el reconocedor de voz: whisper (por defecto) oye las historias y las "
            "frases con Whisper y las órdenes con Vosk si hay instalado un modelo de Vosk en inglés") in play
    assert "; vosk lo oye todo con Vosk; pocketsphinx lo oye todo con PocketSphinx --model" in play
    assert "un modelo de Whisper por su nombre (base, tiny.en) o su carpeta, o una carpeta de modelo de Vosk" in play
    models = said(tmp_path, "models", "--help")
    assert "Ver, descargar, instalar y comprobar modelos de voz y de lenguaje." in models
    assert "list cada modelo conocido, su tamaño y dónde está instalado" in models
    tick = said(tmp_path, "tick", "--help")
    assert "la historia como archivo de texto" in tick
    assert "--asr NAME reconocedor para --audio: whisper (por defecto), vosk o pocketsphinx" in tick
    transcribe = said(tmp_path, "transcribe", "--help")
    assert "escribir también las hipótesis parciales" in transcribe
    assert "--asr {whisper,vosk,pocketsphinx} el reconocedor: whisper (por defecto) oye" in transcribe
    assert "Lista los micrófonos y altavoces que storyhost puede usar (para --input)." in said(
        tmp_path, "devices", "--help")


@pytest.mark.parametrize(("language", "first", "header", "size"), [
    ("en", "Known models (storyhost installs downloaded models into ", ["name", "kind", "language", "size", "installed"],
     r"\b\d+\.\d megabytes\b"),
    ("es", "Modelos conocidos (storyhost instala los modelos descargados en ", ["nombre", "tipo", "idioma", "tamaño",
                                                                             "instalado"], r"\b\d+,\d megabytes\b"),
])
def test_models_list_is_in_the_remembered_language(tmp_path: Path, language: str, first: str, header: list[str],
                                                   size: str) -> None:
    if language != "en":
        remember(tmp_path, language)
    done = run_storyhost(tmp_path, "models", "list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(first)
    assert lines[1].split() == header
    assert all(re.search(size, line) for line in lines[2:] if "megabytes" in line)


def test_a_deck_files_broken_json_is_described_in_the_remembered_language(tmp_path: Path) -> None:
    remember(tmp_path, "es")
    deck = tmp_path / "mine.json"
    deck.write_text('{"game": "stories", "cards": [{"normal": "A" "quirky": "B"}]}', encoding="utf-8")
    done = run_storyhost(tmp_path, "play", "stories", "--players", "Ana", "Bea", "Cai", "--deck", str(deck))
    assert done.returncode == 2
    assert done.stderr == f"{deck}: línea 1, columna 46: esto no es JSON válido (falta una coma)\n"


@pytest.mark.parametrize("text", ["", "[1 2]", '{"a" 1}', "{1: 2}", '"open', '"\x01"', '"\\u12"', '"\\x"', "[1] 2"])
def test_every_error_pythons_json_gives_is_described_in_the_tables_words(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text)
    described = json_error(raised.value.msg)
    assert described in JSON_ERRORS.values()
    with speaking(translations("de")):
        assert json_error(raised.value.msg) not in (described, raised.value.msg)


def test_the_python_decoders_wording_of_an_error_is_described_too() -> None:
    """json's pure-Python scanner adds the character to two of its messages."""
    for text in ('"\\x"', '"\x01"'):
        with pytest.raises(json.JSONDecodeError) as raised:
            json.decoder.py_scanstring(text, 1)
        assert json_error(raised.value.msg) in JSON_ERRORS.values(), raised.value.msg


def test_an_error_json_may_add_later_stays_as_json_says_it() -> None:
    assert json_error("Some new complaint") == "Some new complaint"


def test_a_language_storyhost_lacks_is_refused_in_the_remembered_language(tmp_path: Path) -> None:
    remember(tmp_path, "es")
    done = run_storyhost(tmp_path, "rules", "dixit", "--language", "fr")
    assert done.returncode == 2
    assert done.stderr == "storyhost no habla 'fr'; habla en (English), es (español), ca (català) y de (Deutsch).\n"


@pytest.mark.parametrize(("options", "refusal"), [
    (["--rate", "2000"], "Una velocidad de la voz de 2000 palabras por minuto no se entiende: elige una de 80 a 450."),
    (["--voice", "elvish"], "No hay ninguna voz 'elvish': prueba una de es, es-419 ('espeak-ng --voices' las lista "
                            "todas).\n"),  # espeak-ng's Spanish voices
    (["--asr", "vosk"], "Vosk aquí solo oye inglés, no 'es': usa --asr whisper."),
])
def test_speech_settings_that_cannot_work_are_refused_in_the_games_language(tmp_path: Path, options: list[str],
                                                                           refusal: str) -> None:
    """An unknown voice is found out by the synthesis process and said by the host, in Spanish."""
    done = run_storyhost(tmp_path, "play", "stories", "--players", "Ana", "Bea", "Cai", "--language", "es",
                         "--speech", *options)
    assert done.returncode == 2
    assert done.stderr.startswith(refusal) and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "config" / "preferences.json").exists()  # no game: Spanish is not remembered


@pytest.mark.parametrize(("remembered", "args", "expected"), [
    (None, ["play", "stories", "--language", "es", "--help"], "--timer N Stories!: segundos por historia"),
    ("de", ["play", "stories", "--language=ca", "--help"], "--timer N Stories!: segons per història"),
    ("es", ["rules", "dixit", "--language", "de", "--help"], "die Sprache der Regeln"),
    ("de", ["transcribe", "--language", "es", "--help"], "escribir también las hipótesis parciales"),
])
def test_a_language_on_the_command_line_wins_for_that_run_without_being_remembered(
        tmp_path: Path, remembered: str | None, args: list[str], expected: str) -> None:
    if remembered is not None:
        remember(tmp_path, remembered)
    before = sorted(tmp_path.rglob("*"))
    assert expected in said(tmp_path, *args)
    assert sorted(tmp_path.rglob("*")) == before  # --help saves no preference


def test_a_language_storyhost_lacks_on_the_command_line_leaves_help_in_the_remembered_one(tmp_path: Path) -> None:
    remember(tmp_path, "es")
    assert "--timer N Stories!: segundos por historia" in said(tmp_path, "play", "stories", "--language", "fr",
                                                              "--help")
