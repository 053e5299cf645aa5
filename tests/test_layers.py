"""The packages' layers, as the contracts in pyproject.toml ([tool.importlinter]) state them:
games/, nlp/ and models/ know nothing of the host or the audio and speech engines, and inside
host/ each sub-package imports only those below it (cli, companion, session, adapters, voice,
the host commands' table, speech, storage, audio), and in host/speech only the registry opens the
recognizers (no import loop)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("host", "games", "nlp", "models")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
         "--no-cache"],
        cwd=root, capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(root), "PATH": ""},
    )


def test_the_layers_hold() -> None:
    checked = lint_imports(ROOT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 broken" in checked.stdout


@pytest.mark.parametrize(
    ("module", "forbidden", "contract"),
    [
        ("nlp/ticks.py", "import host.session.session", "know nothing of the host"),
        ("games/base.py", "import nlp.lexicon", "games know nothing of language tools"),
        ("host/audio/speaker.py", "from host.voice import phrases", "host's layers"),
        ("host/speech/hearing.py", "import host.session.live", "host's layers"),
        ("host/voice/phrases.py", "import host.adapters.base", "host's layers"),
        ("host/speech/recognizer.py", "import host.speech.vosk_recognizer", "no import loop"),
        ("host/commands.py", "import host.voice.phrases", "host's layers"),
    ],
)
def test_a_forbidden_import_breaks_a_contract(tmp_path: Path, module: str, forbidden: str, contract: str) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{forbidden}\n", encoding="utf-8")
    checked = lint_imports(tmp_path)
    assert checked.returncode != 0
    broken = [line for line in checked.stdout.splitlines() if line.endswith(" BROKEN")]
    assert any(contract in line for line in broken), checked.stdout
