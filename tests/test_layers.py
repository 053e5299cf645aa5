"""The packages' layers, as the contracts in pyproject.toml ([tool.importlinter]) state them:
games/, nlp/ and models/ know nothing of the host or the audio and speech engines, and inside
host/ each sub-package imports only those below it (cli, companion, session, adapters, voice,
the host commands' table, speech, storage, audio), and in host/speech only the registry opens the
recognizers (no import loop)."""
from __future__ import annotations

import ast
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


def _named_verbs(source: str, verbs: set[str]) -> set[str]:
    """The verbs that a string of the code (not a docstring) is, or starts: `Action("timeup")`,
    `verb == "tick"`, `"read {}"`."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            first = node.value.split(" ", 1)[0]
            if first in verbs:
                named.add(first)
    return named


def _game_verbs() -> set[str]:
    """Every verb of every registered game, in each of its modes (Dixit told in words)."""
    from games.registry import registered

    verbs: set[str] = set()
    for spec in registered().values():
        for value in vars(sys.modules[spec.make.__module__]).values():
            if isinstance(value, type) and isinstance(getattr(value, "verbs", None), dict):
                verbs |= set(value.verbs)
    return verbs


#: words of English the session reads in any answer that a game also has as a verb: the fillers
#: of a natural answer ("I pick the quirky side", host.session.wording.FILLER)
ENGLISH = {"pick"}


def test_the_session_names_no_game_verb() -> None:
    """The session knows no game: what a game hears, times and names is its adapter's."""
    verbs = _game_verbs() - ENGLISH
    assert {"tick", "timeup", "read", "flip", "vote"} <= verbs
    for path in sorted((ROOT / "host" / "session").glob("*.py")):
        named = _named_verbs(path.read_text(encoding="utf-8"), verbs)
        assert not named, f"{path.relative_to(ROOT)} names the games' verbs {sorted(named)}"


def test_a_verb_named_in_the_session_is_found() -> None:
    assert _named_verbs('"""tick: a docstring is prose."""\nAction("timeup")\nif verb == "tick": pass\n',
                        {"tick", "timeup"}) == {"timeup", "tick"}
