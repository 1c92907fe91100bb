"""The ``history`` of a seat's stream (issue 26, item 12): CRC-32 of its events' texts as 8 hex
digits, kept running per seat and formatted in each update frame; a client that holds a digest
of the old form (BLAKE2b-128, 32 hex digits, from a server before the change) still resumes."""

from __future__ import annotations

import hashlib
import json
import zlib

from mahjong_core.server import ServerSettings
from mahjong_core.server.lobby import Lobby
from mahjong_core.server.stream_digest import stream_digest

from .test_server_store import Outbox, _play, _two_players


def _blake2b(texts: list[str]) -> str:
    """The old form, as the server before the change wrote it."""
    h = hashlib.blake2b(digest_size=16)
    for t in texts:
        h.update(t.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def test_every_update_carries_the_crc32_of_the_stream_it_ends(tmp_path):
    """At every step each seat's last update says ``history``: the CRC-32 of the texts of its
    events 1..last_id, in hex; a table read back from the database has the same running digest."""
    lobby, table, outs = _two_players(str(tmp_path / "digest.sqlite3"), rounds=3, seed=6)
    for _ in range(40):
        _play(table, outs, 1)
        for k in (0, 1):
            state = outs[k].frames[-1]["state"]
            stream = table.seats[k].stream
            crc = 0
            for text in stream[:state["last_id"]]:
                crc = zlib.crc32(text.encode(), crc)
            assert state["history"] == f"{crc:08x}" == stream_digest(stream)
            assert table.state(k)["history"] == state["history"]
    assert table.status == "playing"
    histories = [s.history for s in table.seats]
    lobby.close()
    again = Lobby(ServerSettings(db=str(tmp_path / "digest.sqlite3"), bots=False, rounds=3, seed=6))
    assert [s.history for s in again.tables[table.id].seats] == histories
    again.close()


def _welcome(table: object, k: int, last_id: int, history: str) -> dict:
    out = Outbox()
    table.attach(k, out, last_id, history)    # type: ignore[attr-defined]
    return out.frames[0]


def test_a_client_resumes_with_a_digest_of_either_form_and_a_wrong_one_is_reset(tmp_path):
    """A hello's history of events 1..last_id (the whole stream or a prefix), in the current
    form or the old one: the welcome resumes after last_id; the same length with another history,
    in either form: a reset from event 1."""
    lobby, table, outs = _two_players(str(tmp_path / "resume.sqlite3"), rounds=1, seed=7)
    _play(table, outs, 12)
    stream = list(table.seats[0].stream)
    for last_id in (len(stream), len(stream) - 3):
        texts = stream[:last_id]
        for history in (stream_digest(texts), _blake2b(texts)):
            w = _welcome(table, 0, last_id, history)
            assert w["type"] == "welcome" and not w["reset"] and w["resume_from"] == last_id, (last_id, history)
        other = texts[:-1] + [json.dumps({"other": 1})]
        for history in (stream_digest(other), _blake2b(other)):
            w = _welcome(table, 0, last_id, history)
            assert w["reset"] and w["resume_from"] == 0, (last_id, history)
    lobby.close()
