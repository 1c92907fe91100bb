"""The :class:`FanDef` record: one row of a fan table (spec section 3).

Fan definitions are data: the evaluator reads points, exclusions, multiplicity
and the meld-combination flag from these rows and never hard-codes them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FanDef", "PER_VALUES"]

PER_VALUES: tuple[str, ...] = ("repeatable", "per pung", "per kind", "per flower")
"""Allowed values of :attr:`FanDef.per` (spec D17)."""


@dataclass(frozen=True)
class FanDef:
    """One fan (番) of one ruleset, exactly as a row of spec tables 3.1-3.3."""

    id: str
    """The spec's snake_case id, e.g. ``"big_four_winds"``; code keys use :attr:`key`."""
    zh: str
    """Chinese name as in the spec's 中文 column (first name when two are given)."""
    en: str
    """Usual MCR English name (e.g. ``"Big Four Winds"``)."""
    points: int
    """Value in fan (1 fan = 1 point); for ``per`` fans the value of one instance."""
    excludes: tuple[str, ...]
    """Ids of fans not counted with this one (不计): seed ids plus +[MCR]/+[resolved] additions."""
    per: "str | None"
    """Multiplicity (D17): ``"repeatable"``, ``"per pung"``, ``"per kind"``, ``"per flower"`` or None (once)."""
    combination: bool
    """Member of the set C of meld-combination fans (D15): instances are tied to groups."""
    flower_derived: bool
    """Flower-derived fan (D16): never counts toward ``min_fan`` nor influences the decomposition."""
    origin: str
    """Source marker of the row, e.g. ``"[000][004]"`` or ``"[resolved]"``."""
    note: str = ""
    """Behaviour remarks of the spec row that are not exclusions (e.g. D14 scope of 幺九刻)."""

    @property
    def key(self) -> str:
        """Code key in UPPER_SNAKE (``"BIG_FOUR_WINDS"``)."""
        return self.id.upper()

    @property
    def repeatable(self) -> bool:
        """True when the fan may count more than once (any ``per`` value)."""
        return self.per is not None
