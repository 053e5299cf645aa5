"""The real storyhost at a terminal (a pseudo-terminal): 'private NAME' shows the secret only
after a key press and clears it at the next; a phone's command wakes the terminal's wait."""
from __future__ import annotations

import asyncio
import json
import os
import pty
import re
import select
import subprocess
import time
import urllib.request
from pathlib import Path

import aiohttp

from tests.host.cli_helpers import ROOT, storyhost_command, storyhost_env
from tests.host.companion.browser import room_code


class Terminal:
    def __init__(self, data: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.fd, child = pty.openpty()
        self.process = subprocess.Popen(
            storyhost_command(*args), stdin=child, stdout=child, stderr=child, env=storyhost_env(data) | (env or {}),
            cwd=ROOT,
        )
        os.close(child)
        self.seen = ""

    def until(self, text: str, start: int | None = None) -> str:
        """Everything shown from now (or from `start`) until `text` has been shown."""
        start = len(self.seen) if start is None else start
        deadline = time.monotonic() + 30
        while text not in self.seen[start:]:
            assert time.monotonic() < deadline, f"never showed {text!r}:\n{self.seen}"
            if select.select([self.fd], [], [], 0.1)[0]:
                self.seen += os.read(self.fd, 4096).decode("utf-8", "replace")
        return self.seen[start:]

    def keys(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.fd)


def test_private_waits_for_a_key_and_is_cleared(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--seed", "1")
    try:
        terminal.until("> ")
        for line in ("storyteller Ana", "clue Two of a kind", "shown", "vote Bo 4", "private Bo"):
            terminal.keys(line + "\r")
        shown = terminal.until("Press a key to show, and a key again to hide.")
        assert "Only Bo should look." in shown and "card 4" not in shown
        time.sleep(0.5)
        terminal.keys(" ")
        shown = terminal.until("Press a key to hide.")
        assert "Your vote: card 4." in shown
        terminal.keys(" ")
        cleared = terminal.until("> ")
        assert "\x1b[F\x1b[K" * 2 in cleared  # both lines of the secret are wiped from the screen
    finally:
        terminal.close()


def test_a_phone_command_wakes_the_terminal(tmp_path: Path) -> None:
    """At a terminal waiting for keys, a vote from a phone is played at once, and the prompt is
    drawn again after the news."""
    terminal = Terminal(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "Di", "--seed", "1",
                        "--companion", "--port", "0")
    try:
        joined = terminal.until("table page is at")
        # the QR code, line by line (which blocks it holds depends on the port: wait for the news after it)
        assert "█\r\n█" in terminal.until("Turn 1,", start=terminal.seen.index("table page is at"))
        port = re.search(r":(\d+)/", joined)
        assert port, joined
        base = f"http://127.0.0.1:{port.group(1)}"
        for line in ("storyteller Ana", "clue Two of a kind", "shown"):
            terminal.keys(line + "\r")
        terminal.until("vote in secret")
        request = urllib.request.Request(f"{base}/join", data=f"player=Bo&code={room_code(joined)}".encode())
        with urllib.request.urlopen(request, timeout=10) as page:
            token = page.url.rsplit("/", 1)[1]

        async def vote() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(f"{base}/ws/p/{token}") as socket:
                await socket.send_str(json.dumps({"verb": "vote", "text": "4"}))
                await socket.receive(timeout=10)

        asyncio.run(vote())
        shown = terminal.until("Bo has voted (1 of 3).")
        assert "card 4" not in shown
        terminal.until("> ", start=terminal.seen.index("Bo has voted (1 of 3)."))  # the prompt again
    finally:
        terminal.close()
