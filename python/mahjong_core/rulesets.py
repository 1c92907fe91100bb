"""Old home of :mod:`mahjong_core.families.mahjong.rulesets`, kept for users and the compiled modules.

Importing it gives the very same module object (not a copy), so every name, private ones
included, and every monkeypatch is shared with the new home.
"""

import sys

from .families.mahjong import rulesets as _home

sys.modules[__name__] = _home
