"""One rule for a bad seat (issue 25): every per-seat method of a long-card hand -- the reference
(``_ref.round.Round``), the compiled hand (``round_engine.CompiledHand`` and its ``HandCore``) and the
shared round API over either (``round_match.LongcardRound``) -- refuses a seat out of range, a bool, a
float, a string, None or a huge int with a ``SeatError``, and changes nothing; a NumPy integer seat is
a seat.  (Before: ``legal_mask(3)`` answered all False where ``penalised_mask(3)`` raised.)"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.errors import SeatError
from mahjong_core.families.longcard.round_actions import PASS
from mahjong_core.families.longcard.round_engine import CompiledHand
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.families.longcard._ref.round import Round

BAD_SEATS = [3, -1, 7, 2**70, -(2**70), True, False, 1.0, "0", None, [0], np.int64(3), np.bool_(True)]


def _hand(kind):
    if kind == "reference":
        return Round(4, banker=1)
    if kind == "compiled":
        return CompiledHand(4, banker=1)
    if kind == "core":
        return CompiledHand(4, banker=1).core
    return LongcardRound("changpai-ydr", 4, dealer=1, engine=kind.split("-")[1])


HAND_METHODS = {
    "legal_actions": lambda h, s: h.legal_actions(s), "legal_mask": lambda h, s: h.legal_mask(s),
    "penalised_mask": lambda h, s: h.penalised_mask(s), "penalty_of": lambda h, s: h.penalty_of(s, PASS),
    "step": lambda h, s: h.step(s, PASS), "view": lambda h, s: h.view(s), "events_for": lambda h, s: h.events_for(s),
}
API_METHODS = {
    "legal_indices": lambda r, s: r.legal_indices(s), "legal_mask": lambda r, s: r.legal_mask(s),
    "legal_actions": lambda r, s: r.legal_actions(s), "penalised_mask": lambda r, s: r.penalised_mask(s),
    "view": lambda r, s: r.view(s), "log_for": lambda r, s: r.log_for(s),
    "action_index": lambda r, s: r.action_index(s, PASS), "step": lambda r, s: r.step(s, PASS),
}
CORE_METHODS = {"offered": lambda c, s: c.offered(s), "step": lambda c, s: c.step(s, PASS)}
# the reference's public rule queries of a seat (a silent answer for seat -1 or True before)
REF_QUERIES = {name: (lambda name: lambda h, s: getattr(h, name)(s))(name)
               for name in ("next_active", "effective", "live", "qualified", "f_theo", "held_fan")}
HAND_METHODS_REF = {**HAND_METHODS, **REF_QUERIES}
HAND_METHODS_COMPILED = {**HAND_METHODS, "effective": REF_QUERIES["effective"]}
CASES = ([("reference", m) for m in HAND_METHODS_REF] + [("compiled", m) for m in HAND_METHODS_COMPILED]
         + [(k, m) for k in ("api-reference", "api-compiled") for m in API_METHODS]
         + [("core", m) for m in CORE_METHODS])


def _method(kind, name):
    tables = {"core": CORE_METHODS, "reference": HAND_METHODS_REF, "compiled": HAND_METHODS_COMPILED}
    return (API_METHODS if kind.startswith("api") else tables[kind])[name]


def _state(kind, h):
    return h.snapshot() if kind == "core" else h.to_json()


@pytest.mark.parametrize("kind, name", CASES, ids=[f"{k}.{m}" for k, m in CASES])
def test_every_per_seat_method_refuses_a_bad_seat_with_seat_error(kind, name):
    h = _hand(kind)
    call = _method(kind, name)
    before = _state(kind, h)
    for seat in BAD_SEATS:
        with pytest.raises(SeatError, match="seat"):
            call(h, seat)
        assert _state(kind, h) == before, (name, seat)


@pytest.mark.parametrize("kind, name", CASES, ids=[f"{k}.{m}" for k, m in CASES])
def test_a_numpy_integer_seat_is_a_seat(kind, name):
    h, h2 = _hand(kind), _hand(kind)
    call = _method(kind, name)
    a, b = call(h, 1), call(h2, np.int64(1))        # seat 1, the banker, is to act (the 起 stage)
    if isinstance(a, np.ndarray):
        assert (a == b).all()
    else:
        assert a == b and _state(kind, h) == _state(kind, h2)
