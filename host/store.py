"""Saved games: one SQLite file, each game its settings plus its append-only action log.

Every action is committed (WAL, synchronous=FULL) before the host announces it, so a crash or
`kill -9` loses at most the action in flight. Resuming a game is replaying its log.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs

from games.base import Action

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    verb TEXT NOT NULL,
    player TEXT,
    args TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(RuntimeError):
    """The saved games cannot be read or written; the message says which file and why."""


def data_dir() -> Path:
    """Where games are saved: $STORYHOST_DATA_DIR, else the user data folder."""
    configured = os.environ.get("STORYHOST_DATA_DIR")
    return Path(configured) if configured else Path(platformdirs.user_data_dir("storyhost"))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SavedGame:
    id: int
    game: str
    settings: dict[str, Any]
    created: str
    updated: str
    finished: bool
    moves: int


class GameStore:
    """The saved games file. Open it with `GameStore.open()`; use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"Cannot open the saved games file {path}: {error}") from error

    @classmethod
    def open(cls) -> GameStore:
        return cls(data_dir() / "games.sqlite3")

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            with self._db:
                return self._db.execute(sql, params)
        except sqlite3.Error as error:
            raise StoreError(f"Cannot save to {self.path}: {error}") from error

    def create(self, game: str, settings: dict[str, Any]) -> int:
        now = _now()
        cursor = self._write(
            "INSERT INTO games (game, settings, created, updated) VALUES (?, ?, ?, ?)",
            (game, json.dumps(settings, ensure_ascii=False), now, now),
        )
        if cursor.lastrowid is None:  # SQLite sets it after every INSERT of one row
            raise sqlite3.DatabaseError("The new game has no id.")
        return cursor.lastrowid

    def append(self, game_id: int, seq: int, action: Action) -> None:
        """Save action number `seq` (0-based) of a game."""
        now = _now()
        self._write(
            "INSERT INTO actions (game_id, seq, verb, player, args, at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, action.verb, action.player, json.dumps(action.args, ensure_ascii=False), now),
        )
        self._write("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))

    def drop_last(self, game_id: int) -> None:
        """Forget a game's last action (undo)."""
        self._write(
            "DELETE FROM actions WHERE game_id = ? AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?)",
            (game_id, game_id),
        )
        self._write("UPDATE games SET updated = ?, finished = 0 WHERE id = ?", (_now(), game_id))

    def mark_finished(self, game_id: int, finished: bool = True) -> None:
        self._write("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def actions(self, game_id: int) -> list[Action]:
        rows = self._db.execute(
            "SELECT verb, player, args FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [Action(verb, player, tuple(json.loads(args))) for verb, player, args in rows]

    def games(self) -> Iterator[SavedGame]:
        rows = self._db.execute(
            "SELECT g.id, g.game, g.settings, g.created, g.updated, g.finished,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
            " FROM games g ORDER BY g.id"
        )
        for id_, game, settings, created, updated, finished, moves in rows:
            yield SavedGame(id_, game, json.loads(settings), created, updated, bool(finished), moves)

    def get(self, game_id: int) -> SavedGame | None:
        return next((saved for saved in self.games() if saved.id == game_id), None)

    def latest_unfinished(self) -> SavedGame | None:
        unfinished = [saved for saved in self.games() if not saved.finished]
        return max(unfinished, key=lambda saved: (saved.updated, saved.id), default=None)
