"""Saved games under hostile conditions, through the real `storyhost` process and real SQLite
files: two sessions on one game, a damaged file, output that goes away, undoing the last move."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from host.storage.store import GameStore
from tests.host.cli_helpers import ROOT, run_storyhost, storyhost_command, storyhost_env
from tests.host.test_golden import GAMES as GOLDEN_GAMES

PLAYERS = ["--players", "Ana", "Bo", "Cy"]
RACE = GOLDEN_GAMES["storytelling-race"]
RACE_SCRIPT = ROOT / "tests" / "host" / "golden" / "storytelling-race.script"


def _session(data_dir: Path, *args: str) -> subprocess.Popen[str]:
    """A storyhost left open at its first prompt, as at a second terminal."""
    process = subprocess.Popen(
        storyhost_command(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=storyhost_env(data_dir), cwd=ROOT,
    )
    assert process.stdout is not None
    process.stdout.readline()  # the game is open (its lock is taken before this line)
    return process


def _moves(data_dir: Path, game_id: int = 1) -> list[str]:
    with GameStore(data_dir / "games.sqlite3") as store:
        return [str(action) for action in store.actions(game_id)]


def test_a_second_session_on_an_open_game_is_refused_and_a_killed_one_does_not_block(tmp_path):
    run_storyhost(tmp_path, "play", "dixit", *PLAYERS, stdin="storyteller Ana\n")
    first = _session(tmp_path, "resume", "1")
    second = run_storyhost(tmp_path, "resume", "1", stdin="clue Mine\nundo\nundo\n")
    assert second.returncode == 1
    assert second.stderr == f"Game 1 is open in another storyhost (pid {first.pid}); close it there first.\n"
    assert second.stdout == ""
    stdout, _ = first.communicate("clue Hello\nundo\nyes\nclue Again\nquit\n", timeout=60)
    assert "Taking back Ana's clue." in stdout
    assert _moves(tmp_path) == ["storyteller Ana", "clue Again"]

    killed = _session(tmp_path, "resume", "1")
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    after = run_storyhost(tmp_path, "resume", "1", stdin="undo\nyes\nquit\n")
    assert after.returncode == 0, after.stderr
    assert after.stdout.startswith("Resuming Dixit, game 1, after 2 moves.")
    assert _moves(tmp_path) == ["storyteller Ana"]


def test_a_bare_resume_passes_over_a_game_open_elsewhere_or_damaged(tmp_path):
    for player in ("Ana", "Bo", "Cy"):
        run_storyhost(tmp_path, "play", "dixit", *PLAYERS, stdin=f"storyteller {player}\nclue Hm\n")
    raw = sqlite3.connect(tmp_path / "games.sqlite3")
    with raw:
        raw.execute("DELETE FROM actions WHERE game_id = 3 AND seq = 1")  # a lost tail
    raw.close()
    open_elsewhere = _session(tmp_path, "resume", "2")
    try:
        resumed = run_storyhost(tmp_path, "resume", stdin="quit\n")
    finally:
        open_elsewhere.communicate("quit\n", timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("Resuming Dixit, game 1, after 2 moves.")
    damaged, busy = resumed.stderr.splitlines()
    assert damaged.startswith(f"Game 3 in {tmp_path / 'games.sqlite3'} is damaged: 1 of its 2 moves can be read")
    assert busy == f"Game 2 is open in another storyhost (pid {open_elsewhere.pid}); close it there first. Resuming another game."
    assert damaged.endswith("The other games are not affected. Resuming another game.")
    listed = run_storyhost(tmp_path, "games").stdout.splitlines()
    assert listed[2].startswith("3: Game 3 in") and "damaged" in listed[2]
    assert listed[0].startswith("1: Dixit with Ana, Bo and Cy; 2 moves, in progress")
    refused = run_storyhost(tmp_path, "resume", "3", stdin="quit\n")
    assert refused.returncode == 1 and refused.stderr.splitlines() == [damaged.removesuffix(" Resuming another game.")]
    assert refused.stdout == ""
    stuck = [_session(tmp_path, "resume", str(game_id)) for game_id in (1, 2)]  # every other game is open elsewhere
    try:
        alone = run_storyhost(tmp_path, "resume", stdin="quit\n")
    finally:
        for session in stuck:
            session.communicate("quit\n", timeout=60)
    assert alone.returncode == 2 and alone.stdout == ""  # said at once, not waited for
    assert alone.stderr.splitlines()[1:] == [
        f"Game {game_id} is open in another storyhost (pid {session.pid}); close it there first." for game_id, session in ((2, stuck[1]), (1, stuck[0]))
    ]
    assert _moves(tmp_path, 1) == ["storyteller Ana", "clue Hm"] and _moves(tmp_path, 2) == ["storyteller Bo", "clue Hm"]


def test_a_damaged_file_is_refused_in_one_line_by_every_command_and_kept(tmp_path):
    run_storyhost(tmp_path, "play", "dixit", *PLAYERS, stdin="storyteller Ana\nclue Hm\n")
    path = tmp_path / "games.sqlite3"
    data = bytearray(path.read_bytes())
    data[4096:8192] = bytes(range(256)) * 16  # page 2: the games table
    path.write_bytes(bytes(data))
    for args in (["games"], ["resume"], ["resume", "1"], ["play", "dixit", *PLAYERS]):
        result = run_storyhost(tmp_path, *args, stdin="storyteller Bo\n")
        assert result.returncode == 1, (args, result.stderr)
        [line] = result.stderr.splitlines()
        assert line.startswith(f"The saved games file {path} is damaged (SQLite: ")
        assert "internal error" not in line and "Traceback" not in result.stdout
        assert line.endswith("Move the file away to start a new one.")
    assert path.read_bytes() == bytes(data)  # nothing was written into it
    [copy] = tmp_path.glob("games.sqlite3.damaged-" + "?" * 12)
    assert copy.read_bytes() == bytes(data)


@pytest.mark.slow
def test_the_last_move_of_a_game_can_be_undone_which_opens_it_again(tmp_path):
    ended = run_storyhost(tmp_path, "play", *RACE, "--script", str(RACE_SCRIPT))
    assert ended.stdout.splitlines()[-1] == "Game 1 is over and saved."
    moves = _moves(tmp_path)
    last = moves[-1]

    looked = run_storyhost(tmp_path, "resume", "1", stdin="flip C2\nscore\n")
    assert looked.returncode == 0, looked.stderr
    assert looked.stdout.splitlines()[1].endswith("'undo' takes back the last move of game 1 and opens it again; 'quit' leaves it over.")
    assert "The game is over" in looked.stdout and looked.stdout.splitlines()[-1] == "Input ended. Game 1 stays over."
    assert _moves(tmp_path) == moves
    assert run_storyhost(tmp_path, "resume").stderr.startswith("There is no unfinished game to resume")

    undone = run_storyhost(tmp_path, "resume", "1", stdin="undo\nyes\nquit\n")
    assert last.startswith("flip ") and f"Taking back Marc's flip of {last.split()[1]}." in undone.stdout
    assert _moves(tmp_path) == moves[:-1]
    assert "in progress" in run_storyhost(tmp_path, "games").stdout

    again = run_storyhost(tmp_path, "resume", stdin=f"{last}\n")  # the bare resume finds it open again
    assert again.stdout.splitlines()[-1] == "Game 1 is over and saved."
    assert _moves(tmp_path) == moves
    assert ", over," in run_storyhost(tmp_path, "games").stdout


def _closed_reader(data_dir: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run storyhost with its output going to a pipe nobody reads any more (like `| head -0`)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(storyhost_command(*args), input=stdin, stdout=write_end, stderr=subprocess.PIPE,
                              text=True, env=storyhost_env(data_dir), cwd=ROOT, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.slow
def test_output_that_goes_away_ends_quietly_or_in_one_line(tmp_path):
    for args in (["rules", "stories"], ["models", "list"], ["games"]):
        gone = _closed_reader(tmp_path, *args)
        assert (gone.returncode, gone.stderr) == (128 + signal.SIGPIPE, ""), args
    assert _closed_reader(tmp_path, "--help").stderr == ""
    played = _closed_reader(tmp_path, "play", "dixit", *PLAYERS, stdin="storyteller Ana\n" + "score\n" * 2000)
    assert (played.returncode, played.stderr) == (128 + signal.SIGPIPE, "")
    assert "1: Dixit with Ana, Bo and Cy; no moves yet, in progress" in run_storyhost(tmp_path, "games").stdout

    for args in (["rules", "stories"], ["games"]):
        with open("/dev/full", "w") as full:
            result = subprocess.run(storyhost_command(*args), stdout=full, stderr=subprocess.PIPE, text=True,
                                    env=storyhost_env(tmp_path), cwd=ROOT, timeout=120)
        assert result.returncode == 1, args
        assert result.stderr == "storyhost stopped: No space left on device (writing its output).\n", args


def test_a_crash_log_that_cannot_be_written_is_one_line_not_two_tracebacks(tmp_path):
    (tmp_path / "crash.log").mkdir()
    with open(os.devnull) as read_only:  # output to a descriptor open for reading: an error no rule expects
        result = subprocess.run(storyhost_command("rules", "dixit"), stdout=read_only, stderr=subprocess.PIPE,
                                text=True, env=storyhost_env(tmp_path), cwd=ROOT, timeout=120)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("storyhost met an internal error (OSError: ")
    assert line.endswith(f"Its details could not be written to {tmp_path / 'crash.log'} (Is a directory).")


def _lines(script: Path) -> list[str]:
    return [line.strip() for line in script.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def _kill_during(data_dir: Path, args: list[str], lines: list[str], rng: random.Random) -> None:
    """Type `lines`, each after the one before was answered, and kill -9 the host a random few
    milliseconds after the last (so the move may be in flight), or during its start and replay."""
    process = subprocess.Popen(
        storyhost_command(*args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=storyhost_env(data_dir), cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    for index, line in enumerate(lines):
        process.stdin.write(line + "\n")
        process.stdin.flush()
        if index < len(lines) - 1:
            while process.stdout.readline().strip() != f"> {line}":
                pass
    time.sleep(rng.uniform(0, 0.05) if lines else rng.uniform(0.2, 3.0))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL


def _final_state(data_dir: Path, player: str) -> list[str]:
    result = run_storyhost(data_dir, "resume", "1", stdin=f"score\nturn\nprivate {player}\nquit\n")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dixit", "stories", "storytelling-race"])
def test_kill_9_at_random_moments_and_both_resume_paths_continue_exactly(tmp_path, name):
    """Each game's reviewed script, killed at a random move (maybe in flight), resumed and
    killed again at a random move, then once more while it starts or replays, then finished:
    the saved log and the final state equal those of the game played without a break. Two
    seeds per game, one per order of the resume paths ('resume 1' then a bare 'resume', and the
    other way round)."""
    args = GOLDEN_GAMES[name]
    player = args[args.index("--players") + 1]
    script = _lines(ROOT / "tests" / "host" / "golden" / f"{name}.script")
    complete = tmp_path / "complete"
    assert run_storyhost(complete, "play", *args, stdin="\n".join(script) + "\n").returncode == 0
    log = _moves(complete)
    expected = _final_state(complete, player)
    for seed in (1, 2):
        rng = random.Random(f"{name}-{seed}")
        killed = tmp_path / f"killed-{seed}"
        paths = [["resume", "1"], ["resume"]][::1 if seed == 1 else -1]
        _kill_during(killed, ["play", *args], script[:rng.randrange(1, len(script))], rng)
        saved = _moves(killed)
        assert saved == log[:len(saved)]
        rest = log[len(saved):]
        _kill_during(killed, paths[0], rest[:rng.randrange(len(rest))], rng)
        print(f"{name}, seed {seed}: killed after {len(saved)}, then {len(_moves(killed))} of {len(log)} moves")
        saved = _moves(killed)
        assert saved == log[:len(saved)]
        _kill_during(killed, paths[1], [], rng)  # while it starts or replays: nothing changes
        assert _moves(killed) == saved
        finished = run_storyhost(killed, *paths[1], stdin="\n".join(log[len(saved):]) + "\n")
        assert finished.returncode == 0, finished.stderr
        assert finished.stdout.splitlines()[0].endswith(f", game 1, after {len(saved)} moves.")
        assert finished.stdout.splitlines()[-1] == "Game 1 is over and saved."
        assert _moves(killed) == log
        assert _final_state(killed, player) == expected


def test_a_file_that_reads_as_an_older_game_is_refused_until_the_player_accepts_it(tmp_path):
    """Stale pages, or an older copy put in the file's place, read as a whole game with fewer
    moves: the note of the last save beside the file tells, and says how to accept it."""
    path = tmp_path / "games.sqlite3"
    run_storyhost(tmp_path, "play", "dixit", *PLAYERS, stdin="storyteller Ana\nclue Hm\n")
    older = path.read_bytes()
    run_storyhost(tmp_path, "resume", stdin="shown\n")
    path.write_bytes(older)
    note = tmp_path / "games.sqlite3.open" / "game-1"
    for args in (["resume", "1"], ["resume"]):
        refused = run_storyhost(tmp_path, *args, stdin="undo\n")
        assert refused.returncode in (1, 2) and refused.stdout == ""
        [line] = refused.stderr.splitlines()
        assert line.startswith(f"Game 1 in {path} is damaged: it had 3 moves when last saved on this computer and fewer can be read now")
        assert f"to play it as it is, delete {note})" in line
    assert "damaged: it had 3 moves" in run_storyhost(tmp_path, "games").stdout
    assert _moves(tmp_path) == ["storyteller Ana", "clue Hm"]  # nothing changed
    note.unlink()
    accepted = run_storyhost(tmp_path, "resume", stdin="quit\n")
    assert accepted.stdout.startswith("Resuming Dixit, game 1, after 2 moves.")
