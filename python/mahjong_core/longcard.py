"""Short alias of :mod:`mahjong_core.families.longcard`: the long-card game 长牌 幺地人 (``changpai-ydr``).

>>> from mahjong_core import longcard
>>> longcard.is_win("46 46 13 16 34 25 14 14 55 55 55 36", declared=["peng 11×3", "sha 44×4", "sha 66×4"])
True
"""

from .families.longcard import *
from .families.longcard import __all__ as __all__  # noqa: PLC0414 - re-exported: the same public names
from .families.longcard import counting  # noqa: F401
