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
With ``--socket`` each seat's connection is the server's own WebSocket protocol
(:class:`~mahjong_core.server.table_socket.TableSocket`, on a transport that keeps what is written)
and each action arrives as the masked text frame a client sends (``data_received``: the frame
read, the session's flood limit, the message parsed, then ``Table.act``): the table path and the
server's side of the WebSocket, all but the event loop and the system calls.
Nothing fails on a number.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from types import FunctionType, SimpleNamespace
from typing import Any

try:
    from orjson import loads
except ImportError:   # the server extra's faster parser; the standard library's otherwise
    from json import loads

from bench_server_load import choose  # the load test's client policy (this folder)
from bench_table_path import (
    seated_lobby,  # the same tables, seats and settings (this folder)
)
from mahjong_core.server.cli import GC_THRESHOLD
from mahjong_core.server.settings import ServerSettings
from mahjong_core.server.table_socket import SessionHub, TableSocket

ACT = compile("table.act(k, i)", "act", "eval")
WRITE = compile("lobby.write_staged()", "write", "eval")
RECEIVE = compile("sock.data_received(data)", "receive", "eval")
HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
MASK = b"\x5a\xc3\x0f\x96"


class Outbox:
    """A seat's connection keeping its last frame as the socket would write it (UTF-8 bytes)."""

    closing = False

    def __init__(self) -> None:
        self.last: bytes | None = None

    def send(self, frame: str) -> None:
        self.last = frame.encode()

    def send_utf8(self, data: bytes) -> None:
        self.last = data

    def take(self) -> bytes | None:
        """The last frame, if one came since the last call."""
        frame, self.last = self.last, None
        return frame

    def error(self, message: str) -> None:
        raise AssertionError(message)

    def close(self, code: int, reason: str) -> None:
        raise AssertionError(f"closed {code} {reason}")


class Transport:
    """A socket's transport that keeps the bytes written (the frames' JSON read back by :func:`last`)."""

    def __init__(self) -> None:
        self.out: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.out.append(data)

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else None


def socket_outbox() -> TableSocket:
    """A :class:`TableSocket` after its opening handshake (its session seated by :func:`seat`)."""
    config = SimpleNamespace(sessions=SessionHub(ServerSettings(rate_per_s=10_000.0, burst=10_000), lambda: None),
                             ws_per_message_deflate=False, ws_ping_interval=None, ws_ping_timeout=None)
    sock = TableSocket(config, SimpleNamespace(connections=set()), {}, asyncio.get_running_loop())
    sock.connection_made(Transport())   # type: ignore[arg-type]
    sock.data_received(HANDSHAKE)
    cast_transport(sock).out.clear()
    return sock


def cast_transport(sock: TableSocket) -> Transport:
    transport: Any = sock.transport
    return transport


def seat(sock: TableSocket, table: Any, k: int) -> None:
    session = sock.session
    assert session is not None
    session.seated = (table, k)


def last(sock: TableSocket) -> bytes | None:
    """The JSON of the last frame the server wrote to ``sock`` (its WebSocket header cut)."""
    out = cast_transport(sock).out
    if not out:
        return None
    frame = out[-1]
    out.clear()
    n = frame[1] & 0x7F
    return frame[4:] if n == 126 else frame[10:] if n == 127 else frame[2:]


def client_frame(text: str) -> bytes:
    """``text`` as a client's masked text frame (short: the act messages)."""
    data = text.encode()
    assert len(data) < 126
    return bytes((0x81, 0x80 | len(data))) + MASK + bytes(b ^ MASK[i % 4] for i, b in enumerate(data))


def plain(code: Any, names: dict[str, Any]) -> Any:
    """``eval(code, names)`` without the builtin ``eval`` (the warm-up: outside callgrind's window)."""
    return FunctionType(code, names)()


async def run(tables: int, warmup: int, turns: int, group: int, socket: bool = False) -> tuple[int, float]:
    """Play; the actions counted (after the warm-up) and their mean frame bytes."""
    lobby, seats = seated_lobby(tables, socket_outbox if socket else Outbox, checkpoint_s=86_400.0)
    take = last if socket else Outbox.take
    try:
        if socket:
            for table, k, sock in seats:
                seat(sock, table, k)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
        actions, frame_bytes = 0, 0
        for turn in range(warmup + turns):
            counted = turn >= warmup
            run_code = eval if counted else plain
            for idx, (table, k, box) in enumerate(seats):
                if idx % (2 * group) == 0:
                    run_code(WRITE, {"lobby": lobby})
                frame = take(box)
                if frame is None:
                    continue
                frame_bytes += len(frame) if counted else 0
                state = loads(frame)["state"]
                view = state.get("view")
                if view and view["legal_indices"] and state["status"] == "playing":
                    i = choose(view)
                    if socket:
                        run_code(RECEIVE, {"sock": box, "data": client_frame(f'{{"type":"act","index":{i}}}')})
                    else:
                        run_code(ACT, {"table": table, "k": k, "i": i})
                    actions += counted
            run_code(WRITE, {"lobby": lobby})
        return actions, frame_bytes / max(1, actions)
    finally:
        lobby.close()


def load_options(description: str, tables: int) -> argparse.ArgumentParser:
    """The options of the load this script plays (``--tables``, ``--warmup``, ``--turns``,
    ``--group``), for it and for ``bench_store_instructions.py``, which plays the same load."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--tables", type=int, default=tables, help="tables played")
    ap.add_argument("--warmup", type=int, default=60, help="turns played before the counted ones")
    ap.add_argument("--turns", type=int, default=40, help="turns counted")
    ap.add_argument("--group", type=int, default=10, help="tables written together")
    return ap


def main() -> int:
    ap = load_options(__doc__.split("\n\n")[0], tables=50)
    ap.add_argument("--socket", action="store_true",
                    help="each connection the server's WebSocket protocol, each action its client frame")
    args = ap.parse_args()
    actions, frame_bytes = asyncio.run(run(args.tables, args.warmup, args.turns, max(1, args.group), args.socket))
    print(f"actions {actions}  (divide callgrind's Collected by this); frame bytes per action {frame_bytes:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
