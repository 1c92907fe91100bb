"""Group writes (issue 26, item 12): while the server's event loop runs, the actions of every
table handled in one turn of the loop are written in one transaction at the loop's next turn,
and only then sent; a failed write sends nothing about any of them and puts every table of the
group back to its last stored state.  The tables are driven here on a real event loop without
the network (the lobby's ``grouping`` is what the app's lifespan turns on)."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from typing import Any

import pytest
from mahjong_core.server import ServerSettings
from mahjong_core.server.encoding import dumps
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.store import Store
from mahjong_core.server.table import STORE_FAILED

from .harness import FAST, Client, LiveServer, choose, finish, stored
from .test_server_reconnect import Clock
from .test_server_table_frames import play_out


class Outbox:
    """A connection's outbox keeping each frame's text as sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    @property
    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.texts]

    def send(self, frame: str) -> None:
        self.texts.append(frame)

    def close(self, code: int, reason: str) -> None:
        pass


def _tables(tmp_path: Any, n: int) -> tuple[Lobby, list[Any], list[list[Outbox]]]:
    """``n`` two-player coins tables of humans, each seat connected to an outbox."""
    lobby = Lobby(ServerSettings(db=str(tmp_path / "group.sqlite3"), bots=False, init=True, claim_pause_s=0.0,
                                 rounds=2, seed=3, max_seats_per_address=100), clock=Clock())
    tables, outs = [], []
    for i in range(n):
        a = lobby.join(f"a{i}", "coins")
        lobby.join(f"b{i}", "coins")
        t = lobby.tables[a["table"]]
        boxes = [Outbox(), Outbox()]
        for k in (0, 1):
            t.attach(k, boxes[k], 0)
        tables.append(t)
        outs.append(boxes)
    return lobby, tables, outs


def _to_act(table: Any) -> tuple[int, int]:
    """The seat that may act at ``table`` and the action the test clients choose."""
    k = next(k for k in table.match.seats_to_act() if table.match.round.legal_indices(k))
    return k, choose(table.match.round.view(k))


def _snapshot(lobby: Lobby, tables: list[Any], outs: list[list[Outbox]]) -> Any:
    return ([t.match.to_json() for t in tables], [[list(s.stream) for s in t.seats] for t in tables],
            lobby.ledger.balances, dict(lobby.points), [[len(o.texts) for o in boxes] for boxes in outs])


def _stored_streams(lobby: Lobby, tables: list[Any]) -> list[list[list[str]]]:
    return [[lobby.store.events(t.id, k) for k in range(len(t.seats))] for t in tables]


def test_the_actions_of_several_tables_in_one_loop_turn_are_one_transaction_then_sent(tmp_path):
    lobby, tables, outs = _tables(tmp_path, 3)
    statements: list[str] = []
    lobby.store.db.set_trace_callback(statements.append)

    async def main() -> None:
        lobby.grouping = True
        for _ in range(20):                       # twenty turns of the loop, an action per table in each
            sent = [[len(o.texts) for o in boxes] for boxes in outs]
            stored = _stored_streams(lobby, tables)
            statements.clear()
            for t in tables:
                assert t.act(*_to_act(t)) is None
            # acted, not yet written: nothing sent, nothing stored, no transaction begun
            assert [[len(o.texts) for o in boxes] for boxes in outs] == sent
            assert _stored_streams(lobby, tables) == stored
            assert not any(s.startswith("BEGIN") for s in statements)
            await asyncio.sleep(0)                # the loop's next turn: the group write
            assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"]
            # the group's three steps in one statement (a VALUES row each)
            inserts = [s for s in statements if s.startswith("INSERT INTO steps")]
            assert len(inserts) == 1 and inserts[0].count("), (") == 2, inserts
            assert _stored_streams(lobby, tables) == [[s.stream for s in t.seats] for t in tables]
            for t, boxes in zip(tables, outs):    # then every seat got its update, as stored
                for k, box in enumerate(boxes):
                    assert len(box.texts) == sent[tables.index(t)][k] + 1
                    text = box.texts[-1]
                    frame = json.loads(text)
                    assert frame["type"] == "update" and frame["state"]["last_id"] == len(t.seats[k].stream)
                    # the state's text is the one table.state() encodes (the update builds it in parts)
                    assert text[text.index(',"state":') + 9:-1] == dumps(t.state(k))
        lobby.grouping = False

    asyncio.run(main())
    lobby.close()


@pytest.mark.parametrize("failing", [0, 2])
def test_a_failed_group_write_sends_nothing_and_restores_every_table_of_the_group(tmp_path, monkeypatch, failing):
    """The write of the ``failing``-th table of the group fails (a full disk): none of the group
    is stored, no seat is sent an update, each acting seat gets the error frame, every table is
    back as stored (match, streams, balances), and the same actions then go through."""
    lobby, tables, outs = _tables(tmp_path, 3)
    real = Store._write
    written: list[str] = []

    def full_disk(self: Store, row: Any, change: Any) -> None:
        written.append(row.id)
        if row.id == tables[failing].id:
            raise sqlite3.OperationalError("database or disk is full")
        real(self, row, change)

    async def main() -> None:
        lobby.grouping = True
        before = _snapshot(lobby, tables, outs)
        stored = _stored_streams(lobby, tables)
        moves = [_to_act(t) for t in tables]
        monkeypatch.setattr(Store, "_write", full_disk)
        for t, (k, index) in zip(tables, moves):
            assert t.act(k, index) is None        # accepted: its fate is the group's
        await asyncio.sleep(0)
        monkeypatch.setattr(Store, "_write", real)
        assert written[-1] == tables[failing].id and len(written) == failing + 1
        assert _stored_streams(lobby, tables) == stored          # the tables written before it: rolled back
        *state, _ = _snapshot(lobby, tables, outs)
        assert state == list(before[:-1])                         # every table as stored
        for t, boxes, (k, _), n in zip(tables, outs, moves, before[-1]):
            assert [len(o.texts) for o in boxes] == [n[j] + (j == k) for j in (0, 1)]   # the actor's error only
            assert boxes[k].frames[-1] == {"type": "error", "message": STORE_FAILED}
        for t, (k, index) in zip(tables, moves):                  # tried again: played, stored, sent
            assert t.act(k, index) is None
        await asyncio.sleep(0)
        assert _stored_streams(lobby, tables) == [[s.stream for s in t.seats] for t in tables]
        for boxes in outs:
            assert all(o.frames[-1]["type"] == "update" for o in boxes)
        lobby.grouping = False

    asyncio.run(main())
    lobby.close()
    again = Lobby(ServerSettings(db=str(tmp_path / "group.sqlite3"), bots=False, rounds=2, seed=3))
    for t in tables:
        assert again.tables[t.id].match.to_json() == t.match.to_json()    # type: ignore[union-attr]
    assert again.ledger.balances == lobby.ledger.balances
    again.close()


def test_a_table_committing_on_its_own_writes_the_staged_tables_with_it(tmp_path):
    """A commit outside the group write (here a disconnect, counted in the table's row) writes
    the tables staged so far in the same transaction and sends their frames: nothing staged is
    left behind it, and the table that commits is not sent its update twice."""
    lobby, tables, outs = _tables(tmp_path, 2)
    statements: list[str] = []
    lobby.store.db.set_trace_callback(statements.append)

    async def main() -> None:
        lobby.grouping = True
        sent = [[len(o.texts) for o in boxes] for boxes in outs]
        for t in tables:
            assert t.act(*_to_act(t)) is None
        statements.clear()
        tables[1].detach(0, outs[1][0], 1006)     # a lost connection during the hand
        assert statements.count("BEGIN IMMEDIATE") == 1 and not lobby.staged
        assert _stored_streams(lobby, tables) == [[s.stream for s in t.seats] for t in tables]
        # the staged table: both seats sent their update; the detaching one: its other seat, once
        after = [[sent[0][0] + 1, sent[0][1] + 1], [sent[1][0], sent[1][1] + 1]]
        assert [[len(o.texts) for o in boxes] for boxes in outs] == after
        await asyncio.sleep(0)                    # the group write due at this turn finds nothing left
        assert statements.count("BEGIN IMMEDIATE") == 1
        assert [[len(o.texts) for o in boxes] for boxes in outs] == after
        lobby.grouping = False

    asyncio.run(main())
    lobby.close()


def test_the_players_list_follows_balances_and_connections(tmp_path):
    """The players' JSON an update carries is kept between updates: it changes when a
    connection does and when a hand is settled (balances and levels)."""
    lobby, tables, outs = _tables(tmp_path, 1)
    t, boxes = tables[0], outs[0]
    t.detach(1, boxes[1], 1006)
    assert boxes[0].frames[-1]["state"]["players"][1]["connected"] is False
    t.attach(1, boxes[1], len(t.seats[1].stream))
    for _ in range(2000):
        k, index = _to_act(t)
        assert t.act(k, index) is None
        last = json.loads(boxes[0].texts[-1])
        assert last["state"]["players"] == t._players()
        assert last["state"]["players"][1]["connected"] is True
        if any(e["event"]["type"] == "settlement" for e in last["events"]):
            break
    settled = [e["event"] for e in last["events"] if e["event"]["type"] == "settlement"]
    assert settled and [p["balance"] for p in last["state"]["players"]] == [
        settled[0]["balances"][n] for n in t.names]
    lobby.close()


def _numbered(con: sqlite3.Connection) -> list[tuple[str, int, str]]:
    """The ``steps`` rows as layouts 2 and 3 numbered them: ``(table id, n, body)``, n counting
    each table's rows from 0 in the order written."""
    out, seen = [], {}
    for table_id, body in con.execute("SELECT table_id, body FROM steps ORDER BY rowid"):
        n = seen[table_id] = seen.get(table_id, -1) + 1
        out.append((table_id, n, body))
    return out


@pytest.mark.parametrize("layout", [2, 3])
def test_a_database_of_layout_2_or_3_gets_its_steps_linked_without_an_index(tmp_path, layout):
    """Layouts 2 and 3 numbered each table's steps, with a ``(table_id, n)`` key: a WITHOUT ROWID
    table (layout 2: a step's row written into the middle of the B-tree) or a rowid table and its
    index (layout 3: a step wrote its index entry into the middle of the index).  Opening such a
    database copies the rows, table by table in order, into the linked rows of layout 4 with
    their heads, and the tables resume and play on."""
    db = str(tmp_path / "old.sqlite3")
    lobby, tables, _ = _tables(tmp_path, 2)
    for _ in range(30):
        for t in tables:
            assert t.act(*_to_act(t)) is None
    before = [(t.match.to_json(), [list(s.stream) for s in t.seats]) for t in tables]
    lobby.close()
    con = sqlite3.connect(str(tmp_path / "group.sqlite3"))
    rows = _numbered(con)
    assert len({t for t, _, _ in rows}) == 2 and len(rows) > 60
    con.execute("DROP TABLE steps")
    con.execute("DROP TABLE step_heads")
    con.execute("CREATE TABLE steps (table_id TEXT NOT NULL, n INTEGER NOT NULL, body TEXT NOT NULL, "
                "PRIMARY KEY (table_id, n))" + (" WITHOUT ROWID" if layout == 2 else ""))
    con.executemany("INSERT INTO steps VALUES (?, ?, ?)", rows)    # the two tables' steps interleaved
    con.execute(f"PRAGMA user_version = {layout}")
    con.commit()
    con.close()
    os.replace(str(tmp_path / "group.sqlite3"), db)
    again = Lobby(ServerSettings(db=db, bots=False, rounds=2, seed=3, claim_pause_s=0.0,
                                 max_seats_per_address=100), clock=Clock())
    store = again.store.db
    assert store.execute("PRAGMA user_version").fetchone()[0] == 4
    assert store.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'steps'").fetchall() == [("steps",)]
    assert sorted(_numbered(store)) == sorted(rows)
    assert store.execute("SELECT count(*) FROM sqlite_master WHERE name = 'steps_numbered'").fetchone()[0] == 0
    heads = dict(store.execute("SELECT table_id, last FROM step_heads").fetchall())
    assert heads == dict(store.execute("SELECT table_id, max(rowid) FROM steps GROUP BY table_id").fetchall())
    for t, (match, streams) in zip(tables, before):
        t2 = again.tables[t.id]
        assert t2.match is not None and t2.match.to_json() == match
        assert [s.stream for s in t2.seats] == streams    # type: ignore[union-attr]
        assert t2.act(*_to_act(t2)) is None               # and it plays on: a row linked to its last
    again.close()
    links = _links(db)
    assert sum(map(len, links.values())) == len(rows) + 2 and all(map(_chained, links.values()))


def test_the_served_app_groups_its_writes_and_writes_the_last_group_when_it_stops(tmp_path):
    """The app's lifespan turns the group writes on while it serves and, when it stops, writes
    what is staged and turns them off: a two-human table played through the WebSocket clients
    holds, in the database, every event its clients were sent, to its end."""
    s = ServerSettings(db=str(tmp_path / "live.sqlite3"), bots=False, rounds=1, seed=4, **FAST)
    with LiveServer(s) as srv:
        assert srv.lobby is not None and srv.lobby.grouping
        a, b = srv.join("ann", "coins"), srv.join("bo", "coins")
        clients = [Client(srv.ws_url, a), Client(srv.ws_url, b)]

        async def main() -> None:
            for c in clients:
                await c.open()
            await finish(*clients)               # the whole match, each action answered by an update

        asyncio.run(main())
        lobby = srv.lobby
    assert not lobby.grouping and not lobby.staged
    streams = stored(s.db)["streams"]
    for c, j in zip(clients, (a, b)):
        assert c.over and streams[(j["table"], j["seat"])] == c.events


def _links(db: str) -> dict[str, list[tuple[int, int | None]]]:
    """Each table's ``(rowid, prev)`` pairs in the order written."""
    con = sqlite3.connect(db)
    out: dict[str, list[tuple[int, int | None]]] = {}
    for table_id, rowid, prev in con.execute("SELECT table_id, rowid, prev FROM steps ORDER BY rowid"):
        out.setdefault(table_id, []).append((rowid, prev))
    heads = dict(con.execute("SELECT table_id, last FROM step_heads").fetchall())
    con.close()
    assert heads == {t: pairs[-1][0] for t, pairs in out.items()}
    return out


def _chained(pairs: list[tuple[int, int | None]]) -> bool:
    """Each row linked to the one before it, the first to none."""
    return [prev for _, prev in pairs] == [None] + [rowid for rowid, _ in pairs[:-1]]


def test_the_step_links_are_counted_in_memory_across_a_failed_write_and_a_restart(
        tmp_path, monkeypatch):
    """A table's ``steps`` rows are linked each to the one before it and its ``step_heads`` row
    names the last once the store closes: the store reads a table's head once (its first write
    after opening) and counts from there, so a group write is its BEGIN, one INSERT of a row
    per table and its COMMIT (no SELECT, no head written); a write that fails takes no rowid and moves no
    head, and a restarted store goes on after the stored rows."""
    lobby, tables, _ = _tables(tmp_path, 3)
    statements: list[str] = []
    lobby.store.db.set_trace_callback(statements.append)
    real = Store._write

    def full_disk(self: Store, row: Any, change: Any) -> None:
        real(self, row, change)
        if row.id == tables[2].id:
            raise sqlite3.OperationalError("database or disk is full")

    async def main() -> None:
        lobby.grouping = True
        for turn in range(12):
            if turn == 5:
                monkeypatch.setattr(Store, "_write", full_disk)
            for t in tables:
                assert t.act(*_to_act(t)) is None
            statements.clear()
            await asyncio.sleep(0)
            monkeypatch.setattr(Store, "_write", real)
            if turn != 5:
                assert [" ".join(s.split(" ")[:3]) for s in statements] == [
                    "BEGIN IMMEDIATE", "INSERT INTO steps", "COMMIT"]
                assert statements[1].count("), (") == 2, statements
                assert not any("SELECT" in s.upper() for s in statements), statements
        lobby.grouping = False

    asyncio.run(main())
    db = str(tmp_path / "group.sqlite3")
    lobby.close()
    links = _links(db)
    assert sorted(links) == sorted(t.id for t in tables)
    assert all(map(_chained, links.values())), links
    rowids = sorted(r for pairs in links.values() for r, _ in pairs)
    assert rowids == list(range(1, len(rowids) + 1))      # the failed group's rowids were taken again
    again = Lobby(ServerSettings(db=db, bots=False, rounds=2, seed=3, claim_pause_s=0.0, max_seats_per_address=100),
                  clock=Clock())
    for t in tables:
        t2 = again.tables[t.id]
        assert t2.act(*_to_act(t2)) is None
    again.close()
    after = _links(db)
    assert all(map(_chained, after.values()))
    assert {t: len(pairs) for t, pairs in after.items()} == {t: len(pairs) + 1 for t, pairs in links.items()}


class Utf8Outbox(Outbox):
    """An outbox that also takes frames as UTF-8 bytes (as the server's own WebSocket protocol does)."""

    def __init__(self) -> None:
        super().__init__()
        self.as_bytes = 0

    def send_utf8(self, data: bytes) -> None:
        self.as_bytes += 1
        self.texts.append(data.decode())


@pytest.mark.parametrize("room", ["coins", "public"])
def test_an_update_given_as_utf8_bytes_is_the_same_text_as_the_str_frame(tmp_path, room):
    """A connection with ``send_utf8`` is given each update frame as bytes built apart from the
    str frame (the view as orjson writes it, the players' JSON kept encoded): the same text, frame
    for frame, through whole matches of bots and a seat played by the timeout (settlements with
    Chinese fan names, players with Chinese level names)."""
    texts = []
    for box in (Outbox(), Utf8Outbox()):
        play_out(tmp_path, room, seed=5, rounds=2, conn=box, db=f"{type(box).__name__}.sqlite3")
        texts.append(box.texts)
    assert texts[0] == texts[1]
    assert any("菜鸟" in t for t in texts[1]) and any('"type":"settlement"' in t for t in texts[1])
    assert box.as_bytes == sum(json.loads(t)["type"] == "update" for t in texts[1]) > 10
