"""Settlement of one hand (spec 5.1-5.5): who pays whom, fees, escape penalties.

Order inside a hand (5.1): the hand payment (or the escape penalty, which
replaces it), then the fees.  Every payment is capped at the payer's balance
(OP-10); the ledger records the request when it was reduced.
"""

from __future__ import annotations

from .._validate import as_int
from ..errors import MahjongError
from .ledger import SYSTEM, Ledger, Transfer
from .outcome import HandOutcome
from .rooms import Room, get_room

__all__ = ["settle_hand", "hand_payments", "fee_payments", "escape_payments", "minimum_of"]

def _checked(room: "str | Room", outcome: HandOutcome) -> Room:
    """The room, after checking that ``outcome`` is a hand of its table and of its rules."""
    room = get_room(room)
    if not isinstance(outcome, HandOutcome):
        raise MahjongError(f"outcome must be a HandOutcome, got {type(outcome).__name__}")
    if len(outcome.players) != room.players:
        raise MahjongError(f"room {room.name!r} plays {room.ruleset} with {room.players} players; "
                           f"the outcome has {len(outcome.players)} ({', '.join(outcome.players)})")
    if room.min_fan is not None and outcome.min_fan is not None and outcome.min_fan != room.min_fan:
        raise MahjongError(f"the hand was played with a minimum (起和) of {outcome.min_fan} fan but room "
                           f"{room.name!r} requires {room.min_fan}: the table was not played under this room's rules")
    return room


def minimum_of(room: "str | Room", outcome: HandOutcome) -> int:
    """The minimum (起和) a win of ``outcome`` must reach in ``room``: the one the hand was played
    under when the outcome states it, else the room's, else the ruleset's (one default, in
    :mod:`~mahjong_core.rulesets`)."""
    return _minimum(_checked(room, outcome), outcome)


def _minimum(room: Room, outcome: HandOutcome) -> int:
    return outcome.min_fan if outcome.min_fan is not None else room.default_min_fan


def hand_payments(room: "str | Room", outcome: HandOutcome) -> list[tuple[str, str, int, str]]:
    """The hand payments as ``(payer, payee, amount, reason)`` requests, by the room's settlement
    profile (:attr:`Room.settlement_profile`); empty on a draw or escape.  A win under the
    minimum is refused here, for every profile."""
    room = _checked(room, outcome)
    if outcome.winner is None and outcome.offender is None:
        return []
    if outcome.winner is not None:
        min_fan = _minimum(room, outcome)
        if outcome.non_flower_total < min_fan:
            raise MahjongError(
                f"a win of {outcome.non_flower_total} fan (without flowers) is under the minimum {min_fan}; "
                "it cannot be settled"
            )
    return list(room.settlement_profile.hand_payments(room, outcome))


def fee_payments(room: "str | Room", outcome: HandOutcome) -> list[tuple[str, str, int, str]]:
    """The room's table fee and service fee: every player, every hand, any result (OP-9)."""
    room = _checked(room, outcome)
    out = []
    for name in outcome.players:
        if room.table_fee:
            out.append((name, SYSTEM, room.table_fee, "table_fee"))
        if room.service_fee:
            out.append((name, SYSTEM, room.service_fee, "service_fee"))
    return out


def escape_payments(room: "str | Room", outcome: HandOutcome, escaper_balance: int) -> list[tuple[str, str, int, str]]:
    """The escape penalty: capped at the escaper's balance, the system's percentage first
    (rounded up), the rest in equal shares to the players who stayed (remainder one unit
    each in turn order after the escaper; spec 5.2 "floor(half)" to the opponent)."""
    room = _checked(room, outcome)
    escaper_balance = as_int(escaper_balance, "escaper_balance", 0)
    if outcome.escaped is None:
        return []
    players = outcome.players
    esc = outcome.escaped
    paid = min(room.escape_penalty, escaper_balance)
    to_others = paid * (100 - room.escape_system_share) // 100
    out = []
    if paid - to_others:
        out.append((players[esc], SYSTEM, paid - to_others, "escape_penalty"))
    stayed = [(esc + k) % len(players) for k in range(1, len(players))]
    share, extra = divmod(to_others, len(stayed))
    for i, seat in enumerate(stayed):
        amount = share + (1 if i < extra else 0)
        if amount:
            out.append((players[esc], players[seat], amount, "escape_penalty"))
    return out


def settle_hand(ledger: Ledger, room: "str | Room", outcome: HandOutcome) -> list[Transfer]:
    """Settle one hand into the ledger, atomically; returns the recorded transfers.

    Refused (MahjongError, the ledger unchanged) when the outcome's table size is not the room's
    ruleset's, when it was played under another minimum than the room's, when a win is under
    the minimum, or when an account is unknown (LedgerError).  The escaper's balance is read
    and the penalty applied under the ledger's lock, so other threads cannot change it between.
    """
    if not isinstance(ledger, Ledger):
        raise MahjongError(f"ledger must be a Ledger, got {type(ledger).__name__}")
    room = _checked(room, outcome)
    with ledger.locked():
        for name in outcome.players:
            ledger.balance(name)  # unknown account -> LedgerError before anything moves
        if outcome.escaped is not None:
            first = escape_payments(room, outcome, ledger.balance(outcome.players[outcome.escaped]))
        else:
            first = hand_payments(room, outcome)
        return ledger.apply(first + fee_payments(room, outcome), round=outcome.round)
