"""The server's own WebSocket protocol (server/table_socket.py) at the byte level: the handshake
it refuses, fragments, text that is not UTF-8, its keepalive, a peer that stops reading, the
1012 of a shutdown, and the same match over it and over uvicorn's ASGI carrier."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import struct
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
websockets = pytest.importorskip("websockets", reason="the server extra")
pytest.importorskip("httpx", reason="the server extra")

from mahjong_core.server import ServerSettings
from mahjong_core.server import table_socket
from mahjong_core.server.app import GuardedWS
from mahjong_core.server.limits import ConnectionGuard
from mahjong_core.server.lobby import Lobby

from .harness import FAST, Client, LiveServer, engine_events, finish, stored


def settings(tmp_path: Path, **kw: object) -> ServerSettings:
    base: dict[str, object] = {"db": str(tmp_path / "server.sqlite3"), "bots": False, "rounds": 1, "seed": 11,
                               "tick_s": 0.02, **FAST}
    base.update(kw)
    return ServerSettings(**base)  # type: ignore[arg-type]


# ------------------------------------------------------------------ a raw client
def handshake(port: int, path: str = "/ws", key: str | None = None, rcvbuf: int | None = None) -> tuple[socket.socket, bytes]:
    """Open a TCP connection, send a WebSocket upgrade for ``path``; the socket and the answer's head."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Version: 13"]
    if key is not None:
        lines.append(f"Sec-WebSocket-Key: {key}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def new_key() -> str:
    return base64.b64encode(os.urandom(16)).decode()


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A client frame (masked, as RFC 6455 requires of a client)."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    head += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_frames(sock: socket.socket, until_opcode: int = 0x8, timeout: float = 5.0) -> list[tuple[int, bytes]]:
    """The server's frames (unmasked) up to the first of ``until_opcode`` (or the end of the stream)."""
    sock.settimeout(timeout)
    buf, frames = b"", []
    while True:
        while len(buf) >= 2:
            op, n = buf[0] & 0x0F, buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    break
                n, at = struct.unpack("!H", buf[2:4])[0], 4
            if len(buf) < at + n:
                break
            frames.append((op, buf[at:at + n]))
            buf = buf[at + n:]
            if op == until_opcode:
                return frames
        else:
            pass
        chunk = sock.recv(65536)
        if not chunk:
            return frames
        buf += chunk


def close_code(frames: list[tuple[int, bytes]]) -> int | None:
    closes = [p for op, p in frames if op == 0x8]
    return struct.unpack("!H", closes[-1][:2])[0] if closes and len(closes[-1]) >= 2 else None


# ------------------------------------------------------------------ tests
def test_only_ws_is_upgraded_and_a_bad_handshake_gets_400(tmp_path):
    with LiveServer(settings(tmp_path)) as srv:
        sock, head = handshake(srv.port, "/elsewhere", key=new_key())
        assert head.startswith(b"HTTP/1.1 404"), head
        sock.close()
        sock, head = handshake(srv.port, "/ws", key=None)          # no Sec-WebSocket-Key
        assert head.startswith(b"HTTP/1.1 400"), head
        sock.close()
        sock, head = handshake(srv.port, "/ws?x=1", key=new_key())  # a query is fine
        assert head.startswith(b"HTTP/1.1 101"), head
        sock.close()


def test_fragments_are_joined_and_their_sum_is_limited(tmp_path):
    s = settings(tmp_path)
    with LiveServer(s) as srv:
        seat = srv.join("frag", "coins")

        async def main() -> None:
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.recv()                                        # the update after the welcome
            await c.ws.send(iter(['{"type":', '"ping"}']))        # one message in two frames
            assert (await c.recv())["type"] == "pong"
            pad = "x" * (s.max_message_bytes // 2)
            await c.ws.send(iter(['{"type":"ping","a":"' + pad, pad, pad + '"}']))   # each frame fits, the sum not
            with pytest.raises(websockets.ConnectionClosed) as info:
                while True:
                    await c.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 1009

        asyncio.run(main())


def test_text_that_is_not_utf8_closes_with_1007(tmp_path):
    with LiveServer(settings(tmp_path)) as srv:
        sock, head = handshake(srv.port, key=new_key())
        assert head.startswith(b"HTTP/1.1 101")
        sock.sendall(frame(0x1, b'{"type":"ping","x":"\xff\xfe"}'))
        assert close_code(read_frames(sock)) == 1007
        sock.close()


def test_a_peer_that_never_answers_pings_is_closed(tmp_path):
    with LiveServer(settings(tmp_path, hello_timeout_s=30.0), ws_ping_interval=0.2, ws_ping_timeout=0.3) as srv:
        sock, head = handshake(srv.port, key=new_key())
        assert head.startswith(b"HTTP/1.1 101")
        t0 = time.monotonic()
        frames = read_frames(sock)
        assert [op for op, _ in frames][0] == 0x9                  # a ping first, never answered
        assert close_code(frames) == 1011 and time.monotonic() - t0 < 5
        sock.close()
        # a peer that answers (the websockets client does) stays open past several pings
        seat = srv.join("pong", "coins")

        async def main() -> None:
            c = Client(srv.ws_url, seat)
            await c.open()
            await asyncio.sleep(1.2)
            await c.send({"type": "ping"})
            frames = [await c.recv() for _ in range(2)]
            assert frames[-1]["type"] == "pong", frames

        asyncio.run(main())


def test_a_client_that_stops_reading_is_dropped_and_its_seat_is_away(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(table_socket, "MAX_UNSENT_BYTES", 4096)
    # no flood limit here: the connection must be dropped for what it leaves unread
    with LiveServer(settings(tmp_path, rate_per_s=80000.0, burst=10_000)) as srv, \
            caplog.at_level(logging.WARNING, logger="mahjong_core.server"):
        seat = srv.join("deaf", "coins")
        table = srv.lobby.tables[seat["table"]]  # type: ignore[union-attr]
        sock, head = handshake(srv.port, key=new_key(), rcvbuf=1024)
        assert head.startswith(b"HTTP/1.1 101")
        hello = ('{"type":"hello","table":"%s","seat":%d,"token":"%s"}'
                 % (seat["table"], seat["seat"], seat["token"])).encode()
        sock.sendall(frame(0x1, hello))
        for _ in range(500):                                   # seated
            if table.seats[seat["seat"]].conn is not None:     # type: ignore[union-attr]
                break
            time.sleep(0.01)
        assert table.seats[seat["seat"]].conn is not None      # type: ignore[union-attr]
        ping = frame(0x1, b'{"type":"ping"}')
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and table.seats[seat["seat"]].conn is not None:  # type: ignore[union-attr]
            try:
                sock.sendall(ping * 200)                          # answers pile up: nothing is read
            except OSError:                                       # dropped (reset), or the server's buffers full
                break
            time.sleep(0.01)
        for _ in range(500):
            if table.seats[seat["seat"]].conn is None:       # type: ignore[union-attr]
                break
            time.sleep(0.01)
        assert table.seats[seat["seat"]].conn is None, "the server kept a connection that reads nothing"  # type: ignore[union-attr]
        assert any("stopped reading" in r.getMessage() for r in caplog.records)
        sock.close()


def test_a_shutdown_closes_every_connection_with_1012(tmp_path):
    s = settings(tmp_path)
    srv = LiveServer(s)
    with srv:
        seat = srv.join("late", "coins")
        sock, head = handshake(srv.port, key=new_key())
        assert head.startswith(b"HTTP/1.1 101")
        sock.sendall(frame(0x1, ('{"type":"hello","table":"%s","seat":%d,"token":"%s"}'
                                 % (seat["table"], seat["seat"], seat["token"])).encode()))
        first = read_frames(sock, until_opcode=0x1)
        assert first and first[-1][0] == 0x1                 # the welcome
        srv.server.should_exit = True
        assert close_code(read_frames(sock, timeout=10)) == 1012
        sock.close()


def _play(tmp_path: Path, name: str, **config: Any) -> list[list[dict[str, Any]]]:
    s = settings(tmp_path / name, rounds=2)
    (tmp_path / name).mkdir()
    with LiveServer(s, **config) as srv:
        a, b = srv.join("alice", "beginner"), srv.join("bob", "beginner")

        async def main() -> list[Client]:
            ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)
            await ca.open()
            await cb.open()
            return await finish(ca, cb)

        clients = sorted(asyncio.run(main()), key=lambda c: c.seat["seat"])
    db = stored(s.db)
    for c in clients:
        assert c.events == db["streams"][(a["table"], c.seat["seat"])] and not c.errors
    return [engine_events(c.events) for c in clients]


def test_the_asgi_carrier_plays_the_same_match(tmp_path):
    """uvicorn's WebSocket protocol through the app's ASGI route and the server's own protocol:
    one session logic (server/session.py), the same match, event for event."""
    own = _play(tmp_path, "own")
    asgi = _play(tmp_path, "asgi", ws=GuardedWS)
    assert own == asgi and all(own)


def _hello(seat: dict[str, Any]) -> bytes:
    return json.dumps({"type": "hello", "table": seat["table"], "seat": seat["seat"], "token": seat["token"]}).encode()


def _request(port: int) -> bytes:
    return ("\r\n".join(["GET /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                         "Sec-WebSocket-Version: 13", f"Sec-WebSocket-Key: {new_key()}"]) + "\r\n\r\n").encode()


class Reader:
    """The server's frames on a raw socket, read as they come (the bytes after a frame are kept)."""

    def __init__(self, sock: socket.socket, head: bytes = b"") -> None:
        self.sock, self.buf = sock, head

    def frame(self, timeout: float = 5.0) -> tuple[int, bytes]:
        self.sock.settimeout(timeout)
        while True:
            buf = self.buf
            n, at = (buf[1] & 0x7F, 2) if len(buf) >= 2 else (0, 3)
            if n == 126:       # (the server's frames here are shorter than 64 KiB)
                n, at = (struct.unpack("!H", buf[2:4])[0], 4) if len(buf) >= 4 else (0, 5)
            if len(buf) >= at + n:
                self.buf = buf[at + n:]
                return buf[0] & 0x0F, buf[at:at + n]
            chunk = self.sock.recv(65536)
            assert chunk, "the stream ended"
            self.buf += chunk

    def texts(self, count: int) -> tuple[list[Any], list[bytes]]:
        """The next ``count`` text frames (decoded) and the control frames' payloads among them."""
        texts: list[Any] = []
        other: list[bytes] = []
        while len(texts) < count:
            op, payload = self.frame()
            (texts.append(json.loads(payload)) if op == 0x1 else other.append(bytes([op]) + payload))
        return texts, other

    def close_code(self) -> int:
        while True:
            op, payload = self.frame()
            if op == 0x8:
                return int(struct.unpack("!H", payload[:2])[0])


def _open(port: int, seat: dict[str, Any]) -> tuple[socket.socket, Reader]:
    """A raw WebSocket seated at ``seat``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    hello = frame(0x1, _hello(seat))
    sock.sendall(_request(port))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    head, _, rest = head.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    sock.sendall(hello)
    reader = Reader(sock, rest)
    assert [t["type"] for t in reader.texts(2)[0]] == ["welcome", "update"]
    return sock, reader


def test_frames_are_read_however_the_bytes_arrive(tmp_path):
    """The server reads a client's text frames itself (table_socket's direct path) and hands any
    other frame to the websockets protocol: several frames in one packet, a frame in single
    bytes, a 16-bit length, pings and fragments between them."""
    with LiveServer(settings(tmp_path)) as srv:
        sock, reader = _open(srv.port, srv.join("bytes", "coins"))
        ping = frame(0x1, b'{"type":"ping"}')
        sock.sendall(ping + ping + ping[:3])                     # two frames and the start of a third
        time.sleep(0.05)
        for b in ping[3:]:                                       # the rest in single bytes
            sock.send(bytes([b]))
            time.sleep(0.002)
        wide = frame(0x1, b'{"type":"ping"' + b" " * 300 + b"}")  # a 16-bit length
        control = frame(0x9, b"are you there")                  # a ping frame: answered by a pong frame
        parts = frame(0x1, b'{"type":', fin=False) + frame(0x9, b"mid") + frame(0x0, b'"ping"}')
        sock.sendall(wide[:1])
        time.sleep(0.05)
        sock.sendall(wide[1:] + control + parts + ping)
        texts, other = reader.texts(6)
        assert texts == [{"type": "pong"}] * 6, texts
        assert sorted(other) == [b"\x0aare you there", b"\x0amid"]
        sock.sendall(frame(0x8, struct.pack("!H", 1000)))          # the closing handshake, answered
        assert reader.close_code() == 1000
        sock.close()


@pytest.mark.parametrize("raw, code", [
    (lambda s: bytes([0x81, 0x80 | 127]) + struct.pack("!Q", s.max_message_bytes + 1) + os.urandom(64), 1009),
    (lambda s: bytes([0x81, 15]) + b'{"type":"ping"}', 1002),                   # not masked
    (lambda s: frame(0x2, b"\x00\x01"), None),                                 # binary: an error frame
    (lambda s: frame(0x1, b'{"type":"ping","x":"\xff"}'), 1007),                # not UTF-8
], ids=["too-big", "not-masked", "binary", "not-utf8"])
def test_a_frame_the_direct_path_does_not_take(tmp_path, raw, code):
    s = settings(tmp_path)
    with LiveServer(s) as srv:
        sock, reader = _open(srv.port, srv.join("refused", "coins"))
        sock.sendall(raw(s))
        if code is None:
            error = reader.texts(1)[0][0]
            assert error["type"] == "error" and "binary" in error["message"]
            sock.sendall(frame(0x1, b'{"type":"ping"}'))            # the connection goes on
            assert reader.texts(1)[0] == [{"type": "pong"}]
        else:
            assert reader.close_code() == code
        sock.close()


class FakeTransport:
    """What TableSocket writes, kept (uvicorn's transport without a socket)."""

    def __init__(self) -> None:
        self.out = b""
        self.closed = False

    def write(self, data: bytes) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else None

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True

    abort = close


@pytest.mark.parametrize("chunk", [0, 1, 7], ids=["one-packet", "single-bytes", "7-bytes"])
def test_frames_after_the_request_in_its_packet_are_read(tmp_path, chunk):
    """uvicorn hands TableSocket the opening request alone, but a carrier may pass the bytes after
    it too (a client that does not wait for the answer): the protocol reads the request and no
    byte more, the direct path the frames after it, however the bytes are cut."""
    s = settings(tmp_path, init=True)
    async def main() -> bytes:
        lobby = Lobby(s)
        try:
            seat = lobby.join("early", "coins")
            hub = table_socket.SessionHub(s, lambda: lobby)
            config = SimpleNamespace(sessions=hub, ws_per_message_deflate=False, ws_ping_interval=None,
                                     ws_ping_timeout=None, limits=SimpleNamespace(guard=ConnectionGuard(10, 10)))
            conn = table_socket.TableSocket(config, SimpleNamespace(connections=set()), {})
            transport = FakeTransport()
            conn.connection_made(transport)  # type: ignore[arg-type]
            data = _request(1) + frame(0x1, _hello(seat)) + frame(0x1, b'{"type":"ping"}')
            step = chunk or len(data)
            for i in range(0, len(data), step):
                conn.data_received(data[i:i + step])
            lobby.write_staged()
            return transport.out
        finally:
            lobby.close()

    out = asyncio.run(main())
    head, _, rest = out.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    reader = Reader(socket.socket(), rest)     # every frame is in rest: the socket is never read
    texts, _ = reader.texts(3)
    assert [t["type"] for t in texts] == ["welcome", "update", "pong"]
