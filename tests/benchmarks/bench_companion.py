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
- idle CPU: the host's CPU time over 10 s with the ten phones connected and nothing happening.

Run: .venv/bin/python tests/benchmarks/bench_companion.py [--rounds N]
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

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.host.cli_helpers import storyhost_command, storyhost_env  # noqa: E402

TARGETS = {"phone to table p95 ms": 200, "memory added MB": 60, "idle CPU %": 5}  # issue 10
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
    """Wait until the table's screen says `line`: "The card: ..." or "NAME: 2 of 5 terms written"."""
    async for message in table:
        view = json.loads(message.data).get("table") or {}
        said = [f"{view.get('big_label')}: {view.get('big')}",
                *(f"{meter['name']}: {meter['count']} of {meter['of']} {meter['unit']}" for meter in view.get("meters", []))]
        if any(shown.startswith(line) for shown in said):
            return


async def phones(base: str, host: Host, rounds: int) -> tuple[list[float], float, float]:
    async with aiohttp.ClientSession() as client:
        tokens = {}
        for player in PLAYERS:
            async with client.post(f"{base}/join", data={"player": player}, allow_redirects=False) as joined:
                tokens[player] = joined.headers["Location"].rsplit("/", 1)[1]
        sockets = {player: await client.ws_connect(f"{base}/ws/p/{token}") for player, token in tokens.items()}
        table = await client.ws_connect(f"{base}/ws/table")
        host.type("side Nina normal")
        await table_counts(table, "The card:")
        delays = []
        writers = PLAYERS[1:]
        for round_number in range(rounds):
            for index, term in enumerate(TERMS):
                for writer in writers:
                    erase = round_number % 2 == 1
                    written = len(TERMS) - index - 1 if erase else index + 1
                    sent = time.perf_counter()
                    await sockets[writer].send_str(json.dumps({"verb": "erase" if erase else "term", "text": term}))
                    await table_counts(table, f"{writer}: {written} of 5 terms written")
                    delays.append(time.perf_counter() - sent)
        for socket in sockets.values():  # what each phone was sent meanwhile is read, as a browser would
            while True:
                try:
                    await socket.receive(timeout=0.2)
                except asyncio.TimeoutError:
                    break
        memory = host.rss_mb()
        cpu_before, wall_before = host.cpu_seconds(), time.monotonic()
        await asyncio.sleep(IDLE_SECONDS)
        idle = 100 * (host.cpu_seconds() - cpu_before) / (time.monotonic() - wall_before)
        for socket in [*sockets.values(), table]:
            await socket.close()
        return delays, memory, idle


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
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        baseline = without_companion(Path(folder) / "plain")
        host = Host(Path(folder) / "companion", "--companion", "--port", "0")
        try:
            address = host.line_with("Phones join at").split("http://", 1)[1].split("/", 1)[0]
            port = address.rsplit(":", 1)[1]
            delays, memory, idle = asyncio.run(phones(f"http://127.0.0.1:{port}", host, options.rounds))
        finally:
            host.close()
    ms = sorted(delay * 1000 for delay in delays)
    p95 = ms[min(len(ms) - 1, round(0.95 * len(ms)) - 1)]
    figures = {"phone to table p95 ms": p95, "memory added MB": memory - baseline, "idle CPU %": idle}
    print(f"{len(PLAYERS)} phones and the table connected; {len(ms)} actions from phones")
    print(f"phone to table: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")
    print(f"memory: {baseline:.1f} MB without --companion, {memory:.1f} MB with 10 phones: {memory - baseline:+.1f} MB")
    print(f"idle CPU with 10 phones connected: {idle:.2f} % over {IDLE_SECONDS:.0f} s")
    for name, target in TARGETS.items():
        print(f"{name}: {figures[name]:.1f} (target <= {target}): {'met' if figures[name] <= target else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
