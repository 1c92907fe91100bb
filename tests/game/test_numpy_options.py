"""Issue 25, item 9: options given as NumPy integers or booleans (``np.int64(3)``, ``np.bool_(True)``)
are normalised to Python ``int`` / ``bool`` where they enter, so everything built from them saves
(``to_json``), loads and pickles: rounds, matches, flow settings, rooms, settlement, simulation,
scoring and the advisor of the mahjong family."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core.game import load_state, play_round
from mahjong_core.families.mahjong.api import flow_settings
from mahjong_core.settlement import HandOutcome, Ledger, Room, get_room, settle_hand

I, B = np.int64, np.bool_


def _numpy_values(value: object, path: str = "$") -> list[str]:
    """Paths of every NumPy scalar inside a nested structure (none may be stored)."""
    if isinstance(value, np.generic):
        return [f"{path}: {type(value).__name__}"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _numpy_values(v, f"{path}.{k}")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in _numpy_values(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("ruleset", ["two-player", "two-player-bamboo", "public"])
def test_a_round_built_with_numpy_options_saves_and_loads(ruleset):
    options = ({"reserved_tail_tiles": I(6), "multiple_winners": B(True)} if ruleset == "public"
               else {"ready_mode": "any_discard", "ready_locks_hand": B(False)})
    r = mj.Round(ruleset, seed=I(7), dealer=I(1), min_fan=I(0), options=options)
    assert (type(r.seed), type(r.dealer), type(r.settings.min_fan)) == (int, int, int)
    assert _numpy_values(vars(r.settings)) == []
    play_round(r, ["greedy"] * r.players)
    d = r.to_dict()
    assert _numpy_values(d) == [] and _numpy_values(r.view(0)) == []
    text = r.to_json()
    assert mj.Round.from_json(text).to_json() == text and load_state(text).to_json() == text
    assert pickle.loads(pickle.dumps(r)).to_json() == text


def test_a_match_built_with_numpy_options_saves_and_loads():
    m = mj.Match("public", I(3), rounds=I(2), min_fan=I(0), first_dealer=I(2), auto_advance=B(False),
                 options={"reserved_tail_tiles": I(6), "rob_kong": B(True)})
    assert (type(m.seed), type(m.rounds), type(m.first_dealer), type(m.auto_advance)) == (int, int, int, bool)
    while not m.is_over:
        play_round(m.round, ["greedy"] * 4)
        m.next_round()
    text = m.to_json()
    assert _numpy_values(m.to_dict()) == [] and mj.Match.from_json(text).to_json() == text
    assert load_state(text).to_json() == text and pickle.loads(pickle.dumps(m)).to_json() == text


def test_flow_settings_store_python_values():
    s = flow_settings("public", {"reserved_tail_tiles": I(6), "multiple_winners": B(True)}, min_fan=I(8))
    assert _numpy_values(vars(s)) == []
    assert type(s.reserved_tail_tiles) is int and type(s.multiple_winners) is bool and type(s.min_fan) is int


def test_rooms_and_settlement_store_python_ints():
    room = Room("np", "two-player", "coins_000", value_per_fan=I(15), base=I(2), coefficient=I(3),
                entry_min=I(10), entry_max=I(10_000), table_fee=I(1), service_fee_ratio=I(5),
                escape_multiplier=I(32), escape_system_share=I(50), min_fan=I(8), away_limit_s=np.float64(90),
                escape_disconnects=I(3))
    assert _numpy_values([getattr(room, f) for f in room.__dataclass_fields__ if f != "extra"]) == []
    outcome = HandOutcome(("a", "b"), winner=I(0), loser=I(1), method="discard", hand_value=I(10),
                          non_flower_total=I(10), min_fan=I(8), round=I(3))
    assert _numpy_values([getattr(outcome, f) for f in outcome.__dataclass_fields__]) == []
    ledger = Ledger()
    ledger.open("a", I(100_000))
    ledger.open("b", I(100_000))
    transfers = settle_hand(ledger, room, outcome)
    text = json.dumps([t.to_dict() for t in transfers] + [dict(ledger.balances)])
    assert _numpy_values(json.loads(text)) == [] and all(type(v) is int for v in ledger.balances.values())
    settle_hand(ledger, get_room("beginner"), HandOutcome(("a", "b"), winner=I(1), loser=I(0), method="discard",
                                                          hand_value=I(12), non_flower_total=I(12)))


def test_simulation_with_numpy_parameters_saves():
    res = mj.simulate("two-player", rounds=I(6), batch_size=I(3), seed=I(4), min_fan=I(8), workers=I(1),
                      progress=B(False), record_wins=B(True))
    assert _numpy_values(res.provenance) == [] and type(res.rounds) is int
    json.loads(res.to_json())


def test_scoring_and_the_advisor_with_numpy_parameters():
    s = mj.score("123m456m789m11mEE", "E", min_fan=I(8), flowers=I(2), self_drawn=B(True))
    assert _numpy_values(s.to_dict()) == [] and type(s.min_fan) is int
    scorer = mj.Scorer("public", min_fan=I(8), caishen_enabled=B(False))
    # a pickled Scorer is rebuilt from its options: they are plain Python values
    assert _numpy_values(scorer.__reduce__()[1]) == []
    assert pickle.loads(pickle.dumps(scorer)).min_fan == 8
    a = mj.advise("55789m678p345sSCC", ruleset="public", min_fan=I(8), max_draws=I(3))
    assert _numpy_values(a.to_json()) == [] and type(a.min_fan) is int
    json.dumps(a.to_json())
