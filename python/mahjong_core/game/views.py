"""Per-seat views: what one player may know of a round, as plain JSON-able data.

The shared part of a view (:data:`COMMON_VIEW_KEYS`) is built here from the round API; the
family's round adds the rest (its hands, table and wall summary) through ``_view_fields`` and
orders the keys with its ``VIEW_KEYS`` (see :class:`~mahjong_core.game.round_base.RoundBase`).
What a view may show is the family's rule: a mahjong view never contains the opponents'
concealed tiles, face-down kongs, the wall order or future dice
(:mod:`mahjong_core.families.mahjong.round_views`, which also redacts the log's events).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._validate import as_seat
from .state import SCHEMA_VERSION

__all__ = ["make_view", "redacted", "COMMON_VIEW_KEYS"]

COMMON_VIEW_KEYS = ("schema_version", "ruleset", "seat", "players", "dealer", "phase", "to_act",
                    "legal_actions", "legal_indices", "result")
"""The keys every family's view has, filled here from the round API."""


def make_view(r: Any, seat: int) -> dict[str, Any]:
    """The view of ``seat`` of round ``r``: the common keys and the family's ``_view_fields``,
    in the order of the round's ``VIEW_KEYS``."""
    seat = as_seat(seat, r.players)
    legal = r.legal_indices(seat)
    v = r._view_fields(seat, legal)
    v["schema_version"] = SCHEMA_VERSION
    v["ruleset"] = r.ruleset
    v["seat"] = seat
    v["players"] = r.players
    v["dealer"] = r.dealer
    v["phase"] = r.phase_name
    v["to_act"] = bool(legal)
    v["legal_actions"] = [a.to_dict() for a in r.legal_actions(seat)]
    v["legal_indices"] = legal
    v["result"] = r._result
    return {k: v[k] for k in r.VIEW_KEYS}


def redacted(events: "Sequence[Mapping[str, Any]]", seat: int, redact: Any) -> list[dict[str, Any]]:
    """The per-seat event stream: ``redact(event, seat)`` of every event (the family's rule),
    the events it hides (``None``) left out."""
    out: list[dict[str, Any]] = []
    for ev in events:
        r = redact(ev, seat)
        if r is not None:
            out.append(r)
    return out
