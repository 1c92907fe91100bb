"""Issue 28 item 1: the server hosts the long-card family (``changpai-ydr``) as it hosts mahjong,
through the registry: its rooms are offered and joined, the family's bots fill the seats, every
hand is settled in points by the room's mode (spec 5: 梯坎番 N + 1, 番乘番 2^N, 包子 paid by the
offender), each seat's stream is the round's own redaction (8.3), and the store, a restart and
the escape clocks work for its tables as for mahjong's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("uvicorn", reason="the server extra")
pytest.importorskip("websockets", reason="the server extra")
httpx = pytest.importorskip("httpx", reason="the server extra")

from mahjong_core.errors import UnsupportedError
from mahjong_core.server import ServerSettings
from mahjong_core.server.games import hosted_rooms, served_family
from mahjong_core.settlement import ROOMS

from .harness import FAST, Client, LiveServer, engine_events, engine_streams, stored

POINTS = {"changpai": lambda n: n + 1, "changpai-fcf": lambda n: 2 ** n}
"""What one other seat pays for N fan in each long-card room (spec 5.1)."""


def settings(tmp_path: Path, **kw: Any) -> ServerSettings:
    base: dict[str, Any] = {"db": str(tmp_path / "lc.sqlite3"), "bots": True, "rounds": 2, "seed": 2,
                            "tick_s": 0.02, **FAST}
    base.update(kw)
    return ServerSettings(**base)


def check_settled_in_points(db: dict[str, Any], room: str, table: str) -> None:
    """Every hand's transfers are the room's points for its fan: a win paid to the winner by each
    other seat, a 包子 paid by the offender to each other seat, nothing else; the ledger is whole."""
    names = None
    for t, k, record in db["hands"]:
        if t != table:
            continue
        paid = [(p, q, amount, reason) for (tt, kk, p, q, amount, reason) in db["transfers"] if (tt, kk) == (t, k)]
        points = POINTS[room](record["total"])
        if record["end"] == "win":
            assert len(paid) == 2 and {(q, amount, reason) for _, q, amount, reason in paid} == {
                (paid[0][1], points, "win")}, (record, paid)
        elif record["end"] == "baozi":
            assert len(paid) == 2 and {(p, amount, reason) for p, _, amount, reason in paid} == {
                (paid[0][0], points, "baozi")}, (record, paid)
        else:
            assert paid == [], (record, paid)
        names = names or record
    assert names is not None, "no hand was settled"


async def play_out(c: Client, until: Any = None) -> Client:
    await c.open()
    await c.recv()
    await c.play(until, timeout=60)
    return c


def test_the_long_card_rooms_are_offered_and_joined(tmp_path):
    """/api/rooms lists the long-card rooms with their family and mode; /api/join seats a player
    (400 before: the server hosted the default family's rooms only); the welcome names the family,
    its web table's files (served) and its glossary; a seat's view says which choice incurs 包子."""
    assert {"changpai", "changpai-fcf"} <= set(hosted_rooms())
    with LiveServer(settings(tmp_path)) as srv:
        rooms = {r["name"]: r for r in httpx.get(srv.base + "/api/rooms", timeout=10).json()["rooms"]}
        assert rooms["changpai"]["family"] == "longcard" and rooms["changpai"]["profile"] == "tikan"
        assert rooms["changpai-fcf"]["profile"] == "fan_cheng_fan" and rooms["changpai"]["players"] == 3
        assert rooms["coins"]["family"] == "mahjong" and rooms["coins"]["web"] is None
        seat = srv.join("lena", "changpai")
        assert seat["ruleset"] == "changpai-ydr" and seat["family"] == "longcard"
        for name in ("table.js", "table.css"):
            got = httpx.get(srv.base + rooms["changpai"]["web"] + name, timeout=10)
            assert got.status_code == 200 and got.text.strip(), name

        async def main() -> tuple[dict[str, Any], Client]:
            c = Client(srv.ws_url, seat)
            welcome = await c.open()
            await c.recv()
            await c.close()
            return welcome, c

        welcome, c = asyncio.run(main())
    assert welcome["family"] == "longcard" and welcome["web"] == "/family/longcard/"
    faces = welcome["glossary"]["faces"]
    assert len(faces) == 21 and faces[20]["zh"] == "天牌" and faces[20]["pips"] == [6, 6]
    assert welcome["glossary"]["causes"]["B2"] == "未必进必打"
    assert c.state is not None
    view = c.state["view"]
    assert view["ruleset"] == "changpai-ydr" and len(view["baozi"]) == len(view["legal_indices"])
    assert all(b is None or b in welcome["glossary"]["causes"] for b in view["baozi"])
    # nothing of another seat's concealed cards: the deal events of the stream are the seat's own
    deals = [ev for ev in c.events if ev["type"] == "deal"]
    assert [ev["seat"] for ev in deals] == [seat["seat"]]


@pytest.mark.parametrize("room", ["changpai", "changpai-fcf"])
def test_a_long_card_match_against_the_bots_settles_in_points(tmp_path, room):
    """A whole match over the loopback: one player, the family's bots in the other seats; each hand
    settled by the room's mode, the stream the round's redaction of every hand, the ledger whole."""
    s = settings(tmp_path, rounds=2, seed=3)
    with LiveServer(s) as srv:
        seat = srv.join("mira", room)
        c = asyncio.run(play_out(Client(srv.ws_url, seat)))
    assert c.state is not None and c.state["status"] == "over" and not c.errors
    assert sum(p["bot"] for p in c.state["players"]) == 2
    db = stored(s.db)
    match_json = db["tables"][seat["table"]]["match"]
    assert json.loads(match_json)["ruleset"] == "changpai-ydr"
    assert c.events == db["streams"][(seat["table"], seat["seat"])]
    assert engine_events(c.events) == engine_streams(match_json, seat["seat"])
    kinds = [ev["type"] for ev in c.events]
    assert kinds[0] == "match_start" and kinds[-1] == "match_end"
    settled = [ev for ev in c.events if ev["type"] == "settlement"]
    assert len(settled) == len(db["hands"]) >= 2
    assert all(ev["end"] in ("win", "baozi", "huangzhuang", "void") for ev in settled)
    assert sum(ev["counts"] for ev in settled) == 2              # the match counts its hands (spec 3.14)
    check_settled_in_points(db, room, seat["table"])
    assert sum(db["balances"].values()) == 3 * s.opening_balance
    assert settled[-1]["balances"] == {n: db["balances"][n] for n in settled[-1]["balances"]}


def test_a_long_card_table_resumes_after_a_restart(tmp_path):
    """The server stops in the middle of a hand and starts again from its database: the table, its
    match and the seat's stream are as stored; the player resumes and finishes the match."""
    s = settings(tmp_path, rounds=2, seed=4)
    with LiveServer(s) as srv:
        seat = srv.join("nils", "changpai")
        c = asyncio.run(play_out(Client(srv.ws_url, seat), until=lambda c: len(c.events) > 40))
        assert srv.lobby is not None
        before = srv.lobby.tables[seat["table"]]
        assert before.status == "playing"
        match_before = before.match.to_json()
    with LiveServer(s) as srv:
        assert srv.lobby is not None
        table = srv.lobby.tables[seat["table"]]
        assert type(table.match).__name__ == "LongcardMatch" and table.match.to_json() == match_before
        assert table.seats[seat["seat"]].stream == [json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
                                                    for ev in c.events]

        async def resume() -> Client:
            c.url = srv.ws_url        # the restarted server's port
            welcome = await c.open()
            assert not welcome["reset"] and welcome["resume_from"] == len(c.events)
            await c.recv()
            await c.play(timeout=60)
            return c

        asyncio.run(resume())
    assert c.state is not None and c.state["status"] == "over"
    db = stored(s.db)
    assert c.events == db["streams"][(seat["table"], seat["seat"])]
    assert engine_events(c.events) == engine_streams(db["tables"][seat["table"]]["match"], seat["seat"])
    check_settled_in_points(db, "changpai", seat["table"])
    assert sum(db["balances"].values()) == 3 * s.opening_balance


def test_a_long_card_seat_that_quits_escapes(tmp_path):
    """A forced quit (强退) during a hand is an escape in the long-card rooms too: the hand is
    aborted and settled with the room's escape rule, the match ends."""
    s = settings(tmp_path, rounds=3, seed=5)
    with LiveServer(s) as srv:
        seat = srv.join("omar", "changpai")

        async def main() -> Client:
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.recv()
            await c.play(lambda c: len(c.events) > 25, timeout=30)
            await c.send({"type": "quit"})
            await c.play(lambda c: c.over, timeout=30)
            await c.close()
            return c

        c = asyncio.run(main())
    escape = [ev for ev in c.events if ev["type"] == "escape"]
    assert escape == [{"type": "escape", "seat": seat["seat"], "reason": "forced_quit"}]
    db = stored(s.db)
    assert db["tables"][seat["table"]]["end_reason"] == f"seat {seat['seat']} escaped (forced_quit)"
    assert db["hands"][-1][2]["escaped"] == seat["seat"]
    assert sum(db["balances"].values()) == 3 * s.opening_balance


def test_a_long_card_seat_away_too_long_escapes(tmp_path, monkeypatch):
    """The away clock: in a long-card room that counts being away (its escape rules), a player whose
    connection is lost for longer than the limit escapes; the bot played his turns meanwhile (托管)."""
    room = ROOMS["changpai"]
    import dataclasses

    monkeypatch.setitem(ROOMS, "changpai-away", dataclasses.replace(room, name="changpai-away",
                                                                     escape_rules=("forced_quit", "away")))
    s = settings(tmp_path, rounds=3, seed=5, away_limit_s=0.5, act_timeout_s=0.05)
    with LiveServer(s) as srv:
        seat = srv.join("pia", "changpai-away")

        async def main() -> Client:
            c = Client(srv.ws_url, seat)
            await c.open()
            await c.recv()
            c.drop()                  # no close frame: a lost connection
            await asyncio.sleep(1.2)
            return c

        asyncio.run(main())
        assert srv.lobby is not None
        table = srv.lobby.tables[seat["table"]]
        assert table.status == "over" and table.end_reason == f"seat {seat['seat']} escaped (away)"
        assert table.match.round_index > 0 or len(table.match.round.log) > 5   # the act timeout played on


def test_a_family_the_server_cannot_host_is_refused_by_name():
    """A family is served through the registry only: one without a preset room (the toy family of
    the tests) is an UnsupportedError naming it and what it lacks, and its rooms are not offered."""
    from tests.support.toy import RULESET as TOY, registered

    with registered():
        with pytest.raises(UnsupportedError, match=r"cannot host 'toy-race'.*family registers no preset room"):
            served_family(TOY.name)
        assert all(ROOMS[name].ruleset != TOY.name for name in hosted_rooms())
    assert served_family("changpai-ydr").name == "longcard"


def test_the_long_card_view_names_the_baozi_cause_of_each_legal_action():
    """The view's ``baozi`` (what the web table marks): for each legal action, in the order of
    ``legal_indices``, the 包子 cause it incurs (spec 3.13) exactly where the round's
    ``penalised_mask`` flags it, None elsewhere, and nothing for a seat not to act."""
    import mahjong_core as mj
    from mahjong_core.families.registry import get_family

    causes: set[str] = set()
    bot = get_family("longcard").bots["random"](1)
    for seed in range(6):
        r = mj.Round("changpai-ydr", seed=seed)
        while not r.is_over:
            for p in range(3):
                v = r.view(p)
                assert len(v["baozi"]) == len(v["legal_indices"]) and (v["baozi"] == []) == (not v["to_act"])
                mask = r.penalised_mask(p)
                assert [b is not None for b in v["baozi"]] == [bool(mask[i]) for i in v["legal_indices"]]
                causes |= {b for b in v["baozi"] if b is not None}
            k = r.seats_to_act()[0]
            r.step(k, bot.act_index(r, k))
    assert causes and causes <= {f"B{i}" for i in range(1, 7)}


def test_a_family_without_server_hooks_is_served_with_the_common_fields(tmp_path, monkeypatch):
    """``Family.server`` is optional: without it the table still plays the family's match with its
    bots, a settled hand's record has the common fields only and the room names no web files."""
    import dataclasses
    import time

    from mahjong_core.families import registry
    from mahjong_core.server.lobby import Lobby

    bare = dataclasses.replace(registry.get_family("longcard"), server=None)
    monkeypatch.setitem(registry._FAMILIES, "longcard", bare)
    lobby = Lobby(settings(tmp_path, rounds=1, act_timeout_s=0.01, init=True))
    try:
        assert {r["name"]: r["web"] for r in lobby.rooms()}["changpai"] is None
        seat = lobby.join("quin", "changpai")
        table = lobby.tables[seat["table"]]
        clock = [time.monotonic()]
        lobby.now = lambda: clock[0]
        for _ in range(2000):
            if table.status == "over":
                break
            clock[0] += 1.0
            lobby.tick()
        assert table.status == "over"
        records = [json.loads(text) for text in table.seats[0].stream if '"settlement"' in text]
        assert records and {k for r in records for k in r} == {
            "type", "round", "draw", "winner", "loser", "method", "total", "transfers", "balances", "levels"}
    finally:
        lobby.close()
