"""The table-wide members of an update's state (``Table._state_tail``, the same for every seat):
kept from one update to the next while they stay the same, they are always the JSON of what
``Table.state`` shows, also after the round, the status or the deadline changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mahjong_core.server import ServerSettings
from mahjong_core.server import table as table_module
from mahjong_core.server.encoding import dumps
from mahjong_core.server.lobby import Lobby

from tests.support.outbox import TextOutbox


def _expected(table: Any, now: float) -> str:
    fields = table._state_fields(0, now)
    del fields["last_id"], fields["history"]
    return dumps(fields)[1:-1]


def test_the_tail_follows_the_round_the_status_and_the_deadline(tmp_path: Path):
    lobby = Lobby(ServerSettings(db=str(tmp_path / "tail.sqlite3"), init=True, rounds=2, seed=3, act_timeout_s=7.25,
                                 claim_pause_s=0.0))
    seat = lobby.join("tail", "coins")
    table = lobby.tables[seat["table"]]
    table.attach(seat["seat"], TextOutbox(), 0)
    tails = set()
    clock = 0.0
    while table.status == "playing":
        for left in (7.25, 3.0004, 3.0006, 0.0, -2.5):   # whole, rounded down and up, none, past
            now = table.deadline - left
            assert table._state_tail(now) == _expected(table, now)
            tails.add(table._state_tail(now))
        clock += 1.0
        table.tick(lobby.now() + 1e6 + clock)   # the act timeout: the bot acts for the player
    assert table._state_tail(lobby.now()) == _expected(table, lobby.now())
    lobby.close()
    shown = [json.loads("{" + t + "}") for t in tails]
    assert {s["round"] for s in shown} == {1, 2}
    assert {s["deadline_s"] for s in shown} == {7.25, 3.0, 3.001, 0.0}
    assert json.loads("{" + table._state_tail(0.0) + "}") == {"status": "over", "end_reason": table.end_reason,
                                                               "round": 2, "rounds": 2, "deadline_s": None}


def test_the_deadline_texts_kept_are_bounded():
    table_module._DEADLINE_TEXTS.clear()
    for k in range(table_module._DEADLINE_TEXTS_MAX * 2 + 3):
        assert table_module._deadline_text(k / 7) == ',"deadline_s":' + dumps(round(k / 7, 3))
        assert len(table_module._DEADLINE_TEXTS) <= table_module._DEADLINE_TEXTS_MAX
