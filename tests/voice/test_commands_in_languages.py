"""Spoken commands at a Spanish table: numbers, letters and answers from the catalog, moves said
as they are typed in Spanish, the dialog's questions in Spanish; and, through the real path of a
game in Spanish, Catalan or German (Whisper's multilingual base forced to the language, each
command decoded whole), host commands and a yes/no confirmation spoken by espeak-ng's voice of
the language or festival's Catalan ona."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.base import Action, GameState
from games.language import _, speaking
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
    """A game at a table in `language` (Spanish by default), its dialog in it, and what the host said."""

    def __init__(self, game: str, state: GameState | None = None, language: str = "es") -> None:
        self.state = state or match(game).state
        self.said: list[str] = []
        self.control = VoiceControl(Names({}), self.said.append, adapter_for(game), without=frozenset({"read"}),
                                    deciding=default().deciding(language), language=language)

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


def test_a_dixit_move_is_said_in_spanish_words_alone(spanish: None) -> None:
    """The ways of saying a Dixit move at a Spanish table are Spanish ("Leo votó la cuatro"):
    no English one ("leo voted cuatro") is a rival to what a player says."""
    table = Table("dixit")
    table.state.apply(Action("storyteller", "Nina"))
    assert table.hear("La frase es un largo viaje.") == [] and table.said[-1].startswith("He oído: un largo viaje.")
    clue = table.hear("Sí.")
    assert clue == [Action("clue", None, ("un largo viaje",))]
    table.state.apply(clue[0])
    words = {phrase.words for phrase in phrases(table.state, Names({}), adapter_for("dixit"), "es")}
    assert {"cartas colocadas", "las cartas estan colocadas"} <= words and "cards shown" not in words
    table.state.apply(Action("shown"))
    words = {phrase.words for phrase in phrases(table.state, Names({}), adapter_for("dixit"), "es")}
    assert {"leo voto la cuatro", "vota leo cuatro"} <= words
    assert not [way for way in words if re.search(r"\bvote[sd]?\b|\bthe\b", way)], sorted(words)
    assert table.hear("Leo votó la cuatro.") == [Action("vote", "Leo", ("4",))]


#: per language, a voice and what a player says at a Storytelling table: two host commands taken at
#: once, "what can I say", "quit" (which is asked about) and a yes. Chosen among those
#: tests/benchmarks/bench_commands_languages.py hears right on that voice (see its figures).
SPOKEN = {
    "es": ("espeak:es", (("más despacio", HostRequest("rate", "slower")),
                         ("qué fichas están boca arriba", HostRequest("grid"))), "qué puedo decir", "salir", "vale"),
    "ca": ("ona", (("més a poc a poc", HostRequest("rate", "slower")),
                   ("quines fitxes estan cap per amunt", HostRequest("grid"))), "què puc dir", "sortir", "d'acord"),
    "de": ("espeak:de", (("punktestand", HostRequest("score")),
                         ("welche plättchen liegen offen", HostRequest("grid"))), "was kann ich sagen", "beenden",
           "ja"),
}


@pytest.fixture(scope="module", params=sorted(SPOKEN))
def recognizer(request: pytest.FixtureRequest) -> Iterator[tuple[str, Recognizer]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STORYHOST_DATA_DIR", "/nonexistent/storyhost-test")  # the bundled models only
        yield request.param, open_recognizer(language=request.param)


@pytest.mark.slow
def test_spoken_commands_and_a_confirmation_are_heard(recognizer: tuple[str, Recognizer], tmp_path) -> None:
    language, heard_by = recognizer
    voice, taken, help_asked, quit_said, yes = SPOKEN[language]
    with speaking(translations(language)):
        table = Table("storytelling", language=language)

        def say(text: str) -> list[Command]:
            heard_by.set_phrases(table.control.grammar(table.state))
            heard_by.reset()
            heard = finals(stream(heard_by, read_pcm(synthesize(text, tmp_path, voice))))
            return [command for hypothesis in heard for command in table.control.hear(table.state, hypothesis)]

        asked = _("Did you say: {phrase}? Say yes or no.").split("{")[0]
        for text, command in taken:  # right in the end, as bench_commands.py counts: at once, or asked and confirmed
            heard = say(text)
            if not heard and table.said[-1].startswith(asked):  # espeak's German "punktestand": "Bunk distant."
                heard = say(yes)
            assert heard == [command], (text, table.said)
        assert say(help_asked) == [] and table.said[-1].startswith(_("You can say: {phrases}.").split("{")[0])
        assert say(quit_said) == [] and table.said[-1] == _("Did you say: {phrase}? Say yes or no.").format(
            phrase=quit_said)
        assert say(yes) == [HostRequest("quit")]
