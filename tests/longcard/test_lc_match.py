"""The long-card hand under the shared round API and the long-card match (spec changpai.md 3.1, 3.14, 5,
8.3): the shared match deals hands from its seed with the banker rules, settles through the shared
Ledger, and every hand and match state survives JSON, pickling and log replay through the validated
boundary; views and event streams hide the others' cards and claim answers."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from mahjong_core.errors import IllegalActionError, RulesetError, SeatError, StateError
from mahjong_core.families import registry
from mahjong_core.families.longcard.round_actions import ACTION_SIZE, Action
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard.round_match import LongcardMatch, LongcardRound
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.game.bots import play_match, play_round
from mahjong_core.game.state import load_state


def _played(seed: int = 3, dealer: int = 1, bots=None) -> LongcardRound:
    r = LongcardRound("changpai-ydr", seed, dealer=dealer)
    play_round(r, bots or [RuleBot() for _ in range(3)])
    return r


def test_the_shared_round_api_plays_the_hand_engine():
    r = LongcardRound("changpai-ydr", 3, dealer=1)
    assert r.players == 3 and r.dealer == 1 and r.phase_name == "qi" and r.seats_to_act() == [1]
    assert r.legal_indices(0) == []
    with pytest.raises(SeatError):          # one rule for a bad seat (test_lc_seats.py)
        r.legal_indices(7)
    assert r.legal_mask(1).shape == (ACTION_SIZE,)
    assert [a.id for a in r.legal_actions(1)] == r.legal_indices(1)
    with pytest.raises(IllegalActionError, match="not to act"):
        r.step(0, 256)
    with pytest.raises(IllegalActionError, match="is not legal for seat 1 in phase qi"):
        r.step(1, 0)
    # the same stock through the hand engine directly: the same events, the same result
    r = _played()
    hand = Round(settings=r.hand.settings, banker=1, stock=r.hand.stock)
    play_hand(hand, [RuleBot() for _ in range(3)])
    assert hand.events == r.hand.events and r.result.to_dict() == {**hand.result, "dealer": 1}
    assert r.is_over and r.result.next_dealer == hand.result["next_banker"]


def test_views_and_event_streams_hide_the_others_cards():
    r = _played(5, 0, [RandomBot(k) for k in range(3)])
    for seat in range(3):
        stream = r.log_for(seat)
        assert "seed" not in stream[0] and "spawn_key" not in stream[0]
        deals = [e for e in stream if e["type"] == "deal"]
        assert [e["seat"] for e in deals] == [seat]
        for e in stream:
            if e["type"] == "action" and e["action"]["phase"] == "claim" and e["action"]["type"] != "fold":
                assert e["seat"] == seat
        v = r.view(seat)
        assert v["seat"] == seat and v["hand"] == r.hand.hands[seat] and len(v["table"]) == 3
        assert list(v) == list(LongcardRound.VIEW_KEYS)


def test_round_state_round_trip_replay_and_forgery():
    r = _played()
    for again in (LongcardRound.from_json(r.to_json()), pickle.loads(pickle.dumps(r)), copy.deepcopy(r),
                  LongcardRound.replay(r.log_lines()), load_state(r.to_json())):
        assert type(again) is LongcardRound and again.to_dict() == r.to_dict()
    d = json.loads(r.to_json())
    d["result"]["deltas"][0] += 1
    with pytest.raises(StateError, match=r"^result\.deltas"):
        LongcardRound.from_dict(d)
    d = json.loads(r.to_json())
    k = next(i for i, e in enumerate(d["log"]) if e["type"] == "action" and e["action"]["phase"] == "discard")
    d["log"][k]["action"]["phase"] = "turn"
    with pytest.raises(StateError, match=rf"^log\[{k}\]"):
        LongcardRound.from_dict(d)
    d = json.loads(r.to_json())
    d["header"]["dealer"] = d["log"][0]["dealer"] = 3
    with pytest.raises(StateError, match=r"^log\[0\]\.dealer"):
        LongcardRound.from_dict(d)


def test_a_match_follows_the_banker_rules_and_settles_through_the_ledger():
    m = LongcardMatch("changpai-ydr", seed=9, rounds=6)
    results = play_match(m, [RuleBot() for _ in range(3)])
    assert m.is_over and len(results) == 6 == len(m.results)
    dealers = m.dealer_sequence()
    assert [r["round"] for r in m.results] == list(range(6))
    assert dealers[1:] == [r["next_banker"] for r in m.results[:-1]]
    for r in m.results:                      # 3.14: the winner deals next, else the banker stays
        assert r["next_banker"] == (r["winner"] if r["end"] == "win" else r["dealer"])
    assert {r["end"] for r in m.results} <= {"win", "void", "huangzhuang"}
    start = {"A": 50, "B": 50, "C": 50}
    led = m.ledger(start)
    assert led.total == 150
    for seat, name in enumerate(start):
        assert led.balances[name] == 50 + sum(r["deltas"][seat] for r in m.results)
    again = LongcardMatch("changpai-ydr", seed=9, rounds=6)
    play_match(again, [RuleBot() for _ in range(3)])
    assert again.to_dict() == m.to_dict()


def test_match_state_round_trip_mid_hand_and_forgery():
    m = LongcardMatch("changpai-ydr", seed=4, rounds=3, first_dealer=2)
    bots = [RandomBot(10 + k) for k in range(3)]
    play_round(m.round, bots)
    m.next_round()
    for _ in range(15):                     # part of the second hand
        p = m.seats_to_act()[0]
        m.step(p, bots[p].act(m.round, p))
    for again in (LongcardMatch.from_json(m.to_json()), load_state(m.to_json()), pickle.loads(pickle.dumps(m))):
        assert type(again) is LongcardMatch and again.to_dict() == m.to_dict()
    assert m.dealer_sequence()[0] == 2
    d = json.loads(m.to_json())
    d["results"][0]["fan"] = 99
    with pytest.raises(StateError, match=r"^results\[0\]"):
        LongcardMatch.from_dict(d)


def test_registry_and_refusals():
    fam = registry.family_of("changpai-ydr")
    m = fam.new_match(ruleset="changpai-ydr", seed=1, rounds=2, min_fan=0, options={"fan_cap": 4})
    assert isinstance(m, LongcardMatch) and m.round.hand.settings.fan_cap == 4
    with pytest.raises(RulesetError, match="unknown changpai-ydr option"):
        fam.new_match(ruleset="changpai-ydr", seed=1, options={"nope": 1})
    with pytest.raises(RulesetError, match="not a long-card ruleset"):
        LongcardRound("two-player", 1)
    with pytest.raises(RulesetError, match="no minimum fan"):
        LongcardMatch("changpai-ydr", 1, min_fan=3)
    r = LongcardRound("changpai-ydr", 1)
    with pytest.raises(IllegalActionError):
        r.step(r.seats_to_act()[0], {"type": "qi", "id": 256})          # a dict that is not the action's
    p = r.seats_to_act()[0]
    a = r.legal_actions(p)[0]
    assert r.action_index(p, a.to_dict()) == r.action_index(p, a) == a.id == Action.coerce(a.to_dict()).id


def test_mj_round_and_mj_match_take_the_long_card_ruleset():
    """Issue 13, the embedding API: ``mj.Round(ruleset="changpai-ydr", seed=...)`` is the long-card hand
    under the shared API (the same hand as LongcardRound), ``mj.Match("changpai-ydr", ...)`` the match;
    mahjong rulesets still give the mahjong classes, and mahjong-only keywords are refused."""
    import mahjong_core as mj

    r = mj.Round(ruleset="changpai-ydr", seed=3, dealer=1)
    assert type(r) is LongcardRound
    play_round(r, [RuleBot() for _ in range(3)])
    assert r.to_json() == _played().to_json()
    assert type(copy.deepcopy(r)) is LongcardRound and type(mj.Round("two-player", seed=1)) is mj.Round
    m = mj.Match("changpai-ydr", seed=5, rounds=2)
    assert type(m) is LongcardMatch and type(pickle.loads(pickle.dumps(m))) is LongcardMatch
    play_match(m, [RuleBot() for _ in range(3)])
    assert len(m.results) == 2 and type(mj.Match("public", seed=5, rounds=1)) is mj.Match
    for bad in ({"min_fan": 3}, {"round_wind": 28}, {"wall": [1, 2]}):
        with pytest.raises(RulesetError, match=f"got {next(iter(bad))}"):
            mj.Round(ruleset="changpai-ydr", seed=1, **bad)
    with pytest.raises(RulesetError, match="got wind_rotation"):
        mj.Match("changpai-ydr", 1, wind_rotation=True)
    with pytest.raises(RulesetError, match="unknown ruleset 'nope'"):
        mj.Round("nope")
