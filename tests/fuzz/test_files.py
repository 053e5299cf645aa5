"""Files a player hands the host: deck and tale files, terms and transcripts for `tick`,
preferences, saved-games files and piped bytes. Each is used, or refused in one line that names
the file; never a traceback, a hang or the memory eaten."""
from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.cli.main import main
from host.storage.decks import DeckError, load_described_deck, load_opening_cards, load_tale
from host.storage.preferences import VERBOSITIES, load
from host.audio.speaker import MAX_RATE, MIN_RATE
from tests.fuzz.common import FUZZ
from tests.host.cli_helpers import ROOT, run_storyhost

BUILTIN = ROOT / "games" / "data"
LOADERS = {
    "stories/stories.json": load_opening_cards,
    "storytelling/saint-george.json": load_tale,
    "dixit/dixit-described.json": load_described_deck,
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


def _mangled(original: bytes) -> st.SearchStrategy[bytes]:
    """A real file with bytes cut, flipped or inserted; or hostile text of its own."""
    def edit(data: bytes, at: int, cut: int, insert: bytes) -> bytes:
        at %= max(1, len(data))
        return data[:at] + insert + data[at + cut:]

    hostile = st.sampled_from([
        b"[" * 100_000, b"1" * 5000, "\ufeff{}".encode(), "{}".encode("utf-16"), b"\xff\xfe\x00",
        b'{"cards": ' + b"9" * 5000 + b"}", b"null", b"[]", b"\x1b[2J",
    ])
    return st.one_of(
        st.builds(edit, st.just(original), st.integers(0, 10**6), st.integers(0, 40), st.binary(max_size=40)),
        hostile, st.binary(max_size=200), json_values.map(lambda value: json.dumps(value).encode()),
    )


def _file(folder: str, name: str, data: bytes) -> Path:
    path = Path(folder) / name
    path.write_bytes(data)
    return path


def _one_line_naming(message: str, path: Path) -> None:
    lines = message.strip().splitlines()
    assert lines and all(str(path) in line for line in lines), message
    assert "Traceback" not in message


@pytest.mark.parametrize("deck", LOADERS)
def test_a_mangled_deck_loads_or_names_the_file(deck):
    loader = LOADERS[deck]

    @FUZZ
    @given(data=_mangled((BUILTIN / deck).read_bytes()))
    def case(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = _file(folder, "deck.json", data)
            try:
                loader(path)
            except DeckError as error:
                _one_line_naming(str(error), path)

    case()


def test_terms_and_transcripts_for_tick_are_judged_or_refused_in_one_line():
    @FUZZ
    @given(terms=_mangled(b'{"Sabine": ["snow", "polar bear"], "Leo": ["igloo"]}'),
           story=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
    def case(terms: bytes, story: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            terms_path, story_path = _file(folder, "terms.json", terms), _file(folder, "story.txt", story)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(["tick", "--card", "When I was in the Arctic", "--terms", str(terms_path),
                               "--transcript", str(story_path)])
            assert status in (0, 2), err.getvalue()
            if status == 2:
                assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
                assert str(terms_path) in err.getvalue() or str(story_path) in err.getvalue()

    case()


def test_any_preferences_file_gives_usable_preferences():
    @FUZZ
    @given(data=_mangled(b'{"verbosity": "brief", "rate": 160}'))
    def case(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = _file(folder, "preferences.json", data)
            os.environ["STORYHOST_CONFIG_DIR"] = folder
            try:
                preferences, trouble = load()
            finally:
                del os.environ["STORYHOST_CONFIG_DIR"]
            assert preferences.verbosity in VERBOSITIES and MIN_RATE <= preferences.rate <= MAX_RATE
            if trouble is not None:
                _one_line_naming(trouble, path)

    case()


@pytest.mark.slow
def test_a_damaged_saved_games_file_is_read_or_refused_in_one_line(tmp_path):
    """Random bytes and byte edits in a real saved-games file: `games` and `resume` list, resume
    or refuse in one line, never a traceback nor an internal error."""
    original = tmp_path / "original"
    played = run_storyhost(original, "play", "dixit", "--players", "Ana", "Bo", "Cy",
                           stdin="storyteller Ana\nclue A quiet morning\nshown\nvote Bo 1\nquit\n")
    assert played.returncode == 0, played.stderr
    sqlite3.connect(original / "games.sqlite3").execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = (original / "games.sqlite3").read_bytes()

    @FUZZ.__class__(FUZZ, max_examples=6)
    @given(edit=_mangled(data))
    def case(edit: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            _file(folder, "games.sqlite3", edit)
            for command in (["games"], ["resume", "--script", os.devnull]):
                result = run_storyhost(Path(folder), *command)
                # the store's integrity check says plainly what is damaged: never an internal error
                assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
                assert result.returncode == 0 or len(result.stderr.strip().splitlines()) == 1, result.stderr

    case()


@pytest.mark.slow
def test_piped_bytes_never_end_the_game(tmp_path):
    """Bytes on standard input (invalid UTF-8, NULs, escapes) through the real process: every line
    is played or refused, the game goes on to its end of input, nothing raw is printed."""
    @FUZZ.__class__(FUZZ, max_examples=6)
    @given(data=st.lists(st.binary(min_size=1, max_size=30), max_size=5))
    def case(data: list[bytes]) -> None:
        with tempfile.TemporaryDirectory() as folder:
            stdin = b"\n".join([b"storyteller Ana", *data, b"score", b""])
            result = _run_bytes(Path(folder), stdin)
            assert result.returncode == 0, result.stderr
            assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr
            assert b"Scores:" in result.stdout, result.stdout
            assert not any(byte in result.stdout for byte in (b"\x1b", b"\x00")), result.stdout

    case()


def _run_bytes(folder: Path, stdin: bytes):  # type: ignore[no-untyped-def]
    import subprocess

    from tests.host.cli_helpers import storyhost_command, storyhost_env

    return subprocess.run(
        storyhost_command("play", "dixit", "--players", "Ana", "Bo", "Cy"), input=stdin, capture_output=True,
        env=dict(storyhost_env(folder), PYTHONIOENCODING="utf-8:strict"),  # as in a UTF-8 locale
        cwd=ROOT, timeout=120,
    )
