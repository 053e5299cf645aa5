"""The shared channel carries no secret once players have phones: the real session, companion
and store in this process, the speaker's text recorded by the print speaker (no sound card)."""
from __future__ import annotations

import argparse
import re
import socket
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.base import Match, already_set, view_of
from games.storytelling import StorytellingView
from host.adapters.base import referee
from host.cli.catalog import add_play_options, make, new_settings
from host.adapters.narration import NarrationListener
from host.audio.speaker import PrintSpeaker
from host.companion.screens import table_screen
from host.companion.addresses import Served
from host.companion.server import Companion
from host.session.events import InputEnded, InputEvent, PhoneCommand, Typed
from host.session.inputs import Listening
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from tests.host.cli_helpers import run_storyhost
from tests.host.companion.browser import status_of


class Lines:
    """Input items one after the other (a string is a typed line), then the end of input."""

    def __init__(self, items: list[str | InputEvent]) -> None:
        self.items = iter(items)

    def read(self, timeout: float | None) -> InputEvent:
        item = next(self.items, InputEnded())
        return Typed(item) if isinstance(item, str) else item

    def secret(self, hidden: bool) -> None:
        pass

    def listen(self, wanted: Listening | None) -> None:
        pass


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.sqlite3") as opened:
        yield opened


def settings(*args: str) -> dict[str, Any]:
    parser = argparse.ArgumentParser()
    add_play_options(parser)
    return new_settings(parser.parse_args(list(args)))


def test_refusals_and_private_stay_off_the_table(store: GameStore) -> None:
    game = settings("stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    game_id = store.create("stories", game)
    companion = Companion(store, game_id, "Stories!", "stories", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")
    try:
        elsewhere = urllib.request.Request(f"{base}/join", data=b"player=Stephan", headers={"Origin": "http://example.test"})
        with pytest.raises(urllib.error.HTTPError, match="403"):
            urllib.request.urlopen(elsewhere, timeout=10)
        urllib.request.urlopen(urllib.request.Request(f"{base}/join", data=f"player=Sabine&code={companion.seats.code}".encode()),
                               timeout=10).close()
        printed: list[str] = []
        spoken: list[str] = []
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(spoken.append))
        output.also = companion.announce
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("stories", game)),
                                        output=output, listeners=(NarrationListener(referee()),), private=companion))
        session.run(companion.attach(Lines([
            "side Nina normal",
            PhoneCommand("Sabine", "term", "the"),  # refused, from her phone
            "term Sabine tractors quickly",  # refused, typed at the laptop for a player with a phone
            PhoneCommand("Sabine", "term", "radio"),
            "term Sabine bicycle",
            "term Stephan pizza",
            "private Sabine",
            "private Stephan",  # no phone: printed for a script, never spoken
        ])))
    finally:
        companion.close()
    table = "\n".join([*spoken, *printed])
    for secret in ("radio", "bicycle", "the'", "tractors", "pizza"):
        assert secret not in "\n".join(spoken), secret
    for secret in ("radio", "bicycle", "tractors"):
        assert secret not in table, secret
    assert "Sabine: one term was refused; see your phone." in spoken
    assert spoken.count("Sabine: one term was refused; see your phone.") == 1  # then a count, not the same line again
    assert spoken.count("Sabine: one more term was refused; see your phone.") == 1  # once the refusals stopped
    assert spoken.count("Sabine joined.") == 1
    assert "Sabine: your secrets are on your phone." in spoken
    assert "  Your terms: pizza." in printed  # Stephan has no phone; a script prints it, unspoken
    replies = [line for _, line in companion._replies["Sabine"]]
    assert replies[0].startswith("Refused: 'the'.") and replies[1].startswith("Refused: 'tractors quickly'.")
    assert "You wrote 'radio' (1 of 5)." in replies and "You wrote 'bicycle' (2 of 5)." in replies
    assert "Noted." not in replies  # the phone hears what it wrote instead
    meters = table_screen(session.state, None)["table"]["meters"]
    assert meters[0] == {"name": "Sabine", "count": 2, "of": 5, "unit": "terms written", "note": "",
                         "counted": "2 of 5 terms written"}


def test_a_player_named_table_never_gets_the_table_page(store: GameStore) -> None:
    """Screens are kept by player name: a player called "table" must not take the table page's
    place, which would show their terms to the room."""
    game = settings("stories", "--players", "Nina", "table", "Stephan", "--seed", "2")
    game_id = store.create("stories", game)
    companion = Companion(store, game_id, "Stories!", "stories", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")
    try:
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("stories", game)),
                                        output=TextOutput(write=lambda line: None),
                                        listeners=(NarrationListener(referee()),), private=companion))
        session.run(companion.attach(Lines(["side Nina normal", "term table walrus"])))
        with urllib.request.urlopen(f"{base}/table", timeout=10) as page:
            shown = page.read().decode()
    finally:
        companion.close()
    assert "Stories!" in shown and "walrus" not in shown


def test_a_seat_the_saved_games_cannot_record_is_refused_in_words(store: GameStore) -> None:
    """The saved games file held by another program while a phone joins: the phone is told in
    words that it has not joined and may try again, and the seat stays free."""
    game = settings("dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    game_id = store.create("dixit", game)
    companion = Companion(store, game_id, "Dixit", "dixit", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")
    join = urllib.request.Request(f"{base}/join", data=f"player=Bo&code={companion.seats.code}".encode())
    locker = sqlite3.connect(store.path, isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(join, timeout=60)
        locker.execute("ROLLBACK")
        assert refused.value.code == 503
        assert "you have not joined yet. Try again in a moment." in refused.value.read().decode()
        assert not companion.seats.taken("Bo")
        urllib.request.urlopen(join, timeout=60).close()
        assert companion.seats.taken("Bo")
    finally:
        locker.close()
        companion.close()


def test_the_table_names_face_up_tiles_only() -> None:
    game = settings("storytelling", "--players", "Marc", "Lea", "--seed", "3")
    match = Match(make("storytelling", game))
    state = match.state
    view = view_of(state, None, StorytellingView)
    pictures = already_set(view.card, "the card").pictures
    picture = pictures[0]
    position = state.position(state.grid.index(picture))  # type: ignore[attr-defined]
    match.apply(state.parse(f"flip {position}"))
    table = table_screen(match.state, None)["table"]
    assert [tile["name"] for tile in table["grid"]["tiles"] if tile["place"] == position] == [picture]
    assert [tile["place"] for tile in table["grid"]["tiles"] if tile["name"]] == [position]
    public = [*pictures, view.tale.upper()]  # on the card, the title
    hidden = [name for name in state.grid if not any(name in shown for shown in public)]  # type: ignore[attr-defined]
    assert [name for name in hidden if re.search(rf"\b{name}\b", repr(table), re.IGNORECASE)] == []


def test_a_script_with_phones_is_echoed_in_order(tmp_path: Path) -> None:
    script = tmp_path / "dixit.script"
    script.write_text("storyteller Ana\nclue Two of a kind\nshown\nvote Bo 4\nscore\n", encoding="utf-8")
    result = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--seed", "1",
                           "--script", str(script), "--companion", "--port", "0")
    out = result.stdout.splitlines()
    assert out[out.index("> vote Bo 4") + 1] == "Bo has voted (1 of 3)."
    assert out[out.index("> score") + 1] == "Scores: Ana 0, Bo 0, Cy 0, Di 0."


def test_a_port_in_use_is_one_line_and_leaves_no_game(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--companion", "--port", str(port))
        resumed = run_storyhost(tmp_path, "resume", "--companion", "--port", str(port))
    refusal = f"The phones' pages cannot be served on port {port}: it is in use. Choose another with --port (0: any free port)."
    assert result.returncode == resumed.returncode == 2
    assert result.stderr.strip().splitlines() == resumed.stderr.strip().splitlines() == [refusal]
    assert result.stdout == ""  # no game was announced, and none was saved
    assert run_storyhost(tmp_path, "games").stdout == run_storyhost(tmp_path / "empty", "games").stdout


def test_a_lost_link_is_renewed_at_the_laptop(store: GameStore, tmp_path: Path) -> None:
    game = settings("dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    game_id = store.create("dixit", game)
    companion = Companion(store, game_id, "Dixit", "dixit", game["players"], Served(0, "127.0.0.1"))
    base = companion.start().rstrip("/")

    def join(player: str, phone: str = "a-phone-key-of-22-chars") -> str:
        form = f"player={player}&code={companion.seats.code}&phone={phone}".encode()
        with urllib.request.urlopen(urllib.request.Request(f"{base}/join", data=form), timeout=10) as page:
            return str(page.url)

    try:
        old = join("Bo")
        printed: list[str] = []
        spoken: list[str] = []
        output = TextOutput(write=printed.append, speaker=PrintSpeaker(spoken.append))
        session = Session(SessionConfig(store=store, game_id=game_id, match=Match(make("dixit", game)), output=output,
                                        private=companion))
        session.run(companion.attach(Lines(["link", "link Zed", "link bo", "help"])))
        assert printed[1:4] == ["Bo joined.", "Say whose phone link to renew: link NAME.", "There is no player called 'Zed'. Players: Ana, Bo, Cy."]
        code = " ".join(companion.seats.code)
        assert printed[4] == spoken[4] == f"Bo's link was renewed; Bo, join again at {base}/ with room code {code}"
        assert "  link NAME: a new private link for NAME's phone, the old one stops working" in printed
        assert status_of(old) == 403  # at once
        new = join("Bo")  # the seat is free again, from the join page
        assert new != old and status_of(new) == 200
        with GameStore(store.path) as reopened:  # saved, for resume
            token, claimed, _ = reopened.seats(game_id, ["Bo"], lambda: "unused")["Bo"]
        assert new.endswith(token) and claimed
        assert not [line for line in printed + spoken if token in line]
    finally:
        companion.close()


def test_link_without_phones_says_so(store: GameStore) -> None:
    game = settings("storytelling", "--players", "Marc", "Lea", "--seed", "3")
    printed: list[str] = []
    Session(SessionConfig(store=store, game_id=store.create("storytelling", game),
                          match=Match(make("storytelling", game)),
                          output=TextOutput(write=printed.append))).run(Lines(["link Marc"]))
    assert "There are no phones in this game: play it with --companion." in printed
