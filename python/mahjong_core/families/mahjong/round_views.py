"""The mahjong part of the per-seat views and the redaction of a round's events: what one player
may know, as plain JSON-able data.

A view never contains the opponents' concealed tiles, the tiles of their face-down (concealed)
kongs, the order of the wall or future dice.  Claim decisions of other players are not shown
until the window is resolved.  The keys common to every family's view are filled by
:func:`mahjong_core.game.views.make_view`.
"""

from __future__ import annotations

from typing import Any

from ..._validate import as_int
from ...errors import SeatError, StateError
from ...game.schema import MAX_SEATS, describe
from ...game.views import redacted
from .constants import MELD_NAMES, PH_CLAIM, PH_ROB, PH_TURN, READY_NONE
from .round_schema import event_shape
from .tiles import meld_tiles

__all__ = ["view_fields", "redact_event", "redact_events", "redact_one", "redact_shared", "VIEW_KEYS"]


VIEW_KEYS = (
    "schema_version", "ruleset", "seat", "players", "dealer", "round_wind", "seat_winds", "phase",
    "turn", "to_act", "hand", "drawn", "hand_sizes", "melds", "discards", "flowers", "ready",
    "wall_remaining", "live_remaining", "dice", "claim", "legal_actions", "legal_indices", "result",
    "min_fan",
)


def _meld_view(m: list[int], owner: int, seat: int) -> dict[str, Any]:
    kind, first = m[0], m[1]
    if kind == 3:
        if owner != seat:
            return {"kind": "ckong", "tiles": None, "from": None}
        return {"kind": "ckong", "tiles": [first] * 4, "from": None}
    tiles = meld_tiles(kind, first)
    d: dict[str, Any] = {"kind": MELD_NAMES[kind], "tiles": tiles, "from": m[2], "claimed": m[3]}
    if kind == 2:
        d["added"] = bool(m[4])
    return d


def view_fields(r: Any, seat: int, legal: list[int]) -> dict[str, Any]:
    """The mahjong fields of the view of ``seat`` of round ``r`` (see module docstring), from its
    public API only; ``legal``: the seat's legal indices."""
    s = r.settings
    P = r.players
    ph = r.phase
    claim = None
    if ph in (PH_CLAIM, PH_ROB):
        claim = {"tile": r.claim_tile, "from": r.claim_from, "kind": "discard" if ph == PH_CLAIM else "added_kong",
                 "last": bool(r.claim_last)}
    drawn = r.drawn if (ph == PH_TURN and r.turn == seat and r.drawn >= 0) else None
    return {
        "round_wind": r.round_wind if s.seat_winds else None,
        "seat_winds": [r.seat_wind(k) for k in range(P)] if s.seat_winds else None,
        "turn": r.turn if ph == PH_TURN else (r.claim_from if claim else None),
        "hand": r.hand(seat),
        "drawn": drawn,
        "hand_sizes": [r.concealed_size(k) for k in range(P)],
        "melds": [[_meld_view(m, k, seat) for m in ms] for k, ms in enumerate(r.melds)],
        "discards": [list(p) for p in r.discards],
        "flowers": [list(p) for p in r.flowers],
        "ready": [bool(x) for x in r.ready] if s.ready_mode != READY_NONE else None,
        "wall_remaining": r.wall_remaining,
        "live_remaining": r.live_remaining,
        "dice": list(r.dice),
        "claim": claim,
        "min_fan": s.min_fan,
    }


def redact_event(ev: dict[str, Any], seat: int) -> "dict[str, Any] | None":
    """The event as ``seat`` may see it, or ``None`` if he sees nothing of it.

    Hidden: the wall (header), other players' dealt and drawn tiles, the tile of another player's
    concealed kong, and other players' claim-window answers (their outcome shows in the next
    events).  An event that is not one of the log's documented events is a
    :class:`~mahjong_core.errors.StateError` naming the field; a bad seat a ``MahjongError``.
    """
    seat = as_int(seat, "seat", 0, MAX_SEATS - 1, error=SeatError)
    event_shape().check(ev, "event")
    return redact_one(ev, seat)


def redact_one(ev: dict[str, Any], seat: int) -> "dict[str, Any] | None":
    """:func:`redact_event` of an event known to be well formed (a round's own log)."""
    out = redact_shared(ev, seat)
    return dict(ev) if out is ev else out


def redact_shared(ev: dict[str, Any], seat: int) -> "dict[str, Any] | None":
    """:func:`redact_one`, but an event that ``seat`` sees as it is is ``ev`` itself, not a copy
    (for the server's streams, which encode it once for every seat that sees it as it is: no copy
    made, then compared with it, per seat and event)."""
    t = ev.get("type")
    if t == "header":
        return {k: v for k, v in ev.items() if k not in ("wall", "kong_dice", "seed", "spawn_key")}
    owner = ev.get("seat")
    if owner == seat or owner is None:
        return ev
    if t == "deal":
        return {"type": "deal", "seat": owner, "n": len(ev["tiles"]),
                "flowers": [x for x in ev["tiles"] if x >= 34]}
    if t == "draw":
        out = {k: v for k, v in ev.items() if k != "tile"}
        if ev["tile"] >= 34:
            out["tile"] = ev["tile"]  # a drawn flower is exposed at once
        return out
    if t == "kong" and ev.get("kind") == "concealed":
        return {"type": "kong", "seat": owner, "kind": "concealed", "tile": None}
    if t == "action":
        a = ev["action"]["type"]
        if a in ("discard", "win", "declare_ready"):
            return None  # shown by its own event
        if a == "kong" and ev["action"].get("kind") == "concealed":
            return None
        if a in ("pass", "pon", "chi") or (a == "kong" and ev["action"].get("kind") == "exposed"):
            return None  # claim answers stay private; the resolution shows in later events
    return ev


def redact_events(events: "list[dict[str, Any]]", seat: int) -> list[dict[str, Any]]:
    """:func:`redact_event` over a list (e.g. what :meth:`Round.step` returned), hidden events
    left out: the per-seat stream a server sends to ``seat``.  Every event is checked first
    (:class:`~mahjong_core.errors.StateError` naming ``events[i]``)."""
    seat = as_int(seat, "seat", 0, MAX_SEATS - 1, error=SeatError)
    if not isinstance(events, (list, tuple)):
        raise StateError(f"events: expected a list of events, got {describe(events)}")
    shape = event_shape()
    for i, ev in enumerate(events):
        shape.check(ev, f"events[{i}]")
    return redacted(events, seat, redact_one)
