"""The conformance suite's ``server`` check (mahjong_core/testing/checks_server.py): it passes for a
ruleset the server hosts, over the in-process app and, without the web framework, through the
lobby; it fails a server that does not offer a servable ruleset's room or sends a stream that is not
the round's redaction; a family the server cannot host passes only by being refused by name."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")

from mahjong_core.errors import UnsupportedError
from mahjong_core.server import games
from mahjong_core.testing import CHECKS, ConformanceError, checks_server, run_check


def test_the_server_check_is_in_the_suite():
    assert CHECKS["server"] is checks_server.check_server


def test_the_server_check_plays_long_cards_over_the_app_and_through_the_lobby(monkeypatch):
    played: list[str] = []
    for path in ("_play_over_app", "_play_in_lobby"):
        original = getattr(checks_server, path)
        monkeypatch.setattr(checks_server, path,
                            lambda s, room, original=original, path=path: (played.append(path), original(s, room))[1])
    run_check("changpai-ydr", "server")
    monkeypatch.setitem(sys.modules, "starlette", None)   # the server extra missing: the lobby alone
    run_check("changpai-ydr", "server")
    assert played == ["_play_over_app"] * 2 + ["_play_in_lobby"] * 2   # both long-card rooms, each way


def test_the_server_check_fails_a_server_that_hides_a_servable_room(monkeypatch):
    monkeypatch.setattr(games, "hosted_rooms", lambda: ("beginner", "coins"))
    with pytest.raises(ConformanceError, match="changpai-ydr: server: the server can host the ruleset but offers none"):
        run_check("changpai-ydr", "server")


def test_the_server_check_fails_a_stream_that_is_not_the_rounds_redaction(monkeypatch):
    from mahjong_core.families.registry import get_family

    cls = get_family("longcard").round_type()
    monkeypatch.setattr(cls, "log_for", lambda self, seat: [])   # the check's replay expects nothing
    with pytest.raises(ConformanceError, match="not the rounds' own redaction"):
        run_check("changpai-ydr", "server")


def test_the_server_check_fails_a_refusal_that_does_not_name_the_family(monkeypatch):
    def refuse(ruleset):
        raise UnsupportedError("no")

    monkeypatch.setattr(games, "served_family", refuse)
    with pytest.raises(ConformanceError, match="does not name the family"):
        run_check("two-player", "server")
