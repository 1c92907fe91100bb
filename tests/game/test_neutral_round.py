"""The shared round layer knows no family: a toy family (tests/support/toy/, three seats,
its own actions, deal, view and invariants) registered in the test runs through the shared round
API, views, per-seat event streams, the JSON state boundary, log replay, the match loop, the bot
loop and :func:`~mahjong_core.game.state.load_state`'s dispatch through the registry."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core.errors import IllegalActionError, RulesetError, SeatError, StateError
from mahjong_core.families import registry
from mahjong_core.game.bots import play_match, play_round
from mahjong_core.game.state import load_state
from tests.support.toy import GOAL, FirstLegal, Move, RaceMatch, RaceRound, registered


@pytest.fixture
def toy():
    with registered() as family:
        yield family


def _played(seed: int = 4, dealer: int = 1) -> RaceRound:
    r = RaceRound("toy-race", seed, dealer=dealer)
    play_round(r, [FirstLegal()] * 3)
    return r


def test_the_round_api_of_a_new_family(toy):
    r = RaceRound("toy-race", 4, dealer=1)
    assert r.ruleset == "toy-race" and r.players == 3 and r.phase_name == "turn"
    assert r.seats_to_act() == [1]
    assert r.legal_mask(0).tolist() == [False, False]
    legal = r.legal_actions(1)
    assert legal == [Move(n) for n in ((1,) if r.cards[1] == 1 else (1, 2))]
    assert r.legal_mask(1).sum() == len(legal) and r.legal_mask(1).dtype == np.bool_
    assert r.action_index(1, {"type": "move", "n": 1}) == 0
    with pytest.raises(IllegalActionError, match="seat 0 is not to act now"):
        r.step(0, Move(1))
    with pytest.raises(IllegalActionError, match="not a race action"):
        r.step(1, "jump")
    with pytest.raises(SeatError):
        r.step(7, Move(1))
    events = r.step(1, Move(1))
    assert events == [{"type": "action", "seat": 1, "action": {"type": "move", "n": 1}}]
    assert r.positions[1] == 1 and r.seats_to_act() == [2]


def test_a_refused_move_gives_the_family_reason(toy):
    for seed in range(50):
        r = RaceRound("toy-race", seed)
        if r.cards[0] == 1:
            with pytest.raises(IllegalActionError, match="card 1 moves one step"):
                r.step(0, Move(2))
            return
    pytest.fail("no seed deals card 1 to seat 0")  # pragma: no cover


def test_views_and_event_streams_hide_what_the_family_hides(toy):
    r = _played()
    v = r.view(0)
    assert list(v) == list(RaceRound.VIEW_KEYS)
    assert v["seat"] == 0 and v["players"] == 3 and v["phase"] == "over" and v["to_act"] is False
    assert v["card"] == r.cards[0] and v["result"] == r.to_dict()["result"]
    stream = r.log_for(0)
    assert "seed" not in stream[0]
    deals = [e for e in stream if e["type"] == "deal"]
    assert deals[0] == {"type": "deal", "seat": 0, "card": r.cards[0]}
    assert all("card" not in e for e in deals[1:])


def test_state_round_trip_replay_and_forgery(toy):
    r = _played()
    assert r.is_over and max(r.positions) >= GOAL and r.result.next_dealer == r.result.to_dict()["winner"]
    again = RaceRound.from_json(r.to_json())
    assert again.to_dict() == r.to_dict()
    assert pickle.loads(pickle.dumps(r)).to_dict() == r.to_dict()
    assert copy.deepcopy(r).to_dict() == r.to_dict()
    assert RaceRound.replay(r.log_lines()).to_dict() == r.to_dict()
    d = json.loads(r.to_json())
    d["positions"][0] += 1
    with pytest.raises(StateError, match=r"^positions\[0\]"):
        RaceRound.from_dict(d)
    d = json.loads(r.to_json())
    d["log"][4]["action"]["n"] = 3
    with pytest.raises(StateError, match=r"^log\[4\]: not a race action"):
        RaceRound.from_dict(d)
    d = json.loads(r.to_json())
    d["header"]["dealer"] = d["log"][0]["dealer"] = 5
    with pytest.raises(StateError, match=r"^log\[0\]\.dealer"):
        RaceRound.from_dict(d)


def test_the_shared_match_plays_and_reloads_a_new_family(toy):
    m = RaceMatch("toy-race", seed=9, rounds=4, first_dealer=2)
    results = play_match(m, [FirstLegal()] * 3)
    assert m.is_over and len(results) == 4
    dealers = m.dealer_sequence()
    assert dealers[0] == 2 and [r["round"] for r in m.results] == [0, 1, 2, 3]
    assert dealers[1:] == [r["next_dealer"] for r in m.results[:-1]]   # the winner deals next
    reloaded = RaceMatch.from_json(m.to_json())
    assert reloaded.to_dict() == m.to_dict()
    d = json.loads(m.to_json())
    d["results"][1]["winner"] = (d["results"][1]["winner"] + 1) % 3
    with pytest.raises(StateError, match=r"^results\[1\]\.winner"):
        RaceMatch.from_dict(d)


def test_load_state_dispatches_through_the_registry(toy):
    r = _played()
    m = RaceMatch("toy-race", seed=3, rounds=2)
    play_match(m, [FirstLegal()] * 3)
    assert type(load_state(r.to_json())) is RaceRound and load_state(r.to_dict()).to_dict() == r.to_dict()
    assert type(load_state(m.to_json())) is RaceMatch
    mahjong = mj.Round("two-player", seed=1)
    assert type(load_state(mahjong.to_json())) is mj.Round
    assert registry.family_of("toy-race") is toy


def test_load_state_refuses_what_no_family_registered(toy):
    r = _played()
    d = json.loads(r.to_json())
    d["header"]["ruleset"] = "no-such-game"
    with pytest.raises(StateError, match=r"^header\.ruleset: unknown ruleset"):
        load_state(d)
    with pytest.raises(StateError, match=r"^ruleset: expected a ruleset name"):
        load_state({"type": "match", "ruleset": 5})
    with pytest.raises(StateError, match="not valid JSON"):
        load_state("{")


def test_the_toy_family_is_gone_after_the_block():
    with registered():
        assert "toy-race" in registry.ruleset_names()
    assert "toy-race" not in registry.ruleset_names()
    with pytest.raises(RulesetError):
        registry.get_family("toy")


def test_follow_replays_another_rounds_actions_and_stops_at_the_first_illegal_one(toy):
    """``RoundBase._follow`` (the families' re-deals of hidden cards use it): another round of the
    same deal played through it ends in the same state; on a deal where a move is not legal it
    returns False there, the moves before it played."""
    a = RaceRound("toy-race", 11)
    while not a.is_over:
        p = a.seats_to_act()[0]
        a.step(p, a.legal_indices(p)[-1])
    b = RaceRound("toy-race", 11)
    assert b._follow(a._action_pairs()) and b.to_dict() == a.to_dict()
    # seat 0 moves two steps: on a deal that gives it card 1 (one step only) that move is illegal
    seed = next(s for s in range(100) if RaceRound("toy-race", s).cards[0] == 1)
    c = RaceRound("toy-race", seed, dealer=1)
    assert not c._follow(bytes((1, 0, 2, 0, 0, 1))) and c.positions == [0, 1, 1]
