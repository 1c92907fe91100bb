"""Constants of the mahjong family shared by its Python modules, each written once.

Pure constants only (codes, names, bit layouts): the compiled modules keep the same values in
their own sources, so this module is the one place the Python side reads them from, and the one
file to swap for the generated module when the constants are generated for both sides.
"""

from __future__ import annotations

__all__ = [
    "READY_NONE", "READY_HEAVENLY_ONLY", "READY_ANY_DISCARD", "READY_MODES",
    "PH_READY_WINDOW", "PH_TURN", "PH_CLAIM", "PH_ROB", "PH_OVER", "PHASE_NAMES",
    "MELD_KINDS", "MELD_NAMES", "MELD_NONE", "WIND_NAMES", "WIN_METHODS",
]

READY_NONE = "none"
READY_HEAVENLY_ONLY = "heavenly_only"
READY_ANY_DISCARD = "any_discard"
READY_MODES = (READY_NONE, READY_HEAVENLY_ONLY, READY_ANY_DISCARD)
"""报听 modes of :attr:`FlowSettings.ready_mode` (spec 2.7)."""

PH_READY_WINDOW, PH_TURN, PH_CLAIM, PH_ROB, PH_OVER = range(5)
PHASE_NAMES = ("ready_window", "turn", "claim", "rob", "over")
"""Phase code -> the name used in views and saved states."""

MELD_KINDS: dict[str, int] = {"chi": 0, "pon": 1, "kong": 2, "ckong": 3}
"""Meld name -> meld code (``kong`` is an exposed or added kong, ``ckong`` a concealed one)."""
MELD_NAMES: tuple[str, ...] = tuple(MELD_KINDS)
"""Meld code -> name."""
MELD_NONE = 255
"""Meld code of an empty meld slot in the batch arrays."""

WIND_NAMES: dict[str, int] = {"E": 27, "S": 28, "W": 29, "N": 30, "东": 27, "南": 28, "西": 29, "北": 30}
"""Wind letter or Chinese name -> tile kind."""

WIN_METHODS = ("self_drawn", "discard", "robbing")
"""How a hand is won, as results, outcomes and statistics name it."""
