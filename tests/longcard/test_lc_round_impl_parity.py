"""The compiled counting backend against the reference (the pure-Python oracle) in lockstep: the same
seeded hands are played by ``Round(impl="compiled")`` and ``Round(impl="reference")`` with the same
bots (RuleBot on the matching backend), and at every decision both offer the same legal and penalised
actions; the event logs and the results are equal."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.errors import MahjongError
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot
from mahjong_core.families.longcard.round_counting import IMPLS
from mahjong_core.families.longcard._ref.round import Round

# option sets that change what the counting backend answers (CP-14, CP-15, CP-23, CP-31) or how often
# it is asked (必碰 / 杵死, 两卯必进, 尾张必进, 包子 actions offered)
OPTIONS = [
    {},
    {"caishen_count": 0, "bi_peng": True},
    {"mao_bonus": "s1", "chi_may_use_kan": True},
    {"mao_bonus": "off", "tmax_quad_value": "weixiang", "caishen_count": 10},
    {"mao_bonus": "any", "last_mao_claim_is_hu_only": False, "baozi_actions_allowed": False},
]


def lockstep(seed: int, kind: str, options: dict) -> dict:
    rounds = [Round(seed, options=options, impl=i) for i in IMPLS]
    if kind == "rule":
        bots = [[RuleBot(r.settings, impl=i) for _ in range(3)] for r, i in zip(rounds, IMPLS)]
    else:
        bots = [[RandomBot(seed * 3 + k) for k in range(3)] for _ in IMPLS]
    for _ in range(2000):
        seats = [r.seats_to_act() for r in rounds]
        assert seats[0] == seats[1]
        if not seats[0]:
            break
        p = seats[0][0]
        legal = [r.legal_mask(p) for r in rounds]
        pen = [r.penalised_mask(p) for r in rounds]
        assert np.array_equal(legal[0], legal[1]) and np.array_equal(pen[0], pen[1]), (seed, len(rounds[0].log))
        for r, b, lg, pn in zip(rounds, bots, legal, pen):
            r.step(p, b[p].choose(r.view(p), lg, pn))
    assert rounds[0].events == rounds[1].events
    assert rounds[0].result == rounds[1].result is not None
    return rounds[0].result


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
def test_rulebot_hands_lockstep(options):
    ends = [lockstep(seed, "rule", options)["end"] for seed in range(6)]
    assert all(e in ("win", "void", "huangzhuang") for e in ends)


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
def test_randombot_hands_lockstep(options):
    ends = {lockstep(100 + seed, "random", options)["end"] for seed in range(20)}
    assert ends <= {"win", "void", "huangzhuang", "baozi"}


def test_replay_rebuilds_on_either_backend():
    r = Round(5)
    res = lockstep(5, "random", {})
    from mahjong_core.families.longcard.round_bots import play_hand
    play_hand(r, [RandomBot(15 + k) for k in range(3)])
    assert r.result == res
    for impl in IMPLS:
        assert Round.replay(r.to_dict(), impl=impl).events == r.events


def test_unknown_impl_is_refused():
    for bad in ("fast", None, 1):
        with pytest.raises(MahjongError, match="impl must be one of compiled, reference"):
            Round(1, impl=bad)
        with pytest.raises(MahjongError, match="impl"):
            RuleBot(impl=bad)
