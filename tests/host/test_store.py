"""The saved-games file: a real SQLite database in a temporary folder."""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
import stat
import threading
from contextlib import ExitStack

import pytest

from games.base import Action
from host.storage.store import GameBusy, GameDamaged, GameStore, StoreError


def test_actions_round_trip_in_order_and_survive_reopening(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = store.create("dixit", {"players": ["Ana", "Bo", "Cy", "Di"], "contando": False})
        actions = [Action("storyteller", "Ana"), Action("clue", None, ("a  long,   winding road",)), Action("vote", "Bo", ("3",))]
        for seq, action in enumerate(actions):
            store.append(game_id, seq, action)
    with GameStore(path) as store:
        assert store.actions(game_id) == actions
        saved = store.get(game_id)
        assert saved is not None and saved.moves == 3 and not saved.finished
        assert saved.settings == {"players": ["Ana", "Bo", "Cy", "Di"], "contando": False}


def test_drop_last_and_finish(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create("stories", {"players": ["A", "B", "C"]})
        store.append(game_id, 0, Action("side", "A", ("normal",)))
        store.append(game_id, 1, Action("term", "B", ("snow",)))
        store.drop_last(game_id, 1)
        assert store.actions(game_id) == [Action("side", "A", ("normal",))]
        store.mark_finished(game_id)
        assert store.unfinished() == []
        other = store.create("dixit", {"players": ["A", "B", "C"]})
        assert [saved.id for saved in store.unfinished()] == [other]
        store.drop_last(game_id, 0)  # undoing the last move of a finished game opens it again
        assert store.actions(game_id) == [] and not store.games()[0].finished
        store.append(game_id, 0, Action("side", "B", ("quirky",)))
        assert store.actions(game_id) == [Action("side", "B", ("quirky",))]


def test_a_move_is_saved_only_after_the_moves_its_session_knows(tmp_path):
    """Moves are numbered by the store: a session that is behind (another one saved meanwhile)
    can neither save over a move nor leave a gap, nor undo a move it did not make."""
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        store.append(game_id, 0, Action("storyteller", "A"))
        for attempt in (lambda: store.append(game_id, 0, Action("storyteller", "B")),
                        lambda: store.append(game_id, 2, Action("storyteller", "B")),
                        lambda: store.drop_last(game_id, 1)):
            with pytest.raises(StoreError) as refused:
                attempt()
            assert str(refused.value).startswith(f"Game {game_id} was changed by another storyhost")
            assert "\n" not in str(refused.value) and "UNIQUE" not in str(refused.value)
        assert store.actions(game_id) == [Action("storyteller", "A")]


def test_two_moves_at_the_same_instant_one_is_saved_the_other_refused_in_one_line(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def session(player: str) -> None:
        with GameStore(path) as mine:
            barrier.wait()
            try:
                mine.append(game_id, 0, Action("storyteller", player))
                outcomes.append("saved")
            except StoreError as error:
                outcomes.append(str(error))

    threads = [threading.Thread(target=session, args=(player,)) for player in ("A", "B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[1:] == ["saved"], outcomes
    assert outcomes != ["saved", "saved"] and "constraint" not in "".join(outcomes)
    with GameStore(path) as store:
        assert len(store.actions(game_id)) == 1


def test_a_second_hold_on_an_open_game_is_refused_naming_the_holder(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store, GameStore(tmp_path / "g.sqlite3") as other:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        with store.hold(game_id):
            with pytest.raises(GameBusy, match=rf"^Game {game_id} is open in another storyhost \(pid {os.getpid()}\); close it there first\.$"):
                with other.hold(game_id):
                    pass
        with other.hold(game_id):  # released with its session
            pass


def _saved(path, moves: int = 3) -> list[Action]:
    actions = [Action("storyteller", "A"), Action("clue", None, ("a road",)), Action("vote", "B", ("3",))][:moves]
    with GameStore(path) as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        for seq, action in enumerate(actions):
            store.append(game_id, seq, action)
    return actions


@pytest.mark.parametrize("tamper, trouble, listed_as", [
    ("DELETE FROM actions WHERE seq = 2", "2 of its 3 moves can be read", "2 of its 3 moves can be read"),
    ("DELETE FROM actions WHERE seq = 1", "move 2 is missing or altered", "2 of its 3 moves can be read"),
    ("UPDATE actions SET args = '[\"4\"]' WHERE seq = 2", "move 3 is missing or altered", "its last move was altered"),
    ("UPDATE actions SET args = '[\"x\"]' WHERE seq = 1", "move 2 is missing or altered", None),  # found on resuming
    ("UPDATE games SET settings = '{\"players\": [\"A\", \"B\"]}'", "move 1 is missing or altered",
     "its settings or first move were altered"),
])
def test_a_game_missing_a_move_or_altered_is_refused_never_replayed_short(tmp_path, tamper, trouble, listed_as):
    path = tmp_path / "games.sqlite3"
    _saved(path)
    raw = sqlite3.connect(path)
    with raw:
        raw.execute(tamper)
    raw.close()
    with GameStore(path) as store:
        with pytest.raises(GameDamaged) as refused:
            store.actions(1)
        message = str(refused.value)
        assert message.startswith(f"Game 1 in {path} is damaged: {trouble}, so storyhost will not replay it short.")
        assert "\n" not in message and "A copy is kept at" in message
        [listed] = store.games()
        assert listed.damage == (None if listed_as is None else message.replace(trouble, listed_as))
    [copy] = tmp_path.glob("games.sqlite3.damaged-" + "?" * 12)  # once, however often the damage is met
    kept = sqlite3.connect(copy)  # the file as it was found, its write-ahead log with it
    assert kept.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == (2 if tamper.startswith("DELETE") else 3)
    kept.close()


def test_a_file_from_before_moves_were_hashed_is_upgraded_and_kept(tmp_path):
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript("""
            CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, settings TEXT NOT NULL,
                created TEXT NOT NULL, updated TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, verb TEXT NOT NULL,
                player TEXT, args TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
            INSERT INTO games VALUES (1, 'dixit', '{"players": ["A", "B", "C"]}', 'x', 'x', 0);
            INSERT INTO actions VALUES (1, 0, 'storyteller', 'A', '[]', 'x'), (1, 1, 'clue', NULL, '["hm"]', 'x');
        """)
    with GameStore(path) as store:
        assert store.actions(1) == [Action("storyteller", "A"), Action("clue", None, ("hm",))]
        store.append(1, 2, Action("shown"))
    with GameStore(path) as store:
        assert [saved.moves for saved in store.games()] == [3]
        assert store.actions(1)[-1] == Action("shown")


def test_a_file_from_before_the_seats_gets_them_and_keeps_its_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        store.append(game_id, 0, Action("storyteller", "A"))
    with sqlite3.connect(path) as older:  # as storyhost wrote it before the companion (layout 1)
        older.execute("DROP TABLE seats")
        older.execute("PRAGMA user_version = 1")
    with GameStore(path) as store:
        tokens = iter(["t1", "t2", "t3"])
        assert store.seats(game_id, ["A", "B", "C"], lambda: next(tokens)) == {"A": ("t1", False, ""), "B": ("t2", False, ""), "C": ("t3", False, "")}
        store.claim_seat(game_id, "B", "phone-b")
        assert store.actions(game_id) == [Action("storyteller", "A")]
    with GameStore(path) as store:  # the seats are kept: the same links after a resume, and who took them
        assert store.seats(game_id, ["A", "B", "C"], lambda: "new") == {"A": ("t1", False, ""), "B": ("t2", True, "phone-b"), "C": ("t3", False, "")}
        store.renew_seat(game_id, "B", "t4")
        assert store.seats(game_id, ["B"], lambda: "new")["B"] == ("t4", False, "")


def test_seats_taken_before_phones_had_keys_stay_taken(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        store.seats(game_id, ["A", "B"], iter(["t1", "t2"]).__next__)
        store.claim_seat(game_id, "A", "")
    with sqlite3.connect(path) as older:  # layout 2: a seat was claimed, with no phone's key
        older.execute("CREATE TABLE seats2 (game_id INTEGER NOT NULL REFERENCES games(id), player TEXT NOT NULL,"
                      " token TEXT NOT NULL UNIQUE, claimed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, player))")
        older.execute("INSERT INTO seats2 SELECT game_id, player, token, claimed FROM seats")
        older.execute("DROP TABLE seats")
        older.execute("ALTER TABLE seats2 RENAME TO seats")
        older.execute("PRAGMA user_version = 2")
    with GameStore(path) as store:
        assert store.seats(game_id, ["A", "B"], lambda: "new") == {"A": ("t1", True, ""), "B": ("t2", False, "")}


def test_the_saved_games_are_their_users_alone(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    monkeypatch.setenv("STORYHOST_DATA_DIR", str(folder))
    (folder / "games.sqlite3-wal").write_bytes(b"")  # left world-readable by an older storyhost
    os.chmod(folder / "games.sqlite3-wal", 0o644)
    with GameStore.open() as store:
        store.create("dixit", {"players": ["A", "B", "C"]})
        modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in folder.iterdir() if path.is_file()}
    assert {"games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm"} <= set(modes)
    assert set(modes.values()) == {0o600}, modes
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    with GameStore(tmp_path / "new" / "games.sqlite3"):
        assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700


def test_an_unreadable_file_is_a_clear_error(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=str(path)):
        GameStore(path)


def test_every_action_is_committed_as_it_is_appended(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    game_id = store.create("dixit", {"players": ["A", "B", "C"]})
    store.append(game_id, 0, Action("storyteller", "A"))
    # another connection sees it at once, without the first being closed
    rows = sqlite3.connect(path).execute("SELECT verb, player FROM actions").fetchall()
    assert rows == [("storyteller", "A")]


def test_nothing_is_written_into_a_damaged_file_not_even_a_new_game(tmp_path):
    """The file was closed cleanly and the games table reads: the damage (a page of moves) is
    found by the check before the first change."""
    path = tmp_path / "games.sqlite3"
    _many_games(path)
    data = bytearray(path.read_bytes())
    data[-4096:] = random.Random(1).randbytes(4096)
    path.write_bytes(bytes(data))
    with GameStore(path) as store:
        for change in (lambda: store.create("dixit", {"players": ["A", "B", "C"]}), lambda: store.hold(1).__enter__()):
            with pytest.raises(StoreError, match=rf"^The saved games file {path} is damaged \(SQLite: .*\)"):
                change()
    assert path.read_bytes() == bytes(data)


def _many_games(path) -> dict[int, list[Action]]:
    """A file of several pages: eight games of sixty moves each."""
    saved: dict[int, list[Action]] = {}
    with GameStore(path) as store:
        for number in range(8):
            game_id = store.create("dixit", {"players": ["Ana", "Bo", "Cy"], "seed": number})
            saved[game_id] = [Action("clue", "Ana", (f"clue {number}-{move} " + "words " * (move % 9),)) for move in range(60)]
            for seq, action in enumerate(saved[game_id]):
                store.append(game_id, seq, action)
    return saved


def _outcome(path, saved: dict[int, list[Action]]) -> str:
    """'whole', 'refused' or 'some refused' (games), or an AssertionError: a game read other than saved."""
    try:
        with GameStore(path) as store:
            listed = list(store.games())
            assert [game.id for game in listed] == sorted(saved), "a game vanished from the list"
            refused = 0
            for game in listed:
                try:
                    with store.hold(game.id):  # as 'storyhost resume' reads a game
                        actions = store.actions(game.id)
                except StoreError as error:
                    assert "\n" not in str(error) and str(path) in str(error)
                    refused += 1
                    continue
                assert game.damage is None and game.moves == len(actions)
                assert actions == saved[game.id], f"game {game.id} read as {len(actions)} moves, not as saved"
    except StoreError as error:
        message = str(error)
        assert "\n" not in message and str(path) in message and "Traceback" not in message
        return "refused"
    return "some refused" if refused else "whole"


@pytest.mark.parametrize("unclean", [False, True], ids=["closed", "killed"])
def test_random_page_corruptions_load_whole_or_are_refused_never_short(tmp_path, unclean):
    """Real damage to a real file, 150 seeds: 1 to 3 random pages of a copy overwritten with
    random bytes, zeroed, or written back as they were ten moves a game earlier (a lost write:
    each page a valid one, so only the hashes and the note of the last save can tell). 'killed':
    the copy is taken while a writer has moves in the write-ahead log, as kill -9 leaves it.
    Each game reads exactly as saved or is refused in one line."""
    original = tmp_path / "games.sqlite3"
    saved = _many_games(original)
    earlier = original.read_bytes()
    writer = GameStore(original)
    with ExitStack() as held:
        for game_id, actions in saved.items():
            held.enter_context(writer.hold(game_id))
            for number in range(10 + (game_id == 1 and unclean)):  # the last one in the write-ahead log only
                actions.append(Action("clue", "Bo", (f"later {number}",)))
                writer.append(game_id, len(actions) - 1, actions[-1])
    if not unclean:
        writer.__exit__()
    page = 4096
    pages = len(earlier) // page
    outcomes: dict[str, int] = {}
    for seed in range(150):
        rng = random.Random(seed)
        copy = tmp_path / f"copy-{seed}" / "games.sqlite3"
        shutil.copytree(original.parent / "games.sqlite3.open", f"{copy}.open")
        shutil.copyfile(original, copy)
        if unclean:
            shutil.copyfile(f"{original}-wal", f"{copy}-wal")
        data = bytearray(copy.read_bytes())
        damage = rng.choice(["random", "zero", "stale"])
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(pages) * page
            data[at:at + page] = {"random": rng.randbytes(page), "zero": bytes(page), "stale": earlier[at:at + page]}[damage]
        copy.write_bytes(bytes(data))
        result = f"{damage}: {_outcome(copy, saved)}"
        outcomes[result] = outcomes.get(result, 0) + 1
    if unclean:
        writer.__exit__()
    print(sorted(outcomes.items()))
    assert sum(outcomes.values()) == 150 and any("refused" in outcome for outcome in outcomes)
