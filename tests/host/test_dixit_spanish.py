"""Dixit in Spanish through the real command line: the Spanish rulebook's worked example typed with
the Spanish command words, with the rulebook's scores (Julián 3, Leo 5, Tomás 1, Matilde 0,
Nicolás 0), and whole games to their end typed with the Spanish words and with the English ones;
no English sentence of the game reaches a Spanish table."""
from __future__ import annotations

import re
from pathlib import Path

from tests.host.cli_helpers import run_storyhost

#: the rulebook's seats: Tomás sits on Julián's left
EXAMPLE = ["--players", "Julián", "Tomás", "Leo", "Nicolás", "Matilde"]
#: common English words, whole words only: none of them is a Spanish word
ENGLISH = re.compile(r"\b(the|your|is|and|or|of|to|card|cards|vote|votes|voted|found|turn|storyteller|clue|"
                     r"say|scores|points|everyone|nobody|who|which|gave|give|waiting|all|are|in|draw|pile)\b",
                     re.IGNORECASE)
#: the host's own frame around a game (host.session, host.cli), translated in their own catalogs
FRAME = re.compile(r"^(Dixit, game \d+\. Players: .*|(Input ended\. )?Game \d+ is (over and )?saved.*)$")


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
