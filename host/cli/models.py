"""`storyhost models`: see, fetch, install and check the speech and language models.

    storyhost models list                       every known model, its size, and where it is installed
    storyhost models download NAME              fetch a Vosk or Whisper model, check it and install it
    storyhost models install ZIP [--name NAME]  install a Vosk model from a zip brought here (offline)
    storyhost models verify [NAME]              check one installed model, or all of them
    storyhost models path NAME|LANGUAGE         print the folder of a model (e.g. `path en`)

A user error (unknown name, model not installed, offline, checksum mismatch, bad zip) ends with
one line on stderr and exit status 2; `verify` exits 1 when a model fails its check (with no
name: when any installed model does).
$STORYHOST_MODEL_MANIFEST replaces the built-in manifest with another file.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.numbers import format_decimal

from games.language import N_, _, spoken_language
from host.cli.usage import OneLineParser, UsageError
from models import (
    Installed,
    Manifest,
    ModelEntry,
    ModelError,
    ModelNotFound,
    download,
    find_model,
    install_root,
    install_zip,
    load_manifest,
    verify,
)
from models.locate import installed_models, locate_vosk, locate_whisper_named, spacy_location

PROG = "storyhost models"


class _Parser(OneLineParser):
    error_format = N_("storyhost models: {message}; see 'storyhost models --help'.")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=_("See, fetch, install and check speech and language models."))
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    commands.add_parser("list", help=_("every known model, its size, and where it is installed"))
    fetch = commands.add_parser("download", help=_("fetch a Vosk or Whisper model, check it and install it"))
    fetch.add_argument("name", help=_("the model's name, as 'storyhost models list' shows it"))
    local = commands.add_parser("install", help=_("install a Vosk model from a zip file (the offline way)"))
    local.add_argument("zip", type=Path, help=_("the model's .zip file"))
    local.add_argument("--name", help=_("install under this name (default: the zip's top folder)"))
    check = commands.add_parser("verify", help=_("check one installed model, or all of them"))
    check.add_argument("name", nargs="?", help=_("the model to check (default: every installed model)"))
    where = commands.add_parser("path", help=_("print the folder of a model"))
    where.add_argument("name", help=_("a model name, or a language such as en or de for its speech model"))
    return parser


def _size(size: int | None) -> str:
    """In words a voice reads well, in the table's language: '39.3 megabytes', in Spanish
    '1,8 gigabytes'."""
    if size is None:
        return _("unknown")
    gigabytes = size >= 2**30
    number = format_decimal(size / 2**(30 if gigabytes else 20), "0.0", locale=spoken_language())
    return (_("{size} gigabytes") if gigabytes else _("{size} megabytes")).format(size=number)


def _entry_size(entry: ModelEntry) -> str:
    if entry.kind == "spacy":
        return _("pip package {version}").format(version=entry.version)
    if entry.files is not None:
        sizes = [record.size for record in entry.files.values()]
        return _size(None if None in sizes else sum(size or 0 for size in sizes))
    return _size(entry.size)


def _where(entry: ModelEntry, manifest: Manifest) -> str:
    try:
        if entry.kind == "spacy":
            folder = spacy_location(entry)
        elif entry.kind == "whisper":
            folder = locate_whisper_named(entry).path
        else:
            folder = locate_vosk(entry.name, manifest).path
    except ModelNotFound:
        return _("no")
    return _("yes, in {folder}").format(folder=folder)


def _list() -> int:
    """A table with a header row: a screen reader reads each row as name (with the short name
    `--model` also takes), kind, language, size, installed."""
    manifest = load_manifest()
    print(_("Known models (storyhost installs downloaded models into {folder}):").format(folder=install_root()))
    rows = [(_("name"), _("kind"), _("language"), _("size"), _("installed"))]
    for entry in manifest.entries:
        name = entry.name if entry.alias is None else f"{entry.name} ({entry.alias})"
        rows.append((name, entry.kind, entry.language, _entry_size(entry), _where(entry, manifest)))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    for row in rows:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])
    for found in installed_models():
        if manifest.get(found.name) is None:
            print(_("Also found: {folder} ({place}).").format(folder=found.path, place=found.place.label))
    return 0


def _report(installed: Installed) -> None:
    if installed.already:
        print(_("{name} is already installed in {folder}.").format(name=installed.name, folder=installed.path))
    else:
        print(_("Installed {name} in {folder} ({checked}).").format(name=installed.name, folder=installed.path,
                                                                    checked=installed.checked))


def _verify(name: str | None) -> int:
    verdicts = verify(name)
    for verdict in verdicts:
        told = (_("{name}: ok, {detail}") if verdict.ok else _("{name}: FAILED, {detail}")).format(
            name=verdict.name, detail=verdict.detail)
        print(f"{told} ({verdict.path})." if verdict.path else f"{told}.")
    if not verdicts:
        print(_("Nothing to verify: no model is installed; 'storyhost models list' shows what can be."))
    return 0 if all(verdict.ok for verdict in verdicts) else 1


def main(argv: list[str]) -> int:
    try:
        options = _parser().parse_args(argv)
    except UsageError as failure:
        print(failure, file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    try:
        if options.command == "list":
            return _list()
        if options.command == "download":
            _report(download(options.name))
            return 0
        if options.command == "install":
            _report(install_zip(options.zip, options.name))
            return 0
        if options.command == "verify":
            return _verify(options.name)
        print(find_model(options.name))
        return 0
    except ModelError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\n" + _("Stopped; nothing was installed."), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
