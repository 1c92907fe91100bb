"""Typed mahjong actions and their fixed-size index encoding.

Action mask layout (``ACTION_SIZE`` = 110 entries, one per index):

=========  ================================================================
index      action
=========  ================================================================
0-33       ``Discard(tile)``                      tile = index
34-67      ``Discard(tile, ready=True)`` (报听)     tile = index - 34
68-101     ``Kong(tile, "concealed"|"added")``    own-turn kong of tile = index - 68
102        ``Chi`` with the claimed tile lowest   (t, t+1, t+2)
103        ``Chi`` with the claimed tile middle   (t-1, t, t+1)
104        ``Chi`` with the claimed tile highest  (t-2, t-1, t)
105        ``Pon()``
106        ``Kong(tile, "exposed")``              discard kong (明杠) of the claimed tile
107        ``Win()``                              自摸, 点和 or 抢杠和 depending on the phase
108        ``DeclareReady()``                     天听 window of the non-dealer (no discard)
109        ``Pass()``                             explicit pass (``PASS``)
=========  ================================================================

Own-turn kongs need no kind in the index: a tile can be an added kong (a pung of it is exposed) or
a concealed kong (four in hand), never both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union, cast

from ..._validate import as_flag, short_repr
from ...errors import IllegalActionError
from ._constants import (
    A_CHI_HIGH,
    A_CHI_LOW,
    A_CHI_MID,
    A_DECLARE_READY,
    A_DISCARD,
    A_DISCARD_READY,
    A_KONG_CLAIM,
    A_KONG_SELF,
    A_PASS,
    A_PON,
    A_SIZE,
    A_WIN,
    KONG_KINDS,
)
from .json_types import (
    ChiActionDict,
    DeclareReadyActionDict,
    DiscardActionDict,
    KongActionDict,
    KongKind,
    PassActionDict,
    PonActionDict,
    WinActionDict,
)

__all__ = [
    "Action", "Discard", "Chi", "Pon", "Kong", "Win", "Pass", "DeclareReady",
    "ACTION_SIZE", "DISCARD", "DISCARD_READY", "KONG_SELF", "CHI_LOW", "CHI_MID", "CHI_HIGH",
    "PON", "KONG_CLAIM", "WIN", "DECLARE_READY", "PASS", "action_from_dict", "describe_index",
]

# the layout is the family's generated constants (the compiled engine's A_* codes)
DISCARD, DISCARD_READY, KONG_SELF = A_DISCARD, A_DISCARD_READY, A_KONG_SELF
CHI_LOW, CHI_MID, CHI_HIGH, PON, KONG_CLAIM = A_CHI_LOW, A_CHI_MID, A_CHI_HIGH, A_PON, A_KONG_CLAIM
WIN, DECLARE_READY, PASS, ACTION_SIZE = A_WIN, A_DECLARE_READY, A_PASS, A_SIZE


def _tile_arg(t: Any, what: str) -> int:
    if isinstance(t, bool) or not isinstance(t, int):
        try:
            import numpy as np

            if isinstance(t, np.integer):
                return int(t)
        except ImportError:  # pragma: no cover
            pass
        raise IllegalActionError(f"{what} must be a tile index 0-33, got {short_repr(t)}")
    if not 0 <= t <= 33:
        raise IllegalActionError(f"{what} must be a tile index 0-33, got {t}")
    return t


@dataclass(frozen=True)
class Discard:
    """Discard ``tile``; ``ready=True`` declares 报听 with it (2.7)."""

    tile: int
    ready: bool = False
    type = "discard"

    def to_dict(self) -> DiscardActionDict:
        return {"type": "discard", "tile": self.tile, "ready": self.ready}


@dataclass(frozen=True)
class Chi:
    """Claim the discard for a chow; ``tiles`` is the whole chow (sorted), claimed tile included."""

    tiles: tuple[int, int, int]
    type = "chi"

    def to_dict(self) -> ChiActionDict:
        return {"type": "chi", "tiles": list(self.tiles)}


@dataclass(frozen=True)
class Pon:
    """Claim the discard for a pung."""

    type = "pon"

    def to_dict(self) -> PonActionDict:
        return {"type": "pon"}


@dataclass(frozen=True)
class Kong:
    """A kong of ``tile``: ``kind`` "exposed" (claim a discard, 明杠), "added" (加杠 onto an own
    exposed pung) or "concealed" (暗杠)."""

    tile: int
    kind: KongKind = "concealed"
    type = "kong"

    def to_dict(self) -> KongActionDict:
        return {"type": "kong", "tile": self.tile, "kind": self.kind}


@dataclass(frozen=True)
class Win:
    """Declare a win: on the own draw (自摸), on a discard (点和) or on an added kong (抢杠和)."""

    type = "win"

    def to_dict(self) -> WinActionDict:
        return {"type": "win"}


@dataclass(frozen=True)
class Pass:
    """Decline every claim (or the 天听 window)."""

    type = "pass"

    def to_dict(self) -> PassActionDict:
        return {"type": "pass"}


@dataclass(frozen=True)
class DeclareReady:
    """报听 without a discard: the non-dealer's 天听 window right after the deal (2.11)."""

    type = "declare_ready"

    def to_dict(self) -> DeclareReadyActionDict:
        return {"type": "declare_ready"}


Action = Union[Discard, Chi, Pon, Kong, Win, Pass, DeclareReady]

_SIMPLE: dict[str, Action] = {"pon": Pon(), "win": Win(), "pass": Pass(), "declare_ready": DeclareReady()}
_KEYS = {"discard": ("type", "tile", "ready"), "kong": ("type", "tile", "kind"), "chi": ("type", "tiles"),
         **{k: ("type",) for k in _SIMPLE}}


def action_from_dict(d: dict[str, Any]) -> Action:
    """Inverse of ``action.to_dict()``: :class:`IllegalActionError` for anything else (not a
    dict, an unknown type, a key the action does not have, a tile outside 0-33, a ``ready``
    that is not a boolean ...)."""
    if not isinstance(d, dict) or "type" not in d:
        raise IllegalActionError(f"an action dict needs a 'type', got {short_repr(d)}")
    kind = d["type"]
    if not isinstance(kind, str) or kind not in _KEYS:
        raise IllegalActionError(f"unknown action type {short_repr(kind)}; expected one of {', '.join(_KEYS)}")
    extra = [k for k in d if k not in _KEYS[kind]]
    if extra:
        raise IllegalActionError(f"a {kind} action has no key(s) {', '.join(sorted(repr(k)[:40] for k in extra))} "
                                 f"(its keys: {', '.join(_KEYS[kind])})")
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "discard":
        return Discard(_tile_arg(d.get("tile"), "discard tile"),
                       as_flag(d.get("ready", False), "discard ready", IllegalActionError))
    if kind == "kong":
        k = d.get("kind", "concealed")
        if not isinstance(k, str) or k not in KONG_KINDS:
            raise IllegalActionError(f"kong kind must be one of {KONG_KINDS}, got {short_repr(k)}")
        return Kong(_tile_arg(d.get("tile"), "kong tile"), cast("KongKind", k))   # one of KONG_KINDS (checked)
    if kind == "chi":
        tiles = d.get("tiles")
        if not isinstance(tiles, (list, tuple)) or len(tiles) != 3:
            raise IllegalActionError(f"chi needs three tiles, got {short_repr(tiles)}")
        low, mid, high = sorted(_tile_arg(t, "chi tile") for t in tiles)
        return Chi((low, mid, high))
    raise AssertionError(kind)  # pragma: no cover - every type of _KEYS is handled above


def describe_index(i: int) -> str:
    """Human-readable name of a mask index (for docs and error messages)."""
    if DISCARD <= i < DISCARD_READY:
        return f"discard {i}"
    if DISCARD_READY <= i < KONG_SELF:
        return f"discard {i - DISCARD_READY} + 报听"
    if KONG_SELF <= i < CHI_LOW:
        return f"kong {i - KONG_SELF} (own turn)"
    return {CHI_LOW: "chi (claimed lowest)", CHI_MID: "chi (claimed middle)", CHI_HIGH: "chi (claimed highest)",
            PON: "pon", KONG_CLAIM: "kong (discard)", WIN: "win", DECLARE_READY: "declare ready",
            PASS: "pass"}.get(i, f"invalid index {i}")
