"""Dixit in Spanish through the real command line: the Spanish rulebook's worked example typed with
the Spanish command words, with the rulebook's scores (Julián 3, Leo 5, Tomás 1, Matilde 0,
Nicolás 0), and whole games to their end typed with the Spanish words and with the English ones;
no English sentence of the game reaches a Spanish table."""
from __future__ import annotations

import json
import re
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from games.base import Action, GameState
from games.decks import sentences
from games.dixit import DescribedDixit, DixitState
from games.language import speaking
from host.adapters.dixit import ADAPTER
from host.storage.catalogs import translations
from host.storage.decks import DeckError, load_described_deck
from tests.host.cli_helpers import ROOT, run_storyhost

#: the rulebook's seats: Tomás sits on Julián's left
EXAMPLE = ["--players", "Julián", "Tomás", "Leo", "Nicolás", "Matilde"]
#: common English words, whole words only: none of them is a Spanish word
ENGLISH = re.compile(r"\b(the|your|is|and|or|of|to|card|cards|vote|votes|voted|found|turn|storyteller|clue|"
                     r"say|scores|points|everyone|nobody|who|which|gave|give|waiting|all|are|in|draw|pile)\b",
                     re.IGNORECASE)
#: the host's own frame around a game (host.session, host.cli: their catalogs, English until theirs are in)
FRAME = re.compile(r"^(Dixit, game \d+\. Players: .*|(Input ended\. )?Game \d+ is (over and )?saved.*"
                   r"|(Se acabaron las órdenes\. )?La partida \d+ (ha terminado y )?está guardada.*)$")


def play(tmp_path: Path, players: list[str], lines: list[str], *options: str) -> list[str]:
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_storyhost(tmp_path, "play", "dixit", *players, "--language", "es", *options, "--script", str(script))
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    return done.stdout.splitlines()


def said_after(out: list[str], command: str) -> list[str]:
    """What the game answered to a typed command, up to the next one."""
    start = out.index(f"> {command}") + 1
    end = next((index for index in range(start, len(out)) if out[index].startswith("> ")), len(out))
    return [line for line in out[start:end] if not FRAME.match(line)]


def english_lines(out: list[str], typed: list[str]) -> list[str]:
    """The lines a Spanish table heard with English words in them, names and typed clues aside."""
    leaks = []
    for line in out:
        if line.startswith("> ") or FRAME.match(line):
            continue
        bare = line
        for clue in (command.split(" ", 1)[1] for command in typed if command.split()[0] in ("frase", "clue")):
            bare = bare.replace(clue, "")
        if ENGLISH.search(bare):
            leaks.append(line)
    return leaks


def test_the_rulebooks_worked_example_in_spanish(tmp_path: Path) -> None:
    typed = ["cuentacuentos Julián", "frase ¿Dónde está la felicidad?", "colocadas", "vota Matilde 1",
             "vota Nicolás 3", "vota Leo 4", "vota Tomás 1", "carta 4", "dueño 1 Leo", "dueño 3 Tomás"]
    out = play(tmp_path, EXAMPLE, typed)
    assert out[1] == ("Turno 1, con 54 cartas en el mazo de robo. El primer jugador que encuentre una frase hace de "
                      "cuentacuentos: di 'cuentacuentos' y su nombre.")
    assert said_after(out, "cuentacuentos Julián") == [
        "Julián ha encontrado una frase antes que nadie.",
        "Turno 1: Julián hace de cuentacuentos. Julián, di 'frase' y luego tu frase.",
    ]
    assert said_after(out, "vota Leo 4") == ["Leo ha votado (3 de 4)."]  # never the card voted for
    assert said_after(out, "vota Tomás 1") == [
        "Tomás ha votado (4 de 4).",
        "Ya han votado todos. Carta 1: Tomás y Matilde. Carta 3: Nicolás. Carta 4: Leo. Julián, ¿cuál es tu carta? "
        "Di 'carta' y su número.",
    ]
    assert said_after(out, "carta 4") == [
        "La carta 4 es de Julián: solo Leo la ha acertado. Ahora di quién dio las cartas 1 y 3, que han recibido "
        "votos: 'dueño', el número de la carta y el nombre.",
    ]
    assert said_after(out, "dueño 3 Tomás") == [
        "La carta 3 es de Tomás.",
        "Solo Leo ha acertado la carta de Julián, así que Julián y Leo ganan 3 puntos. Votos a sus cartas: "
        "Tomás 1 y Leo 2.",
        "Puntuación: Julián 3 (+3), Tomás 1 (+1), Leo 5 (+5), Nicolás 0, Matilde 0.",
        "Todos roban hasta tener 6 cartas; en el mazo de robo hay 49 cartas.",
        "Turno 2: Tomás hace de cuentacuentos. Tomás, di 'frase' y luego tu frase.",
    ]
    assert english_lines(out, typed) == []
    assert english_lines(["Card 4 is Julián's: only Leo found it."], []) != []  # the check would catch one


def test_a_whole_game_in_spanish_with_the_spanish_command_words(tmp_path: Path) -> None:
    """Four players and 32 cards: two turns, the storyteller refused a vote, a tie at the end."""
    typed = ["cuentacuentos Ana", "frase Un sueño", "colocadas", "vota Ana 1", "vota Bo 1", "vota Cy 1", "vota Di 2",
             "carta 1", "dueño 2 Bo", "frase Otra vez", "colocadas", "vota Ana 3", "vota Cy 3", "vota Di 3", "carta 3"]
    out = play(tmp_path, ["--players", "Ana", "Bo", "Cy", "Di"], typed, "--cards", "32")
    assert said_after(out, "vota Ana 1") == ["Ana hace de cuentacuentos y no vota; votan los demás jugadores."]
    assert "Bo y Cy han acertado la carta de Ana, así que Ana, Bo y Cy ganan 3 puntos. Votos a sus cartas: Bo 1." in out
    assert said_after(out, "carta 3") == [
        "La carta 3 es de Bo: todos la han acertado.",
        "Todos han acertado la carta de Bo, así que Bo no gana nada y los demás ganan 2 puntos.",
        "Puntuación: Ana 5 (+2), Bo 4, Cy 5 (+2), Di 2 (+2).",
        "Se ha robado la última carta del mazo, así que la partida termina. Ana y Cy comparten la victoria con 5 "
        "puntos.",
    ]
    assert english_lines(out, typed) == []


def test_a_spanish_game_takes_the_english_command_words_too(tmp_path: Path) -> None:
    """Three players (the variant: two cards each) and 26 cards: one turn, to the end."""
    typed = ["storyteller Ana", "clue Luz", "shown", "vote Bo 2", "vote Cy 4", "card 2", "owner 4 Bo"]
    out = play(tmp_path, ["--players", "Ana", "Bo", "Cy"], typed, "--cards", "26")
    assert said_after(out, "clue Luz") == [
        "Frase de Ana: Luz. Los demás, dad a Ana dos cartas para ella, boca abajo. Ana, barájalas con la tuya, coloca "
        "las 5 cartas boca arriba y di 'colocadas'."]
    assert said_after(out, "owner 4 Bo")[1:4] == [
        "Solo Bo ha acertado la carta de Ana, así que Ana y Bo ganan 3 puntos. Votos a sus cartas: Bo 1.",
        "Puntuación: Ana 3 (+3), Bo 4 (+4), Cy 0.",
        "Se ha robado la última carta del mazo, así que la partida termina. Gana Bo con 4 puntos.",
    ]
    assert english_lines(out, typed) == []


def texts(shown: object) -> list[str]:
    """Every text a phone or the table page shows of a view (not the values it sends back)."""
    if isinstance(shown, str):
        return [shown]
    if isinstance(shown, (tuple, list)):
        return [text for item in shown for text in texts(item)]
    if is_dataclass(shown) and not isinstance(shown, Action):
        return [text for item in fields(shown) if item.name not in ("value", "verb", "picture")
                for text in texts(getattr(shown, item.name))]
    return []


def screens(state: GameState) -> list[str]:
    """What every phone and the table page show now."""
    return [*texts(ADAPTER.table(state)), *(text for player in state.players for text in texts(ADAPTER.phone_turn(state, player)))]


def english(lines: list[str]) -> list[str]:
    return [line for line in lines if ENGLISH.search(line)]


def test_the_phones_and_the_table_page_of_the_worked_example_speak_spanish() -> None:
    with speaking(translations("es")):
        state = DixitState(EXAMPLE[1:])
        seen = screens(state)
        for command in ("cuentacuentos Julián", "frase ¿Dónde está la felicidad?", "colocadas", "vota Matilde 1",
                        "vota Nicolás 3", "vota Leo 4", "vota Tomás 1", "carta 4", "dueño 1 Leo", "dueño 3 Tomás"):
            seen += [event.text for event in state.apply(state.parse(command))] + screens(state) + state.status().split("\n")
            seen += [text for player in state.players for text in state.secrets(player)]
            if command == "carta 4":
                assert ADAPTER.phone_turn(state, "Leo").now == (
                    "¿Diste la carta 1 o 3? Pulsa el número de la carta que diste. Si no diste ninguna de estas, no "
                    "tienes que hacer nada.")
        assert state.scores() == {"Julián": 3, "Tomás": 1, "Leo": 5, "Nicolás": 0, "Matilde": 0}
        assert ADAPTER.table(state).heading == "Turno 2: Tomás hace de cuentacuentos"
    assert english(seen) == []


def test_a_game_told_in_words_in_spanish_is_dealt_the_spanish_deck_to_its_end() -> None:
    """Three players, the whole Spanish deck (13 turns): the cards read in Spanish, every sentence
    of the game, the phones and the table page in Spanish, the commands typed with Spanish words."""
    english_deck, spanish_deck = load_described_deck(), load_described_deck(players=3, language="es")
    assert (spanish_deck.title, spanish_deck.language, english_deck.language) == ("Ochenta y cuatro sueños", "es", "en")
    assert [card.id for card in spanish_deck.cards] == [card.id for card in english_deck.cards]
    with speaking(translations("es")):
        state = DescribedDixit(["Ana", "Bo", "Cy"], spanish_deck, seed=4)
        seen = [event.text for event in state.opening()] + screens(state)
        while not state.is_over():
            teller = state.storyteller
            commands = ["cuentacuentos Ana"] if teller is None else []
            commands += [f"elige {state.hands[teller or 'Ana'][0]}", "frase Lejos de casa"]
            for command in commands:
                seen += [event.text for event in state.apply(state.parse(command))] + screens(state)
            for player in state.voters:
                for card in state.hands[player][:2]:
                    seen += [event.text for event in state.apply(state.parse(f"entrega {player} {card}"))]
                    seen += screens(state)
            if state.turn == 1:
                laid = [card.title for card in spanish_deck.cards if card.id in state.laid]
                assert any(line.startswith("Ya están todas las cartas. Frase de Ana: Lejos de casa. Las 5 cartas, en "
                                           "orden:") for line in seen)
                assert len([line for line in seen if line.startswith("Carta ") and line.split(", ", 1)[1].split(":")[0]
                            in laid]) == 5
            for player in state.voters:
                mine = {number for number, owner in state.owners.items() if owner == player}
                vote = min(set(state.numbers) - mine)
                seen += [event.text for event in state.apply(state.parse(f"vota {player} {vote}"))] + screens(state)
        assert state.turn == 13
        assert seen[-1].startswith("Se ha robado la última carta del mazo, así que la partida termina.") or any(
            line.startswith("El mazo de robo se acaba") for line in seen)
    assert english(seen) == []


def test_the_spanish_deck_is_written_as_the_english_one_is() -> None:
    """The same rules as the English deck's (tests/host/test_described_deck.py): 20 to 80 words in 2
    to 4 sentences, a first sentence of 8 to 32 words that stands alone, no two titles alike."""
    cards = load_described_deck(language="es").cards
    for card in cards:
        assert 20 <= len(card.description.split()) <= 80 and 2 <= len(sentences(card.description)) <= 4, card
        assert 8 <= len(card.brief.split()) <= 32 and card.brief[0].isupper(), card.brief
    assert len({card.title.casefold() for card in cards}) == len({card.description for card in cards}) == 84


def test_a_deck_told_in_another_language_than_the_games_is_refused_with_the_reason(tmp_path: Path) -> None:
    english_deck = ROOT / "games" / "data" / "dixit" / "dixit-described.json"
    refused = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--language", "es",
                            "--deck", str(english_deck), "--companion")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip() == (
        "La baraja Eighty-Four Dreams está en en (English), y esta partida se juega en es (español): cada "
        "carta se leería en otro idioma que el de la partida. Elige una baraja en es (español), o juega en en "
        "(English) con --language en. Un archivo de baraja indica su idioma en su campo 'language' (inglés si no lo "
        "tiene).")
    spanish_deck = english_deck.with_name("dixit-described-es.json")
    refused = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--language", "en",
                            "--deck", str(spanish_deck), "--companion")
    assert refused.stderr.strip().startswith("The deck Ochenta y cuatro sueños is told in es (español), and this game "
                                             "is played in en (English)")
    assert run_storyhost(tmp_path, "games").stdout.startswith("No saved games yet")


def test_a_spanish_game_with_the_built_in_deck_told_in_words_is_dealt_the_spanish_cards(tmp_path: Path) -> None:
    started = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--language", "es",
                            "--deck", "described", "--companion", "--port", "0", "--seed", "1")
    assert started.returncode == 0, started.stderr
    assert ("Dixit con la baraja descrita con palabras, Ochenta y cuatro sueños: 84 cartas. La mano de 6 cartas de cada "
            "jugador está solo en su propio móvil.") in started.stdout


def test_a_deck_files_language_must_be_a_language_code(tmp_path: Path) -> None:
    data = json.loads((ROOT / "games" / "data" / "dixit" / "dixit-described-es.json").read_text(encoding="utf-8"))
    data["language"] = "Spanish"
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DeckError) as refused:
        load_described_deck(path)
    assert refused.value.problems == (
        "language: expected the code of the language the cards are told in, such as 'en' or 'es', found the text 'Spanish'",)


def test_a_card_on_the_table_is_read_again_with_the_spanish_word_or_the_english_one() -> None:
    with speaking(translations("es")):
        state = DescribedDixit(["Ana", "Bo", "Cy"], load_described_deck(language="es"), seed=2)
        state.apply(state.parse("cuentacuentos Ana"))
        state.apply(state.parse(f"elige {state.hands['Ana'][0]}"))
        state.apply(state.parse("frase Lejos"))
        for player in state.voters:
            for card in state.hands[player][:2]:
                state.apply(state.parse(f"entrega {player} {card}"))
        second = state.cards[state.laid[1]]
        assert ADAPTER.reading(state, "carta 2") == ADAPTER.reading(state, "card 2") == ADAPTER.reading(state, "lee carta 2") \
            == [f"Carta 2, {second.title}: {second.description}"]
        assert len(ADAPTER.reading(state, "cartas") or []) == 5
        assert ADAPTER.reading(state, "carta ²") == [
            "Las cartas de la mesa van numeradas del 1 al 5: di carta y uno de esos números."]
