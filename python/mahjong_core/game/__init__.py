"""Game flow shared by every family: the contract (:mod:`.contract`: what a round, a match, a
result, a view and a bot are), the round API base (:mod:`.round_base`), the validated state
boundary (:mod:`.state`, :mod:`.schema`), views, the match loop (:mod:`.match`) and the bot loop
(:mod:`.bots`: :func:`play_round`, :func:`play_match`).  It names no family: a family's rounds are
reached through the registry (``mahjong_core.Round(ruleset=...)``) or its own package.

Saved rounds and matches are loaded through a validated boundary: a state is rebuilt from its
log's header and actions and compared field by field, never copied into the engine.
:func:`load_state` loads a saved round or match of any family.

>>> import mahjong_core as mj
>>> from mahjong_core.game import play_round
>>> for ruleset in mj.families.registry.ruleset_names():       # a round of every registered ruleset
...     r = mj.Round(ruleset, seed=7)
...     res = play_round(r, ["random"] * r.players)
...     assert r.is_over and res.winner in (None, *range(r.players))

Deprecated: this package used to offer the mahjong family's round names too (``Round``,
``Match``, ``GreedyBot``, ``Discard`` ... ``script_wall``); they still work here with a
``DeprecationWarning`` naming their home (:func:`register_legacy_names`), until the next minor
version.
"""

from __future__ import annotations

import warnings
from typing import Any

from .bots import play_match, play_round
from .state import load_state

__all__ = ["play_round", "play_match", "load_state", "register_legacy_names"]

_LEGACY: dict[str, tuple[Any, str]] = {}


def register_legacy_names(names: "dict[str, Any]", home: str) -> None:
    """A family lends names this package used to export: ``mahjong_core.game.<name>`` gives
    ``names[name]`` with a ``DeprecationWarning`` pointing at ``home`` (the module that holds it)."""
    for name, value in names.items():
        _LEGACY[name] = (value, home)


def __getattr__(name: str) -> Any:
    entry = _LEGACY.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value, home = entry
    warnings.warn(f"mahjong_core.game.{name} is deprecated: import {name} from {home}", DeprecationWarning,
                  stacklevel=2)
    return value
