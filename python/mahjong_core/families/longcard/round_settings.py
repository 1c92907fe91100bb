"""Settings of a 长牌 幺地人 hand of play (spec changpai.md, sections 6 and 7) as one frozen record.

Every option of the spec's parameter table is a field of :class:`RoundSettings` with the spec's
default; the allowed values and the open point (CP-n) of each come from :data:`.options.OPTIONS`
(one table for the hand layer and the round engine).  A bad value raises
:class:`~mahjong_core.errors.RulesetError` naming the option.

Four alternatives that the spec names but does not define are refused by the engines instead of
being guessed: ``multiple_winners = True`` (CP-18 gives no rule for splitting a card between
winners), ``empty_replacement_ends = False`` (CP-43 gives no rule for a replacement draw that cannot
be made), ``all_folded_ends = False`` (CP-44 gives no play after everybody folded) and
``tuhuo_fixed = False`` (CP-56 gives no rule for a card taken out of a declared 吐火未响).
``face_names`` (CP-50) changes no rule: it is the display names that the terminal game
(:mod:`.play`) and the result lines (:func:`.cli.describe_result`) show.

>>> s = RoundSettings()
>>> s.settlement_mode, s.bi_peng, s.caishen_count
('tikan', False, 5)
>>> RoundSettings.from_options({"fan_cap": 4}).fan_cap
4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..._validate import short_repr
from ...errors import RulesetError
from .options import OPTIONS, check_value

__all__ = ["UNSUPPORTED", "RoundSettings"]

UNSUPPORTED: dict[str, tuple[Any, str]] = {
    "multiple_winners": (True, "the spec (CP-18) defines one winner per card only"),
    "empty_replacement_ends": (False, "the spec (CP-43) defines no play after a replacement draw that cannot be made"),
    "all_folded_ends": (False, ("the spec (CP-44) defines no play after every seat folded (a folded seat would be "
                                "asked to turn or fold again, and the hand might never end)")),
    "tuhuo_fixed": (False, ("the spec (CP-56) defines no play for a card taken out of a declared 吐火未响: the four "
                            "cards count as three of the 21 (spec 2.3), so a discard of one would leave the seat "
                            "21 effective cards")),
}
"""Option values the reference engine refuses: key -> (value, why)."""


_SCORE_KEYS = ("wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces", "fan_cap", "kan_as_peng",
               "win_split_kan", "all_black_waives_tuo", "caishen_count")


@dataclass(frozen=True)
class RoundSettings:
    """Every option of spec section 6 (keys, defaults and allowed values: ``options.OPTIONS``)."""

    # One field per option, in the table's order with its default (test_lc_round_settings checks
    # these against OPTIONS); the allowed values are checked in __post_init__ by check_value.
    caishen_count: int = 5
    banker_extra_card: bool = True
    turn_direction: str = "ccw"
    draw_source: str = "front"
    mao_bonus: str = "live"
    tmax_quad_value: str = "xiang"
    kan_as_peng: bool = True
    chi_may_use_kan: bool = False
    seven_triple_claim: str = "chi"
    chi_same_face_discard_ban: str = "seven_only"
    claim_tie_break: str = "nearest"
    multiple_winners: bool = False
    hu_overrides_mandatory: bool = True
    bi_peng: bool = False
    liang_mao_bi_jin: bool = True
    wei_zhang_bi_jin: bool = True
    bi_jin_bi_da: bool = True
    liang_fan_ke_tiao: bool = False
    liang_fan_measure: str = "theoretical"
    dang_rule: str = "taken_or_dead_per_face"
    qi_stage_pass: bool = True
    discard_chi_skips_folded: bool = True
    sha_draw_quad: str = "declare_and_draw"
    tiao_definition: str = "discard_or_chi"
    last_mao_claim_is_hu_only: bool = True
    ready_requires_live: bool = False
    win_split_kan: bool = True
    peng_bar_on_pass: bool = True
    tuhuo_fixed: bool = True
    first_actor: str = "banker_discards"
    baozi_hand_counts: bool = True
    last_card_rule: str = "no_other_live"
    held_fan_includes_kan: bool = True
    caishen_owner: str = "receiver"
    wumenjiang_weight: str = "power_of_two"
    jiang_reveal: str = "after_deal"
    jiang_caishen_rule: str = "seed"
    qi_fan_measure: str = "theoretical"
    empty_replacement_ends: bool = True
    all_folded_ends: bool = True
    qualification_check: str = "decision_points"
    face_names: Sequence[str] | None = None
    guo_hu_scope: str = "face"
    show_replacement_draws: bool = True
    baozi_actions_allowed: bool = True
    announcements: str = "auto"
    all_black_waives_tuo: bool = False
    wumenjiang: bool = True
    xiang_bonus_on_fan_faces: bool = False
    extra_mingtang: str = "none"
    fan_cap: int = 0
    settlement_mode: str = "tikan"
    baozi_convert: bool = True
    folded_players_pay: bool = True
    banker_after_win: str = "winner"
    banker_after_void: str = "stay"
    banker_after_baozi: str = "stay"
    base: float = 1

    def __post_init__(self) -> None:
        for key in OPTIONS:
            value = check_value(key, getattr(self, key))      # plain Python values (NumPy scalars normalised)
            object.__setattr__(self, key, value)
            bad = UNSUPPORTED.get(key)
            if bad is not None and value == bad[0]:
                raise RulesetError(f"option {key}={value!r} is not supported: {bad[1]}")
        if (self.first_actor == "banker_turns") == self.banker_extra_card:
            # CP-4/CP-5: a banker with 21 cards discards first; without the extra card he turns first
            raise RulesetError(f"option first_actor={self.first_actor!r} does not fit banker_extra_card="
                               f"{self.banker_extra_card!r} (banker_discards needs the extra card, banker_turns needs none)")

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None, **more: Any) -> RoundSettings:
        """Settings from an options mapping (and keywords); unknown keys raise ``RulesetError``."""
        merged: dict[str, Any] = {}
        for src in (options or {}), more:
            if not isinstance(src, Mapping):
                raise RulesetError(f"options must be a mapping of option keys, got {short_repr(src)}")
            for k, v in src.items():
                if k not in OPTIONS:
                    raise RulesetError(f"unknown changpai-ydr option {short_repr(k)}")
                merged[k] = v
        return cls(**merged)

    def to_options(self) -> dict[str, Any]:
        """Every option as plain JSON-able data (spec 8.4 ``options``)."""
        d = asdict(self)
        if d["face_names"] is not None:
            d["face_names"] = list(d["face_names"])
        return d

    def score_options(self) -> dict[str, Any]:
        """The keywords the compiled scorer (``_lc_hand.score`` / ``wait_scores``) reads."""
        return {k: getattr(self, k) for k in _SCORE_KEYS}
