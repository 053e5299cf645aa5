"""mypy over every package, as configured in pyproject.toml: strict on games/ and nlp/, plain on
host/ and models/. CI runs only pytest, so this is where the types are checked."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_passes(tmp_path: Path) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
