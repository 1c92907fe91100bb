"""A reload is not an escape: a client closed during a hand (close 1000/1001, which a page
reload sends too) is judged only when the grace period (``reconnect_grace_s``) has passed
without the seat connecting again.  The seeds' other limits still hold: each lost connection
counts toward the hand's disconnect limit, and the away clock runs from the moment the connection
was lost.  The table is driven directly on a fake clock (no sockets, no sleeping)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mahjong_core.errors import MahjongError
from mahjong_core.server import ServerSettings
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.table import Table

GRACE = 10.0


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Outbox:
    """A connection's outbox: the frames a table sent it, decoded, and its close."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def send(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Any]:
    lobbies: list[Lobby] = []

    def make(**kw: Any) -> tuple[Lobby, Clock]:
        base: dict[str, Any] = {"db": str(tmp_path / f"r{len(lobbies)}.sqlite3"), "bots": True, "rounds": 4,
                                "seed": 2, "act_timeout_s": 10_000.0, "reconnect_grace_s": GRACE,
                                "init": True}   # a new database, as serve --init (a restart reopens it)
        base.update(kw)
        clock = Clock()
        lobby = Lobby(ServerSettings(**base), clock=clock)
        lobbies.append(lobby)
        return lobby, clock

    yield make
    for lobby in lobbies:
        lobby.close()


def seated(lobby: Lobby, name: str, room: str) -> tuple[Table, int, Outbox]:
    """``name`` joins ``room`` (bots fill the table, the match starts) and connects."""
    joined = lobby.join(name, room)
    table = lobby.tables[joined["table"]]
    conn = Outbox()
    table.attach(joined["seat"], conn, 0)
    assert table.status == "playing"
    return table, joined["seat"], conn


def penalties(lobby: Lobby) -> list[dict[str, Any]]:
    return [t for t in lobby.ledger.to_dict()["transfers"] if t["reason"] == "escape_penalty"]


def at(lobby: Lobby, clock: Clock, t: float) -> None:
    """Move the clock to ``t`` seconds after the start and run the clocks once."""
    clock.t = 1000.0 + t
    lobby.tick()


def test_a_reload_within_the_grace_period_resumes_without_penalty(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "amy", "bamboo")
    at(lobby, clock, 5)
    table.detach(k, conn, 1001)                 # the page unloads: a close frame "going away"
    at(lobby, clock, 5 + GRACE - 0.5)
    assert table.status == "playing"
    again = Outbox()
    table.attach(k, again, len(table.seats[k].stream))   # the reloaded page, with the kept token
    for t in (5 + GRACE, 60, 94):                # past the grace, later still (the away clock stopped)
        at(lobby, clock, t)
        assert table.status == "playing"
    assert not penalties(lobby)
    assert table.tracker.disconnects[k] == 1    # a reload is still a break in the connection
    assert again.frames[0]["type"] == "welcome" and again.frames[0]["disconnects"] == 1


def test_a_closed_client_not_back_within_the_grace_period_is_an_escape(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "ben", "bamboo")
    at(lobby, clock, 5)
    table.detach(k, conn, 1000)
    assert table.status == "playing"
    at(lobby, clock, 5 + GRACE - 0.01)
    assert table.status == "playing" and not penalties(lobby)
    at(lobby, clock, 5 + GRACE)
    assert table.status == "over" and table.end_reason == f"seat {k} escaped (closed_client)"
    assert [(p["payer"], p["amount"]) for p in penalties(lobby)] == [("ben", 60)]   # 60 x base, to the bot
    assert lobby.ledger.total == 2 * lobby.settings.opening_balance


def test_a_lost_connection_is_judged_by_the_away_limit_not_by_the_grace(make):
    lobby, clock = make(away_limit_s=30.0)
    table, k, conn = seated(lobby, "cat", "bamboo")
    at(lobby, clock, 5)
    table.detach(k, conn, 1006)                 # no close frame: the network, not the player
    at(lobby, clock, 5 + GRACE + 1)
    assert table.status == "playing"
    at(lobby, clock, 5 + 30.01)
    assert table.status == "over" and table.end_reason == f"seat {k} escaped (away)"


def test_the_away_limit_still_runs_during_the_grace_period(make):
    lobby, clock = make(away_limit_s=4.0)       # an operator's away limit shorter than the grace
    table, k, conn = seated(lobby, "dan", "bamboo")
    table.detach(k, conn, 1001)
    at(lobby, clock, 4.01)
    assert table.status == "over" and table.end_reason == f"seat {k} escaped (away)"


def test_the_third_reload_in_a_hand_is_the_disconnect_limit(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "eve", "bamboo")
    for n in (1, 2, 3):
        at(lobby, clock, 10 * n)
        table.detach(k, conn, 1001)
        assert table.tracker.disconnects[k] == n or table.status == "over"
        if n < 3:
            assert table.status == "playing"
            conn = Outbox()
            table.attach(k, conn, len(table.seats[k].stream))
    assert table.status == "over" and table.end_reason == f"seat {k} escaped (disconnects)"


def test_where_closing_is_no_escape_the_grace_changes_nothing(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "fay", "coins")   # the coins room counts forced quits only
    table.detach(k, conn, 1000)
    at(lobby, clock, GRACE + 1)
    at(lobby, clock, 500)
    assert table.status == "playing" and not penalties(lobby)
    assert table.seats[k].closed_at is None     # judged once, then forgotten


def test_a_server_restart_is_not_a_closed_client(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "gus", "bamboo")
    table.detach(k, conn, 1012)
    at(lobby, clock, GRACE + 1)
    assert table.status == "playing" and table.tracker.disconnects[k] == 0


def test_a_replaced_connection_closing_is_not_a_disconnect(make):
    lobby, clock = make()
    table, k, old = seated(lobby, "hal", "bamboo")
    new = Outbox()
    table.attach(k, new, 0)                      # a second tab or the page's resync
    assert old.closed is not None and old.closed[0] == 4000
    table.detach(k, old, 1000)                   # the old socket's close arrives afterwards
    at(lobby, clock, GRACE + 1)
    assert table.status == "playing" and table.tracker.disconnects[k] == 0


class EndingOutbox(Outbox):
    """A connection whose close ends its session at once, as the server's own WebSocket
    protocol does (``TableSocket.close``): the seat's detach runs inside ``close``."""

    def __init__(self, table: Table, k: int) -> None:
        super().__init__()
        self.table, self.k = table, k

    def close(self, code: int, reason: str) -> None:
        super().close(code, reason)
        self.table.detach(self.k, self, code)


def test_a_replaced_connection_whose_close_ends_it_at_once_is_not_a_disconnect(make):
    lobby, clock = make()
    joined = lobby.join("hana", "bamboo")
    table, k = lobby.tables[joined["table"]], joined["seat"]
    old = EndingOutbox(table, k)
    table.attach(k, old, 0)
    new = Outbox()
    table.attach(k, new, 0)                      # the old one's close detaches it inside attach
    assert old.closed is not None and old.closed[0] == 4000
    assert table.seats[k].conn is new and table.seats[k].away_since is None
    assert table.tracker.disconnects[k] == 0
    assert [f["type"] for f in new.frames] == ["welcome", "update"]
    assert new.frames[1]["state"]["players"][k]["connected"]
    at(lobby, clock, GRACE + 1)
    assert table.status == "playing" and table.tracker.disconnects[k] == 0 and not penalties(lobby)


def test_a_finished_table_is_kept_for_the_grace_period_after_its_last_player_left(make):
    lobby, clock = make()
    table, k, conn = seated(lobby, "ida", "coins")
    assert table.quit(k) is None and table.status == "over"
    at(lobby, clock, 1)
    table.detach(k, conn, 1001)                  # the page is reloaded at the end of the match
    at(lobby, clock, 1 + GRACE - 0.5)
    assert table.id in lobby.tables              # the reloaded page still finds it and its result
    again = Outbox()
    table.attach(k, again, 0)
    assert any(ev["event"]["type"] == "match_end" for ev in again.frames[1]["events"])
    table.detach(k, again, 1001)                 # at 1 + GRACE - 0.5
    at(lobby, clock, 1 + 2 * GRACE - 0.6)
    assert table.id in lobby.tables
    at(lobby, clock, 1 + 2 * GRACE - 0.5)
    assert table.id not in lobby.tables          # nobody came back: it stays in the store only


@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf"), True, "5"])
def test_the_grace_setting_is_checked(value):
    with pytest.raises(MahjongError, match="reconnect_grace_s"):
        ServerSettings(reconnect_grace_s=value)
