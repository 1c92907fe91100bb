"""The server's JSON encoding writes json.dumps' text (compact, UTF-8 as it is) for everything
the server encodes, with orjson (when installed) or without it: every event, view, state,
settlement and stored head of whole matches in every room."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mahjong_core.server import ServerSettings, encoding
from mahjong_core.server.lobby import Lobby

from tests.support.outbox import TextOutbox


def _reference(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _values(tmp_path: Path) -> list[Any]:
    """The values the server encodes while bots play a match in each room, to the end."""
    values: list[Any] = []
    lobby = Lobby(ServerSettings(db=str(tmp_path / "enc.sqlite3"), init=True, rounds=2, seed=12, act_timeout_s=0.01,
                                 claim_pause_s=0.0))
    for n, room in enumerate(("beginner", "coins", "bamboo", "public")):
        seat = lobby.join(f"e{n}", room)
        table = lobby.tables[seat["table"]]
        out = TextOutbox()
        table.attach(seat["seat"], out, 0)
        clock = 0.0
        while table.status == "playing":
            clock += 1.0
            table.tick(lobby.now() + 1e6 + clock)       # the act timeout: the bot acts for the player
        values += [json.loads(f) for f in out.frames]
        values += [json.loads(ev) for s in table.seats if s is not None for ev in s.stream]
        assert table.match is not None
        values.append(table.match.to_dict())
    lobby.close()
    values += ["a \u2028 line\u2029separator", "\x00\x1f\"\\/", "中文 🀄", 0.001, 19.999, 0.0, [], {}, None, True,
               2 ** 63 - 1, -(2 ** 63)]
    return values


def test_dumps_writes_json_dumps_text(tmp_path):
    values = _values(tmp_path)
    assert len(values) > 500
    for value in values:
        assert encoding.dumps(value) == _reference(value)


def test_what_orjson_refuses_goes_to_json():
    for value in ({1: "int key"}, 2 ** 70, [2 ** 64]):
        assert encoding.dumps(value) == _reference(value)


def test_the_json_fallback_writes_the_same_text(tmp_path, monkeypatch):
    if encoding._orjson is None:
        pytest.skip("orjson is not installed: dumps is the json path itself (the test above)")
    values = _values(tmp_path)
    monkeypatch.setattr(encoding, "_orjson", None)
    for value in values:
        assert encoding.dumps(value) == _reference(value)
