"""Dixit with a deck told in words, played to its end by the rulebook from phones in a real
browser (a group's own deck file with pictures, short so the game is too: 4 players, 2 turns; 3
players, 1 turn), the laptop only listening and the table page following. Each player reads their
hand on their page; the storyteller picks a card and writes the clue (or gives it aloud), the
others give theirs (one taken back and given again), the cards are read at the table and listed on
every page, the votes are buttons (one changed). After every step every page and every printed
line is checked: no hand but a page's own, no owner and no vote of the cards laid out before the
last vote reveals them. axe-core clean on the hand pages. The host killed with SIGKILL in the
middle of a vote and resumed: every hand, the table's cards and the votes come back exactly."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.host.companion.browser import Host, Pages, axe_violations, free_port
from tests.host.companion.test_described_deck import OWNED, VOTE_WORDS, group_deck

pytestmark = pytest.mark.slow


def hand(pages: Pages, player: str) -> list[tuple[str, str, str]]:
    """The cards of `player`'s hand as their page shows them: title, description, the value its
    moves send."""
    driver = pages.show(player)
    cards = []
    for item in driver.find_elements(By.CSS_SELECTOR, "#hand > li"):
        cards.append((item.find_element(By.TAG_NAME, "h3").text, item.find_element(By.CSS_SELECTOR, "p.text").text,
                      str(item.get_attribute("data-value"))))
    return cards


def last_replies(pages: Pages) -> list[str]:
    """The last two messages for the player of the page in view (the card given, and with the
    last card in, which of the cards laid out is theirs)."""
    return pages.driver.find_element(By.ID, "replies").text.splitlines()[-2:]


def laid_out(pages: Pages, name: str) -> list[str]:
    """The cards laid out this turn as a page lists them: 'Card 1: title' and the description."""
    return [" ".join(item.text.split()) for item in pages.show(name).find_elements(By.CSS_SELECTOR, "#game li.card")]


class Secrets:
    """The hands as each player's own page shows them, checked after every step against every
    other page and what the host printed."""

    def __init__(self, pages: Pages, host: Host, players: list[str]) -> None:
        self.pages, self.host, self.players = pages, host, players
        self.hands: dict[str, list[tuple[str, str, str]]] = {}

    def read_hands(self) -> None:
        for player in self.players:
            self.pages.wait(player, lambda: bool(self.pages.driver.find_elements(By.CSS_SELECTOR, "#hand > li")))
            self.hands[player] = hand(self.pages, player)

    def check(self, laid: list[str] = (), votes: dict[str, int] | None = None) -> None:
        """No card of a hand (nor one given and not laid out yet) off its owner's page or in the
        printed lines; while `laid` (this turn's titles) are voted on, no owner or vote of them."""
        printed = self.host.printed()
        sources = {name: self.pages.source(name) for name in self.pages.tabs}
        for owner, cards in self.hands.items():
            for title, text, _ in cards:
                if title in laid:
                    continue
                assert text not in printed, f"{owner}'s card printed: {text}"
                assert [name for name, source in sources.items() if text in source] == [owner], f"{owner}'s {title}"
        if votes is None:
            return
        since = printed[max(printed.rfind("All cards are in."), 0):]  # a resumed host says all it says after it
        assert not OWNED.search(since) and not any(word in since for word in VOTE_WORDS), since
        assert not re.search(r"^Your card", printed, re.MULTILINE)
        for name in self.pages.tabs:
            driver = self.pages.show(name)
            for item in driver.find_elements(By.CSS_SELECTOR, "#game li.card"):
                if any(title in item.text for title in laid):  # no owner, no vote on this turn's cards
                    assert not item.find_elements(By.CSS_SELECTOR, ".owner, .votes"), item.text
            shown_votes = re.findall(r"Your vote: card (\d)", sources[name])
            assert shown_votes == ([str(votes[name])] if name in votes else []), name


def play_turn(pages: Pages, host: Host, secrets: Secrets, teller: str, players: list[str], turn: int,
              aloud: bool = False, kill_at_vote: int | None = None, data: Path | None = None) -> tuple[Host, Pages]:
    """One turn from the phones: the storyteller's card and clue, the others' cards, the votes;
    with `kill_at_vote`, the host (its saved games in `data`) is killed after that many votes and
    resumed."""
    voters = [player for player in players if player != teller]
    given = 1 if len(players) > 3 else 2
    secrets.read_hands()
    secrets.check()
    pages.press(teller, "pick", secrets.hands[teller][1][2])
    pages.wait_text(teller, f"Your card: {secrets.hands[teller][1][0]}.")
    secrets.check()
    if aloud:
        pages.press(teller, "aloud")
        pages.wait_text("table", "Given aloud at the table.")
    else:
        pages.send(teller, "clue", f"Clue of turn {turn}")
        pages.wait_text("table", f"Clue of turn {turn}")
    secrets.check()
    for number, voter in enumerate(voters):
        pages.wait_text(voter, "Give this card")
        cards = secrets.hands[voter]
        if number == 0:  # given, taken back, given again
            pages.press(voter, "give", cards[0][2])
            pages.press(voter, "take", cards[0][2])
            pages.wait_text(voter, f"You took back {cards[0][0]}.")
        for card in cards[:given]:
            pages.press(voter, "give", card[2])
            pages.wait(voter, lambda: any(line.startswith("You gave") and card[0] in line for line in last_replies(pages)))
        if number < len(voters) - 1:  # the last card in lays them out: checked below, with them
            secrets.check()
    host.wait_for(f"The {len(voters) * given + 1} cards, in order:")
    pages.wait_text("table", "Vote in secret for")
    laid = [line.split(": ", 1)[0].split(", ", 1)[1] for line in host.lines if re.match(r"Card \d+, ", line)][-(len(voters) * given + 1):]
    for name in pages.tabs:  # every page lists the cards laid out, in order
        pages.wait(name, lambda: len(laid_out(pages, name)) == len(laid))
        assert [card.split(": ", 1)[1].split(" A ")[0] for card in laid_out(pages, name)] == laid, name
    votes: dict[str, int] = {}
    secrets.check(laid, votes)
    for name in (voters[0], "table"):  # a hand page and the table, with the cards laid out
        assert axe_violations(pages.show(name)) == [], name
    for number, voter in enumerate(voters):
        if kill_at_vote is not None and number == kill_at_vote:
            assert data is not None
            host, pages = killed_and_resumed(host, pages, secrets, laid, votes, data)
        offered = [value for verb, value in pages.offered(voter) if verb == "vote"]
        choice = sorted(offered)[number % len(offered)]
        if number == 0:  # changed until all are in
            other = next(value for value in offered if value != choice)
            pages.press(voter, "vote", other)
            pages.reply(voter, f"You voted for card {other}.")
        pages.press(voter, "vote", choice)
        pages.reply(voter, f"card {choice}.")
        votes[voter] = int(choice)
        if number < len(voters) - 1:
            secrets.check(laid, votes)
    host.wait_for(f"Scores: ")
    return host, pages


def killed_and_resumed(host: Host, pages: Pages, secrets: Secrets, laid: list[str],
                       votes: dict[str, int], data: Path) -> tuple[Host, Pages]:
    """kill -9 in the middle of the vote, then `resume`: the open pages come back by themselves
    with every hand, the cards laid out and each vote as they were."""
    before = {name: (hand(pages, name) if name != "table" else [], laid_out(pages, name),
                     pages.show(name).find_element(By.ID, "yours").text if name != "table" else "")
              for name in pages.tabs}
    port = host.base.rsplit(":", 1)[1]
    host.kill()
    for name in pages.tabs:
        pages.wait_text(name, "Connection to the host lost")
    host = Host(data, "resume", "1", port=int(port))
    for name in pages.tabs:
        pages.connected(name)
    for name, (cards, table, yours) in before.items():
        pages.wait(name, lambda: laid_out(pages, name) == table)
        if name != "table":
            pages.wait(name, lambda: hand(pages, name) == cards and pages.driver.find_element(By.ID, "yours").text == yours)
    secrets.host = host
    secrets.check(laid, votes)
    return host, pages


def start(browser: WebDriver, tmp_path: Path, players: list[str], cards: int) -> tuple[Host, Pages, Secrets]:
    deck = group_deck(tmp_path / "deck", cards)
    host = Host(tmp_path, "play", "dixit", "--players", *players, "--deck", str(deck), "--seed", "3", port=free_port())
    pages = Pages(browser, host.base, host.code)
    for player in players:
        pages.join(player)
    pages.table()
    secrets = Secrets(pages, host, players)
    secrets.read_hands()
    assert [len(cards) for cards in secrets.hands.values()] == [6 if len(players) > 3 else 7] * len(players)
    picture = pages.show(players[0]).find_element(By.CSS_SELECTOR, "#hand img")  # shown, the description its text
    assert picture.get_attribute("alt") in [text for _, text, _ in secrets.hands[players[0]]]
    pages.wait(players[0], lambda: pages.driver.execute_script("return arguments[0].naturalWidth", picture) > 0)
    assert axe_violations(pages.show(players[0])) == []  # the hand page
    pages.press(players[0], "storyteller")
    pages.wait_text("table", f"Turn 1: {players[0]} is the storyteller")
    return host, pages, secrets


def test_a_whole_game_of_four_told_in_words(browser: WebDriver, tmp_path: Path) -> None:
    players = ["Ana", "Ben", "Cy", "Dee"]
    host, pages, secrets = start(browser, tmp_path, players, 32)  # the hands take 24: 2 turns of 4 cards
    try:
        host, pages = play_turn(pages, host, secrets, "Ana", players, 1)
        host.wait_for("Turn 2: Ben is the storyteller. This is the last turn.")
        pages.wait_text("table", "Ana's, the storyteller's card")  # the last turn's cards, revealed
        host, pages = play_turn(pages, host, secrets, "Ben", players, 2, aloud=True, kill_at_vote=2, data=tmp_path)
        host.wait_for("The last card of the draw pile has been drawn, so the game is over.")
        pages.wait_text("table", "Dixit: the game is over")
        assert not [line for line in host.lines if line.startswith("> ")]  # nothing was typed at the laptop
    finally:
        host.close()


def test_a_whole_game_of_three_told_in_words(browser: WebDriver, tmp_path: Path) -> None:
    players = ["Ana", "Ben", "Cy"]
    host, pages, secrets = start(browser, tmp_path, players, 26)  # the hands take 21: 1 turn of 5 cards
    try:
        host, pages = play_turn(pages, host, secrets, "Ana", players, 1)
        host.wait_for("The last card of the draw pile has been drawn, so the game is over.")
        pages.wait_text("table", "Ana's, the storyteller's card")
    finally:
        host.close()
