"""What a hostile guest on the party's network can send: every malformed or foreign request is
answered with a status code, nothing of it reaches the game's output (aiohttp's complaints go to
companion.log in the data folder), and a phone that floods the host is slowed down and summed up.
The real storyhost in a subprocess; requests from raw sockets where no client would send them."""
from __future__ import annotations

import asyncio
import json
import re
import socket
import urllib.request
from pathlib import Path

import aiohttp

from games.base import Match
from host.cli.catalog import make
from host.companion.addresses import Served
from host.companion.guard import HEADERS
from host.companion.server import Companion
from host.session.session import Session, SessionConfig, TextOutput
from host.storage.store import GameStore
from tests.host.companion.browser import Host
from tests.host.companion.test_shared_channel import Lines, settings

KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def raw(port: int, data: bytes) -> bytes:
    """The status line and headers of the answer to `data`, sent as it is."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n\r\n", 1)[0]


def upgrade(path: str, host: str, origin: str | None) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n"
            + (f"Origin: {origin}\r\n" if origin else "") + "\r\n").encode()


def join(base: str, code: str, player: str) -> str:
    """The private link's key `player` gets from the join form."""
    form = f"player={player}&code={code}&phone=a-phone-key-of-22-chars".encode()
    with urllib.request.urlopen(urllib.request.Request(f"{base}/join", data=form), timeout=10) as page:
        return str(page.url).rsplit("/", 1)[1]


def test_malformed_and_foreign_requests_get_a_status_and_stay_off_the_table(tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    try:
        port = int(host.base.rsplit(":", 1)[1])
        ours = f"127.0.0.1:{port}"
        token = join(host.base, host.code, "Sabine")
        form = "player=Nina&code=" + host.code
        answers = {
            "bad header": raw(port, f"GET / HTTP/1.1\r\nHost: {ours}\r\nBad Header\r\n\r\n".encode()),
            "HTTP/2 preface": raw(port, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
            "NUL in the path": raw(port, f"GET /\x00p HTTP/1.1\r\nHost: {ours}\r\n\r\n".encode()),
            "Content-Length and Transfer-Encoding": raw(port, (
                f"POST /join HTTP/1.1\r\nHost: {ours}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").encode()),
            "8 KB of headers": raw(port, f"GET / HTTP/1.1\r\nHost: {ours}\r\nX-Big: {'a' * 8192}\r\n\r\n".encode()),
            "a body too large": raw(port, (f"POST /join HTTP/1.1\r\nHost: {ours}\r\nContent-Type: application/x-www-form-urlencoded"
                                           f"\r\nContent-Length: 100000\r\n\r\n").encode() + b"a" * 100000),
            "a Host not ours": raw(port, f"GET / HTTP/1.1\r\nHost: storyhost.example:{port}\r\n\r\n".encode()),
            "no Host": raw(port, b"GET /table HTTP/1.0\r\n\r\n"),
            "a WebSocket from a foreign Origin": raw(port, upgrade(f"/ws/p/{token}", ours, "http://storyhost.example")),
            "a WebSocket from Origin null": raw(port, upgrade("/ws/table", ours, "null")),
            "a form from Origin null": raw(port, (f"POST /join HTTP/1.1\r\nHost: {ours}\r\nOrigin: null\r\nContent-Type: "
                                                  f"application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n{form}").encode()),
            "a form from a page elsewhere": raw(port, (f"POST /join HTTP/1.1\r\nHost: {ours}\r\nSec-Fetch-Site: cross-site\r\n"
                                                       f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}"
                                                       f"\r\n\r\n{form}").encode()),
            "an unknown link": raw(port, f"GET /p/{'x' * 32} HTTP/1.1\r\nHost: {ours}\r\n\r\n".encode()),
        }
        statuses = {name: answer.split(b"\r\n", 1)[0].split(b" ", 2)[1].decode() for name, answer in answers.items()}
        assert statuses == {
            "bad header": "400", "HTTP/2 preface": "400", "NUL in the path": "400", "Content-Length and Transfer-Encoding": "400",
            "8 KB of headers": "400", "a body too large": "413", "a Host not ours": "421", "no Host": "421",
            "a WebSocket from a foreign Origin": "403", "a WebSocket from Origin null": "403", "a form from Origin null": "403",
            "a form from a page elsewhere": "403", "an unknown link": "403",
        }
        answers["a static file"] = raw(port, f"GET /static/companion.js HTTP/1.1\r\nHost: {ours}\r\n\r\n".encode())
        answers["a redirect"] = raw(port, (f"POST /join HTTP/1.1\r\nHost: {ours}\r\nContent-Type: application/x-www-form-urlencoded"
                                           f"\r\nContent-Length: {len(form)}\r\n\r\n{form}").encode())
        assert answers["a redirect"].startswith(b"HTTP/1.1 303 ") and answers["a static file"].startswith(b"HTTP/1.1 200 ")
        for name, answer in answers.items():  # every answer, an error of the parser's too, carries the security headers
            headers = answer.decode("latin-1").casefold()
            assert all(f"\r\n{header.casefold()}: {value.casefold()}" in headers for header, value in HEADERS.items()), name

        async def nested() -> str:
            async with aiohttp.ClientSession() as client, client.ws_connect(f"{host.base}/ws/p/{token}") as ws:
                await ws.send_str("[" * 2000 + "]" * 2000)
                while True:  # screens, then the reply
                    message = json.loads((await ws.receive(timeout=10)).data)
                    if "reply" in message:
                        return str(message["reply"])

        assert asyncio.run(nested()) == "Refused: that message is not JSON, so nothing was done."
        host.type("score")
        host.wait_for("Scores:")
        assert host.printed().splitlines()[-3:] == ["Sabine joined.", "Nina joined.", "Scores: Nina 0, Sabine 0, Stephan 0."]
        host.wait_for("Nina joined.")  # the form from here took the seat; none from elsewhere did
        assert host.printed().count("joined.") == 2
        assert not re.search(r"Traceback|Error|aiohttp|HTTP", host.printed())
    finally:
        host.close()
    log = (tmp_path / "companion.log").read_text()
    assert "Transfer-Encoding can't be present with Content-Length" in log and "Traceback" not in log


def test_a_flooding_phone_is_slowed_down_and_summed_up(tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2")
    try:
        token = join(host.base, host.code, "Sabine")
        host.type("side Nina normal")
        host.wait_for("secretly write")

        async def flood() -> list[str]:
            async with aiohttp.ClientSession() as client, client.ws_connect(f"{host.base}/ws/p/{token}") as ws:
                for _ in range(300):
                    await ws.send_str(json.dumps({"verb": "term", "text": "the"}))
                replies = []
                while True:
                    try:
                        message = json.loads((await ws.receive(timeout=5)).data)
                    except asyncio.TimeoutError:
                        return replies
                    if "reply" in message:
                        replies.append(message["reply"])

        replies = asyncio.run(flood())
        assert replies == ["Slow down: that was sent too fast, so it was not played. Wait a moment, then send it again."]
        table = host.wait_for("more terms were refused")
        refusals = [line for line in host.printed().splitlines() if "refused" in line]
        assert refusals == ["Sabine: one term was refused; see your phone.", table]
        assert re.fullmatch(r"Sabine: \d+ more terms were refused; see your phone\.", table)
    finally:
        host.close()


def test_a_phone_command_before_the_session_reads_is_kept(tmp_path: Path) -> None:
    game = settings("dixit", "--players", "Ana", "Bo", "Cy", "--seed", "1")
    match = Match(make("dixit", game))
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create("dixit", game)
        for seq, line in enumerate(["storyteller Ana", "clue Two of a kind", "shown"]):
            match.apply(match.state.parse(line))
            store.append(game_id, seq, match.log[-1])
        companion = Companion(store, game_id, "Dixit", "dixit", game["players"], Served(0, "127.0.0.1"))
        base = companion.start().rstrip("/")
        try:
            token = join(base, companion.seats.code, "Bo")  # between start() and attach()

            async def vote() -> None:
                async with aiohttp.ClientSession() as client, client.ws_connect(f"{base}/ws/p/{token}") as ws:
                    await ws.send_str(json.dumps({"verb": "vote", "text": "4"}))
                    await asyncio.sleep(0.5)

            asyncio.run(vote())
            printed: list[str] = []
            Session(SessionConfig(store=store, game_id=game_id, match=match, output=TextOutput(write=printed.append),
                                  private=companion)
                    ).run(companion.attach(Lines([])))
        finally:
            companion.close()
    assert printed[1:3] == ["Bo joined.", "Bo has voted (1 of 2)."]
