"""Storytelling in Spanish (issue 22): random games of every tale, basic and advanced, in which
every sentence the engine says (events, statuses, scores, the labels of its moves, refusals) is
Spanish; commands typed with the Spanish words; the grid as a Spanish player hears it."""
from __future__ import annotations

import random
import re

import pytest

from games.base import Action, IllegalAction
from games.decks import TALE_KEYS
from games.language import speaking
from games.storytelling import StorytellingState
from host.storage.catalogs import translations
from tests.games.playout import random_move
from tests.games.test_storytelling import NAMES, TALES, no_free_text, win_turn

#: common English words of the host's sentences: none of them is a Spanish word
ENGLISH = re.compile(
    r"\b(the|your|is|are|and|of|to|it|card|cards|tile|tiles|wins?|turn|face|up|flip|row|column|found|next|"
    r"right|wrong|left|points?|squares?|clock|tortoise|hare|moves?|stays?|retires?|grid|pile|read|must|say|was|in|lie|with|has|been|on|there|for|waiting|now)\b",
    re.IGNORECASE,
)
#: the tale's own words, which its data holds: uppercase picture names ('SAINT GEORGE', 'DRAGÓN')
PICTURE_NAMES = re.compile(r"\b[A-ZÁÉÍÓÚÜÑ]{2,}(?: [A-ZÁÉÍÓÚÜÑ]{2,})*\b")


def pictures_aside(sentence: str) -> str:
    """The sentence with each picture name written '·', in whatever language the tale names it."""
    return PICTURE_NAMES.sub("·", sentence)


def english_in(sentence: str) -> list[str]:
    """The English words of a sentence of the host, its picture names aside."""
    return ENGLISH.findall(pictures_aside(sentence))


def spanish_game(key: str, advanced: bool, seed: int) -> list[str]:
    """Every sentence a random Spanish game of this tale says: its events (a card's text aside),
    after each move its status, scores and the labels of its moves, and after about a third of
    them the refusals of a place that does not exist, of moves of another phase, of a card that
    is not there and of a player out of turn."""
    said: list[str] = []
    with speaking(translations("es")):
        state = StorytellingState(NAMES[: 1 + seed % 3], TALES[key], seed, advanced=advanced, clock_steps=3)
        rng = random.Random(seed)

        def apply(action: Action) -> None:
            said.extend(event.text for event in state.apply(action) if event.cue != "card")

        said.extend(event.text for event in state.opening() if event.cue != "card")
        while not state.is_over():
            said.extend([state.status(), *state.score_report(), *(choice.label for choice in state.legal_actions())])
            for refused in () if len(said) % 3 else (Action("flip", None, ("Z9",)), Action("stay"), Action("blow", None, ("row", "up")),
                            Action("read", None, ("99",)), Action("flip", "Nadie", ("A1",))):
                try:
                    state.apply(refused)
                except IllegalAction as refusal:
                    said.append(str(refusal))
            random_move(state, rng, no_free_text, apply)
        said.extend([state.status(), *state.score_report()])
    return said


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("key", TALE_KEYS)
def test_a_spanish_game_says_no_english_sentence(key: str, advanced: bool) -> None:
    for seed in range(2):
        said = list(dict.fromkeys(spanish_game(key, advanced, seed)))
        leaks = [sentence for sentence in said if english_in(sentence)]
        assert leaks == [], leaks[:5]
        assert any(sentence.startswith("La partida ha terminado.") for sentence in said)


def test_the_spanish_sentences_of_a_turn() -> None:
    with speaking(translations("es")):
        state = StorytellingState(["Marc", "Lea"], TALES["saint-george"], 1)
        assert [event.text for event in state.opening()][0] == (
            "Las losetas forman una cuadrícula de 4 columnas, de la A a la D, y 4 filas, de la 1 a la 4; A1 es la "
            "esquina de arriba a la izquierda.")
        won = [event.text for event in win_turn(state)]
        assert won[1:4] == ["Marc gana la carta 1 y 1 punto.", f"{won[0][:2]} vuelve a quedar boca abajo.",
                            "Lea, te toca."]
        assert won[5] == "Lea, encuentra 1 imagen en este orden: SAINT GEORGE."
        assert state.score_report() == ["Puntuación: Marc 1 punto, la carta 1; Lea 0 puntos, ninguna carta."]
        with pytest.raises(IllegalAction, match="^No hay ninguna posición 'Z9' en una cuadrícula de 4 columnas"):
            state.apply(Action("flip", None, ("Z9",)))
        with pytest.raises(IllegalAction, match="^Es el turno de Lea; di la orden sin ningún nombre.$"):
            state.apply(Action("flip", "Marc", ("A1",)))
        assert state.verbs["flip"].usage == "voltea POSICIÓN"
        assert state.verbs["blow"].usage == "sopla LÍNEA DIRECCIÓN"


@pytest.mark.parametrize("typed, action", [
    ("voltea b3", Action("flip", None, ("B3",))),
    ("Voltea 3 B", Action("flip", None, ("B3",))),
    ("flip C4", Action("flip", None, ("C4",))),  # the English verb too
    ("d2", Action("flip", None, ("D2",))),
    ("sopla fila izquierda", Action("blow", None, ("row", "left"))),
    ("sopla COLUMNA Abajo", Action("blow", None, ("column", "down"))),
    ("blow row right", Action("blow", None, ("row", "right"))),
    ("lee 9", Action("read", None, ("9",))),
    ("retirate", Action("retire")),
    ("quédate", Action("stay")),
])
def test_commands_typed_in_spanish_are_the_games_moves(typed: str, action: Action) -> None:
    with speaking(translations("es")):
        state = StorytellingState(["Marc", "Lea"], TALES["three-pigs"], 1, advanced=True)
        assert state.parse(typed) == action
