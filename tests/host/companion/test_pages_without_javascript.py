"""The pages work without JavaScript (the game written into the HTML, each move a posted form),
beside pages with it, and show the same: a live page equals the same page loaded anew. Storytelling
flips from the active player's phone, the table naming the face-up tiles only. In a real browser,
axe-core on every kind of page."""
from __future__ import annotations

import html
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from games.base import Match, already_set, view_of
from games.storytelling import StorytellingView
from host.cli.catalog import make
from tests.host.companion.browser import Host, Pages, axe_violations, axe_violations_without_javascript
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


def shown(pages: Pages, name: str, selector: str) -> str:
    """The text of an element of a page, its lines joined by spaces."""
    return " ".join(pages.show(name).find_element(By.CSS_SELECTOR, selector).text.split())


def same_when_loaded_anew(pages: Pages, live: str, plain: str, link: str, selectors: tuple[str, ...]) -> None:
    """A page kept live by its script shows what the same page loaded anew without it shows."""
    pages.show(plain).get(link)
    for selector in selectors:
        assert shown(pages, live, selector) == shown(pages, plain, selector), selector


def test_moves_without_javascript_and_the_same_page_with_it(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    try:
        pages = Pages(browser, host.base, host.code)
        plain = pages.without_javascript("Sabine")
        plain.get(host.base + "/")
        plain.find_element(By.ID, "code").send_keys(host.code)
        plain.find_element(By.XPATH, "//button[normalize-space()='I am Sabine']").click()
        pages.wait("Sabine", lambda: "/p/" in plain.current_url)
        link = plain.current_url
        pages.without_javascript("table, loaded anew").get(host.base + "/table")
        pages.table()
        pages.join("Stephan")  # with JavaScript, in the same game
        pages.join("Nina")

        pages.press("Nina", "side", "normal")
        pages.wait_text("Stephan", "Write 5 terms you expect in Nina's story, secretly.")
        pages.show("Sabine").get(link)  # without JavaScript a page shows the game as it was when loaded
        assert "Write 5 terms you expect in Nina's story, secretly." in pages.text("Sabine")
        assert "Connect" not in pages.text("Sabine")  # no word of a connection the page never makes
        assert axe_violations_without_javascript(browser) == []

        pages.send("Sabine", "term", "the")  # posted; the page comes back with the answer
        pages.wait_text("Sabine", "Refused: 'the'.")
        assert plain.current_url == link  # post, redirect, get: a reload sends nothing again
        host.wait_for("Sabine: one term was refused; see your phone.")
        pages.send("Sabine", "term", HOSTILE)
        pages.wait_text("Sabine", f"{HOSTILE}: not ticked")
        assert plain.find_elements(By.CSS_SELECTOR, "img") == []
        pages.press("Sabine", "erase", HOSTILE)
        pages.wait_text("Sabine", f"You erased '{HOSTILE}' (0 of 5).")

        token = link.rsplit("/", 1)[1]
        assert "Refused: 'vote' is not a command of this page" in post(link + "/send", "verb=vote&text=3")
        assert "Refused: that is not yours to do now." in post(link + "/send", "verb=start&text=")
        with pytest.raises(urllib.error.HTTPError, match="403"):  # a page elsewhere moves for nobody
            post(link + "/send", "verb=term&text=castle", origin="http://example.test")
        with pytest.raises(urllib.error.HTTPError, match="403"):
            other = "y" if token.endswith("x") else "x"  # another link: one in 64 tokens ends in x
            post(host.base + "/p/" + token[:-1] + other + "/send", "verb=term&text=castle")
        assert "castle" not in pages.source("Sabine")

        for sabine, stephan in zip(SABINE, STEPHAN):
            pages.send("Sabine", "term", sabine)
            pages.wait_text("Sabine", f"{sabine}: not ticked")
            pages.send("Stephan", "term", stephan)
            pages.reply("Stephan", f"You wrote '{stephan}'")
        pages.wait_text("table", "Everyone has written: Nina starts the story.")
        same_when_loaded_anew(pages, "table", "table, loaded anew", host.base + "/table", ("#game", "#scores"))
        assert_secret(pages, host, {"Sabine": SABINE, "Stephan": STEPHAN})
        assert axe_violations_without_javascript(pages.show("table, loaded anew")) == []

        pages.press("Nina", "start")
        pages.wait_text("Stephan", "Listen to Nina's story")
        pages.show("Sabine").get(link)
        pages.press("Sabine", "question")
        host.wait_for("Sabine asks")
        pages.press("Sabine", "tick", "radio")
        pages.wait_text("Sabine", "radio: ticked")
        assert axe_violations_without_javascript(pages.show("Sabine")) == []
        assert "Connect" not in pages.text("Sabine")  # still without JavaScript
        pages.wait_text("table", "Sabine 1 of 5 ticked 1 question")
        same_when_loaded_anew(pages, "table", "table, loaded anew", host.base + "/table", ("#game", "#scores"))
        pages.wait_text("Stephan", "Tick a term you heard")
        stephan = pages.links["Stephan"]
        same_when_loaded_anew(pages, "Stephan", "Stephan, loaded anew", stephan, ("#todo", "#asks", "#yours", "#game"))
        assert axe_violations(pages.show("Stephan")) == []
    finally:
        host.close()


def test_a_dixit_vote_without_javascript(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    try:
        pages = Pages(browser, host.base, host.code)
        for player in ("Ana", "Cy"):
            pages.join(player)
        plain = pages.without_javascript("Bo")
        plain.get(host.base + "/")
        plain.find_element(By.ID, "code").send_keys(host.code)
        plain.find_element(By.XPATH, "//button[normalize-space()='I am Bo']").click()
        pages.wait("Bo", lambda: "/p/" in plain.current_url)
        pages.press("Ana", "storyteller")
        pages.send("Ana", "clue", "Salt and pepper")
        pages.press("Ana", "shown")
        pages.wait_text("Cy", "Vote for the card you think is Ana's")
        pages.show("Bo").refresh()
        assert [button.text for button in plain.find_elements(By.CSS_SELECTOR, "#asks .buttons.large button")] == [
            "1", "2", "3", "4", "5"]  # the 3-player variant: 5 cards shown
        assert axe_violations_without_javascript(plain) == []
        pages.press("Bo", "vote", "5")
        pages.wait_text("Bo", "You voted for card 5. You may change your vote until everyone has voted. Waiting for Cy.")
        assert plain.find_element(By.CSS_SELECTOR, "button.chosen").text == "5 ✓"
        assert axe_violations_without_javascript(plain) == []
    finally:
        host.close()


def test_storytelling_flips_from_the_active_players_phone(browser: WebDriver, tmp_path: Path) -> None:
    args = ("--players", "Marc", "Lea", "--seed", "3")
    state = Match(make("storytelling", settings("storytelling", *args))).state  # the same deal as the host's
    view = view_of(state, None, StorytellingView)
    pictures = already_set(view.card, "the card").pictures
    right = state.position(state.grid.index(pictures[0]))  # type: ignore[attr-defined]
    wrong = next(state.position(index) for index, name in enumerate(state.grid)  # type: ignore[attr-defined]
                 if name not in pictures)
    public = view.tale.casefold()  # "The Legend of Saint George": a title, no tile
    hidden = [name for name in state.grid  # type: ignore[attr-defined]
              if name not in pictures and name.casefold() not in public]
    host = Host(tmp_path, "play", "storytelling", *args)
    try:
        pages = Pages(browser, host.base, host.code)
        pages.join("Marc")
        pages.join("Lea")
        pages.table()
        pages.wait_text("table", "A B C D 1 face down face down")
        assert len(pages.offered("Marc")) == 16 and pages.offered("Lea") == set()
        pages.wait_text("Lea", "Waiting for Marc.")
        for name in ("Marc", "Lea", "table"):
            assert axe_violations(pages.show(name)) == [], name
        pages.press("Marc", "flip", right)
        pages.wait_text("table", f"{pictures[0]} (found)")
        cells = pages.show("table").find_elements(By.CSS_SELECTOR, ".grid td.tile.up")
        assert [cell.text for cell in cells] == [pictures[0]]
        assert f"{right}: {pictures[0]}" in pages.text("Marc") and (("flip", right) not in pages.offered("Marc"))
        source = pages.source("table")
        assert [name for name in hidden if re.search(rf"\b{re.escape(name)}\b", source, re.IGNORECASE)] == []
        pages.press("Marc", "flip", wrong)  # the turn ends: Lea's phone gets the tiles
        pages.wait_text("Lea", "Your turn: find the")
        assert len(pages.offered("Lea")) == 16 and pages.offered("Marc") == set()
        assert not [line for line in host.lines if line.startswith("> ")]  # nothing was typed at the laptop
        for name in ("Marc", "Lea", "table"):
            assert axe_violations(pages.show(name)) == [], name
    finally:
        host.close()
