"""The server under real WebSocket clients on the loopback: full matches, bots filling seats,
reconnect and resume, the act timeout, and what the database holds afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
websockets = pytest.importorskip("websockets", reason="the server extra")
pytest.importorskip("httpx", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import (
    FAST,
    Client,
    LiveServer,
    engine_events,
    engine_streams,
    finish,
    run_client,
    stored,
)


def settings(tmp_path: Path, **kw: object) -> ServerSettings:
    base: dict[str, object] = {"db": str(tmp_path / "server.sqlite3"), "bots": False, "rounds": 2, "seed": 11,
                               "tick_s": 0.02, **FAST}
    base.update(kw)
    return ServerSettings(**base)  # type: ignore[arg-type]


def check_streams(db: dict, table: str, clients: list[Client]) -> None:
    """Every client got exactly its stored stream, whose engine part is the engine's redaction
    of every round of the stored match (nothing another seat may not see, nothing lost)."""
    match_json = db["tables"][table]["match"]
    for c in clients:
        k = c.seat["seat"]
        assert c.events == db["streams"][(table, k)]
        assert engine_events(c.events) == engine_streams(match_json, k)


def test_two_clients_play_a_match_with_settlement_after_every_round(tmp_path):
    s = settings(tmp_path, rounds=3)
    with LiveServer(s) as srv:
        a, b = srv.join("alice", "beginner"), srv.join("bob", "beginner")
        assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}

        async def main() -> list[Client]:
            ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)
            await ca.open()
            await cb.open()
            return await finish(ca, cb)

        clients = asyncio.run(main())
    db = stored(s.db)
    check_streams(db, a["table"], clients)
    for c in clients:
        kinds = [ev["type"] for ev in c.events]
        assert kinds.count("round_start") == 3 and kinds.count("settlement") == 3
        assert kinds[0] == "match_start" and kinds[-1] == "match_end"
        assert c.state is not None and c.state["status"] == "over" and not c.errors
    assert len(db["hands"]) == 3
    # the ledger: deposits in, nothing created or lost by the hands
    assert sum(db["balances"].values()) == 2 * s.opening_balance
    last = [ev for ev in clients[0].events if ev["type"] == "settlement"][-1]
    assert last["balances"] == {n: db["balances"][n] for n in ("alice", "bob")}
    moved = sum(t[4] for t in db["transfers"] if t[5] == "win")
    assert moved == sum(ev.get("total") or 0 for ev in clients[0].events if ev["type"] == "settlement") * 15


def bot_match(tmp_path: Path, name: str, room: str, **kw: Any) -> tuple[ServerSettings, dict, Client, dict]:
    """One client plays a whole match against the bots that fill the table; its stream checked."""
    s = settings(tmp_path, bots=True, **kw)
    with LiveServer(s) as srv:
        a = srv.join(name, room)
        c = run_client(srv, a, finish)
    db = stored(s.db)
    check_streams(db, a["table"], [c])
    return s, a, c, db


def test_bots_fill_the_empty_seats_and_a_win_shows_its_fans(tmp_path):
    s, a, c, db = bot_match(tmp_path, "carol", "bamboo", rounds=3, seed=3)
    assert c.state is not None and [p["bot"] for p in c.state["players"]] == [a["seat"] == 1, a["seat"] == 0]
    wins = [ev for ev in c.events if ev["type"] == "settlement" and ev["winner"] is not None]
    assert wins, "seed 3 has a won round"
    for ev in wins:
        assert ev["fans"] and all(f["zh"] and f["en"] and f["points"] > 0 for f in ev["fans"])
        assert ev["levels"][ev["balances"] and next(iter(ev["balances"]))]["zh"]
    assert sum(db["balances"].values()) == 2 * s.opening_balance


def test_reconnect_resumes_after_the_last_event_id(tmp_path):
    s = settings(tmp_path, rounds=1, seed=5)
    with LiveServer(s) as srv:
        a, b = srv.join("dave", "coins"), srv.join("erin", "coins")

        async def main() -> list[Client]:
            ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)
            await ca.open()
            await cb.open()
            # play 20 events, drop dave's connection, let erin play on alone while dave is away
            await asyncio.gather(ca.play(lambda c: len(c.events) > 40), cb.play(lambda c: len(c.events) > 40))
            ca.drop()                     # no close frame: a lost connection
            seen = list(ca.events)
            # a second connection of the same seat from scratch gets the whole stream again ...
            fresh = Client(srv.ws_url, a)
            await fresh.open(last_id=0)
            await fresh.recv()
            assert fresh.events[:len(seen)] == seen
            # ... and replaces the first (closed with 4000: not a disconnect of the seat)
            other = Client(srv.ws_url, a)
            await other.open(last_id=len(seen))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await fresh.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
            await other.close()
            # ... and the first client resumes where it stopped: the harness checks id continuity
            await ca.open()
            return await finish(ca, cb)

        clients = asyncio.run(main())
    check_streams(stored(s.db), a["table"], clients)


def test_a_seat_that_does_not_act_gets_the_bot_and_the_match_still_ends(tmp_path):
    s = settings(tmp_path, bots=True, rounds=1, act_timeout_s=0.02)
    with LiveServer(s) as srv:
        a = srv.join("frank", "coins")

        async def idle(c: Client) -> None:
            while not c.over:       # never acts
                await c.recv()
            await c.close()

        c = run_client(srv, a, idle)
    assert c.events[-1]["type"] == "match_end"
    check_streams(stored(s.db), a["table"], [c])


def test_join_checks_names_rooms_entry_limits_and_double_seating(tmp_path):
    import httpx

    s = settings(tmp_path, opening_balance=500)
    with LiveServer(s) as srv:
        def post(body: object) -> httpx.Response:
            return httpx.post(srv.base + "/api/join", json=body, timeout=10)

        assert post({"name": "x" * 33, "room": "coins"}).status_code == 400
        assert post({"name": "system", "room": "coins"}).status_code == 400
        assert post({"name": "bot-t1-0", "room": "coins"}).status_code == 400
        assert post({"name": "gina", "room": "nowhere"}).status_code == 400
        r = post({"name": "gina", "room": "beginner"})        # 500 < the beginner room's 1,000
        assert r.status_code == 400 and "at least 1,000" in r.json()["error"]
        assert post({"name": "gina", "room": "coins"}).status_code == 200
        assert "already seated" in post({"name": "gina", "room": "coins"}).json()["error"]
        json_type = {"content-type": "application/json"}
        assert httpx.post(srv.base + "/api/join", content=b"[" * 5000, headers=json_type, timeout=10).status_code == 413
        assert httpx.post(srv.base + "/api/join", content=b"{nope", headers=json_type, timeout=10).status_code == 400
        rooms = httpx.get(srv.base + "/api/rooms", timeout=10).json()["rooms"]
        assert {r["name"] for r in rooms} >= {"beginner", "coins", "bamboo", "public"}
        assert httpx.get(srv.base + "/api/accounts/gina", timeout=10).json()["balance"] == 500
        page = httpx.get(srv.base + "/", timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()


def test_a_four_player_public_table_with_three_bots(tmp_path):
    s, _, c, db = bot_match(tmp_path, "jin", "public", rounds=1, seed=6)
    assert c.state is not None and sum(p["bot"] for p in c.state["players"]) == 3
    assert [ev["type"] for ev in c.events].count("settlement") == 1
    assert sum(db["balances"].values()) == 4 * s.opening_balance
