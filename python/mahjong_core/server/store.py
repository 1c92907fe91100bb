"""SQLite persistence of the server (stdlib ``sqlite3``): accounts, transfers, tables, event streams.

What is stored, and when (each in one transaction):

* after every step of a round: the table's row (the current round's state without its log,
  seats, disconnect counters), the round's new log events (``round_log``: the log only grows,
  so a step appends its events instead of rewriting the whole log) and the new events of every
  seat's stream; the rest of the match's state (its arguments, finished rounds' actions and
  results) when a round ends, and then the new round's log replaces the old one.  Together they
  are the match's ``Match.to_json()`` (:meth:`TableRow.match_json`), split so that a step writes
  only what it changed;
* when a hand is settled: that step's writes plus the new balances and 积分 of its players, its
  transfers and the hand's record, all in the same transaction;
* a new account: its row and its opening deposit.

On a restart the tables are read back with the validated ``Match.from_json`` (the match is
replayed, never trusted) and the balances with the ledger's checked constructor, so the ledger's
total is the one the last committed transaction left.  WAL mode with ``synchronous=NORMAL``: a
commit survives a crash of the process (not necessarily a power cut of the machine).

The WAL's checkpoints (copying committed pages into the database file, with the only fsyncs of
``synchronous=NORMAL``) run on a thread of their own every second, with a connection of its own,
instead of inside every thousandth commit on the event loop, where they stalled every table for
the time of two fsyncs.  What a commit guarantees is unchanged: it is in the WAL when it returns.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any

from ..settlement import Transfer
from .encoding import dumps

__all__ = ["Commit", "Store", "TableRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0), points INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS transfers (
    id INTEGER PRIMARY KEY, table_id TEXT, round INTEGER, payer TEXT NOT NULL, payee TEXT NOT NULL,
    amount INTEGER NOT NULL, reason TEXT NOT NULL, requested INTEGER);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, room TEXT NOT NULL, status TEXT NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, disconnects TEXT NOT NULL, match TEXT, round TEXT, end_reason TEXT);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, id INTEGER NOT NULL, event TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS round_log (
    table_id TEXT NOT NULL, i INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (table_id, i)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL, round INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, round));
"""

_LAYOUT = 1
"""``PRAGMA user_version`` of the current layout (0: the first, each round's log in its table row)."""


@dataclass
class TableRow:
    """A table as stored: ``seats`` is a list of ``{"name", "token_hash", "bot"}`` (or None for
    an empty seat), ``escape`` the per-hand disconnect counters, ``head`` the match's JSON without
    its current round (None in a commit: unchanged), ``round`` the current round's JSON without
    its log, ``log`` the JSON of the round's log events from index ``log_start`` on (read back:
    the whole log; in a commit: the events not yet stored, ``log_start`` 0 for a new round)."""

    id: str
    room: str
    status: str
    seed: int
    seats: list[Any]
    escape: list[int]
    head: str | None
    round: str | None
    end_reason: str | None = None
    log: list[str] = field(default_factory=list)
    log_start: int = 0

    def round_json(self) -> str | None:
        """The current round's ``to_json()``: its state with the log as the last key (a read row)."""
        if self.round is None:
            return None
        return f'{self.round[:-1]},"log":[{",".join(self.log)}]}}'

    def match_json(self) -> str | None:
        """The match's ``to_json()``: its head with the current round as the last key (a read row)."""
        rnd = self.round_json()
        if self.head is None or rnd is None:
            return None
        return f'{self.head[:-1]},"round":{rnd}}}'


@dataclass
class Commit:
    """What one transaction writes besides the table row."""

    events: list[tuple[int, int, str]] = field(default_factory=list)
    """New stream events as ``(seat, id, event's JSON)``."""
    accounts: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Accounts whose balance or 积分 changed: ``name -> (balance, points)``."""
    transfers: list[Transfer] = field(default_factory=list)
    hand: tuple[int, dict[str, Any]] | None = None
    """A settled hand: ``(round, record)``."""



class Store:
    """One SQLite connection, used by the thread that runs the server's event loop (and, for a
    database file, the checkpoint thread: ``checkpoint_s`` seconds between two checkpoints;
    None: SQLite's own, inside a commit)."""

    def __init__(self, path: str, checkpoint_s: float | None = 1.0) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        if self.db.execute("PRAGMA user_version").fetchone()[0] < _LAYOUT:
            self._upgrade()
        self.checkpointer: _Checkpointer | None = None
        if checkpoint_s is not None and path != ":memory:":
            self.db.execute("PRAGMA wal_autocheckpoint=0")   # this connection's commits never checkpoint
            self.checkpointer = _Checkpointer(path, checkpoint_s)

    def _upgrade(self) -> None:
        """A database of the first layout kept each round's log inside its table row: move the
        logs into ``round_log`` (same JSON text, key order kept), in one transaction."""
        with self._transaction():
            for table_id, rnd in self.db.execute("SELECT id, round FROM tables WHERE round IS NOT NULL").fetchall():
                state = json.loads(rnd)
                if "log" not in state:
                    continue
                log = state.pop("log")
                self.db.execute("UPDATE tables SET round = ? WHERE id = ?", (dumps(state), table_id))
                self.db.execute("DELETE FROM round_log WHERE table_id = ?", (table_id,))
                self.db.executemany("INSERT INTO round_log (table_id, i, event) VALUES (?, ?, ?)",
                                    [(table_id, i, dumps(ev)) for i, ev in enumerate(log)])
            self.db.execute(f"PRAGMA user_version = {_LAYOUT}")

    def close(self) -> None:
        """Stop the checkpoint thread, then close (SQLite checkpoints the WAL at the last close)."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.db.close()

    # ------------------------------------------------------------------ reads
    def accounts(self) -> dict[str, tuple[int, int]]:
        return {name: (balance, points) for name, balance, points in
                self.db.execute("SELECT name, balance, points FROM accounts")}

    def open_tables(self) -> list[TableRow]:
        """The tables that are not over, in the order they were created."""
        rows = self.db.execute("SELECT id, room, status, seed, seats, disconnects, match, round, end_reason "
                               "FROM tables WHERE status != 'over' ORDER BY rowid").fetchall()
        return [TableRow(i, room, status, seed, json.loads(seats), json.loads(esc), head, rnd, end,
                         self._round_log(i))
                for i, room, status, seed, seats, esc, head, rnd, end in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table as stored (over or not), None if there is no such table."""
        r = self.db.execute("SELECT id, room, status, seed, seats, disconnects, match, round, end_reason "
                            "FROM tables WHERE id = ?", (table_id,)).fetchone()
        if r is None:
            return None
        i, room, status, seed, seats, esc, head, rnd, end = r
        return TableRow(i, room, status, seed, json.loads(seats), json.loads(esc), head, rnd, end,
                        self._round_log(i))

    def _round_log(self, table_id: str) -> list[str]:
        rows = self.db.execute("SELECT i, event FROM round_log WHERE table_id = ? ORDER BY i", (table_id,)).fetchall()
        for k, (i, _) in enumerate(rows):
            if i != k:
                raise RuntimeError(f"table {table_id}: stored round log indices are not 0..n-1 (index {i} at {k})")
        return [ev for _, ev in rows]

    def events(self, table_id: str, seat: int) -> list[str]:
        """A seat's stream: each event's JSON as it was stored (and sent)."""
        rows = self.db.execute("SELECT id, event FROM events WHERE table_id = ? AND seat = ? ORDER BY id",
                               (table_id, seat)).fetchall()
        for k, (i, _) in enumerate(rows):
            if i != k + 1:
                raise RuntimeError(f"table {table_id} seat {seat}: stored event ids are not 1..n (id {i} at {k})")
        return [ev for _, ev in rows]

    def table_count(self) -> int:
        n: int = self.db.execute("SELECT count(*) FROM tables").fetchone()[0]
        return n

    # ------------------------------------------------------------------ writes
    def open_account(self, name: str, balance: int, deposit: Transfer) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO accounts (name, balance, points) VALUES (?, ?, 0)", (name, balance))
            self._insert_transfers(None, [deposit])

    def ensure_system(self, name: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO accounts (name, balance, points) VALUES (?, 0, 0)", (name,))

    def commit(self, row: TableRow, change: Commit) -> None:
        """Write the table row and ``change`` in one transaction (all or nothing)."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables (id, room, status, seed, seats, disconnects, match, round, end_reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, "
                "seats = excluded.seats, disconnects = excluded.disconnects, "
                "match = coalesce(excluded.match, tables.match), round = excluded.round, "
                "end_reason = excluded.end_reason",
                (row.id, row.room, row.status, row.seed, dumps(row.seats), dumps(row.escape), row.head, row.round,
                 row.end_reason))
            if row.round is not None and row.log_start == 0:   # a new round: its log replaces the last one's
                self.db.execute("DELETE FROM round_log WHERE table_id = ?", (row.id,))
            if row.log:
                self.db.executemany("INSERT INTO round_log (table_id, i, event) VALUES (?, ?, ?)",
                                    [(row.id, row.log_start + j, ev) for j, ev in enumerate(row.log)])
            if change.events:
                self.db.executemany("INSERT INTO events (table_id, seat, id, event) VALUES (?, ?, ?, ?)",
                                    [(row.id, seat, i, ev) for seat, i, ev in change.events])
            if change.accounts:
                self.db.executemany("UPDATE accounts SET balance = ?, points = ? WHERE name = ?",
                                    [(b, p, name) for name, (b, p) in change.accounts.items()])
            self._insert_transfers(row.id, change.transfers)
            if change.hand is not None:
                k, record = change.hand
                self.db.execute("INSERT INTO hands (table_id, round, record) VALUES (?, ?, ?)",
                                (row.id, k, dumps(record)))

    def _insert_transfers(self, table_id: str | None, transfers: list[Transfer]) -> None:
        if transfers:
            self.db.executemany(
                "INSERT INTO transfers (table_id, round, payer, payee, amount, reason, requested) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, t.round, t.payer, t.payee, t.amount, t.reason, t.requested) for t in transfers])

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


class _Checkpointer:
    """A thread that checkpoints the WAL every ``every`` seconds (PASSIVE: it never waits for nor
    blocks a writer) until :meth:`stop`; sqlite3 releases the GIL while SQLite works."""

    def __init__(self, path: str, every: float) -> None:
        self.path = path
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mahjong-store-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(self.every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:   # busy or failing disk: the next one tries again; commits go on
                    logging.getLogger("mahjong_core.server").exception("WAL checkpoint failed")
        finally:
            db.close()

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
