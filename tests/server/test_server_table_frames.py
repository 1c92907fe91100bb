"""What the web table is sent to draw the end of a round: the settlement reveals each winner's
hand (it is laid down when it wins) and nothing else that was concealed.  The table is driven on a
fake clock: the act timeout lets the greedy bot act for the human seat (托管)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from mahjong_core.families.mahjong.api import Match

from .test_server_reconnect import Clock, Outbox


def play_out(tmp_path: Any, room: str, seed: int, rounds: int, conn: Any = None,
             db: str = "f.sqlite3") -> tuple[Any, int, Any]:
    """(the table, the seat, its connection) of a match of ``rounds`` played out in ``room`` by
    bots and one seat whose connection (``conn``, an :class:`Outbox` by default) never acts: the
    act timeout plays it."""
    from mahjong_core.server import ServerSettings
    from mahjong_core.server.lobby import Lobby

    clock = Clock()
    lobby = Lobby(ServerSettings(db=str(tmp_path / db), bots=True, rounds=rounds, seed=seed,
                                 act_timeout_s=1.0, init=True), clock=clock)
    try:
        joined = lobby.join("pat", room)
        table = lobby.tables[joined["table"]]
        conn = Outbox() if conn is None else conn
        table.attach(joined["seat"], conn, 0)
        for _ in range(5000):
            if table.status == "over":
                break
            clock.t += 1.0
            table.tick(clock.t)
        assert table.status == "over"
        return table, joined["seat"], conn
    finally:
        lobby.close()


@pytest.mark.parametrize(("room", "seed"), [("coins", 3), ("public", 6)])
def test_a_settlement_reveals_the_winning_hands_and_no_other_hand(tmp_path, room, seed):
    table, _, conn = play_out(tmp_path, room, seed, rounds=4)
    events = [item["event"] for f in conn.frames if f["type"] == "update" for item in f["events"]]
    settlements = [ev for ev in events if ev["type"] == "settlement"]
    assert len(settlements) == 4
    # the match replayed from its own record: each round's final state, as the engine holds it
    d = table.match.to_dict()
    m = Match(d["ruleset"], d["seed"], rounds=d["rounds"], first_dealer=d["first_dealer"], options=d["options"])
    won = 0
    for ev, actions in zip(settlements, d["actions"]):
        for s, i in actions:
            m.round.step(s, i)
        rnd = m.round
        winners = [w["seat"] for w in rnd.result.winners]
        assert [r["seat"] for r in ev["revealed"]] == winners          # a draw reveals nothing
        for r in ev["revealed"]:
            w = r["seat"]
            final = rnd.view(w)
            assert Counter(r["concealed"]) + Counter([r["win_tile"]]) == Counter(final["hand"])
            assert r["melds"] == final["melds"][w] and r["flowers"] == final["flowers"][w]
            assert r["win_tile"] == next(x["win_tile"] for x in rnd.result.winners if x["seat"] == w)
            won += 1
        m.next_round()
    assert won, "the seed has a won round"
