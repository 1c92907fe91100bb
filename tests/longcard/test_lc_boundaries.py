"""Issue 25, long-card boundaries: the fan cap (spec 4.6, CP-11), NumPy option values, and the replay
record of spec 8.4 held to JSON types exactly (every option recorded, ``true`` is not ``1``, ``6.0`` is
not ``6``).  The mutated records also run in a child interpreter: ``test_lc_hostile.py``."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from mahjong_core.errors import RulesetError, StateError
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard.family import new_match
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.round_engine import CompiledHand
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.families.longcard.round_settings import RoundSettings

from mahjong_core import Round as ApiRound

from .test_lc_spec_examples import X6_DECL, X6_HAND, X13_DECL, X13_HAND

ENGINES = (Round, CompiledHand)


# ------------------------------------------------------------------ fan cap (4.6, CP-11)
@pytest.mark.parametrize("cap", [1, 2, np.int64(2)])
def test_a_cap_below_the_baozi_minimum_is_refused(cap):
    for make in (lambda: RoundSettings(fan_cap=cap), lambda: lc.check_options(fan_cap=cap),
                 lambda: lc.score(X6_HAND, "13", declared=X6_DECL, fan_cap=cap),
                 lambda: lc.wait_scores(X6_HAND, declared=X6_DECL, fan_cap=cap),
                 lambda: counting.baozi_fan(X6_HAND, X6_DECL, fan_cap=cap),
                 lambda: Round(1, options={"fan_cap": cap}), lambda: ApiRound("changpai-ydr", 1, options={"fan_cap": cap})):
        with pytest.raises(RulesetError, match="fan_cap.*0 .no cap. or an integer 3-1000"):
            make()


@pytest.mark.parametrize("cap, x13, x16", [(0, 5, 3), (3, 3, 3), (4, 4, 3), (5, 5, 3), (1000, 5, 3)])
def test_the_cap_settles_baozi_at_no_less_than_the_minimum(cap, x13, x16):
    """5.3 with 4.6: N_b = min(cap, max(3, best_win or H)), never below 3 (a cap of 1 or 2 settled 1 or 2)."""
    assert RoundSettings(fan_cap=cap).fan_cap == cap
    assert counting.baozi_fan(X13_HAND, X13_DECL, jiang="55 55", fan_cap=cap) == x13      # best_win 5
    assert counting.baozi_fan(X6_HAND, X6_DECL, fan_cap=cap) == x16                        # ready 平胡 (X16): 3


# ------------------------------------------------------------------ NumPy option values
NUMPY_OPTIONS = {"fan_cap": np.int64(3), "caishen_count": np.int32(10), "bi_peng": np.True_, "base": np.float64(2.5),
                 "settlement_mode": np.str_("fan_cheng_fan"), "wumenjiang": np.bool_(False),
                 "face_names": np.array([f"n{f}" for f in range(21)])}
PLAIN = {"fan_cap": 3, "caishen_count": 10, "bi_peng": True, "base": 2.5, "settlement_mode": "fan_cheng_fan",
         "wumenjiang": False, "face_names": [f"n{f}" for f in range(21)]}


def _plain_types(x):
    if isinstance(x, dict):
        return all(type(k) is str and _plain_types(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_plain_types(v) for v in x)
    return x is None or type(x) in (bool, int, float, str)


def test_numpy_option_values_are_normalised_at_the_boundary():
    s = RoundSettings.from_options(NUMPY_OPTIONS)
    assert {k: v for k, v in s.to_options().items() if k in PLAIN} == PLAIN and _plain_types(s.to_options())
    assert s == RoundSettings.from_options(PLAIN)
    assert lc.check_options(fan_cap=np.int64(4))["fan_cap"] == 4 and type(lc.check_options(base=np.int8(2))["base"]) is int
    for make in (lambda: Round(3, options=NUMPY_OPTIONS), lambda: CompiledHand(3, options=NUMPY_OPTIONS)):
        r = make()
        text = r.to_json()                  # a TypeError before issue 25 (the option kept its NumPy type)
        assert json.loads(text)["options"] == s.to_options() and type(r).from_json(text).to_json() == text
    rnd = LongcardRound("changpai-ydr", np.int64(3), options=NUMPY_OPTIONS)
    assert rnd.log[0]["options"] == PLAIN and _plain_types(rnd.log[0])
    assert LongcardRound.from_json(rnd.to_json()).to_json() == rnd.to_json()
    m = new_match(ruleset="changpai-ydr", seed=2, rounds=1, options={"fan_cap": np.int64(3), "bi_peng": np.True_})
    assert m.options == {"fan_cap": 3, "bi_peng": True} and json.loads(m.to_json())["options"] == m.options


@pytest.mark.parametrize("key, value", [("fan_cap", np.float64(3.0)), ("fan_cap", True), ("bi_peng", 1),
                                        ("bi_peng", np.int64(1)), ("caishen_count", 5.0), ("caishen_count", np.True_),
                                        ("base", True), ("face_names", "n" * 21), ("face_names", [""] * 21),
                                        ("face_names", {f"n{f}": 1 for f in range(21)})])
def test_numpy_and_python_values_of_the_wrong_kind_are_refused(key, value):
    with pytest.raises(RulesetError, match=key):
        RoundSettings.from_options({key: value})


# ------------------------------------------------------------------ the replay record (8.4)
def _record(engine, seed=5):
    """A finished hand's record (RuleBots; ``base`` 2, an integer)."""
    r = engine(seed, options={"base": 2})
    bot = RuleBot()
    while r.seats_to_act():
        r.play_decision(bot)
    return json.loads(r.to_json())


def _pay_false(d):
    if d["result"]["payments"]:
        d["result"]["payments"][0][2] = False
    else:
        d["result"]["payments"] = [[0, 1, False]]


MUTATIONS = [
    # (what, mutate, message); every one passed an == comparison or a default before issue 25
    ("an option left out", lambda d: d["options"].pop("bi_peng"), r"^options: every option .*missing \['bi_peng'\]"),
    ("every option left out", lambda d: d.update(options={}), r"^options: every option"),
    ("an option 0 for false", lambda d: d["options"].update(bi_peng=0), r"^options: option bi_peng must be True"),
    ("base 2.0 for 2", lambda d: d["options"].update(base=2.0), r"^result\.payments\[0\]\[2\]: expected a number, got \d+$"),
    ("a delta as a float", lambda d: d["result"]["deltas"].__setitem__(0, float(d["result"]["deltas"][0])),
     r"^result\.deltas\[0\]: expected an integer"),
    ("a payment amount false", _pay_false, r"^result\.payments"),
    ("counts 1 for true", lambda d: d["result"].update(counts=int(d["result"]["counts"])),
     r"^result\.counts: expected a boolean"),
    ("the banker true", lambda d: d.update(banker=True), r"^banker: expected a seat"),
    ("the version 2.0", lambda d: d.update(version=2.0), r"^version"),
    ("a stock card as a float", lambda d: d["stock"].__setitem__(0, float(d["stock"][0])), r"^stock"),
    ("a stock card as a bool", lambda d: d["stock"].__setitem__(0, True), r"^stock"),
    ("an action seat as a bool", lambda d: d["actions"][0].__setitem__(0, bool(d["actions"][0][0])), r"^actions\[0\]"),
    ("an action id as a float", lambda d: d["actions"][0].__setitem__(1, float(d["actions"][0][1])), r"^actions\[0\]"),
    ("a result key left out", lambda d: d["result"].pop("next_banker"), r"^result\.next_banker: missing"),
    ("a result key added", lambda d: d["result"].update(extra=1), r"^result\.extra: unknown key"),
]


@pytest.mark.parametrize("engine", ENGINES, ids=["reference", "compiled"])
@pytest.mark.parametrize("what, mutate, message", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_the_replay_record_is_held_to_json_types(engine, what, mutate, message):
    d = _record(engine)
    assert d["result"]["end"] == "win" and d["result"]["payments"]
    assert engine.from_dict(copy.deepcopy(d)).to_json() == json.dumps(d, ensure_ascii=False, separators=(",", ":"))
    bad = copy.deepcopy(d)
    mutate(bad)
    with pytest.raises(StateError, match=message):
        engine.from_dict(bad)
    with pytest.raises(StateError, match=message):
        engine.from_json(json.dumps(bad))
