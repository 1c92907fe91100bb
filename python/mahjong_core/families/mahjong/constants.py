"""Constants of the mahjong family shared by its Python modules, each written once.

Pure constants only (codes, names, bit layouts).  The ones the compiled core shares come from
the generated :mod:`._constants` (source: ``tools/constants/mahjong.py``, generator:
``tools/gen_constants.py``), so Python and Cython read the same values.
"""

from __future__ import annotations

__all__ = [
    "FAMILY_NAME", "READY_NONE", "READY_HEAVENLY_ONLY", "READY_ANY_DISCARD", "READY_MODES",
    "PH_READY_WINDOW", "PH_TURN", "PH_CLAIM", "PH_ROB", "PH_OVER", "PHASE_NAMES",
    "MELD_KINDS", "MELD_NAMES", "MELD_NONE", "WIND_NAMES", "WIN_METHODS",
]

from ._constants import (
    MELD_KINDS,
    MELD_NAMES,
    MELD_NONE,
    PH_CLAIM,
    PH_OVER,
    PH_READY_WINDOW,
    PH_ROB,
    PH_TURN,
    PHASE_NAMES,
    READY_MODES,
    WIN_METHODS,
)

FAMILY_NAME = "mahjong"
"""The family's name in the registry (:mod:`mahjong_core.families.registry`)."""

READY_NONE, READY_HEAVENLY_ONLY, READY_ANY_DISCARD = READY_MODES
"""报听 modes of :attr:`FlowSettings.ready_mode` (spec 2.7)."""

WIND_NAMES: dict[str, int] = {"E": 27, "S": 28, "W": 29, "N": 30, "东": 27, "南": 28, "西": 29, "北": 30}
"""Wind letter or Chinese name -> tile kind."""
