"""The session and the host's own commands in Spanish: a Dixit game played through the real
command line with the host commands typed in Spanish (and in English, still taken), and every
sentence the session says in a Spanish game checked to be Spanish. The games' own sentences are
their catalogs' (other files), so only the session's lines are asserted here."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from games.base import GameState, fold_name
from games.language import speaking
from games.registry import registered
from host.commands import HOST_COMMANDS, command_named
from host.session.inputs import ScriptSource
from host.session.session import TextOutput
from host.storage.catalogs import translations
from host.storage.store import GameStore
from tests.host.cli_helpers import run_storyhost
from tests.host.test_toy_game import toy_game, toy_session  # noqa: F401 (toy_game: a fixture)
from tests.test_catalogs import subclasses

PLAYERS = ["--players", "Julián", "Tomás", "Leo", "Nicolás", "Matilde"]  # the Spanish rulebook's example
SPANISH = translations("es")


def answers(out: str, typed: str, occurrence: int = 0) -> list[str]:
    """The lines printed after the `occurrence`-th echo of `typed`, up to the next echo."""
    lines = out.splitlines()
    start = [index for index, line in enumerate(lines) if line == f"> {typed}"][occurrence] + 1
    end = next((index for index in range(start, len(lines)) if lines[index].startswith("> ")), len(lines))
    return lines[start:end]


@pytest.mark.slow
def test_a_spanish_game_takes_the_host_commands_in_spanish_and_in_english(tmp_path: Path) -> None:
    typed = ["ayuda", "storyteller Leo", "deshacer", "sí", "storyteller Leo", "undo", "no", "help", "detalle breve",
             "ayuda", "verbosity normal", "puntos", "scores", "Zed", "velocidad despacio", "detalle mucho", "privado Leo",
             "salir"]
    played = run_storyhost(tmp_path, "play", "dixit", *PLAYERS, "--language", "es", stdin="\n".join(typed) + "\n")
    out = played.stdout
    assert played.returncode == 0, out + played.stderr

    helped = answers(out, "ayuda")
    assert helped[0] == "Ahora puedes escribir:"
    always = helped[helped.index("En cualquier momento:") + 1:]
    assert always[0] == "  ayuda: las órdenes del momento y después estas"
    assert "  deshacer: deshace la última jugada, después de oír de quién es y de decir que sí" in always
    assert "  detalle NIVEL: di menos o más: breve, normal o detallado" in always
    assert always[-1] == "  salir: para; 'storyhost resume' continúa la partida"
    assert "En cualquier momento:" in answers(out, "help")  # the English word is taken too

    asked = answers(out, "deshacer")
    assert asked[0].startswith("¿Deshacer la jugada de Leo (")
    assert asked[0].endswith(")? Escribe sí para deshacerla, o cualquier otra cosa para mantenerla.")
    assert answers(out, "sí")[0].startswith("Se deshace la jugada de Leo (")
    assert answers(out, "undo")[0].startswith("¿Deshacer la jugada de Leo (")
    assert answers(out, "no") == ["No se ha deshecho nada."]

    assert answers(out, "detalle breve") == ["Nivel de detalle: breve."]
    assert answers(out, "ayuda", 1)[1] == "Además: ayuda, repetir, puntos, turno, deshacer, privado, velocidad, detalle, salir."
    assert answers(out, "verbosity normal") == ["Nivel de detalle: normal."]
    assert answers(out, "puntos") == answers(out, "scores") == ["Puntuación: Julián 0, Tomás 0, Leo 0, Nicolás 0, Matilde 0."]
    hint = answers(out, "Zed")[0]
    assert hint.startswith("'Zed' no es una orden aquí; 'ayuda' las enumera. Escribe ") and hint.endswith(".")
    assert re.fullmatch(r"Velocidad de la voz: \d+ palabras por minuto\.", answers(out, "velocidad despacio")[0])
    assert answers(out, "detalle mucho") == ["Di detalle breve, detalle normal o detalle detallado."]
    assert answers(out, "privado Leo") == ["Solo para Leo:", "  Ahora no tienes ningún secreto."]
    assert answers(out, "salir") == ["La partida 1 está guardada: 'storyhost resume 1' la continúa."]

    resumed = run_storyhost(tmp_path, "resume", stdin="turno\n")
    assert resumed.stdout.splitlines()[-1] == ("Se acabaron las órdenes. La partida 1 está guardada: "
                                               "'storyhost resume 1' la continúa.")
    again = run_storyhost(tmp_path, "resume", stdin="exit\n")
    assert answers(again.stdout, "exit") == ["La partida 1 está guardada: 'storyhost resume 1' la continúa."]


#: the toy game's own sentences (English, and not the session's): left out of the check below
TOY = re.compile(r"The count is \d+( of \d+)?\. \w+, add 1 or 2\.|\w+ reach(es|ed) \d+ and w(ins|on)\.|It is \w+'s turn\."
                 r"|Add 1 or 2(, not '\w+'| to the count)\.|Toy count")
#: words of English that no Spanish sentence has
ENGLISH = {"the", "your", "is", "and", "to", "of", "you", "it", "type", "say", "was", "has", "are", "for", "with",
           "game", "move", "undo", "help", "yes", "now", "again", "over", "saved", "input", "not", "or", "at", "there",
           "nothing", "noted", "refused", "what", "time", "left", "commands", "phones", "private", "only"}


def test_every_sentence_the_session_says_in_a_spanish_game_is_spanish(toy_game: None, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every host command, each of its refusals, undo asked, answered and refused, a hint, lines
    that cannot be taken, the end of the game and of the input: nothing but the game's own
    sentences, names and the words typed is English."""
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path / "config"))  # 'velocidad' saves the preference
    script = [b"ayuda", b"detalle breve", b"ayuda", b"detalle normal", b"detalle mucho", b"velocidad deprisa",
              b"velocidad pronto", b"turno", b"repetir", b"puntos", b"Zed", b"add Ann", b"privado", b"privado Ann",
              b"enlace Ann", b"moviles", b"reloj", b"deshacer", b"add Ann 2", b"deshacer", b"deshacer", b"no",
              b"undo", b"s", b"\xff", b"x" * 5000, b"add Ann 2", b"Bo 1"]
    settings = {"players": ["Ann", "Bo"], "seed": 1, "target": 3}
    printed: list[str] = []
    with speaking(SPANISH), GameStore(tmp_path / "games.sqlite3") as store:
        session, game_id = toy_session(store, settings, TextOutput(write=printed.append))
        session.run(ScriptSource(io.BytesIO(b"\n".join(script) + b"\n"), echo=printed.append))
        unfinished, _ = toy_session(store, settings, TextOutput(write=printed.append))
        unfinished.run(ScriptSource(io.BytesIO(b"salir\n"), echo=printed.append))
        unfinished.run(ScriptSource(io.BytesIO(b""), echo=printed.append))
    said = [line for line in printed if not line.startswith("> ")]
    assert "¿Deshacer la jugada de Ann (add 2)? Escribe sí para deshacerla, o cualquier otra cosa para mantenerla." in said
    opening = "The count is 0 of 3. Ann, add 1 or 2."
    assert said[-5:] == ["La partida 1 ha terminado y está guardada.",
                         opening, "La partida 2 está guardada: 'storyhost resume 2' la continúa.",
                         opening, "Se acabaron las órdenes. La partida 2 está guardada: 'storyhost resume 2' la continúa."]
    for line in said:
        words = {fold_name(word) for word in re.findall(r"\w+", TOY.sub("", line))}
        assert not words & ENGLISH, line


def test_no_host_command_word_is_a_game_command_word() -> None:
    """A host command is looked up first: a game's command typed with the same word would never
    reach the game. In Spanish as in English."""
    registered()  # imports every game module
    for catalog in (translations("en"), SPANISH):
        with speaking(catalog):
            for state in subclasses(GameState):
                for verb in getattr(state, "verbs", {}).values():
                    assert command_named(verb.name) is None and command_named(verb.said) is None, verb.said
            words = [fold_name(command.word) for command in HOST_COMMANDS]
            assert len(set(words)) == len(words) and all(" " not in word for word in words)
