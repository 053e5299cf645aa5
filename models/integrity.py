"""Whether a model folder still holds the files it was installed with: each file's size and
sha256 against a record (the completion marker's, or the manifest's for a bundled model).

A file reached through a symbolic link counts as changed even when its bytes are right: the
record vouches for the files installed, not for whatever a link points at.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from games.language import _
from models.errors import ModelError
from models.manifest import FileRecord

CHUNK = 1 << 20
#: before loading, the files of a model up to this size are hashed (about 1 s here for 512 MiB);
#: a bigger one (Vosk's 1.8 GB English model) is checked by size only, and by hash in `models verify`
HASH_BEFORE_LOADING = 512 * 2**20


class DamagedModel(ModelError):
    """A model's files are not the ones installed."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def record_folder(folder: Path, skip: str) -> dict[str, FileRecord]:
    """Size and sha256 of every file in `folder` (names relative, with '/'), except `skip`."""
    return {
        path.relative_to(folder).as_posix(): FileRecord(path.stat().st_size, sha256_of(path))
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != skip
    }


def recorded_files(raw: object) -> dict[str, FileRecord] | None:
    """The files of an install record: {name: {"size", "sha256"}}, or {name: size} as
    storyhost wrote before it recorded checksums; None when there is no usable list."""
    if not isinstance(raw, Mapping) or not raw:
        return None
    files = {}
    for name, value in raw.items():
        if isinstance(value, int):
            files[name] = FileRecord(value, None)
        elif isinstance(value, Mapping) and isinstance(value.get("size"), int):
            sha256 = value.get("sha256")
            files[name] = FileRecord(value["size"], sha256 if isinstance(sha256, str) else None)
        else:
            return None
    return files


def as_record(files: Mapping[str, FileRecord]) -> dict[str, dict[str, object]]:
    return {name: {"size": record.size, "sha256": record.sha256} for name, record in files.items()}


def _through_link(folder: Path, name: str) -> bool:
    return os.path.realpath(folder / name) != os.path.join(os.path.realpath(folder), *name.split("/"))


def first_problem(folder: Path, files: Mapping[str, FileRecord], hash_limit: int | None = None) -> str | None:
    """What is wrong with the files of `folder` against `files`, in words, or None. Checksums
    are compared unless the files add up to more than `hash_limit` bytes."""
    total = sum(record.size or 0 for record in files.values())
    hashing = hash_limit is None or total <= hash_limit
    for name, expected in files.items():
        path = folder / name
        if _through_link(folder, name):
            return _("its file {name} has been replaced by a link").format(name=name)
        if not path.is_file():
            return _("its file {name} is missing").format(name=name)
        size = path.stat().st_size
        if expected.size is not None and size != expected.size:
            return _("its file {name} has {size} bytes, not {expected}").format(name=name, size=size, expected=expected.size)
        if hashing and expected.sha256 is not None and sha256_of(path) != expected.sha256:
            return _("its file {name} has changed (its sha256 differs)").format(name=name)
    return None
