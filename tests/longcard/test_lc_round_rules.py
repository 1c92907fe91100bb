"""One test per rule of the long-card game flow (spec changpai.md section 3) on scripted stocks,
and the flow example 3.15.  Stocks are built by ``lc_round_helpers.make_stock`` (no 财神 unless a
test asks for them; 五门将 on, J1 = the first card after the deal, J2 = the last)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from mahjong_core.errors import IllegalActionError
from mahjong_core.families.longcard.cards import parse_cards
from mahjong_core.families.longcard.round_actions import FOLD, PASS, Action

from mahjong_core import _lc_hand

from .lc_round_helpers import do, ids, scripted

F = {c: parse_cards(c)[0] for c in ("11", "12", "13", "14", "15", "16", "22", "25", "26", "34", "36", "44", "55", "66")}

# the flow example's seats: A banker (pair of 地, 7 卯), B four 长二 and 猫猫 pair, C folds
FLOW_A = "11 11 44 44 44 14 14 16 34 25 46 46 13 55 55 55 24 24 35 26"
FLOW_B = "22 22 22 22 15 15 66 66 12 56 45 45 45 36 23 33 33 33 56 14"
# a ready 20-card hand (waits 14, 36, 16) and a qualified banker without 地/人/天
READY = "46 46 13 16 34 25 14 14 55 55 55 66 66 66 44 44 44 11 11 11"
PLAIN = "22 22 22 33 33 33 45 45 45 26 26 26 15 15 35 35 24 24 36 23"


def flow(front: str = "12 13 11", **options):
    return scripted({0: FLOW_A, 1: FLOW_B}, banker=0, front=front, last="36", **options)


OPEN = ((0, "qi"), (1, "pass"), (2, "fold"))                 # A 起s, B plays on, C folds
TO_B_TURN = OPEN + ((0, "d 26"), (1, "pass"))                 # A discards 26, B passes his 吃
TO_OFFER = TO_B_TURN + ((1, "pass"),)                         # B turns front[2]


def run(r, steps) -> None:
    for seat, action in steps:
        do(r, seat, action)


def total_cards(r) -> int:
    n = sum(map(sum, r.hands)) + sum(r.caishen) + sum(len(t) for t in r.tangzi) + r.stock_left
    n += sum(len(g.cards) for gs in r.groups for g in gs)
    return n + (1 if r.phase == "claim" else 0)


def test_deal_banker_21_others_20_and_jiang():
    """3.2, 3.3 steps 1 and 5: 20 each, J1 = first card after the deal, J2 = last; banker's extra card."""
    r = flow()
    assert [sum(h) for h in r.hands] == [20, 20, 20] and r.stock_left == 45
    assert r.jiang == (r.stock[60], r.stock[-1]) == (F["12"], F["36"])
    do(r, 0, "qi")
    assert r.effective(0) == 21 and r.hands[0][F["12"]] == 1      # the extra card is the first stock card
    assert total_cards(r) == 105


def test_caishen_laid_out_and_replaced_at_deal():
    """3.3 step 2: a dealt 财神 is laid out (+1) and replaced from the front of the stock."""
    r = scripted({0: FLOW_A, 1: FLOW_B[:-3] + " CS"}, banker=0, front="12", caishen_count=5)
    assert r.caishen[1] == 1 and sum(r.hands[1]) == 20 and r.hands[1][F["12"]] == 2
    assert any(e["type"] == "caishen" and e["seat"] == 1 for e in r.events_for(0))
    assert total_cards(r) == 110


def test_qi_stage_order_and_qi_condition():
    """3.3 step 3: asked from the banker; 起 needs Q and F_theo >= 1; the stage ends at once."""
    r = flow()
    assert r.seats_to_act() == [0] and ids(r, 0) == {"qi", "pass", "fold"}
    do(r, 0, "qi")
    assert r.qi_player == 0 and r.phase == "stay" and r.actor == 1    # B, C decide in the 偷牌 stage
    assert r.qi_faces[F["11"]] and r.qi_faces[F["44"]] and r.qi_faces[F["14"]] and not r.qi_faces[F["55"]]


def test_qi_stage_pass_then_next_seat():
    r = flow()
    do(r, 0, "pass")
    assert r.phase == "qi" and r.actor == 1 and r.asked[0]


def test_unqualified_pass_is_baozi_b1():
    """3.3 step 3, 3.11, 3.13 B1: an unqualified player who does not fold pays 包子."""
    junk = "12 13 14 15 16 23 24 25 26 33 34 35 36 45 46 55 56 66 11 44"
    r = scripted({0: junk}, banker=0)
    assert not r.qualified(0) and "qi" not in ids(r, 0)
    assert r.penalised_mask(0)[PASS] and not r.penalised_mask(0)[FOLD]
    do(r, 0, "pass")
    res = r.result
    assert res["end"] == "baozi" and res["offender"] == 0 and res["cause"] == "B1" and res["cause_name"] == "陀数不够 / 卯数不够"
    assert res["fan"] == 3 and res["payments"] == [[0, 1, 4], [0, 2, 4]] and res["deltas"] == [-8, 4, 4]
    assert res["next_banker"] == 0 and res["counts"] is True


def test_penalised_actions_removed_when_not_allowed():
    """CP-49: with baozi_actions_allowed = false the engine never offers a penalised choice."""
    junk = "12 13 14 15 16 23 24 25 26 33 34 35 36 45 46 55 56 66 11 44"
    r = scripted({0: junk}, banker=0, baozi_actions_allowed=False)
    assert ids(r, 0) == {"fold"}
    with pytest.raises(IllegalActionError):
        do(r, 0, "pass")


def test_nobody_qi_is_void_redeal():
    """3.3 step 4: nobody 起'd -> void, no payment, the banker stays, the hand does not count."""
    r = flow()
    do(r, 0, "pass")
    do(r, 1, "pass")
    do(r, 2, "fold")
    res = r.result
    assert res["end"] == "void" and res["deltas"] == [0, 0, 0] and res["next_banker"] == 0
    assert res["counts"] is False and r.seats_to_act() == []
    with pytest.raises(IllegalActionError, match="over"):
        do(r, 0, "pass")


def test_void_banker_rotates_with_option():
    r = flow(banker_after_void="rotate")
    for s in (0, 1, 2):
        do(r, s, "fold")
    assert r.result["end"] == "void" and r.result["next_banker"] == 1


def test_tou_stage_declares_tuhuo_weixiang_and_draws():
    """3.3 step 6, 3.6: four held -> 吐火未响 declared (kept, public) and one replacement, shown to all."""
    r = flow()
    do(r, 0, "qi")
    do(r, 1, "pass")
    assert [g.kind for g in r.groups[1]] == ["tuhuo_weixiang"] and r.hands[1][F["22"]] == 0
    assert r.effective(1) == 20 and r.hands[1][F["13"]] == 1          # the replacement card
    seen = [e for e in r.events_for(2) if e["type"] == "replacement"]
    assert seen == [{"type": "replacement", "seat": 1, "card": F["13"]}]


def test_five_held_is_tuhuo_xiang_and_two_draws():
    b = "22 22 22 22 22 15 15 66 66 12 56 45 45 45 36 23 33 33 33 56"
    r = scripted({0: FLOW_A, 1: b}, banker=0, front="12 13 16", last="36")
    do(r, 0, "qi")
    do(r, 1, "pass")
    assert [g.kind for g in r.groups[1]] == ["tuhuo_xiang"] and r.effective(1) == 20
    assert r.hands[1][F["13"]] == 1 and r.hands[1][F["16"]] == 1


def test_flow_example_3_15():
    """3.15: A 起s; B declares four 长二 and draws; C folds; A discards 26; B may 吃 it with 15 15 and
    passes; 26 to A's 堂子; B (C folded) turns 11; A's 碰 (3) beats B's 吃 (1); A discards."""
    r = flow()
    run(r, OPEN)
    assert r.phase == "discard" and r.actor == 0 and r.effective(0) == 21
    do(r, 0, "d 26")
    assert r.seats_to_act() == [1] and ids(r, 1) == {"chi 15 15", "pass", "fold"}
    do(r, 1, "pass")
    assert r.tangzi[0] == [F["26"]] and r.phase == "turn" and r.actor == 1
    do(r, 1, "pass")
    assert r.offer == F["11"] and r.claim_queue == [0, 1]            # A (碰) asked before B (吃)
    assert r.claim_opts[1] == {Action("chi", pair=(F["66"], F["66"])).id: 1}
    do(r, 0, "peng")
    assert r.phase == "discard" and r.actor == 0 and [g.kind for g in r.groups[0]] == ["peng"]
    assert r.effective(0) == 21 and total_cards(r) == 105
    assert r._tiao_free(F["11"]) and not r._tiao_free(F["14"])     # the 碰 secured the 地 fan


def test_turn_unclaimed_goes_to_turner_tangzi_and_next_active_turns():
    """3.4 TURN: nobody claims -> the turner's 堂子; next_active (folded C skipped) turns."""
    r = flow(front="12 13 56")
    run(r, TO_B_TURN)
    do(r, 1, "pass")       # B turns 56; every claimant passes
    while r.phase == "claim":
        do(r, r.actor, "pass")
    assert r.result is None and r.tangzi[1] == parse_cards("56") and r.actor == 0 and r.phase == "turn"


def test_sha_is_mandatory_and_draws_a_replacement():
    """3.5, 3.7 有杀必杀: no pass; 杀 then one replacement draw, then win or discard."""
    r = flow(front="12 13 55 16")
    run(r, TO_B_TURN)
    do(r, 1, "pass")       # B turns 55; A holds three
    assert ids(r, 0) == {"sha", "fold"}
    do(r, 0, "sha")
    assert [g.kind for g in r.groups[0]] == ["sha"] and r.hands[0][F["16"]] == 2 and r.effective(0) == 21
    assert r.phase == "discard" and r.actor == 0 and r.self_win_ok


def test_tuopai_fifth_copy_after_sha():
    """3.6 rule 2 (拖牌): the replacement is the 5th copy of the 杀'd face -> laid 吐火响, draw again."""
    r = flow(front="12 13 55 55 16")
    run(r, TO_OFFER)
    do(r, 0, "sha")
    assert [g.kind for g in r.groups[0]] == ["tuhuo_xiang"] and r.hands[0][F["16"]] == 2 and r.effective(0) == 21


def test_replacement_making_four_is_declared_and_draws_again():
    """3.6 rule 4: a replacement making 4 concealed -> 吐火未响 declared, one more draw."""
    r = flow(front="12 13 55 44 16")
    run(r, TO_OFFER)
    do(r, 0, "sha")
    kinds = sorted(g.kind for g in r.groups[0])
    assert kinds == ["sha", "tuhuo_weixiang"] and r.hands[0][F["44"]] == 0 and r.effective(0) == 21


def test_discard_chi_only_by_next_active():
    """3.5: a discard can be 吃'd only by next_active(D); a turned card by T and next_active(T)."""
    r = flow(front="12 13 11")
    run(r, OPEN)
    do(r, 0, "d 26")
    assert 1 in r.claim_queue and r.claim_opts[2] == {}
    do(r, 1, "pass")
    do(r, 1, "pass")     # B turns 11: B (turner) may 吃 with 66 66, A (next_active(B), C folded) may 碰
    assert set(r.claim_opts[0]) == {Action("peng").id} and r.claim_opts[1]


def test_seven_triple_chi_bans_that_face():
    """3.5 特殊7 (CP-22 seven_only): after 吃-ing 高脚 with 二五 三四, no 高脚 discard this turn; the
    passed 碰 bars 高脚 (3.9 过碰)."""
    a = FLOW_A.replace("26", "16")
    r = scripted({0: a, 1: FLOW_B}, banker=0, front="12 13 16", last="36")
    run(r, OPEN)
    do(r, 0, "d 35")
    do(r, 1, "pass") if r.phase == "claim" else None
    do(r, 1, "pass")     # B turns 16; A is next_active(B)
    assert {"peng", "chi 25 34"} <= ids(r, 0)
    do(r, 0, "chi 25 34")
    assert r.phase == "discard" and "discard 16" not in ids(r, 0) and r.peng_barred[0][F["16"]]


def test_peng_bar_after_pass():
    """3.9 过碰: a 碰 offered and passed is barred for the rest of the hand."""
    r = flow(liang_mao_bi_jin=False, wei_zhang_bi_jin=False)
    run(r, TO_OFFER)
    do(r, 0, "pass")      # A passes his 碰 of 11
    assert r.peng_barred[0][F["11"]] == 1
    assert Action("peng").id not in r._claim_options(0) or r.offer != F["11"]


def test_tiao_pai_discard_of_qi_face_is_baozi_b5():
    """3.8: the 起 player may not discard a card of a 起 fan face before 挡 (B5)."""
    r = flow()
    run(r, OPEN)
    assert r.penalised_mask(0)[F["11"]] and r.penalised_mask(0)[F["14"]] and not r.penalised_mask(0)[F["26"]]
    assert r.penalty_of(0, Action("discard", face=F["14"])) == "B5"
    do(r, 0, "d 14")
    assert r.result["end"] == "baozi" and r.result["cause"] == "B5" and r.result["offender"] == 0


def test_dang_releases_the_face():
    """3.8 挡 (CP-25): another player took a card of the face, or no live copy left -> 跳 is free."""
    r = flow()
    run(r, OPEN)
    r.dang[F["14"]] = 1
    assert not r.penalised_mask(0)[F["14"]] and r.penalised_mask(0)[F["11"]]
    r.tangzi[1] += [F["11"]] * 3        # every other 地 dead: live = 0
    assert not r.penalised_mask(0)[F["11"]]
    r2 = flow(liang_fan_ke_tiao=True)   # 两番可跳: F_theo >= 2 frees every face
    run(r2, OPEN)
    assert not r2.penalised_mask(0).any() or r2.penalised_mask(0)[FOLD]


def test_fold_after_start_when_qualified_is_baozi_b2():
    """3.11, 3.13 B2: 必进必打 forbids a qualified fold once play started; free in the 偷牌 stage."""
    r = flow()
    do(r, 0, "qi")
    do(r, 1, "pass")
    do(r, 2, "fold")            # free: C was not asked in the 起 stage
    assert r.result is None
    do(r, 0, "d 26")
    do(r, 1, "pass")
    assert r.penalised_mask(1)[FOLD]
    do(r, 1, "fold")
    assert r.result["end"] == "baozi" and r.result["cause"] == "B2" and r.result["offender"] == 1


def test_fold_free_without_bi_jin_bi_da_and_all_folded_is_huangzhuang():
    """CP-27 off: folding is free; CP-44: everybody folded -> 黄庄, no payment, banker stays."""
    r = flow(bi_jin_bi_da=False)
    run(r, OPEN)
    do(r, 0, "fold")
    assert r.phase == "turn" and r.actor == 1      # next_active(A) turns
    do(r, 1, "fold")
    assert r.result["end"] == "huangzhuang" and r.result["why"] == "all_folded" and r.result["deltas"] == [0, 0, 0]
    assert r.result["counts"] is True and r.result["next_banker"] == 0


def test_stock_exhausted_is_huangzhuang():
    """3.4, 3.14: a TURN due with an empty stock ends the hand in 黄庄 (no payment, the banker stays)."""
    r = flow()
    run(r, TO_B_TURN)
    assert r.phase == "turn" and r.actor == 1
    r.pos = len(r.stock) - 1        # the stock as if every card but one had been turned
    do(r, 1, "pass")                # B turns the last card
    while r.phase == "claim":
        do(r, r.actor, "pass")
    assert r.result["end"] == "huangzhuang" and r.result["why"] == "stock_empty" and r.result["deltas"] == [0, 0, 0]
    assert r.result["next_banker"] == 0 and r.result["counts"] is True


def test_two_mao_pass_is_baozi_b3():
    """3.7 两卯必进, 3.13 B3: in the two-卯 state, passing a 碰 after which he is ready is 包子."""
    r = flow()
    run(r, TO_OFFER)
    assert r._two_mao(0) and r.penalty_of(0, PASS) == "B3" and r.penalised_mask(0)[PASS]
    do(r, 0, "pass")
    assert r.result["end"] == "baozi" and r.result["cause"] == "B3"


def test_win_on_discard_and_settlement():
    """3.5 胡 (priority 6) on a discard; 5.2 everybody pays, the folded seat too; next banker = winner."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36")
    run(r, OPEN)
    do(r, 0, "d 36")
    assert "hu" in ids(r, 1)
    do(r, 1, "hu")
    res = r.result
    h = np.array(r.hands[1], np.uint8)
    s = _lc_hand.score(h, None, banker=False, jiang=r.jiang)
    assert res["end"] == "win" and res["winner"] == 1 and res["fan"] == s.total == 2
    assert res["payments"] == [[0, 1, 3], [2, 1, 3]] and res["deltas"] == [-3, 6, -3] and res["next_banker"] == 1


def test_folded_players_pay_off():
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36", folded_players_pay=False)
    for s, a in ((0, "qi"), (1, "pass"), (2, "fold"), (0, "d 36"), (1, "hu")):
        do(r, s, a)
    assert r.result["payments"] == [[0, 1, 3]] and r.result["deltas"] == [-3, 3, 0]


def test_guo_hu_needs_a_higher_fan_on_that_face():
    """3.9 过胡 (CP-52 face): after passing a win on 36, a later win on 36 needs more fan."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36")
    run(r, OPEN + ((0, "d 36"),))
    do(r, 1, "pass")
    assert r.guohu[1][F["36"]] == 2
    assert not r._wins_with(1, F["36"]) and r._wins_with(1, F["14"])


def _sha_then_self_win(guohu_36: int = -1):
    """B turns 55 (he holds three: 杀 is mandatory), the replacement 36 completes his hand."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 55 36", last="36")
    run(r, OPEN + ((0, "d 23"), (1, "pass")))
    r.guohu[1][F["36"]] = guohu_36
    do(r, 1, "sha")
    assert r.phase == "discard" and r.actor == 1 and r.drawn == F["36"] and r.self_win_ok
    return r


def test_guo_hu_of_a_passed_self_drawn_win():
    """3.9 过胡 for a self-drawn win (4.2: on his own replacement draw): discarding instead of winning records
    the fan passed on the drawn face, as passing a claimed win does."""
    r = _sha_then_self_win()
    assert "hu" in ids(r, 1)
    fan = r._score(1, r.hands[1]).total
    do(r, 1, "d 25")
    assert r.guohu[1][F["36"]] == fan == 2 and max(r.guohu[1][f] for f in range(21) if f != F["36"]) == -1


def test_self_drawn_win_on_a_passed_face_needs_a_higher_fan():
    """3.9: a win on X after passing one on X needs more fan, drawn or claimed alike."""
    assert "hu" not in ids(_sha_then_self_win(guohu_36=2), 1)        # the same 2 fan: no win
    assert "hu" in ids(_sha_then_self_win(guohu_36=1), 1)            # 2 > 1
    r = _sha_then_self_win(guohu_36=2)
    r.settings = dataclasses.replace(r.settings, guo_hu_scope="hand")
    r.guohu[1][F["36"]], r.guohu[1][F["14"]] = -1, 2                 # scope "hand": any face's pass counts
    assert "hu" not in ids(r, 1)


def test_illegal_step_changes_nothing():
    r = flow()
    before = r.snapshot()
    for bad in (Action("discard", face=0), 999, -1, "qi", Action("chi", pair=(3, 1))):
        with pytest.raises(IllegalActionError):
            r.step(0, bad)
    with pytest.raises(IllegalActionError):
        r.step(1, Action("qi"))
    assert r.snapshot() == before


C_ELEVENS = "11 11 66 66 66 15 15 15 44 24 24 26 26 35 35 33 33 46 22 25"


def test_equal_rank_nearest_to_source_wins_without_asking_the_farther():
    """3.5 resolution (CP-17) and the 8.2 protocol: two 碰 on B's turned 11, C (nearer) is asked first and
    his 碰 is executed at once."""
    r = scripted({0: FLOW_A, 1: FLOW_B}, banker=0, front="12 13 11", last="36", fill={2: C_ELEVENS},
                 liang_mao_bi_jin=False, wei_zhang_bi_jin=False)
    assert r.qualified(2)
    for s, a in ((0, "qi"), (1, "pass"), (2, "pass"), (0, "d 26")):
        do(r, s, a)
    while r.phase == "claim":
        do(r, r.actor, "pass")
    assert r.phase == "turn" and r.actor == 1
    do(r, 1, "pass")             # B turns 11
    assert r.offer == F["11"] and r.claim_queue[:2] == [2, 0]
    do(r, 2, "peng")
    assert r.phase == "discard" and r.actor == 2 and r.groups[2][-1].kind == "peng"
    assert not r.peng_barred[0][F["11"]]          # losing to an equal nearer claim does not bar (CP-53)


def test_stay_decision_unqualified_is_b1():
    """3.3 step 6, 3.11: a seat not asked in the 起 stage decides in the 偷牌 stage; unqualified -> fold or B1."""
    junk = "12 13 14 15 16 23 24 25 26 33 34 35 36 45 46 55 56 66 11 44"
    r = scripted({0: READY, 1: junk}, banker=0)
    if not r.legal_mask(0)[Action("qi").id]:
        pytest.skip("scripted banker cannot 起")
    do(r, 0, "qi")
    assert r.phase == "stay" and r.actor == 1 and not r.qualified(1)
    assert r.penalty_of(1, PASS) == "B1" and r.penalty_of(1, FOLD) is None


def test_xiang_claim_on_own_weixiang_face():
    """3.5 吐火响 (priority 5, mandatory): the 5th 长二 turned by B completes his 吐火未响; one replacement."""
    r = flow(front="12 13 22 16")
    run(r, TO_OFFER)
    assert r.offer == F["22"] and ids(r, 1) == {"xiang", "fold"}
    do(r, 1, "xiang")
    assert [g.kind for g in r.groups[1]] == ["tuhuo_xiang"] and r.hands[1][F["16"]] == 1
    assert r.phase == "discard" and r.actor == 1 and r.effective(1) == 21


def test_bi_peng_removes_pass_and_chi():
    """3.7 必碰: a player able to 碰 must (no pass, no 吃), unless he declares 胡; FOLD stays."""
    r = flow(bi_peng=True, liang_mao_bi_jin=False, wei_zhang_bi_jin=False)
    run(r, TO_OFFER)
    assert ids(r, 0) == {"peng", "fold"}


def test_tian_hu_banker_wins_with_21():
    """4.2, 3.3 step 7: the banker may win with his 21 cards before the first discard (天胡, no extra fan)."""
    r = scripted({0: READY, 1: PLAIN}, banker=0, front="14")
    assert r.qualified(0)
    do(r, 0, "qi")
    while r.phase == "stay":
        do(r, r.actor, "fold")
    assert r.phase == "discard" and "hu" in ids(r, 0) and r.drawn == -1
    do(r, 0, "hu")
    s = _lc_hand.score(np.array(r.hands[0], np.uint8), None, banker=True, jiang=r.jiang)
    assert r.result["end"] == "win" and r.result["winner"] == 0 and r.result["card"] is None
    assert r.result["fan"] == s.total and r.result["deltas"] == [2 * (s.total + 1), -s.total - 1, -s.total - 1]


def test_passed_tian_hu_records_no_guo_hu():
    """3.9 names the face of the passed win; 天胡 is won on no drawn card, so passing it bars no face."""
    r = scripted({0: READY, 1: PLAIN}, banker=0, front="14")
    do(r, 0, "qi")
    while r.phase == "stay":
        do(r, r.actor, "fold")
    assert "hu" in ids(r, 0)
    do(r, 0, "d 46")
    assert all(v == -1 for v in r.guohu[0])


def test_seven_triple_claim_as_peng_class():
    """CP-21 alternative: with seven_triple_claim = peng the three-7s claim ranks 3."""
    a = FLOW_A.replace("26", "16")
    r = scripted({0: a, 1: FLOW_B}, banker=0, front="12 13 16", last="36", seven_triple_claim="peng",
                 chi_same_face_discard_ban="none")
    for s, x in ((0, "qi"), (1, "pass"), (2, "fold"), (0, "d 35")):
        do(r, s, x)
    while r.phase == "claim":
        do(r, r.actor, "pass")
    do(r, 1, "pass")
    assert r.claim_opts[0][Action("chi", pair=(F["25"], F["34"])).id] == 3
    do(r, 0, "chi 25 34")
    assert "discard 16" in ids(r, 0)              # chi_same_face_discard_ban = none


def test_last_mao_claim_is_hu_only():
    """3.5 (CP-31): loose cards = complete groups + one 卯 -> no 吃/碰 of the card completing it."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36")
    run(r, OPEN)
    # READY: 14 14 is the open 卯; a 碰 of 14 would complete it
    assert r._last_mao_block(1, (F["14"], F["14"]))
    r2 = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36", last_mao_claim_is_hu_only=False)
    assert not r2._last_mao_block(1, (F["14"], F["14"]))


def test_chusi_must_fold_b6():
    """3.11 杵死 (必碰 only): loose cards one pair X X, X offered, completing misses 陀 -> fold or B6."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36", bi_peng=True)
    run(r, OPEN)
    # make seat 1's loose cards a black pair whose completion misses 33 陀 (red 坎 swapped for black ones)
    for face, n in (("14", -2), ("22", 2), ("11", -3), ("33", 3), ("44", -3), ("26", 3)):
        r.hands[1][parse_cards(face)[0]] += n
    r.offer, r.offer_from, r.offer_kind = F["22"], 0, "discard"
    assert r._chusi(1)
    r.phase, r.actor, r.claim_opts = "claim", 1, {0: {}, 1: {}, 2: {}}
    assert r.penalty_of(1, PASS) == "B6" and r.penalty_of(1, FOLD) is None      # fold is due, not B2
    r.offer = F["36"]
    assert not r._chusi(1)


def test_announcements_on_replacements():
    """3.12: 四根上手 / 五根上手 after a 杀 replacement of a 碰'd / 杀'd face; 未碰成坎 for a barred face."""
    from mahjong_core.families.longcard.groups import Group
    r = flow()
    r.groups[0] = [Group("peng", (F["11"],) * 3), Group("sha", (F["44"],) * 4)]
    r.peng_barred[0][F["55"]] = 1
    r._announce_draw(0, F["11"], True)
    r._announce_draw(0, F["44"], True)
    r._announce_draw(0, F["55"], False)   # 55 55 55 held: a barred face became a triple
    names = [e["name"] for e in r.events if e["type"] == "announce"]
    assert names == ["四根上手", "五根上手", "未碰成坎"]
    r2 = flow(announcements="off")
    r2.groups[0] = [Group("peng", (F["11"],) * 3)]
    r2._announce_draw(0, F["11"], True)
    assert not [e for e in r2.events if e["type"] == "announce"]


def test_announcements_on_claims_and_bi_peng_announcements():
    """3.12: 四根 / 五根 when he claims (吃 or 胡) a card of a face he has 碰'd / 杀'd; under 必碰, 二根 / 三根 when a 杀
    replacement makes a concealed pair / triple of a face already visible, 现过 for a face he has 吃'd."""
    from mahjong_core.families.longcard.groups import Group
    r = flow(bi_peng=True)
    r.groups[0] = [Group("peng", (F["11"],) * 3), Group("sha", (F["44"],) * 4)]
    r._announce_gen(0, F["11"])
    r._announce_gen(0, F["44"])
    r._announce_gen(0, F["55"])              # a face neither 碰'd nor 杀'd: nothing
    r.tangzi[1] = [F["13"], F["16"]]          # one 13 and one 16 visible in B's 堂子
    r.hands[0][F["13"]], r.hands[0][F["16"]] = 2, 3
    r._announce_draw(0, F["13"], True)
    r._announce_draw(0, F["16"], True)
    r.chi_faces[0][F["34"]] = 1
    r._announce_draw(0, F["34"], True)
    assert [(e["name"], e["face"]) for e in r.events if e["type"] == "announce"] == [
        ("四根", F["11"]), ("五根", F["44"]), ("二根", F["13"]), ("三根", F["16"]), ("现过", F["34"])]
    r2 = flow()                               # without 必碰: 二根 / 三根 / 现过 are not announced
    r2.tangzi[1] = [F["13"]]
    r2.hands[0][F["13"]] = 2
    r2.chi_faces[0][F["34"]] = 1
    r2._announce_draw(0, F["13"], True)
    r2._announce_draw(0, F["34"], True)
    assert not [e for e in r2.events if e["type"] == "announce"]


def test_turned_caishen_is_laid_out_and_the_turner_turns_again():
    """3.4 TURN: a turned 财神 is laid out by the turner (+1 fan) and he turns the next card."""
    r = flow(front="12 13 CS 11", caishen_count=5)
    run(r, TO_B_TURN)
    do(r, 1, "pass")                          # B turns 财神, then 11
    assert r.caishen == [0, 1, 0] and r.offer == F["11"] and r.offer_from == 1 and r.phase == "claim"
    assert [e for e in r.events_for(2) if e["type"] == "caishen"] == [{"type": "caishen", "seat": 1, "count": 1}]
    assert total_cards(r) == 110


def test_replacement_caishen_is_laid_out_and_drawn_again():
    """3.6 rule 1: a 财神 drawn as a replacement is laid out (+1) and the player draws again."""
    r = flow(front="12 13 55 CS 16", caishen_count=5)
    run(r, TO_OFFER)
    do(r, 0, "sha")
    assert r.caishen[0] == 1 and r.hands[0][F["16"]] == 2 and r.effective(0) == 21 and r.drawn == F["16"]
    assert [e["type"] for e in r.events[-3:]] == ["replacement", "caishen", "replacement"]


def test_replacement_fifth_copy_of_a_weixiang_face_reveals_it():
    """3.6 rule 3 (吐火到自己补到): B, holding a declared 吐火未响 of 长二, 杀s the 45 he turned and draws the fifth
    长二: his 吐火未响 becomes a laid 吐火响 and he draws again."""
    r = flow(front="12 13 45 22 16")
    run(r, TO_B_TURN)
    do(r, 1, "pass")                          # B turns 45 and holds three: 杀 (the turner too, 3.5)
    assert ids(r, 1) == {"sha", "fold"}
    do(r, 1, "sha")
    assert [(g.kind, g.face) for g in r.groups[1]] == [("tuhuo_xiang", F["22"]), ("sha", parse_cards("45")[0])]
    assert r.phase == "discard" and r.actor == 1 and r.effective(1) == 21 and r.drawn == F["16"]
    assert {"type": "declare", "seat": 1, "kind": "tuhuo_xiang", "face": F["22"]} in r.events_for(0)


def test_weixiang_cards_cannot_be_discarded():
    """3.10 (CP-56): the cards of a declared 吐火未响 are no discard."""
    r = flow(front="12 13 45 16")
    run(r, TO_B_TURN)
    do(r, 1, "pass")
    do(r, 1, "sha")
    assert [g.kind for g in r.groups[1]] == ["tuhuo_weixiang", "sha"] and r.phase == "discard"
    assert r.hands[1][F["22"]] == 0 and not r.legal_mask(1)[F["22"]] and "d 22" not in " ".join(ids(r, 1))
    with pytest.raises(IllegalActionError):
        do(r, 1, "d 22")


def test_the_turner_may_win_on_the_card_he_turned():
    """3.5: 胡 on a turned card is open to every seat, the turner included (4.2)."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 14", last="36")
    run(r, OPEN + ((0, "d 23"),))
    while r.phase == "claim":
        do(r, r.actor, "pass")
    do(r, 1, "pass")                          # B turns 14, which completes his hand
    assert (r.offer, r.offer_from, r.actor) == (F["14"], 1, 1) and "hu" in ids(r, 1)
    do(r, 1, "hu")
    assert r.result["end"] == "win" and r.result["winner"] == 1 and r.result["card"] == F["14"]
    assert r.result["deltas"][1] == 2 * (r.result["fan"] + 1)


def test_turn_direction_cw():
    """CP-2 alternative: clockwise, seat - 1 is 下家."""
    r = flow(turn_direction="cw")
    do(r, 0, "pass")
    assert r.actor == 2 and r.next_active(0) == 2


def test_wei_zhang_last_card_pass_is_baozi_b4():
    """3.7 尾张必进, 4.7 (CP-30): passing the last card that can make him ready is 包子 B4 (two-卯 rule off
    to isolate it; every other copy made dead by hand)."""
    r = flow(liang_mao_bi_jin=False)
    run(r, TO_OFFER)                  # B turned 11; A's 碰 makes him ready
    assert r.penalty_of(0, PASS) is None                # other 11 are still live
    live = r.live(0)
    live[F["11"]] -= 1                                  # the card on offer is not counted
    makes_ready = [x for x in range(21) if any(r._ready_after_claim(0, pr, x) for pr in r._claim_pairs(0, x))]
    r.tangzi[2] = [f for f in makes_ready for _ in range(live[f])]
    assert r._last_card(0, F["11"]) and r.penalty_of(0, PASS) == "B4"


def test_tiao_by_chi_with_a_qi_face_is_b5():
    """3.8 (b): the 起 player using a concealed card of a 起 fan face in a 吃 is 跳牌."""
    r = flow(front="12 13 36")
    run(r, TO_OFFER)                  # B turns 36; B (the turner) is asked first, then A may 吃 it with his 幺四 pair
    do(r, 1, "pass")
    assert r.actor == 0 and r.offer == F["36"] and r.penalty_of(0, Action("chi", pair=(F["14"], F["14"]))) == "B5"


def test_guo_hu_scope_hand():
    """CP-52 alternative: after a passed win every later win needs a higher fan."""
    r = scripted({0: PLAIN, 1: READY}, banker=0, front="15 12", last="36", guo_hu_scope="hand")
    run(r, OPEN + ((0, "d 36"),))
    do(r, 1, "pass")
    h = list(r.hands[1])
    h[F["14"]] += 1
    assert r._wins_with(1, F["14"]) == (r._score(1, h).total > 2)
    assert not r._wins_with(1, F["36"])


def test_qi_fan_measure_s1_and_dang_taken_only():
    """CP-42 s1: 起 fan = a 幺地人 pair or any 4 of a kind; CP-25 taken_only: a dead face does not release."""
    r = flow(qi_fan_measure="s1", dang_rule="taken_only")
    assert r.f_theo(0) == 1 and r.f_theo(1) == 1          # A: 地 pair; B: four 长二
    run(r, OPEN)
    r.tangzi[1] += [F["11"]] * 3
    assert r.penalised_mask(0)[F["11"]]                   # no live 地 left, still not released
    r.dang[F["11"]] = 1
    assert not r.penalised_mask(0)[F["11"]]


def test_empty_stock_at_a_replacement_draw_is_huangzhuang():
    """3.6, CP-43: a replacement draw due with an empty stock ends the hand in 黄庄; the 杀 stays laid."""
    r = flow(front="12 13 55 16")
    run(r, TO_OFFER)
    r.pos = len(r.stock)           # as if the offered 55 had been the last stock card
    do(r, 0, "sha")
    assert r.result["end"] == "huangzhuang" and r.result["why"] == "stock_empty"
    assert r.groups[0][-1].kind == "sha" and F["55"] not in r.tangzi[1]


def test_chi_passes_to_the_next_active_seat_when_the_xiajia_folds():
    """3.5, CP-20 ("A打出一张，只B能吃；如B已经跳牌，则C能吃"): B folds in the window, C may 吃 A's discard."""
    c_chi = C_ELEVENS.replace("26 26", "23 23")
    r = scripted({0: FLOW_A, 1: FLOW_B}, banker=0, front="12 13 11", last="36", fill={2: c_chi},
                 bi_jin_bi_da=False, liang_mao_bi_jin=False, wei_zhang_bi_jin=False)
    run(r, ((0, "qi"), (1, "pass"), (2, "pass"), (0, "d 26")))
    assert r.claim_queue == [1] and r.claim_opts[2] == {}
    do(r, 1, "fold")
    assert r.actor == 2 and {"chi 24 24", "chi 33 33"} <= ids(r, 2)
    do(r, 2, "chi 24 24")
    assert r.groups[2][-1].cards == (F["24"] if "24" in F else parse_cards("24")[0],) * 2 + (F["26"],)
