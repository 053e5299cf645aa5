"""A whole Dixit turn played from phones only, in a real browser, the laptop only listening: the
storyteller claimed, the clue, "cards shown", the votes as numbered buttons (one changed), the
storyteller's card, the one owner the score needs. Players named like a filler word ("An") and
accent twins ("Julian", "Julián"); a phone's message naming another player is refused there. No
vote on the table page, another page or the printed output before all are in; axe-core clean on
every page at every step; the host killed with SIGKILL and resumed keeps every link."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import Host, Pages, axe_violations, free_port

pytestmark = pytest.mark.slow

PLAYERS = ["Ana", "An", "Julian", "Julián"]
#: what a leaked vote would look like on a screen that is not the voter's
LEAKS = ("Your vote", "voted for card", "your vote to card", "vote stays", "votes:", "1 vote", "2 votes")


def assert_votes_secret(pages: Pages, host: Host, voters: list[str]) -> None:
    printed = host.printed()
    assert not any(leak in printed for leak in LEAKS), printed
    for name in pages.tabs:
        if name not in voters:
            source = pages.source(name)
            assert not any(leak in source for leak in LEAKS), f"a vote on {name}'s page"


def raw_message(driver: WebDriver, data: str) -> str:
    """Send `data` over a socket of the page in view, as a broken or hostile page might; the reply
    (a refusal from the server, or the next message for this player from the session)."""
    reply: str = driver.execute_async_script(
        """var done = arguments[arguments.length - 1], data = arguments[0], first = true;
        var socket = new WebSocket("ws://" + location.host + document.body.dataset.socket);
        socket.onopen = function () { socket.send(data); };
        socket.onmessage = function (event) {
          var message = JSON.parse(event.data);
          if (typeof message.reply === "string") { socket.close(); done(message.reply); return; }
          if (first) { first = false; return; }  // the screen as it was: the answer comes after
          var replies = message.replies || [];
          socket.close();
          done(replies.length ? replies[replies.length - 1][1] : "");
        };""",
        data,
    )
    return reply


def all_clean(pages: Pages) -> None:
    for name in pages.tabs:
        assert axe_violations(pages.show(name)) == [], name


def test_a_whole_turn_from_phones_only(browser: WebDriver, tmp_path: Path) -> None:
    port = free_port()
    host = Host(tmp_path, "play", "dixit", "--players", *PLAYERS, "--seed", "1", port=port)
    try:
        pages = Pages(browser, host.base, host.code)
        links = {player: pages.join(player) for player in PLAYERS}
        pages.table()
        pages.wait_text("table", "the first to find one is the storyteller")
        assert {pages.show(name).find_element(By.TAG_NAME, "html").get_attribute("lang") for name in pages.tabs} == {"en"}
        all_clean(pages)

        pages.press("Ana", "storyteller")
        pages.wait_text("table", "Turn 1: Ana is the storyteller")
        assert pages.offered("An") == set()  # the claim went to Ana; An has nothing to do now
        pages.wait_text("An", "Waiting for Ana's clue.")
        pages.send("Ana", "clue", "Two of a kind")
        pages.wait_text("table", "Two of a kind")
        pages.wait_text("Julian", "Give Ana one card from your hand that fits the clue")
        all_clean(pages)
        pages.press("Ana", "shown")

        pages.wait_text("An", "Vote for the card you think is Ana's: press its number.")
        buttons = pages.show("An").find_elements(By.CSS_SELECTOR, "#asks .buttons.large button")
        assert [button.text for button in buttons] == ["1", "2", "3", "4"]
        assert [button.get_attribute("aria-label") for button in buttons][0] == "Vote for card 1"
        all_clean(pages)
        pages.press("An", "vote", "4")
        pages.reply("An", "You voted for card 4.")
        pages.wait_text("table", "Voted so far: An.")
        pages.press("Julian", "vote", "3")
        pages.reply("Julian", "You voted for card 3.")
        pages.press("Julian", "vote", "2")  # changed before all are in
        pages.reply("Julian", "You changed your vote to card 2.")
        pages.wait_text("Julian", "You voted for card 2. You may change your vote until everyone has voted.")
        host.wait_for("Julian voted again (2 of 3 have voted).")
        assert_votes_secret(pages, host, ["An", "Julian"])

        # messages no page offers, naming another player, are refused on the sender's phone only
        julian = pages.show("Julian")
        for forged in ({"verb": "vote", "text": "Julián 4"}, {"verb": "vote", "text": "4 Julián"},
                       {"verb": "owner", "text": "1"}, {"verb": "card", "text": "2"}, {"verb": "clue", "text": "An"}):
            assert raw_message(julian, json.dumps(forged)).startswith("Refused: that is not yours to do now."), forged
        assert raw_message(julian, json.dumps({"verb": "term", "text": "x"})).startswith("Refused: 'term' is not a command")
        assert raw_message(julian, "not json").startswith("Refused: that message is not JSON")
        assert pages.show("Julián").find_element(By.ID, "replies").text == ""  # nothing reached Julián
        printed = host.printed()
        assert "not yours" not in printed and "Refused" not in printed

        host.kill()  # and resumed: every page comes back by itself, on the same link
        pages.wait_text("An", "Connection to the host lost")
        host = Host(tmp_path, "resume", "1", port=port)
        for name in pages.tabs:
            pages.connected(name)
        pages.show("Julian").get(links["Julian"])
        pages.connected("Julian")
        pages.wait_text("Julian", "Your vote: card 2.")

        pages.press("Julián", "vote", "4")  # the last vote: all are in, the rules reveal them
        pages.wait_text("table", "2 votes: An and Julián")
        pages.wait_text("Ana", "All votes are in. Which card is yours? Press its number.")
        assert pages.offered("Julian") == set()  # no vote can change now
        all_clean(pages)
        pages.press("Ana", "card", "2")
        # only card 4 got votes besides Ana's: its owner is the only one asked; An and Julián voted for it
        pages.wait_text("Julian", "Did you give card 4?")
        pages.wait_text("An", "Waiting to hear who gave card 4.")
        assert pages.offered("Julian") == {("owner", "4")} and pages.offered("An") == set()
        all_clean(pages)
        pages.press("Julian", "owner", "4")
        pages.wait_text("table", "Turn 2: An is the storyteller")
        pages.wait_text("table", "Only Julian found Ana's card, so Ana and Julian score 3. Votes for their cards: Julian 2.")
        scores = pages.show("table").find_elements(By.CSS_SELECTOR, "#scores tbody tr")
        assert [row.text for row in scores] == ["Julian 5", "Ana 3", "An 0", "Julián 0"]
        assert not [line for line in host.lines if line.startswith("> ")]  # nothing was typed at the laptop
        all_clean(pages)
    finally:
        host.close()
