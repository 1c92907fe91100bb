"""Settlement, rooms, escape penalties, levels and the ledger (spec section 5).

Pure Python and thin: rooms are data (:mod:`.rooms`), a hand's result is a
:class:`HandOutcome`, :func:`settle_hand` turns it into ledger transfers by the
room's settlement profile, :class:`EscapeTracker` turns server events into escapes,
:func:`level_of` gives the seed-004 level of a score.  The payment rules and the
preset rooms belong to the families: each registers its :class:`SettlementProfile`
objects (:func:`register_profiles`) and rooms (:func:`register_rooms`, into
:data:`ROOMS`) when it registers; this layer names no family.
"""

from __future__ import annotations

import warnings
from typing import Any

from .escape import EVENTS, EscapeTracker
from .ledger import OUTSIDE, SYSTEM, Ledger, LedgerError, Transfer
from .levels import LEVELS, Level, level_of, update_score
from .outcome import WIN_METHODS, HandOutcome
from .profiles import SettlementProfile, get_profile, profile_names, register_outcome_reader, register_profiles
from .rooms import ESCAPE_RULES, ROOMS, Room, RoomEntryError, get_room, register_rooms
from .settle import escape_payments, fee_payments, hand_payments, minimum_of, settle_hand

__all__ = [
    "EVENTS", "EscapeTracker", "SYSTEM", "OUTSIDE", "Ledger", "LedgerError", "Transfer", "LEVELS", "Level",
    "level_of", "update_score", "WIN_METHODS", "HandOutcome", "ESCAPE_RULES", "ROOMS",
    "Room", "RoomEntryError", "get_room", "escape_payments", "fee_payments", "hand_payments", "minimum_of",
    "settle_hand", "SettlementProfile", "get_profile", "profile_names", "register_profiles", "register_rooms",
    "register_outcome_reader",
]


def __getattr__(name: str) -> Any:
    # PROFILES was a fixed tuple of one family's profile names; the profiles are registered by
    # the families now, so it changed meaning (every registered profile): deprecated
    if name == "PROFILES":
        warnings.warn("mahjong_core.settlement.PROFILES is deprecated: use "
                      "mahjong_core.settlement.profile_names() (the profiles every family registered; "
                      "profile_names(family) for one family's)", DeprecationWarning, stacklevel=2)
        return profile_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
