"""Old home of :mod:`mahjong_core.families.mahjong.fan_tables`, kept for users and the table generator.

Importing it (or one of its submodules) gives the very same module objects, not copies, so a
``FanDef`` from either path is one class.
"""

import sys

from ..families.mahjong import fan_tables as _home
from ..families.mahjong.fan_tables import fandef, public, two_player, two_player_bamboo  # noqa: F401

for _name, _module in list(sys.modules.items()):
    if _name.startswith(_home.__name__ + "."):
        sys.modules[__name__ + _name[len(_home.__name__):]] = _module
sys.modules[__name__] = _home
