"""SQLite persistence of the server (stdlib ``sqlite3``): accounts, transfers, tables, event streams.

What is stored, and when (each in one transaction):

* after every step of a round: one row of ``steps`` holding what the step added, the round's
  new log events and the new events of every seat's stream, one line each (``l<i> <json>``,
  ``s<seat> <id> <json>``: a JSON text never holds a raw line break; a stream event that is the
  text of a log event of the same row is ``s<seat> <id> =<i>``, stored once), so that a step
  writes one page or two whatever the number of seats; the table's row (status, seats, disconnect
  counters) only when it changed; the match's arguments (``match_heads``) when it starts, and
  each finished round's result and actions (``match_rounds``) when it ends (the next round's
  log starts again at ``l0``), so that no write grows with the length of the match.  The match
  is its head, its finished rounds and its current round replayed from the log
  (:meth:`TableRow.match`); a seat's stream is its lines in order (:meth:`Store.events`);
* when a hand is settled: that step's writes plus the new balances and 积分 of its players, its
  transfers and the hand's record, all in the same transaction;
* a new account: its row and its opening deposit;
* while the server's event loop runs, the commits of every table that acted during one turn of
  the loop are one transaction (:meth:`Store.commit_group`, at the loop's next turn): a
  ``BEGIN`` ... ``COMMIT`` and its WAL write shared by all of them instead of one per action;
  all of them are stored or none.

On a restart the tables are read back with the validated ``Round.replay`` and
``Match.from_dict`` (the match is replayed, never trusted) and the balances with the ledger's checked constructor, so the ledger's
total is the one the last committed transaction left.  WAL mode with ``synchronous=NORMAL``: a
commit survives a crash of the process (not necessarily a power cut of the machine).

The WAL's checkpoints (copying committed pages into the database file, with the only fsyncs of
``synchronous=NORMAL``) run on a thread of their own every second, with a connection of its own,
instead of inside every thousandth commit on the event loop, where they stalled every table for
the time of two fsyncs.  What a commit guarantees is unchanged: it is in the WAL when it returns.

Why the WAL needs more than those checkpoints to stay bounded: SQLite writes the WAL from its
start again only when a writer begins a transaction while every frame of the WAL has been
copied into the database (and no reader uses an older snapshot).  A PASSIVE checkpoint copies
the frames that existed when it began, and under sustained load the event loop commits again
and again while it copies and syncs, so the WAL is never wholly copied at the start of a write:
it only grows (about 15 MiB/s at 100 busy tables; 165 MB in 4 s in the test of the bound).  A
RESTART checkpoint ends that: it waits until no transaction is open, copies what is left and
syncs, and the next commit writes the WAL from its start again (``journal_size_limit`` then
truncates the file).  It is run by the writer itself, between two commits, once the WAL is
larger than half of ``wal_limit_bytes`` (the writer looks at its size every few commits): from
the thread it had to catch the writer's lock between two commits of a busy loop, polling with
SQLite's growing sleeps while it held the checkpoint lock, and under load the WAL still grew to
many times the limit.  On the writer it never waits for a lock (there is no other writer), and it
is short: the thread's PASSIVE checkpoints have already copied all but the last second's frames,
so the pause of the event loop is that copy and two fsyncs, every half a limit of writes.

Opening checks the file (:class:`Store`): a missing or empty file is a new database only when
asked (``create``), anything else must be one of ours and pass SQLite's ``quick_check``; every
error names the database's path (:class:`StoreError`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import MahjongError, StateError, StoreError
from ..families.registry import family_of
from ..settlement import Transfer
from .encoding import dumps

__all__ = ["Commit", "Store", "StoreError", "TableRow"]

log = logging.getLogger("mahjong_core.server")

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
CREATE TABLE IF NOT EXISTS match_heads (table_id TEXT PRIMARY KEY, head TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS match_rounds (
    table_id TEXT NOT NULL, k INTEGER NOT NULL, result TEXT NOT NULL, actions TEXT NOT NULL,
    PRIMARY KEY (table_id, k));
"""
_STEPS = """CREATE TABLE IF NOT EXISTS steps (table_id TEXT NOT NULL, prev INTEGER, body TEXT NOT NULL)"""
_STEP_HEADS = """CREATE TABLE IF NOT EXISTS step_heads (
    table_id TEXT PRIMARY KEY, last INTEGER NOT NULL) WITHOUT ROWID"""
_SCHEMA += _STEPS + ";\n" + _STEP_HEADS + ";\n"
# events and round_log hold nothing from layout 2 on: older files' rows move into steps.
# steps is a rowid table with no index (layout 4): a new step's row goes at the end of the table,
# and each row names the rowid of its table's previous step (prev; NULL for the first).  A table's
# newest step is its step_heads row, written only every _HEADS_EVERY rows (the tables whose head
# moved, in the transaction of that commit) and when the store closes: the rows after the largest
# head are read again when a store opens (they hold their table's id and link), so a crash loses no
# head.  Layout 3 found a table's steps by a (table_id, n) index: each table's entries sit together
# in it, so a group write of ten tables dirtied about ten index pages besides the steps' own last
# page or two, most of a commit's WAL frames (0.86 frames of 4 KiB per action; the rows alone
# 0.31); heads written at every commit would still dirty a page a commit, and run a statement per
# table.  (Layout 2 was a WITHOUT ROWID table: each row written into the middle of the table's own
# B-tree, splitting a page every dozen steps.)  The
# pages stay SQLite's 4 KiB: with 1 KiB pages a step wrote half the WAL bytes but more frames (a
# write call each, and each copied again by the checkpoints), which cost the server more CPU per
# action, user and system, not less (issue 26, item 12).
_CHAIN = """WITH RECURSIVE chain(id, table_id, prev, body) AS (
    SELECT rowid, table_id, prev, body FROM steps WHERE rowid = ?
    UNION ALL
    SELECT steps.rowid, steps.table_id, steps.prev, steps.body FROM chain JOIN steps ON steps.rowid = chain.prev
    WHERE chain.prev < chain.id)
SELECT id, table_id, prev, body FROM chain"""
"""A table's steps, newest first: from its head (:meth:`Store._head`) down the links (each link to
a smaller rowid, so that a damaged link cannot loop)."""
_HEADS_EVERY = 4096
"""``steps`` rows between two writes of the moved heads (the most a store's opening reads again)."""

_LAYOUT = 4
"""``PRAGMA user_version`` of the current layout (0: the first, each round's log in its table row;
1: the head and the round's state in the table row, rewritten at every step, the streams and the
round's log in ``events`` and ``round_log``, a row per event; 2: ``steps`` a WITHOUT ROWID table
keyed by ``(table_id, n)``; 3: ``steps`` a rowid table with a ``(table_id, n)`` index)."""
_TABLES = ("accounts", "transfers", "tables", "events", "round_log", "hands")
DEFAULT_WAL_LIMIT = 64 << 20
_WAL_CHECK_EVERY = 16
"""Commits between two looks of the writer at the WAL's size (one stat)."""
BUSY_TIMEOUT_S = 10.0
"""How long a commit waits for the checkpoint thread's RESTART checkpoint (milliseconds in practice)."""


@dataclass
class TableRow:
    """A table as stored: ``seats`` is a list of ``{"name", "token_hash", "bot"}`` (or None for
    an empty seat), ``escape`` the per-hand disconnect counters, ``head`` the match's JSON without
    its rounds (its arguments: ``Match.to_dict()`` without ``results``, ``actions`` and ``round``;
    None in a commit: stored already), ``log`` the JSON of the current round's log events from
    index ``log_start`` on (read back: the whole log; in a commit: the events not yet stored,
    ``log_start`` 0 for a new round).  In a commit, ``changed`` False: the row's own fields
    (status, seats, counters, end) are as last stored and are not written again."""

    id: str
    room: str
    status: str
    seed: int
    seats: list[Any]
    escape: list[int]
    head: str | None
    end_reason: str | None = None
    log: list[str] = field(default_factory=list)
    log_start: int = 0
    changed: bool = True
    streams: list[list[str]] = field(default_factory=list)
    """Read back: each seat's stream (each event's JSON as stored and sent); unused in a commit."""
    rounds: list[tuple[str, str]] = field(default_factory=list)
    """Read back: each finished round's result and actions (their JSON, as ``Match.to_dict()``
    lists them); unused in a commit (:attr:`Commit.rounds`)."""

    def match(self) -> Any:
        """The stored match (None before it starts), rebuilt and checked: the current round
        replayed from its log (``Round.replay`` verifies every event), then the whole match
        through ``Match.from_dict`` (every finished round replayed, the results recomputed);
        any damage is a :class:`~mahjong_core.errors.StateError`."""
        if self.head is None:
            return None
        d = json.loads(self.head)
        match_class = _match_class(d)   # the family of the ruleset the head names (the registry)
        d["results"] = [json.loads(result) for result, _ in self.rounds]
        d["actions"] = [json.loads(actions) for _, actions in self.rounds]
        d["round"] = match_class.round_class.replay(self.log).to_dict()
        return match_class.from_dict(d)

    def match_json(self) -> str | None:
        """:meth:`match` as its ``to_json()``."""
        m = self.match()
        return None if m is None else str(m.to_json())


def _match_class(head: Any) -> Any:
    """The match class of the family whose ruleset a stored head names (a StateError for a head
    that names none: a damaged row)."""
    ruleset = head.get("ruleset") if isinstance(head, dict) else None
    try:
        return family_of(ruleset).match_type()
    except MahjongError as exc:
        raise StateError(f"the stored match names no ruleset this server plays: {exc}") from None


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
    rounds: list[tuple[int, str, str]] = field(default_factory=list)
    """Finished rounds of the match: ``(index, result's JSON, actions' JSON)``."""



class Store:
    """One SQLite connection, used by the thread that runs the server's event loop (and, for a
    database file, the checkpoint thread: ``checkpoint_s`` seconds between two checkpoints;
    None: SQLite's own, inside a commit).

    ``create``: a missing or empty (0-byte) file is made a new database; without it either is a
    :class:`StoreError`.  An existing file must be a SQLite database with this server's tables
    (or none, when ``create``) and pass ``PRAGMA quick_check``."""

    def __init__(self, path: str, checkpoint_s: float | None = 1.0, *, create: bool = False,
                 wal_limit_bytes: int = DEFAULT_WAL_LIMIT) -> None:
        self.path = path
        self.db = _open(path, create)
        self._heads: dict[str, int | None] = {}
        """Table id -> the rowid of its newest ``steps`` row (None: it has none), once known: every
        table with a row after the stored heads is here from the opening on (:meth:`_head`)."""
        self._unsaved: dict[str, int] = {}
        """The heads not yet in ``step_heads`` (the tables' newest rows since the last write of them)."""
        self._saved_below = 1
        """The rowid after the last row whose head is in ``step_heads``."""
        self._next_rowid = 1
        """The rowid of the next ``steps`` row (this connection is the only writer)."""
        try:
            with self._errors("opening"):
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.execute(f"PRAGMA journal_size_limit={int(wal_limit_bytes) // 2}")
                self.db.executescript(_SCHEMA)
                if self.db.execute("PRAGMA user_version").fetchone()[0] < _LAYOUT:
                    self._upgrade()
                self._next_rowid = self._read_tail()
        except BaseException:
            self.db.close()
            raise
        self.checkpointer: _Checkpointer | None = None
        self._steps_due: list[Any] = []
        """The ``steps`` rows of the transaction being written, one after the other, four values
        each: ``rowid, table id, prev, body`` (the parameters of :func:`_insert_steps`)."""
        self._due_heads: dict[str, int] = {}
        """Table id -> the rowid of its last row in ``_steps_due``: its ``step_heads`` row."""
        self._due_top: int | None = None
        """The rowid of the last row in ``_steps_due`` (None: none yet)."""
        self.wal_limit = int(wal_limit_bytes)
        self._commits = 0
        self.restarts = 0
        """RESTART checkpoints run, and the WAL bytes they let SQLite write again from the start
        (for the tests and the load bench: without them the WAL would have grown by as much)."""
        self.recycled = 0
        self._page = 4096
        if checkpoint_s is not None and path != ":memory:":
            self.db.execute("PRAGMA wal_autocheckpoint=0")   # this connection's commits never checkpoint
            self._page = self.db.execute("PRAGMA page_size").fetchone()[0]
            self.checkpointer = _Checkpointer(path, checkpoint_s)

    @contextlib.contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """SQLite's errors (and a damaged stored row) as a :class:`StoreError` naming the path."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"database {self.path}: {what} failed: {exc}") from exc

    def _read_tail(self) -> int:
        """The heads of the rows after the stored ones (written since the last write of the heads,
        before a crash or a kill), each row's link checked against its table's head; the rowid
        of the next row."""
        top = self.db.execute("SELECT max(last) FROM step_heads").fetchone()[0] or 0
        self._saved_below = top + 1
        for rowid, table_id, prev in self.db.execute("SELECT rowid, table_id, prev FROM steps WHERE rowid > ?",
                                                     (top,)).fetchall():
            if prev != self._head(table_id):
                raise StoreError(f"database {self.path}: table {table_id!r} is damaged: its step {rowid} links to "
                                 f"{prev}, not to its step before it ({self._head(table_id)})")
            self._heads[table_id] = self._unsaved[table_id] = rowid
            top = rowid
        return int(top) + 1

    def _head(self, table_id: str) -> int | None:
        """The rowid of the table's newest ``steps`` row (None: none), read once from ``step_heads``
        (a table with a row after the stored heads is known already)."""
        if table_id in self._heads:
            return self._heads[table_id]
        found = self.db.execute("SELECT last FROM step_heads WHERE table_id = ?", (table_id,)).fetchone()
        head = self._heads[table_id] = None if found is None else int(found[0])
        return head

    def _upgrade(self) -> None:
        """An older layout, in one transaction: layout 0 kept each round's log inside its table
        row (same JSON text, key order kept); layouts 0 and 1 kept the match's head and the
        round's state in the row, rewritten at every step (the head moves into ``match_heads``;
        the state is dropped: it is the log replayed), and a row per stream or log event (they
        move into one ``steps`` row per table); layouts 2 and 3 numbered each table's steps
        (``n``, indexed): their rows are copied, table by table in order, into the linked rows of
        layout 4 (:data:`_SCHEMA`'s note), whose rowids then run in each table's order."""
        with self._transaction():
            layout = self.db.execute("PRAGMA user_version").fetchone()[0]
            if "n" in {r[1] for r in self.db.execute("PRAGMA table_info(steps)")}:     # layouts 2 and 3
                self.db.execute("ALTER TABLE steps RENAME TO steps_numbered")
                self.db.execute(_STEPS)
                self.db.execute(
                    "INSERT INTO steps (rowid, table_id, prev, body) SELECT r, table_id, "
                    "CASE WHEN k > 1 THEN r - 1 END, body FROM (SELECT table_id, body, "
                    "row_number() OVER (ORDER BY table_id, n) AS r, "
                    "row_number() OVER (PARTITION BY table_id ORDER BY n) AS k FROM steps_numbered) ORDER BY r")
                self.db.execute("DROP TABLE steps_numbered")
                self.db.execute("INSERT INTO step_heads (table_id, last) SELECT table_id, max(rowid) FROM steps "
                                "GROUP BY table_id")
            rows = self.db.execute("SELECT id, match, round FROM tables").fetchall() if layout < 2 else []
            for table_id, head, rnd in rows:
                if head is not None:          # the head held every finished round: one row each
                    d = json.loads(head)
                    results, actions = d.pop("results", []), d.pop("actions", [])
                    head = dumps(d)
                    self.db.executemany("INSERT OR REPLACE INTO match_rounds (table_id, k, result, actions) "
                                        "VALUES (?, ?, ?, ?)", [(table_id, k, dumps(r), dumps(a)) for k, (r, a)
                                                                in enumerate(zip(results, actions))])
                log: list[str] = [ev for (ev,) in self.db.execute(
                    "SELECT event FROM round_log WHERE table_id = ? ORDER BY i", (table_id,)).fetchall()]
                if layout == 0 and rnd is not None and "log" in json.loads(rnd):
                    log = [dumps(ev) for ev in json.loads(rnd)["log"]]
                lines = [f"s{seat} {i} {ev}" for seat, i, ev in self.db.execute(
                    "SELECT seat, id, event FROM events WHERE table_id = ? ORDER BY seat, id", (table_id,)).fetchall()]
                lines += [f"l{i} {ev}" for i, ev in enumerate(log)]
                if lines:
                    rowid = self.db.execute("INSERT INTO steps (table_id, prev, body) VALUES (?, NULL, ?)",
                                            (table_id, "\n".join(lines))).lastrowid
                    self.db.execute("INSERT INTO step_heads (table_id, last) VALUES (?, ?)", (table_id, rowid))
                if head is not None:
                    self.db.execute("INSERT OR REPLACE INTO match_heads (table_id, head) VALUES (?, ?)",
                                    (table_id, head))
            self.db.execute("UPDATE tables SET match = NULL, round = NULL")
            self.db.execute("DELETE FROM events")
            self.db.execute("DELETE FROM round_log")
            self.db.execute(f"PRAGMA user_version = {_LAYOUT}")

    def close(self) -> None:
        """Write the heads not yet stored (the next opening then reads no row again), stop the
        checkpoint thread, then close (SQLite checkpoints the WAL at the last close)."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
        with contextlib.suppress(sqlite3.Error):   # a failing disk: what is committed stays in the WAL
            if self._unsaved:
                with self._transaction():
                    self._save_heads({})
                self._unsaved.clear()
                self._saved_below = self._next_rowid
            self.db.close()

    # ------------------------------------------------------------------ reads
    def accounts(self) -> dict[str, tuple[int, int]]:
        with self._errors("reading the accounts"):
            return {name: (balance, points) for name, balance, points in
                    self.db.execute("SELECT name, balance, points FROM accounts").fetchall()}

    def open_tables(self) -> list[TableRow]:
        """The tables that are not over, in the order they were created."""
        with self._errors("reading the tables"):
            rows = self.db.execute("SELECT id, room, status, seed, seats, disconnects, head, end_reason "
                                   "FROM tables LEFT JOIN match_heads ON table_id = id "
                                   "WHERE status != 'over' ORDER BY tables.rowid").fetchall()
            return [self._row(r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table as stored (over or not), None if there is no such table."""
        with self._errors(f"reading table {table_id}"):
            r = self.db.execute("SELECT id, room, status, seed, seats, disconnects, head, end_reason "
                                "FROM tables LEFT JOIN match_heads ON table_id = id WHERE id = ?",
                                (table_id,)).fetchone()
            return None if r is None else self._row(r)

    def _row(self, r: tuple[Any, ...]) -> TableRow:
        i, room, status, seed, seats, esc, head, end = r
        try:
            seats = json.loads(seats)
            log, streams = self._steps(i)
            rounds = self.db.execute("SELECT k, result, actions FROM match_rounds WHERE table_id = ? ORDER BY k",
                                     (i,)).fetchall()
            if [k for k, _, _ in rounds] != list(range(len(rounds))):
                raise ValueError("its finished rounds are not numbered 0..n-1")
            return TableRow(i, room, status, seed, seats, json.loads(esc), head, end, log,
                            streams=[streams.get(k, []) for k in range(len(seats))],
                            rounds=[(r, a) for _, r, a in rounds])
        except (ValueError, TypeError) as exc:
            raise StoreError(f"database {self.path}: table {i!r} is damaged: {exc}") from None

    def _steps(self, table_id: str) -> tuple[list[str], dict[int, list[str]]]:
        """The current round's log and every seat's stream, from the table's ``steps`` rows."""
        log: list[str] = []
        streams: dict[int, list[str]] = {}
        for body in self._bodies(table_id):
            here: dict[str, str] = {}            # this row's log events, for the "=<i>" lines
            for line in body.split("\n"):
                tag, _, rest = line.partition(" ")
                if tag[:1] == "l" and tag[1:].isdigit():
                    if tag == "l0":
                        log = []                 # a new round: its log starts again
                    if int(tag[1:]) != len(log):
                        raise ValueError(f"log event {tag[1:]} after {len(log)}")
                    log.append(rest)
                    here[tag[1:]] = rest
                elif tag[:1] == "s" and tag[1:].isdigit():
                    ident, _, text = rest.partition(" ")
                    stream = streams.setdefault(int(tag[1:]), [])
                    if not ident.isdigit() or int(ident) != len(stream) + 1:
                        raise ValueError(f"seat {tag[1:]}: stream event {ident[:20]!r} after {len(stream)}")
                    if text[:1] == "=":          # never the start of a JSON text
                        if text[1:] not in here:
                            raise ValueError(f"seat {tag[1:]}: stream event {ident} names log event {text[1:20]!r}, "
                                             "not one of its step")
                        text = here[text[1:]]
                    stream.append(text)
                else:
                    raise ValueError(f"a step line starts with {tag[:20]!r}")
        return log, streams

    def _bodies(self, table_id: str) -> list[str]:
        """The bodies of the table's ``steps`` rows, oldest first (:data:`_CHAIN`); a chain that
        does not end at a first step, or passes through another table's row, is a ValueError."""
        head = self._head(table_id)
        rows = [] if head is None else self.db.execute(_CHAIN, (head,)).fetchall()
        if rows and rows[-1][2] is not None:
            raise ValueError(f"its steps' links break at rowid {rows[-1][0]} (the step before it, "
                             f"{rows[-1][2]}, is missing)")
        if any(t != table_id for _, t, _, _ in rows):
            raise ValueError("its steps' links lead into another table's steps")
        return [body for _, _, _, body in reversed(rows)]

    def events(self, table_id: str, seat: int) -> list[str]:
        """A seat's stream: each event's JSON as it was stored (and sent)."""
        with self._errors(f"reading the stream of table {table_id} seat {seat}"):
            try:
                return self._steps(table_id)[1].get(seat, [])
            except ValueError as exc:
                raise StoreError(f"database {self.path}: table {table_id!r} is damaged: {exc}") from None

    def table_count(self) -> int:
        with self._errors("counting the tables"):
            n: int = self.db.execute("SELECT count(*) FROM tables").fetchone()[0]
        return n

    def last_table_number(self) -> int:
        """The largest n of the stored tables' ids ``t<n>`` (0: none): a new table is numbered after
        it (not after the count: a table whose first commit failed leaves a gap)."""
        with self._errors("reading the table ids"):
            n = self.db.execute("SELECT max(CAST(substr(id, 2) AS INTEGER)) FROM tables WHERE id GLOB 't[0-9]*'"
                                ).fetchone()[0]
        return int(n or 0)

    # ------------------------------------------------------------------ writes
    def open_account(self, name: str, balance: int, deposit: Transfer) -> None:
        with self._errors(f"opening the account {name!r}"), self._transaction():
            self.db.execute("INSERT INTO accounts (name, balance, points) VALUES (?, ?, 0)", (name, balance))
            self._insert_transfers(None, [deposit])

    def ensure_system(self, name: str) -> None:
        with self._errors("writing the system account"):
            self.db.execute("INSERT OR IGNORE INTO accounts (name, balance, points) VALUES (?, 0, 0)", (name,))

    def commit(self, row: TableRow, change: Commit) -> None:
        """Write the table row and ``change`` in one transaction (all or nothing); a failure is a
        :class:`StoreError` and leaves the database as it was."""
        self._commit_all(((row, change),))

    def commit_group(self, group: list[tuple[TableRow, Commit]]) -> None:
        """:meth:`commit` of several tables in one transaction (all or nothing): the server writes
        the tables that changed during one turn of its event loop together (one ``BEGIN`` ...
        ``COMMIT`` instead of one per action); a single table is :meth:`commit` itself."""
        if len(group) == 1:
            self.commit(*group[0])
        elif group:
            self._commit_all(group)

    def _commit_all(self, group: Sequence[tuple[TableRow, Commit]]) -> None:
        """The transaction of :meth:`commit_group`.  It is on the path of every action: the error's
        text (the tables' ids) is built only for an error, the links of the transaction's steps are
        counted in dicts (:meth:`_write`), and its steps go in with one statement per
        :data:`_ROWS_AT_ONCE` rows (:func:`_insert_steps`)."""
        due = self._steps_due
        saving = False
        try:
            with self._transaction():
                write = self._write
                for row, change in group:
                    write(row, change)
                if due:
                    _insert_steps(self.db, due)
                    if len(due) // 4 + self._next_rowid - self._saved_below >= _HEADS_EVERY:
                        saving = True
                        self._save_heads(self._due_heads)
        except sqlite3.Error as exc:
            what = f"table {group[0][0].id}" if len(group) == 1 else \
                f"tables {', '.join(row.id for row, _ in group)}"
            raise StoreError(f"database {self.path}: storing {what} failed: {exc}") from exc
        finally:
            due.clear()
            due_heads, self._due_heads = self._due_heads, {}
            top, self._due_top = self._due_top, None
        if top is not None:    # committed: the tables' heads and the next rowid move past its rows
            self._heads.update(due_heads)
            self._next_rowid = top + 1
            if saving:     # the heads were written with them
                self._unsaved.clear()
                self._saved_below = top + 1
            else:
                self._unsaved.update(due_heads)
        self._commits += 1
        if self._commits >= _WAL_CHECK_EVERY and self.checkpointer is not None:
            self._keep_wal_bounded()

    def _write(self, row: TableRow, change: Commit) -> None:
        """The statements of one table's commit (inside the caller's transaction); its ``steps``
        row is listed in ``_steps_due``, written with the other tables' by :meth:`commit_group`."""
        if row.changed:
            self.db.execute(
                "INSERT INTO tables (id, room, status, seed, seats, disconnects, end_reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, "
                "seats = excluded.seats, disconnects = excluded.disconnects, end_reason = excluded.end_reason",
                (row.id, row.room, row.status, row.seed, dumps(row.seats), dumps(row.escape), row.end_reason))
        if row.head is not None:
            self.db.execute("INSERT OR REPLACE INTO match_heads (table_id, head) VALUES (?, ?)",
                            (row.id, row.head))
        if change.rounds:
            self.db.executemany("INSERT INTO match_rounds (table_id, k, result, actions) VALUES (?, ?, ?, ?)",
                                [(row.id, k, result, actions) for k, result, actions in change.rounds])
        lines = []
        same: dict[str, str] = {}      # a log event's text -> its index's digits
        k = row.log_start
        for ev in row.log:
            digits = same[ev] = _DIGITS[k] if k < _DIGITS_KEPT else str(k)
            lines.append(f"l{digits} {ev}")
            k += 1
        for seat, i, ev in change.events:
            ref = same.get(ev)
            n = _DIGITS[i] if i < _DIGITS_KEPT else str(i)
            lines.append(f"s{_DIGITS[seat]} {n} {ev}" if ref is None else f"s{_DIGITS[seat]} {n} ={ref}")
        if lines:
            # the row's rowid and its link, counted here (this connection is the only writer)
            # instead of a subquery in every insert; the transaction's own rows in _due_heads (a
            # table may have two steps in it) become the known heads only when it commits
            table_id = row.id
            top = self._due_top
            rowid = self._next_rowid if top is None else top + 1
            due = self._due_heads
            prev = due.get(table_id)
            if prev is None:
                heads = self._heads
                prev = heads[table_id] if table_id in heads else self._head(table_id)
            due[table_id] = self._due_top = rowid
            self._steps_due += (rowid, table_id, prev, "\n".join(lines))
        if change.accounts:
            self.db.executemany("UPDATE accounts SET balance = ?, points = ? WHERE name = ?",
                                [(b, p, name) for name, (b, p) in change.accounts.items()])
        if change.transfers:
            self._insert_transfers(row.id, change.transfers)
        if change.hand is not None:
            k, record = change.hand
            self.db.execute("INSERT INTO hands (table_id, round, record) VALUES (?, ?, ?)",
                            (row.id, k, dumps(record)))

    def _save_heads(self, due: dict[str, int]) -> None:
        """Write the heads that moved since the last write of them, and those of the rows being
        written (``due``), inside the caller's transaction (:data:`_SCHEMA`'s note)."""
        self.db.executemany("INSERT INTO step_heads (table_id, last) VALUES (?, ?) "
                            "ON CONFLICT(table_id) DO UPDATE SET last = excluded.last", {**self._unsaved, **due}.items())

    def _keep_wal_bounded(self) -> None:
        """Past half of ``wal_limit_bytes``, a RESTART checkpoint (module docstring).  Busy (the
        thread's PASSIVE checkpoint is running) or failing: the next look tries again; the
        commit before it is done either way."""
        try:
            if os.path.getsize(self.path + "-wal") <= self.wal_limit // 2:
                self._commits = 0
                return
            t0 = time.monotonic()
            busy, frames, _ = self.db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            took = time.monotonic() - t0
        except (OSError, sqlite3.Error) as exc:
            self._commits = 0
            log.warning("database %s: WAL checkpoint failed: %s", self.path, exc)
            return
        if took > 0.5:     # every table waited that long: a slow or busy disk (its fsyncs)
            log.warning("database %s: restarting the WAL took %.1f s (the tables waited)", self.path, took)
        if not busy:       # else the thread's checkpoint is running: again after the next commit
            self._commits = 0
            self.restarts += 1
            self.recycled += frames * (self._page + 24)     # a WAL frame: a page and its header

    def _insert_transfers(self, table_id: str | None, transfers: list[Transfer]) -> None:
        if transfers:
            self.db.executemany(
                "INSERT INTO transfers (table_id, round, payer, payee, amount, reason, requested) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, t.round, t.payer, t.payee, t.amount, t.reason, t.requested) for t in transfers])

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


_DIGITS_KEPT = 4096
_DIGITS = tuple(str(n) for n in range(_DIGITS_KEPT))
"""The decimal text of the small ints of a step's lines (seats, stream ids, log indexes): a tuple
index instead of an int's formatting (issue 26, item 12: a tenth of the store's instructions)."""
_ROWS_AT_ONCE = 64
"""``steps`` rows per ``INSERT`` (256 parameters: within any SQLite's limit of 999)."""
_INSERT_ROWS: dict[int, str] = {}
"""``n`` -> the text of an ``INSERT`` of ``n`` ``steps`` rows (the same str object each time)."""


def _insert_steps(db: sqlite3.Connection, values: list[Any]) -> None:
    """Insert the ``steps`` rows whose values ``values`` lists (four a row) with one statement
    per :data:`_ROWS_AT_ONCE` rows: a statement runs once (one ``sqlite3_step``, one release of
    the GIL) where ``executemany`` ran it, bound and reset it for every row."""
    for at in range(0, len(values), 4 * _ROWS_AT_ONCE):
        part = values[at:at + 4 * _ROWS_AT_ONCE] if at or len(values) > 4 * _ROWS_AT_ONCE else values
        n = len(part) // 4
        sql = _INSERT_ROWS.get(n)
        if sql is None:
            sql = _INSERT_ROWS[n] = "INSERT INTO steps (rowid, table_id, prev, body) VALUES " + \
                ", ".join(["(?, ?, ?, ?)"] * n)
        db.execute(sql, part)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception, also when the COMMIT
    itself fails (a full disk fails at the COMMIT, when the WAL is written).  SQLite may already
    have rolled back (``SQLITE_FULL``, an I/O error): then there is nothing left to roll back,
    and the original error is the one raised."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        if self.db.in_transaction:      # a ROLLBACK that failed earlier (a failing disk): end it now
            self.db.execute("ROLLBACK")
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return
            except BaseException:
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


def _open(path: str, create: bool) -> sqlite3.Connection:
    """The connection to ``path`` after the checks of :class:`Store` (WAL mode set)."""
    if path == ":memory:":
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        return db
    try:
        size = os.stat(path).st_size if os.path.exists(path) else None
        if size is not None and not os.path.isfile(path):
            raise StoreError(f"database {path} is not a file")
        if size is None and not create:
            raise StoreError(f"database {path} does not exist; to start with a new, empty database there, "
                             "run with --init once")
        if size == 0 and not create:
            raise StoreError(f"database {path} is an empty file (0 bytes), not a database: restore it from a "
                             "backup, or run with --init to start a new, empty database there")
        wal = path + "-wal"
        if not size and os.path.exists(wal) and os.path.getsize(wal) > 0:
            raise StoreError(f"database {path} is missing or empty but its WAL {wal} is not: it would be "
                             "replayed onto nothing; move both away (or restore them) first")
    except OSError as exc:
        raise StoreError(f"database {path}: {exc.strerror or exc}") from None
    mode = "rwc" if create else "rw"
    uri = "file:" + _uri_path(path) + f"?mode={mode}"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                             timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise StoreError(f"database {path} cannot be opened: {exc}") from None
    try:
        try:
            db.execute("PRAGMA journal_mode=WAL").fetchall()
            problems = [r[0] for r in db.execute("PRAGMA quick_check").fetchall()]
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
            layout = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            raise StoreError(f"database {path} cannot be read ({exc}): restore it from a backup") from None
        if problems != ["ok"]:
            shown = "; ".join(str(p) for p in problems[:3]) + (" ..." if len(problems) > 3 else "")
            raise StoreError(f"database {path} is damaged (SQLite's quick_check: {shown}): restore it from a backup")
        missing = [t for t in _TABLES if t not in names]
        if names and missing:
            raise StoreError(f"database {path} is not a mahjong-core server database (it has no table "
                             f"{', '.join(missing)})")
        if not names and not create:
            raise StoreError(f"database {path} holds no tables: run with --init to start a new, empty database there")
        if layout > _LAYOUT:
            raise StoreError(f"database {path} has layout {layout}, newer than this mahjong-core's ({_LAYOUT}): "
                             "run a newer version")
    except BaseException:
        db.close()
        raise
    return db


def _uri_path(path: str) -> str:
    """``path`` as the path of a ``file:`` URI (absolute, ``%``-escaped)."""
    from urllib.parse import quote

    return quote(os.path.abspath(path))


class _Checkpointer:
    """A thread that runs a PASSIVE checkpoint (it never waits for nor blocks a writer) every
    ``every`` seconds until :meth:`stop`: it copies the WAL's frames into the database file and
    syncs it off the event loop; the writer's RESTART checkpoints then find little left to copy
    (module docstring).  sqlite3 releases the GIL while SQLite works."""

    def __init__(self, path: str, every: float) -> None:
        self.path = path
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mahjong-store-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
        last_report = 0.0
        try:
            while not self._stop.wait(self.every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:   # busy or failing disk: the next one tries again; commits go on
                    if time.monotonic() - last_report > 60:    # once a minute, not every second
                        last_report = time.monotonic()
                        log.error("database %s: WAL checkpoint failed: %s", self.path, exc)
        finally:
            db.close()

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
