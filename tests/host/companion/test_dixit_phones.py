"""Dixit votes cast from phones in a real browser, the storyteller's card entered on theirs; the
host killed with SIGKILL and resumed keeps every link; malformed messages are refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import Host, Pages, axe_violations, free_port

pytestmark = pytest.mark.slow

PLAYERS = ["Ana", "Bo", "Cy", "O'Hara"]
#: what a leaked vote would look like on a screen that is not the voter's
LEAKS = ("Your vote", "voted for card", "votes from")


def assert_votes_secret(pages: Pages, host: Host, voters: list[str]) -> None:
    printed = host.printed()
    assert not any(leak in printed for leak in LEAKS), printed
    for name in pages.tabs:
        if name not in voters:
            source = pages.source(name)
            assert not any(leak in source for leak in LEAKS), f"a vote on {name}'s page"


def raw_message(driver: WebDriver, data: str) -> str:
    """Send `data` over a socket of the page in view, as a broken or hostile page might; the reply."""
    reply: str = driver.execute_async_script(
        """var done = arguments[arguments.length - 1];
        var socket = new WebSocket("ws://" + location.host + document.body.dataset.socket);
        socket.onopen = function () { socket.send(arguments[0]); }.bind(null, arguments[0]);
        socket.onmessage = function (event) {
          var message = JSON.parse(event.data);
          if (typeof message.reply === "string") { socket.close(); done(message.reply); }
        };""",
        data,
    )
    return reply


def test_votes_from_phones_and_resume_after_kill(browser: WebDriver, tmp_path: Path) -> None:
    port = free_port()
    host = Host(tmp_path, "play", "dixit", "--players", *PLAYERS, "--seed", "1", port=port)
    try:
        pages = Pages(browser, host.base, host.code)
        links = {player: pages.join(player) for player in PLAYERS}
        pages.table()
        host.type("storyteller Ana", "clue Two of a kind", "shown")
        pages.wait_text("Bo", "Your move: A player's secret vote")
        assert axe_violations(pages.show("Bo")) == []

        pages.send("Bo", "vote", "4")
        pages.reply("Bo", "You voted for card 4.")
        pages.wait_text("Bo", "Your vote: card 4.")
        pages.wait_text("table", "Voted: Bo.")
        assert_votes_secret(pages, host, ["Bo"])

        pages.send("Cy", "vote", "9")  # no such card: the reason on Cy's page, the table hears one was refused
        pages.reply("Cy", "Refused: '9'.")
        host.wait_for("Cy: one vote was refused; see your phone.")
        cy = pages.show("Cy")
        assert raw_message(cy, "not json").startswith("Refused: that message is not JSON")
        assert raw_message(cy, json.dumps(["vote", "3"])).startswith("Refused: a command is an object")
        assert raw_message(cy, json.dumps({"verb": "term", "text": "x"})).startswith("Refused: 'term' is not a command")
        assert raw_message(cy, json.dumps({"verb": "card", "text": "2"})) == "Refused: only the storyteller sends 'card', so nothing was done."
        assert raw_message(cy, json.dumps({"verb": "vote", "text": "3\x07"})).startswith("Refused: that has control")
        pages.send("Cy", "vote", "3")  # the game goes on
        pages.reply("Cy", "You voted for card 3.")
        assert_votes_secret(pages, host, ["Bo", "Cy"])

        host.type("private Bo")
        host.wait_for("Bo: your secrets are on your phone.")
        assert_votes_secret(pages, host, ["Bo", "Cy"])

        host.kill()
        pages.wait_text("Bo", "Connection to the host lost")
        host = Host(tmp_path, "resume", "1", port=port)
        for player in PLAYERS:
            pages.connected(player)  # each page came back by itself, on the same link
        pages.connected("table")
        pages.show("Cy").get(links["Cy"])  # and a reload of a link shows the game as it is
        pages.wait_text("Cy", "Your vote: card 3.")
        pages.wait_text("Bo", "Your vote: card 4.")
        assert "Bo has joined." in pages.show("table").execute_script(
            "return fetch('/', {credentials: 'omit'}).then(function (r) { return r.text(); })"  # as another phone sees it
        )

        pages.send("O'Hara", "vote", "1")
        pages.reply("O'Hara", "You voted for card 1.")
        pages.wait_text("Ana", "Your move: After the vote: the number of the storyteller's card.")
        pages.wait_text("table", "votes from Bo")  # all votes are in: the rules reveal them
        assert axe_violations(pages.show("Ana")) == []
        pages.send("Ana", "card", "2")
        pages.wait_text("table", "Card 2, Ana's")
        host.type("owner 1 Bo", "owner 3 O'Hara", "owner 4 Cy")
        pages.wait_text("table", "Turn 2")
        pages.wait_text("O'Hara", "Turn 2")
        assert axe_violations(pages.show("table")) == []
    finally:
        host.close()
