"""Issue 25, long-card rules, in both engines (the reference ``_ref.round`` and the compiled ``_lc_round``,
stepped in lockstep by ``test_lc_compiled_fixes._both``, which compares the offered actions and the
state at every step):

- 杵死 (spec 3.11, 3.13 B6): every choice but the fold is a B6 包子, the 吃 and the 必碰 碰 too;
  with ``baozi_actions_allowed = false`` only the fold is left;
- a 吃 or 碰 is offered only when the claimant keeps a concealed card to discard (3.5, CP-31);
- the 包子 fan of an offender holding 21 cards (5.3, CP-63): after the discard he made (B5), on the 20
  he keeps; after another offending act, the best of his possible discards.
"""

from __future__ import annotations

import pytest
from mahjong_core.families.longcard.round_actions import FOLD, HU, PASS, PENG, chi_id

from .lc_round_helpers import make_stock
from .test_lc_compiled_fixes import _both, _id
from .test_lc_round_rules import FLOW_A, FLOW_B, F

OPEN = [(0, _id("qi")), (1, _id("pass")), (2, _id("fold"))]     # A 起s, B plays on, C folds

# B (seat 1) after the deal: four black 坎, two red 吃 groups and the black pair 36 36 -- qualified
# (T_max = 4 x 6 + 3 + 3 + 4 = 34: the 坎 valued as 杀), but a 36 completes only 26 陀 (4 x 4 + 3 + 3 + 4)
CHUSI = "22 22 22 33 33 33 56 56 56 23 23 23 66 66 11 14 14 45 36 36"
CHI_14_36 = chi_id(F["14"], F["36"])


def _chusi(**options):
    """A discards the 36 he drew as his extra card: B, A's 下家, is in the 杵死 situation (必碰 on)."""
    stock = make_stock({0: FLOW_A, 1: CHUSI}, 0, "36", "12")
    return _both(stock, [*OPEN, (0, _id("d 36"))], caishen_count=0, bi_peng=True, **options)


def test_chusi_chi_is_baozi_b6():
    r, core = _chusi()
    assert r.phase == "claim" and r.actor == 1 and r._chusi(1) and r.qualified(1)
    # before issue 25 the 吃 was offered unpenalised: the seat escaped the forced fold
    assert core.offered(1) == r._offered(1) == {CHI_14_36: "B6", PASS: "B6", FOLD: None}
    r, core = _both(r.stock, [*r.log, [1, CHI_14_36]], caishen_count=0, bi_peng=True)
    assert r.result["end"] == "baozi" and r.result["cause"] == "B6" and r.result["offender"] == 1


def test_chusi_without_penalised_actions_leaves_the_fold_only():
    r, core = _chusi(baozi_actions_allowed=False)
    assert core.offered(1) == r._offered(1) == {FOLD: None}


def test_chusi_with_the_bi_peng_peng_offered():
    """With ``last_mao_claim_is_hu_only = false`` the 碰 of 36 is offered and 必碰 makes it mandatory: in
    杵死 it is a B6 包子 like any other choice, and the fold stays free (it was a B2 fold before)."""
    r, core = _chusi(last_mao_claim_is_hu_only=False)
    assert core.offered(1) == r._offered(1) == {PENG: "B6", FOLD: None}
    r, core = _chusi(last_mao_claim_is_hu_only=False, baozi_actions_allowed=False)
    assert core.offered(1) == r._offered(1) == {FOLD: None}
    r, core = _both(r.stock, [*r.log, [1, FOLD]], caishen_count=0, bi_peng=True, last_mao_claim_is_hu_only=False,
                    baozi_actions_allowed=False)
    assert r.folded[1] and r.phase != "end"


# B is dealt five quads: each is declared 吐火未响 in the 偷牌 stage; the replacements 66 66 66 66 make a
# sixth, and the last two are 12 12, his only concealed cards (6 declared groups + 2 = 20)
QUADS = "22 22 22 22 33 33 33 33 23 23 23 23 36 36 36 36 35 35 35 35"


@pytest.mark.parametrize("card, claim", [("12", PENG), ("56", chi_id(F["12"], F["12"]))])
@pytest.mark.parametrize("allowed", [True, False])
def test_no_claim_of_the_last_two_concealed_cards(card, claim, allowed):
    """A 碰 of 12 or a 吃 of 56 with 12 12 would leave B nothing to discard: his only move would be a fold
    (a 0-fan B2), none at all without penalised actions, and the hand would never end.  Only the 胡 is
    offered (3.5: "a claim that would use his last concealed cards is a 胡 or nothing")."""
    stock = make_stock({0: FLOW_A, 1: QUADS}, 0, f"{card} 66 66 66 66 12 12", "11")
    opts = {"caishen_count": 0, "last_mao_claim_is_hu_only": False, "baozi_actions_allowed": allowed}
    r, core = _both(stock, [*OPEN, (0, _id(f"d {card}"))], **opts)
    assert [g.kind for g in r.groups[1]] == ["tuhuo_weixiang"] * 6 and sum(r.hands[1]) == 2
    assert r.phase == "claim" and r.actor == 1
    offered = r._offered(1)
    assert core.offered(1) == offered and claim not in offered and HU in offered and PASS in offered
    r, core = _both(stock, [*r.log, [1, PASS]], **opts)
    assert r.phase == "turn" and core.snapshot()["phase"] == "turn"


# A (banker) 起s holding 11 11 (地), 44 44 44 (人) and 14 14 (幺四); J1 = J2 = 11 makes 地 a weight-4 face
# (4.5), and his extra card (J1) makes it a 坎: H = 4 (地 坎) + 1 (人 坎) = 5.  Every 11, 14 and 44 he
# discards is a forbidden 跳牌 (B5).
def _a_to_discard():
    stock = make_stock({0: FLOW_A, 1: FLOW_B}, 0, "11", "11")
    r, core = _both(stock, OPEN, caishen_count=0)
    assert r.phase == "discard" and r.actor == 0 and r.effective(0) == 21 and r.held_fan(0) == 5
    assert {a for a, c in r._offered(0).items() if c == "B5"} == {F["11"], F["14"], F["44"]}
    return r, core


def test_baozi_b5_counts_the_20_cards_kept_after_the_discard():
    r, core = _a_to_discard()
    r, core = _both(r.stock, [*r.log, [0, F["11"]]], caishen_count=0)
    # the 地 坎 is broken by the discard: not ready, H = 1 -> max(3, 1) = 3 (before issue 25: 6, the best discard)
    assert r.result["end"] == "baozi" and r.result["cause"] == "B5" and r.result["fan"] == 3
    assert core.snapshot()["result"] == r.result


def test_baozi_of_another_act_with_21_cards_counts_the_best_discard():
    r, core = _a_to_discard()
    best = max(r._baozi_fan(0, d) for d in range(21) if r.hands[0][d])
    r, core = _both(r.stock, [*r.log, [0, FOLD]], caishen_count=0)
    assert r.result["cause"] == "B2" and r.result["fan"] == best == 6 and core.snapshot()["result"] == r.result


@pytest.mark.parametrize("cap, fan", [(0, 6), (3, 3), (4, 4), (6, 6)])
def test_the_fan_cap_settles_a_baozi_at_no_less_than_the_minimum(cap, fan):
    """4.6 with 5.3: the B2 fold above (N_b 6) under fan_cap (0 = none; 1 and 2 are refused)."""
    stock = make_stock({0: FLOW_A, 1: FLOW_B}, 0, "11", "11")
    r, core = _both(stock, [*OPEN, (0, FOLD)], caishen_count=0, fan_cap=cap)
    assert r.result["cause"] == "B2" and r.result["fan"] == fan and core.snapshot()["result"] == r.result
