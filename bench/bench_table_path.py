"""The server's table path without the network: what one action costs the server's CPU in its
tables, frames and SQLite writes, apart from the WebSocket and the event loop (issue 26, item 12).

    python bench/bench_table_path.py [--tables 100] [--turns 300] [--groups 100,10,2]

A lobby (SQLite in a temporary directory, grouped writes as the server runs it) holds
``--tables`` two-player tables whose seats are in-process outboxes instead of sockets; every
turn each seat that may act picks an action from its last update frame (win, else pass, else
its first discard, like bench/bench_server_load.py's clients) and ``Table.act`` plays it; the
staged tables are written and their frames built every ``group`` tables (the server writes the
tables of one event-loop turn together: 4-10 at saturation on the loopback).  Reported per
group size: the process CPU per action, split into the actions (``Table.act``) and the writes
with the frames (``Lobby.write_staged``), and the same run's client-side parsing of each frame
(orjson or json), which a server does not pay.  Subtract this from bench_server_load.py's CPU per
action for what the network path costs.  Nothing fails on a number.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

try:
    from orjson import loads
except ImportError:   # the server extra's faster parser; the standard library's otherwise
    from json import loads

from bench_server_load import choose  # the load test's client policy (this folder)
from mahjong_core.server import ServerSettings
from mahjong_core.server.lobby import Lobby


class Outbox:
    """A seat's connection that keeps the last frame (what a client would act on)."""

    closing = False

    def __init__(self) -> None:
        self.last: str | None = None

    def send(self, frame: str) -> None:
        self.last = frame

    def error(self, message: str) -> None:
        raise AssertionError(message)

    def close(self, code: int, reason: str) -> None:
        raise AssertionError(f"closed {code} {reason}")


def seated_lobby(tables: int, outbox: Callable[[], Any], **settings: Any) -> tuple[Lobby, list[tuple[Any, int, Any]]]:
    """A lobby writing its tables in groups (SQLite in a temporary directory) with ``tables``
    two-player coins tables, each seat attached to a new ``outbox()``, the tables' first rows
    written: (the lobby, its seats as (table, seat, outbox)).  ``settings``: ServerSettings fields
    beyond the bench's own."""
    tmp = tempfile.mkdtemp(prefix="mahjong-table-path-")
    lobby = Lobby(ServerSettings(db=os.path.join(tmp, "t.sqlite3"), init=True, bots=False, rounds=1_000_000, seed=1,
                                 claim_pause_s=0.0, join_burst=10 * tables, max_seats_per_address=10 * tables,
                                 max_connections_per_address=0, max_tables=tables + 10, act_timeout_s=600.0,
                                 **settings))
    lobby.grouping = True
    try:
        seats = []
        for n in range(2 * tables):
            j = lobby.join(f"p{n}", "coins", "127.0.0.1")
            table, box = lobby.tables[j["table"]], outbox()
            table.attach(j["seat"], box, 0)
            seats.append((table, j["seat"], box))
        lobby.write_staged()
    except BaseException:
        lobby.close()
        raise
    return lobby, seats


async def run(tables: int, turns: int, group: int) -> tuple[int, float, float, float]:
    lobby, seats = seated_lobby(tables, Outbox)
    try:
        for table, _, _ in seats:
            table._flush()
        actions, t_act, t_write, t_parse = 0, 0.0, 0.0, 0.0
        for _ in range(turns):
            for i, (table, k, box) in enumerate(seats):
                if i % (2 * group) == 0:
                    t0 = time.process_time()
                    lobby.write_staged()
                    t_write += time.process_time() - t0
                if box.last is None:
                    continue
                t0 = time.process_time()
                state = loads(box.last)["state"]
                t1 = time.process_time()
                t_parse += t1 - t0
                box.last = None
                view = state.get("view")
                if view and view["legal_indices"] and state["status"] == "playing":
                    table.act(k, choose(view))
                    actions += 1
                t_act += time.process_time() - t1
            t0 = time.process_time()
            lobby.write_staged()
            t_write += time.process_time() - t0
        return actions, t_act, t_write, t_parse
    finally:
        lobby.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--groups", default="100,10,2", help="tables written together, comma-separated")
    args = ap.parse_args()
    print(f"{args.tables} two-player tables, {args.turns} turns, load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'group':>6} {'actions':>8} {'CPU/action':>11} {'act':>8} {'write+frames':>13} {'client parse':>13}")
    for group in (int(g) for g in args.groups.split(",")):
        n, act, write, parse = asyncio.run(run(args.tables, args.turns, max(1, group)))
        us = 1e6 / max(1, n)
        print(f"{group:>6} {n:>8} {(act + write) * us:>9.0f} µs {act * us:>5.0f} µs {write * us:>10.0f} µs "
              f"{parse * us:>10.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
