"""A round's first events in the seats' streams: each seat's ``round_start``, then the round's log
so far (the header, the dice, the deal, the flowers replaced) as the round's own redaction
(``log_for``) gives it to that seat, each encoded as it is, byte for byte: the server encodes each
of these log events once for the seats that see it as it is, and a seat's redacted copy (another
seat's deal, a flower drawn by another seat: its keys in the copy's order) as the copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mahjong_core.server import ServerSettings
from mahjong_core.server.encoding import dumps
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.table import Table

from tests.support.outbox import TextOutbox


def test_each_round_starts_every_stream_with_the_rounds_redaction_as_encoded(tmp_path: Path, monkeypatch):
    starts: list[int] = []
    flowers_of_others = 0
    round_start = Table._round_start

    def checked(self: Any) -> None:
        nonlocal flowers_of_others
        round_start(self)
        rnd = self.match.round
        event = {"type": "round_start", "round": self.match.round_index + 1, "dealer": rnd.dealer}
        for k, seat in enumerate(self.seats):
            seen = rnd.log_for(k)
            expected = [dumps(event), *(dumps(ev) for ev in seen)]
            assert seat.stream[-len(expected):] == expected
            flowers_of_others += sum(ev["type"] == "draw" and ev["seat"] != k and "tile" in ev for ev in seen)
        starts.append(len(rnd.log))

    monkeypatch.setattr(Table, "_round_start", checked)
    lobby = Lobby(ServerSettings(db=str(tmp_path / "starts.sqlite3"), init=True, rounds=4, seed=5,
                                 claim_pause_s=0.0))
    seat = lobby.join("starts", "coins")
    table = lobby.tables[seat["table"]]
    table.attach(seat["seat"], TextOutbox(), 0)
    clock = 0.0
    while table.status == "playing":
        clock += 1.0
        table.tick(lobby.now() + 1e6 + clock)   # the act timeout: the bot acts for the player
    lobby.close()
    assert len(starts) == 4
    assert flowers_of_others > 0       # a copy whose keys are not in the log event's order was seen
