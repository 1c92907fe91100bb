"""Restart recovery: a server stopped mid-round comes back from its SQLite database with every
table exactly where it was (the match loaded through the validated ``Match.from_json``), the
ledger total unchanged, and the clients resume their streams without a gap or a repeat."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")

from mahjong_core.server import ServerSettings

from .harness import FAST, Client, LiveServer, finish, stored
from .test_server_play import check_streams


def test_a_restart_mid_round_resumes_every_table_exactly(tmp_path):
    s = ServerSettings(db=str(tmp_path / "restart.sqlite3"), bots=False, rounds=2, seed=21, tick_s=0.02,
                       **FAST)
    with LiveServer(s) as srv:
        a, b = srv.join("hana", "bamboo"), srv.join("ivan", "bamboo")
        ca, cb = Client(srv.ws_url, a), Client(srv.ws_url, b)

        async def first() -> None:
            await ca.open()
            await cb.open()
            mid = lambda c: len(ca.events) > 40 or len(cb.events) > 40
            await asyncio.gather(ca.play(mid), cb.play(mid))

        asyncio.run(first())
        assert srv.lobby is not None
        table = srv.lobby.tables[a["table"]]
        before = table.match.to_json() if table.match else None
        streams = [list(table.seats[k].stream) for k in (0, 1)]   # type: ignore[union-attr]
        total = srv.lobby.ledger.total
        assert table.match is not None and not table.match.round.is_over and table.match.round_index == 0
    # stopped: the database holds the round as it was after its last step
    db = stored(s.db)
    assert db["tables"][a["table"]]["match"] == before
    assert db["tables"][a["table"]]["disconnects"] == [0, 0]      # a server restart is nobody's disconnect
    with LiveServer(s) as srv:
        assert srv.lobby is not None
        again = srv.lobby.tables[a["table"]]
        assert again.match is not None and again.match.to_json() == before
        assert json.loads(again.match.to_json())["round"] == json.loads(before)["round"]
        assert [again.seats[k].stream for k in (0, 1)] == streams          # type: ignore[union-attr]
        assert srv.lobby.ledger.total == total
        ca.url = cb.url = srv.ws_url

        async def second() -> None:
            await ca.open()            # resume from the last event each client holds
            await cb.open()
            await finish(ca, cb)

        asyncio.run(second())
    db = stored(s.db)
    check_streams(db, a["table"], [ca, cb])
    assert len(db["hands"]) == 2 and sum(db["balances"].values()) == total == 2 * s.opening_balance
