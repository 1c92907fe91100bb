"""Action checks shared by the round engines: an action object to its mask index, and the reason an
action is refused.

Both the compiled engine's API (:class:`mahjong_core.Round`) and the pure-Python reference
(:mod:`mahjong_core.families.mahjong._ref.round`) call these with themselves as ``r``; they read the round only
through its public queries (``phase``, ``claim_tile``, ``hand_counts`` ...) and a few helpers that
each engine answers from its own state (``_pon_of``, ``_locked``, ``_ready_allowed``, ``_live``,
``_win_reason``, ``decode_action``).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from ..._validate import as_flag, short_repr
from ...errors import IllegalActionError
from .settings import FlowSettings
from .constants import PH_CLAIM, PH_READY_WINDOW, PH_ROB, PH_TURN, READY_NONE
from .tiles import SHORT_NAMES as _SHORT, tile_short
from .actions import (
    ACTION_SIZE, CHI_HIGH, CHI_LOW, DECLARE_READY, DISCARD, DISCARD_READY, KONG_CLAIM, KONG_SELF, PASS, PON, WIN,
    Action, Chi, DeclareReady, Discard, Kong, Pass, Pon, Win, action_from_dict,
)

__all__ = ["encode_action", "why_illegal"]


class _CheckedRound(Protocol):
    """The queries and helpers of a mahjong round (either engine) that the checks read."""

    settings: FlowSettings
    players: int

    @property
    def ruleset(self) -> str: ...
    @property
    def phase(self) -> int: ...
    @property
    def claim_tile(self) -> int: ...
    @property
    def claim_from(self) -> int: ...
    @property
    def claim_last(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def must_discard(self) -> int: ...
    @property
    def ready(self) -> list[bool]: ...
    def hand_counts(self, seat: int) -> npt.NDArray[Any]: ...
    def decode_action(self, seat: int, i: int) -> Action: ...
    def _live(self) -> int: ...
    def _pon_of(self, seat: int, t: int) -> int: ...
    def _locked(self, seat: int) -> bool: ...
    def _ready_allowed(self, seat: int) -> bool: ...
    def _win_reason(self, seat: int) -> str: ...


def _checked(r: object) -> _CheckedRound:
    # the callers pass the MahjongRoundBase mixin's self, which documents these members rather than
    # declaring them (each engine's round class defines them)
    return cast(_CheckedRound, r)



def encode_action(rnd: object, seat: int, action: Any) -> int:
    """Mask index of ``action`` (an action object, its dict, or an index) for ``seat`` of round ``rnd``
    now; :class:`IllegalActionError` for something that is no action at all."""
    r = _checked(rnd)
    if isinstance(action, (bool, np.bool_)):
        raise IllegalActionError(f"an action must be an action object or an index, got {action!r}")
    if isinstance(action, (int, np.integer)):
        i = int(action)
        if not 0 <= i < ACTION_SIZE:
            raise IllegalActionError(f"action index {i} outside 0-{ACTION_SIZE - 1}")
        return i
    if isinstance(action, dict):
        action = action_from_dict(action)
    if isinstance(action, Discard):
        t = _check_tile(action.tile)
        ready = as_flag(action.ready, "discard ready", IllegalActionError)
        return (DISCARD_READY if ready else DISCARD) + t
    if isinstance(action, Kong):
        t = _check_tile(action.tile)
        if not isinstance(action.kind, str):
            raise IllegalActionError(f"unknown kong kind {short_repr(action.kind)}")
        if action.kind == "exposed":
            if r.phase != PH_CLAIM:
                raise IllegalActionError("an exposed kong (明杠) claims a discard; there is none to claim now")
            if t != r.claim_tile:
                raise IllegalActionError(
                    f"exposed kong of {tile_short(t)}: the discard is {tile_short(r.claim_tile)}")
            return KONG_CLAIM
        if action.kind not in ("added", "concealed"):
            raise IllegalActionError(f"unknown kong kind {action.kind!r}")
        has_pon = r._pon_of(seat, t) >= 0
        if action.kind == "added" and not has_pon:
            raise IllegalActionError(f"added kong of {tile_short(t)}: seat {seat} has no exposed pung of it")
        if action.kind == "concealed" and has_pon:
            raise IllegalActionError(
                f"kong of {tile_short(t)}: seat {seat} has an exposed pung of it, so it is an added kong")
        return KONG_SELF + t
    if isinstance(action, Chi):
        if not isinstance(action.tiles, (list, tuple)) or len(action.tiles) != 3:
            raise IllegalActionError(f"chi needs three tiles, got {short_repr(action.tiles)}")
        tiles = tuple(sorted(_check_tile(x) for x in action.tiles))
        if len(tiles) != 3 or tiles[0] >= 27 or tiles[0] % 9 > 6 or tiles[1] != tiles[0] + 1 \
                or tiles[2] != tiles[0] + 2:
            raise IllegalActionError(f"chi {list(tiles)}: a chow is three consecutive tiles of one suit")
        if r.phase != PH_CLAIM:
            raise IllegalActionError("chi claims a discard; there is none to claim now")
        t = r.claim_tile
        if t not in tiles:
            raise IllegalActionError(f"chi {list(tiles)} does not contain the discard {tile_short(t)}")
        return CHI_LOW + (t - tiles[0])
    if isinstance(action, Pon):
        return PON
    if isinstance(action, Win):
        return WIN
    if isinstance(action, Pass):
        return PASS
    if isinstance(action, DeclareReady):
        return DECLARE_READY
    raise IllegalActionError(f"not an action: {short_repr(action)}")


def why_illegal(rnd: object, seat: int, i: int) -> str:
    """Why the action index ``i`` of ``seat`` is refused in round ``rnd`` (``i`` is not legal)."""
    r = _checked(rnd)
    ph = r.phase
    if CHI_LOW <= i <= CHI_HIGH:
        t = r.claim_tile
        low = t - (i - CHI_LOW)
        if not (0 <= t < 27 and low >= 0 and low // 9 == t // 9 and low % 9 <= 6):
            if t < 0:
                return "chi: there is no discard to claim"
            return f"chi: {_SHORT[t]} cannot be the {('lowest', 'middle', 'highest')[i - CHI_LOW]} tile of a chow"
    if i == KONG_CLAIM and r.claim_tile < 0:
        name = "kong (exposed)"
    else:
        name = _describe(r.decode_action(seat, i))
    if ph == PH_READY_WINDOW:
        if i == DECLARE_READY:
            return f"{name}: the hand of seat {seat} is not ready (no waiting tile)"
        return f"{name}: in the 天听 window only declare_ready or pass"
    if ph == PH_TURN:
        if i == PASS:
            return "pass: on his own turn a player must discard (or win / kong)"
        if i in (PON, KONG_CLAIM, DECLARE_READY) or CHI_LOW <= i <= CHI_HIGH:
            return f"{name}: there is no discard to claim on one's own turn"
        if i == WIN:
            return f"win refused: {r._win_reason(seat)}"
        if r.must_discard and i >= KONG_SELF:
            return f"{name}: after a chi or pon the claimer must discard first (2.3)"
        h = r.hand_counts(seat)
        if r._locked(seat):
            return (f"{name}: after 报听 the hand is locked: only discard the drawn tile "
                    f"{tile_short(r.drawn) if r.drawn >= 0 else ''}, win, or an added kong with it (2.7)")
        if i < DISCARD_READY:
            return f"{name}: {tile_short(i)} is not in the hand"
        if i < KONG_SELF:
            t = i - DISCARD_READY
            if not r._ready_allowed(seat):
                if r.settings.ready_mode == READY_NONE:
                    return f"{name}: ruleset {r.ruleset!r} has no 报听"
                if r.ready[seat]:
                    return f"{name}: 报听 was already declared"
                return f"{name}: in {r.ruleset!r} 报听 is only allowed as 天听 (dealer's first discard, OP-20)"
            if not h[t]:
                return f"{name}: {tile_short(t)} is not in the hand"
            return f"{name}: the hand is not ready after discarding {tile_short(t)} (2.7)"
        t = i - KONG_SELF
        if r._live() <= 0:
            return f"{name}: no kong when the wall is empty (OP-37)"
        return f"{name}: seat {seat} has neither four {tile_short(t)} nor an exposed pung of it with a fourth in hand"
    if ph == PH_ROB:
        if i == WIN:
            return f"robbing win refused: {r._win_reason(seat)}"
        return f"{name}: only a robbing win (抢杠和) or pass is possible now"
    # claim window
    if i == WIN:
        return f"win refused: {r._win_reason(seat)}"
    if i < CHI_LOW or i == DECLARE_READY:
        return f"{name}: seat {r.claim_from} discarded; answer with a claim or pass"
    if r.claim_last:
        return f"{name}: the discard after the last wall tile can only be claimed for a win (2.4)"
    if r._locked(seat):
        return f"{name}: after 报听 no chi, pon or kong (2.7)"
    t = r.claim_tile
    if i == PON:
        return f"pon: seat {seat} does not hold two {tile_short(t)}"
    if i == KONG_CLAIM:
        return f"kong: seat {seat} does not hold three concealed {tile_short(t)}"
    if r.settings.chi_from_previous_only and seat != (r.claim_from + 1) % r.players:
        return f"chi: only from the 上家; seat {r.claim_from} is not the 上家 of seat {seat} (2.4)"
    return f"{name}: the other two tiles of the chow are not in the hand"


def _check_tile(t: Any) -> int:
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)) or not 0 <= t <= 33:
        raise IllegalActionError(f"a tile must be an index 0-33, got {short_repr(t)}")
    return int(t)


def _describe(a: Action) -> str:
    d: dict[str, Any] = dict(a.to_dict())   # taken apart below
    parts = [d.pop("type")]
    if "tile" in d:
        parts.append(tile_short(d.pop("tile")))
    if "tiles" in d:
        parts.append("".join(tile_short(x) for x in d.pop("tiles")))
    if d.get("ready"):
        parts.append("+报听")
    if "kind" in d:
        parts.append(f"({d['kind']})")
    return " ".join(parts)
