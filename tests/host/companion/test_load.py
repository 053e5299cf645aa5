"""Ten phones keep playing while the network attacks the host, on loopback: 1,100 idle
connections, 200 slowloris clients (a request head dribbled a line a second) and 200 pages that
never read what they are sent, from many addresses, each reconnecting when the host drops it,
with the host's open files capped at 1024 as on a default laptop. Every phone move is answered,
a new phone can still open the join page, nothing but the game reaches its output, and its
memory stays within a generous bound. No time is asserted (the machine is shared)."""
from __future__ import annotations

import asyncio
import json
import resource
from pathlib import Path

import aiohttp
import pytest

from tests.host.companion.browser import Host
from tests.host.companion.hostile import Attack

pytestmark = pytest.mark.slow

PLAYERS = ["Nina", "Sabine", "Stephan", "Melanie", "Leo", "Ana", "Bo", "Cy", "Di", "Eva"]
TERMS = ["radio", "police", "sandwich", "truck", "pizza"]
IDLE, SLOWLORIS, NON_READERS = 1100, 200, 200
#: how long the phones play under attack, in seconds
PLAYING = 20.0
#: the host's memory may grow by this much under attack (about 11 MB here); the issue's target
#: for the whole companion is 80 MB
MEMORY_BOUND_MB = 80


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) / 1024


class Phone:
    """A player's phone: its own address, the join form, then its page's WebSocket."""

    def __init__(self, number: int, player: str) -> None:
        self.player, self.address = player, f"127.0.2.{number + 1}"
        self.client = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(self.address, 0)))
        self.seen = 0
        self.moves = self.answered = 0

    async def join(self, base: str, code: str) -> None:
        form = {"player": self.player, "code": code, "phone": f"phone-key-of-{self.player}-0123456789"}
        async with self.client.post(f"{base}/join", data=form, allow_redirects=False) as joined:
            token = joined.headers["Location"].rsplit("/", 1)[1]
        self.ws = await self.client.ws_connect(f"{base}/ws/p/{token}")

    async def move(self, verb: str, text: str) -> None:
        """Send a move and wait for its answer on this phone (a reply newer than any seen)."""
        self.moves += 1
        await self.ws.send_str(json.dumps({"verb": verb, "text": text}))
        while True:
            screen = json.loads((await self.ws.receive(timeout=30)).data)
            if "reply" in screen:
                raise AssertionError(f"{self.player}: {screen['reply']}")
            newest = max((number for number, _ in screen.get("replies", [])), default=0)
            if newest > self.seen:
                self.seen = newest
                self.answered += 1
                return

    async def play(self, until: float) -> None:
        """Write the five terms and erase them again, at a person's pace, until `until`."""
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            for verb in ("term", "erase"):
                for term in TERMS:
                    await self.move(verb, term)
                    await asyncio.sleep(0.5)

    async def close(self) -> None:
        await self.ws.close()
        await self.client.close()


async def under_attack(host: Host) -> dict[str, float]:
    port = int(host.base.rsplit(":", 1)[1])
    phones = [Phone(number, player) for number, player in enumerate(PLAYERS)]
    for phone in phones:
        await phone.join(host.base, host.code)
    host.type("side Nina normal")
    await asyncio.sleep(1)
    for phone in phones:  # the screens sent meanwhile
        phone.seen = max((n for n, _ in json.loads((await phone.ws.receive(timeout=10)).data).get("replies", [])), default=0)
    before = rss_mb(host.process.pid)
    attack = Attack(port, idle=IDLE, slowloris=SLOWLORIS, non_readers=NON_READERS)
    attack.start()
    await asyncio.sleep(5)  # the attack at full strength before the phones play
    loop = asyncio.get_running_loop()
    peak = rss_mb(host.process.pid)
    playing = asyncio.gather(*(phone.play(loop.time() + PLAYING) for phone in phones[1:]))
    while not playing.done():
        peak = max(peak, rss_mb(host.process.pid))
        await asyncio.sleep(1)
    await playing
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.2.99", 0))) as newcomer:
        async with newcomer.get(f"{host.base}/") as page:  # a phone arriving late still gets in
            joining = page.status
    await attack.stop()
    for phone in phones:
        await phone.close()
    return {"before": before, "peak": peak, "joining": joining, "moves": sum(p.moves for p in phones),
            "answered": sum(p.answered for p in phones)}


def test_ten_phones_play_through_an_attack(tmp_path: Path) -> None:
    host = Host(tmp_path, "play", "stories", "--players", *PLAYERS, "--seed", "2")
    try:
        resource.prlimit(host.process.pid, resource.RLIMIT_NOFILE, (1024, 1024))
        figures = asyncio.run(under_attack(host))
        print(figures)
        assert figures["moves"] > 0 and figures["answered"] == figures["moves"]
        assert figures["joining"] == 200
        assert figures["peak"] - figures["before"] < MEMORY_BOUND_MB
        host.type("score")
        host.wait_for("Scores:")
        printed = host.printed()
        assert "Traceback" not in printed and "Error" not in printed and "aiohttp" not in printed
    finally:
        host.close()
