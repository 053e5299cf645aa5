"""A live Stories! story with phones: three players write their terms on their own pages in a
real browser, the story is told into the virtual microphone, and the table page and the players'
pages follow the ticks; no term is on another page or in what the host printed (and so said)
before the story is told."""
from __future__ import annotations

import re
import time

import pytest

from tests.audio.test_live_round import LiveHost, narration  # noqa: F401 (a fixture)
from tests.host.companion.browser import Pages, browser, room_code  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

# Sabine's terms are all in the story (NARRATION), Stephan's some, Melanie's none
TERMS = {
    "Sabine": ["car", "radio", "police", "sandwich", "bag"],
    "Stephan": ["brother", "truck", "pizza", "dinosaur", "lemon"],
    "Melanie": ["kitten", "violin", "castle", "rainbow", "pirate"],
}


def test_terms_from_phones_ticked_from_the_microphone(pulse, feeder, narration, browser, tmp_path):
    host = LiveHost(pulse, tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "Melanie",
                    "--seed", "2", "--timer", "60", "--speech", "--input", "pulse", "--asr", "pocketsphinx",
                    "--companion", "--port", "0")
    try:
        joined = host.wait_for("Phones join at", 60)
        port = re.search(r":(\d+)/", joined)
        assert port
        pages = Pages(browser, f"http://127.0.0.1:{port.group(1)}", room_code(joined))
        for player in TERMS:
            pages.join(player)
        pages.table()
        host.type("side Nina normal")
        for player, terms in TERMS.items():
            pages.wait_text(player, "Write 5 terms you expect in Nina's story, secretly.")
            for number, term in enumerate(terms, 1):
                pages.send(player, "term", term)
                pages.reply(player, f"You wrote '{term}' ({number} of 5).")
        host.wait_for("Everyone has written 5 terms", 30)
        printed = "\n".join(host.lines)
        for player, terms in TERMS.items():
            for term in terms:
                pattern = re.compile(rf"\b{re.escape(term)}\b", re.IGNORECASE)
                assert not pattern.search(printed), term
                assert not [name for name in pages.tabs if name != player and pattern.search(pages.source(name))], term

        host.type("start")
        host.wait_for("The timer runs 60 seconds", 30)
        pages.wait_text("table", "seconds left")
        time.sleep(8)  # the storyteller waits for the host to finish reading the card
        feeder.play_file(narration)
        host.wait_for("Stop! Sabine has ticked all five terms.", 60)
        pages.wait_text("Sabine", "bag: ticked")
        pages.wait_text("table", "Sabine 5 of 5 ticked")
        pages.wait_text("table", "Melanie: kitten, violin, castle, rainbow, pirate.")  # revealed by the rules now
    finally:
        host.finish()
