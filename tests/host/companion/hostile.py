"""Hostile clients for the companion's load test and benchmark: connections from many loopback
addresses (127.0.x.y are all this computer's) that hold the host's sockets and reconnect when
dropped, as a flood on a party's network would."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class Attack:
    """Hostile clients from many loopback addresses, each reconnecting when dropped, until stopped."""

    def __init__(self, port: int, idle: int, slowloris: int = 0, non_readers: int = 0, pause: float = 0.2) -> None:
        """`idle` connections that send nothing, `slowloris` ones that send a request head a line a
        second, `non_readers` table pages that never read what they are sent; each opened again
        `pause` seconds after the host drops it."""
        self.port, self.stopped, self.pause = port, asyncio.Event(), pause
        self.counts = {self._idle: (idle, "127.0.1"), self._slowloris: (slowloris, "127.0.3"), self._non_reader: (non_readers, "127.0.4")}
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """On the running event loop: from 60 addresses, each connection from one of them."""
        for behave, (count, network) in self.counts.items():
            for number in range(count):
                self.tasks.append(asyncio.create_task(self._client(f"{network}.{number % 60 + 1}", behave)))

    async def stop(self) -> None:
        self.stopped.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _client(self, source: str, behave: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]) -> None:
        while not self.stopped.is_set():
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0)), 10)
            except (OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.5)
                continue
            try:
                await behave(reader, writer)
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                writer.transport.abort()
            await asyncio.sleep(self.pause)

    async def _idle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # until the host closes it

    async def _slowloris(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode())
        number = 0
        while not reader.at_eof():
            await asyncio.sleep(1)
            number += 1
            writer.write(f"X-Slow-{number}: a\r\n".encode())
            await writer.drain()

    async def _non_reader(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write((f"GET /ws/table HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await self.stopped.wait()  # never reads: the host's sends back up until it gives up on this page


async def _attack_until_killed(port: int, idle: int, slowloris: int, non_readers: int, pause: float) -> None:
    Attack(port, idle, slowloris, non_readers, pause).start()
    await asyncio.Event().wait()


if __name__ == "__main__":  # in a process of its own, so that its work does not slow a benchmark's clients
    import argparse

    parser = argparse.ArgumentParser(description="attack the companion on 127.0.0.1:PORT until killed")
    parser.add_argument("port", type=int)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--slowloris", type=int, default=0)
    parser.add_argument("--non-readers", type=int, default=0)
    parser.add_argument("--pause", type=float, default=0.2, help="seconds before a dropped connection is opened again")
    options = parser.parse_args()
    asyncio.run(_attack_until_killed(options.port, options.idle, options.slowloris, options.non_readers, options.pause))
