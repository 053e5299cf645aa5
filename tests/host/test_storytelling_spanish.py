"""Storytelling played to its end in Spanish through the real `storyhost` command (issue 22): the
golden games' scripts typed with the Spanish command words, `--language es`; the host's own
sentences are Spanish (the tales' card texts and picture names are the tale's data), and the
saved moves are the game's ids, whatever language they were typed in."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from games.language import p_, speaking
from games.storytelling import StorytellingState
from host.adapters.storytelling import ADAPTER
from host.storage.catalogs import translations
from tests.games.test_storytelling import (
    PIGS, after_a_right_flip, after_the_race_discarded_card_one, cinderella_deciding, flip, game_over,
)
from tests.games.test_storytelling_spanish import english_in, pictures_aside
from tests.host.test_golden import GAMES, GOLDEN
from tests.host.test_table import answer, moves
from tests.host.cli_helpers import run_storyhost

#: the golden scripts' commands, in Spanish
SPANISH = {"flip": "voltea", "blow": "sopla", "stay": "quédate", "row": "fila", "column": "columna",
           "left": "izquierda", "right": "derecha", "up": "arriba", "down": "abajo"}
#: lines typed besides the script's, after its grid: none changes the game
ASIDES = ["grid fila 2", "grid columna b", "grid fila 9", "voltea Z9", "sopla fila arriba"]
#: a line that reads out a card: 'Carta 4: When the last sheep ...'
CARD = re.compile(r"^Carta \d+: ")


def spanish_script(name: str, folder: Path) -> Path:
    lines = []
    for line in (GOLDEN / f"{name}.script").read_text(encoding="utf-8").splitlines():
        lines.append(" ".join(SPANISH.get(word, word) for word in line.split()))
        if line == "grid":
            lines += ASIDES
    script = folder / f"{name}.es.script"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return script


def played(tmp_path: Path, name: str) -> list[str]:
    done = run_storyhost(tmp_path, "play", *GAMES[name], "--language", "es", "--script",
                         str(spanish_script(name, tmp_path)))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout.splitlines()


#: a game played in Spanish: where it is saved, and what the host printed
Played = Callable[[str], tuple[Path, list[str]]]


@pytest.fixture(scope="module")
def spanish_games(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Each golden game played once in Spanish for all the tests of this module."""
    games: dict[str, tuple[Path, list[str]]] = {}

    def play(name: str) -> tuple[Path, list[str]]:
        if name not in games:
            folder = tmp_path_factory.mktemp(name)
            games[name] = folder, played(folder, name)
        return games[name]
    return play


def leaks(out: list[str]) -> list[str]:
    """The host's lines with English words in them: not the lines typed, the card texts, or the
    session's first and last lines (another part of the host: its own catalog)."""
    return [line for line in out[1:-1]
            if not line.startswith("> ") and not CARD.match(line) and english_in(line.replace("grid", ""))]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["storytelling", "storytelling-pigs", "storytelling-cinderella", "storytelling-race"])
def test_storytelling_is_played_to_its_end_in_spanish(spanish_games: Played, name: str) -> None:
    folder, out = spanish_games(name)
    assert leaks(out) == []
    assert out[1].startswith("Las losetas forman una cuadrícula de ")
    assert "La partida ha terminado." in "\n".join(out)
    assert moves(folder) == [line for line in (GOLDEN / f"{name}.script").read_text().splitlines()
                             if line.split()[0] in ("flip", "blow", "stay")]  # the ids, as typed in English


@pytest.mark.slow
def test_the_basic_game_in_spanish(spanish_games: Played) -> None:
    out = [pictures_aside(line) for line in spanish_games("storytelling")[1]]  # pictures: the tale's words
    assert out[2:5] == ["Marc, te toca.", out[3], "Marc, encuentra 2 imágenes en este orden: ·, ·."]
    assert answer(out, "voltea C1") == ["C1: ·.", "Bien, 1 de 2. Siguiente: ·."]
    assert answer(out, "voltea A3") == ["A3: ·.", "Fallo: tocaba ·.", "C1 y A3 vuelven a quedar boca abajo.",
                                        "Lea, te toca.", answer(out, "voltea A3")[4],
                                        "Lea, encuentra 2 imágenes en este orden: ·, ·."]
    assert answer(out, "voltea A1", 1)[1] == "Ona gana la carta 3 y 1 punto."
    assert out[-3:-1] == [
        "La partida ha terminado. Gana Lea con 14 puntos.",
        "Puntuación final: Marc 0 puntos, ninguna carta; Lea 14 puntos, las cartas 1, 5, 8, 11 y 13; Ona 10 puntos, "
        "las cartas 2, 3, 6, 9 y 10.",
    ]


@pytest.mark.slow
def test_the_wolf_blows_in_spanish(spanish_games: Played) -> None:
    """The three little pigs' advanced rule, and the grid asked for and refused in Spanish."""
    out = spanish_games("storytelling-pigs")[1]
    text = "\n".join(out)
    assert "¡El lobo sopló! " in text
    assert " se queda boca arriba en " in text
    assert ": di sopla fila izquierda, sopla fila derecha, sopla columna arriba o sopla columna abajo." in text
    blown = answer(out, "sopla columna arriba")
    assert re.fullmatch(r"\w+ mueve la columna de · una posición hacia arriba; la loseta que sale entra por el otro "
                        r"extremo\. · se pone boca abajo\.", pictures_aside(blown[0])), blown
    assert blown[1].startswith("Losetas ya vistas que se han movido: ")
    assert answer(out, "grid fila 2")[0].startswith("Fila 2: A2 ")
    assert answer(out, "grid columna b")[0].startswith("Columna B: B1 ")
    with speaking(translations("es")):
        grid = p_("verb", "grid")  # the host command's Spanish word (the session's catalog)
    assert answer(out, "grid fila 9") == [
        f"Las losetas forman una cuadrícula de 4 columnas, de la A a la D, y 4 filas, de la 1 a la 4: di {grid}, {grid} "
        f"fila y un número del 1 al 4, o {grid} columna y una letra de la A a la D."]
    assert answer(out, "voltea Z9")[0].startswith("No hay ninguna posición 'Z9' en una cuadrícula de 4 columnas")
    assert answer(out, "sopla fila arriba")[0].startswith("Ahora no puedes soplar: ")


def screens(state: StorytellingState, tale: str) -> list[str]:
    """Everything the active player's phone, the table page and the host's grid answers show of
    `state` (the others' phones say whom the game waits for: host.adapters.base.waiting, every
    game's sentence, not Storytelling's)."""
    shown: list[str] = []
    for player in state.waiting_for() or state.players:
        turn = ADAPTER.phone_turn(state, player)
        shown += [turn.now, *(ask.prompt for ask in turn.asks),
                  *(text for ask in turn.asks for button in ask.buttons for text in (button.text, button.name))]
    table = ADAPTER.table(state)
    shown += [table.heading.replace(tale, ""), table.now, table.big_label, table.meters_label,
              *(text for meter in table.meters for text in (meter.name, meter.unit))]
    shown += [ADAPTER.grid(state, which) for which in ("", "fila 1", "columna b", "row 2", "fila 9")]
    guide = ADAPTER.typing_guide(state)
    return shown + ([guide[1].replace("grid", "")] if guide else [])


def wolf_blew() -> StorytellingState:
    state = StorytellingState(["Marc", "Lea"], PIGS, 1, advanced=True)
    flip(state, "WOLF")
    flip(state, "BLEW")
    return state


@pytest.mark.parametrize("make", [after_a_right_flip, wolf_blew, cinderella_deciding, game_over,
                                  after_the_race_discarded_card_one])
def test_the_phones_and_the_table_page_in_spanish(make: Callable[[], StorytellingState]) -> None:
    with speaking(translations("es")):
        state = make()
        shown = screens(state, state.tale.title)
    assert [text for text in shown if english_in(text.replace("grid", ""))] == []
    assert any("losetas" in text for text in shown)
