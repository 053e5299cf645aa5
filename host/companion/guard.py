"""The companion server's defences: it is served on a party's network, where anyone may connect.

aiohttp's own server does part of it, configured by `handler_options`: a request's head must
arrive within HEAD_TIMEOUT of the connection's start or of the previous response (its keep-alive
timeout, which also closes idle and half-open connections: a slowloris), header lines, fields and
counts are capped (a longer one is answered 400), and the app caps a body (413). What it does not
do is done here:

- `Connections` counts connections, PER_ADDRESS from one address and `connection_cap()` in all,
  below the open-file limit; over a cap the oldest connection that holds no player's seat and is
  doing nothing is closed to make room, else the new one is (`GuardedHandler` asks it);
- `checks`: the Host header must name an address served (a DNS-rebinding page names its own),
  every response carries the security headers, parse errors included;
- `same_origin`: a form or a WebSocket opened from a page elsewhere (`Origin: null` too) is refused;
- `Bucket`/`Buckets`: rates (a phone's commands, wrong room codes);
- `log_to`: aiohttp's and asyncio's logging, and the server's errors, go to a rotated file in the
  data folder, never to the game's output.
"""
from __future__ import annotations

import asyncio
import logging
from io import TextIOWrapper
import os
import resource
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from games.language import _

#: seconds for a request's head, from the connection's start or the last response (idle keep-alive too)
HEAD_TIMEOUT = 10.0
#: seconds for a form's body to arrive once its head has
BODY_TIMEOUT = 10.0
#: seconds a page may take to read what it is sent before it is closed (a reader that never reads)
SEND_TIMEOUT = 10.0
#: the largest request body (a form: a name, a room code, a term)
MAX_BODY = 16 * 1024
#: connections from one address: a phone has a page, its WebSocket and a few fetches; a laptop has tabs
PER_ADDRESS = 32
#: connections in all, at most (fewer when the open-file limit is low)
MAX_CONNECTIONS = 512
#: connections asyncio accepts from one listening socket at a time, before it serves the pages again
ACCEPT_BATCH = 32
#: open files kept free for the rest of storyhost and for connections accepted but not yet
#: admitted or closed (a few batches on each address served)
SPARE_FILES = 384
#: the rotated log: at most two files of this size
LOG_BYTES = 1_000_000

#: every response: nothing loaded from elsewhere, no framing, no referrer beyond these pages
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self';"
        " base-uri 'none'; object-src 'none'"
    ),
    # a private link is never sent elsewhere; sent to these pages, it lets a browser name its own
    # origin on a form (with no-referrer it sends "Origin: null", which is refused)
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-store",
}

log = logging.getLogger("storyhost.companion")


def handler_options() -> dict[str, Any]:
    """aiohttp's request handler, as configured here."""
    return {
        "keepalive_timeout": HEAD_TIMEOUT, "max_line_size": 4096, "max_field_size": 4096, "max_headers": 48,
        "lingering_time": 2.0, "access_log": None,
    }


def connection_cap() -> int:
    """How many connections may be open at once: the open-file limit is raised as far as allowed
    (to 8192), and the cap kept SPARE_FILES below it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    files = 1 << 20 if soft == resource.RLIM_INFINITY else soft
    return max(16, min(MAX_CONNECTIONS, files - SPARE_FILES))


def peer_key(peername: Any) -> str:
    """The address a connection comes from (an IPv4 address mapped into IPv6 as itself)."""
    host = str(peername[0]) if isinstance(peername, tuple) and peername else "unknown"
    return host.removeprefix("::ffff:")


class Connections:
    """The open connections, capped per address and in all. Over a cap, the connection that
    matters least is closed to make room: one that holds no seat, idle before busy (a table page),
    the longest idle first; found at once among thousands of newcomers a second."""

    def __init__(self, cap: int, per_address: int = PER_ADDRESS) -> None:
        self.cap, self.per_address = cap, per_address
        self.count = 0
        #: by address, oldest first
        self.by_peer: dict[str, dict[GuardedHandler, None]] = {}
        #: the connections without a seat or a request, in the order they became so
        self.idle: dict[GuardedHandler, None] = {}
        #: connections refused, and closed to make room (for the log)
        self.refused = self.evicted = 0
        self._reported = (time.monotonic(), 0, 0)

    def admit(self, new: GuardedHandler) -> bool:
        """Whether `new` may stay, having made room for it if it can."""
        here = self.by_peer.setdefault(new.peer, {})
        if len(here) >= self.per_address or self.count >= self.cap:
            self._report()
            if len(here) >= self.per_address and not self._evict(here) or self.count >= self.cap and not self._evict(None):
                self.refused += 1
                if not here:
                    del self.by_peer[new.peer]
                return False
        here[new] = None
        self.idle[new] = None
        self.count += 1
        return True

    def _evict(self, among: dict[GuardedHandler, None] | None) -> bool:
        """Close the connection (`among` one address's, or any) that matters least; False when
        every one holds a seat."""
        if among is None:
            victim = next(iter(self.idle), None)
            if victim is None:  # no idle one: a busy one without a seat, such as a table page
                victim = min((h for peer in self.by_peer.values() for h in peer if not h.seated), key=lambda h: h.since, default=None)
        else:
            victim = min((h for h in among if not h.seated), key=lambda h: (h.busy > 0, h.since), default=None)
        if victim is None:
            return False
        self.forget(victim)
        if victim.transport is not None:
            victim.transport.abort()
        self.evicted += 1
        return True

    def forget(self, handler: GuardedHandler) -> None:
        here = self.by_peer.get(handler.peer, {})
        if handler in here:
            del here[handler]
            self.idle.pop(handler, None)
            self.count -= 1
            if not here:
                del self.by_peer[handler.peer]

    def busy(self, handler: GuardedHandler, change: int) -> None:
        """A request of `handler`'s begins (+1) or ends (-1)."""
        handler.busy += change
        handler.since = time.monotonic()
        self.idle.pop(handler, None)
        if not handler.busy and not handler.seated and handler.peer in self.by_peer and handler in self.by_peer[handler.peer]:
            self.idle[handler] = None  # the newest idle one now

    def seat(self, handler: GuardedHandler) -> None:
        handler.seated = True
        self.idle.pop(handler, None)

    def _report(self) -> None:
        """One log line every 10 s at most while connections are refused or closed, not one each."""
        now = time.monotonic()
        since, refused, evicted = self._reported
        if now - since >= 10:
            log.warning("in %.0f s, %d connections refused and %d closed to make room (at most %d from one address, %d in all)",
                        now - since, self.refused - refused, self.evicted - evicted, self.per_address, self.cap)
            self._reported = (now, self.refused, self.evicted)


class GuardedHandler(web.RequestHandler):
    """aiohttp's request handler for one connection, admitted by `Connections` first; its error
    answers (a malformed request) carry the security headers too."""

    def __init__(self, manager: web.Server, connections: Connections, **options: Any) -> None:
        super().__init__(manager, **options)
        self.connections = connections
        self.peer = ""
        self.admitted = False
        #: a request of this connection showed a player's key: never closed to make room
        self.seated = False
        #: requests being handled now (a WebSocket's lasts as long as it is open)
        self.busy = 0
        self.since = time.monotonic()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.peer = peer_key(transport.get_extra_info("peername"))
        if not self.connections.admit(self):
            assert isinstance(transport, asyncio.Transport)
            transport.abort()  # aiohttp never sees it
            return
        self.admitted = True
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self.admitted:
            return
        self.connections.forget(self)
        super().connection_lost(exc)

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(HEADERS)
        return response


def host_allowed(value: str | None, hosts: set[str], port: int) -> bool:
    """Whether a Host header names one of `hosts` (an IPv6 address in brackets) on `port`."""
    if not value:
        return False
    value = value.casefold()
    name, _, given = value.rpartition(":") if value.rfind(":") > value.rfind("]") else (value, "", "")
    return name in hosts and (given == str(port) or (not given and port == 80))


def same_origin(request: web.BaseRequest, hosts: set[str], port: int) -> bool:
    """Whether a browser says the request comes from these pages (no browser, no Origin: allowed).
    `Origin: null` (an opaque origin: a sandboxed frame, a file, a data: page) is refused."""
    origin = request.headers.get("Origin")
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from not in (None, "same-origin", "none"):
        return False
    if origin is None:
        return True
    scheme, _, rest = origin.partition("://")
    return scheme == "http" and host_allowed(rest, hosts, port)


def checks(hosts: set[str], port: int) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware every request passes: a Host header not ours is answered 421; each request
    is counted on its connection while it runs."""

    @web.middleware
    async def checked(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host"), hosts, port):
            return web.Response(status=421, text=_("This is not the address of this game's pages.") + "\n")
        connection = request.protocol
        if not isinstance(connection, GuardedHandler):
            return await handler(request)
        connection.connections.busy(connection, +1)
        try:
            return await handler(request)
        finally:
            connection.connections.busy(connection, -1)

    return checked


async def secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: the security headers on every response (static files and redirects too)."""
    response.headers.update(HEADERS)


def seat(request: web.BaseRequest) -> None:
    """This request showed a player's key: its connection is never closed to make room."""
    if isinstance(request.protocol, GuardedHandler):
        request.protocol.connections.seat(request.protocol)


@dataclass
class Bucket:
    """A token bucket: `burst` at once, then `rate` a second."""

    burst: float
    rate: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def ready(self) -> bool:
        """Whether a token is there now (none is taken)."""
        now = time.monotonic()
        self.tokens = self.burst if self.tokens < 0 else min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def take(self) -> bool:
        if self.ready():
            self.tokens -= 1
            return True
        return False


@dataclass
class Buckets:
    """A bucket per key (a player, an address), the full ones dropped when there are many."""

    burst: float
    rate: float
    limit: int = 4096
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def _bucket(self, key: str) -> Bucket:
        if key not in self.buckets and len(self.buckets) >= self.limit:
            now = time.monotonic()
            self.buckets = {k: b for k, b in self.buckets.items() if b.tokens + (now - b.stamp) * b.rate < b.burst}
        return self.buckets.setdefault(key, Bucket(self.burst, self.rate))

    def ready(self, key: str) -> bool:
        return self._bucket(key).ready()

    def take(self, key: str) -> bool:
        return self._bucket(key).take()


class PrivateLog(RotatingFileHandler):
    """A rotated log file readable by its user only, opened at once (a flood may leave no file to
    open later), and silent when it cannot write: nothing reaches the game's output."""

    def _open(self) -> TextIOWrapper:
        return open(os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "a", encoding="utf-8")

    def handleError(self, record: logging.LogRecord) -> None:
        pass  # logging's default prints a traceback on standard error, that is into the game


def _one_line(record: logging.LogRecord) -> bool:
    """A malformed request is logged in one line, not with the parser's traceback."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, HttpProcessingError):
        record.msg = f"{record.msg}: {' '.join(str(error).split())[:300]}"
        record.exc_info = None
    return True


def log_to(path: Path) -> logging.Handler:
    """Send aiohttp's, asyncio's and this server's logging to `path` (rotated: at most
    2 × LOG_BYTES), never to the game's output; the handler, to remove when done."""
    handler = PrivateLog(path, maxBytes=LOG_BYTES, backupCount=1)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    handler.addFilter(_one_line)
    for name in ("aiohttp", "asyncio", log.name):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return handler


def unlog(handler: logging.Handler) -> None:
    for name in ("aiohttp", "asyncio", log.name):
        logging.getLogger(name).removeHandler(handler)
    handler.close()


def loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's unhandled errors, to the log file."""
    log.error("%s", context.get("message", "error"), exc_info=context.get("exception"))
