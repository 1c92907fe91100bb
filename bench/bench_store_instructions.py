"""The server's storage cost counted in instructions (issue 26, item 12): the SQLite writes of a
recorded load replayed into a fresh database, for before/after comparisons on a shared machine.

    valgrind --tool=callgrind --toggle-collect=builtin_eval --callgrind-out-file=/tmp/st.cg \\
        python bench/bench_store_instructions.py [--tables 100] [--warmup 60] [--turns 40] [--group 10]

then the storage instructions per action are the ``Collected`` count valgrind prints divided by
the ``actions`` this script prints (run it with ``PYTHONPATH`` set to the tree under test).  Run
without valgrind it is a plain run of the same work, and prints the same figures besides.  With
``--save FILE`` it only records, and with ``--load FILE`` it replays that recording (made with the
same tree: it holds the store's own objects), so that valgrind runs the replay alone.

First the load is played and recorded: the tables of ``bench/bench_table_path_instructions.py``
(two-player coins tables, seats that act as the load bench's clients do, the staged tables
written every ``--group`` tables), every write the lobby asks of its store (each
``commit_group`` with its rows and changes, accounts opened) kept as it was asked.  Then those
writes are made again, in the same order, by a new store on a new database file: only the
writes of the counted turns run inside ``eval``, so callgrind counts the store's Python and
SQLite's work for them, and not the game, the frames or the recording.  The checkpoint thread is
kept out of the window (one checkpoint a day); the writer's own RESTART checkpoints are counted.
What the tables build for a commit (``Table.row``, ``Table._prepare``) is not in the count.

Besides the instructions, the WAL's bytes per action (its frames: 4 KiB pages and their
headers, each written with a system call and copied again by a checkpoint), and with
``--statements`` the SQL statements run per action (``sqlite3``'s trace callback, in a second
replay outside the count: each row of an ``executemany`` is one).  Nothing fails on a number.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import shutil
import sys
import tempfile
from typing import Any

from bench_server_load import choose  # the load test's client policy (this folder)
from bench_table_path_instructions import (  # the same tables and options (this folder)
    Outbox,
    load_options,
    loads,
    seated_lobby,
)
from mahjong_core.server.store import Store

REPLAY = compile("write(*args)", "replay", "eval")
WRITES = ("commit_group", "commit", "open_account", "ensure_system")
"""The store's methods that write: recorded, then replayed."""


def record(tables: int, warmup: int, turns: int, group: int) -> tuple[list[tuple[str, bytes]], int, int]:
    """Play and keep every write the lobby asks of its store, pickled when asked (the objects
    may change afterwards): (the writes, the index of the first one in the counted turns, the
    actions of the counted turns)."""
    writes: list[tuple[str, bytes]] = []
    saved = {name: getattr(Store, name) for name in WRITES}

    def recording(name: str) -> Any:
        method = saved[name]

        def write(self: Store, *args: Any) -> Any:
            writes.append((name, pickle.dumps(args)))
            return method(self, *args)
        return write

    for name in WRITES:
        setattr(Store, name, recording(name))
    try:
        return asyncio.run(_play(writes, tables, warmup, turns, group))
    finally:
        for name, method in saved.items():
            setattr(Store, name, method)


async def _play(writes: list[tuple[str, bytes]], tables: int, warmup: int, turns: int,
                group: int) -> tuple[list[tuple[str, bytes]], int, int]:
    lobby, seats = seated_lobby(tables, Outbox, checkpoint_s=86_400.0)
    first, actions = 0, 0
    try:
        for turn in range(warmup + turns):
            if turn == warmup:
                first = len(writes)
            for idx, (table, k, box) in enumerate(seats):
                if idx % (2 * group) == 0:
                    lobby.write_staged()
                if box.last is None:
                    continue
                state = loads(box.last)["state"]
                box.last = None
                view = state.get("view")
                if view and view["legal_indices"] and state["status"] == "playing":
                    table.act(k, choose(view))
                    actions += turn >= warmup
            lobby.write_staged()
    finally:
        lobby.close()
    return writes, first, actions


def replay(writes: list[tuple[str, bytes]], first: int, trace: bool = False) -> tuple[int, int, int]:
    """The writes again, on a new database; those from ``first`` on inside ``eval`` (without
    ``trace``: the trace callback costs more than the writes, and is kept out of the count):
    (the WAL's bytes they wrote, the statements they ran (``trace``), the RESTART checkpoints
    among them)."""
    tmp = tempfile.mkdtemp(prefix="mahjong-store-instructions-")
    path = os.path.join(tmp, "t.sqlite3")
    store = Store(path, checkpoint_s=86_400.0, create=True)
    statements, restarts = [0], 0
    try:
        args = [pickle.loads(data) for _, data in writes]   # unpickled before the window
        for n, ((name, _), a) in enumerate(zip(writes, args)):
            if n == first:
                store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                restarts = store.restarts
                if trace:
                    store.db.set_trace_callback(lambda _sql: statements.__setitem__(0, statements[0] + 1))
            if n >= first and not trace:
                eval(REPLAY, {"write": getattr(store, name), "args": a})
            else:
                getattr(store, name)(*a)
        store.db.set_trace_callback(None)
        wal = os.path.getsize(path + "-wal") + store.recycled
        return wal, statements[0], store.restarts - restarts
    finally:
        store.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = load_options(__doc__.split("\n\n")[0], tables=100)
    ap.add_argument("--statements", action="store_true",
                    help="replay a second time, outside the count, counting the SQL statements run")
    ap.add_argument("--save", metavar="FILE", help="record only, into FILE (a pickle), for --load")
    ap.add_argument("--load", metavar="FILE", help="replay the recording --save made (with the same tree), "
                    "read from FILE, a pickle (unpickling runs code: load only a file you made): under "
                    "valgrind, the load is not played again at valgrind's speed")
    args = ap.parse_args()
    if args.load:
        with open(args.load, "rb") as f:
            writes, first, actions = pickle.load(f)
    else:
        writes, first, actions = record(args.tables, args.warmup, args.turns, max(1, args.group))
    if args.save:
        with open(args.save, "wb") as f:
            pickle.dump((writes, first, actions), f)
        print(f"recorded {len(writes)} writes, {actions} actions counted, into {args.save}")
        return 0
    wal, _, restarts = replay(writes, first)
    print(f"actions {actions}  (divide callgrind's Collected by this); commits {len(writes) - first}; "
          f"WAL bytes per action {wal / max(1, actions):.0f}; RESTART checkpoints {restarts}")
    if args.statements:
        _, statements, _ = replay(writes, first, trace=True)
        print(f"statements run per action {statements / max(1, actions):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
