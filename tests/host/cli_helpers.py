"""Running the real `storyhost` command in a subprocess with its own saved-games folder."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def storyhost_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ, STORYHOST_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    env["STORYHOST_CONFIG_DIR"] = str(data_dir / "config")  # preferences: never the tester's own
    env["PYTHONPATH"] = str(ROOT)
    return env


def storyhost_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from host.cli.main import main; sys.exit(main())", *args]


def run_storyhost(data_dir: Path, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        storyhost_command(*args), input=stdin, capture_output=True, text=True,
        env=storyhost_env(data_dir), cwd=ROOT, timeout=timeout,
    )


class RunningStoryhost:
    """`storyhost ARGS` in a subprocess: its standard input a pipe, its printed lines collected
    by a thread as they come."""

    def __init__(self, args: tuple[str, ...], env: dict[str, str], stderr: int = subprocess.PIPE) -> None:
        self.process = subprocess.Popen(
            storyhost_command(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            text=True, env=env, cwd=ROOT,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def type(self, *lines: str) -> None:
        assert self.process.stdin
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
