"""The per-action path of a table skips what cannot apply (issue 26, item 12): a table of human
players never looks for a bot to play after an action, and a table whose seats include bots,
also as restored from its database, still lets them play in turn."""

from __future__ import annotations

from typing import Any

from mahjong_core.server.table import Table

from . import test_server_reconnect
from .test_server_reconnect import Outbox, seated

make = test_server_reconnect.make   # its fixture: a lobby on a clock the test moves


def _act(table: Table, k: int) -> None:
    assert table.match is not None
    legal = table.match.round.legal_indices(k)
    assert legal and table.act(k, legal[0]) is None


def test_a_table_of_humans_never_looks_for_a_bot(make: Any, monkeypatch: Any) -> None:
    lobby, _ = make(bots=False, rounds=1, claim_pause_s=0.0)   # the seats act at once
    a, b = lobby.join("ann", "coins"), lobby.join("bob", "coins")
    table = lobby.tables[a["table"]]
    assert b["table"] == table.id and table.status == "playing"

    def no_bot(self: Table) -> bool:
        raise AssertionError("a table without a bot seat looked for a bot to play")

    monkeypatch.setattr(Table, "_bot_due", no_bot)
    for _ in range(30):
        assert table.match is not None
        k = table.match.seats_to_act()[0]
        _act(table, k)


def test_bots_play_at_a_table_as_seated_and_as_restored(make: Any) -> None:
    lobby, _ = make(rounds=1)
    table, k, conn = seated(lobby, "cleo", "coins")
    assert table.match is not None and table.match.seats_to_act() == [k]   # the bots played up to the human
    _act(table, k)
    assert table.match.seats_to_act() == [k] or table.match.round.is_over
    lobby.write_staged()
    row = lobby.store.table(table.id)
    assert row is not None
    again = Table.restore(lobby, row)
    lobby.tables[table.id] = again
    again.attach(k, Outbox(), 0)
    assert again.match is not None and again.match.seats_to_act() == table.match.seats_to_act()
    if not again.match.round.is_over:
        _act(again, k)       # the restored table's bots answer the human's action
        assert again.match.seats_to_act() == [k] or again.match.round.is_over
    assert conn.frames
