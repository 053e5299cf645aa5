"""Spoken commands at a Spanish table: numbers, letters and answers from the catalog, moves said
as they are typed in Spanish, the dialog's questions in Spanish; and, through the real path of a
Spanish game (Whisper's multilingual base forced to Spanish, each command decoded whole),
host commands and a yes/no confirmation spoken by espeak-ng's Spanish voice."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.base import Action, GameState
from games.language import speaking
from host.adapters.base import adapter_for
from host.speech.recognizer import Hypothesis, Recognizer
from host.speech.registry import default, open_recognizer
from host.storage.catalogs import translations
from host.voice.control import Command, HostRequest, VoiceControl
from host.voice.phrases import Names, phrases
from nlp.commands import no_words, number_words, spoken, word_number, yes_words
from nlp.ticks import HeardWord
from tests.speech.audio import finals, read_pcm, stream, synthesize
from tests.voice.test_voice_control import match

ENGLISH = re.compile(r"\b(the|your|is|and|say|did|you|yes|sorry|cancelled)\b", re.IGNORECASE)


@pytest.fixture
def spanish() -> Iterator[None]:
    with speaking(translations("es")):
        yield


class Table:
    """A game at a Spanish table, its dialog in Spanish, and what the host said."""

    def __init__(self, game: str, state: GameState | None = None) -> None:
        self.state = state or match(game).state
        self.said: list[str] = []
        self.control = VoiceControl(Names({}), self.said.append, adapter_for(game), without=frozenset({"read"}),
                                    deciding=default().deciding("es"), language="es")

    def hear(self, text: str) -> list[Command]:
        """What free recognition wrote, as the Spanish path gives it (its words are the loose pass too)."""
        return self.control.hear(self.state, Hypothesis(tuple(HeardWord(w) for w in text.split()), True, loose=text))


def test_numbers_letters_and_answers_are_the_catalogs(spanish: None) -> None:
    assert [number_words(n) for n in (1, 4, 16, 20)] == ["uno", "cuatro", "dieciseis", "veinte"]
    assert word_number("dieciseis") == 16 and word_number("4") == 4 and word_number("four") is None
    assert spoken("Voltea la B3.") == "voltea la b tres" and spoken("hache dos") == "h dos"
    assert spoken("de quién es") == "de quien es"  # "de" stays a word
    assert {"si", "vale", "correcto"} <= set(yes_words()) and {"no", "cancela"} <= set(no_words())


def test_english_tables_are_unchanged() -> None:
    assert number_words(4) == "four" and spoken("you can be free") == "you can b free"
    assert "yes" in yes_words() and "cancel" in no_words()


def test_a_move_said_as_typed_in_spanish_is_taken(spanish: None) -> None:
    table = Table("dixit")
    table.state.apply(Action("storyteller", "Nina"))
    table.state.apply(table.state.parse("clue un largo viaje"))
    table.state.apply(Action("shown"))
    vote = table.state.verbs["vote"].said
    assert table.hear(f"{vote.capitalize()} Leo 4.") == [Action("vote", "Leo", ("4",))]


def test_a_spanish_confirmation_asks_and_hears_yes_and_no_in_spanish(spanish: None) -> None:
    table = Table("storytelling")
    assert table.hear("Salir.") == []
    assert table.said[-1] == "¿Has dicho: salir? Di sí o no."
    assert table.hear("¿Qué?") == [] and table.said[-1] == "Di sí o no, por favor: ¿salir?"
    assert table.hear("Vale.") == [HostRequest("quit")]
    table.hear("Salir.")
    assert table.hear("No.") == [] and table.said[-1] == "Cancelado."
    table.hear("Ruido de fondo sin sentido alguno aquí")
    table.hear("Qué puedo decir")
    assert table.said[-1].startswith("Puedes decir: ")
    assert not [line for line in table.said if ENGLISH.search(line)], table.said


def test_the_host_s_commands_are_said_only_in_spanish(spanish: None) -> None:
    """A Spanish table's phrases hold the host's commands in Spanish alone: an English one would be
    matched to what a player says and asked about in English ("¿Has dicho: be brief?")."""
    table = Table("dixit")
    words = {phrase.words for phrase in phrases(table.state, Names({}), adapter_for("dixit"), "es")}
    assert {"se breve", "deshaz eso", "que puedo decir"} <= words
    assert not {"be brief", "b brief", "undo", "what can i say"} & words
    assert table.hear("Be brief.") == [] and not [line for line in table.said if "brief" in line], table.said


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STORYHOST_DATA_DIR", "/nonexistent/storyhost-test")  # the bundled models only
        return open_recognizer(language="es")


@pytest.mark.slow
def test_spoken_spanish_commands_and_a_confirmation_are_heard(recognizer: Recognizer, tmp_path) -> None:
    """Chosen among those bench_commands_languages.py hears right on this voice (see its figures)."""
    with speaking(translations("es")):
        table = Table("storytelling")

        def say(text: str) -> list[Command]:
            recognizer.set_phrases(table.control.grammar(table.state))
            recognizer.reset()
            heard = finals(stream(recognizer, read_pcm(synthesize(text, tmp_path, "espeak:es"))))
            return [command for hypothesis in heard for command in table.control.hear(table.state, hypothesis)]

        assert say("más despacio") == [HostRequest("rate", "slower")]
        assert say("qué fichas están boca arriba") == [HostRequest("grid")]
        assert say("qué puedo decir") == [] and table.said[-1].startswith("Puedes decir: ")
        assert say("salir") == [] and table.said[-1] == "¿Has dicho: salir? Di sí o no."
        assert say("vale") == [HostRequest("quit")]
