"""A human storyteller reads a Storytelling card aloud in the game's language: the host listens
for the card in that language (the tale's words in it, matched by their spelling) and answers in
it."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from games.decks import Tale
from games.language import speaking
from host.adapters.base import adapter_for
from host.adapters.card_reading import CardReading
from host.adapters.listening import Hearing
from host.storage.catalogs import translations
from host.storage.decks import load_tale
from host.storage.store import GameStore
from tests.host.test_spoken_news import Scripted, said, storytelling_session

SETTINGS = {"players": ["Marc", "Lea"], "seed": 11, "tale": asdict(load_tale("cinderella")), "advanced": False,
            "clock_steps": 12, "track_length": 16, "storyteller": "human", "language": "es"}


def test_the_card_reader_listens_in_the_game_language() -> None:
    listeners = adapter_for("storytelling").listeners(SETTINGS, Hearing(speech=True))
    reading = next(listener for listener in listeners if isinstance(listener, CardReading))
    assert reading.language == "es"
    assert reading.texts[1].startswith("Todos los días, de la mañana a la noche, Cenicienta barría")


def test_a_spanish_card_read_aloud_is_known_and_another_one_asked_about_in_spanish(tmp_path: Path) -> None:
    texts = {card.number: card.text for card in Tale.of_game(SETTINGS).cards}
    printed: list[str] = []
    with speaking(translations("es")), GameStore(tmp_path / "games.sqlite3") as store:
        game, session, on_top = storytelling_session(store, SETTINGS, printed, CardReading(texts, "es"))
        other = next(number for number in texts if number != on_top)
        session.run(Scripted([said(texts[other].lower())]))
        assert store.actions(game) == []
    assert f"Narrador, lee en voz alta la carta {on_top}, por favor." in printed
    assert any(line.startswith(f"Esa era la carta {other}, no la carta {on_top} de arriba del montón. "
                               f"¿Juegas la carta {other}?") for line in printed), printed
