"""The conformance suite's check of the reference server (:mod:`mahjong_core.server`): a ruleset
whose family can be served is joined and played to the end at a table of each of its preset rooms;
a family that cannot be served is refused with an ``UnsupportedError`` naming it.

Over the in-process app (Starlette's test client: ``POST /api/join``, the WebSocket protocol) when
the ``server`` extra is installed; without it, through the lobby the app drives (the same tables,
settlement and store, with a clock the check advances).  The player who joins never acts: the act
timeout hands each of his turns to the table's bot (托管), so that the family's bots play the whole
match.
"""

from __future__ import annotations

import json
import time
import warnings
from typing import Any

from ..errors import MahjongError, UnsupportedError
from ..game.views import COMMON_VIEW_KEYS
from .subject import Subject

__all__ = ["check_server"]

ROUNDS = 1
"""Rounds of each match the check plays."""
TIMEOUT_S = 60.0
"""A match that does not end within this time (the app's clocks) fails the check."""


def check_server(s: Subject) -> None:
    """``server``: every preset room of the ruleset (:data:`mahjong_core.settlement.ROOMS`) is offered
    by the server; a player joins it, the family's bots fill the other seats and play the match to
    its end (the player's turns too, by the act timeout); every update frame's events follow each
    other and its view is the seat's (the common keys, this ruleset); the seat's stream is the
    round's own redaction of every round (``log_for``) with the table's events; every round is
    settled and the ledger is whole.  A family the server cannot host (no preset room, no bot, no
    match) raises an ``UnsupportedError`` naming the family from
    :func:`mahjong_core.server.games.served_family`, and none of its rooms is offered."""
    from ..server.games import hosted_rooms, served_family
    from ..settlement import ROOMS

    offered = [name for name in hosted_rooms() if ROOMS[name].ruleset == s.ruleset]
    try:
        served_family(s.ruleset)
    except UnsupportedError as exc:
        s.expect(s.family.name in str(exc), f"the server's refusal does not name the family: {exc}")
        s.expect(not offered, f"the server cannot host the ruleset but offers its rooms {offered}")
        return
    s.expect(offered, "the server can host the ruleset but offers none of its rooms")
    for room in offered:
        try:
            import httpx  # noqa: F401 - the test client's transport
            import starlette  # noqa: F401
        except ImportError:
            lobby, seat = _play_in_lobby(s, room)
        else:
            lobby, seat = _play_over_app(s, room)
        try:
            _check_table(s, room, lobby, seat)
        finally:
            lobby.close()


def _settings(s: Subject) -> Any:
    from ..server import ServerSettings

    return ServerSettings(db=":memory:", init=True, bots=True, rounds=ROUNDS, seed=s.seed, act_timeout_s=0.01,
                          tick_s=0.005, rate_per_s=10_000.0, burst=10_000, claim_pause_s=0.0)


def _play_over_app(s: Subject, room: str) -> tuple[Any, dict[str, Any]]:
    """Join ``room`` and follow the match to its end over the in-process app; the lobby and the seat."""
    with warnings.catch_warnings():   # starlette's notice that its test client will want httpx2: not ours to fix
        warnings.filterwarnings("ignore", message=".*starlette.testclient.*")
        from starlette.testclient import TestClient

    from ..server.app import create_app
    from ..server.lobby import Lobby

    settings = _settings(s)
    lobby = Lobby(settings)
    with TestClient(create_app(settings, lobby)) as client:
        rooms = {r["name"]: r for r in client.get("/api/rooms").json()["rooms"]}
        s.expect(room in rooms and rooms[room]["ruleset"] == s.ruleset, f"/api/rooms does not offer {room}: {rooms}")
        r = client.post("/api/join", json={"name": "conformance", "room": room})
        s.expect(r.status_code == 200, f"/api/join of room {room} answered {r.status_code}: {r.text}")
        seat = r.json()
        s.expect(seat["ruleset"] == s.ruleset and seat["family"] == s.family.name, f"the join answered {seat}")
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "table": seat["table"], "seat": seat["seat"],
                                     "token": seat["token"], "last_event_id": 0}))
            welcome = json.loads(ws.receive_text())
            s.expect(welcome.get("type") == "welcome" and welcome["ruleset"] == s.ruleset,
                     f"room {room}: the hello was answered {welcome}")
            events: list[dict[str, Any]] = []
            status, end = "playing", time.monotonic() + TIMEOUT_S
            while status != "over":
                s.expect(time.monotonic() < end, f"room {room}: the match did not end within {TIMEOUT_S:g} s")
                ws.send_text('{"type":"ping"}')   # the answer comes after every frame already queued
                while True:
                    frame = json.loads(ws.receive_text())
                    if frame["type"] == "pong":
                        break
                    s.expect(frame["type"] == "update", f"room {room}: a {frame['type']} frame: {frame}")
                    status = _update(s, room, frame, events)
                time.sleep(0.01)
            seat["events"] = events
    return lobby, seat


def _update(s: Subject, room: str, frame: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """Check one update frame (its events follow the ones held) and keep its events."""
    for item in frame["events"]:
        s.expect(item["id"] == len(events) + 1, f"room {room}: event {item['id']} after {len(events)}")
        events.append(item["event"])
    state = frame["state"]
    view = state["view"]
    s.expect(state["last_id"] == len(events), f"room {room}: the state's last_id is not the stream's length")
    if view is not None:
        s.expect(set(COMMON_VIEW_KEYS) <= set(view) and view["ruleset"] == s.ruleset,
                 f"room {room}: the update's view lacks common keys or names another ruleset: {sorted(view)}")
    return str(state["status"])


def _play_in_lobby(s: Subject, room: str) -> tuple[Any, dict[str, Any]]:
    """Without the web framework: the same join and match through the lobby, its clock advanced."""
    from ..server.lobby import Lobby

    lobby = Lobby(_settings(s))
    clock = [0.0]
    lobby.now = lambda: clock[0]
    seat = lobby.join("conformance", room)
    table = lobby.tables[seat["table"]]
    for _ in range(100_000):
        if table.status == "over":
            break
        clock[0] += 1.0
        lobby.tick()
    s.expect(table.status == "over", f"room {room}: the match did not end")
    seat["events"] = [json.loads(text) for text in table.seats[seat["seat"]].stream]
    return lobby, seat


def _check_table(s: Subject, room: str, lobby: Any, seat: dict[str, Any]) -> None:
    """The finished table as stored: the seat's stream, the rounds' redactions, the settlements, the ledger."""
    from ..server.table import TABLE_EVENTS

    row = lobby.store.table(seat["table"])
    s.expect(row is not None and row.status == "over", f"room {room}: the table is not stored as over")
    stream = [json.loads(text) for text in row.streams[seat["seat"]]]
    s.expect(stream == seat["events"], f"room {room}: the seat was sent another stream than the one stored")
    kinds = [ev["type"] for ev in stream]
    s.expect(kinds[0] == "match_start" and kinds[-1] == "match_end", f"room {room}: the stream is {kinds[:3]}...")
    try:
        expected = _redactions(s, row.match_json(), seat["seat"])
    except MahjongError as exc:
        s.fail(f"room {room}: the stored match does not replay: {exc}")
    s.expect([ev for ev in stream if ev["type"] not in TABLE_EVENTS] == expected,
             f"room {room}: the seat's stream is not the rounds' own redaction (log_for)")
    settled = kinds.count("settlement")
    s.expect(settled == kinds.count("round_start") >= ROUNDS,
             f"room {room}: {kinds.count('round_start')} rounds dealt, {settled} settled")
    deposits = sum(t.amount for t in lobby.ledger.transfers if t.reason == "deposit")
    s.expect(lobby.ledger.total == deposits, f"room {room}: the ledger holds {lobby.ledger.total}, {deposits} were deposited")


def _redactions(s: Subject, match_json: str, seat: int) -> list[dict[str, Any]]:
    """Every round of a stored match replayed from its actions, as ``seat`` may see it (``log_for``)."""
    return match_log_for(s.family.match_type(), match_json, seat)


def match_log_for(cls: Any, match_json: str, seat: int) -> list[dict[str, Any]]:
    """The engine events ``seat`` may see over a stored match (JSON of ``cls``, a match class or
    the public face ``mj.Match``): each finished round replayed from its actions, its
    ``log_for(seat)``, then the round in play's."""
    d = json.loads(match_json)
    m = cls(d["ruleset"], d["seed"], rounds=d["rounds"], first_dealer=d["first_dealer"], options=d["options"])
    out: list[dict[str, Any]] = []
    for actions in d["actions"]:
        for p, i in actions:
            m.round.step(p, i)
        out += m.round.log_for(seat)
        m.next_round()
    if not m.is_over:
        out += cls.from_json(match_json).round.log_for(seat)
    return out
