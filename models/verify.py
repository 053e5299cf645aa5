"""Checking installed models: a Vosk or Whisper model's layout and, when storyhost installed it
(or it is bundled in a pip package storyhost pins), every file's size and sha256 against the
record; a spaCy pipeline's version, and that it loads."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from games.language import _, n_
from models.errors import ModelNotFound
from models.locate import (
    FoundModel,
    bundled_models,
    damage,
    expected_files,
    installed_models,
    layout_problem,
    locate_vosk,
    locate_whisper_named,
    remedy,
    spacy_location,
    unfinished_models,
    whisper_layout_problem,
)
from models.manifest import Manifest, ModelEntry, load_manifest


@dataclass(frozen=True)
class Verdict:
    name: str
    path: Path | None
    ok: bool
    detail: str


def verify_files(found: FoundModel, manifest: Manifest) -> Verdict:
    """A speech model's layout, then every file against its record, checksums included."""
    problem = (whisper_layout_problem if found.kind == "whisper" else layout_problem)(found.path)
    if problem is not None:
        return Verdict(found.name, found.path, False, f"{problem}; {remedy(found, manifest)}")
    files = expected_files(found, manifest)
    if files is None:
        return Verdict(found.name, found.path, True,
                       _("layout complete; storyhost did not install it, so it has no record to check"))
    problem = damage(found, manifest)
    if problem is not None:
        return Verdict(found.name, found.path, False, f"{problem}; {remedy(found, manifest)}")
    if found.marker is None:
        return Verdict(found.name, found.path, True, n_(
            "all {count} file matches the manifest's pinned sizes and sha256",
            "all {count} files match the manifest's pinned sizes and sha256", len(files)).format(count=len(files)))
    intact = (n_("all {count} file intact by size and sha256; at installation: {checked}",
                 "all {count} files intact by size and sha256; at installation: {checked}", len(files))
              if all(record.sha256 for record in files.values()) else
              n_("all {count} file intact by size only (installed before storyhost recorded checksums); at "
                 "installation: {checked}",
                 "all {count} files intact by size only (installed before storyhost recorded checksums); at "
                 "installation: {checked}", len(files)))
    checked = found.marker.get("checked") or _("not recorded")
    return Verdict(found.name, found.path, True, intact.format(count=len(files), checked=checked))



def _distribution(entry: ModelEntry) -> str:
    return (entry.pip or entry.name).split("==", 1)[0]


def verify_spacy(entry: ModelEntry) -> Verdict:
    try:
        path = spacy_location(entry)
    except ModelNotFound as missing:
        return Verdict(entry.name, None, False, str(missing).rstrip("."))
    try:
        version = metadata.version(_distribution(entry))
    except metadata.PackageNotFoundError:
        version = None
    if entry.version and version != entry.version:
        wrong = _("version {version} is installed, the manifest wants {wanted}: run `pip install {package}`").format(
            version=version, wanted=entry.version, package=entry.pip)
        return Verdict(entry.name, path, False, wrong)
    try:
        import spacy

        spacy.load(entry.name)
    except Exception as error:  # any failure to load is the verdict, whatever spaCy raises
        reason = _("it does not load ({error}); run `pip install --force-reinstall {package}`").format(
            error=f"{type(error).__name__}: {error}", package=entry.pip)
        return Verdict(entry.name, path, False, reason)
    return Verdict(entry.name, path, True, _("version {version} loads").format(version=version))


def _unfinished(folder: Path) -> Verdict:
    return Verdict(
        folder.name, folder, False,
        _("not a complete model (an interrupted or damaged install, never used); delete it and install the model "
          "again"),
    )


def verify(name: str | None = None, manifest: Manifest | None = None) -> list[Verdict]:
    """Verdicts on the model `name` (raises ModelNotFound when it is not installed), or on every
    installed speech model (a folder in storyhost's model folder that is no complete model
    included) and every spaCy pipeline in the manifest."""
    manifest = manifest or load_manifest()
    if name is not None:
        entry = manifest.get(name)
        if entry is not None and entry.kind == "spacy":
            spacy_location(entry)  # a pipeline that is not installed is not found, as a Vosk model would not be
            return [verify_spacy(entry)]
        unfinished = [folder for folder in unfinished_models() if folder.name == name]
        if unfinished:
            return [_unfinished(unfinished[0])]
        found = locate_whisper_named(entry) if entry is not None and entry.kind == "whisper" else locate_vosk(name, manifest)
        return [verify_files(found, manifest)]
    speech = bundled_models(manifest) + installed_models()
    return (
        [verify_files(found, manifest) for found in speech]
        + [_unfinished(folder) for folder in unfinished_models()]
        + [verify_spacy(entry) for entry in manifest.of_kind("spacy")]
    )
