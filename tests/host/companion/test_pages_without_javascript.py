"""The pages work without JavaScript (the game written into the HTML, moves as posted forms),
beside pages with it; and the table page of Storytelling and of Dixit through their steps, with
no secret on it. In a real browser, axe-core on every kind of page."""
from __future__ import annotations

import html
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from games.base import Match
from host.cli.catalog import make
from tests.host.companion.browser import Host, Pages, axe_violations, axe_violations_without_javascript
from tests.host.companion.test_dixit_phones import LEAKS
from tests.host.companion.test_shared_channel import settings
from tests.host.companion.test_stories_phones import HOSTILE, assert_secret

pytestmark = pytest.mark.slow

SABINE = ["car", "radio", "police", "sandwich", "bag"]
STEPHAN = ["brother", "truck", "pizza", "dinosaur", "horn"]


def post(url: str, data: str, origin: str | None = None) -> str:
    """A form posted as a page would, or a page elsewhere (with `origin`); the page it leads to."""
    headers = {"Origin": origin} if origin else {}
    with urllib.request.urlopen(urllib.request.Request(url, data=data.encode(), headers=headers), timeout=10) as page:
        return html.unescape(page.read().decode("utf-8"))


def test_terms_and_questions_without_javascript(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    try:
        pages = Pages(browser, host.base, host.code)
        plain = pages.without_javascript("Sabine")
        plain.get(host.base + "/")
        plain.find_element(By.ID, "code").send_keys(host.code)
        plain.find_element(By.XPATH, "//button[normalize-space()='I am Sabine']").click()
        pages.wait("Sabine", lambda: "/p/" in plain.current_url)
        link = plain.current_url
        pages.without_javascript("table").get(host.base + "/table")
        pages.join("Stephan")  # with JavaScript, in the same game

        host.type("side Nina normal")
        pages.wait_text("Stephan", "Your move: Write one of your 5 terms, secretly.")
        pages.show("Sabine").get(link)  # without JavaScript a page shows the game as it was when loaded
        assert "Your move: Write one of your 5 terms, secretly." in pages.text("Sabine")
        assert "Connect" not in pages.text("Sabine")  # no word of a connection the page never makes
        assert axe_violations_without_javascript(browser) == []

        pages.send("Sabine", "term", "the")  # posted; the page comes back with the answer
        pages.wait_text("Sabine", "Refused: 'the'.")
        assert plain.current_url == link  # post, redirect, get: a reload sends nothing again
        host.wait_for("Sabine: one term was refused; see your phone.")
        pages.send("Sabine", "term", HOSTILE)
        pages.wait_text("Sabine", f"{HOSTILE} (not ticked)")
        assert plain.find_elements(By.CSS_SELECTOR, "img") == []
        plain.find_element(By.XPATH, f"//button[normalize-space()='Erase {HOSTILE}']").click()
        pages.wait_text("Sabine", f"You erased '{HOSTILE}' (0 of 5).")

        token = link.rsplit("/", 1)[1]
        assert "Refused: 'vote' is not a command of this page" in post(link + "/send", "verb=vote&text=3")
        with pytest.raises(urllib.error.HTTPError, match="403"):  # a page elsewhere moves for nobody
            post(link + "/send", "verb=term&text=castle", origin="http://example.test")
        with pytest.raises(urllib.error.HTTPError, match="403"):
            post(host.base + "/p/" + token[:-1] + "x/send", "verb=term&text=castle")
        assert "castle" not in pages.source("Sabine")

        for sabine, stephan in zip(SABINE, STEPHAN):
            pages.send("Sabine", "term", sabine)
            pages.wait_text("Sabine", f"{sabine} (not ticked)")
            pages.send("Stephan", "term", stephan)
            pages.reply("Stephan", f"You wrote '{stephan}'")
        pages.show("table").find_element(By.LINK_TEXT, "Show the game as it is now").click()
        assert "Sabine: 5 of 5 terms written, 0 ticked." in pages.text("table")
        assert_secret(pages, host, {"Sabine": SABINE, "Stephan": STEPHAN})
        assert axe_violations_without_javascript(pages.show("table")) == []

        host.type("start")
        host.wait_for("Nina tells the story")
        pages.show("Sabine").get(link)
        pages.send("Sabine", "question")
        host.wait_for("Sabine asks")
        assert axe_violations_without_javascript(pages.show("Sabine")) == []
        assert "Connect" not in pages.text("Sabine")  # still without JavaScript
        assert axe_violations(pages.show("Stephan")) == []
    finally:
        host.close()


def test_the_storytelling_table_names_face_up_tiles_only(browser: WebDriver, tmp_path: Path) -> None:
    args = ("--players", "Marc", "Lea", "--seed", "3")
    state = Match(make("storytelling", settings("storytelling", *args))).state  # the same deal as the host's
    picture = state.view(None)["card"]["pictures"][0]
    position = state.position(state.grid.index(picture))  # type: ignore[attr-defined]
    public = state.view(None)["tale"].casefold()  # "The Legend of Saint George": a title, no tile
    hidden = [name for name in state.grid  # type: ignore[attr-defined]
              if name not in state.view(None)["card"]["pictures"] and name.casefold() not in public]
    host = Host(tmp_path, "play", "storytelling", *args)
    try:
        pages = Pages(browser, host.base, host.code)
        pages.table()
        pages.wait_text("table", "Every tile is face down.")
        host.type(f"flip {position}")
        pages.wait_text("table", f"Face up: {position} {picture}.")
        pages.wait_text("table", f"{len(state.grid) - 1} tiles face down.")  # type: ignore[attr-defined]
        source = pages.source("table")
        assert [name for name in hidden if re.search(rf"\b{re.escape(name)}\b", source, re.IGNORECASE)] == []
        assert axe_violations(browser) == []
    finally:
        host.close()


def test_the_dixit_table_through_a_turn(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--seed", "1")
    try:
        pages = Pages(browser, host.base, host.code)
        pages.table()

        def table_at(text: str) -> str:
            pages.wait_text("table", text)
            return pages.source("table")

        assert "phase: storyteller" in table_at("storyteller not chosen yet")
        host.type("storyteller Ana")
        table_at("phase: clue; storyteller Ana")
        host.type("clue Two of a kind", "shown")
        assert "The clue: Two of a kind" in table_at("phase: vote")
        for number, (voter, card) in enumerate([("Bo", 4), ("Cy", 3)], start=1):
            host.type(f"vote {voter} {card}")
            source = table_at(f"Voted: {', '.join(['Bo', 'Cy'][:number])}.")
            assert not any(leak in source for leak in LEAKS), source  # who voted, never for what
        assert axe_violations(browser) == []
        host.type("vote Di 1")  # all votes are in: the rules reveal them
        table_at("phase: reveal")
        table_at("votes from Bo")
        host.type("card 2")
        table_at("phase: owners")
        table_at("Card 2, Ana's")
        host.type("owner 1 Bo", "owner 3 Di", "owner 4 Cy")
        table_at("Turn 2, phase: clue; storyteller Bo.")
        assert axe_violations(browser) == []
    finally:
        host.close()
