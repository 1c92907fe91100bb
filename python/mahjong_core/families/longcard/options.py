"""Configuration options of 长牌 幺地人 (spec changpai.md, sections 6 and 7) as data.

Every open point CP-n of the spec is an option with the key and default given there.  The hand
layer (win check, waits, fan, counting) reads the keys in :data:`HAND_OPTIONS`; the others belong
to the round engine and are listed here so that an options dict can be checked in one place.

>>> OPTIONS["fan_cap"].default, OPTIONS["wumenjiang"].cp
(0, 'CP-38')
>>> check_options({"fan_cap": 4})["fan_cap"]
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._validate import is_int, short_repr
from ...errors import RulesetError

__all__ = ["DEFAULTS", "HAND_OPTIONS", "OPTIONS", "RULESET", "Option", "check_options"]

RULESET = "changpai-ydr"
"""The ruleset name of this variant (spec title)."""


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    allowed: Any
    """A tuple of allowed values, ``bool``, ``"cap"`` (0 = none, or an integer of at least 3: spec 4.6),
    ``"number>0"``, or ``"table"`` (None = the display names of spec 1.1, or 21 strings)."""
    cp: str
    """The open point of spec section 7 (or the origin when it is no open point)."""


_ROWS = [
    # key, default, allowed, open point
    ("caishen_count", 5, (0, 5, 10), "CP-36"),
    ("banker_extra_card", True, bool, "CP-4"),
    ("turn_direction", "ccw", ("ccw", "cw"), "CP-2"),
    ("draw_source", "front", ("front",), "CP-3"),
    ("mao_bonus", "live", ("live", "any", "s1", "off"), "CP-15"),
    ("tmax_quad_value", "xiang", ("xiang", "weixiang"), "CP-14"),
    ("kan_as_peng", True, bool, "CP-12"),
    ("chi_may_use_kan", False, bool, "CP-23"),
    ("seven_triple_claim", "chi", ("chi", "peng"), "CP-21"),
    ("chi_same_face_discard_ban", "seven_only", ("seven_only", "all", "none"), "CP-22"),
    ("claim_tie_break", "nearest", ("nearest",), "CP-17"),
    ("multiple_winners", False, bool, "CP-18"),
    ("hu_overrides_mandatory", True, bool, "CP-19"),
    ("bi_peng", False, bool, "CP-28"),
    ("liang_mao_bi_jin", True, bool, "CP-28"),
    ("wei_zhang_bi_jin", True, bool, "CP-28"),
    ("bi_jin_bi_da", True, bool, "CP-27"),
    ("liang_fan_ke_tiao", False, bool, "CP-28"),
    ("liang_fan_measure", "theoretical", ("theoretical", "held"), "CP-26"),
    ("dang_rule", "taken_or_dead_per_face", ("taken_or_dead_per_face", "taken_only", "any_face_releases_all"),
     "CP-25"),
    ("qi_stage_pass", True, bool, "CP-47"),
    ("discard_chi_skips_folded", True, bool, "CP-20"),
    ("sha_draw_quad", "declare_and_draw", ("declare_and_draw",), "CP-16"),
    ("tiao_definition", "discard_or_chi", ("discard_or_chi", "chi_only"), "CP-24"),
    ("last_mao_claim_is_hu_only", True, bool, "CP-31"),
    ("ready_requires_live", False, bool, "CP-29"),
    ("win_split_kan", True, bool, "CP-51"),
    ("peng_bar_on_pass", True, bool, "CP-53"),
    ("tuhuo_fixed", True, bool, "CP-56"),
    ("first_actor", "banker_discards", ("banker_discards", "banker_turns"), "CP-5"),
    ("baozi_hand_counts", True, bool, "CP-8"),
    ("last_card_rule", "no_other_live", ("no_other_live",), "CP-30"),
    ("held_fan_includes_kan", True, bool, "CP-34"),
    ("caishen_owner", "receiver", ("receiver",), "CP-37"),
    ("wumenjiang_weight", "power_of_two", ("power_of_two", "no_upgrade"), "CP-39"),
    ("jiang_reveal", "after_deal", ("after_deal",), "CP-40"),
    ("jiang_caishen_rule", "seed", ("seed",), "CP-41"),
    ("qi_fan_measure", "theoretical", ("theoretical", "s1"), "CP-42"),
    ("empty_replacement_ends", True, bool, "CP-43"),
    ("all_folded_ends", True, bool, "CP-44"),
    ("qualification_check", "decision_points", ("decision_points",), "CP-48"),
    ("face_names", None, "table", "CP-50"),
    ("guo_hu_scope", "face", ("face", "hand"), "CP-52"),
    ("show_replacement_draws", True, bool, "CP-55"),
    ("baozi_actions_allowed", True, bool, "CP-49"),
    ("announcements", "auto", ("auto", "off"), "CP-32"),
    ("all_black_waives_tuo", False, bool, "CP-13"),
    ("wumenjiang", True, bool, "CP-38"),
    ("xiang_bonus_on_fan_faces", False, bool, "CP-35"),
    ("extra_mingtang", "none", ("none",), "CP-45"),
    ("fan_cap", 0, "cap", "CP-11"),
    ("settlement_mode", "tikan", ("tikan", "fan_cheng_fan"), "CP-10"),
    ("baozi_convert", True, bool, "CP-33"),
    ("folded_players_pay", True, bool, "CP-9"),
    ("banker_after_win", "winner", ("winner", "rotate", "stay"), "CP-6"),
    ("banker_after_void", "stay", ("stay", "rotate"), "CP-7"),
    ("banker_after_baozi", "stay", ("stay", "offender", "rotate"), "CP-8"),
    ("base", 1, "number>0", "CP-54"),
]

OPTIONS: dict[str, Option] = {row[0]: Option(*row) for row in _ROWS}
"""Every option of spec section 6, by key."""
DEFAULTS: dict[str, Any] = {k: o.default for k, o in OPTIONS.items()}
"""The spec's default of every option."""
HAND_OPTIONS = ("kan_as_peng", "win_split_kan", "all_black_waives_tuo", "wumenjiang", "wumenjiang_weight",
                "xiang_bonus_on_fan_faces", "fan_cap", "caishen_count", "mao_bonus", "tmax_quad_value",
                "chi_may_use_kan", "held_fan_includes_kan", "ready_requires_live", "settlement_mode", "base")
"""The options that the hand layer (this package) reads."""

_FAN_CAP_MAX = 1000   # a cap above any reachable fan total is no cap; bounds the C integer
_FAN_CAP_MIN = 3      # the 包子 minimum (spec 5.3): a lower cap is refused (4.6, CP-11)


_NAME_MAX = 32       # a display name (face_names, CP-50) is a short label


def _display_name(v: Any) -> bool:
    """A display name: a non-blank string of at most _NAME_MAX characters that UTF-8 can encode."""
    if not isinstance(v, str) or not v.strip() or len(v) > _NAME_MAX:
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_value(key: str, value: Any) -> Any:
    """``value`` if it is allowed for option ``key``, else a ``RulesetError`` naming both.

    NumPy scalars are normalised at this boundary (``np.int64(3)`` -> ``3``, ``np.True_`` -> ``True``,
    ``np.str_("chi")`` -> ``"chi"``), so settings hold plain JSON-able values; a ``bool`` is never an
    integer and a ``float`` never an integer (``5.0`` is refused where an integer is asked)."""
    opt = OPTIONS.get(key) if isinstance(key, str) else None
    if opt is None:
        raise RulesetError(f"unknown changpai-ydr option {short_repr(key)}")
    allowed = opt.allowed
    if allowed is bool:
        if not isinstance(value, (bool, np.bool_)):
            raise RulesetError(f"option {key} must be True or False, got {short_repr(value)}")
        return bool(value)
    if allowed == "cap":       # fan_cap: 0 (no cap) or a cap no lower than the 包子 minimum
        if not is_int(value) or not (value == 0 or _FAN_CAP_MIN <= value <= _FAN_CAP_MAX):
            raise RulesetError(f"option {key} must be 0 (no cap) or an integer {_FAN_CAP_MIN}-{_FAN_CAP_MAX} "
                               f"(a cap below the 包子 minimum of 3 fan is refused, spec 4.6), got {short_repr(value)}")
        return int(value)
    if allowed == "number>0":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or not 0 < value < 1e12:
            raise RulesetError(f"option {key} must be a positive number, got {short_repr(value)}")
        return int(value) if is_int(value) else float(value)
    if allowed == "table":
        if value is None:
            return None
        if (isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") or len(value) != 21
                or not all(_display_name(v) for v in value)):
            raise RulesetError(f"option {key} must be None or 21 face names (text of 1-{_NAME_MAX} characters), "
                               f"got {short_repr(value)}")
        return tuple(str(v) for v in value)
    if is_int(value):
        value = int(value)
    elif isinstance(value, str):
        value = str(value)
    if not any(type(value) is type(a) and value == a for a in allowed):
        raise RulesetError(f"option {key} must be one of {', '.join(map(repr, allowed))}, got {short_repr(value)}")
    return value


def check_options(options: Mapping[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    """All options with the given ones checked and the rest at their defaults."""
    out = dict(DEFAULTS)
    for src in (options or {}), more:
        if not isinstance(src, Mapping):
            raise RulesetError(f"options must be a mapping of option keys, got {short_repr(src)}")
        for k, v in src.items():
            out[k] = check_value(k, v)
    return out
