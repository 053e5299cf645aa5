"""The companion's web server (aiohttp: HTTP and WebSockets in one small, well-kept package),
in a thread of its own with its own event loop.

The session's thread calls `refresh`, `tell` and `announce` (the `PrivateChannel` the session
knows); they hand finished JSON to the loop with `call_soon_threadsafe`. The loop's thread only
reads seats and puts players' commands on the session's input: it never touches the game.
"""
from __future__ import annotations

import asyncio
import errno
import json
import os
import secrets
import socket
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from games.base import quoted
from host.companion import pages
from host.adapters.base import adapter_for
from host.companion.screens import KEPT, pictures, player_screen, table_screen
from host.companion.source import with_phones
from host.session.inputs import LineSource
from host.session.events import PhoneCommand
from host.session.session import Session
from host.storage.decks import read_picture
from host.storage.files import FileRefused
from host.storage.store import GameStore, StoreError

#: the longest text a phone may send (a term or a number)
MAX_TEXT = 200
#: how long a form sent without JavaScript waits for the session's answer before the page is shown
FORM_WAIT = 3.0
#: the WebSocket close code that tells a page its link was renewed, so it stops reconnecting
RENEWED = 4001
STATIC_TYPES = {"companion.js": "text/javascript", "companion.css": "text/css"}


def new_token() -> str:
    """A private link's key: 192 random bits."""
    return secrets.token_urlsafe(24)


class CompanionError(RuntimeError):
    """The server cannot start (the port is taken); the message says what to do."""


def listen(port: int, bind: str = "0.0.0.0") -> socket.socket:
    """The phones' port, bound and listening, before anything is created or played (a refused
    port leaves no game behind); CompanionError if it cannot be had."""
    try:
        return socket.create_server((bind, port), backlog=128)
    except OSError as error:
        why = "it is in use" if error.errno == errno.EADDRINUSE else os.strerror(error.errno or 0).lower()
        raise CompanionError(
            f"The phones' pages cannot be served on port {port}: {why}. Choose another with --port (0: any free port)."
        ) from error


def lan_address() -> str:
    """This laptop's address on the local network as its name resolves, else loopback."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [info[4][0] for info in infos if not str(info[4][0]).startswith("127.")]
    return str(addresses[0]) if addresses else "127.0.0.1"


class Companion:
    """The phones and the table page of one game; a `PrivateChannel` for its session."""

    def __init__(self, store: GameStore, game_id: int, title: str, game: str, players: list[str],
                 listening: socket.socket) -> None:
        """`listening`: the socket from `listen`, served from `start` on."""
        self.store, self.game_id, self.title, self.game = store, game_id, title, game
        self.listening = listening
        self.address = ""
        seats = store.seats(game_id, players, new_token)
        #: token -> player; replaced whole, never changed in place, as the loop's thread reads it
        self._tokens = {token: player for player, (token, _) in seats.items()}
        self._joined = {player: claimed for player, (_, claimed) in seats.items()}
        self._lock = threading.Lock()  # guards _joined, read by the session's thread
        self._payloads: dict[str, str] = {}
        #: each screen's picture files by name (the table's, each player's): only these are served to it
        self._pictures: dict[str, Mapping[str, str]] = {}
        self._sockets: dict[str, set[web.WebSocketResponse]] = defaultdict(set)
        self._announcements: list[tuple[int, str]] = []
        self._replies: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self._said = 0
        self._put: Callable[[PhoneCommand], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._seat_store: GameStore | None = None
        #: on the loop's thread: a refusal of a form, shown once on the player's page; the screens changed
        self._notices: dict[str, str] = {}
        self._published = asyncio.Event()

    # -- lifecycle
    def start(self) -> str:
        """Serve in a thread; the address phones open."""
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="companion", daemon=True)
        self._thread.start()
        ready.wait()
        bind, port = self.listening.getsockname()[:2]
        self.address = f"http://{lan_address() if bind == '0.0.0.0' else bind}:{port}/"
        return self.address

    def attach(self, source: LineSource) -> LineSource:
        """The session's input, with the players' commands from their phones merged in."""
        merged, self._put = with_phones(source)
        return merged

    def close(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)

    def _serve(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        runner = web.AppRunner(self._app(), access_log=None)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.SockSite(runner, self.listening).start())
        self._loop = loop
        ready.set()
        try:
            loop.run_forever()
        finally:
            for sockets in self._sockets.values():
                for ws in list(sockets):
                    loop.run_until_complete(ws.close())
            loop.run_until_complete(runner.cleanup())
            if self._seat_store is not None:
                self._seat_store.__exit__()

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024)
        app.add_routes([
            web.get("/", self._join_page),
            web.post("/join", self._join),
            web.get("/table", self._table_page),
            web.get("/p/{token}", self._player_page),
            web.get("/p/", self._player_page),
            web.post("/p/{token}/send", self._form),
            web.get("/ws/table", self._table_socket),
            web.get("/ws/p/{token}", self._player_socket),
            web.get("/ws/p/", self._player_socket),
            web.get("/static/{name}", self._static),
            web.get("/table/picture/{name}", self._picture),
            web.get("/p/{token}/picture/{name}", self._picture),
        ])
        return app

    # -- the session's side (called on the session's thread)
    def has(self, player: str) -> bool:
        with self._lock:
            return self._joined.get(player, False)

    def renew(self, player: str) -> str:
        """A new token for `player`'s seat, saved: the old link gets 403 from now on and its open
        pages are told so; the player claims the seat again from the join page, whose address this is."""
        token = new_token()
        self.store.renew_seat(self.game_id, player, token)
        with self._lock:
            self._tokens = {**{known: name for known, name in self._tokens.items() if name != player}, token: player}
            self._joined[player] = False
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._disconnect, player)
        return self.address

    def tell(self, player: str, lines: list[str]) -> None:
        for line in lines:
            self._said += 1
            self._replies[player] = [*self._replies[player], (self._said, line)][-KEPT:]

    def announce(self, line: str) -> None:
        self._said += 1
        self._announcements = [*self._announcements, (self._said, line)][-KEPT:]

    def refresh(self, session: Session) -> None:
        state = session.state
        left = session.clock.left()
        left = None if left is None else round(left)
        payloads = {"table": {**table_screen(state, left), "announcements": self._announcements}}
        for player in state.players:
            payloads[player] = {
                **player_screen(state, player, left),
                "announcements": self._announcements,
                "replies": self._replies[player],
            }
        texts = {key: json.dumps(payload, ensure_ascii=False) for key, payload in payloads.items()}
        files = {key: pictures(state, None if key == "table" else key) for key in payloads}
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._publish, texts, files)

    # -- the loop's side
    def _publish(self, texts: dict[str, str], files: dict[str, Mapping[str, str]]) -> None:
        self._pictures = files
        self._published.set()  # a form sent without JavaScript waits for this
        self._published = asyncio.Event()
        for key, text in texts.items():
            if self._payloads.get(key) == text:
                continue
            self._payloads[key] = text
            for ws in list(self._sockets[key]):
                asyncio.ensure_future(self._send(ws, text))

    def _disconnect(self, player: str) -> None:
        """Close `player`'s open pages, whose link no longer works."""
        for ws in self._sockets.pop(player, set()):
            asyncio.ensure_future(ws.close(code=RENEWED, message=b"This link was renewed."))

    @staticmethod
    async def _send(ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            pass  # the phone went away; it reconnects and gets the screen anew

    def _screen(self, key: str) -> dict[str, Any]:
        text = self._payloads.get(key)
        return json.loads(text) if text else {}

    def _player(self, request: web.Request) -> str:
        """The player whose token the address holds; 403 for any other."""
        token = request.match_info.get("token", "")
        for known, player in self._tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return player
        raise web.HTTPForbidden()

    def _seats(self) -> GameStore:
        """The saved games file, opened on this thread (an SQLite connection stays on its thread)."""
        if self._seat_store is None:
            self._seat_store = GameStore(self.store.path)
        return self._seat_store

    async def _join_page(self, request: web.Request) -> web.Response:
        with self._lock:
            seats = dict(self._joined)
        return _html(pages.join_page(self.title, seats))

    async def _join(self, request: web.Request) -> web.Response:
        _from_here(request)
        form = await request.post()
        player = form.get("player")
        token = next((token for token, name in self._tokens.items() if name == player), None)
        if not isinstance(player, str) or token is None:
            return _html(pages.refused_page("There is no player of that name in this game.", "No such player"), 404)
        with self._lock:
            if self._joined[player]:
                return _html(pages.refused_page(
                    f"{player} has already joined from another phone: open the private link there.", "Already joined"
                ), 409)
            try:
                self._seats().claim_seat(self.game_id, player)
            except StoreError as error:
                return _html(pages.refused_page(str(error), "Cannot join"), 500)
            self._joined[player] = True
        raise web.HTTPSeeOther(f"/p/{token}")

    async def _player_page(self, request: web.Request) -> web.Response:
        player = self._player(request)
        link = f"/p/{request.match_info['token']}"
        notice = self._notices.pop(player, None)
        return _html(pages.player_page(self.title, player, link, self._screen(player), notice))

    async def _form(self, request: web.Request) -> web.Response:
        """A move sent by a page without JavaScript: played like one sent over the WebSocket,
        then the page again (post, redirect, get), once the session has answered or after a
        few seconds; a refusal of the form itself is shown there once."""
        player = self._player(request)
        _from_here(request)
        form = await request.post()
        before, answered = self._payloads.get(player), self._published
        refusal = self._command(player, {"verb": form.get("verb"), "text": form.get("text", "")})
        if refusal is not None:
            self._notices[player] = refusal
        else:
            try:
                while self._payloads.get(player) == before:
                    await asyncio.wait_for(answered.wait(), FORM_WAIT)
                    answered = self._published
            except asyncio.TimeoutError:
                pass  # the page shows the game as it is; the answer comes with a later look
        raise web.HTTPSeeOther(f"/p/{request.match_info['token']}")

    async def _table_page(self, request: web.Request) -> web.Response:
        return _html(pages.table_page(self.title, self._screen("table")))

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        text = resources.files("host.companion").joinpath("static").joinpath(name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=STATIC_TYPES[name], charset="utf-8")

    async def _picture(self, request: web.Request) -> web.Response:
        """A card's picture, for the page that shows it now (a player's, by their token, or the
        table's); the file is checked again as it is read (it may have changed since)."""
        key = self._player(request) if "token" in request.match_info else "table"
        path = self._pictures.get(key, {}).get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        try:
            data, media = await asyncio.get_running_loop().run_in_executor(None, read_picture, path)
        except FileRefused:
            raise web.HTTPNotFound() from None
        return web.Response(body=data, content_type=media, headers=HEADERS)

    async def _player_socket(self, request: web.Request) -> web.WebSocketResponse:
        player = self._player(request)
        return await self._socket(request, player)

    async def _table_socket(self, request: web.Request) -> web.WebSocketResponse:
        return await self._socket(request, "table")

    async def _socket(self, request: web.Request, key: str) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await ws.prepare(request)
        self._sockets[key].add(ws)
        try:
            if key in self._payloads:
                await ws.send_str(self._payloads[key])
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                refusal = "The table page takes no commands." if key == "table" else self._command(key, _json(message.data))
                if refusal is not None:
                    await ws.send_str(json.dumps({"reply": refusal}))
        finally:
            self._sockets[key].discard(ws)
        return ws

    def _command(self, player: str, message: object) -> str | None:
        """Put a phone's command on the session's input; a malformed one is refused with why."""
        if message is NOT_JSON:
            return "Refused: that message is not JSON, so nothing was done."
        if not isinstance(message, dict) or not isinstance(message.get("verb"), str) or not isinstance(message.get("text", ""), str):
            return "Refused: a command is an object with a verb and a text, so nothing was done."
        verb, text = message["verb"], " ".join(unicodedata.normalize("NFC", message.get("text", "")).split())
        if verb not in adapter_for(self.game).phone_verbs:
            return f"Refused: {quoted(verb)} is not a command of this page, so nothing was done."
        if len(text) > MAX_TEXT:
            return f"Refused: that is longer than {MAX_TEXT} characters, so nothing was done."
        if not text.isprintable():
            return "Refused: that has control characters in it, so nothing was done."
        assert self._put is not None
        self._put(PhoneCommand(player, verb, text))  # the session plays it as this player's, or refuses it
        return None


#: the pages load nothing from elsewhere, and a page's private link is never sent on as a referrer
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


NOT_JSON = object()


def _json(data: str) -> object:
    try:
        return json.loads(data)
    except ValueError:
        return NOT_JSON


def _from_here(request: web.Request) -> None:
    """403 for a form posted from a page elsewhere, which must not take a seat or move for its
    visitor (the pages send no referrer, so a browser's Origin is "null" here: its Sec-Fetch-Site
    says where the form was)."""
    origin = request.headers.get("Origin")
    elsewhere = origin not in (None, "null") and origin.split("://", 1)[-1] != request.host
    if elsewhere or request.headers.get("Sec-Fetch-Site") not in (None, "same-origin", "none"):
        raise web.HTTPForbidden()


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8", headers=HEADERS)

