"""A Stories! story with the terms written on three players' phones, in a real browser: the
table page follows, and no term is on another page, the table page or the printed output before
the story ends."""
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
    "Stephan": ["brother", "truck", "pizza", "dinosaur", "horn"],
    "Melanie": ["dog", "engine", "window", "music", "apple"],
}
HOSTILE = "<img src=x onerror=alert(1)>"


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


def test_terms_written_on_phones(browser: WebDriver, tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "Melanie", "--seed", "2")
    try:
        pages = Pages(browser, host.base, host.code)
        pages.show("table").get(host.base + "/")
        assert axe_violations(browser) == []
        links = {player: pages.join(player) for player in ["Nina", *TERMS]}
        assert len(set(links.values())) == 4
        assert axe_violations(pages.show("Sabine")) == []
        pages.table()
        assert axe_violations(browser) == []

        with urllib.request.urlopen(links["Sabine"], timeout=10) as page:  # nothing from elsewhere, no referrer there
            assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
            assert page.headers["Referrer-Policy"] == "same-origin"  # never to another site
        assert status_of(host.base + "/p/" + "x" * 32) == 403
        assert status_of(host.base + "/p/") == 403
        assert status_of(host.base + "/ws/p/" + links["Sabine"].rsplit("/", 1)[1] + "x") == 403

        host.type("side Nina normal")
        pages.wait_text("Sabine", "Your move: Write one of your 5 terms, secretly.")
        assert not browser.find_element(By.CSS_SELECTOR, "form[data-verb='term']").get_attribute("hidden")
        assert axe_violations(browser) == []

        written: dict[str, list[str]] = {player: [] for player in TERMS}
        # a refused term: the reason with the term on the writer's page only; the table hears that one was refused
        pages.send("Sabine", "term", "the")
        pages.reply("Sabine", "Refused: 'the'.")
        host.wait_for("Sabine: one term was refused; see your phone.")
        # a term with HTML in it is shown as text, on its writer's page only, and erased there
        pages.send("Melanie", "term", HOSTILE)
        pages.reply("Melanie", f"You wrote '{HOSTILE}' (1 of 5).")
        pages.wait_text("Melanie", f"{HOSTILE} (not ticked)")
        assert pages.show("Melanie").find_elements(By.CSS_SELECTOR, "img") == []
        assert "onerror" not in pages.source("Sabine") + pages.source("table") + host.printed()
        pages.show("Melanie").find_element(By.XPATH, f"//button[normalize-space()='Erase {HOSTILE}']").click()
        pages.reply("Melanie", f"You erased '{HOSTILE}' (0 of 5).")

        for index in range(5):
            for player, terms in TERMS.items():
                pages.send(player, "term", terms[index])
                pages.reply(player, f"You wrote '{terms[index]}' ({index + 1} of 5).")
                written[player].append(terms[index])
                assert_secret(pages, host, written)
        pages.wait_text("table", "Melanie: 5 of 5 terms written, 0 ticked.")

        # a reload shows the page as it is now
        pages.show("Sabine").refresh()
        pages.connected("Sabine")
        assert "radio (not ticked)" in browser.find_element(By.ID, "terms").text

        host.type("start")
        pages.wait_text("Sabine", "Interrupt the story with a question")
        pages.send("Sabine", "question")
        host.wait_for("Sabine asks")
        host.type("say Dad turned on the radio, and the car was hot.", "say The police came in a big truck.")
        pages.wait_text("table", "Sabine: 5 of 5 terms written, 3 ticked, 1 question.")
        pages.wait_text("Sabine", "radio (ticked)")
        assert_secret(pages, host, {player: [t for t in terms if t not in ("radio", "car", "police", "truck")]
                                    for player, terms in written.items()})
        for name in ("Sabine", "table"):
            assert axe_violations(pages.show(name)) == []

        host.type("timeup")  # the terms are revealed now, by the rules
        pages.wait_text("table", "Terms: brother, truck (ticked), pizza, dinosaur, horn.")
        host.type("confirm")
        pages.wait_text("Sabine", "Your move, said or typed at the table.")  # the next storyteller
        assert "Sabine: " in pages.text("table")

        host.type("link Nina")  # Nina lost her phone: her old page is told, and the new link is never printed
        host.wait_for("Nina's link was renewed; Nina, join again at")
        pages.wait_text("Nina", "This link no longer works")
        assert status_of(links["Nina"]) == 403
    finally:
        host.close()
