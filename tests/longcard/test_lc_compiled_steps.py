"""The shared step API (``LongcardRound``, spec 8.2-8.4) on the compiled hand engine
(``engine="compiled"``: :class:`.round_engine.CompiledHand`) against the reference engine in lockstep:
at every step the same seats to act, legal indices, masks and 包子 masks, views of every seat and
per-seat logs, bot choices and step events; in the end the same JSON state and result.  An illegal
action changes neither."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.errors import IllegalActionError, MahjongError, RulesetError
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot
from mahjong_core.families.longcard.round_engine import CompiledHand
from mahjong_core.families.longcard.round_match import LongcardRound

OPTIONS = [{}, {"bi_peng": True, "caishen_count": 0}, {"turn_direction": "cw", "baozi_actions_allowed": False},
           {"liang_fan_ke_tiao": True, "liang_fan_measure": "held", "show_replacement_draws": False}]


def lockstep(seed: int, options: dict, kind: str) -> dict:
    rounds = [LongcardRound("changpai-ydr", seed, dealer=seed % 3, options=options, engine=e)
              for e in ("reference", "compiled")]
    if kind == "rule":
        bots = [[RuleBot(r.hand.settings) for _ in range(3)] for r in rounds]
    else:
        bots = [[RandomBot(seed + k) for k in range(3)] for _ in rounds]
    a, b = rounds
    while True:
        assert a.seats_to_act() == b.seats_to_act() and a.phase_name == b.phase_name
        for q in range(3):
            assert a.legal_indices(q) == b.legal_indices(q)
            assert np.array_equal(a.legal_mask(q), b.legal_mask(q))
            assert np.array_equal(a.penalised_mask(q), b.penalised_mask(q))
            assert a.view(q) == b.view(q)
        if a.is_over:
            break
        p = a.seats_to_act()[0]
        i = bots[0][p].act_index(a, p)
        assert bots[1][p].act_index(b, p) == i
        assert a.step(p, i) == b.step(p, i)
    for q in range(3):
        assert a.log_for(q) == b.log_for(q)
    assert a.to_json() == b.to_json()
    assert a.result.to_dict() == b.result.to_dict()
    return a.result.to_dict()


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
def test_step_api_lockstep(options):
    ends = {lockstep(seed, options, kind)["end"] for seed in range(3) for kind in ("rule", "random")}
    assert ends <= {"win", "void", "huangzhuang", "baozi"}


def test_illegal_step_changes_nothing_on_the_compiled_hand():
    r = LongcardRound("changpai-ydr", 11, engine="compiled")
    p = r.seats_to_act()[0]
    before = (r.to_json(), r.hand.core.snapshot(), [r.view(q) for q in range(3)])
    illegal = next(i for i in range(259) if i not in r.legal_indices(p))
    for seat, action in [(p, illegal), ((p + 1) % 3, r.legal_indices(p)[0]), (p, 999), (p, "nonsense")]:
        with pytest.raises((IllegalActionError, MahjongError)):
            r.step(seat, action)
        assert (r.to_json(), r.hand.core.snapshot(), [r.view(q) for q in range(3)]) == before
    with pytest.raises(IllegalActionError):
        r.hand.step(p, illegal)
    assert r.hand.legal_actions(p) == r.legal_actions(p)


def test_replay_of_a_compiled_hand_on_the_reference():
    r = LongcardRound("changpai-ydr", 5, engine="compiled")
    bot = RuleBot()
    while not r.is_over:
        p = r.seats_to_act()[0]
        r.step(p, bot.act_index(r, p))
    again = LongcardRound.from_json(r.to_json())          # the state rebuilt from the log (reference engine)
    assert again.to_json() == r.to_json()
    rec = r.hand.to_dict()                                 # the hand's replay record of spec 8.4
    assert CompiledHand.replay(rec).events == r.hand.events
    assert r.hand.card_census() == [5] * 21 + [5]


def test_bad_engine_and_impl():
    with pytest.raises(RulesetError, match="engine"):
        LongcardRound("changpai-ydr", 1, engine="fast")
    with pytest.raises(MahjongError, match="impl"):
        CompiledHand(1, impl="reference")
