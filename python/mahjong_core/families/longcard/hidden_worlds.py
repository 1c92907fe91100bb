"""``Family.hidden_worlds`` of the long-card family: the same hand as one seat saw it, on another
stock.

The other stock keeps every card the seat saw where it was (its own deal, every card drawn since,
the 五门将 cards shown, every 财神) and permutes the rest: the other seats' dealt cards and the
stock not yet drawn.  The actions are replayed there; the world is None when one of them is not
legal there, or when the seat's event stream (``log_for``) or the public turn (phase, seats to
act) differs (an opponent who showed a card of his deal now shows another one).  A seat's view and legal actions must be the same
in both (the conformance suite's ``hidden_information`` check).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _constants as _C
from .cards import CAISHEN
from .round_engine import CompiledHand
from .round_match import _logged as logged
from .round_ref import Round as ReferenceHand
from .round_rules import PLAYERS

__all__ = ["hidden_world", "hidden_positions"]


def hidden_positions(r: Any, seat: int) -> list[int]:
    """Stock positions of the cards ``seat`` cannot see now: the other seats' deals (spec 3.2:
    seat ``k`` from the banker takes the ``k``-th ``DEAL`` cards) and the stock not yet drawn,
    without the 五门将 cards shown (the first undealt card and the last) and without 财神 (laid
    out as soon as drawn)."""
    h = r.hand
    stock = list(h.stock)
    d = 1 if h.settings.turn_direction == "ccw" else -1
    order = [(h.banker + d * k) % PLAYERS for k in range(PLAYERS)]
    dealt = _C.DEAL * PLAYERS
    hidden = [i for k, p in enumerate(order) if p != seat for i in range(_C.DEAL * k, _C.DEAL * (k + 1))]
    hidden += range(len(stock) - h.stock_left, len(stock))
    shown = {dealt, len(stock) - 1} if h.settings.wumenjiang else set()
    return [i for i in hidden if i not in shown and stock[i] != CAISHEN]


def _on_stock(r: Any, stock: list[int]) -> Any:
    """A round of ``r``'s class, engine and header dealing ``stock`` (a world to compare views in:
    its header's seed does not deal that stock, so it is not a round to save)."""
    other = type(r)(r.ruleset, r.seed, dealer=r.dealer, options=r.log[0]["options"] or None,
                    spawn_key=r.log[0]["spawn_key"], impl=r.impl, engine=r.engine)
    hand_type = CompiledHand if isinstance(r.hand, CompiledHand) else ReferenceHand
    other.hand = hand_type(settings=r.hand.settings, banker=r.hand.banker, stock=stock, impl=r.impl)
    other.log = other.log[:1] + [logged(e) for e in other.hand.events]
    return other


def hidden_world(r: Any, seat: int, rng: np.random.Generator) -> Any:
    """``Family.hidden_worlds``: ``r`` replayed on a stock where the cards ``seat`` cannot see
    now are permuted by ``rng``, or None when that world cannot produce what ``seat`` saw."""
    stock = [int(c) for c in r.hand.stock]
    hidden = hidden_positions(r, seat)
    for p, c in zip(hidden, rng.permutation([stock[p] for p in hidden])):
        stock[p] = int(c)
    other = _on_stock(r, stock)
    pairs = r._action_pairs()
    for k in range(0, len(pairs), 2):
        mover, i = pairs[k], pairs[k + 1]
        if i not in other.legal_indices(mover):
            return None
        other.step(mover, i)
    same = other.log_for(seat) == r.log_for(seat) and (other.phase, other.seats_to_act()) == (r.phase, r.seats_to_act())
    return other if same else None
