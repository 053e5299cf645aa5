"""Spoken grid coordinates decided by the real default recognizer (PocketSphinx's grammar cuts
the utterance, Whisper decodes it whole) and the real dialog, on a real human voice over a
telephone line (Debian's asterisk-core-sounds-en-wav) and on festival's slt; and
`storyhost transcribe --phrases` deciding exactly as the game does."""
from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.base import Action, GameState
from host.adapters.base import adapter_for
from host.cli import transcribe
from host.speech.recognizer import Hypothesis, Recognizer
from host.speech.registry import default, open_recognizer
from host.voice.control import VoiceControl
from host.voice.phrases import Names
from tests.speech.audio import finals, read_pcm, stream, synthesize, write_pcm
from tests.voice import recordings
from tests.voice.test_voice_control import match

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def recognizer() -> Iterator[Recognizer]:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("VOSK_MODEL_PATH", raising=False)
        patch.setenv("STORYHOST_DATA_DIR", "/nonexistent/storyhost-test")  # the bundled models only
        yield open_recognizer()


@pytest.fixture(scope="module")
def human(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not recordings.available():
        pytest.fail("Allison's recordings are missing: apt-get install asterisk-core-sounds-en-wav sox")
    return tmp_path_factory.mktemp("allison")


class Table:
    """A Storytelling game in its flip phase, its dialog, and what the host said."""

    def __init__(self) -> None:
        self.state: GameState = match("storytelling").state
        self.said: list[str] = []
        self.control = VoiceControl(Names({}), self.said.append, adapter_for("storytelling"), without=frozenset({"read"}),
                                    deciding=default().deciding("en"))

    def hear(self, recognizer: Recognizer, pcm: bytes) -> tuple[list[Action], list[Hypothesis]]:
        """The actions taken at once for one utterance, and its final hypotheses."""
        grammar = self.control.grammar(self.state)
        recognizer.set_phrases(grammar)
        recognizer.reset()
        heard = finals(stream(recognizer, pcm))
        taken = [command for hypothesis in heard for command in self.control.hear(self.state, hypothesis)]
        return [command for command in taken if isinstance(command, Action)], heard


def test_a_human_c_one_is_asked_about_as_c_one_never_taken_as_d_one(recognizer, human):
    """PocketSphinx's grammar hears this "c one" as "b one" or "d one"; Whisper hears "See, one."."""
    table = Table()
    taken, heard = table.hear(recognizer, recordings.position("c", 1, human))
    assert taken == [] and table.control.question is not None, heard
    assert table.control.question.command == Action("flip", None, ("C1",))
    assert table.said[-1] == "Did you say: charlie one? Say yes or no."  # the letter spelled, as it will be played
    assert table.control.hear(table.state, Hypothesis((), True, loose="Yes.")) == [Action("flip", None, ("C1",))]


def test_a_human_d_three_is_asked_about_b_three_rhymes_with_it(recognizer, human):
    table = Table()
    taken, heard = table.hear(recognizer, recordings.position("d", 3, human))
    assert taken == [] and table.control.question is not None, heard
    assert table.control.question.command == Action("flip", None, ("D3",))


def test_a_human_a_three_is_taken_at_once(recognizer, human):
    taken, heard = Table().hear(recognizer, recordings.position("a", 3, human))
    assert taken == [Action("flip", None, ("A3",))], heard


def test_a_position_said_with_the_spelling_alphabet_is_taken_at_once(recognizer, human):
    taken, heard = Table().hear(recognizer, recordings.position("c", 2, human, alphabet=True))
    assert taken == [Action("flip", None, ("C2",))], heard
    taken, heard = Table().hear(recognizer, read_pcm(synthesize("Flip bravo three.", human)))
    assert taken == [Action("flip", None, ("B3",))], heard


def test_a_human_sentence_that_is_no_command_is_never_taken(recognizer, human):
    table = Table()
    taken, heard = table.hear(recognizer, recordings.prompt("one-moment-please", human))
    assert taken == [] and table.control.question is None, heard


def test_transcribe_phrases_decides_each_utterance_as_the_game_does(recognizer, human):
    """The same recording, the same phrases (a game's, grouped by command): the same commands,
    taken at once, asked about or dropped alike."""
    said = [recordings.position("c", 1, human), recordings.position("a", 3, human),
            recordings.position("b", 2, human, alphabet=True), recordings.prompt("please-try-again", human)]
    game = []
    for pcm in said:
        table = Table()
        taken, _ = table.hear(recognizer, pcm)
        asked = table.control.question
        game.append(f"take {taken[0]}" if taken else f"ask {asked.command}" if asked else "drop")
    table = Table()
    ways: dict[str, list[str]] = {}  # each command line -> the ways of saying it
    for phrase in table.control._phrases(table.state):
        ways.setdefault(phrase.line, []).append(phrase.words)
    line_of = {words[0]: line for line, words in ways.items()}
    audio = write_pcm(human / "four-commands.wav", b"".join(said))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert transcribe.main([str(audio), "--phrases", *("|".join(words) for words in ways.values())]) == 0
    decided = []
    for line in printed.getvalue().splitlines():
        if line.startswith("command: "):
            phrase, _, verdict = line.removeprefix("command: ").partition(": ")
            kind = {"taken at once": "take", "asked about first": "ask"}.get(verdict.split(" (")[0], "drop")
            decided.append("drop" if kind == "drop" else f"{kind} {line_of[phrase]}")
    assert decided == game
    assert game[:3] == ["ask flip C1", "take flip A3", "take flip B2"]
