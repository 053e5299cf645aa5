"""A Spanish game played by sound alone: the Spanish Dixit rulebook's worked example with physical
cards, as tests/host/test_dixit_spanish.py types it, played by voice. A scripted player hears the
host only through the loudspeaker's monitor (Whisper's multilingual base forced to Spanish, on
what the host says in its Spanish voice) and acts only by speaking Spanish into the virtual
microphone (espeak-ng's Spanish voice), each move as a Spanish player says it to the host: as it is
typed in Spanish, numbers in words ("vota Leo cuatro"; see tests/benchmarks/bench_commands_languages.py),
said again in the words of the table when the host did not understand it ("Leo vota la cuatro"),
and "sí, por favor" to the host's questions about its move ("¿Has dicho: ...? Di sí o no."), "no" to
any other. What the host says decides when the player speaks and whether it answers a question.
Which phrase a question names is read from the host's printed question: Whisper base hears
espeak-ng's Spanish names and numbers too loosely for the player to tell "¿Has dicho: deshaz eso?"
from a question about its move, and a player who says yes to it tests the player's ears, not the
host's. The printed lines are read otherwise only to check that each move was made, the
rulebook's scores, and to explain a failure.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
import re

import pytest

from nlp.commands import fold
from tests.audio.pulse import MicFeeder, PulseAudio
from tests.audio.test_live_round import LiveHost
from tests.audio.test_voice_playthrough import HOST_OPTIONS, end, printed, speak_until_done
from tests.audio.voice_player import VoicePlayer

pytestmark = pytest.mark.slow

#: the answers to the host's questions, among its Spanish answers: "sí" alone, in espeak-ng's
#: Spanish voice, the host's Whisper (base forced to Spanish) hears as "C", which it does not take
YES, NO = "sí, por favor", "no"
#: the rulebook's seats: Tomás sits on Julián's left
PLAYERS = ["Julián", "Tomás", "Leo", "Nicolás", "Matilde"]
CLUE = "¿Dónde está la felicidad?"


def asks_si_o_no(heard: str) -> bool:
    """Whether the host, heard saying `heard`, asked a question to answer sí or no: "¿Has dicho:
    ...? Di sí o no.", "He oído: ... ¿Es correcto? Di sí o no." (it ends so), "Di sí o no, por
    favor: ¿...?" (it opens so). Whisper base hears "di sí o no" in the host's Spanish voice as
    "disi o no", "dc o no", "dició no por favor" or "p c o no po távor": the words "o no" among
    the first or last, "no por", or the last word "no"."""
    words = fold(heard).split()
    pairs = list(zip(words, words[1:]))
    return (words[-1:] == ["no"] or ("o", "no") in pairs[:3] + pairs[-2:]
            or ("no", "por") in pairs or "si o no" in " ".join(words))


#: the host's printed questions (host/locale/es/speech.po): "¿Has dicho: P? Di sí o no.", "Di sí
#: o no, por favor: ¿P?", and at brief detail "¿P?"; a dictation's "He oído: ... ¿Es correcto?"
ASKED = re.compile(r"¿(?:Has dicho: )?(?P<phrase>[^¿?]+)\?")
DICTATION = "He oído:"


def reply(ways: Sequence[str], heard: str, host: LiveHost) -> str | None:
    """What a Spanish player answers when the host, heard saying `heard`, asked about the move they
    said, which they say in any of `ways`: "sí, por favor" when the question names one of them
    (any dictation of a clue: the test checks what was taken down), "no" when it names another
    phrase ("¿Has dicho: deshaz eso?" after "carta cuatro" was heard as "C-c-c-w-o."); None when
    it asked nothing."""
    if not asks_si_o_no(heard):
        return None
    for line in reversed([line for line in host.lines if not line.startswith("Oído:")]):
        if DICTATION in line:
            return YES
        # the last question that names something ("¿Sí o no?" does not)
        named = [found["phrase"] for found in ASKED.finditer(line)
                 if fold(found["phrase"]).strip() not in ("si o no", "es correcto")]
        if named:
            return YES if any(fold(named[-1]).split() == fold(way).split() for way in ways) else NO
    return NO


@pytest.fixture
def player(pulse: PulseAudio, feeder: MicFeeder, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoicePlayer]:
    with VoicePlayer(pulse, feeder, tmp_path_factory.getbasetemp() / "player-speech-es", name="jugador",
                     voice="espeak:es", language="es") as ears:
        yield ears


def test_the_spanish_rulebooks_worked_example_played_by_sound_alone(pulse: PulseAudio, player: VoicePlayer,
                                                                    tmp_path: Path) -> None:
    """Five players, the rulebook's turn: Julián the storyteller, his clue, the five cards shown,
    Matilde and Tomás vote card 1, Nicolás card 3, Leo card 4, Julián's card (4), who gave the
    other cards with votes (Leo card 1, Tomás card 3); scored as the rulebook scores it."""
    host = LiveHost(pulse, tmp_path, "play", "dixit", "--players", *PLAYERS, "--language", "es", *HOST_OPTIONS)
    moves = [  # (as typed, what the host prints once it is made, as a player says it otherwise)
        ("cuentacuentos Julián", "Turno 1: Julián hace de cuentacuentos", "Julián es el cuentacuentos"),
        (f"frase {CLUE}", "Frase de Julián:", f"la frase es {CLUE}"),
        ("colocadas", "Las 5 cartas están en la mesa", "las cartas están colocadas"),
        ("vota Matilde uno", "Matilde ha votado", "Matilde vota la uno"),
        ("vota Nicolás tres", "Nicolás ha votado", "Nicolás vota la tres"),
        ("vota Leo cuatro", "Leo ha votado", "Leo vota la cuatro"),
        ("vota Tomás uno", "Ya han votado todos", "Tomás vota la uno"),
        ("carta cuatro", "La carta 4 es de Julián", "la carta del cuentacuentos es la cuatro"),
        ("dueño uno Leo", "La carta 1 es de Leo", "la carta uno es de Leo"),
        ("dueño tres Tomás", "La carta 3 es de Tomás", "la carta tres es de Tomás"),
    ]
    try:
        player.wait_for_speech(quiet=1.5, timeout=60)  # "Turno 1, ... di 'cuentacuentos' y su nombre."
        for move, done, otherwise in moves:
            speak_until_done(player, host, move, done, rephrased=[otherwise],
                             reply=lambda _, heard, ways=(move, otherwise): reply(ways, heard, host))
        printed(host, "Puntuación: ", timeout=60)
    finally:
        stderr = end(host)
        # shown when the test fails: what the host heard and did at each move, what the player heard
        print("\n".join(host.lines), player.transcript(last=100), sep="\n")
    assert any("Puntuación: Julián 3 (+3), Tomás 1 (+1), Leo 5 (+5), Nicolás 0, Matilde 0." in line
               for line in host.lines), host.lines[-12:]
    clue = next(line for line in host.lines if "Frase de Julián:" in line)
    assert not fold(clue.split(":", 1)[1]).strip(" ¿?,.").startswith("frase"), clue  # the command's word is no part of it
    assert "Traceback" not in stderr, stderr
