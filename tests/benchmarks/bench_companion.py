"""Companion figures: how fast a phone's action reaches the table page, and what serving ten
phones costs the host.

Runs `storyhost play stories --companion` with 10 players (the most Stories! seats), joins all ten
through the join page and connects each player's page and the table page over WebSockets (aiohttp's
client standing in for the browsers: the figures are the host's, not a browser's rendering), then
prints:
- phone to table: from a writer's phone sending a term (or erasing it) to the table page receiving
  the screen that counts it; p50 and p95 over every action;
- memory added: the host's resident memory with the ten phones connected, after the actions,
  minus that of the same game played without --companion;
- idle CPU: the host's CPU time over 10 s with the ten phones connected and nothing happening;
- then the same phone to table again while a hostile process (tests/host/companion/hostile.py)
  holds 1,000 idle connections from 60 loopback addresses, opening each again a second after the
  host drops it (the host keeps at most 512, closes the oldest idle one for each newcomer and any
  idle one after 10 s, so holding them takes a steady stream of new connections); and once more
  while it opens each again at once (0.2 s): a flood of several hundred new connections a
  second. With each, the host's memory at its peak, minus that of the game without --companion.

Run: .venv/bin/python tests/benchmarks/bench_companion.py [--rounds N] [--hostile N]
Timings on a shared machine are noisy: run it more than once.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.host.cli_helpers import storyhost_command, storyhost_env  # noqa: E402
from tests.host.companion.browser import room_code  # noqa: E402

TARGETS = {
    "phone to table p95 ms": 200, "memory added MB": 60, "idle CPU %": 5,  # issue 10
    "phone to table p95 ms under attack": 100, "memory added MB under attack": 80,  # issue 17
}
PLAYERS = ["Nina", "Sabine", "Stephan", "Melanie", "Leo", "Ana", "Bo", "Cy", "Di", "Eva"]
TERMS = ["radio", "police", "sandwich", "truck", "pizza"]
IDLE_SECONDS = 10.0


class Host:
    def __init__(self, data: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            storyhost_command("play", "stories", "--players", *PLAYERS, "--seed", "2", *extra),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=storyhost_env(data),
        )

    def line_with(self, text: str) -> str:
        assert self.process.stdout
        for line in self.process.stdout:
            if text in line:
                return line
        raise RuntimeError(f"storyhost ended before printing {text!r}")

    def type(self, line: str) -> None:
        assert self.process.stdin
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) / 1024

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


async def table_counts(table: aiohttp.ClientWebSocketResponse, line: str) -> None:
    """Wait until the table's screen says `line`: "The card: ..." or "NAME: 2 of 5 terms written"
    (an error after 30 s: an action that never reaches the table)."""
    while True:
        message = await table.receive(timeout=30)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise RuntimeError(f"the table page closed before showing {line!r}")
        view = json.loads(message.data).get("table") or {}
        said = [f"{view.get('big_label')}: {view.get('big')}",
                *(f"{meter['name']}: {meter['count']} of {meter['of']} {meter['unit']}" for meter in view.get("meters", []))]
        if any(shown.startswith(line) for shown in said):
            return


async def actions(host: Host, sockets: dict[str, aiohttp.ClientWebSocketResponse], table: aiohttp.ClientWebSocketResponse,
                  rounds: range) -> tuple[list[float], float]:
    """Every writer writes every term (or erases it, in odd rounds): the delays from each
    phone's send to the table page's count, and the host's peak memory meanwhile."""
    delays, peak = [], host.rss_mb()
    for round_number in rounds:
        for index, term in enumerate(TERMS):
            for writer in PLAYERS[1:]:
                erase = round_number % 2 == 1
                written = len(TERMS) - index - 1 if erase else index + 1
                sent = time.perf_counter()
                await sockets[writer].send_str(json.dumps({"verb": "erase" if erase else "term", "text": term}))
                await table_counts(table, f"{writer}: {written} of 5 terms written")
                delays.append(time.perf_counter() - sent)
                await asyncio.sleep(0.1)  # a person's pace: a phone sends at most a few moves a second
            peak = max(peak, host.rss_mb())
    return delays, peak


async def read(socket: aiohttp.ClientWebSocketResponse) -> None:
    """Read what a phone's page is sent, and answer the host's pings, as a browser does."""
    async for _ in socket:
        pass


async def phones(base: str, code: str, host: Host, rounds: int, hostile: int) -> dict[str, Any]:
    async with aiohttp.ClientSession() as client:
        tokens = {}
        for player in PLAYERS:
            form = {"player": player, "code": code, "phone": f"bench-phone-key-{player}-0123456789"}
            async with client.post(f"{base}/join", data=form, allow_redirects=False) as joined:
                tokens[player] = joined.headers["Location"].rsplit("/", 1)[1]
        sockets = {player: await client.ws_connect(f"{base}/ws/p/{token}") for player, token in tokens.items()}
        readers = [asyncio.create_task(read(socket)) for socket in sockets.values()]
        table = await client.ws_connect(f"{base}/ws/table")
        host.type("side Nina normal")
        await table_counts(table, "The card:")
        delays, _ = await actions(host, sockets, table, range(rounds))
        memory = host.rss_mb()
        cpu_before, wall_before = host.cpu_seconds(), time.monotonic()
        await asyncio.sleep(IDLE_SECONDS)
        idle = 100 * (host.cpu_seconds() - cpu_before) / (time.monotonic() - wall_before)
        attacked = {}
        for number, pause in enumerate((1.0, 0.2), start=1):
            attack = subprocess.Popen([sys.executable, str(ROOT / "tests/host/companion/hostile.py"), base.rsplit(":", 1)[1],
                                       "--idle", str(hostile), "--pause", str(pause)], env={**os.environ, "PYTHONPATH": str(ROOT)})
            try:
                await asyncio.sleep(5)  # the attack at full strength
                attacked[pause] = await actions(host, sockets, table, range(number * rounds, (number + 1) * rounds))
            finally:
                attack.kill()
                attack.wait()
        for socket in [*sockets.values(), table]:
            await socket.close()
        await asyncio.gather(*readers)
        return {"delays": delays, "memory": memory, "idle": idle, "attacked": attacked}


def percentile(sorted_ms: list[float], share: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, round(share * len(sorted_ms)) - 1)]


def without_companion(data: Path) -> float:
    host = Host(data)
    try:
        host.type("side Nina normal")
        host.line_with("Everyone else, secretly write")
        time.sleep(1)
        return host.rss_mb()
    finally:
        host.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds of writing (then erasing) every term")
    parser.add_argument("--hostile", type=int, default=1000, help="hostile idle connections held during the last measures")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        baseline = without_companion(Path(folder) / "plain")
        host = Host(Path(folder) / "companion", "--companion", "--port", "0")
        try:
            joining = host.line_with("Phones join at")
            port = joining.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
            found = asyncio.run(phones(f"http://127.0.0.1:{port}", room_code(joining), host, options.rounds, options.hostile))
        finally:
            host.close()
    ms = sorted(delay * 1000 for delay in found["delays"])
    held, held_peak = found["attacked"][1.0]
    held = sorted(delay * 1000 for delay in held)
    p95, memory = percentile(ms, 0.95), found["memory"]
    figures = {"phone to table p95 ms": p95, "memory added MB": memory - baseline, "idle CPU %": found["idle"],
               "phone to table p95 ms under attack": percentile(held, 0.95), "memory added MB under attack": held_peak - baseline}
    print(f"{len(PLAYERS)} phones and the table connected; {len(ms)} actions from phones, then as many under each attack")
    print(f"phone to table: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")
    print(f"memory: {baseline:.1f} MB without --companion, {memory:.1f} MB with 10 phones: {memory - baseline:+.1f} MB")
    print(f"idle CPU with 10 phones connected: {found['idle']:.2f} % over {IDLE_SECONDS:.0f} s")
    for pause, (delays, peak) in found["attacked"].items():
        attacked = sorted(delay * 1000 for delay in delays)
        print(f"with {options.hostile} hostile idle connections held, each opened again {pause:.1f} s after it is dropped:"
              f" phone to table p50 {statistics.median(attacked):.1f} ms, p95 {percentile(attacked, 0.95):.1f} ms,"
              f" max {attacked[-1]:.1f} ms; memory at its peak {peak:.1f} MB: {peak - baseline:+.1f} MB")
    for name, target in TARGETS.items():
        print(f"{name}: {figures[name]:.1f} (target <= {target}): {'met' if figures[name] <= target else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
