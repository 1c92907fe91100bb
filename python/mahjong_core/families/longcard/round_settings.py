"""Settings of a 长牌 幺地人 hand of play (spec changpai.md, sections 6 and 7) as one frozen record.

Every option of the spec's parameter table is a field of :class:`RoundSettings` with the spec's
default; the allowed values and the open point (CP-n) of each come from :data:`.options.OPTIONS`
(one table for the hand layer and the round engine).  A bad value raises
:class:`~mahjong_core.errors.RulesetError` naming the option.

Two alternatives that the spec names but does not define are refused by the reference engine
instead of being guessed: ``multiple_winners = True`` (CP-18 gives no rule for splitting a card
between winners) and ``empty_replacement_ends = False`` (CP-43 gives no rule for a replacement draw
that cannot be made).

>>> s = RoundSettings()
>>> s.settlement_mode, s.bi_peng, s.caishen_count
('tikan', False, 5)
>>> RoundSettings.from_options({"fan_cap": 4}).fan_cap
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, make_dataclass
from typing import Any

from ..._validate import short_repr
from ...errors import RulesetError
from .options import OPTIONS, check_value

__all__ = ["UNSUPPORTED", "RoundSettings"]

UNSUPPORTED: dict[str, tuple[Any, str]] = {
    "multiple_winners": (True, "the spec (CP-18) defines one winner per card only"),
    "empty_replacement_ends": (False, "the spec (CP-43) defines no play after a replacement draw that cannot be made"),
}
"""Option values the reference engine refuses: key -> (value, why)."""


def _post_init(self: Any) -> None:
    for key in OPTIONS:
        value = check_value(key, getattr(self, key))
        if key == "face_names" and value is not None:
            value = tuple(value)
        object.__setattr__(self, key, value)
        bad = UNSUPPORTED.get(key)
        if bad is not None and value == bad[0]:
            raise RulesetError(f"option {key}={value!r} is not supported: {bad[1]}")
    if (self.first_actor == "banker_turns") == self.banker_extra_card:
        # CP-4/CP-5: a banker with 21 cards discards first; without the extra card he turns first
        raise RulesetError(f"option first_actor={self.first_actor!r} does not fit banker_extra_card="
                           f"{self.banker_extra_card!r} (banker_discards needs the extra card, banker_turns needs none)")


def _from_options(cls: Any, options: Mapping[str, Any] | None = None, **more: Any) -> Any:
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


def _to_options(self: Any) -> dict[str, Any]:
    """Every option as plain JSON-able data (spec 8.4 ``options``)."""
    d = asdict(self)
    if d["face_names"] is not None:
        d["face_names"] = list(d["face_names"])
    return d


def _hand_options(self: Any) -> dict[str, Any]:
    """The keywords the compiled scorer (``_lc_hand.score`` / ``wait_scores``) reads."""
    return {k: getattr(self, k) for k in _SCORE_KEYS}


_SCORE_KEYS = ("wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces", "fan_cap", "kan_as_peng",
               "win_split_kan", "all_black_waives_tuo", "caishen_count")

RoundSettings = make_dataclass(
    "RoundSettings",
    [(key, Any, opt.default) for key, opt in OPTIONS.items()],
    frozen=True,
    namespace={
        "__post_init__": _post_init,
        "from_options": classmethod(_from_options),
        "to_options": _to_options,
        "score_options": _hand_options,
        "__doc__": "Every option of spec section 6 (keys, defaults and allowed values: ``options.OPTIONS``).",
    },
)
RoundSettings.__module__ = __name__
