"""The server's table path counted in instructions (issue 26, item 12): what the machine's load
does not change, for before/after comparisons on a shared machine.

    valgrind --tool=callgrind --toggle-collect=builtin_eval --callgrind-out-file=/tmp/tp.cg \\
        python bench/bench_table_path_instructions.py [--tables 50] [--warmup 60] [--turns 40] [--group 10]

then the instructions per action are the ``Collected`` count valgrind prints divided by the
``actions`` this script prints (run it with ``PYTHONPATH`` set to the tree under test).  Run
without valgrind it is a plain run of the same work.

The tables are driven as ``bench/bench_table_path.py`` drives them (two-player coins tables,
seats that act as the load bench's clients do, the staged tables written every ``--group``
tables), with what the serving process adds: its garbage collector settings (``gc.freeze`` and
``GC_THRESHOLD``), and outboxes that take each frame as the server's WebSocket protocol does (a
str frame encoded to UTF-8, or the bytes of ``send_utf8``).  Only ``Table.act`` and
``Lobby.write_staged`` run inside ``eval`` after the warm-up (the turns in which every table
plays its first hands and imports what it imports once), so callgrind counts those and nothing
else: not the set-up, not the clients' parsing of their frames.  The checkpoint thread is kept
out of the window (one checkpoint a day); the writer's own RESTART checkpoints are counted.
Nothing fails on a number.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys

try:
    from orjson import loads
except ImportError:   # the server extra's faster parser; the standard library's otherwise
    from json import loads

from bench_server_load import choose  # the load test's client policy (this folder)
from bench_table_path import (
    seated_lobby,  # the same tables, seats and settings (this folder)
)
from mahjong_core.server.cli import GC_THRESHOLD

ACT = compile("table.act(k, i)", "act", "eval")
WRITE = compile("lobby.write_staged()", "write", "eval")


class Outbox:
    """A seat's connection keeping its last frame as the socket would write it (UTF-8 bytes)."""

    closing = False

    def __init__(self) -> None:
        self.last: bytes | None = None

    def send(self, frame: str) -> None:
        self.last = frame.encode()

    def send_utf8(self, data: bytes) -> None:
        self.last = data

    def error(self, message: str) -> None:
        raise AssertionError(message)

    def close(self, code: int, reason: str) -> None:
        raise AssertionError(f"closed {code} {reason}")


async def run(tables: int, warmup: int, turns: int, group: int) -> tuple[int, float]:
    """Play; the actions counted (after the warm-up) and their mean frame bytes."""
    lobby, seats = seated_lobby(tables, Outbox, checkpoint_s=86_400.0)
    try:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
        actions, frame_bytes = 0, 0
        for turn in range(warmup + turns):
            counted = turn >= warmup
            for idx, (table, k, box) in enumerate(seats):
                if idx % (2 * group) == 0:
                    eval(WRITE, {"lobby": lobby}) if counted else lobby.write_staged()
                if box.last is None:
                    continue
                frame_bytes += len(box.last) if counted else 0
                state = loads(box.last)["state"]
                box.last = None
                view = state.get("view")
                if view and view["legal_indices"] and state["status"] == "playing":
                    i = choose(view)
                    if counted:
                        eval(ACT, {"table": table, "k": k, "i": i})
                        actions += 1
                    else:
                        table.act(k, i)
            eval(WRITE, {"lobby": lobby}) if counted else lobby.write_staged()
        return actions, frame_bytes / max(1, actions)
    finally:
        lobby.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=60, help="turns played before the counted ones")
    ap.add_argument("--turns", type=int, default=40, help="turns counted")
    ap.add_argument("--group", type=int, default=10, help="tables written together")
    args = ap.parse_args()
    actions, frame_bytes = asyncio.run(run(args.tables, args.warmup, args.turns, max(1, args.group)))
    print(f"actions {actions}  (divide callgrind's Collected by this); frame bytes per action {frame_bytes:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
