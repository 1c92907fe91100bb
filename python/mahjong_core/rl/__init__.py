"""Learning environments for every ruleset whose family offers them (:func:`rl_rulesets`;
``pip install "mahjong-core[rl]"``).

* :mod:`~mahjong_core.rl.encoding`: the fixed observation encoding (a ``uint8`` vector per seat,
  written by the family's compiled engine from what the seat may see) and its layout;
* :mod:`~mahjong_core.rl.rewards`: rewards from the settlement layer (``"points"`` or ``"fans"``);
* :class:`VectorRounds`: N rounds stepped together in the compiled engine;
* :class:`MahjongAECEnv` (PettingZoo, every seat an agent) and :class:`MahjongEnv` (Gymnasium,
  one seat against the built-in bots) need the ``rl`` extra (pettingzoo, gymnasium); they are
  imported on first use, so ``import mahjong_core.rl`` works without it.

This package names no family: it reaches a ruleset's family through the registry, whose
``Family.rl`` gives the family's hooks (:class:`~mahjong_core.rl.hooks.RlHooks`); a ruleset of a
family without them is refused with an :class:`~mahjong_core.errors.UnsupportedError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .encoding import (
    ObservationLayout,
    mahjong_rulesets,
    observation_layout,
)
from .hooks import RlHooks, rl_rulesets
from .rewards import REWARD_MODES, RewardRule, default_room
from .vector import VectorRounds

if TYPE_CHECKING:   # imported on first use (see __getattr__): they need the rl extra
    from .gymnasium_env import MahjongEnv
    from .pettingzoo_env import MahjongAECEnv

__all__ = [
    "OBS_MELD_KINDS",
    "REWARD_MODES",
    "MahjongAECEnv",
    "MahjongEnv",
    "ObservationLayout",
    "RewardRule",
    "RlHooks",
    "VectorRounds",
    "default_room",
    "mahjong_rulesets",
    "observation_layout",
    "rl_rulesets",
]

OBS_MELD_KINDS: tuple[str, ...]      # looked up when first read (see __getattr__)

_LAZY = {"MahjongAECEnv": "pettingzoo_env", "MahjongEnv": "gymnasium_env"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:   # without the rl extra the module raises the install hint (mahjong_core._extras)
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name == "OBS_MELD_KINDS":    # a constant of the default ruleset's family (encoding.OBS_MELD_KINDS)
        from . import encoding

        return encoding.OBS_MELD_KINDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
