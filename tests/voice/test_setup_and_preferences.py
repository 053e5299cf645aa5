"""Setting up a voice game: players' names the recognizer can hear, remembered preferences,
and a human storyteller's card recognised."""
from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from games.base import Match
from host.storage import preferences
from host.adapters.card_reading import CardReading
from host.cli.catalog import make
from host.storage.decks import load_tale
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from host.voice.names import CallError, parse_calls, spoken_names
from tests.host.cli_helpers import run_storyhost


@pytest.fixture(scope="module")
def recognizer() -> PocketSphinxRecognizer:
    return PocketSphinxRecognizer()


def test_names_it_knows_are_used_and_accents_dropped(recognizer) -> None:
    told: list[str] = []
    names = spoken_names(["Julián", "Leo"], recognizer, {}, told.append)
    assert (names("Julián"), names("Leo")) == ("julian", "leo") and told == []


def test_a_name_it_cannot_know_is_reported_with_the_word_used_instead(recognizer) -> None:
    told: list[str] = []
    names = spoken_names(["Matilde", "Leo"], recognizer, {}, told.append)
    assert recognizer.knows(names("Matilde")) and names("Matilde").startswith("m")
    assert told == [
        f"The speech recognizer does not know the name Matilde: by voice, call Matilde '{names('Matilde')}' "
        "(or choose another word with --call Matilde=WORD)."
    ]


def test_a_chosen_word_must_be_known_and_distinct(recognizer) -> None:
    assert spoken_names(["Matilde"], recognizer, parse_calls(["matilde=Tilly"], ["Matilde"]), print)("Matilde") == "tilly"
    assert parse_calls(["Julian=Hulian"], ["Julián", "Leo"]) == {"Julián": "Hulian"}  # a name typed without its accent
    with pytest.raises(CallError, match="does not know the word 'Xqzt' either"):
        spoken_names(["Matilde"], recognizer, {"Matilde": "Xqzt"}, print)
    with pytest.raises(CallError, match="would both be called 'leo'"):
        spoken_names(["Leo", "Matilde"], recognizer, {"Matilde": "Leo"}, print)
    with pytest.raises(CallError, match="a player's name, '=', and the word"):
        parse_calls(["Nobody=Anna"], ["Matilde"])


def test_preferences_are_remembered_and_a_broken_file_is_reported(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path))
    assert preferences.load() == (preferences.Preferences(), None)
    chosen = preferences.Preferences("brief", 200)
    assert preferences.save(chosen) is None
    assert preferences.load() == (chosen, None)
    (tmp_path / "preferences.json").write_text("{not json", encoding="utf-8")
    loaded, trouble = preferences.load()
    assert loaded == preferences.Preferences() and "Could not read the preferences" in trouble


def test_rate_and_verbosity_commands_are_saved_for_the_next_game(tmp_path) -> None:
    config = tmp_path / "config"
    script = "verbosity detailed\nrate faster\nrate faster\nrate 9000\nverbosity chatty\nflip A1\nquit\n"
    result = run_storyhost(tmp_path, "play", "storytelling", "--players", "Marc", "--seed", "1", stdin=script)
    assert "Verbosity detailed." in result.stdout and "Speech rate 225 words a minute." in result.stdout
    assert "A speech rate of 9000 words a minute cannot be understood" in result.stdout
    assert "Say verbosity brief, verbosity normal or verbosity detailed." in result.stdout
    # detailed: the state of the game follows the news of a move
    after_flip = result.stdout.split("> flip A1\n", 1)[1].split("> quit")[0].splitlines()
    assert after_flip[0].startswith("A1: ") and after_flip[-1].startswith("Card 2 is read.")
    assert len(after_flip) == 7  # the news once (with the tiles turned back), then the state
    assert json.loads((config / "preferences.json").read_text()) == {"verbosity": "detailed", "rate": 225, "language": "en"}


def test_a_human_storytellers_card_is_recognised_from_what_is_heard() -> None:
    tale = load_tale("saint-george")
    settings = {"players": ["Marc", "Lea"], "seed": 3, "tale": asdict(tale), "advanced": False,
                "clock_steps": 12, "track_length": 16, "storyteller": "human"}
    state = Match(make("storytelling", settings)).state
    cards = {card.number: card.text for card in tale.cards}
    reading = CardReading(cards)
    assert reading.waiting(state)
    assert reading.begin(state, "Marc, find 2 pictures.") == "Storyteller, please read card 1 aloud."
    half = cards[1].split()
    assert reading.recognise(state, " ".join(half[: len(half) // 2])).number in (None, 1)
    assert reading.recognise(state, " ".join(half[len(half) // 2:])).number == 1
    assert reading.confirm(state) == ["Card 1.", "Marc, find 2 pictures."]
    assert not reading.waiting(state)
    other = CardReading(cards)
    assert other.recognise(state, cards[5]).number == 5 and other.recognise(state, "").expected == 1


def test_a_reading_heard_through_without_a_sure_card_is_asked_about() -> None:
    tale = load_tale("saint-george")
    settings = {"players": ["Marc"], "seed": 3, "tale": asdict(tale), "advanced": False,
                "clock_steps": 12, "track_length": 16, "storyteller": "human"}
    state = Match(make("storytelling", settings)).state
    cards = {card.number: card.text for card in tale.cards}
    reading = CardReading(cards)
    reading.begin(state, "Marc, find 1 picture.")
    opening = " ".join(cards[4].split()[:3])  # "When the last", then words the recognizer made up
    first = reading.recognise(state, opening)
    assert (first.number, first.guess) == (None, None)  # not yet as long as the card
    through = reading.recognise(state, " ".join(["the"] * len(cards[4].split())))
    assert (through.number, through.guess) == (None, 4)
    assert reading.heard == []  # after a "no" the reading is heard afresh
