"""Hostile clients: malformed, illegal, oversized and flooding messages and bad tokens get an error
frame or a closed connection; the table's state never changes and the server keeps serving."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
websockets = pytest.importorskip("websockets", reason="the server extra")

from mahjong_core.server import ServerSettings
from mahjong_core.server.protocol import ProtocolError, RateLimit, act_index, parse_message

from .harness import Client, LiveServer

BAD = [
    "not json", "[1, 2]", "null", '"act"', "{}", '{"type": "nope"}', '{"type": "act"}',
    '{"type": "act", "index": true}', '{"type": "act", "index": 1.0}', '{"type": "act", "index": -1}',
    '{"type": "act", "index": 99999999999999999999}', '{"type": "act", "index": "3"}',
    '{"type": "act", "index": 3, "seat": 1}', '{"type": "act", "index": NaN}', "[" * 1500 + "]" * 1500,
    '{"type": "hello", "table": "t1", "seat": 0, "token": "x"}', b"\x00\x01binary",
]


def _settings(tmp_path: Path, **kw: Any) -> ServerSettings:
    base: dict[str, Any] = {"db": str(tmp_path / "hostile.sqlite3"), "bots": True, "rounds": 1, "seed": 4,
                            "tick_s": 0.02, "act_timeout_s": 30.0, "max_errors": 50}
    base.update(kw)
    return ServerSettings(**base)


@pytest.mark.parametrize("text", ["x", "[]", '{"type": "ping", "extra": 1}', '{"type": "act", "index": 1e3}',
                                  '{"type": "hello", "table": "", "seat": 0, "token": "t"}',
                                  '{"type": "hello", "table": "t", "seat": 0, "token": "' + "a" * 300 + '"}'])
def test_parse_message_refuses(text):
    with pytest.raises(ProtocolError):
        parse_message(text)


def test_parse_message_accepts_the_protocol():
    assert parse_message('{"type": "act", "index": 5}') == {"type": "act", "index": 5}
    assert parse_message('{"type": "hello", "table": "t1", "seat": 1, "token": "abc", "last_event_id": 7}')["seat"] == 1


def _decoded(text: str) -> dict[str, Any] | None:
    """An act message through the JSON decoder and the protocol's checks (None: refused)."""
    try:
        msg = json.loads(text, parse_constant=float)
    except ValueError:
        return None
    if (isinstance(msg, dict) and set(msg) == {"type", "index"} and msg["type"] == "act"
            and type(msg["index"]) is int and 0 <= msg["index"] < 1 << 31):
        return msg
    return None


def test_an_act_is_read_as_the_decoder_reads_it():
    """parse_message reads the act messages clients write without the JSON decoder (protocol.py's
    _ACT): the same message, or the same refusal, as the decoder and the checks give, for act
    texts and texts one, two or three edits away from one."""
    import random
    rng = random.Random(26)
    texts = ['{"type":"act","index":3}', '{"type": "act", "index": 12}', ' {"type":"act","index":3}\n',
             '{"type":"act","index":03}', '{"type":"act","index":2147483647}', '{"type":"act","index":2147483648}',
             '{"type":"act","index":99999999999}', '{"type":"act","index":3}x', '{"index":3,"type":"act"}',
             '{"type":"act","index":3,"index":4}', '{"type":"act"\u00a0,"index":3}', '{"type":"act","index":\u0663}']
    alphabet = '{}":,actypeindx0123456789 \t\n-.eE\u00a0'
    for _ in range(20_000):
        text = list(f'{{"type":"act","index":{rng.randrange(200)}}}')
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(text) + 1)
            op = rng.randrange(3)
            if op == 0:
                text.insert(i, rng.choice(alphabet))
            elif op == 1 and text:
                del text[min(i, len(text) - 1)]
            elif text:
                text[min(i, len(text) - 1)] = rng.choice(alphabet)
        texts.append("".join(text))
    for text in texts:
        try:
            got: dict[str, Any] | None = parse_message(text)
        except ProtocolError:
            got = None
        # act_index, the seated session's reading: the act's index, or None for the decoder to read it
        index = act_index(text)
        assert index is None or got == {"type": "act", "index": index}, text
        if got is not None and got["type"] != "act":
            continue     # an edit that made another valid message (checked by the tests above)
        assert got == _decoded(text), text


def test_an_act_as_clients_write_it_skips_the_decoder(monkeypatch):
    from mahjong_core.server import protocol

    class NoDecoder:
        def decode(self, text: str) -> Any:
            raise AssertionError(f"decoded {text!r}")

    monkeypatch.setattr(protocol, "_DECODER", NoDecoder())
    assert parse_message('{"type":"act","index":7}') == {"type": "act", "index": 7}          # the web table's
    assert parse_message('{"type": "act", "index": 0}') == {"type": "act", "index": 0}       # Python's json.dumps
    with pytest.raises(AssertionError):
        parse_message('{"index": 7, "type": "act"}')     # any other order: the decoder's


def test_a_seated_session_reads_an_act_without_the_message_dict(monkeypatch):
    """A seated connection's act as clients write it goes to Table.act without parse_message (its
    dict); any other message, and an act before the hello, still go through it."""
    from types import SimpleNamespace

    from mahjong_core.server import protocol, session

    acted: list[tuple[int, int]] = []
    sent: list[str] = []
    table = SimpleNamespace(act=lambda k, i: acted.append((k, i)))
    conn = SimpleNamespace(closing=False, send=sent.append, error=sent.append, close=lambda code, reason: None)
    s = session.Session(conn, SimpleNamespace(tables={}), ServerSettings(), now=0.0)  # type: ignore[arg-type]
    parsed: list[str] = []

    def counted(text: str) -> dict[str, Any]:
        parsed.append(text)
        return protocol.parse_message(text)

    monkeypatch.setattr(session, "parse_message", counted)
    s.received('{"type":"act","index":4}', 0.0)         # not seated: the hello is asked for
    assert parsed and not acted and sent == ["the first message must be a hello with the seat's token"]
    parsed.clear()
    s.seated = (table, 1)   # type: ignore[assignment]
    s.received('{"type":"act","index":4}', 0.0)
    s.received('{"type": "act", "index": 0}', 0.0)
    assert acted == [(1, 4), (1, 0)] and not parsed
    s.received('{"index": 2, "type": "act"}', 0.0)      # another order: the decoder's, the same act
    assert acted[-1] == (1, 2) and parsed == ['{"index": 2, "type": "act"}']


def test_rate_limit_is_a_token_bucket():
    r = RateLimit(10.0, 3, now=0.0)
    assert [r.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert r.allow(0.1) and not r.allow(0.1)


def test_bad_messages_get_error_frames_and_change_nothing(tmp_path):
    s = _settings(tmp_path)
    with LiveServer(s) as srv:
        seat = srv.join("mallory", "coins")
        table = srv.lobby.tables[seat["table"]]  # type: ignore[union-attr]

        async def main() -> None:
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.recv()
            assert c.state is not None
            before, n_events = table.match.to_json(), len(c.events)   # type: ignore[union-attr]
            view = c.state["view"]
            illegal = next(i for i in range(110) if i not in view["legal_indices"])
            for msg in [*BAD, json.dumps({"type": "act", "index": illegal})]:
                await c.send(msg)
                frame = await c.recv()
                assert frame["type"] == "error", (msg, frame)
            assert len(c.errors) == len(BAD) + 1
            assert table.match.to_json() == before and len(table.seats[seat["seat"]].stream) == n_events  # type: ignore[union-attr]
            # still connected and served: a legal action is played
            if view["legal_indices"]:
                await c.send({"type": "act", "index": view["legal_indices"][0]})
                frame = await c.recv()
                assert frame["type"] == "update" and frame["events"]
            await c.send({"type": "ping"})
            while (await c.recv())["type"] != "pong":
                pass
            await c.close()

        asyncio.run(main())


async def _closed_code(ws: Any) -> int:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    except websockets.ConnectionClosed as exc:
        assert exc.rcvd is not None
        return int(exc.rcvd.code)


def test_oversized_flooding_and_unauthenticated_connections_are_closed(tmp_path):
    s = _settings(tmp_path, hello_timeout_s=0.2, burst=10, rate_per_s=5.0)
    with LiveServer(s) as srv:
        seat = srv.join("trudy", "coins")
        table = srv.lobby.tables[seat["table"]]  # type: ignore[union-attr]

        async def main() -> None:
            before = table.match.to_json()   # type: ignore[union-attr]
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.send('{"type": "ping", "pad": "' + "x" * 5000 + '"}')       # > max_message_bytes
            assert await _closed_code(c.ws) == 1009
            await c.open()
            for _ in range(60):                                                 # > burst + refill
                await c.send({"type": "ping"})
            assert await _closed_code(c.ws) == 1008
            for hello in ({"type": "hello", "table": seat["table"], "seat": seat["seat"], "token": "wrong"},
                          {"type": "hello", "table": "t999", "seat": 0, "token": seat["token"]},
                          {"type": "hello", "table": seat["table"], "seat": 7, "token": seat["token"]},
                          {"type": "hello", "table": seat["table"], "seat": 1 - seat["seat"], "token": seat["token"]},
                          {"type": "act", "index": 0}):
                ws = await websockets.connect(srv.ws_url)
                await ws.send(json.dumps(hello))
                frame = json.loads(await ws.recv())
                assert frame["type"] == "error" and "token" in frame["message"], frame
                assert await _closed_code(ws) == 1008
            ws = await websockets.connect(srv.ws_url)                          # says nothing
            assert await _closed_code(ws) == 1008
            assert table.match.to_json() == before   # type: ignore[union-attr]
            # the seat still plays
            await c.open()
            await c.recv()
            await c.close()

        asyncio.run(main())
    raw = Path(s.db).read_bytes() + b"".join(p.read_bytes() for p in Path(s.db).parent.glob("*-wal"))
    assert seat["token"].encode() not in raw      # only its hash is stored
