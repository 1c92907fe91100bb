"""Embedding API of the game engine: actions and mask, errors, views, JSON, log and replay, match."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mahjong_core.errors import IllegalActionError, MahjongError, SeatError, StateError
from mahjong_core.game import play_match, play_round
from mahjong_core.families.mahjong.api import (
    ACTION_SIZE,
    PASS,
    Chi,
    DeclareReady,
    Discard,
    GreedyBot,
    Kong,
    Match,
    Pass,
    Pon,
    RandomBot,
    Round,
    Win,
    action_from_dict,
    flow_settings,
    redact_event,
    script_wall,
)
from mahjong_core.families.mahjong import actions as A
from mahjong_core.families.mahjong.tiles import parse_tiles


def T(s):
    return parse_tiles(s)[0]


def test_mask_layout_constants():
    assert (A.DISCARD, A.DISCARD_READY, A.KONG_SELF) == (0, 34, 68)
    assert (A.CHI_LOW, A.CHI_MID, A.CHI_HIGH, A.PON, A.KONG_CLAIM, A.WIN, A.DECLARE_READY, A.PASS) == \
        (102, 103, 104, 105, 106, 107, 108, 109)
    assert ACTION_SIZE == 110 and PASS == 109
    assert A.describe_index(35) == "discard 1 + 报听" and A.describe_index(109) == "pass"


@pytest.mark.parametrize("action", [
    Discard(3), Discard(30, True), Chi((0, 1, 2)), Pon(), Kong(5, "added"), Kong(31, "exposed"),
    Kong(9, "concealed"), Win(), Pass(), DeclareReady(),
])
def test_action_dict_round_trip(action):
    d = action.to_dict()
    json.dumps(d)
    assert action_from_dict(d) == action


def test_action_from_dict_rejects_garbage():
    for bad in ({}, {"type": "fly"}, {"type": "discard", "tile": 40}, {"type": "chi", "tiles": [1, 2]},
                {"type": "kong", "tile": 3, "kind": "weird"}, "discard"):
        with pytest.raises(IllegalActionError):
            action_from_dict(bad)


def test_step_accepts_objects_indices_and_dicts():
    for how in ("object", "index", "dict"):
        r = Round("public", 8)
        s = r.seats_to_act()[0]
        acts = r.legal_actions(s)
        a = [x for x in acts if x.type == "discard"][0]
        arg = {"object": a, "index": r.action_index(s, a), "dict": a.to_dict()}[how]
        ev = r.step(s, arg)
        assert ev[0] == {"type": "action", "seat": s, "action": a.to_dict()}
        assert any(e["type"] == "discard" and e["tile"] == a.tile for e in ev)


def test_legal_actions_match_mask_and_decode():
    r = Round("two-player", 2)
    for _ in range(40):
        if r.is_over:
            break
        for s in range(2):
            acts = r.legal_actions(s)
            mask = r.legal_mask(s)
            assert [r.action_index(s, a) for a in acts] == list(np.flatnonzero(mask))
        s = r.seats_to_act()[0]
        r.step(s, GreedyBot().act_index(r, s))


@pytest.mark.parametrize("bad", [-1, 110, 3.5, "x", None, True, object()])
def test_bad_action_inputs_refused_unchanged(bad):
    r = Round("two-player", 4)
    before = r.to_json()
    with pytest.raises(IllegalActionError):
        r.step(1, bad)
    assert r.to_json() == before


@pytest.mark.parametrize("seat", [-1, 2, 7, "0", None])
def test_bad_seat_refused(seat):
    r = Round("two-player", 4)
    with pytest.raises(IllegalActionError):
        r.step(seat, Pass())


@pytest.mark.parametrize("seat", [-1, 2, 2**70, True, "0"])
def test_a_finished_match_still_refuses_a_bad_seat(seat):
    """The match's legal_actions/legal_mask apply the round's one rule for a bad seat, also once
    the match is over (it answered [] for any seat then)."""
    m = Match("two-player", seed=1, rounds=1)
    play_match(m, [GreedyBot(), GreedyBot()])
    assert m.is_over and m.legal_actions(0) == [] and not m.legal_mask(1).any()
    with pytest.raises(SeatError):
        m.legal_actions(seat)
    with pytest.raises(SeatError):
        m.legal_mask(seat)


def test_illegal_action_reason_and_valueerror():
    r = Round("two-player", 4)
    r.step(1, Pass()) if r.phase_name == "ready_window" else None
    d = r.seats_to_act()[0]
    missing = [t for t in r.settings.kinds if t not in r.hand(d)][0]
    with pytest.raises(ValueError, match="not in the hand"):
        r.step(d, Discard(missing))
    with pytest.raises(IllegalActionError, match="own turn"):
        r.step(d, Pon())
    with pytest.raises(IllegalActionError, match="must discard"):
        r.step(d, Pass())
    with pytest.raises(IllegalActionError, match="not to act"):
        r.step(1 - d, Discard(r.hand(1 - d)[0]))


def test_constructor_validation():
    with pytest.raises(MahjongError):
        Round("three-player", 1)
    with pytest.raises(MahjongError):
        Round("public", 1, dealer=4)
    with pytest.raises(MahjongError):
        Round("public", 1, options={"nope": 1})
    with pytest.raises(MahjongError):
        Round("public", 1, options={"first_turn_fans": True})
    with pytest.raises(MahjongError):
        Round("two-player", -3)
    with pytest.raises(MahjongError):
        Round("two-player", 1, wall=list(range(72)))
    with pytest.raises(MahjongError):
        Round("two-player", 1, dice=[0, 7])
    r = Round("two-player")  # fresh entropy, recorded in the header
    assert isinstance(r.log[0]["seed"], int)
    assert Round("two-player", r.seed).wall.tiles == r.wall.tiles
    assert Round("public", 1, round_wind="S").round_wind == 28


def test_view_contents_and_hidden_info():
    r = Round("public", 21)
    s = r.dealer
    v = r.view(s)
    json.dumps(v)
    assert v["hand"] == r.hand(s) and v["to_act"] and v["phase"] == "turn"
    assert v["seat_winds"][s] == 27 and v["round_wind"] == 27
    assert v["legal_actions"] == [a.to_dict() for a in r.legal_actions(s)]
    o = (s + 1) % 4
    vo = r.view(o)
    assert vo["hand"] == r.hand(o) and not vo["to_act"] and vo["legal_actions"] == []
    text = json.dumps(vo)
    assert "tiles\": [" not in json.dumps(vo["claim"]) and "wall\"" not in text
    assert vo["hand_sizes"] == [r.concealed_size(k) for k in range(4)]
    assert vo["drawn"] is None
    with pytest.raises(ValueError):
        r.view(4)


def test_redacted_events_hide_others_tiles():
    r = Round("two-player", 5)
    play_round(r, [GreedyBot(), GreedyBot()])
    for seat in (0, 1):
        for e in r.log:
            x = redact_event(e, seat)
            if x is None:
                continue
            json.dumps(x)
            if e["type"] == "header":
                assert "wall" not in x and "seed" not in x
            if e.get("seat") not in (None, seat):
                if e["type"] == "deal":
                    assert "tiles" not in x
                if e["type"] == "draw" and e["tile"] < 34:
                    assert "tile" not in x
                if e["type"] == "action":
                    assert e["action"]["type"] not in ("pass", "pon", "chi")


def test_json_round_trip_and_schema_version():
    r = Round("two-player-bamboo", 12)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(15):
        s = r.seats_to_act()[0]
        r.step(s, bots[s].act_index(r, s))
    j = r.to_json()
    r2 = Round.from_json(j)
    assert r2.to_json() == j and Round.from_json(json.loads(j)).to_json() == j
    d = json.loads(j)
    d["schema_version"] = 99
    with pytest.raises(MahjongError, match="schema_version"):
        Round.from_dict(d)
    # the restored round plays on identically
    b1, b2 = [RandomBot(7), RandomBot(8)], [RandomBot(7), RandomBot(8)]
    play_round(r, b1)
    play_round(r2, b2)
    assert r.to_json() == r2.to_json()


def test_log_lines_and_replay():
    r = Round("public", 31)
    play_round(r, [GreedyBot()] * 4)
    lines = r.log_lines()
    first = json.loads(lines[0])
    assert first["type"] == "header" and first["seed"] == 31 and first["schema_version"] == 1
    assert all(isinstance(json.loads(x), dict) for x in lines)
    rp = Round.replay(lines)
    assert rp.to_json() == r.to_json()
    # a tampered log is detected
    bad = [json.loads(x) for x in lines]
    k = next(i for i, e in enumerate(bad) if e["type"] == "draw" and i > 10)
    bad[k]["tile"] = (bad[k]["tile"] + 1) % 34
    with pytest.raises(StateError, match=rf"^log\[{k}\]\.tile: .* differs from the event its actions produce"):
        Round.replay(bad)


def test_replay_of_scripted_wall():
    s = flow_settings("two-player")
    wall = script_wall(s, ["123m456m789mEEECC", "11223344mSSSWN"])
    r = Round("two-player", 0, wall=wall, kong_dice=[2, 3])
    r.step(1, Pass())
    r.step(0, Win())
    rp = Round.replay(r.log)
    assert rp.to_json() == r.to_json() and rp.result.winner == 0


def test_result_fields():
    s = flow_settings("two-player")
    r = Round("two-player", 0, wall=script_wall(s, ["123m456m789mEEECC", "11223344mSSSWN"]), dealer=0)
    r.step(1, Pass())
    r.step(0, Win())
    res = r.result
    assert res.winner == 0 and res.loser is None and res.method == "self_drawn" and not res.draw
    assert res.dealer == 0 and res.next_dealer == 0 and res.dealer_continues
    assert res.total == res.score.total and res.score.meets_minimum
    assert "heavenly_hand" in res.fan_ids and res.fans[0]["points"] >= 48
    d = res.to_dict()
    json.dumps(d)
    # after a JSON load the Score is re-evaluated from the recorded arguments
    r2 = Round.from_json(r.to_json())
    assert r2.result == res and r2.result.score.total == res.total
    assert "RoundResult(winner=0" in repr(res)


def test_match_api():
    m = Match("two-player", seed=1, rounds=3)
    assert m.first_dealer in (0, 1) and m.round.dealer == m.first_dealer
    results = play_match(m, [GreedyBot(), GreedyBot()])
    assert m.is_over and len(results) == 3 and m.seats_to_act() == []
    with pytest.raises(IllegalActionError):
        m.next_round()
    v = m.view(0)
    assert v["match"]["round"] == 3 and len(v["match"]["results"]) == 3
    m2 = Match("public", seed=2, rounds=2, first_dealer=3, auto_advance=True, wind_rotation=True)
    bots = [RandomBot(i) for i in range(4)]
    while not m2.is_over:
        s = m2.seats_to_act()[0]
        m2.step(s, bots[s].act_index(m2.round, s))
    assert len(m2.results) == 2 and m2.results[0]["dealer"] == 3
    with pytest.raises(IllegalActionError):
        Match("public", seed=2, rounds=1).next_round()


def test_bots_are_deterministic():
    a, b = Round("public", 3), Round("public", 3)
    play_round(a, [RandomBot(i) for i in range(4)])
    play_round(b, [RandomBot(i) for i in range(4)])
    assert a.to_json() == b.to_json()
    a, b = Round("two-player", 3), Round("two-player", 3)
    play_round(a, [GreedyBot(), GreedyBot()])
    play_round(b, [GreedyBot(), GreedyBot()])
    assert a.to_json() == b.to_json()


def test_greedy_wins_whenever_allowed():
    s = flow_settings("two-player")
    r = Round("two-player", 0, wall=script_wall(s, ["123m456m789mEEECC", "11223344mSSSWN"]))
    g = GreedyBot()
    assert g.act(r, 1) == Pass()  # not ready: nothing to declare
    r.step(1, Pass())
    assert g.act(r, 0) == Win()
