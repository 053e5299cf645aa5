"""Benchmark of the saved-games file as it grows: what its checks cost.

    .venv/bin/python tests/benchmarks/bench_store.py

For files of 10, 100 and 500 games of 150 moves each (a long Dixit game has ~140): the size,
the time to open a file that was not closed cleanly (SQLite's quick_check runs), to open one
that was, to read one game (its log checked against its hash chain, as `resume N` does), to list
all games (every log checked, as `storyhost games` does), and to save one move.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.base import Action  # noqa: E402
from host.storage.store import GameStore  # noqa: E402


def timed(work, repeat: int = 5) -> float:
    """The best of `repeat` runs, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    print(f"{'games':>6} {'MB':>6} {'open killed':>12} {'open clean':>11} {'read one':>9} {'list all':>9} {'save one':>9}  (ms)")
    for count in (10, 100, 500):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.sqlite3"
            with GameStore(path) as store:
                store._db.execute("PRAGMA synchronous=OFF")  # building the file is not measured
                for number in range(count):
                    game_id = store.create("dixit", {"players": ["Ana", "Bo", "Cy", "Di"], "seed": number})
                    for seq in range(150):
                        store.append(game_id, seq, Action("vote", "Bo", (str(seq % 6 + 1),)))
            killed = Path(folder) / "killed" / "games.sqlite3"
            killed.parent.mkdir()
            shutil.copyfile(path, killed)
            Path(f"{killed}-wal").write_bytes(b"")  # as kill -9 leaves it: the write-ahead log is there

            def open_killed() -> None:
                Path(f"{killed}-wal").touch()
                GameStore(killed).__exit__()

            megabytes = path.stat().st_size / 1e6
            with GameStore(path) as store:
                read_one = timed(lambda: store.actions(count // 2))
                list_all = timed(lambda: store.games(), repeat=2)
                moves = iter(range(150, 10_000))
                save_one = timed(lambda: store.append(1, next(moves), Action("vote", "Bo", ("1",))))
            print(f"{count:>6} {megabytes:>6.1f} {timed(open_killed):>12.1f} {timed(lambda: GameStore(path).__exit__()):>11.1f}"
                  f" {read_one:>9.1f} {list_all:>9.1f} {save_one:>9.1f}")


if __name__ == "__main__":
    main()
