"""The saved-games file: a real SQLite database in a temporary folder."""
from __future__ import annotations

import sqlite3

import pytest

from games.base import Action
from host.store import GameStore, StoreError


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
        store.drop_last(game_id)
        assert store.actions(game_id) == [Action("side", "A", ("normal",))]
        store.mark_finished(game_id)
        assert store.latest_unfinished() is None
        other = store.create("dixit", {"players": ["A", "B", "C"]})
        latest = store.latest_unfinished()
        assert latest is not None and latest.id == other


def test_a_sequence_number_cannot_be_written_twice(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create("dixit", {"players": ["A", "B", "C"]})
        store.append(game_id, 0, Action("storyteller", "A"))
        with pytest.raises(StoreError, match="Cannot save"):
            store.append(game_id, 0, Action("storyteller", "B"))
        assert store.actions(game_id) == [Action("storyteller", "A")]


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
