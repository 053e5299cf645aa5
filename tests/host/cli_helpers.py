"""Running the real `storyhost` command in a subprocess with its own saved-games folder."""
from __future__ import annotations

import os
import subprocess
import sys
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
