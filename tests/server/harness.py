"""A live server on the loopback (uvicorn in a thread, its own event loop) and WebSocket bot clients."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn
from mahjong_core.server import ServerSettings
from mahjong_core.server.app import server_config
from mahjong_core.server.lobby import Lobby
from websockets.asyncio.client import ClientConnection, connect

import mahjong_core as mj

NO_FLOOD_LIMIT: dict[str, Any] = {"rate_per_s": 10_000.0, "burst": 10_000}
"""Settings for tests whose bot clients answer at once: on an idle machine a whole match exceeds a
human's 20 messages/s, which the default flood limit rightly closes (code 1008)."""
FAST: dict[str, Any] = {**NO_FLOOD_LIMIT, "claim_pause_s": 0.0, "join_burst": 10_000,
                        "max_seats_per_address": 10_000, "max_connections_per_address": 0}
"""... and no claim pause (two human clients at a table would otherwise wait it after every turn
action) and no limits per address (every client of the tests is 127.0.0.1); the pause and the
limits are tested on their own (test_server_claims, test_server_limits)."""


class LiveServer:
    """``with LiveServer(settings) as srv:`` — a server on 127.0.0.1 and a free port; ``srv.lobby``
    is its lobby (read it only while the clients are idle: it lives on the server's thread).
    A database file that does not exist yet is created (``init``), as ``serve --init`` would."""

    def __init__(self, settings: ServerSettings, port: int = 0, **config: Any) -> None:
        if settings.db != ":memory:" and not os.path.exists(settings.db):
            settings = dataclasses.replace(settings, init=True)
        self.settings = settings
        self.lobby: Lobby | None = None
        self.port = port   # 0: a free one; a browser test restarts a server on the port its page knows
        self.config = config
        """More ``uvicorn.Config`` arguments (e.g. ``ws=GuardedWS``, ``ws_ping_interval``)."""

    def __enter__(self) -> LiveServer:  # noqa: PYI034 - typing.Self needs Python 3.11
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        self.port = sock.getsockname()[1]
        self.lobby = Lobby(self.settings)
        config = server_config(self.settings, self.lobby, **{"log_level": "warning", "lifespan": "on", **self.config})
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.01)
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        assert self.lobby is not None
        self.lobby.close()

    def join(self, name: str, room: str) -> dict[str, Any]:
        """Join through the API (from 127.0.0.1, like every client of the tests)."""
        r = httpx.post(self.base + "/api/join", json={"name": name, "room": room}, timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())


def played_round(ruleset: str, seed: int) -> Any:
    """A round of ``ruleset`` played to its end from ``seed``: the first seat to act plays its last
    legal action six times in ten (claims and wins come last), else a seeded random one."""
    rnd: Any = mj.Round(ruleset, seed=seed)
    rng = random.Random(seed)
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        rnd.step(seat, legal[-1] if rng.random() < 0.6 else rng.choice(legal))
    return rnd


def choose(view: dict[str, Any]) -> int:
    """A simple client policy: win when allowed, never claim, discard the first legal tile (a
    long-card seat: 起 when it may, and never a choice that incurs 包子, the view's ``baozi``)."""
    acts = view["legal_actions"]
    idx = view["legal_indices"]
    if "baozi" in view:
        free = [(a, i) for a, i, b in zip(acts, idx, view["baozi"]) if b is None] or list(zip(acts, idx))
        acts, idx = [a for a, _ in free], [i for _, i in free]
        for a, i in zip(acts, idx):
            if a["type"] in ("hu", "qi"):
                return int(i)
    for kind in ("win", "pass"):
        for a, i in zip(acts, idx):
            if a["type"] == kind:
                return int(i)
    for a, i in zip(acts, idx):
        if a["type"] == "discard":
            return int(i)
    return int(idx[0])


class Client:
    """One seat's WebSocket: keeps the stream (checking ids), the last state and the errors."""

    def __init__(self, url: str, seat: dict[str, Any]) -> None:
        self.url = url
        self.seat = seat
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.ws: ClientConnection | None = None

    async def open(self, last_id: int | None = None, history: str | None = None) -> dict[str, Any]:
        """Connect and say hello (resuming after ``last_id``, default: the events held); the welcome."""
        self.ws = await connect(self.url, max_size=None)
        hello = {"type": "hello", "table": self.seat["table"], "seat": self.seat["seat"],
                 "token": self.seat["token"], "last_event_id": len(self.events) if last_id is None else last_id}
        if history is not None:
            hello["history"] = history
        await self.ws.send(json.dumps(hello))
        welcome: dict[str, Any] = json.loads(await self.ws.recv())
        assert welcome["type"] == "welcome", welcome
        if welcome.get("reset"):
            self.events = []          # the server's history is not ours: it sends all of it again
        return welcome

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        assert self.ws is not None
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if frame["type"] == "update":
            for item in frame["events"]:
                assert item["id"] == len(self.events) + 1, (item["id"], len(self.events))   # no gap, no repeat
                self.events.append(item["event"])
            self.state = frame["state"]
            assert self.state is not None and self.state["last_id"] == len(self.events)
        elif frame["type"] == "error":
            self.errors.append(frame["message"])
        return frame

    async def send(self, msg: Any) -> None:
        assert self.ws is not None
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    @property
    def over(self) -> bool:
        return self.state is not None and self.state["status"] == "over"

    def to_act(self) -> bool:
        v = None if self.state is None else self.state["view"]
        return bool(v and v["legal_indices"]) and self.state is not None and self.state["status"] == "playing"

    async def play(self, until: Any = None, timeout: float = 30.0, policy: Any = None) -> None:
        """Act whenever to act (``policy(view)``, default :func:`choose`), until ``until(self)``
        (default: the match is over)."""
        done = until or (lambda c: c.over)
        policy = policy or choose
        end = time.monotonic() + timeout
        while not done(self):
            assert time.monotonic() < end, "the match did not progress"
            if self.to_act():
                assert self.state is not None
                await self.send({"type": "act", "index": policy(self.state["view"])})
                self.state = None   # wait for the answer before acting again
            try:
                await self.recv(0.2)
            except asyncio.TimeoutError:
                continue            # nothing yet (the other seat may have stopped): look at `until` again

    async def close(self, code: int = 1000) -> None:
        assert self.ws is not None
        await self.ws.close(code)

    def drop(self) -> None:
        """Lose the connection: no close frame (the server sees code 1006)."""
        assert self.ws is not None
        self.ws.transport.abort()

    async def resume(self) -> None:
        """Connect again, resuming after the last event held, and wait for the update."""
        await self.open()
        await self.recv()


def run_client(srv: LiveServer, seat: dict[str, Any], script: Any) -> Client:
    """Connect one client to ``seat``, wait for its first update, run ``await script(client)``."""
    async def main() -> Client:
        c = Client(srv.ws_url, seat)
        await c.open()
        await c.recv()
        await script(c)
        return c

    return asyncio.run(main())


async def finish(*clients: Client) -> list[Client]:
    """Play the clients' match to its end, then close them."""
    await asyncio.gather(*(c.play() for c in clients))
    for c in clients:
        await c.close()
    return list(clients)


def stored(db: str) -> dict[str, Any]:
    """What the database holds: balances, transfers, tables, per-seat streams, hands."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        out = {
            "balances": dict(con.execute("SELECT name, balance FROM accounts").fetchall()),
            "transfers": con.execute("SELECT table_id, round, payer, payee, amount, reason FROM transfers "
                                     "ORDER BY id").fetchall(),
            "tables": {r[0]: {"status": r[1], "match": _stored_match(db, r[0]),
                              "end_reason": r[2], "disconnects": json.loads(r[3])}
                       for r in con.execute("SELECT id, status, end_reason, disconnects FROM tables")},
            "streams": {},
            "hands": [(t, k, json.loads(rec)) for t, k, rec in
                      con.execute("SELECT table_id, round, record FROM hands ORDER BY rowid")],
        }
        return out
    finally:
        con.close()
        out["streams"] = _stored_streams(db, list(out["tables"]))


def _stored_streams(db: str, tables: list[str]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Every seat's stream as the store reads it back."""
    from mahjong_core.server.store import Store

    store = Store(db)
    try:
        out: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for t in tables:
            row = store.table(t)
            assert row is not None
            for seat, stream in enumerate(row.streams):
                if stream:
                    out[(t, seat)] = [json.loads(ev) for ev in stream]
        return out
    finally:
        store.close()


def _stored_match(db: str, table_id: str) -> str | None:
    """The match JSON the store holds for a table (its head, the round's state and its log)."""
    from mahjong_core.server.store import Store

    store = Store(db)
    try:
        row = store.table(table_id)
        return None if row is None else row.match_json()
    finally:
        store.close()


def engine_streams(match_json: str, seat: int) -> list[dict[str, Any]]:
    """The engine events seat ``seat`` should have been sent over a whole match: every round
    replayed from the stored match's actions, its log through the round's redaction (``log_for``;
    the match of the stored ruleset's family, through the public face)."""
    from mahjong_core.testing.checks_server import match_log_for

    from mahjong_core import Match

    return match_log_for(Match, match_json, seat)


def engine_events(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from mahjong_core.server.table import TABLE_EVENTS

    return [ev for ev in stream if ev["type"] not in TABLE_EVENTS]
