"""The Gymnasium spaces both environments use: a seat's observation is a dict of its encoded view
(``"observation"``, :mod:`mahjong_core.rl.encoding`, bounded by the layout's ``high``) and its
legal-action mask (``"action_mask"``, int8, 110 entries); an action is a mask index
(``Discrete(110)``, the layout of :mod:`mahjong_core.families.mahjong.actions`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from .._validate import is_int
from ..errors import IllegalActionError
from ..families.mahjong.actions import ACTION_SIZE
from .encoding import observation_layout

__all__ = ["RENDER_MODES", "action_index", "observation_space"]

RENDER_MODES = ("ansi",)


def observation_space(ruleset: str) -> spaces.Dict:
    """The observation space of a seat of ``ruleset``."""
    layout = observation_layout(ruleset)
    return spaces.Dict({
        "observation": spaces.Box(low=np.zeros(layout.size, np.uint8), high=layout.high, dtype=np.uint8),
        "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SIZE,), dtype=np.int8),
    })


def action_index(action: Any) -> int:
    """A mask index given as a Python or NumPy integer (anything else is refused)."""
    if not is_int(action):
        raise IllegalActionError(f"an action is a mask index 0-{ACTION_SIZE - 1}, got {action!r}")
    return int(action)
