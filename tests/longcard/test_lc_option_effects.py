"""Every option of ``lc.OPTIONS`` (spec 6, section 7) has an effect, and a test here shows it (issue 25:
``tuhuo_fixed`` and ``face_names`` were accepted and never read).

- An option with alternatives: a hand (or a count, a score, a settlement) differs when the option
  takes another value.  Hands are played on the compiled engine by its built-in bots from seeds
  0, 1, ... until one differs in what a seat is offered, the events, the log or the result.
- An option with one allowed value (the spec names no alternative), or whose alternative the engines
  refuse (``round_settings.UNSUPPORTED``: the spec defines no play for it): the other values are
  refused, and the rule the value names is shown by the rule test this module runs.
"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.errors import RulesetError
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard.options import OPTIONS
from mahjong_core.families.longcard.round_actions import PASS
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.families.longcard.round_settings import UNSUPPORTED, RoundSettings
from mahjong_core.families.longcard.round_settlement import next_banker

from . import test_lc_round_rules as rules
from .test_lc_cli_play import _play
from .test_lc_round_rules import TO_OFFER, F, flow, run

SEEDS = 800
"""Seeds tried before a played difference is given up (the rarest option here needs about 430)."""


def _trace(seed: int, options: dict, kind: str):
    """What a hand shows: every seat-to-act's offered actions (with their 包子 causes), the events and
    the result, played by the compiled engine's ``kind`` bots."""
    core = new_core(seed, options=options)
    gens = [np.random.default_rng(seed * 3 + k) for k in range(3)]
    offered = []
    while core.seats_to_act():
        p = core.actor
        offered.append((p, core.offered(p)))
        core.step(p, int(core.choose(kind, gens[p])))
    return offered, core.events(), core.result


def _played_difference(base: dict, alt: dict) -> tuple[int, str] | None:
    for seed in range(SEEDS):
        for kind in ("rule", "random"):
            if _trace(seed, base, kind) != _trace(seed, alt, kind):
                return seed, kind
    return None


EXTRA = {"banker_extra_card": False, "first_actor": "banker_turns"}       # CP-4 and CP-5 go together
PLAYED = {
    # key: [(base options, other options)], one pair per other value
    "caishen_count": [({}, {"caishen_count": 0}), ({}, {"caishen_count": 10})],
    "banker_extra_card": [({}, EXTRA)], "first_actor": [({}, EXTRA)],
    "turn_direction": [({}, {"turn_direction": "cw"})],
    "mao_bonus": [({}, {"mao_bonus": v}) for v in ("any", "s1", "off")],
    "tmax_quad_value": [({}, {"tmax_quad_value": "weixiang"})],
    "kan_as_peng": [({}, {"kan_as_peng": False})],
    "chi_may_use_kan": [({}, {"chi_may_use_kan": True})],
    "seven_triple_claim": [({}, {"seven_triple_claim": "peng"})],
    "chi_same_face_discard_ban": [({}, {"chi_same_face_discard_ban": v}) for v in ("all", "none")],
    "hu_overrides_mandatory": [({}, {"hu_overrides_mandatory": False})],
    "bi_peng": [({}, {"bi_peng": True})],
    "liang_mao_bi_jin": [({}, {"liang_mao_bi_jin": False})],
    "bi_jin_bi_da": [({}, {"bi_jin_bi_da": False})],
    "liang_fan_ke_tiao": [({}, {"liang_fan_ke_tiao": True})],
    "liang_fan_measure": [({"liang_fan_ke_tiao": True}, {"liang_fan_ke_tiao": True, "liang_fan_measure": "held"})],
    "dang_rule": [({}, {"dang_rule": v}) for v in ("taken_only", "any_face_releases_all")],
    "qi_stage_pass": [({}, {"qi_stage_pass": False})],
    "discard_chi_skips_folded": [({}, {"discard_chi_skips_folded": False})],
    "tiao_definition": [({}, {"tiao_definition": "chi_only"})],
    "last_mao_claim_is_hu_only": [({}, {"last_mao_claim_is_hu_only": False})],
    "ready_requires_live": [({}, {"ready_requires_live": True})],
    "win_split_kan": [({}, {"win_split_kan": False})],
    "peng_bar_on_pass": [({}, {"peng_bar_on_pass": False})],
    "wumenjiang_weight": [({}, {"wumenjiang_weight": "no_upgrade"})],
    "qi_fan_measure": [({}, {"qi_fan_measure": "s1"})],
    "guo_hu_scope": [({}, {"guo_hu_scope": "hand"})],
    "show_replacement_draws": [({}, {"show_replacement_draws": False})],
    "baozi_actions_allowed": [({}, {"baozi_actions_allowed": False})],
    "announcements": [({}, {"announcements": "off"})],
    "wumenjiang": [({}, {"wumenjiang": False})],
    "xiang_bonus_on_fan_faces": [({}, {"xiang_bonus_on_fan_faces": True})],
    "fan_cap": [({}, {"fan_cap": 3})],
    "settlement_mode": [({}, {"settlement_mode": "fan_cheng_fan"})],
    "folded_players_pay": [({}, {"folded_players_pay": False})],
    "banker_after_win": [({}, {"banker_after_win": v}) for v in ("rotate", "stay")],
    "banker_after_void": [({}, {"banker_after_void": "rotate"})],
    "base": [({}, {"base": 2})],
}


@pytest.mark.parametrize("key", list(PLAYED))
def test_the_option_changes_the_hands_played(key):
    for base, alt in PLAYED[key]:
        assert key in alt and RoundSettings.from_options(alt) != RoundSettings.from_options(base)
        assert _played_difference(base, alt) is not None, (key, alt)


# ------------------------------------------------------------------ effects shown on one situation
def _baozi_b3(**options):
    """The flow example up to A's 碰 that 两卯必进 demands (spec 3.15): A passes it, a B3 包子."""
    r = flow(**options)
    run(r, TO_OFFER)
    r.step(0, PASS)
    assert r.result["end"] == "baozi" and r.result["cause"] == "B3"
    return r.result


def _wei_zhang(**options):
    r = flow(liang_mao_bi_jin=False, **options)
    run(r, TO_OFFER)
    live = r.live(0)
    live[F["11"]] -= 1
    makes_ready = [x for x in range(21) if any(r._ready_after_claim(0, pr, x) for pr in r._claim_pairs(0, x))]
    r.tangzi[2] = [f for f in makes_ready for _ in range(live[f])]      # every other copy dead: 11 is the last
    return r.penalty_of(0, PASS)


# an all-black hand of 7 groups worth 20 陀 (five black 坎 and two black 吃 groups)
ALL_BLACK = "22 22 22 55 55 55 56 56 56 26 26 26 36 36 36 23 23 36 35 35 33"


def _face_names_screen(names):
    return _play("q\n", seed=7, you=0, options={} if names is None else {"face_names": names})


SHOWN = {
    "wei_zhang_bi_jin": lambda: (_wei_zhang(), _wei_zhang(wei_zhang_bi_jin=False)) == ("B4", None),
    "baozi_hand_counts": lambda: (_baozi_b3()["counts"], _baozi_b3(baozi_hand_counts=False)["counts"]) == (True, False),
    "baozi_convert": lambda: (_baozi_b3()["deltas"], _baozi_b3(baozi_convert=False)["deltas"]) == (
        [-2 * lc.settlement_points(_baozi_b3()["fan"]), lc.settlement_points(_baozi_b3()["fan"]),
         lc.settlement_points(_baozi_b3()["fan"])], [-2 * _baozi_b3()["fan"], _baozi_b3()["fan"], _baozi_b3()["fan"]]),
    "banker_after_baozi": lambda: [next_banker({"end": "baozi", "offender": 2}, RoundSettings(banker_after_baozi=v), 0)
                                   for v in ("stay", "offender", "rotate")] == [0, 2, 1],
    "held_fan_includes_kan": lambda: (counting.held_fan("44 44 44 11 11 11 14"), counting.held_fan(
        "44 44 44 11 11 11 14", held_fan_includes_kan=False)) == (2, 0),
    "all_black_waives_tuo": lambda: (lc.is_win(ALL_BLACK), lc.is_win(ALL_BLACK, all_black_waives_tuo=True)) == (
        False, True),
    "face_names": lambda: "(地牌 地牌 " in _face_names_screen(None) and "(n0 n0 " in _face_names_screen(
        [f"n{f}" for f in range(21)]),
}


@pytest.mark.parametrize("key", list(SHOWN))
def test_the_option_changes_the_situation(key):
    assert SHOWN[key]()


# ------------------------------------------------------------------ one value, or the alternative refused
RULE_TESTS = {
    # key: the rule test of test_lc_round_rules that shows what its value means
    "draw_source": "test_deal_banker_21_others_20_and_jiang",
    "jiang_reveal": "test_deal_banker_21_others_20_and_jiang",
    "claim_tie_break": "test_equal_rank_nearest_to_source_wins_without_asking_the_farther",
    "multiple_winners": "test_equal_rank_nearest_to_source_wins_without_asking_the_farther",
    "sha_draw_quad": "test_replacement_making_four_is_declared_and_draws_again",
    "last_card_rule": "test_wei_zhang_last_card_pass_is_baozi_b4",
    "caishen_owner": "test_caishen_laid_out_and_replaced_at_deal",
    "qualification_check": "test_stay_decision_unqualified_is_b1",
    "extra_mingtang": "test_tian_hu_banker_wins_with_21",
    "empty_replacement_ends": "test_empty_stock_at_a_replacement_draw_is_huangzhuang",
    "all_folded_ends": "test_fold_free_without_bi_jin_bi_da_and_all_folded_is_huangzhuang",
    "tuhuo_fixed": "test_weixiang_cards_cannot_be_discarded",
    "jiang_caishen_rule": None,      # shown below
}


@pytest.mark.parametrize("key", list(RULE_TESTS))
def test_the_value_is_the_rule_and_other_values_are_refused(key):
    opt = OPTIONS[key]
    others = [v for v in (opt.allowed if isinstance(opt.allowed, tuple) else (True, False)) if v != opt.default]
    if key in UNSUPPORTED:
        assert others == [UNSUPPORTED[key][0]]
    else:
        assert opt.allowed == (opt.default,)
        others = ["other"]
    for v in others:
        with pytest.raises(RulesetError, match=key):
            RoundSettings.from_options({key: v})
    if RULE_TESTS[key] is not None:
        getattr(rules, RULE_TESTS[key])()
    else:         # CP-41 seed: a 财神 as J1 counts as J2's face, so 地 is a weight-4 face (X11)
        assert lc.face_weights("CS 11")[F["11"]] == 4 and lc.face_weights("CS CS")[3] == 4


def test_every_option_is_shown():
    assert sorted([*PLAYED, *SHOWN, *RULE_TESTS]) == sorted(OPTIONS)
