"""The table and its store without the network: a failed write loses nothing (what was pending is
written by the next commit) and a table reloaded from the database equals the live one."""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

import pytest
from mahjong_core.server import ServerSettings
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.store import Store, StoreError
from mahjong_core.server.table import STORE_FAILED

from .harness import choose


class Outbox:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    def close(self, code: int, reason: str) -> None:
        pass


def _two_players(db: str, **kw: Any) -> tuple[Lobby, Any, list[Outbox]]:
    """A coins table of two players, both connected to outboxes."""
    lobby = Lobby(ServerSettings(db=db, bots=False, init=True, claim_pause_s=0.0, **kw))
    a = lobby.join("ann", "coins")
    lobby.join("bo", "coins")
    table = lobby.tables[a["table"]]
    outs = [Outbox(), Outbox()]
    for k in (0, 1):
        table.attach(k, outs[k], 0)
    return lobby, table, outs


def _play(table: Any, outs: list[Outbox], steps: int) -> None:
    for _ in range(steps):
        for k, out in enumerate(outs):
            view = out.frames[-1]["state"]["view"]
            if view and view["legal_indices"] and table.status == "playing":
                assert table.act(k, choose(view)) is None
                break


def test_a_failed_write_puts_the_table_back_and_sends_nothing(tmp_path, monkeypatch):
    """A commit that fails (here: the settlement of a hand, balances included) leaves the table,
    the streams and the ledger as last stored; no frame is sent about it; the acting seat gets
    the refusal and plays again; a reload equals the live table."""
    db = str(tmp_path / "store.sqlite3")
    lobby, table, outs = _two_players(db, rounds=2, seed=8)
    real = Store.commit
    failed = []

    def failing(self: Store, row: Any, change: Any) -> None:
        if change.hand is not None and not failed:     # the first settled hand's transaction
            failed.append(row.id)
            raise StoreError(f"database {db}: storing table {row.id} failed: database or disk is full")
        real(self, row, change)

    monkeypatch.setattr(Store, "commit", failing)
    refused = None
    for _ in range(400):
        k = next(k for k in (0, 1) if outs[k].frames[-1]["state"]["view"]["legal_indices"])
        index = choose(outs[k].frames[-1]["state"]["view"])
        before = (table.match.to_json(), [list(s.stream) for s in table.seats],   # type: ignore[union-attr]
                  lobby.ledger.balances, dict(lobby.points), [len(o.frames) for o in outs])
        reply = table.act(k, index)
        if reply is not None:
            refused = reply
            break
    assert failed and refused == STORE_FAILED
    after = (table.match.to_json(), [list(s.stream) for s in table.seats],      # type: ignore[union-attr]
             lobby.ledger.balances, dict(lobby.points), [len(o.frames) for o in outs])
    assert after == before                         # as stored, and nothing sent
    assert table.act(k, index) is None             # tried again: played, settled and stored
    assert any(ev["event"]["type"] == "settlement" for ev in outs[k].frames[-1]["events"])
    lobby.close()
    again = Lobby(ServerSettings(db=db, bots=False, rounds=2, seed=8))
    t2 = again.tables[table.id]
    assert t2.match is not None and t2.match.to_json() == table.match.to_json()   # type: ignore[union-attr]
    assert [s.stream for s in t2.seats] == [s.stream for s in table.seats]     # type: ignore[union-attr]
    assert again.ledger.balances == lobby.ledger.balances and again.ledger.total == 2 * 10_000
    again.close()


def test_a_waiting_table_and_its_seat_survive_a_restart(tmp_path):
    db = str(tmp_path / "wait.sqlite3")
    lobby = Lobby(ServerSettings(db=db, bots=False, init=True))
    a = lobby.join("solo", "bamboo")
    lobby.close()
    again = Lobby(ServerSettings(db=db, bots=False))
    t = again.tables[a["table"]]
    assert t.status == "waiting" and t.seats[a["seat"]] is not None and t.seats[a["seat"]].accepts(a["token"])
    assert not t.seats[a["seat"]].accepts(a["token"] + "x")
    b = again.join("pair", "bamboo")
    assert b["table"] == a["table"] and t.status == "playing"
    again.close()


def test_the_stored_match_is_the_matchs_own_json_at_every_step(tmp_path):
    """A step appends the round's new log events (the row itself only when it changed); read
    back, the head and the log replayed are the match's to_json(), through the rounds' changes
    (a new round's head is stored and its log replaces the last one's)."""
    lobby, table, outs = _two_players(str(tmp_path / "json.sqlite3"), rounds=3, seed=9)
    steps = rounds_seen = 0
    rows_written = []
    while table.status == "playing":
        assert table.match is not None
        row = lobby.store.table(table.id)
        assert row is not None and row.match_json() == table.match.to_json()
        rounds_seen = max(rounds_seen, table.match.round_index + 1)
        before = lobby.store.db.total_changes
        _play(table, outs, 1)
        rows_written.append(lobby.store.db.total_changes - before)
        steps += 1
    assert rounds_seen == 3 and steps > 30
    # a step within a round writes one row (its steps row); a round's end writes the settlement too
    assert min(rows_written) == 1 and rows_written.count(1) >= steps - 6, rows_written
    row = lobby.store.table(table.id)
    assert row is not None and row.match_json() == table.match.to_json()
    lobby.close()


def test_the_away_clock_starts_with_the_match_not_while_a_table_waits(tmp_path):
    now = [0.0]
    lobby = Lobby(ServerSettings(db=str(tmp_path / "clock.sqlite3"), bots=False, away_limit_s=1.0, init=True),
                  clock=lambda: now[0])
    a = lobby.join("early", "bamboo")
    now[0] = 50.0                         # a long wait for an opponent: not away from a match
    lobby.join("late", "bamboo")
    table = lobby.tables[a["table"]]
    now[0] = 50.9
    lobby.tick()
    assert table.status == "playing"
    now[0] = 51.1                         # neither has connected since the match started
    lobby.tick()
    assert table.status == "over" and table.end_reason == "seat 0 escaped (away)"
    lobby.close()


@pytest.mark.parametrize("layout", [0, 1])
def test_a_database_of_an_older_layout_is_upgraded_and_resumes(tmp_path, layout):
    """Layout 0 kept each round's whole log in its table row, layout 1 the match's head and the
    round's state (without the log) in the row, rewritten at every step: opening such a
    database moves the streams and the logs into steps and the heads into match_heads, drops the
    state (the log replayed), and the table resumes exactly."""
    db = str(tmp_path / "old.sqlite3")
    lobby, table, outs = _two_players(db, rounds=3, seed=5)
    while table.match is not None and table.match.round_index < 1:    # into the second round
        _play(table, outs, 1)
    _play(table, outs, 5)
    assert table.match is not None
    before = table.match.to_json()
    streams = [list(s.stream) for s in table.seats]   # type: ignore[union-attr]
    lobby.close()
    d = json.loads(before)
    rnd = d.pop("round")
    log = rnd.pop("log") if layout == 1 else rnd["log"]
    dump = lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    con = sqlite3.connect(db)   # rewrite the table as that layout stored it
    con.execute("UPDATE tables SET match = ?, round = ? WHERE id = ?", (dump(d), dump(rnd), table.id))
    con.execute("DROP TABLE match_heads")
    con.execute("DROP TABLE steps")
    con.execute("DROP TABLE step_heads")
    con.executemany("INSERT INTO events (table_id, seat, id, event) VALUES (?, ?, ?, ?)",
                    [(table.id, k, i + 1, ev) for k, stream in enumerate(streams) for i, ev in enumerate(stream)])
    if layout == 1:
        con.executemany("INSERT INTO round_log (table_id, i, event) VALUES (?, ?, ?)",
                        [(table.id, i, dump(ev)) for i, ev in enumerate(log)])
    con.execute(f"PRAGMA user_version = {layout}")
    con.commit()
    con.close()
    again = Lobby(ServerSettings(db=db, bots=False, rounds=3, seed=5, claim_pause_s=0.0))
    t2 = again.tables[table.id]
    assert d["results"] and t2.match is not None and t2.match.to_json() == before
    assert [s.stream for s in t2.seats] == streams                      # type: ignore[union-attr]
    store = again.store.db
    assert store.execute("PRAGMA user_version").fetchone()[0] == 4
    assert store.execute("SELECT count(*) FROM round_log").fetchone()[0] == 0
    assert store.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    assert store.execute("SELECT count(*) FROM tables WHERE match IS NOT NULL OR round IS NOT NULL").fetchone()[0] == 0
    head = {k: v for k, v in d.items() if k not in ("results", "actions")}
    assert store.execute("SELECT head FROM match_heads").fetchall() == [(dump(head),)]
    assert store.execute("SELECT result, actions FROM match_rounds ORDER BY k").fetchall() == [
        (dump(r), dump(a)) for r, a in zip(d["results"], d["actions"])]
    # and it plays on: a step is one row of steps
    n = store.execute("SELECT count(*) FROM steps").fetchone()[0]
    for k in (0, 1):
        t2.attach(k, outs[k], 0)
    _play(t2, outs, 1)
    assert store.execute("SELECT count(*) FROM steps").fetchone()[0] == n + 1
    again.close()


def test_the_wal_is_checkpointed_by_its_own_thread_and_the_thread_ends_with_the_store(tmp_path):
    """Commits do not checkpoint (wal_autocheckpoint=0 on the event loop's connection); the
    checkpoint thread copies them into the database file, and it ends when the store closes."""
    import shutil
    import threading
    import time

    db = tmp_path / "ckpt.sqlite3"
    before = threading.active_count()
    store = Store(str(db), checkpoint_s=0.02, create=True)
    assert store.checkpointer is not None and store.checkpointer.is_alive()
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    store.ensure_system("system")
    for _ in range(100):                       # the main file alone (no WAL) holds the row once checkpointed
        time.sleep(0.02)
        shutil.copyfile(db, tmp_path / "copy.sqlite3")
        con = sqlite3.connect(tmp_path / "copy.sqlite3")
        try:
            found = con.execute("SELECT count(*) FROM accounts").fetchone()[0] == 1
        except sqlite3.DatabaseError:          # the schema itself not copied yet
            found = False
        finally:
            con.close()
        if found:
            break
    assert found
    checkpointer = store.checkpointer
    store.close()
    assert not checkpointer.is_alive() and threading.active_count() == before
    memory = Store(":memory:")
    assert memory.checkpointer is None
    memory.close()


def test_the_ledger_in_memory_does_not_keep_every_transfer(tmp_path, monkeypatch):
    """The transfers are in the database; the ledger in memory starts again from its balances
    once it holds more than LEDGER_HISTORY of them (it grew for as long as the server ran)."""
    from mahjong_core.server import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "LEDGER_HISTORY", 0)
    lobby, table, outs = _two_players(str(tmp_path / "ledger.sqlite3"), rounds=6, seed=4)
    while table.status == "playing":
        _play(table, outs, 1)
    assert len(lobby.ledger.transfers) > 2    # the two deposits and a hand's
    balances = lobby.ledger.balances
    lobby.tick()
    assert lobby.ledger.transfers == [] and lobby.ledger.balances == balances
    assert {n: b for n, (b, _) in lobby.store.accounts().items()} == balances
    lobby.close()


@pytest.mark.parametrize("damage", [("s0 2 ", "s0 3 "), ("=", "=99"), ("\nl1 ", "\nx1 ")])
def test_a_damaged_step_is_refused_naming_its_table(tmp_path, damage):
    """A steps row whose lines do not read back (a gap in a stream's ids, a stream line naming a
    log event its row lacks, an unknown line): the server refuses to start, naming the table."""
    db = str(tmp_path / "damaged.sqlite3")
    lobby, table, outs = _two_players(db, rounds=2, seed=5)
    _play(table, outs, 10)
    lobby.close()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT rowid, body FROM steps WHERE table_id = ? ORDER BY rowid", (table.id,)).fetchall()
    n, body = next((n, b) for n, b in rows if damage[0] in b)
    con.execute("UPDATE steps SET body = ? WHERE rowid = ?", (body.replace(*damage, 1), n))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=f"table '{table.id}' is damaged"):
        Lobby(ServerSettings(db=db, bots=False, rounds=2, seed=5))


def test_an_update_frame_carries_the_seats_state(tmp_path):
    """The update frame's state (its players and view encoded apart, the players once per
    flush) is Table.state's, key for key and in its order."""
    lobby, table, outs = _two_players(str(tmp_path / "frame.sqlite3"), rounds=1, seed=2)
    for _ in range(20):
        _play(table, outs, 1)
        for k in (0, 1):
            sent = outs[k].frames[-1]["state"]
            mine = json.loads(json.dumps(table.state(k)))
            assert list(sent) == list(mine)
            sent.pop("deadline_s"), mine.pop("deadline_s")
            assert sent == mine
    lobby.close()


def test_no_write_grows_with_the_length_of_the_match(tmp_path):
    """A round's end stores that round (its result and actions), not the whole match again: the
    stored head keeps its size, one row per finished round is added, and the WAL bytes of a
    round's end do not grow with the round's index (they grew by about 700 bytes a round, the
    head's growth, when the head held every finished round)."""
    db = str(tmp_path / "long.sqlite3")
    lobby, table, outs = _two_players(db, rounds=40, seed=3, checkpoint_s=3600.0, wal_limit_bytes=1 << 40)
    wal = db + "-wal"
    ends: list[int] = []
    heads = set()
    while table.status == "playing":
        assert table.match is not None
        k, size = table.match.round_index, os.path.getsize(wal)
        _play(table, outs, 1)
        if table.match.round_index != k:
            ends.append(os.path.getsize(wal) - size)
            heads.add(lobby.store.db.execute("SELECT length(head) FROM match_heads").fetchone()[0])
            assert lobby.store.db.execute("SELECT count(*) FROM match_rounds").fetchone()[0] == k + 1
    assert len(ends) >= 39 and len(heads) == 1
    n = len(ends)
    mean_x, mean_y = (n - 1) / 2, sum(ends) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(ends)) / sum((x - mean_x) ** 2 for x in range(n))
    assert slope < 300, (slope, ends)         # bytes per round
    lobby.close()


def test_a_tables_two_steps_in_one_group_are_linked_in_turn_and_a_failed_group_takes_no_rowid(
        tmp_path, monkeypatch):
    """The links of the transaction being written are counted apart from the committed ones: a
    table with two steps in one group write gets two rows, the second linked to the first, each
    with its own lines (the second's stream event naming its own row's log event), and its head
    is the second (written to ``step_heads`` when the store closes); a group that fails leaves the next rowids and the heads where they were, and
    the error names the group's tables."""
    from mahjong_core.server.store import Commit, TableRow

    store = Store(str(tmp_path / "steps.sqlite3"), create=True)

    def step(table_id: str, start: int, text: str, event_id: int) -> tuple[TableRow, Commit]:
        row = TableRow(table_id, "coins", "playing", 1, [None, None], [0, 0], None, log=[text], log_start=start)
        return row, Commit(events=[(0, event_id, text)])

    store.commit_group([step("t1", 0, '{"a":0}', 1), step("t2", 0, '{"b":0}', 1), step("t1", 1, '{"a":1}', 2)])
    real = Store._write

    def failing(self: Store, row: Any, change: Any) -> None:
        real(self, row, change)
        if row.id == "t2":
            raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "_write", failing)
    with pytest.raises(StoreError, match="storing tables t1, t2 failed: database or disk is full"):
        store.commit_group([step("t1", 2, '{"x":2}', 3), step("t2", 1, '{"y":1}', 2)])
    monkeypatch.setattr(Store, "_write", real)
    store.commit_group([step("t1", 2, '{"a":2}', 3), step("t2", 1, '{"b":1}', 2)])
    rows = store.db.execute("SELECT rowid, table_id, prev, body FROM steps ORDER BY rowid").fetchall()
    assert rows == [(1, "t1", None, 'l0 {"a":0}\ns0 1 =0'), (2, "t2", None, 'l0 {"b":0}\ns0 1 =0'),
                    (3, "t1", 1, 'l1 {"a":1}\ns0 2 =1'), (4, "t1", 3, 'l2 {"a":2}\ns0 3 =2'),
                    (5, "t2", 2, 'l1 {"b":1}\ns0 2 =1')]
    assert store._heads == {"t1": 4, "t2": 5} and store._unsaved == {"t1": 4, "t2": 5}
    assert store.db.execute("SELECT count(*) FROM step_heads").fetchone()[0] == 0    # written when it closes
    assert store.events("t1", 0) == ['{"a":0}', '{"a":1}', '{"a":2}']
    store.close()
    con = sqlite3.connect(str(tmp_path / "steps.sqlite3"))
    assert con.execute("SELECT table_id, last FROM step_heads ORDER BY table_id").fetchall() == [("t1", 4), ("t2", 5)]
    con.close()


def test_a_group_larger_than_one_insert_and_numbers_past_the_digit_table_are_stored_as_written(tmp_path):
    """A group write's ``steps`` rows go in with one ``INSERT`` per ``_ROWS_AT_ONCE`` rows (a
    group of 130 tables: three), each row as its own write would have made it; stream ids and log
    indexes past the table of digits the store formats from are written (and read back) too."""
    from mahjong_core.server import store as store_module
    from mahjong_core.server.store import Commit, TableRow

    store = Store(str(tmp_path / "rows.sqlite3"), create=True)
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    big = store_module._DIGITS_KEPT + 5
    group = []
    for n in range(130):
        start = big if n == 7 else 0   # a round's log already longer than the table of digits
        row = TableRow(f"t{n}", "coins", "playing", 1, [None, None], [0, 0], None,
                       log=[f'{{"n":{n}}}'], log_start=start)
        group.append((row, Commit(events=[(0, big if n == 7 else 1, f'{{"n":{n}}}'), (1, 1, '{"x":1}')])))
    store.commit_group(group)
    assert sum(s.startswith("INSERT INTO steps") for s in statements) == 3
    bodies = dict(store.db.execute("SELECT table_id, body FROM steps").fetchall())
    assert len(bodies) == 130
    assert bodies["t0"] == 'l0 {"n":0}\ns0 1 =0\ns1 1 {"x":1}'
    assert bodies["t7"] == f'l{big} {{"n":7}}\ns0 {big} ={big}\ns1 1 {{"x":1}}'
    assert store.events("t129", 0) == ['{"n":129}'] and store.events("t129", 1) == ['{"x":1}']
    store.close()
