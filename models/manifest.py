"""The model manifest: which models exist, where they come from, and how to check them.

The built-in manifest is models/manifest.json. $STORYHOST_MODEL_MANIFEST names another file in
the same format that replaces it (how the tests point storyhost at a local server).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from models.errors import ManifestError

MANIFEST_ENV = "STORYHOST_MODEL_MANIFEST"

Kind = Literal["vosk", "spacy"]
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def usable_name(name: str) -> bool:
    """Whether `name` can be a model's folder name (no path, not hidden)."""
    return _NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class ModelEntry:
    """One model. Vosk models come as a zip from `url`; spaCy pipelines are pip packages."""

    name: str
    kind: Kind
    language: str
    description: str
    url: str | None = None
    size: int | None = None
    sha256: str | None = None
    md5: str | None = None
    checksum_source: str | None = None
    version: str | None = None
    pip: str | None = None

    @property
    def zip_name(self) -> str:
        return f"{self.name}.zip"


@dataclass(frozen=True)
class Manifest:
    entries: tuple[ModelEntry, ...]

    def get(self, name: str) -> ModelEntry | None:
        return next((entry for entry in self.entries if entry.name == name), None)

    def vosk_for_language(self, language: str) -> list[ModelEntry]:
        """The speech models for a language, in manifest order (the preferred first)."""
        return [entry for entry in self.entries if entry.kind == "vosk" and same_language(entry.language, language)]


def primary(language: str) -> str:
    """The language without its region: "en-US" -> "en"."""
    return re.split(r"[-_]", language.lower(), maxsplit=1)[0]


def same_language(model_language: str, asked: str) -> bool:
    """Whether a model in `model_language` serves `asked` ("en" and "en-us" both take "en-US")."""
    model, wanted = model_language.lower().replace("_", "-"), asked.lower().replace("_", "-")
    return wanted in (model, primary(model))


_FIELDS = {"name", "kind", "language", "description", "url", "size", "sha256", "md5", "checksum_source", "version", "pip"}


def _entry(raw: Any, where: str) -> ModelEntry:
    if not isinstance(raw, dict) or not {"name", "kind", "language", "description"} <= raw.keys():
        raise ManifestError(f"{where} needs at least name, kind, language and description; fix or remove it.")
    unknown = raw.keys() - _FIELDS
    if unknown:
        raise ManifestError(f"{where} has unknown fields {sorted(unknown)}; allowed: {sorted(_FIELDS)}.")
    entry = ModelEntry(**raw)
    if not usable_name(entry.name):
        raise ManifestError(f"{where} has the name {entry.name!r}; use letters, digits, '.', '-' and '_' only.")
    if entry.kind not in ("vosk", "spacy"):
        raise ManifestError(f"{where} ({entry.name}) has kind {entry.kind!r}; use 'vosk' or 'spacy'.")
    if entry.kind == "vosk" and not entry.url:
        raise ManifestError(f"{where} ({entry.name}) is a Vosk model without a url.")
    if entry.kind == "spacy" and not entry.pip:
        raise ManifestError(f"{where} ({entry.name}) is a spaCy pipeline without its pip requirement.")
    return entry


def parse_manifest(text: str, source: str) -> Manifest:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(f"The model manifest {source} is not valid JSON ({error}); fix it.") from error
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, list):
        raise ManifestError(f'The model manifest {source} must be an object with a "models" list.')
    return Manifest(tuple(_entry(raw, f"Entry {index + 1} of {source}") for index, raw in enumerate(models)))


def load_manifest(path: Path | None = None) -> Manifest:
    """The manifest at `path`, else at $STORYHOST_MODEL_MANIFEST, else the built-in one."""
    configured = path or (Path(os.environ[MANIFEST_ENV]) if os.environ.get(MANIFEST_ENV) else None)
    if configured is None:
        built_in = resources.files("models").joinpath("manifest.json")
        return parse_manifest(built_in.read_text(encoding="utf-8"), "models/manifest.json")
    try:
        text = configured.read_text(encoding="utf-8")
    except OSError as error:
        raise ManifestError(f"Cannot read the model manifest {configured}: {error.strerror or error}.") from error
    return parse_manifest(text, str(configured))
