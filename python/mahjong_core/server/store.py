"""SQLite persistence of the server (stdlib ``sqlite3``): accounts, transfers, tables, event streams.

What is stored, and when (each in one transaction):

* after every step of a round: the table's row (the current round's state, seats, disconnect
  counters) and the new events of every seat's stream; the rest of the match's state (its
  arguments, finished rounds' actions and results) when a round ends.  Together they are the
  match's ``Match.to_json()`` (:meth:`TableRow.match_json`), split so that a step does not
  rewrite the finished rounds;
* when a hand is settled: that step's writes plus the new balances and 积分 of its players, its
  transfers and the hand's record, all in the same transaction;
* a new account: its row and its opening deposit.

On a restart the tables are read back with the validated ``Match.from_json`` (the match is
replayed, never trusted) and the balances with the ledger's checked constructor, so the ledger's
total is the one the last committed transaction left.  WAL mode with ``synchronous=NORMAL``: a
commit survives a crash of the process (not necessarily a power cut of the machine).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from ..settlement import Transfer

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
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL, round INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, round));
"""


@dataclass
class TableRow:
    """A table as stored: ``seats`` is a list of ``{"name", "token_hash", "bot"}`` (or None for
    an empty seat), ``escape`` the per-hand disconnect counters, ``head`` the match's JSON without
    its current round (None in a commit: unchanged), ``round`` the current round's JSON."""

    id: str
    room: str
    status: str
    seed: int
    seats: list[Any]
    escape: list[int]
    head: str | None
    round: str | None
    end_reason: str | None = None

    def match_json(self) -> str | None:
        """The match's ``to_json()``: its head with the current round as the last key."""
        if self.head is None or self.round is None:
            return None
        return f'{self.head[:-1]},"round":{self.round}}}'


@dataclass
class Commit:
    """What one transaction writes besides the table row."""

    events: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    """New stream events as ``(seat, id, event)``."""
    accounts: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Accounts whose balance or 积分 changed: ``name -> (balance, points)``."""
    transfers: list[Transfer] = field(default_factory=list)
    hand: tuple[int, dict[str, Any]] | None = None
    """A settled hand: ``(round, record)``."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    """One SQLite connection, used by the thread that runs the server's event loop."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ reads
    def accounts(self) -> dict[str, tuple[int, int]]:
        return {name: (balance, points) for name, balance, points in
                self.db.execute("SELECT name, balance, points FROM accounts")}

    def open_tables(self) -> list[TableRow]:
        """The tables that are not over, in the order they were created."""
        rows = self.db.execute("SELECT id, room, status, seed, seats, disconnects, match, round, end_reason "
                               "FROM tables WHERE status != 'over' ORDER BY rowid").fetchall()
        return [TableRow(i, room, status, seed, json.loads(seats), json.loads(esc), head, rnd, end)
                for i, room, status, seed, seats, esc, head, rnd, end in rows]

    def events(self, table_id: str, seat: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT id, event FROM events WHERE table_id = ? AND seat = ? ORDER BY id",
                               (table_id, seat)).fetchall()
        for k, (i, _) in enumerate(rows):
            if i != k + 1:
                raise RuntimeError(f"table {table_id} seat {seat}: stored event ids are not 1..n (id {i} at {k})")
        return [json.loads(ev) for _, ev in rows]

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
                (row.id, row.room, row.status, row.seed, _dumps(row.seats), _dumps(row.escape), row.head, row.round,
                 row.end_reason))
            if change.events:
                self.db.executemany("INSERT INTO events (table_id, seat, id, event) VALUES (?, ?, ?, ?)",
                                    [(row.id, seat, i, _dumps(ev)) for seat, i, ev in change.events])
            if change.accounts:
                self.db.executemany("UPDATE accounts SET balance = ?, points = ? WHERE name = ?",
                                    [(b, p, name) for name, (b, p) in change.accounts.items()])
            self._insert_transfers(row.id, change.transfers)
            if change.hand is not None:
                k, record = change.hand
                self.db.execute("INSERT INTO hands (table_id, round, record) VALUES (?, ?, ?)",
                                (row.id, k, _dumps(record)))

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
