"""Installing from a zip brought to this machine: the offline path."""
from __future__ import annotations

import hashlib

import pytest

from models import BadArchive, ChecksumMismatch, find_model, install_zip
from tests.models.conftest import MODEL_FILES, NAME, Home, entry, model_zip, sha256, write_manifest


def test_a_listed_model_is_checked_against_the_manifest(home: Home) -> None:
    data = model_zip()
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(data)
    manifest = write_manifest(home.manifest_path, entry("http://127.0.0.1:9/m.zip", data, md5=hashlib.md5(data).hexdigest()))

    installed = install_zip(archive, manifest=manifest)

    assert installed.path == home.models / NAME and installed.checked == "sha256 and md5 verified"
    assert find_model(NAME, manifest) == installed.path
    assert (installed.path / "am" / "final.mdl").read_bytes() == MODEL_FILES["am/final.mdl"]
    assert archive.exists(), "the zip brought here is left alone"
    assert install_zip(archive, manifest=manifest).already


def test_a_listed_model_whose_zip_differs_is_refused(home: Home) -> None:
    archive = home.root / "download.zip"
    archive.write_bytes(model_zip())
    manifest = write_manifest(home.manifest_path, entry("http://127.0.0.1:9/m.zip", model_zip(files={"x": b"other"})))

    with pytest.raises(ChecksumMismatch):
        install_zip(archive, manifest=manifest)

    assert not home.models.exists() or list(home.models.iterdir()) == []


def test_an_unlisted_model_is_installed_under_its_top_folder_name(home: Home) -> None:
    archive = home.root / "french.zip"
    archive.write_bytes(model_zip("vosk-model-small-fr-0.22"))

    installed = install_zip(archive)

    assert installed.name == "vosk-model-small-fr-0.22"
    assert installed.checked == "not in the manifest, so no checksum is known: only its layout was checked"
    assert find_model("fr") == installed.path


def test_a_zip_with_the_files_at_its_root_takes_the_name_given(home: Home) -> None:
    archive = home.root / "model.zip"
    data = model_zip(folder=None)
    archive.write_bytes(data)
    manifest = write_manifest(home.manifest_path, entry("http://127.0.0.1:9/m.zip", data))

    installed = install_zip(archive, name=NAME, manifest=manifest)

    assert installed.path == home.models / NAME and installed.checked == "sha256 verified"
    assert sha256(data) == entry("", data)["sha256"]


def test_a_missing_file_or_a_file_that_is_no_zip_is_refused(home: Home) -> None:
    with pytest.raises(BadArchive, match="There is no file"):
        install_zip(home.root / "absent.zip")
    text = home.root / "notes.zip"
    text.write_text("not a zip", encoding="utf-8")
    with pytest.raises(BadArchive, match="is not a readable zip"):
        install_zip(text)


def test_a_previous_interrupted_attempt_is_replaced(home: Home) -> None:
    data = model_zip()
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(data)
    home.models.mkdir(parents=True)
    (home.models / NAME / "am").mkdir(parents=True)  # a half-written copy, no marker
    (home.models / f".{NAME}.zip.part-abc").write_bytes(data[:100])
    (home.models / f".{NAME}.extract-abc").mkdir()

    installed = install_zip(archive)

    assert sorted(path.name for path in home.models.iterdir()) == [NAME]
    assert find_model(NAME) == installed.path


def test_names_that_would_leave_the_model_folder_are_refused(home: Home) -> None:
    archive = home.root / "model.zip"
    archive.write_bytes(model_zip())
    with pytest.raises(BadArchive, match="cannot be a model's folder name"):
        install_zip(archive, name="../escaped")
    sneaky = home.root / "sneaky.zip"
    sneaky.write_bytes(model_zip(folder="../escaped"))
    with pytest.raises(BadArchive, match="members outside its own folder"):
        install_zip(sneaky)
    assert not (home.root / "escaped").exists() and not (home.data / "escaped").exists()
