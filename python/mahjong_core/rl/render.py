"""The text the learning environments render: a table of what one seat may see.

``"ansi"`` returns it, ``"human"`` prints it (and returns None).  The table is made from the
seat's view (the family's public round's ``view(seat)``) and nothing else, so it holds exactly
what that seat may know; each family draws its own (``RlHooks.table``: mahjong's hand, melds,
flowers and discards, the winds, the wall; long cards' hand, declared groups, 堂子, 财神, the
stages and the card on offer).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..families.registry import DEFAULT_RULESET
from .hooks import rl_hooks

__all__ = ["RENDER_MODES", "view_table"]

RENDER_MODES = ("human", "ansi")
"""``render_mode`` values of both environments (None: no rendering)."""


def view_table(view: Mapping[str, Any]) -> str:
    """The table of one seat's view (see the module docstring), drawn by the family of the view's
    ``ruleset``."""
    return rl_hooks(view.get("ruleset", DEFAULT_RULESET)).table(view)
