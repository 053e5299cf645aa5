"""Dixit with the deck told in words, played from phones through the real session, companion and
store in this process (no browser: the whole 84-card deck in seconds): every move a phone's,
random but legal, some taken back or changed, one forged. After every step, every screen (the
table's and each phone's, as the server sends them) and every printed and spoken line are checked
for secrets: no hand but a phone's own, no owner of a card laid out and no vote before the reveal.
The game ends by the rulebook's rule, its score that of the engine's replay."""
from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.base import Match, join_names
from games.dixit import DescribedDixit, Phase
from games.dixit_rules import numbered
from host.audio.speaker import PrintSpeaker
from host.cli.catalog import make
from host.companion.screens import player_screen, table_screen
from host.companion.addresses import Served
from host.companion.server import Companion
from host.session.events import InputEnded, InputEvent, PhoneCommand, Typed
from host.session.inputs import Listening
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from tests.host.companion.browser import status_of
from tests.host.companion.test_shared_channel import Lines, settings
from tests.host.test_described_deck import png

#: what a vote or an owner looks like in words, where it must not be before the reveal
VOTE_WORDS = ("voted for card", "Your vote", "your vote to card", "vote stays")
OWNED = re.compile(r"Card \d+ (was|is) \w+'s|Card \d+, \w+'s")


class Phones:
    """The players' phones: each read of the session's input is one move a phone's page offers
    its player now (chosen at random), after the secrets are checked on every screen and line."""

    def __init__(self, session: Session, companion: Companion, printed: list[str], spoken: list[str], seed: int) -> None:
        self.session, self.companion, self.printed, self.spoken = session, companion, printed, spoken
        self.rng = random.Random(seed)
        #: the player whose phone sent a vote it was not offered, and what had been printed then
        self.forged: tuple[str, int] | None = None
        self.refused = False
        self.steps = 0

    @property
    def state(self) -> DescribedDixit:
        state = self.session.state
        assert isinstance(state, DescribedDixit)
        return state

    def read(self, timeout: float | None) -> InputEvent:
        check_secrets(self.state, self.printed, self.spoken)
        self.steps += 1
        if self.forged is not None and not self.refused:  # refused on that phone alone
            voter, printed = self.forged
            assert self.companion._replies[voter][-1][1].startswith("Refused: that is not yours to do now.")
            assert len(self.printed) == printed
            self.refused = True
        if self.state.is_over():
            return InputEnded()
        if self.state.phase == Phase.VOTE and self.forged is None:  # a phone sends a vote its page does not offer
            voter = self.state.voters[0]
            self.forged = (voter, len(self.printed))
            return PhoneCommand(voter, "vote", str(self.state._mine(voter)[0]))
        player = self.rng.choice(self.state.waiting_for())
        turn = self.session.adapter.phone_turn(self.state, player)
        ask = self.rng.choice(turn.asks)
        if ask.field:
            return PhoneCommand(player, ask.verb, f"Clue {self.steps}")
        button = self.rng.choice([button for button in ask.buttons if button.action is not None])
        return PhoneCommand(player, ask.verb, button.value)

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        pass


def check_secrets(state: DescribedDixit, printed: list[str], spoken: list[str]) -> None:
    """No hand on another's screen or on the shared channel; no owner or vote of the cards laid
    out before the last vote reveals them."""
    said = "\n".join(printed + spoken)
    screens = {"table": json.dumps(table_screen(state, None), ensure_ascii=False)}
    for player in state.players:
        screens[player] = json.dumps(player_screen(state, player, None), ensure_ascii=False)
    for owner, hand in state.hands.items():
        for card in hand:
            description = state.cards[card].description
            assert description not in said, f"{owner}'s hand was said: {description}"
            for name, screen in screens.items():
                assert (description in screen) == (name == owner), f"{owner}'s card on {name}'s screen: {description}"
    if state.phase == Phase.VOTE:
        laid_out = max(index for index, line in enumerate(printed) if "All cards are in." in line)
        since = printed[laid_out:]
        assert not [line for line in since if OWNED.search(line)], since
        assert not [line for line in since + spoken if any(word in line for word in VOTE_WORDS)], since
        assert not [line for line in printed + spoken if line.startswith("Your card")]
        table = table_screen(state, None)["table"]
        assert [card["owner"] for card in table["cards"]] == [""] * state.cards_shown
        assert [card["votes"] for card in table["cards"]] == [None] * state.cards_shown
        for player in state.players:  # every phone lists the cards, and knows only its own and its vote
            screen = player_screen(state, player, None)
            assert [card["face"]["text"] for card in screen["table"]["cards"]] == [
                state.cards[card].description for card in state.laid
            ]
            own = state._mine(player)
            titles = join_names([state.cards[state.laid[number - 1]].title for number in own])
            assert [line for line in screen["turn"]["yours"] if line.startswith("Your card")] == [
                f"Your {'card' if len(own) == 1 else 'cards'} on the table: {numbered(own)}, {titles}."
            ]
            vote = [str(state.votes[player])] if player in state.votes else []
            assert re.findall(r"Your vote: card (\d)", json.dumps(screen)) == vote
            if player == state.storyteller:  # who does not vote
                assert screen["turn"]["asks"] == [] and screen["turn"]["now"].startswith("Waiting for the votes of")


COLOURS = ("red", "blue", "green", "golden", "silver", "black", "white", "pink")
THINGS = ("whale", "lantern", "ladder", "clock", "boat", "fox", "violin", "kite")


def group_deck(folder: Path, count: int) -> Path:
    """A group's own deck file of `count` cards, two sentences each, every card but each fifth
    with a picture (a real PNG) in a folder beside it."""
    (folder / "pictures").mkdir(parents=True, exist_ok=True)
    cards = []
    for number in range(1, count + 1):
        colour, thing = COLOURS[number % len(COLOURS)], THINGS[(number // len(COLOURS)) % len(THINGS)]
        card = {"id": number, "title": f"The {colour.capitalize()} {thing.capitalize()} {number}",
                "description": f"A {colour} {thing} number {number} floats over a quiet town. Nobody below looks up."}
        if number % 5:
            (folder / "pictures" / f"card{number}.png").write_bytes(png(number % 7 + 1, 2))
            card["image"] = f"pictures/card{number}.png"
        cards.append(card)
    path = folder / "ours.json"
    path.write_text(json.dumps({"game": "dixit", "title": "Our deck", "licence": "Ours, CC0", "cards": cards}), "utf-8")
    return path


def join(base: str, companion: Companion, player: str) -> Any:
    """`player`'s phone joins with the room code; the page it is led to."""
    form = f"player={player}&code={companion.seats.code}&phone=phone-key-of-{player:0>9}".encode()
    return urllib.request.urlopen(urllib.request.Request(f"{base}/join", data=form), timeout=10)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.sqlite3") as opened:
        yield opened


def play(store: GameStore, game: dict[str, Any], seed: int) -> tuple[Session, Phones, list[str]]:
    game_id = store.create("dixit", game)
    companion = Companion(store, game_id, "Dixit", "dixit", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")
    for player in game["players"]:
        join(base, companion, player).close()
    printed: list[str] = []
    spoken: list[str] = []
    output = TextOutput(write=printed.append, speaker=PrintSpeaker(spoken.append))
    output.also = companion.announce
    session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("dixit", game)), output=output,
                                    private=companion))
    phones = Phones(session, companion, printed, spoken, seed)
    try:
        session.run(phones)
    finally:
        companion.close()
    return session, phones, printed


@pytest.mark.parametrize("players", [["Ana", "Ben", "Cy", "Dee"], ["Ana", "Ben", "Cy"]], ids=["4 players", "3 players"])
def test_a_whole_game_with_the_bundled_deck_from_phones(store: GameStore, players: list[str]) -> None:
    game = settings("dixit", "--players", *players, "--seed", "5", "--deck", "described")
    session, phones, printed = play(store, game, seed=len(players))
    state = session.state
    assert isinstance(state, DescribedDixit) and state.is_over()
    assert state.turn == {3: 13, 4: 15}[len(players)]
    assert printed[-2].startswith(("The last card of the draw pile has been drawn", "The draw pile runs out"))
    assert printed[-1] == "Game 1 is over and saved."
    replay = Match(make("dixit", game), list(store.actions(1)))  # what was saved plays the same game
    assert replay.state.scores() == state.scores() and replay.state.is_over()
    assert phones.refused


def test_a_picture_is_served_only_to_a_screen_that_shows_it(store: GameStore, tmp_path: Path) -> None:
    path = group_deck(tmp_path / "deck", 28)
    game = settings("dixit", "--players", "Ana", "Ben", "Cy", "Dee", "--seed", "2", "--deck", str(path))
    game_id = store.create("dixit", game)
    companion = Companion(store, game_id, "Dixit", "dixit", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")
    try:
        with join(base, companion, "Ana") as page:
            link = page.url
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("dixit", game)),
                                        output=TextOutput(write=lambda line: None), private=companion))
        state = session.state
        assert isinstance(state, DescribedDixit)
        companion.refresh(session)
        pictured = [card for card in state.hands["Ana"] if state.cards[card].image]
        others = [card for card in state.hands["Ben"] if state.cards[card].image]
        with urllib.request.urlopen(f"{link}/picture/{pictured[0]}", timeout=10) as answer:
            assert answer.headers["Content-Type"] == "image/png"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.read() == Path(str(state.cards[pictured[0]].image)).read_bytes()
        assert status_of(f"{link}/picture/{others[0]}") == 404  # another's hand
        assert status_of(f"{base}/table/picture/{pictured[0]}") == 404  # not on the table
        assert status_of(f"{base}/p/{'x' * 32}/picture/{pictured[0]}") == 403
        Path(str(state.cards[pictured[1]].image)).write_bytes(b"not a picture any more")
        assert status_of(f"{link}/picture/{pictured[1]}") == 404  # checked again as it is served
    finally:
        companion.close()


class Busy(PrintSpeaker):
    """A speaker that records what it is told to say and whether that cuts off what is being
    said; `done` is whether everything queued has been said."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[tuple[str, bool]] = []
        self.done = False

    def say(self, text: str, interrupt: bool = False) -> None:
        self.said.append((text, interrupt))

    def wait(self, timeout: float | None = None) -> bool:
        return self.done


def test_the_cards_read_aloud_are_not_cut_off_by_the_votes(store: GameStore) -> None:
    """Like a screen reader, new news cuts off older news, but not the cards laid out: a vote
    cast while they are read is said after them; once they have been said, news cuts in again."""
    game = settings("dixit", "--players", "Ana", "Ben", "Cy", "Dee", "--seed", "5", "--deck", "described")
    speaker = Busy()
    session = Session(SessionConfig(store=store, game_id=store.create("dixit", game), match=Match(make("dixit", game)),
                                    output=TextOutput(write=lambda line: None, speaker=speaker)))
    state = session.state
    assert isinstance(state, DescribedDixit)

    def vote(player: str) -> str:
        return f"vote {player} {next(n for n, owner in state.owners.items() if owner != player)}"

    def done() -> str:
        speaker.done = True
        return "score"

    steps = [lambda: "storyteller Ana", lambda: f"pick {state.hands['Ana'][0]}", lambda: "clue Far away",
             *(lambda player=player: f"give {player} {state.hands[player][0]}" for player in ("Ben", "Cy", "Dee")),
             lambda: vote("Ben"), done, lambda: vote("Cy")]
    said: list[list[tuple[str, bool]]] = []

    class Steps(Lines):
        def read(self, timeout: float | None) -> InputEvent:
            said.append(list(speaker.said))
            return Typed(steps.pop(0)()) if steps else InputEnded()

    session.run(Steps([]))
    assert len([text for text, _ in said[6] if text.startswith("Card ")]) == 4  # laid out and read
    assert said[7][-1] == ("Ben has voted (1 of 3).", False)  # queued after the cards
    assert said[9][-1] == ("Cy has voted (2 of 3).", True)


def test_a_card_asked_for_by_a_number_int_cannot_read_is_refused_in_words(store: GameStore) -> None:
    """'card ²' typed at the laptop: a digit to str.isdigit, no number to int(); the host answers
    with the cards' numbers instead of stopping."""
    game = settings("dixit", "--players", "Ana", "Ben", "Cy", "--seed", "5", "--deck", "described")
    printed: list[str] = []
    session = Session(SessionConfig(store=store, game_id=store.create("dixit", game), match=Match(make("dixit", game)),
                                    output=TextOutput(write=printed.append)))
    state = session.state
    assert isinstance(state, DescribedDixit)
    lines = ["storyteller Ana", f"pick {state.hands['Ana'][0]}", "clue Far away",
             *(f"give {player} {card}" for player in ("Ben", "Cy") for card in state.hands[player][:2])]
    session.run(Lines([*lines, "card ²"]))
    assert printed[-2] == "The cards on the table are numbered 1 to 5: say card and one of those numbers."
