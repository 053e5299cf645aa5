"""Hostile but realistic input through the real `storyhost` process (issue 13): secrets in
refusals, encodings, names, ranges, terminal escapes, files at the edges, and script comments.
Each bad input gets one line, changes nothing and never a traceback."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess

import pytest

from host.storage.preferences import load as load_preferences
from host.storage.store import _first_digest
from tests.host.cli_helpers import ROOT, run_storyhost, storyhost_command, storyhost_env

STORIES = ["play", "stories", "--players", "Nina", "Sabine", "Stephan", "--seed", "2"]
DIXIT = ["play", "dixit", "--players", "Ana", "Bo", "Cy"]
SABINE_TERMS = ["zebra", "violin", "lantern", "parrot", "kettle"]
STEPHAN_TERMS = ["ladder", "pepper", "meadow", "sandal", "castle"]


def run_bytes(data_dir, *args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    """storyhost with raw bytes in, and standard streams strict UTF-8 as in a UTF-8 locale."""
    env = dict(storyhost_env(data_dir), PYTHONIOENCODING="utf-8:strict")
    return subprocess.run(storyhost_command(*args), input=stdin, capture_output=True, env=env, cwd=ROOT, timeout=120)


def replies(stdout: str) -> list[str]:
    """What the host printed, without the echo of the script's own lines."""
    return [line for line in stdout.splitlines() if not line.startswith("> ")]


def saved_actions(data_dir) -> list[tuple[str, str | None, str]]:
    with sqlite3.connect(data_dir / "games.sqlite3") as db:
        return list(db.execute("SELECT verb, player, args FROM actions ORDER BY game_id, seq"))


def one_line_error(result: subprocess.CompletedProcess[str], *expected: str, status: int = 2) -> None:
    assert result.returncode == status, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for text in expected:
        assert text in result.stderr, result.stderr


def written(player: str, terms: list[str]) -> list[str]:
    return [f"term {player} {term}" for term in terms]


# --- 2. secrets through refusals ------------------------------------------------------------------

def test_no_refusal_shows_a_term_before_the_reveal(tmp_path):
    """Every refusal that could carry a term, typed while terms are secret and while the story is
    told: none prints the term (nor a guess at one), and a written and an unwritten term get the
    same answer."""
    probes_while_writing = [
        "term Sabine zebra", "term Sabine zebras", "erase Sabine walrus", "zebra", "term zebra",
        "private zebra", "term Sabine quickly", "term Sabine the zebra", "side Sabine zebra",
    ]
    probes_while_telling = [
        "untick Sabine zebra", "untick Sabine walrus", "tick Sabine violin", "tick Sabine violin",
        "tick Sabine walrus", "untick Stephan ladder", "erase Sabine zebra", "term Sabine zebra",
    ]
    lines = ["side Nina normal", *written("Sabine", SABINE_TERMS[:1]), *probes_while_writing,
             *written("Sabine", SABINE_TERMS[1:]), *written("Stephan", STEPHAN_TERMS), "start",
             *probes_while_telling, "quit"]
    result = run_storyhost(tmp_path, *STORIES, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    shown = "\n".join(replies(result.stdout)).casefold()
    for secret in [*SABINE_TERMS, *STEPHAN_TERMS, "zebras", "walrus", "quickly"]:
        assert secret not in shown, (secret, shown)
    out = replies(result.stdout)
    lines = result.stdout.splitlines()
    for probe in probes_while_telling[:6]:  # legal or not, written or not: the same answer (issue 20)
        assert lines[lines.index(f"> {probe}") + 1] == "Noted.", probe
    assert "Sabine already wrote this term, or one that counts as the same: write another." in out
    assert any(line.startswith("That is not a command here; 'help' lists them.") for line in out), out


def test_no_refusal_shows_a_vote_while_votes_are_typed(tmp_path):
    lines = ["storyteller Ana", "clue A quiet morning", "shown", "vote Bo 47", "47", "vote 47", "vote Bo 4 7", "quit"]
    result = run_storyhost(tmp_path, *DIXIT, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = replies(result.stdout)
    assert not any("47" in line or "4 7" in line for line in out), out
    assert "The cards on the table are numbered 1 to 5: say one of those numbers." in out


# --- 3. encodings ---------------------------------------------------------------------------------

def test_a_line_that_is_not_utf8_is_refused_and_the_game_goes_on(tmp_path):
    stdin = "storyteller Ana\n".encode() + b"clue caf\xe9 au lait\n" + "clue Café\n".encode() + b"score\n"
    result = run_bytes(tmp_path, *DIXIT, stdin=stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert out.count("That line is not UTF-8 text, so nothing was done: type it again.") == 1
    assert "Ana's clue: Café." in out and "Scores:" in out
    assert [verb for verb, _, _ in saved_actions(tmp_path)] == ["storyteller", "clue"]


@pytest.mark.slow
def test_a_latin1_script_is_refused_naming_the_file_and_a_utf16_one_is_read(tmp_path):
    lines = "storyteller Ana\nclue Café crème\n"
    latin1, utf16 = tmp_path / "latin1.script", tmp_path / "utf16.script"
    latin1.write_bytes(lines.encode("latin-1"))
    utf16.write_bytes(lines.encode("utf-16"))
    one_line_error(run_storyhost(tmp_path, *DIXIT, "--script", str(latin1)), str(latin1), "line 2 is not UTF-8")
    assert not (tmp_path / "games.sqlite3").exists() or saved_actions(tmp_path) == []
    result = run_storyhost(tmp_path, *DIXIT, "--script", str(utf16))
    assert result.returncode == 0, result.stderr
    assert "Ana's clue: Café crème." in result.stdout


def test_a_bom_is_dropped_and_decomposed_names_match_composed_ones(tmp_path):
    script = tmp_path / "bom.script"
    script.write_bytes("\ufeffstoryteller Jose\u0301\n".encode())  # decomposed é in the script
    result = run_storyhost(tmp_path, "play", "dixit", "--players", "José", "Bo", "Cy", "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "José found a sentence first." in result.stdout


# --- 4. names -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "expected"), [
    (["Nina\n", "Leo", "Ana"], "cannot be a player name"),
    (["Nina", "", "Leo"], "An empty name cannot be a player name"),
    (["Nina,,Leo", "Ana"], "An empty name cannot be a player name"),
    (["José", "JOSE\u0301", "Ana"], "Two players are called"),
    (["Ni\x1bna", "Leo", "Ana"], "'Ni^[na' cannot be a player name"),
])
def test_a_name_that_is_not_one_word_is_refused(tmp_path, players, expected):
    one_line_error(run_storyhost(tmp_path, "play", "dixit", "--players", *players), expected)


def test_a_call_word_is_checked_as_a_name_is(tmp_path):
    result = run_storyhost(tmp_path, "play", "dixit", "--players", "Ana", "Bo", "Cy", "--speech", "--call", "Ana=\x1b[2J")
    one_line_error(result, "should be a player's name, '=', and the word to call them by (one word)")
    assert "\x1b" not in result.stderr


# --- 7. ranges ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("option", "value"), [
    ("--timer", "100000000000"), ("--timer", "0"), ("--seed", "-1"), ("--clock-steps", "100000"),
    ("--track-length", "0"), ("--cards", "100000000"),
])
def test_every_number_option_has_a_range(tmp_path, option, value):
    game = "dixit" if option == "--cards" else "storytelling" if option in ("--clock-steps", "--track-length") else "stories"
    result = run_storyhost(tmp_path, "play", game, "--players", "Ana", "Bo", "Cy", option, value)
    one_line_error(result, f"{option} must be a whole number from")


@pytest.mark.slow
def test_resuming_a_game_saved_with_an_out_of_range_setting_is_one_line(tmp_path):
    """As an older storyhost saved it: the setting out of range, the file's hashes consistent
    with it (a change without them is damage, see tests/host/test_saved_games.py)."""
    assert run_storyhost(tmp_path, *STORIES, stdin="quit\n").returncode == 0
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        game, settings = db.execute("SELECT game, settings FROM games").fetchone()
        settings = json.dumps(dict(json.loads(settings), timer_seconds=10**11))
        db.execute("UPDATE games SET settings = ?, digest = ?", (settings, _first_digest(game, settings)))
    for note in (tmp_path / "games.sqlite3.open").glob("game-*"):
        note.unlink()  # the note of the last save on this computer would rightly call it changed
    # a saved game that cannot be opened exits 1, as a damaged one does (a bare resume passes over it)
    one_line_error(run_storyhost(tmp_path, "resume", "1"), "Game 1 cannot be resumed", "--timer", status=1)


@pytest.mark.parametrize("content", ["[]", "null", "[" * 100_000, '{"rate": "fast", "verbosity": 3}',
                                     '{"rate": ' + "9" * 5000 + "}", "\x00\xff"])
def test_unusable_preferences_are_reported_and_replaced_by_defaults(tmp_path, monkeypatch, content):
    monkeypatch.setenv("STORYHOST_CONFIG_DIR", str(tmp_path))
    (tmp_path / "preferences.json").write_text(content, encoding="latin-1")
    preferences, trouble = load_preferences()
    assert (preferences.verbosity, preferences.rate) == ("normal", 175)
    assert trouble is not None and str(tmp_path / "preferences.json") in trouble
    assert len(trouble.splitlines()) == 1


# --- 8. terminal escapes --------------------------------------------------------------------------

@pytest.mark.slow
def test_escapes_in_a_clue_and_a_deck_are_shown_as_text(tmp_path):
    result = run_storyhost(tmp_path, *DIXIT, stdin="storyteller Ana\nclue Hidden\x1b[8m text\x07\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "Ana's clue: Hidden^[[8m text^G." in result.stdout
    deck = tmp_path / "deck.json"
    cards = [{"normal": f"Card {n} \u001b[2J clears", "quirky": f"Quirky {n} \u009b"} for n in range(6)]
    deck.write_text(json.dumps({"game": "stories", "cards": cards}), encoding="utf-8")
    result = run_storyhost(tmp_path, "play", "stories", "--players", "Nina", "Sabine", "Stephan", "--deck", str(deck),
                           stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    assert "^[[2J clears" in result.stdout and "\\u009b" in result.stdout


# --- 9. files at the edges ------------------------------------------------------------------------

def _edge_files(tmp_path):
    deep, huge, fifo = tmp_path / "deep.json", tmp_path / "huge.json", tmp_path / "fifo.json"
    deep.write_text("[" * 100_000)
    huge.write_text('{"game": "stories", "cards": ' + "9" * 5000 + "}")
    os.mkfifo(fifo)
    return {"deep": (deep, "nested too deeply"), "huge": (huge, "number too long"), "fifo": (fifo, "not a regular file"),
            "zero": ("/dev/zero", "not a regular file"), "folder": (tmp_path, "")}


@pytest.mark.slow
def test_a_deck_at_the_edges_is_refused_in_one_line_naming_it(tmp_path):
    for path, reason in _edge_files(tmp_path).values():
        result = run_storyhost(tmp_path, *STORIES, "--deck", str(path), timeout=60)
        one_line_error(result, f"{path}: ", reason)


@pytest.mark.slow
def test_terms_and_transcripts_at_the_edges_are_refused_in_one_line_naming_them(tmp_path):
    terms = tmp_path / "terms.json"
    terms.write_text('{"Ann": ["dog"]}')
    story = tmp_path / "story.txt"
    story.write_text("A dog.")
    for path, reason in _edge_files(tmp_path).values():
        for args in (["--terms", str(path), "--transcript", str(story)], ["--terms", str(terms), "--transcript", str(path)]):
            if args[3] == str(path) and reason in ("nested too deeply", "number too long"):
                continue  # a transcript is text, not JSON: those two are stories like any other
            result = run_storyhost(tmp_path, "tick", "--card", "A day at sea", *args, timeout=60)
            one_line_error(result, str(path), reason)


# --- 11. smaller ----------------------------------------------------------------------------------

def test_a_long_garbage_command_is_not_echoed_whole(tmp_path):
    garbage, longer = "x" * 3000, "y" * 10_000
    result = run_storyhost(tmp_path, *DIXIT, stdin=f"{garbage}\nstoryteller {garbage}\n{longer}\nquit\n")
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) < 300
    assert f"'{'x' * 39}…' is not a command here; 'help' lists them." in result.stdout
    assert f"There is no player called '{'x' * 39}…'. Players: Ana, Bo, Cy." in result.stdout
    assert "That line is longer than 4096 bytes, so nothing was done: commands are short." in result.stdout


@pytest.mark.slow
def test_deck_for_dixit_is_refused_and_a_small_deck_names_its_file(tmp_path):
    deck = tmp_path / "small.json"
    deck.write_text(json.dumps({"game": "stories", "cards": [{"normal": "One", "quirky": "Two"}]}))
    one_line_error(run_storyhost(tmp_path, *DIXIT, "--deck", str(deck)), "--deck is for Stories! cards")
    one_line_error(run_storyhost(tmp_path, *STORIES, "--deck", str(deck)), f"{deck}: ", "at least 6 cards, not 1")


# --- issue 11, rules 3: comments in scripts -------------------------------------------------------

@pytest.mark.slow
def test_a_hash_starts_a_comment_anywhere_on_a_script_line(tmp_path):
    lines = ["side Nina normal # the storyteller's choice", "term Sabine zebra # comment", "private Sabine",
             "quit"]
    result = run_storyhost(tmp_path, *STORIES, stdin="\n".join(lines) + "\n")
    assert "Your terms: zebra." in result.stdout
    dixit = run_storyhost(tmp_path, *DIXIT, stdin="storyteller Ana\nclue We are \\#1 # not this\nquit\n")
    assert "Ana's clue: We are #1." in dixit.stdout
