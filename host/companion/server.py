"""The companion's web server (aiohttp: HTTP and WebSockets in one small, well-kept package),
in a thread of its own with its own event loop.

The session's thread calls `refresh`, `tell`, `announce`, `renew` and `invite` (the
`PrivateChannel` the session knows); they hand finished JSON to the loop with
`call_soon_threadsafe`. The loop's thread only reads and claims seats (`seats`) and puts players'
commands on the session's input: it never touches the game. Everything a hostile network can try
is met by `guard`; the addresses served are `addresses`'.

The pages and every refusal are in the game's language: the run's catalog (`games.language`, chosen
before the companion starts) words them, and the saved game's language is the pages' `lang`.
"""
from __future__ import annotations

import asyncio
import io
import json
import secrets
import threading
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from games.base import join_names, quoted
from games.language import N_, _, n_
from host.adapters.base import adapter_for
from host.companion import guard, pages
from host.companion.addresses import LISTEN_BACKLOG, Address, Served
from host.companion.screens import KEPT, pictures, player_screen, table_screen
from host.companion.seats import PHONE_KEY, JoinRefused, Seats, new_phone_key, spoken_code
from host.companion.source import PhoneEvent, with_phones
from host.session.events import Joined, PhoneCommand
from host.session.inputs import LineSource
from host.session.session import Session, TextOutput
from host.storage.decks import read_picture
from host.storage.catalogs import DEFAULT as ENGLISH
from host.storage.files import FileRefused
from host.storage.store import GameStore

#: the longest text a phone may send (a term or a number)
MAX_TEXT = 200
#: the largest WebSocket message (a command is a verb and a text)
MAX_MESSAGE = 4096
#: how long a form sent without JavaScript waits for the session's answer before the page is shown
FORM_WAIT = 3.0
#: the WebSocket close codes that tell a page its link was renewed, or opens no seat, so it stops reconnecting
RENEWED, UNKNOWN_LINK = 4001, 4004
#: a phone's commands: 10 at once, then 2 a second; past that, "slow down" once every SLOW_QUIET seconds
MOVES_BURST, MOVES_RATE, SLOW_QUIET = 10, 2.0, 5.0
SLOW_DOWN = N_("Slow down: that was sent too fast, so it was not played. Wait a moment, then send it again.")
#: the cookie that keeps a phone's key across reloads of the join page
PHONE_COOKIE = "storyhost-phone"
#: the table page's key among the screens, which are keyed by player name: no name has a "#"
TABLE = "#table"
STATIC_TYPES = {"companion.js": "text/javascript", "companion.css": "text/css"}
#: the line after the QR code, which a screen reader may skip to
QR_END = N_("End of the QR code.")


class Companion:
    """The phones and the table page of one game; a `PrivateChannel` for its session."""

    def __init__(self, store: GameStore, game_id: int, title: str, game: str, players: list[str], listening: Served) -> None:
        """`listening`: the sockets bound, served from `start` on."""
        self.store, self.game_id, self.title, self.game = store, game_id, title, game
        self.listening = listening
        saved = store.get(game_id)
        #: the pages' language, the game's (its sentences are in it: the run speaks it)
        self.language = saved.settings.get("language", ENGLISH) if saved is not None else ENGLISH
        self.seats = Seats(store, game_id, players)
        #: this serving of the game: a page that sees another one knows its numbered lines start again
        self.epoch = secrets.token_hex(8)
        self.address = ""
        self._payloads: dict[str, str] = {}
        #: each screen's picture files by name (the table's, each player's): only these are served to it
        self._pictures: dict[str, Mapping[str, str]] = {}
        self._sockets: dict[str, set[web.WebSocketResponse]] = defaultdict(set)
        self._transports: dict[web.WebSocketResponse, Any] = {}
        self._outbox: dict[web.WebSocketResponse, str] = {}
        self._announcements: list[tuple[int, str]] = []
        self._replies: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self._said = 0
        #: where phone events go once the session's input is known; until then they wait, in order
        self._put: Callable[[PhoneEvent], None] | None = None
        self._early: list[PhoneEvent] = []
        self._input_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._servers: list[asyncio.AbstractServer] = []
        #: on the loop's thread: a refusal of a form, shown once on the player's page; the screens changed
        self._notices: dict[str, str] = {}
        self._published = asyncio.Event()
        self._moves = guard.Buckets(MOVES_BURST, MOVES_RATE)
        self._slowed: dict[str, float] = {}
        self._hosts = listening.hosts()

    # -- lifecycle
    def start(self) -> str:
        """Serve in a thread; the address phones open."""
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="companion", daemon=True)
        self._thread.start()
        ready.wait()
        self.address = self._first().url(self.listening.port)
        return self.address

    def _first(self) -> Address:
        return (self.listening.addresses or self.listening.loopback)[0]

    def attach(self, source: LineSource) -> LineSource:
        """The session's input, with the players' commands from their phones merged in (those
        sent since `start` first)."""
        with self._input_lock:
            merged, self._put = with_phones(source, self._early)
            self._early = []
        return merged

    def _deliver(self, event: PhoneEvent) -> None:
        with self._input_lock:
            if self._put is None:
                self._early.append(event)
            else:
                self._put(event)

    def close(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)

    def _serve(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        logged = guard.log_to(self.store.path.parent / "companion.log")
        loop.set_exception_handler(guard.loop_errors)
        runner = web.AppRunner(self._app(), handler_cancellation=True, access_log=None, shutdown_timeout=2)
        try:
            loop.run_until_complete(runner.setup())
            handling, connections = runner.server, guard.Connections(guard.connection_cap())
            assert handling is not None
            options = {**guard.handler_options(), "loop": loop}
            for sock in self.listening.sockets:
                factory = lambda: guard.GuardedHandler(handling, connections, **options)  # noqa: E731
                # asyncio accepts at most `backlog` at a time; the kernel keeps its longer queue
                # (asyncio listens again with its own number)
                self._servers.append(loop.run_until_complete(loop.create_server(factory, sock=sock, backlog=guard.ACCEPT_BATCH)))
                sock.listen(LISTEN_BACKLOG)
            self._loop = loop
            ready.set()
            loop.run_forever()
        except Exception:
            guard.log.exception("the phones' server stopped")
        finally:
            ready.set()
            for server in self._servers:
                server.close()
            if self._transports:  # each page told the host is going (a page that does not read is not waited for)
                closing = asyncio.gather(*(_closed(ws) for ws in list(self._transports)))
                loop.run_until_complete(asyncio.wait([closing], timeout=1))
                closing.cancel()
            loop.run_until_complete(runner.cleanup())
            self.seats.close()
            guard.unlog(logged)

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=guard.MAX_BODY, middlewares=[guard.checks(self._hosts, self.listening.port)])
        app.on_response_prepare.append(guard.secure_headers)
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
        return self.seats.taken(player)

    def renew(self, player: str) -> str:
        """A new key for `player`'s seat, saved: the old link opens a page that says so from now
        on, and its open pages are told so; the player takes the seat again from the join page."""
        self.seats.renew(player)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._disconnect, player)
        return _("{address} with room code {code}").format(address=self.address, code=spoken_code(self.seats.code))

    def invite(self, output: TextOutput) -> None:
        """The address (the likeliest first, said so that it is easy to type), the room code,
        which interfaces are served, and the QR code behind a line that says how to skip it."""
        port, first, code = self.listening.port, self._first(), spoken_code(self.seats.code)
        url = first.url(port)
        output.note(_("Phones join at {address} (type {typed}) with room code {code}; the table page is at {table}.").format(
                        address=url, typed=first.typed(port), code=code, table=f"{url}table"),
                    _("Phones join at {address}, with room code {code}.").format(address=first.spoken(port), code=code))
        others = self.listening.addresses[1:]
        if others:
            output.write(_("If a phone cannot open it, try {addresses}.").format(
                addresses=", ".join(f"{a.url(port)} ({a.interface})" for a in others)))
        if not self.listening.addresses:
            output.note(_("Only this laptop can open the pages: it has no network connection that phones could use, or"
                          " --host chose this laptop alone. Connect it to the party's Wi-Fi or open a hotspot, then resume."))
        output.write(_served(self.listening))
        qr = _qr(url)
        output.write(n_("The QR code of {address} for a phone's camera follows ({count} line); a screen reader"
                        " may skip to the line '{end}'",
                        "The QR code of {address} for a phone's camera follows ({count} lines); a screen reader"
                        " may skip to the line '{end}'", len(qr)).format(address=url, count=len(qr), end=_(QR_END)))
        for line in qr:
            output.write(line)
        output.write(_(QR_END))

    def tell(self, player: str, lines: list[str]) -> None:
        for line in lines:
            self._said += 1
            self._replies[player] = [*self._replies[player], (self._said, line)][-KEPT:]

    def announce(self, line: str) -> None:
        self._said += 1
        self._announcements = [*self._announcements, (self._said, line)][-KEPT:]

    def refresh(self, session: Session) -> None:
        state = session.state
        left = session.time_left()
        left = None if left is None else round(left)
        payloads = {TABLE: {**table_screen(state, left), "announcements": self._announcements}}
        for player in state.players:
            payloads[player] = {
                **player_screen(state, player, left),
                "announcements": self._announcements,
                "replies": self._replies[player],
            }
        texts = {key: json.dumps({**payload, "epoch": self.epoch}, ensure_ascii=False) for key, payload in payloads.items()}
        files = {key: pictures(state, None if key == TABLE else key) for key in payloads}
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
                self._send_latest(ws, text)

    def _send_latest(self, ws: web.WebSocketResponse, text: str) -> None:
        """Send `text` to a page: one send at a time per page, and a page that is still reading
        an older screen gets only the newest one after it."""
        sending = ws in self._outbox
        self._outbox[ws] = text
        if not sending:
            asyncio.ensure_future(self._drain(ws))

    async def _drain(self, ws: web.WebSocketResponse) -> None:
        try:
            while ws in self._outbox:
                text = self._outbox[ws]
                await self._send(ws, text)
                if self._outbox.get(ws) == text:
                    del self._outbox[ws]
        finally:
            self._outbox.pop(ws, None)

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        """Send, or drop a page that does not read within SEND_TIMEOUT (it reconnects and gets
        the screen anew if it lives)."""
        try:
            await asyncio.wait_for(ws.send_str(text), guard.SEND_TIMEOUT)
        except (ConnectionError, RuntimeError, asyncio.TimeoutError):
            transport = self._transports.get(ws)
            if transport is not None:
                transport.abort()

    def _disconnect(self, player: str) -> None:
        """Close `player`'s open pages, whose link no longer works."""
        for ws in self._sockets.pop(player, set()):
            asyncio.ensure_future(_closed(ws, RENEWED, _("This link was renewed.")))

    def _screen(self, key: str) -> dict[str, Any]:
        text = self._payloads.get(key)
        return json.loads(text) if text else {}

    def _player(self, request: web.Request) -> str:
        """The player whose key the address holds (the connection then holds a seat); a page
        that says what happened for any other."""
        token = request.match_info.get("token", "")
        player = self.seats.player(token)
        if player is None:
            raise web.HTTPForbidden(text=pages.link_gone_page(self.title, self.language, self.seats.renewed(token)),
                                    content_type="text/html")
        guard.seat(request)
        return player

    def _from_here(self, request: web.Request) -> None:
        """403 for a form or a WebSocket from a page elsewhere, which must not take a seat or move
        for its visitor."""
        if not guard.same_origin(request, self._hosts, self.listening.port):
            raise web.HTTPForbidden(text=_("Refused: this comes from a page that is not this game's.") + "\n")

    async def _posted(self, request: web.Request) -> Any:
        """A form's fields, once its body has come (408 if it does not within BODY_TIMEOUT)."""
        try:
            return await asyncio.wait_for(request.post(), guard.BODY_TIMEOUT)
        except asyncio.TimeoutError:
            raise web.HTTPRequestTimeout(text=_("The form took too long to arrive.") + "\n") from None

    def _phone_key(self, request: web.Request, form: Any = None) -> str:
        """The phone's key: the form's, else its cookie's, else a new one."""
        for given in ((form or {}).get("phone"), request.cookies.get(PHONE_COOKIE)):
            if isinstance(given, str) and PHONE_KEY.fullmatch(given):
                return given
        return new_phone_key()

    def _join_answer(self, phone: str, problem: str | None = None, status: int = 200) -> web.Response:
        response = _html(pages.join_page(self.title, self.language, self.seats.board(phone), phone, problem), status)
        response.set_cookie(PHONE_COOKIE, phone, max_age=7 * 24 * 3600, path="/", httponly=True, samesite="Strict")
        return response

    async def _join_page(self, request: web.Request) -> web.Response:
        return self._join_answer(self._phone_key(request))

    async def _join(self, request: web.Request) -> web.Response:
        self._from_here(request)
        form = await self._posted(request)
        phone = self._phone_key(request, form)
        peer = guard.peer_key(request.transport.get_extra_info("peername") if request.transport else None)
        try:
            token, new = self.seats.claim(form.get("player"), form.get("code"), phone, peer)
        except JoinRefused as refused:
            return self._join_answer(phone, refused.message, refused.status)
        if new:
            self._deliver(Joined(str(form.get("player"))))
        raise web.HTTPSeeOther(f"/p/{token}")

    async def _player_page(self, request: web.Request) -> web.Response:
        player = self._player(request)
        link = f"/p/{request.match_info['token']}"
        notice = self._notices.pop(player, None)
        return _html(pages.player_page(self.title, self.language, player, link, self._screen(player), notice))

    async def _form(self, request: web.Request) -> web.Response:
        """A move sent by a page without JavaScript: played like one sent over the WebSocket,
        then the page again (post, redirect, get), once the session has answered or after a
        few seconds; a refusal of the form itself is shown there once."""
        player = self._player(request)
        self._from_here(request)
        form = await self._posted(request)
        before, answered = self._payloads.get(player), self._published
        slow = self._too_fast(player)
        refusal = self._command(player, {"verb": form.get("verb"), "text": form.get("text", "")}) if slow is None else slow
        if refusal is not None:
            self._notices[player] = refusal or _(SLOW_DOWN)
        else:
            try:
                while self._payloads.get(player) == before:
                    await asyncio.wait_for(answered.wait(), FORM_WAIT)
                    answered = self._published
            except asyncio.TimeoutError:
                pass  # the page shows the game as it is; the answer comes with a later look
        raise web.HTTPSeeOther(f"/p/{request.match_info['token']}")

    async def _table_page(self, request: web.Request) -> web.Response:
        return _html(pages.table_page(self.title, self.language, self._screen(TABLE)))

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        text = resources.files("host.companion").joinpath("static").joinpath(name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=STATIC_TYPES[name], charset="utf-8")

    async def _picture(self, request: web.Request) -> web.Response:
        """A card's picture, for the page that shows it now (a player's, by their token, or the
        table's); the file is checked again as it is read (it may have changed since)."""
        key = self._player(request) if "token" in request.match_info else TABLE
        path = self._pictures.get(key, {}).get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        try:
            data, media = await asyncio.get_running_loop().run_in_executor(None, read_picture, path)
        except FileRefused:
            raise web.HTTPNotFound() from None
        return web.Response(body=data, content_type=media)

    async def _player_socket(self, request: web.Request) -> web.WebSocketResponse:
        self._from_here(request)
        try:
            player = self._player(request)
        except web.HTTPForbidden:  # a page that keeps reconnecting is told to stop
            ws = web.WebSocketResponse()
            if not ws.can_prepare(request).ok:
                raise
            await ws.prepare(request)
            renewed = self.seats.renewed(request.match_info.get("token", "")) is not None
            await _closed(ws, RENEWED if renewed else UNKNOWN_LINK, _("This link opens no seat."))
            return ws
        return await self._socket(request, player)

    async def _table_socket(self, request: web.Request) -> web.WebSocketResponse:
        self._from_here(request)
        return await self._socket(request, TABLE)

    async def _socket(self, request: web.Request, key: str) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE, compress=False)
        await ws.prepare(request)
        self._sockets[key].add(ws)
        self._transports[ws] = request.transport
        try:
            if key in self._payloads:
                self._send_latest(ws, self._payloads[key])
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                refusal = self._too_fast(key)
                if refusal is None:
                    refusal = _("The table page takes no commands.") if key == TABLE else self._command(key, _json(message.data))
                if refusal:
                    await self._send(ws, json.dumps({"reply": refusal}))
        finally:
            self._sockets[key].discard(ws)
            self._transports.pop(ws, None)
        return ws

    def _too_fast(self, key: str) -> str | None:
        """None while a page sends at a person's pace; past MOVES_RATE, SLOW_DOWN once every
        SLOW_QUIET seconds and "" (nothing to send) in between."""
        if self._moves.take(key):
            return None
        now = time.monotonic()
        if now - self._slowed.get(key, -SLOW_QUIET) < SLOW_QUIET:
            return ""
        self._slowed[key] = now
        return _(SLOW_DOWN)

    def _command(self, player: str, message: object) -> str | None:
        """Put a phone's command on the session's input; a malformed one is refused with why."""
        if message is NOT_JSON:
            return _("Refused: that message is not JSON, so nothing was done.")
        if not isinstance(message, dict) or not isinstance(message.get("verb"), str) or not isinstance(message.get("text", ""), str):
            return _("Refused: a command is an object with a verb and a text, so nothing was done.")
        verb, text = message["verb"], " ".join(unicodedata.normalize("NFC", message.get("text", "")).split())
        if verb not in adapter_for(self.game).phone_verbs:
            return _("Refused: {verb} is not a command of this page, so nothing was done.").format(verb=quoted(verb))
        if len(text) > MAX_TEXT:
            return _("Refused: that is longer than {count} characters, so nothing was done.").format(count=MAX_TEXT)
        if not text.isprintable():
            return _("Refused: that has control characters in it, so nothing was done.")
        self._deliver(PhoneCommand(player, verb, text))  # the session plays it as this player's, or refuses it
        return None


NOT_JSON = object()


def _json(data: str) -> object:
    """A message's JSON, or NOT_JSON (nested too deep to read included)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return NOT_JSON


async def _closed(ws: web.WebSocketResponse, code: int = 1001, message: str = "") -> None:
    """Close a page's WebSocket, giving up on a page that does not answer."""
    try:
        await asyncio.wait_for(ws.close(code=code, message=message.encode()), guard.SEND_TIMEOUT)
    except (ConnectionError, RuntimeError, asyncio.TimeoutError):
        pass


def _served(listening: Served) -> str:
    """Which interfaces are served, in one line."""
    by_interface: dict[str, list[str]] = defaultdict(list)
    for address in listening.addresses:
        by_interface[address.interface].append(address.ip)
    parts = [f"{interface} ({', '.join(ips)})" for interface, ips in by_interface.items()]
    parts.append(_("loopback, for a browser on this laptop ({addresses})").format(addresses=", ".join(a.ip for a in listening.loopback)))
    return _("Served on {interfaces}; --host ADDRESS serves one address alone.").format(interfaces=join_names(parts))


def _qr(text: str) -> list[str]:
    import segno  # the QR code is loaded only for a game with phones

    drawn = io.StringIO()
    segno.make(text, error="l").terminal(out=drawn, compact=True)
    return drawn.getvalue().splitlines()


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")
