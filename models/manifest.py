"""The model manifest: which models exist, where they come from, and how to check them.

The built-in manifest is models/manifest.json. $STORYHOST_MODEL_MANIFEST names another file in
the same format that replaces it (how the tests point storyhost at a local server); models that
ship inside a pip package (`bundled`) are always taken from the built-in one, since their pinned
checksums belong to the package storyhost depends on.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from games.language import _
from models.errors import ManifestError

MANIFEST_ENV = "STORYHOST_MODEL_MANIFEST"

Kind = Literal["vosk", "spacy", "whisper"]
KINDS = ("vosk", "spacy", "whisper")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def usable_name(name: str) -> bool:
    """Whether `name` can be a model's folder name (no path, not hidden)."""
    return _NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class FileRecord:
    """One file of a model folder as published or installed; None where it is not known."""

    size: int | None
    sha256: str | None


@dataclass(frozen=True)
class Part:
    """A piece of a bundled model's file: `path` is "package/path" in an installed pip package."""

    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class ModelEntry:
    """One model. Vosk models come as a zip from `url`; spaCy pipelines are pip packages;
    Whisper models (CTranslate2 folders) are downloaded file by file from `url` + each name in
    `files`, or ship in the pip package(s) `pip` at the import path `bundled` ("package/folder"),
    a file too big for one package in `parts`, to be joined. `alias` is a short name ("base")."""

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
    files: dict[str, FileRecord] | None = None
    bundled: str | None = None
    alias: str | None = None
    parts: dict[str, tuple[Part, ...]] | None = None
    wheels: dict[str, str] | None = None

    @property
    def zip_name(self) -> str:
        return f"{self.name}.zip"


@dataclass(frozen=True)
class Manifest:
    entries: tuple[ModelEntry, ...]

    def get(self, name: str) -> ModelEntry | None:
        return next((entry for entry in self.entries if entry.name == name), None)

    def named(self, name: str) -> ModelEntry | None:
        """The entry with this name or alias."""
        return self.get(name) or next((entry for entry in self.entries if entry.alias == name), None)

    def of_kind(self, kind: Kind) -> list[ModelEntry]:
        return [entry for entry in self.entries if entry.kind == kind]

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


_FIELDS = {
    "name", "kind", "language", "description", "url", "size", "sha256", "md5", "checksum_source", "version", "pip",
    "files", "bundled", "alias", "parts", "wheels",
}
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _files(raw: Any, where: str) -> dict[str, FileRecord]:
    """A Whisper entry's files: {"model.bin": {"size": 75537502, "sha256": "1a5a..."}, ...}."""
    if not isinstance(raw, dict) or not raw:
        raise ManifestError(_("{where} needs its files: an object of file names to their size and sha256.").format(
            where=where))
    files = {}
    for name, record in raw.items():
        if not usable_name(name) or not isinstance(record, dict) or not record.keys() <= {"size", "sha256"}:
            raise ManifestError(_('{where} has a bad file entry {name}; write "NAME": {{"size": N, "sha256": "HEX"}}.')
                                .format(where=where, name=repr(name)))
        size, sha256 = record.get("size"), record.get("sha256")
        if not (size is None or (isinstance(size, int) and size >= 0)) or not (
            sha256 is None or (isinstance(sha256, str) and _SHA256.fullmatch(sha256))
        ):
            raise ManifestError(_("{where} has a bad size or sha256 for {name}; give a byte count and 64 hex digits, or "
                                  "null.").format(where=where, name=name))
        files[name] = FileRecord(size, sha256)
    return files


def _parts(raw: Any, files: dict[str, FileRecord], where: str) -> dict[str, tuple[Part, ...]]:
    """Files shipped in pieces: {"model.bin": [{"path", "size", "sha256"}, ...]}, adding up to the file."""
    if not isinstance(raw, dict) or not raw:
        raise ManifestError(_('{where} has bad parts; write "FILE": [{{"path": "package/file", "size": N, "sha256": '
                              '"HEX"}}, ...].').format(where=where))
    parts = {}
    for name, pieces in raw.items():
        if name not in files or not isinstance(pieces, list) or not pieces or not all(
            isinstance(piece, dict) and piece.keys() == {"path", "size", "sha256"} and isinstance(piece["path"], str)
            and isinstance(piece["size"], int) and isinstance(piece["sha256"], str) and _SHA256.fullmatch(piece["sha256"])
            for piece in pieces
        ):
            raise ManifestError(_("{where} has bad parts for {name}: each a path, a size and a sha256, of a file it "
                                  "lists.").format(where=where, name=repr(name)))
        parts[name] = tuple(Part(piece["path"], piece["size"], piece["sha256"]) for piece in pieces)
        if files[name].size is not None and sum(part.size for part in parts[name]) != files[name].size:
            raise ManifestError(_("{where}: the parts of {name} do not add up to its size.").format(where=where, name=name))
    return parts


def _entry(raw: Any, where: str) -> ModelEntry:
    if not isinstance(raw, dict) or not {"name", "kind", "language", "description"} <= raw.keys():
        raise ManifestError(_("{where} needs at least name, kind, language and description; fix or remove it.").format(
            where=where))
    unknown = raw.keys() - _FIELDS
    if unknown:
        raise ManifestError(_("{where} has unknown fields {unknown}; allowed: {allowed}.").format(
            where=where, unknown=sorted(unknown), allowed=sorted(_FIELDS)))
    if "files" in raw:
        raw = {**raw, "files": _files(raw["files"], where)}
    if "parts" in raw:
        raw = {**raw, "parts": _parts(raw["parts"], raw.get("files") or {}, where)}
    entry = ModelEntry(**raw)
    if not isinstance(entry.name, str) or not usable_name(entry.name):
        raise ManifestError(_("{where} has the name {name}; use letters, digits, '.', '-' and '_' only.").format(
            where=where, name=repr(entry.name)))
    if entry.kind not in KINDS:
        raise ManifestError(_("{where} ({name}) has kind {kind}; use {kinds}.").format(
            where=where, name=entry.name, kind=repr(entry.kind), kinds=", ".join(map(repr, KINDS))))
    if entry.kind == "vosk" and not entry.url:
        raise ManifestError(_("{where} ({name}) is a Vosk model without a url.").format(where=where, name=entry.name))
    if entry.kind == "spacy" and not entry.pip:
        raise ManifestError(_("{where} ({name}) is a spaCy pipeline without its pip requirement.").format(
            where=where, name=entry.name))
    if entry.kind == "whisper" and (entry.files is None or not (entry.bundled and entry.pip or entry.url)):
        raise ManifestError(_("{where} ({name}) is a Whisper model without its files, or without a url or bundled "
                              "package.").format(where=where, name=entry.name))
    if entry.alias is not None and not (isinstance(entry.alias, str) and usable_name(entry.alias)):
        raise ManifestError(_("{where} ({name}) has the alias {alias}; use letters, digits, '.', '-' and '_' only.")
                            .format(where=where, name=entry.name, alias=repr(entry.alias)))
    if entry.wheels is not None and not (isinstance(entry.wheels, dict) and all(
        isinstance(wheel, str) and isinstance(sha256, str) and _SHA256.fullmatch(sha256) for wheel, sha256 in entry.wheels.items()
    )):
        raise ManifestError(_('{where} ({name}) has bad wheels; write "FILE.whl": "SHA256", ...').format(
            where=where, name=entry.name))
    if entry.parts is not None and not entry.bundled:
        raise ManifestError(_("{where} ({name}) has parts but is not bundled in a pip package.").format(
            where=where, name=entry.name))
    return entry


def parse_manifest(text: str, source: str) -> Manifest:
    if not text.strip():
        raise ManifestError(_("The model manifest {source} is empty; fill it in, or unset {variable}.").format(
            source=source, variable=f"${MANIFEST_ENV}"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(_("The model manifest {source} is not valid JSON ({error}); fix it.").format(
            source=source, error=error)) from error
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, list) or not models:
        raise ManifestError(_('The model manifest {source} must be an object with a "models" list of at least one '
                              'model.').format(source=source))
    return Manifest(tuple(_entry(raw, _("Entry {number} of {source}").format(number=index + 1, source=source))
                          for index, raw in enumerate(models)))


def _built_in() -> Manifest:
    text = resources.files("models").joinpath("manifest.json").read_text(encoding="utf-8")
    return parse_manifest(text, "models/manifest.json")


def load_manifest(path: Path | None = None) -> Manifest:
    """The manifest at `path`, else at $STORYHOST_MODEL_MANIFEST, else the built-in one."""
    configured = path or (Path(os.environ[MANIFEST_ENV]) if os.environ.get(MANIFEST_ENV) else None)
    if configured is None:
        return _built_in()
    try:
        text = configured.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ManifestError(_("Cannot read the model manifest {file}: {reason}.").format(file=configured, reason=reason)
                            ) from error
    custom = parse_manifest(text, str(configured))
    bundled = [entry for entry in _built_in().entries if entry.bundled and custom.get(entry.name) is None]
    return Manifest(custom.entries + tuple(bundled))
