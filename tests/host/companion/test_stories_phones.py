"""A whole Stories! story played from phones only, in a real browser, the laptop only listening:
the storyteller sees both sides on their phone and chooses one, everyone writes (and erases) their
terms, the storyteller starts, players tick, untick and ask questions, the storyteller calls time
and confirms. No term on another page, the table page or the printed output before the story
ends; axe-core clean on every page at every step; a renewed link stops working."""
from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import Host, Pages, axe_violations, status_of

pytestmark = pytest.mark.slow

# seed 2 deals "We were stuck in a traffic jam for five hours..." first
TERMS = {
    "Sabine": ["car", "radio", "police", "sandwich", "bag"],
    "Julian": ["brother", "truck", "pizza", "dinosaur", "horn"],
    "Julián": ["dog", "engine", "window", "music", "apple"],
}
# markup that runs a script wherever it is not escaped, and a term the referee allows (nouns in a
# row), so that it shows on its writer's list; with a digit ("alert(1)") it would be a free phrase
HOSTILE = "<img src=x onerror=alert()>"


def assert_secret(pages: Pages, host: Host, written: dict[str, list[str]]) -> None:
    """No written term on another player's page, the table page or the printed output."""
    printed = host.printed()
    screens = {name: pages.source(name) for name in pages.tabs}
    for writer, terms in written.items():
        for term in terms:
            pattern = re.compile(rf"\b{re.escape(term)}\b", re.IGNORECASE)
            assert not pattern.search(printed), f"{writer}'s term {term!r} printed"
            for name, source in screens.items():
                if name != writer:
                    assert not pattern.search(source), f"{writer}'s term {term!r} on {name}'s page"


def all_clean(pages: Pages) -> None:
    for name in pages.tabs:
        assert axe_violations(pages.show(name)) == [], name


def test_a_whole_story_from_phones_only(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", *TERMS, "--seed", "2")
    try:
        pages = Pages(browser, host.base, host.code)
        pages.show("table").get(host.base + "/")
        assert axe_violations(browser) == []
        links = {player: pages.join(player) for player in ["Nina", *TERMS]}
        assert len(set(links.values())) == 4
        pages.table()
        with urllib.request.urlopen(links["Sabine"], timeout=10) as page:  # nothing from elsewhere, no referrer there
            assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
            assert page.headers["Referrer-Policy"] == "same-origin"  # never to another site
        assert status_of(host.base + "/p/" + "x" * 32) == 403

        # the storyteller sees both sides on her phone and chooses there
        pages.wait_text("Nina", "You tell this story: read both sides of the card and choose the one you will tell.")
        assert pages.offered("Nina") == {("side", "normal"), ("side", "quirky")}
        assert "Normal: We were stuck in a traffic jam for five hours..." in pages.text("Nina")
        assert pages.offered("Sabine") == set()
        pages.wait_text("Sabine", "Nina is choosing the side of the card; then you write your 5 terms.")
        all_clean(pages)
        pages.press("Nina", "side", "normal")
        pages.wait_text("Sabine", "Write 5 terms you expect in Nina's story, secretly.")
        pages.wait_text("table", "We were stuck in a traffic jam for five hours...")

        written: dict[str, list[str]] = {player: [] for player in TERMS}
        pages.send("Sabine", "term", "the")  # refused: the reason on Sabine's page; the table hears one was refused
        pages.reply("Sabine", "Refused: 'the'.")
        host.wait_for("Sabine: one term was refused; see your phone.")
        pages.send("Julián", "term", HOSTILE)  # shown as text, on its writer's page only, and erased there
        pages.reply("Julián", f"You wrote '{HOSTILE}' (1 of 5).")
        assert pages.show("Julián").find_elements(By.CSS_SELECTOR, "img") == []
        assert "onerror" not in pages.source("Sabine") + pages.source("table") + host.printed()
        all_clean(pages)
        pages.press("Julián", "erase", HOSTILE)
        pages.reply("Julián", f"You erased '{HOSTILE}' (0 of 5).")
        for index in range(5):
            for player, terms in TERMS.items():
                pages.send(player, "term", terms[index])
                pages.reply(player, f"You wrote '{terms[index]}' ({index + 1} of 5).")
                written[player].append(terms[index])
            assert_secret(pages, host, written)
        pages.wait_text("table", "Everyone has written: Nina starts the story.")
        pages.wait_text("table", "Julián 5 of 5 terms written")
        pages.wait_text("Sabine", "Everyone has written. Waiting for Nina to start the story.")
        all_clean(pages)
        pages.show("Sabine").refresh()  # a reload shows the page as it is now
        pages.connected("Sabine")
        assert "radio: not ticked" in pages.text("Sabine")

        pages.press("Nina", "start")
        pages.wait_text("Sabine", "Listen to Nina's story and tick each of your terms you hear.")
        pages.press("Sabine", "tick", "radio")
        pages.press("Sabine", "tick", "car")
        pages.press("Julian", "tick", "truck")
        host.wait_for("Julian ticks a term.")  # from the phone of its player: the table hears it, never a count
        pages.press("Sabine", "untick", "car")
        host.wait_for("Sabine unticks a term.")
        pages.press("Julián", "question")
        host.wait_for("Julián asks a first question, which costs 1 point. Nina, answer it properly.")
        pages.wait_text("table", "Sabine 1 of 5 ticked")
        pages.wait_text("table", "Julián 0 of 5 ticked 1 question")
        pages.wait_text("Sabine", "radio: ticked")
        assert pages.offered("Sabine") >= {("tick", "car"), ("untick", "radio"), ("question", "")}
        assert_secret(pages, host, written)
        all_clean(pages)

        pages.press("Nina", "timeup")  # the terms are revealed now, by the rules
        pages.wait_text("table", "Julian: brother, truck (ticked), pizza, dinosaur, horn.")
        pages.wait_text("Julian", "The story is over. Check your ticks; then Nina confirms the score.")
        pages.press("Julian", "tick", "pizza")
        host.wait_for("Julian ticks 'pizza' (2 of 5).")
        all_clean(pages)
        pages.press("Nina", "confirm")
        host.wait_for("Points for this story: Sabine 4, Julian 8, Julián -1; Nina, the storyteller, 8.")
        pages.wait_text("Sabine", "You tell this story: read both sides of the card")  # the next storyteller
        pages.wait_text("table", "Last story: Nina 8, Sabine 4, Julian 8, Julián -1.")
        assert not [line for line in host.lines if line.startswith("> ")]  # nothing was typed at the laptop
        all_clean(pages)

        host.type("link Nina")  # Nina lost her phone: her old page is told, and the new link is never printed
        host.wait_for("Nina's link was renewed; Nina, join again at")
        pages.wait_text("Nina", "This link no longer works")
        assert status_of(links["Nina"]) == 403
    finally:
        host.close()
