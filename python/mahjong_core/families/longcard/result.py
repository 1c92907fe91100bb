"""The result of scoring a 长牌 win: :class:`Score` (built by the compiled evaluator, fields lazy)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..._lc_hand import ScoreCore  # defined before this module is imported by _lc_hand
from ...fan import Fan
from .fans import fan_breakdown, settlement_points, threshold
from .groups import Group
from .options import RULESET

__all__ = ["Score"]


class Score(ScoreCore):
    """The best reading of a win (spec 4.3): the decomposition with the largest fan, then 陀.

    Built by the compiled :func:`score` only.  ``total`` is the fan after the cap (4.6), ``fan`` before it; ``tuo`` the 陀 of all 7 groups;
    ``groups`` the declared groups followed by the chosen split of the concealed cards; ``fans`` the
    breakdown by source (4.4), each a :class:`~mahjong_core.fan.Fan` (id, Chinese name, English
    name, points, count), summing to ``fan``.
    """

    ruleset = RULESET

    @property
    def threshold(self) -> int:
        """陀 the seat needed (banker 34, others 33)."""
        return threshold(self.banker)

    @cached_property
    def concealed_groups(self) -> tuple[Group, ...]:
        """The chosen split of the concealed cards (with the winning card) into 3-card groups."""
        b = self.concealed
        out = []
        for i in range(0, len(b), 3):
            t = (b[i], b[i + 1], b[i + 2])
            out.append(Group("kan" if t[0] == t[2] else "chi", t))
        return tuple(out)

    @property
    def groups(self) -> tuple[Group, ...]:
        """All 7 groups: declared, then concealed."""
        return self.declared + self.concealed_groups

    @cached_property
    def fans(self) -> list[Fan]:
        """The fan by source (spec 4.4), before the cap."""
        return fan_breakdown(self.groups, self.weights, self.tuo, self.banker, self.caishen,
                             kan_as_peng=self.kan_as_peng, xiang_bonus_on_fan_faces=self.xiang_bonus)

    @property
    def fan_counts(self) -> dict[str, int]:
        """``{source id: fan}`` summed per source."""
        out: dict[str, int] = {}
        for f in self.fans:
            out[f.id] = out.get(f.id, 0) + f.total
        return out

    def points(self, settlement_mode: str = "tikan", base: float = 1) -> int | float:
        """What each other player pays (spec 5.1-5.2): 梯坎番 total + 1, 番乘番 2^total, times ``base``."""
        return settlement_points(self.total, settlement_mode, base)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "ruleset": self.ruleset, "total": self.total, "fan": self.fan, "tuo": self.tuo,
            "banker": bool(self.banker), "threshold": self.threshold, "caishen": self.caishen,
            "groups": [{"kind": g.kind, "cards": list(g.cards), "declared": i < len(self.declared)}
                       for i, g in enumerate(self.groups)],
            "fans": [{"id": f.id, "name": f.name, "name_en": f.name_en, "points": f.points, "count": f.count}
                     for f in self.fans],
        }

    def __repr__(self) -> str:
        fans = ", ".join(f"{f.name}{'×' + str(f.count) if f.count > 1 else ''} {f.total}" for f in self.fans)
        return f"Score(total={self.total}, tuo={self.tuo}, ruleset={self.ruleset!r}, fans=[{fans}])"
