"""Option sets of the long-card flow that together move every setting of spec section 6 that
changes the flow away from its default at least once: what the compiled engine's parity tests
play against the reference, and what ``tools/lc_round_workload.py`` digests (its first ten, the
sets its recorded digests were computed over).  One list, so the tests and the workload cannot
drift apart."""

from __future__ import annotations

from typing import Any

__all__ = ["FLOW_OPTION_SETS", "WORKLOAD_OPTION_SETS"]

FLOW_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"bi_peng": True, "caishen_count": 0},
    {"banker_extra_card": False, "first_actor": "banker_turns", "caishen_count": 10},
    {"turn_direction": "cw", "discard_chi_skips_folded": False},
    {"seven_triple_claim": "peng", "chi_same_face_discard_ban": "all", "chi_may_use_kan": True},
    {"hu_overrides_mandatory": False, "liang_mao_bi_jin": False, "wei_zhang_bi_jin": False, "bi_jin_bi_da": False,
     "bi_peng": True},
    {"liang_fan_ke_tiao": True, "liang_fan_measure": "held", "dang_rule": "any_face_releases_all",
     "tiao_definition": "chi_only"},
    {"liang_fan_ke_tiao": True, "dang_rule": "taken_only", "chi_same_face_discard_ban": "none"},
    {"qi_stage_pass": False, "last_mao_claim_is_hu_only": False, "ready_requires_live": True},
    {"win_split_kan": False, "peng_bar_on_pass": False, "baozi_actions_allowed": False, "announcements": "off"},
    {"all_black_waives_tuo": True, "guo_hu_scope": "hand", "show_replacement_draws": False,
     "qi_fan_measure": "s1"},
    {"mao_bonus": "s1", "tmax_quad_value": "weixiang", "kan_as_peng": False, "xiang_bonus_on_fan_faces": True,
     "wumenjiang": False},
    {"mao_bonus": "any", "wumenjiang_weight": "no_upgrade", "held_fan_includes_kan": False},
    {"settlement_mode": "fan_cheng_fan", "fan_cap": 4, "baozi_convert": False, "folded_players_pay": False,
     "banker_after_win": "rotate", "banker_after_baozi": "offender", "baozi_hand_counts": False},
]
"""Every flow setting of spec section 6 away from its default at least once (the first is the defaults)."""

WORKLOAD_OPTION_SETS: list[dict[str, Any]] = FLOW_OPTION_SETS[:10]
"""The sets ``tools/lc_round_workload.py`` plays (its recorded digests are over exactly these)."""
