"""The steps of layout 4 (issue 26, item 12): each ``steps`` row links to its table's previous
row, with no ``(table_id, n)`` index, and the tables' newest rows (``step_heads``) are written
only every ``_HEADS_EVERY`` rows and when the store closes; a store opened after a crash reads
the rows after the stored heads again.  Layouts 2 and 3 upgraded: ``test_server_group_commit``."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest
from mahjong_core.server import store as store_module
from mahjong_core.server.store import Commit, Store, StoreError, TableRow


def _step(table_id: str, start: int, text: str) -> tuple[TableRow, Commit]:
    """One step of a one-seat table: log event ``start`` and stream event ``start + 1``."""
    row = TableRow(table_id, "coins", "playing", 1, [None], [0], None, log=[text], log_start=start,
                   changed=start == 0)
    return row, Commit(events=[(0, start + 1, text)])


def _text(table: int, k: int) -> str:
    return f'{{"t":{table},"k":{k},"pad":"{"x" * 150}"}}'


def _play(store: Store, tables: range, steps: range, group: int = 10) -> None:
    """Every table's steps, the tables written ``group`` at a time, the steps interleaved."""
    for k in steps:
        ids = list(tables)
        for i in range(0, len(ids), group):
            store.commit_group([_step(f"t{t}", k, _text(t, k)) for t in ids[i:i + group]])


def _frames(path: str) -> int:
    return os.path.getsize(path + "-wal") // (4096 + 24)


def test_a_group_write_of_ten_tables_writes_the_steps_last_pages_and_no_index(tmp_path):
    """With 40 tables of 100 steps each stored, a group write of ten tables' steps appends a few
    pages to the WAL (the steps' last page, and when it fills the next one and the pages above
    them), not a page per table: layout 3 wrote each table's entry into its place in a
    ``(table_id, n)`` index."""
    path = str(tmp_path / "frames.sqlite3")
    store = Store(path, checkpoint_s=3600.0, create=True)
    _play(store, range(40), range(100))
    assert store.db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'steps'"
                            ).fetchone()[0] == 0
    grew = []
    for k in range(100, 110):
        for i in range(0, 40, 10):
            before = _frames(path)
            store.commit_group([_step(f"t{t}", k, _text(t, k)) for t in range(i, i + 10)])
            grew.append(_frames(path) - before)
    # a page filled: the new last page, the one before, the B-tree's page above and page 1 (the
    # file's size); layout 3 wrote 5-13 frames a group here, 7.4 on average
    assert max(grew) <= 5 and sum(grew) / len(grew) <= 3, grew
    assert store.events("t7", 0) == [_text(7, k) for k in range(110)]
    store.close()


def test_the_heads_are_written_every_so_many_rows_in_a_commits_transaction(tmp_path, monkeypatch):
    """``step_heads`` is written in the transaction of the commit that reaches ``_HEADS_EVERY`` rows
    after the last write of it (the moved heads only), and when the store closes."""
    monkeypatch.setattr(store_module, "_HEADS_EVERY", 12)
    path = str(tmp_path / "heads.sqlite3")
    store = Store(path, checkpoint_s=3600.0, create=True)
    heads = lambda: dict(store.db.execute("SELECT table_id, last FROM step_heads").fetchall())
    _play(store, range(5), range(2), group=5)           # rows 1..10
    assert heads() == {}
    _play(store, range(5), range(2, 3), group=5)        # rows 11..15: the 12th row's commit writes them
    assert heads() == {f"t{t}": 11 + t for t in range(5)} and store._unsaved == {}
    _play(store, range(2), range(3, 4), group=2)        # rows 16, 17
    assert heads()["t0"] == 11 and store._unsaved == {"t0": 16, "t1": 17}
    store.close()
    con = sqlite3.connect(path)
    assert dict(con.execute("SELECT table_id, last FROM step_heads").fetchall()) == {
        "t0": 16, "t1": 17, "t2": 13, "t3": 14, "t4": 15}
    con.close()


def test_a_store_killed_between_two_writes_of_the_heads_reads_the_rows_after_them_again(tmp_path, monkeypatch):
    """The files of a store that never closed (a copy taken while it is open: what a kill
    leaves): a new store reads the rows after the stored heads again, gives every table's whole
    stream, and links its next rows to them."""
    monkeypatch.setattr(store_module, "_HEADS_EVERY", 50)
    path = str(tmp_path / "live.sqlite3")
    store = Store(path, checkpoint_s=3600.0, create=True)
    _play(store, range(6), range(12), group=4)          # 72 rows: the heads written at the 50th's commit
    assert store.db.execute("SELECT count(*) FROM step_heads").fetchone()[0] == 6 and store._unsaved
    copy = str(tmp_path / "killed.sqlite3")
    shutil.copyfile(path, copy)
    shutil.copyfile(path + "-wal", copy + "-wal")
    store.close()
    again = Store(copy, checkpoint_s=3600.0)
    assert again._unsaved == {f"t{t}": 67 + t for t in range(6)}
    for t in range(6):
        assert again.events(f"t{t}", 0) == [_text(t, k) for k in range(12)]
    _play(again, range(6), range(12, 13), group=6)
    again.close()
    con = sqlite3.connect(copy)
    assert con.execute("SELECT prev FROM steps WHERE rowid = 73").fetchone() == (67,)
    con.close()
    reopened = Store(copy, checkpoint_s=3600.0)
    assert reopened._unsaved == {} and reopened.events("t5", 0) == [_text(5, k) for k in range(13)]
    reopened.close()


@pytest.mark.parametrize("damage", ["missing", "other table", "unsaved link"])
def test_a_broken_link_is_refused_naming_its_table(tmp_path, damage):
    """A table's chain of steps that does not end at its first step (a row missing), passes
    through another table's row, or a row after the stored heads whose link is not its table's
    newest row: the store refuses the table, naming it."""
    path = str(tmp_path / "links.sqlite3")
    store = Store(path, checkpoint_s=3600.0, create=True)
    _play(store, range(3), range(5), group=3)           # t0's rows: 1, 4, 7, 10, 13
    store.close()
    con = sqlite3.connect(path)
    if damage == "missing":
        con.execute("DELETE FROM steps WHERE rowid = 7")
    elif damage == "other table":
        con.execute("UPDATE steps SET prev = 8 WHERE rowid = 10")   # t2's row
    else:
        con.execute("INSERT INTO steps (rowid, table_id, prev, body) VALUES (16, 't0', 10, 'l5 {}')")
    con.commit()
    con.close()
    if damage == "unsaved link":
        with pytest.raises(StoreError, match="table 't0' is damaged: its step 16 links to 10, not to its step "
                                             "before it \\(13\\)"):
            Store(path, checkpoint_s=3600.0)
        return
    again = Store(path, checkpoint_s=3600.0)
    with pytest.raises(StoreError, match="table 't0' is damaged: its steps' "):
        again.events("t0", 0)
    assert again.events("t1", 0) == [_text(1, k) for k in range(5)]
    again.close()
