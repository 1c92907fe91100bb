"""Reference bots of the long-card hand (spec changpai.md 8.5): seeded hands finish without an engine
error, conserve 105 + caishen_count cards, settle to zero, and RuleBot never incurs 包子.

(The spec asks for 10 000 RuleBot hands; the pure-Python reference plays about one hand a second,
so this suite plays a seeded sample and the compiled engine will carry the full count.)"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.families.longcard.round_actions import FOLD, HU, QI
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard._ref.round import Round

from .test_lc_round_properties import cards_everywhere


@pytest.mark.parametrize("seed", [*range(10), 10012])   # 10012: a 跳牌 was the only claim to get ready
def test_rulebot_hands(seed):
    r = Round(seed)
    res = play_hand(r, [RuleBot(r.settings) for _ in range(3)])
    assert res["end"] in ("win", "void", "huangzhuang")          # never 包子
    assert sum(res["deltas"]) == 0 and cards_everywhere(r) == 105 + r.settings.caishen_count


@pytest.mark.parametrize("seed", range(30))
def test_randombot_hands(seed):
    r = Round(1000 + seed, options={"caishen_count": (0, 5, 10)[seed % 3]})
    res = play_hand(r, [RandomBot(seed * 7 + k) for k in range(3)])
    assert sum(res["deltas"]) == 0 and cards_everywhere(r) == 105 + r.settings.caishen_count
    assert not any(r.penalised_mask(p).any() for p in range(3))


def test_randombot_is_uniform_over_unpenalised_and_seeded():
    legal = np.zeros(259, np.bool_)
    legal[[3, 7, 256, 258]] = True
    pen = np.zeros(259, np.bool_)
    pen[258] = True
    picks = [RandomBot(1).choose({}, legal, pen) for _ in range(3)]
    assert picks == [RandomBot(1).choose({}, legal, pen)] * 3
    bot = RandomBot(2)
    seen = {bot.choose({}, legal, pen) for _ in range(200)}
    assert seen == {3, 7, 256}


def test_rulebot_priorities():
    """FOLD iff unqualified; QI whenever legal; HU whenever legal (spec 8.5)."""
    r = Round(3)
    p = r.seats_to_act()[0]
    bot = RuleBot(r.settings)
    a = bot.choose(r.view(p), r.legal_mask(p), r.penalised_mask(p))
    if r.qualified(p):
        assert a == (QI if r.legal_mask(p)[QI] else 256)
    else:
        assert a == FOLD
    legal = r.legal_mask(p).copy()
    legal[HU] = True
    if r.qualified(p):
        assert bot.choose(r.view(p), legal, r.penalised_mask(p)) in (QI, HU)


def test_rulebot_is_deterministic():
    a, b = Round(8), Round(8)
    play_hand(a, [RuleBot(a.settings) for _ in range(3)])
    play_hand(b, [RuleBot(b.settings) for _ in range(3)])
    assert a.log == b.log


def test_shared_bot_protocol():
    """act(rnd, seat) / act_index(rnd, seat), as the shared bots of mahjong_core.game.bots."""
    from mahjong_core.errors import IllegalActionError
    r = Round(4)
    p = r.seats_to_act()[0]
    bot = RuleBot(r.settings)
    a = bot.act(r, p)
    i = bot.act_index(r, p)
    assert np.flatnonzero(r.legal_mask(p))[i] == a.id == bot.choose(r.view(p), r.legal_mask(p), r.penalised_mask(p))
    with pytest.raises(IllegalActionError):
        bot.act(r, (p + 1) % 3)


def test_ledger_total_unchanged_over_a_sequence_of_hands():
    """Every hand's payments through the shared Ledger: total unchanged, no balance below zero; the
    next hand's banker is the result's next_banker."""
    from mahjong_core.families.longcard.round_settlement import ledger_requests
    from mahjong_core.settlement import Ledger
    names = ["east", "south", "west"]
    led = Ledger({n: 30 for n in names})
    total = led.total
    banker = 0
    for k in range(6):
        r = Round(500 + k, banker=banker)
        res = play_hand(r, [RuleBot(r.settings) for _ in range(3)])
        led.apply(ledger_requests(res, names), round=k)
        assert led.total == total and min(led.balances.values()) >= 0
        banker = res["next_banker"]
        assert banker == (res["winner"] if res["end"] == "win" else r.banker)


def test_play_decision_is_step_with_the_masks_worked_out_once():
    """``Round.play_decision(bot)`` (play_hand's loop) plays the hand that step() with the two masks plays;
    a bot choosing an illegal action is refused and changes nothing."""
    a, b = Round(21), Round(21)
    bots_a, bots_b = [RuleBot(a.settings) for _ in range(3)], [RuleBot(b.settings) for _ in range(3)]
    while a.seats_to_act():
        p = b.actor
        b.step(p, bots_b[p].choose(b.view(p), b.legal_mask(p), b.penalised_mask(p)))
        a.play_decision(bots_a[a.actor])
        assert a.events == b.events and [a.view(q) for q in range(3)] == [b.view(q) for q in range(3)]
    assert a.result == b.result

    class Illegal:
        def choose(self, view, legal, penalised):
            return int(np.flatnonzero(~legal)[0])

    r = Round(3)
    before = r.snapshot()
    with pytest.raises(IllegalActionError, match="not legal"):
        r.play_decision(Illegal())
    assert r.snapshot() == before
    play_hand(r, [RandomBot(k) for k in range(3)])
    with pytest.raises(IllegalActionError, match="over"):
        r.play_decision(RandomBot(0))


# seeds whose caishen_count = 10 deal lets a seat hold more than the default deck's 5 财神: a RuleBot
# counting under the default settings raised TileCountError there (issue 25)
TEN_CAISHEN = {"caishen_count": 10, "mao_bonus": "off", "tmax_quad_value": "weixiang", "wumenjiang": False}


@pytest.mark.parametrize("seed", [7, 12, 24])
def test_rulebot_plays_under_the_round_settings_whatever_it_was_built_with(seed):
    ref = Round(seed, options=TEN_CAISHEN)
    want = play_hand(ref, [RuleBot(ref.settings) for _ in range(3)])
    assert max(ref.caishen) > 5
    for bots in ([RuleBot() for _ in range(3)], [RuleBot(Round(0).settings, impl="reference")] * 3):
        r = Round(seed, options=TEN_CAISHEN)
        assert play_hand(r, bots) == want and r.log == ref.log            # play_decision: the hand's settings
    # the shared protocol (act / act_index) on the reference and the compiled hand, and the shared round API
    from mahjong_core.families.longcard.round_engine import CompiledHand
    from mahjong_core.families.longcard.round_match import LongcardRound
    from mahjong_core.game.bots import play_round
    bot = RuleBot()
    for hand in (Round(seed, options=TEN_CAISHEN), CompiledHand(seed, options=TEN_CAISHEN)):
        while hand.seats_to_act():
            p = hand.seats_to_act()[0]
            hand.step(p, bot.act(hand, p))
        assert hand.log == ref.log and hand.result == want
    rnd = LongcardRound("changpai-ydr", seed, options=TEN_CAISHEN)
    play_round(rnd, [bot] * 3)
    assert rnd.is_over


def test_rulebot_built_for_other_settings_plays_like_the_compiled_rule_bot():
    """The simulator hands a RuleBot of any settings to the compiled engine's rule bot (which plays
    under the hand's settings): the same hands as the reference with that bot."""
    from mahjong_core.families.longcard.round_engine import compiled_bots
    from mahjong_core.families.longcard.round_settings import RoundSettings
    s = RoundSettings(caishen_count=10)
    assert compiled_bots([RuleBot(), RuleBot(s), RandomBot(1)], s)[0] == ("rule", "rule", "random")
    bot = RuleBot()
    assert bot.for_settings(s) is bot.for_settings(s) and bot.for_settings(bot.s) is bot
    with pytest.raises(MahjongError, match="RoundSettings"):
        RuleBot({"caishen_count": 10})
