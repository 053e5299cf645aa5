"""The recognizers' registry: one entry is all a recognizer needs to be offered everywhere."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from games.language import speaking
from host.cli import main as cli
from host.cli import transcribe, tick
from host.speech import registry
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.speech.recognizer import Recognizer, RecognizerError
from host.speech.registry import RecognizerKind, UnknownRecognizer
from host.storage.catalogs import translations
from nlp.commands import BY_GRAMMAR


def _plain(model: Path | None, sample_rate: int, confirming: Path | None, live: bool, language: str) -> Recognizer:
    return PocketSphinxRecognizer(sample_rate)


#: a recognizer added for the test: PocketSphinx, said to take no phrase list
PLAIN = RecognizerKind("plain", "hears stories only, with PocketSphinx", phrases=False, deciding=lambda language: BY_GRAMMAR, open=_plain,
                       models="a plain model folder")


@pytest.fixture
def added(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecognizerKind]:
    monkeypatch.setattr(registry, "RECOGNIZERS", (*registry.RECOGNIZERS, PLAIN))
    yield PLAIN


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    try:
        assert cli.main([*argv, "--help"]) == 0  # a command with a parser of its own ends with its status
    except SystemExit as done:
        assert done.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_a_recognizer_added_in_one_place_is_offered_everywhere(added, capsys):
    for command in ("play", "resume", "transcribe"):
        assert "pocketsphinx hears everything with PocketSphinx; plain hears stories only, with PocketSphinx" in _help(
            capsys, command), command
        assert "or a Vosk model folder, or a plain model folder" in _help(capsys, command), command
    demo = _help(capsys, "demo")
    assert "{whisper,vosk,pocketsphinx,plain}" in demo and "or a Vosk model folder, or a plain model folder" in demo
    assert "whisper (the default), vosk, pocketsphinx or plain" in _help(capsys, "tick")
    assert isinstance(registry.open_recognizer("plain"), PocketSphinxRecognizer)
    with pytest.raises(UnknownRecognizer, match="choose whisper or vosk or pocketsphinx or plain"):
        registry.open_recognizer("nope")


@pytest.mark.slow
def test_a_recognizer_without_phrase_lists_is_refused_for_commands(added, synthesize, capsys):
    recording = str(synthesize("Next card."))
    assert transcribe.main([recording, "--asr", "plain", "--phrases", "next card"]) == 2
    assert capsys.readouterr().err.strip() == (
        "The recognizer plain cannot listen for commands (it takes no phrase list): choose whisper or vosk or pocketsphinx."
    )
    assert transcribe.main([recording, "--asr", "plain"]) == 0
    assert capsys.readouterr().out.startswith("final: next@")


def test_the_table_is_checked():
    with pytest.raises(ValueError, match="a name of its own"):
        registry.check((*registry.RECOGNIZERS, PLAIN, PLAIN))
    with pytest.raises(ValueError, match="one lowercase word"):
        registry.check((RecognizerKind("Two words", "hears", phrases=True, deciding=lambda language: BY_GRAMMAR, open=_plain),))
    with pytest.raises(ValueError, match="what it hears"):
        registry.check((RecognizerKind("mute", "", phrases=True, deciding=lambda language: BY_GRAMMAR, open=_plain),))


def test_the_default_and_a_vosk_folder_choose_the_recognizer(tmp_path):
    assert registry.kind_of(None).name == "whisper"
    assert registry.kind_of(None, tmp_path).name == "whisper"  # a folder that holds no Vosk model
    for part in ("am/final.mdl", "conf/model.conf", "graph/HCLG.fst"):
        (tmp_path / part).parent.mkdir()
        (tmp_path / part).touch()
    assert registry.kind_of(None, tmp_path).name == registry.kind_of("vosk").name


def test_the_recognizers_refusals_are_in_the_active_language(added):
    with speaking(translations("de")):
        with pytest.raises(UnknownRecognizer) as unknown:
            registry.kind_of("nope")
        with pytest.raises(RecognizerError) as no_phrases:
            registry.takes_phrases(PLAIN)
        with pytest.raises(RecognizerError) as english_only:
            registry.open_recognizer("pocketsphinx", language="ca")
        assert registry.named() == "whisper (Standard), vosk, pocketsphinx oder plain"
    assert str(unknown.value) == ("Es gibt keine Erkennung namens 'nope': "
                                  "Wähl whisper oder vosk oder pocketsphinx oder plain.")
    assert str(no_phrases.value) == ("Die Erkennung plain kann nicht auf Befehle hören (sie nimmt keine Phrasenliste): "
                                     "Wähl whisper oder vosk oder pocketsphinx.")
    assert str(english_only.value) == "PocketSphinx hört hier nur Englisch, nicht 'ca': Nimm --asr whisper."
