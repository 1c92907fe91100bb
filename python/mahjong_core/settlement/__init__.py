"""Settlement, rooms, escape penalties, levels and the ledger (spec section 5).

Pure Python and thin: rooms are data (:mod:`.rooms`), a hand's result is a
:class:`HandOutcome`, :func:`settle_hand` turns it into ledger transfers,
:class:`EscapeTracker` turns server events into escapes, :func:`level_of`
gives the seed-004 level of a score.
"""

from .escape import EVENTS, EscapeTracker
from .ledger import OUTSIDE, SYSTEM, Ledger, LedgerError, Transfer
from .levels import LEVELS, Level, level_of, update_score
from .outcome import WIN_METHODS, HandOutcome
from .rooms import ESCAPE_RULES, PROFILES, ROOMS, Room, RoomEntryError, get_room
from .settle import escape_payments, fee_payments, hand_payments, minimum_of, settle_hand

__all__ = [
    "EVENTS", "EscapeTracker", "SYSTEM", "OUTSIDE", "Ledger", "LedgerError", "Transfer", "LEVELS", "Level",
    "level_of", "update_score", "WIN_METHODS", "HandOutcome", "PROFILES", "ESCAPE_RULES", "ROOMS",
    "Room", "RoomEntryError", "get_room", "escape_payments", "fee_payments", "hand_payments", "minimum_of",
    "settle_hand",
]
