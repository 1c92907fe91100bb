"""Slow, idle, hostile and too many clients (issue 26, items 6-8), with real sockets on the
loopback: idle and slow sockets are closed, the connection caps answer 429/503 while the others
play on, /api/join checks its origin, content type, rate and caps, and a lone surrogate or a
stalled body gets an answer, not a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
websockets = pytest.importorskip("websockets", reason="the server extra")
httpx = pytest.importorskip("httpx", reason="the server extra")

from mahjong_core.server import ServerSettings
from mahjong_core.server.limits import AddressBuckets, ConnectionGuard

from .harness import FAST, Client, LiveServer


def _settings(tmp_path: Path, **kw: Any) -> ServerSettings:
    base: dict[str, Any] = {"db": str(tmp_path / "limits.sqlite3"), "bots": True, "rounds": 2, "seed": 4,
                            "tick_s": 0.02, "act_timeout_s": 30.0, **FAST}
    base.update(kw)
    return ServerSettings(**base)


def _raw(srv: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", srv.port), timeout=10)


def _read_until_closed(sock: socket.socket, timeout: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when that was."""
    sock.settimeout(timeout)
    t0 = time.monotonic()
    data = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except ConnectionResetError:
        pass
    return data, time.monotonic() - t0


# ------------------------------------------------------------------ item 6: idle and slow sockets
def test_an_idle_socket_and_a_slow_sender_are_closed(tmp_path):
    s = _settings(tmp_path, header_timeout_s=0.5)
    with LiveServer(s) as srv:
        idle = _raw(srv)                                     # says nothing at all
        data, took = _read_until_closed(idle, 5.0)
        assert 0.4 < took < 3.0 and data.startswith(b"HTTP/1.1 408"), (data, took)
        idle.close()
        slow = _raw(srv)                                     # a head dribbled a byte at a time
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        t0 = time.monotonic()
        closed = False
        for ch in b"X-Slow: " + b"a" * 200:
            try:
                slow.sendall(bytes([ch]))
            except OSError:
                closed = True
                break
            slow.settimeout(0.05)
            try:
                if slow.recv(4096) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
            except OSError:
                closed = True
                break
        took = time.monotonic() - t0
        slow.close()
        assert closed and took < 3.0, took
        # a keep-alive connection: its next request head has the same deadline
        kept = _raw(srv)
        kept.sendall(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
        kept.settimeout(5)
        assert kept.recv(65536).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/rooms HTTP/1.1\r\n")           # ... and then nothing more
        data, took = _read_until_closed(kept, 5.0)
        assert took < 3.0
        kept.close()
        # the server still serves
        assert httpx.get(srv.base + "/api/rooms", timeout=10).status_code == 200


def test_the_connection_caps_refuse_extra_connections_while_the_others_play(tmp_path):
    s = _settings(tmp_path, header_timeout_s=30.0, max_connections_per_address=4)
    with LiveServer(s) as srv:
        seat = srv.join("mia", "coins")

        async def main() -> None:
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.recv()
            idle = [_raw(srv) for _ in range(3)]             # with the player's WebSocket: 4 open
            await asyncio.sleep(0.2)
            refused = _raw(srv)
            data, _ = _read_until_closed(refused, 5.0)
            refused.close()
            assert data.startswith(b"HTTP/1.1 429") and b"too many connections from your address" in data, data
            with pytest.raises(websockets.InvalidStatus) as ws_refused:   # a WebSocket client sees the status
                await websockets.connect(srv.ws_url)
            assert ws_refused.value.response.status_code == 429
            # the player plays on meanwhile
            await c.play(lambda c: len(c.events) > 40)
            for sock in idle:
                sock.close()
            await asyncio.sleep(0.3)
            assert httpx.get(srv.base + "/api/rooms", timeout=10).status_code == 200   # room again
            await c.close()

        asyncio.run(main())
    s = _settings(tmp_path, header_timeout_s=30.0, max_connections=3, max_connections_per_address=0,
                  db=str(tmp_path / "total.sqlite3"))
    with LiveServer(s) as srv:
        idle = [_raw(srv) for _ in range(3)]
        time.sleep(0.2)
        data, _ = _read_until_closed(_raw(srv), 5.0)
        assert data.startswith(b"HTTP/1.1 503") and b"the server is full" in data, data
        for sock in idle:
            sock.close()
        time.sleep(0.3)
        assert httpx.get(srv.base + "/api/rooms", timeout=10).status_code == 200


def test_connection_guard_and_address_buckets_count_exactly():
    g = ConnectionGuard(total=3, per_address=2)
    assert g.admit("a1", "A") is None and g.admit("a2", "A") is None
    assert g.admit("a3", "A").startswith(b"HTTP/1.1 429")      # type: ignore[union-attr]
    assert g.admit("b1", "B") is None
    assert g.admit("c1", "C").startswith(b"HTTP/1.1 503")      # type: ignore[union-attr]
    g.release("a1", "A")
    g.release("a1", "A")                                        # twice: counted once
    assert g.count == 2 and g.admit("c1", "C") is None
    buckets = AddressBuckets(rate=1.0, burst=2, keep=2)
    assert [buckets.allow("x", 0.0) for _ in range(3)] == [True, True, False]
    assert buckets.retry_after("x") == 1 and buckets.allow("x", 1.0)
    buckets.allow("y", 0.0)
    buckets.allow("z", 10.0)                                    # over `keep`: the refilled ones go
    assert set(buckets.buckets) <= {"x", "y", "z"} and len(buckets.buckets) <= 2


# ------------------------------------------------------------------ item 7: /api/join
def _post(srv: LiveServer, body: Any, **headers: str) -> httpx.Response:
    return httpx.post(srv.base + "/api/join", content=json.dumps(body).encode(),
                      headers={"content-type": "application/json", **headers}, timeout=10)


def test_join_refuses_other_sites_and_non_json_bodies(tmp_path):
    s = _settings(tmp_path, allowed_origins=("https://play.example.org",))
    with LiveServer(s) as srv:
        r = _post(srv, {"name": "nia", "room": "coins"}, origin="http://evil.example")
        assert r.status_code == 403 and "origin" in r.json()["error"]
        r = httpx.post(srv.base + "/api/join", content=b'{"name": "nia", "room": "coins"}',
                       headers={"content-type": "text/plain", "origin": srv.base}, timeout=10)
        assert r.status_code == 415 and "application/json" in r.json()["error"]   # the cross-site form's POST
        assert _post(srv, {"name": "nia", "room": "coins"}, origin=srv.base).status_code == 200
        assert _post(srv, {"name": "ole", "room": "coins"}, origin="https://play.example.org").status_code == 200
        assert _post(srv, {"name": "pia", "room": "coins"}).status_code == 200     # no Origin: not a browser
        assert srv.lobby is not None and len(srv.lobby.tables) == 3


def test_join_is_rate_limited_and_capped_per_address_and_in_total(tmp_path):
    s = _settings(tmp_path, join_burst=3, join_rate_per_min=1.0, max_seats_per_address=10_000)
    with LiveServer(s) as srv:
        codes = [_post(srv, {"name": f"r{n}", "room": "coins"}).status_code for n in range(3)]
        r = _post(srv, {"name": "r3", "room": "coins"})
        assert codes == [200, 200, 200] and r.status_code == 429
        assert "too many joins" in r.json()["error"] and int(r.headers["retry-after"]) >= 1
    s = _settings(tmp_path, db=str(tmp_path / "seats.sqlite3"), max_seats_per_address=2)
    with LiveServer(s) as srv:
        assert [_post(srv, {"name": f"s{n}", "room": "coins"}).status_code for n in range(2)] == [200, 200]
        r = _post(srv, {"name": "s2", "room": "coins"})
        assert r.status_code == 429 and "seats at open tables" in r.json()["error"]
        assert srv.lobby is not None and len(srv.lobby.tables) == 2
    s = _settings(tmp_path, db=str(tmp_path / "tables.sqlite3"), max_tables=2)
    with LiveServer(s) as srv:
        assert [_post(srv, {"name": f"t{n}", "room": "coins"}).status_code for n in range(2)] == [200, 200]
        r = _post(srv, {"name": "t2", "room": "coins"})
        assert r.status_code == 429 and "open tables" in r.json()["error"]
        assert srv.lobby is not None and len(srv.lobby.tables) == 2 and "t2" not in srv.lobby.points


# ------------------------------------------------------------------ item 8: lone surrogates, stalled bodies
def test_a_lone_surrogate_gets_an_error_frame_not_a_traceback(tmp_path, caplog):
    s = _settings(tmp_path)
    with LiveServer(s) as srv, caplog.at_level(logging.ERROR):
        seat = srv.join("quin", "coins")

        async def main() -> None:
            # JSON's \\ud800 escape decodes to a lone surrogate: valid JSON, not valid text
            hellos = [json.dumps({"type": "hello", "table": seat["table"], "seat": seat["seat"], "token": "\ud800"}),
                      json.dumps({"type": "hello", "table": "\udfff", "seat": seat["seat"], "token": seat["token"]})]
            for text in hellos:
                ws = await websockets.connect(srv.ws_url)
                await ws.send(text)
                frame = json.loads(await ws.recv())
                assert frame["type"] == "error" and "lone surrogate" in frame["message"], frame
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            c = Client(srv.ws_url, seat)                       # the seat itself is unharmed
            await c.open()
            await c.recv()
            await c.send('{"type": "act", "index": 0, "x\\udc80": 1}')
            assert (await c.recv())["type"] == "error"
            await c.close()
            for history in ("é" * 32, "\u0000", "0" * 256):   # any text as a history: a reset, no error
                again = Client(srv.ws_url, seat)
                again.events = list(c.events)
                welcome = await again.open(history=history)
                assert welcome["reset"] and welcome["resume_from"] == 0
                await again.close()

        asyncio.run(main())
        r = _post(srv, {"name": "\ud800", "room": "coins"})
        assert r.status_code == 400 and "name must be" in r.json()["error"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_stalled_body_is_answered_408(tmp_path):
    s = _settings(tmp_path, body_timeout_s=0.4)
    with LiveServer(s) as srv:
        sock = _raw(srv)
        sock.sendall(b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 40\r\n\r\n{\"name\": ")       # ... and the rest never comes
        data, took = _read_until_closed(sock, 5.0)
        sock.close()
        assert data.startswith(b"HTTP/1.1 408") and b"did not arrive" in data and took < 3.0, (data, took)
        assert _post(srv, {"name": "ray", "room": "coins"}).status_code == 200
