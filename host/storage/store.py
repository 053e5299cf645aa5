"""Saved games: one SQLite file, each game its settings plus its append-only action log.

Every action is committed (WAL, synchronous=FULL) before the host announces it, so a crash or
`kill -9` loses at most the action in flight. Resuming a game is replaying its log.

The store numbers the moves itself, in one transaction with a check of the count the session
expects, so a log never has a gap. Each move row carries a running SHA-256 over the game's
settings and every move up to it, and the game's row the count and the last hash: a game whose
log does not end where its row says (a lost tail, a lost or altered middle) is refused as
damaged, never replayed short. A file that was not closed cleanly (its write-ahead log is still
there), that fails a read, or that is about to be changed (a game created, held or upgraded)
gets SQLite's own `PRAGMA quick_check` (about 5 ms a megabyte); a damaged file is copied aside
and refused with one line saying where the copy is, and nothing is written into it.

A session holds a game open with an exclusive `flock` on a small file naming its pid: a second
session is refused, and the kernel drops the lock with the process, however it ends (kill -9
included), so a stale lock cannot block a resume.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import socket
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple, TextIO


from games.base import Action
from games.language import _, n_
from models.locate import data_dir

#: PRAGMA user_version of the current layout; 0 is the layout before moves were counted and
#: hashed, 1 the one before the companion's seats, 2 the one before a seat kept its phone's key
VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    digest TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    verb TEXT NOT NULL,
    player TEXT,
    args TEXT NOT NULL,
    at TEXT NOT NULL,
    digest TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,
    phone TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, player)
);
"""


class StoreError(RuntimeError):
    """The saved games cannot be read or written; the message says which file and why."""


class GameDamaged(StoreError):
    """One saved game cannot be read whole; the others may be fine."""


class GameBusy(StoreError):
    """The game is open in another storyhost."""


def _user_only(path: Path) -> None:
    """The saved games file (tokens, secret terms) and its side files readable by their user only:
    made so before SQLite opens it (SQLite gives its -wal and -shm files the file's mode), and
    files of an older storyhost corrected."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # an empty file is an empty database
    for side in ("", "-wal", "-shm", "-journal"):
        try:
            os.chmod(f"{path}{side}", 0o600)
        except OSError:
            pass  # none such, or another user's file: SQLite says whether it can be read


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _chain(previous: str, *fields: object) -> str:
    """The running hash: the one before, then this record's fields."""
    record = json.dumps([previous, *fields], ensure_ascii=False)
    return hashlib.sha256(record.encode("utf-8", "surrogatepass")).hexdigest()


def _first_digest(game: str, settings: str) -> str:
    return _chain("", game, settings)


class Seat(NamedTuple):
    """A player's seat for a phone: the private link's key, whether a phone took it, and the key of
    that phone ('' for none, or a seat taken before phones had keys)."""

    token: str
    claimed: bool
    phone: str = ""


@dataclass(frozen=True)
class SavedGame:
    id: int
    game: str
    settings: dict[str, Any]
    created: str
    updated: str
    finished: bool
    moves: int
    #: why the game cannot be replayed whole, or None
    damage: str | None = None


class GameStore:
    """The saved games file. Open it with `GameStore.open()`; use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._held: dict[int, TextIO] = {}
        self._sound = False  # quick_check passed since this store was opened
        unclean = Path(f"{path}-wal").exists() or Path(f"{path}-journal").exists()
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            _user_only(path)
            self._db = sqlite3.connect(path, isolation_level=None, timeout=10)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(_("Cannot open the saved games file {file}: {error}.").format(file=path, error=error)) from error
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if unclean:  # the last storyhost was killed, or another one has the file open now
                self._check_integrity()
            self._upgrade()
        except sqlite3.DatabaseError as error:
            self._db.close()
            if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
                raise StoreError(_("The saved games file {file} is busy in another storyhost; try again.").format(file=path)) from error
            raise self._damaged(str(error)) from error
        except StoreError:
            self._db.close()
            raise

    @classmethod
    def open(cls) -> GameStore:
        """The saved games in storyhost's data folder, which is made readable by its user only."""
        folder = data_dir()
        try:
            if folder.is_dir() and folder.stat().st_uid == os.getuid() and folder.stat().st_mode & 0o077:
                folder.chmod(0o700)
        except OSError:
            pass  # the file itself is its user's alone all the same
        return cls(folder / "games.sqlite3")

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    # -- integrity
    def _check_integrity(self) -> None:
        first = self._db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if first != "ok":
            raise self._damaged(first)
        self._sound = True

    def _before_changing(self) -> None:
        """Nothing is written into a damaged file: it is checked once before its first change."""
        if not self._sound:
            with self._reading():
                self._check_integrity()

    def _damaged(self, detail: str) -> StoreError:
        return StoreError(
            _("The saved games file {file} is damaged (SQLite: {detail}); storyhost changes nothing in it."
              " {copy} Move the file away to start a new one.").format(
                file=self.path, detail=" ".join(detail.split()), copy=self._keep_copy())
        )

    def _keep_copy(self) -> str:
        """Copy the damaged file aside, once per content, before anyone rewrites it."""
        try:
            content = hashlib.sha256(self.path.read_bytes()).hexdigest()[:12]
            copy = self.path.with_name(f"{self.path.name}.damaged-{content}")
            if not copy.exists():
                shutil.copyfile(self.path, copy)
                copy.chmod(0o600)
                wal = Path(f"{self.path}-wal")
                if wal.exists():
                    shutil.copyfile(wal, f"{copy}-wal")
                    os.chmod(f"{copy}-wal", 0o600)
        except OSError as error:
            return _("No copy could be kept ({reason}).").format(reason=error.strerror)
        return _("A copy is kept at {file}.").format(file=copy)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A failed read is checked: a damaged file says so, anything else says what failed."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            try:
                self._check_integrity()
            except sqlite3.DatabaseError as failed:
                raise self._damaged(str(failed)) from error
            raise StoreError(_("Cannot read the saved games file {file}: {error}.").format(file=self.path, error=error)) from error

    def _upgrade(self) -> None:
        """Create the tables, or bring a file of an older storyhost up to date (in one transaction)."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] == VERSION:
            return
        with self._transaction():  # two storyhosts starting at once upgrade it once
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise StoreError(_("The saved games file {file} was written by a newer storyhost; update storyhost to read it.")
                                 .format(file=self.path))
            if version == VERSION:
                return
            old = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is not None
            if old and version == 2:
                self._db.execute("ALTER TABLE seats ADD COLUMN phone TEXT NOT NULL DEFAULT ''")
            if old and version == 0:
                self._check_integrity()
                self._db.execute("ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0")
                self._db.execute("ALTER TABLE games ADD COLUMN digest TEXT NOT NULL DEFAULT ''")
                self._db.execute("ALTER TABLE actions ADD COLUMN digest TEXT NOT NULL DEFAULT ''")
                self._hash_old_games()
            for statement in SCHEMA.split(";"):  # the tables, or those later layouts added
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {VERSION}")

    def _hash_old_games(self) -> None:
        """Number and hash the moves of games saved before the store did (trusting them as they are)."""
        for game_id, game, settings in self._db.execute("SELECT id, game, settings FROM games").fetchall():
            digest = _first_digest(game, settings)
            rows = self._db.execute(
                "SELECT seq, verb, player, args FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            self._db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            for seq, (_, verb, player, args) in enumerate(rows):
                digest = _chain(digest, verb, player, args)
                self._db.execute(
                    "INSERT INTO actions (game_id, seq, verb, player, args, at, digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, verb, player, args, _now(), digest),
                )
            self._db.execute("UPDATE games SET moves = ?, digest = ? WHERE id = ?", (len(rows), digest, game_id))

    # -- writing
    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE: the checks and the write see the file as no other writer can change it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _writing(self) -> Iterator[None]:
        try:
            with self._transaction():
                yield
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
                raise StoreError(_("Cannot save to {file}: another storyhost kept it busy; the move was not saved.")
                                 .format(file=self.path)) from error
            if "malformed" in str(error):
                raise self._damaged(str(error)) from error
            raise StoreError(_("Cannot save to {file}: {error}.").format(file=self.path, error=error)) from error

    def _count(self, game_id: int) -> tuple[int, str]:
        row = self._db.execute("SELECT moves, digest FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(_("There is no game {number} in {file}.").format(number=game_id, file=self.path))
        return int(row[0]), str(row[1])

    def _changed_elsewhere(self, game_id: int, moves: int, expected: int) -> StoreError:
        return StoreError(
            _("Game {number} was changed by another storyhost ({moves} moves saved, this one expected {expected});"
              " nothing was saved: resume it again to see it as it is.").format(number=game_id, moves=moves, expected=expected)
        )

    def create(self, game: str, settings: dict[str, Any], held: ExitStack | None = None) -> int:
        """A new game's number; with `held`, the game is held open (see `hold`) before any
        other storyhost can see it, until `held` closes."""
        self._before_changing()
        now = _now()
        text = json.dumps(settings, ensure_ascii=False)
        with self._writing():
            cursor = self._db.execute(
                "INSERT INTO games (game, settings, created, updated, digest) VALUES (?, ?, ?, ?, ?)",
                (game, text, now, now, _first_digest(game, text)),
            )
            game_id = int(cursor.lastrowid or 0)
            if held is not None:
                held.enter_context(self.hold(game_id))
        return game_id

    def append(self, game_id: int, seq: int, action: Action) -> None:
        """Save action number `seq` (0-based) of a game: refused unless exactly `seq` moves are saved."""
        now = _now()
        args = json.dumps(action.args, ensure_ascii=False)
        with self._writing():
            moves, digest = self._count(game_id)
            if moves != seq:
                raise self._changed_elsewhere(game_id, moves, seq)
            digest = _chain(digest, action.verb, action.player, args)
            self._db.execute(
                "INSERT INTO actions (game_id, seq, verb, player, args, at, digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, moves, action.verb, action.player, args, now, digest),
            )
            self._db.execute("UPDATE games SET moves = ?, digest = ?, updated = ? WHERE id = ?", (moves + 1, digest, now, game_id))
        self._note_head(game_id, seq + 1, digest)

    def drop_last(self, game_id: int, seq: int) -> None:
        """Forget move number `seq` (undo), which must be the game's last; the game is open again."""
        before = self._digest_after(game_id, seq)
        self._note_head(game_id, seq, before)  # first: the note may be behind the file, never ahead
        with self._writing():
            moves, _ = self._count(game_id)
            if moves != seq + 1:
                raise self._changed_elsewhere(game_id, moves, seq + 1)
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
            self._db.execute(
                "UPDATE games SET moves = ?, digest = ?, updated = ?, finished = 0 WHERE id = ?",
                (seq, before, _now(), game_id),
            )

    def _digest_after(self, game_id: int, moves: int) -> str | None:
        """The hash of the game's first `moves` moves as saved, None if it has fewer."""
        if moves == 0:
            row = self._db.execute("SELECT game, settings FROM games WHERE id = ?", (game_id,)).fetchone()
            return None if row is None else _first_digest(*row)
        row = self._db.execute("SELECT digest FROM actions WHERE game_id = ? AND seq = ?", (game_id, moves - 1)).fetchone()
        return None if row is None else str(row[0])

    def mark_finished(self, game_id: int, finished: bool = True) -> None:
        with self._writing():
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    # -- the companion's seats: one private link per player and game, kept for `resume`
    def seats(self, game_id: int, players: Iterable[str], new_token: Callable[[], str]) -> dict[str, Seat]:
        """Each player's seat; missing tokens are made now."""
        with self._writing():
            for player in players:
                self._db.execute(
                    "INSERT OR IGNORE INTO seats (game_id, player, token) VALUES (?, ?, ?)", (game_id, player, new_token())
                )
            rows = self._db.execute("SELECT player, token, claimed, phone FROM seats WHERE game_id = ?", (game_id,)).fetchall()
        return {player: Seat(token, bool(claimed), phone) for player, token, claimed, phone in rows}

    def claim_seat(self, game_id: int, player: str, phone: str) -> None:
        """`player`'s seat taken by the phone whose key is `phone`."""
        with self._writing():
            self._db.execute("UPDATE seats SET claimed = 1, phone = ? WHERE game_id = ? AND player = ?", (phone, game_id, player))

    def renew_seat(self, game_id: int, player: str, token: str) -> None:
        """A new token for `player`'s seat, to be claimed again: the old link is worth nothing."""
        with self._writing():
            self._db.execute(
                "UPDATE seats SET token = ?, claimed = 0, phone = '' WHERE game_id = ? AND player = ?", (token, game_id, player)
            )

    # -- reading
    def _summaries(self, game_id: int | None = None) -> list[SavedGame]:
        """Every saved game (or one), each checked against its row: as many moves as it says,
        numbered without a gap, its settings and first move hashing to the first move's hash,
        the last move's hash its hash. (Replaying the whole hash chain is left to `actions`,
        so that listing a file of many games stays quick.)"""
        one = game_id is not None
        notes = [game_id] if game_id is not None else self._noted_games()
        known = {id_: self._last_known(id_) for id_ in notes}  # read before the file: a note lags behind it
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, g.game, g.settings, g.created, g.updated, g.finished, g.moves, g.digest,"
                " COUNT(a.seq), MAX(a.seq), f.verb, f.player, f.args, f.digest, l.verb, l.player, l.args, l.digest,"
                " (SELECT digest FROM actions WHERE game_id = g.id AND seq = g.moves - 2)"
                " FROM games g LEFT JOIN actions a ON a.game_id = g.id"
                " LEFT JOIN actions f ON f.game_id = g.id AND f.seq = 0"
                " LEFT JOIN actions l ON l.game_id = g.id AND l.seq = g.moves - 1"
                + (" WHERE g.id = ?" if one else "") + " GROUP BY g.id ORDER BY g.id", (game_id,) if one else (),
            ).fetchall()
        saved = []
        for id_, game, settings, created, updated, finished, moves, digest, count, highest, *ends, before_last in rows:
            first, last = ends[:4], ends[4:]
            damage = None
            origin = _first_digest(game, settings)
            if count != moves or (highest if count else -1) != moves - 1:
                damage = self._damage(id_, self._short(count, moves) if count < moves else _("its moves do not match its record"))
            elif (_chain(origin, *first[:3]) != first[3]) if moves else digest != origin:
                damage = self._damage(id_, _("its settings or first move were altered"))
            elif moves and not digest == last[3] == _chain(before_last if moves > 1 else origin, *last[:3]):
                damage = self._damage(id_, _("its last move was altered"))
            elif (noted := known.get(id_)) is not None and (noted[0] > moves or noted[0] == moves and noted[1] != digest):
                damage = self._behind(id_, noted[0])
            try:
                parsed = json.loads(settings)
            except ValueError:
                parsed, damage = {}, damage or self._damage(id_, _("its settings cannot be read"))
            saved.append(SavedGame(id_, game, parsed, created, updated, bool(finished), moves, damage))
        return saved

    def _noted_games(self) -> list[int]:
        try:
            return [int(note.name.removeprefix("game-")) for note in self._head_file(0).parent.glob("game-*")]
        except (OSError, ValueError):
            return []

    def _damage(self, game_id: int, trouble: str) -> str:
        return _("Game {number} in {file} is damaged: {trouble}, so storyhost will not replay it short."
                 " {copy} The other games are not affected.").format(number=game_id, file=self.path, trouble=trouble,
                                                                     copy=self._keep_copy())

    @staticmethod
    def _short(count: int, moves: int) -> str:
        return n_("{count} of its {moves} move can be read", "{count} of its {moves} moves can be read", moves).format(
            count=count, moves=moves)

    @staticmethod
    def _busy(game_id: int, pid: str, machine: str) -> str:
        """GameBusy's sentence: who holds the game, as its open-game file says."""
        if not pid:
            return _("Game {number} is open in another storyhost; close it there first.").format(number=game_id)
        if machine in ("", socket.gethostname()):
            return _("Game {number} is open in another storyhost (pid {pid}); close it there first.").format(
                number=game_id, pid=pid)
        return _("Game {number} is open in another storyhost (pid {pid} on {machine}); close it there first.").format(
            number=game_id, pid=pid, machine=machine)

    def actions(self, game_id: int) -> list[Action]:
        """The game's whole log, its hash chain replayed; GameDamaged if it cannot be read whole."""
        with self._reading():
            game = self._db.execute("SELECT game, settings, moves, digest FROM games WHERE id = ?", (game_id,)).fetchone()
            if game is None:
                raise StoreError(_("There is no game {number} in {file}.").format(number=game_id, file=self.path))
            rows = self._db.execute(
                "SELECT seq, verb, player, args, digest FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        name, settings, moves, digest = game
        digest_so_far = _first_digest(name, settings)
        actions: list[Action] = []
        for expected, (seq, verb, player, args, saved) in enumerate(rows):
            digest_so_far = _chain(digest_so_far, verb, player, args)
            if seq != expected or saved != digest_so_far:
                raise GameDamaged(self._damage(game_id, _("move {number} is missing or altered").format(number=expected + 1)))
            try:
                actions.append(Action(verb, player, tuple(json.loads(args))))
            except (ValueError, TypeError) as error:
                raise GameDamaged(self._damage(game_id, _("move {number} cannot be read").format(number=expected + 1))) from error
        if len(rows) < moves:
            raise GameDamaged(self._damage(game_id, self._short(len(rows), moves)))
        if len(rows) != moves or digest_so_far != digest:
            raise GameDamaged(self._damage(game_id, "its moves do not match its record"))
        return actions

    def games(self) -> list[SavedGame]:
        return self._summaries()

    def get(self, game_id: int) -> SavedGame | None:
        return next(iter(self._summaries(game_id)), None)

    def unfinished(self) -> list[SavedGame]:
        """The unfinished games, the one played last first."""
        return sorted((saved for saved in self.games() if not saved.finished), key=lambda saved: (saved.updated, saved.id), reverse=True)

    def _head_file(self, game_id: int) -> Path:
        return self.path.with_name(f"{self.path.name}.open") / f"game-{game_id}"

    def _last_known(self, game_id: int) -> tuple[int, str] | None:
        """The move count and hash last saved for the game by this machine, as noted beside the
        file: a file that reads as a consistent older game (pages written back stale, an older
        copy put in its place) has fewer moves than its note."""
        try:
            moves, digest = self._head_file(game_id).read_text(encoding="utf-8").splitlines()[1].split()
            return int(moves), digest
        except (OSError, IndexError, ValueError):
            return None

    def _behind(self, game_id: int, moves: int) -> str:
        return self._damage(
            game_id,
            n_("it had {count} move when last saved on this computer and fewer can be read now (the file lost"
               " it, or is an older copy; to play it as it is, delete {file})",
               "it had {count} moves when last saved on this computer and fewer can be read now (the file lost"
               " them, or is an older copy; to play it as it is, delete {file})", moves).format(
                count=moves, file=self._head_file(game_id)),
        )

    def _note_head(self, game_id: int, moves: int, digest: str | None) -> None:
        """Note the game's move count and hash beside the file (in its open-game file, while held)."""
        handle = self._held.get(game_id)
        if handle is not None:
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()} {socket.gethostname()}\n{moves} {digest}\n")
            handle.flush()

    @contextmanager
    def hold(self, game_id: int) -> Iterator[None]:
        """Hold the game open for this process: GameBusy if another storyhost has it, GameDamaged
        if it reads as fewer moves than were noted when it was last saved here."""
        self._before_changing()
        head = self._head_file(game_id)
        try:
            head.parent.mkdir(mode=0o700, exist_ok=True)
            handle = open(head, "a+", encoding="utf-8")
        except OSError as error:
            raise StoreError(_("Cannot mark game {number} as open in {folder}: {reason}.").format(
                number=game_id, folder=head.parent, reason=error.strerror)) from error
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise StoreError(_("Cannot mark game {number} as open in {folder}: {reason}.").format(
                        number=game_id, folder=head.parent, reason=error.strerror)) from error
                handle.seek(0)
                holder = (handle.readline().split() + [""])[:2]
                raise GameBusy(self._busy(game_id, *holder)) from error
            known = self._last_known(game_id)
            with self._reading():
                saved = self._db.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone()
                if known is not None and saved is not None and self._digest_after(game_id, known[0]) != known[1]:
                    raise GameDamaged(self._behind(game_id, known[0]))
                self._held[game_id] = handle
                if saved is not None:
                    self._note_head(game_id, saved[0], self._digest_after(game_id, saved[0]))
            try:
                yield
            finally:
                del self._held[game_id]
