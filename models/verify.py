"""Checking installed models: a Vosk model's layout and, when storyhost installed it, every
file against the list its completion marker recorded; a spaCy pipeline's version, and that it
loads."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from models.errors import ModelNotFound
from models.locate import FoundModel, installed_models, layout_problem, locate_vosk, spacy_location
from models.manifest import Manifest, ModelEntry, load_manifest


@dataclass(frozen=True)
class Verdict:
    name: str
    path: Path | None
    ok: bool
    detail: str


def verify_vosk(found: FoundModel) -> Verdict:
    problem = layout_problem(found.path)
    if problem is not None:
        return Verdict(found.name, found.path, False, f"{problem}; install it again")
    if found.marker is None:
        return Verdict(
            found.name, found.path, True, "layout complete; storyhost did not install it, so no archive checksum was checked"
        )
    recorded = found.marker.get("files")
    if not isinstance(recorded, dict) or not recorded:
        return Verdict(found.name, found.path, False, "its install record lists no files; install it again")
    changed = [
        name for name, size in recorded.items()
        if not (found.path / name).is_file() or (found.path / name).stat().st_size != size
    ]
    if changed:
        return Verdict(
            found.name, found.path, False,
            f"{len(changed)} of its {len(recorded)} files are missing or changed since it was installed (first: {changed[0]});"
            f" delete {found.path} and install it again",
        )
    checked = found.marker.get("checked", "not recorded")
    return Verdict(found.name, found.path, True, f"all {len(recorded)} files intact; at installation: {checked}")


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
        wrong = f"version {version} is installed, the manifest wants {entry.version}: run `pip install {entry.pip}`"
        return Verdict(entry.name, path, False, wrong)
    try:
        import spacy

        spacy.load(entry.name)
    except Exception as error:  # any failure to load is the verdict, whatever spaCy raises
        reason = f"it does not load ({type(error).__name__}: {error}); run `pip install --force-reinstall {entry.pip}`"
        return Verdict(entry.name, path, False, reason)
    return Verdict(entry.name, path, True, f"version {version} loads")


def verify(name: str | None = None, manifest: Manifest | None = None) -> list[Verdict]:
    """Verdicts on the model `name` (raises ModelNotFound when it is not installed), or on every
    installed Vosk model and every spaCy pipeline in the manifest."""
    manifest = manifest or load_manifest()
    if name is not None:
        entry = manifest.get(name)
        if entry is not None and entry.kind == "spacy":
            spacy_location(entry)  # a pipeline that is not installed is not found, as a Vosk model would not be
            return [verify_spacy(entry)]
        return [verify_vosk(locate_vosk(name, manifest))]
    return [verify_vosk(found) for found in installed_models()] + [
        verify_spacy(entry) for entry in manifest.entries if entry.kind == "spacy"
    ]
