"""The escape rules on real clocks and connections (shortened): away too long, a closed client,
too many disconnects, a forced quit; each settled with the room's penalty, the ledger total kept."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import FAST, Client, LiveServer, run_client, stored


def _settings(tmp_path: Path, **kw: Any) -> ServerSettings:
    base: dict[str, Any] = {"db": str(tmp_path / "esc.sqlite3"), "bots": True, "rounds": 4, "seed": 2,
                            "tick_s": 0.01, "act_timeout_s": 30.0, **FAST}
    base.update(kw)
    return ServerSettings(**base)


async def _wait_until(pred: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def _escape_settled(s: ServerSettings, table: str, name: str, reason: str) -> list[tuple[Any, ...]]:
    """The escape penalty ``name`` paid at ``table`` (the hand recorded as escaped, the ledger total kept)."""
    db = stored(s.db)
    assert sum(db["balances"].values()) == 2 * s.opening_balance
    assert db["tables"][table]["status"] == "over"
    assert reason in db["tables"][table]["end_reason"]
    rec = [h for h in db["hands"] if h[0] == table][-1][2]
    assert rec["reason"] == reason and rec["escaped"] is not None
    return [t for t in db["transfers"] if t[0] == table and t[5] == "escape_penalty" and t[2] == name]


def test_away_longer_than_the_limit_is_an_escape(tmp_path):
    s = _settings(tmp_path, away_limit_s=0.3)
    with LiveServer(s) as srv:
        seat, table = _seated(srv, "amy", "bamboo")

        async def script(c: Client) -> None:
            c.drop()                          # one disconnect (the room's limit is 3) ...
            t0 = time.monotonic()
            await _wait_until(lambda: table.status == "over")
            assert time.monotonic() - t0 >= 0.3      # ... then away past the limit
        run_client(srv, seat, script)
    paid = _escape_settled(s, seat["table"], "amy", "away")
    assert paid == [(seat["table"], 1, "amy", f"bot-{seat['table']}-1", 60, "escape_penalty")]   # 60 x base


def test_closing_the_client_is_an_escape_in_the_bamboo_room(tmp_path):
    s = _settings(tmp_path, reconnect_grace_s=0.3)
    with LiveServer(s) as srv:
        seat, table = _seated(srv, "ben", "bamboo")

        async def script(c: Client) -> None:
            # the clock starts before the close: the server sees the closing frame (and starts the
            # grace period) before close() returns from the closing handshake
            t0 = time.monotonic()
            await c.close(1000)
            await _wait_until(lambda: table.status == "over")
            assert time.monotonic() - t0 >= 0.3      # not back within the grace period (a reload is)
        run_client(srv, seat, script)
    assert len(_escape_settled(s, seat["table"], "ben", "closed_client")) == 1


def _seated(srv: LiveServer, name: str, room: str) -> tuple[dict[str, Any], Any]:
    """Join ``room`` (bots fill the other seat) and return the seat and its live table."""
    seat = srv.join(name, room)
    assert srv.lobby is not None
    return seat, srv.lobby.tables[seat["table"]]


def test_the_third_disconnect_in_a_hand_is_an_escape(tmp_path):
    s = _settings(tmp_path, away_limit_s=60.0)
    with LiveServer(s) as srv:
        seat, table = _seated(srv, "cat", "bamboo")

        async def script(c: Client) -> None:
            for n in (1, 2, 3):
                c.drop()
                await _wait_until(lambda n=n: table.tracker.disconnects[seat["seat"]] == n or table.status == "over")
                assert table.status == ("playing" if n < 3 else "over")
                if n < 3:
                    await c.resume()
            await _wait_until(lambda: table.status == "over")
        run_client(srv, seat, script)
    assert len(_escape_settled(s, seat["table"], "cat", "disconnects")) == 1


def test_a_forced_quit_pays_the_coins_penalty_half_to_the_system(tmp_path):
    s = _settings(tmp_path)
    with LiveServer(s) as srv:
        seat = srv.join("dan", "coins")

        async def script(c: Client) -> None:
            await c.send({"type": "quit"})
            while not c.over:
                await c.recv()
            assert [ev["type"] for ev in c.events[-3:]] == ["escape", "settlement", "match_end"]
            await c.close()
        run_client(srv, seat, script)
    paid = _escape_settled(s, seat["table"], "dan", "forced_quit")
    assert sorted((t[3], t[4]) for t in paid) == sorted([("system", 16), (f"bot-{seat['table']}-1", 16)])


def test_in_the_coins_room_closing_and_disconnecting_are_not_escapes(tmp_path):
    s = _settings(tmp_path, away_limit_s=0.05)
    with LiveServer(s) as srv:
        seat, table = _seated(srv, "eve", "coins")

        async def script(c: Client) -> None:
            for _ in range(4):
                c.drop()
                await asyncio.sleep(0.1)       # away past the limit: not counted in this room
                await c.resume()
            assert table.status == "playing" and table.tracker.disconnects[seat["seat"]] == 4
            await c.close(1000)
        run_client(srv, seat, script)
    assert not [t for t in stored(s.db)["transfers"] if t[5] == "escape_penalty"]
