"""Stories! in Spanish (issue 22): a whole game played through the real `storyhost play` from a
script, its terms judged by the Spanish rulings ("Stories! in Spanish" in `storyhost rules
stories`), scored by the rulebook, every sentence of the game in Spanish; the Spanish deck chosen
by the game's language, and a deck in another language than the game's refused with the reason."""
from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

import pytest

from games.base import Match
from games.decks import OpeningCard
from games.language import speaking
from host.adapters.base import adapter_for
from host.adapters.listening import Hearing
from host.cli.catalog import make
from host.session.events import Heard
from host.session.session import Session, SessionConfig, TextOutput
from host.speech.recognizer import Hypothesis
from host.storage.catalogs import translations
from host.storage.decks import DeckError, load_opening_cards
from host.storage.store import GameStore
from nlp.ticks import HeardWord
from tests.host.cli_helpers import run_storyhost
from tests.host.test_spoken_news import Scripted

SCRIPT = Path(__file__).parent / "data" / "stories-es.script"
#: seats Ana, Bea, Carlos: six stories; seed 3 deals the Spanish deck so that no term is on its card
PLAY = ("play", "stories", "--players", "Ana", "Bea", "Carlos", "--seed", "3")
#: English words no Spanish sentence has (whole words, any case)
ENGLISH = re.compile(r"\b(the|your|you|is|are|and|of|to|has|have|with|story|terms?|points?|wins|ticked|not)\b",
                     re.IGNORECASE)


@pytest.mark.slow
def test_a_stories_game_is_played_to_its_end_in_spanish(tmp_path: Path) -> None:
    result = run_storyhost(tmp_path, *PLAY, "--language", "es", "--script", str(SCRIPT))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    said = [line for line in lines if not line.startswith("> ")]
    # the Spanish deck, read in Spanish
    assert "Cara normal: «En mi primer día en el trabajo nuevo...»" in said
    assert "Carlos elige la cara disparatada: «El espantapájaros de mi abuelo se presentó a alcalde...»" in said
    # the Spanish rulings: "perra" is "perro", "dámelo" ticks "dar", "se levantó" "levantar", "arco iris"
    # "arcoíris"; "oso polar" is one compound, "fin de semana" is not heard
    assert ("La historia ha terminado. Bea ha marcado perro, comer, rojo y oso polar; no ha marcado fin de semana. "
            "Carlos ha marcado perra, dar, levantar y arcoíris; no ha marcado Madrid.") in said
    # the rulebook's scoring: 2 for a term another player wrote too, 4 alone, minus the questions
    assert "Bea hace una primera pregunta, que cuesta 1 punto. Ana, respóndela como es debido." in said
    assert "Puntos de esta historia: Bea 13, Carlos 14; Ana, que la ha contado, 14." in said
    # Stop! as soon as a player has all five terms ticked, and the same word ticks Carlos's "gato"
    assert "¡Alto! Ana ha marcado sus cinco términos." in said
    assert "Puntos de esta historia: Ana 18, Carlos 2; Bea, que la ha contado, 18." in said
    assert "Carlos ya ha hecho 2 preguntas en esta historia, el máximo permitido." in said
    assert "Carlos 7: lobo 2 (escrito también por Ana), zorro 4 y luna 4, menos 3 por 2 preguntas." in said
    assert said[-2:] == ["La partida ha terminado. Gana Bea con 54 puntos.", "La partida 1 ha terminado y está guardada."]
    leaks = [line for line in said if ENGLISH.search(line)]
    assert leaks == []


def test_the_plural_forms_of_spanish_are_its_own() -> None:
    """Babel's CLDR rule gives Spanish three forms; the catalogs keep the two of their files."""
    spanish = translations("es")
    assert [spanish.ngettext("{count} question", "{count} questions", n) for n in (1, 2, 1000000)] == [
        "{count} pregunta", "{count} preguntas", "{count} preguntas"]


def test_the_deck_is_the_games_language() -> None:
    english, spanish = load_opening_cards(None), load_opening_cards(None, "es")
    assert OpeningCard("When I was in the Arctic recently...", "The day my fridge started giving me advice...") in english
    assert OpeningCard("Cuando estuve en el Ártico hace poco...", "El día en que mi nevera empezó a darme consejos...") in spanish


def test_the_spanish_deck_has_enough_short_distinct_openings() -> None:
    """As the English deck: every sentence short, opening a story ("..."), none twice; enough
    cards for ten players, the most, with some left to shuffle."""
    cards = load_opening_cards(None, "es")
    assert len(cards) >= 40
    sentences = [sentence for card in cards for sentence in (card.normal, card.quirky)]
    assert len({sentence.casefold() for sentence in sentences}) == len(sentences)
    assert all(4 <= len(sentence.split()) <= 14 and sentence.endswith("...") for sentence in sentences)
    assert all(sentence[0].isupper() or sentence[0] in "¡¿" for sentence in sentences)
    assert cards[0].normal == "Cuando estuve en el Ártico hace poco..."  # the rulebook's worked example


def deck(tmp_path: Path, language: str | None) -> Path:
    data = {"game": "stories", **({"language": language} if language else {}),
            "cards": [{"normal": f"Frase {n}...", "quirky": f"Frase rara {n}..."} for n in range(6)]}
    path = tmp_path / "mazo.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_deck_in_another_language_than_the_games_is_refused_with_the_reason(tmp_path: Path) -> None:
    english = deck(tmp_path, None)  # a deck that names no language is English
    with pytest.raises(DeckError) as refused, speaking(translations("es")):
        load_opening_cards(english, "es")
    assert refused.value.problems == (
        "language: este mazo está en English (en), pero la partida se juega en español (es): usa un mazo en "
        "español (es), o juega con --language en.",)
    with pytest.raises(DeckError) as refused:
        load_opening_cards(deck(tmp_path, "es"), "en")
    assert refused.value.problems == (
        "language: this deck is in español (es), but the game is played in English (en): use a deck in English (en), "
        "or play with --language es.",)
    with pytest.raises(DeckError) as refused:
        load_opening_cards(deck(tmp_path, "Spanish"), "en")
    assert refused.value.problems == (
        "language: expected a language code of two small letters, such as \"es\", found the text 'Spanish'",)


@pytest.mark.slow
def test_storyhost_play_refuses_a_deck_in_another_language_in_one_line_and_plays_one_in_its_own(tmp_path: Path) -> None:
    refused = run_storyhost(tmp_path, *PLAY, "--language", "es", "--deck", str(deck(tmp_path, None)), stdin="quit\n")
    assert refused.returncode == 2
    problem = [line for line in refused.stderr.splitlines() if "mazo" in line]
    assert len(problem) == 1 and problem[0].endswith(
        "mazo.json: language: este mazo está en English (en), pero la partida se juega en español (es): usa un mazo "
        "en español (es), o juega con --language en.")
    played = run_storyhost(tmp_path, *PLAY, "--language", "es", "--deck", str(deck(tmp_path, "es")), stdin="quit\n")
    assert played.returncode == 0, played.stderr
    assert re.search(r"^Cara normal: «Frase \d\.\.\.»$", played.stdout, re.MULTILINE)


def test_storyhost_play_reports_every_problem_of_a_broken_deck_in_spanish(tmp_path: Path) -> None:
    """A deck file's problems are said in the game's language, one a line, the file's own field
    names and paths kept as it writes them."""
    path = tmp_path / "mazo.json"
    path.write_text(json.dumps({"game": "dixit", "language": "es", "cards": [
        {"normal": ""},
        {"normal": "Había una vez...", "quirky": 3, "quirk": 1},
        {"normal": "había  una vez...", "quirky": "Érase...", "color": []},
        [],
    ]}), encoding="utf-8")
    refused = run_storyhost(tmp_path, *PLAY, "--language", "es", "--deck", str(path), stdin="quit\n")
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [f"{path}: {problem}" for problem in (
        "game: se esperaba 'stories', se encontró el texto 'dixit'",
        "cards[0]: falta el campo 'quirky'",
        "cards[0].normal: se esperaba un texto, se encontró un texto vacío",
        "cards[1].quirk: campo desconocido; ¿querías decir 'quirky'?",
        "cards[1].quirky: se esperaba un texto, se encontró el número 3",
        "cards[2].color: campo desconocido; aquí los campos son normal y quirky",
        "cards[2].normal: la misma frase que cards[1].normal",
        "cards[3]: se esperaba un objeto, se encontró una lista",
    )], refused.stderr


@pytest.mark.parametrize("language, said", [
    ("ca", "Stories! es juga en en (English) o es (español): storyhost no en coneix les regles de paraules permeses "
           "en cap altra llengua. Tria'n una amb --language."),
    ("de", "Stories! wird auf en (English) oder es (español) gespielt: In keiner anderen Sprache kennt storyhost die "
           "Regeln für erlaubte Wörter. Wähle eine mit --language.")])
def test_stories_in_a_language_without_term_rules_is_refused_in_its_words_even_with_a_deck_in_it(
        tmp_path: Path, language: str, said: str) -> None:
    """Catalan and German are spoken by the host (Storytelling, Dixit), but Stories! judges terms
    by rules storyhost has for English and Spanish only: refused before a deck is asked for."""
    refused = run_storyhost(tmp_path, *PLAY, "--language", language, "--deck", str(deck(tmp_path, language)), stdin="quit\n")
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1].endswith(said), refused.stderr


@pytest.mark.slow
def test_the_demo_refuses_spanish_in_one_line(tmp_path: Path) -> None:
    """The demo's story is an English recording; none in Spanish can be made here (no natural voice).
    The refusal is in the language asked for: a --language speaks for its run."""
    result = run_storyhost(tmp_path, "demo", "--language", "es")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "storyhost demo: la demo solo está en inglés: su historia es una grabación en inglés, y ninguna voz natural "
        "de aquí puede grabar una en es (español). Para jugar a Stories! en es (español): storyhost play stories "
        "--language es --players NOMBRE NOMBRE NOMBRE"]


def test_a_spanish_story_heard_live_is_judged_by_the_spanish_rulings(tmp_path: Path) -> None:
    """The game's adapter gives its narration listener the referee of the game's language: a story
    heard word by word (as a recognizer gives it) ticks "dar" on "dámelo" and "levantar" on
    "levantó"; "pregunta Bea", said, is Bea's question; Stop! on Bea's fifth term."""
    settings = {"players": ["Ana", "Bea", "Carlos"], "seed": 3, "timer_seconds": 60, "language": "es",
                "cards": [asdict(card) for card in load_opening_cards(None, "es")]}
    setup = ["elige Ana normal", *(f"término Bea {t}" for t in ("dar", "levantar", "perro", "arcoíris", "oso polar")),
             *(f"término Carlos {t}" for t in ("gato", "perra", "mar", "libro", "verde")), "empieza"]
    question = tuple(HeardWord(word, start=i * 0.4, end=i * 0.4 + 0.3) for i, word in enumerate("pregunta Bea".split()))
    story = "mi perra me dijo dámelo y se levantó y vimos un arco iris y un oso polar y un gato"
    words = tuple(HeardWord(word, start=1 + i * 0.4, end=1 + i * 0.4 + 0.3) for i, word in enumerate(story.split()))
    printed: list[str] = []
    with speaking(translations("es")), GameStore(tmp_path / "games.sqlite3") as store:
        game = store.create("stories", settings)
        session = Session(SessionConfig(store=store, game_id=game, match=Match(make("stories", settings)),
                                        output=TextOutput(write=printed.append),
                                        listeners=adapter_for("stories").listeners(settings, Hearing())))
        session.run(Scripted([*setup, Heard(Hypothesis(question, True), question[-1].end),
                              Heard(Hypothesis(words, True), words[-1].end)]))
        moves = [str(action) for action in store.actions(game)]
    assert "question Bea" in moves
    assert [move for move in moves if move.startswith("tick")] == [
        "tick Bea perro, Carlos perra", "tick Bea dar", "tick Bea levantar", "tick Bea arcoíris", "tick Bea oso polar"]
    assert any(line.endswith("] ¡Alto! Bea ha marcado sus cinco términos.") for line in printed)  # at its time
    assert any(line.endswith("Bea hace una primera pregunta, que cuesta 1 punto. Ana, respóndela como es debido.")
               for line in printed)
