"""``Family.hidden_worlds`` of the long-card family: the same hand as one seat saw it, on another
stock.

The other stock keeps every card the seat saw where it was (its own cards, every card shown: 翻牌,
discards, claims, the 五门将 cards, every 财神) and permutes the rest: the other seats' concealed
cards and the stock not yet drawn.  The actions are replayed there; the world is None when one of them is not
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
from ._ref.round import Round as ReferenceHand
from .round_rules import PLAYERS

__all__ = ["hidden_world", "hidden_positions", "received_positions"]


_DRAWS = ("draw", "turn", "replacement")
"""The events of a card taken from the stock (a 财神 taken is laid out: a ``caishen`` event)."""


def received_positions(r: Any) -> dict[int, list[int]]:
    """The stock positions of the cards each seat received privately, in order: its deal (spec
    3.2: seat ``k`` from the banker takes the ``k``-th ``DEAL`` cards) and the cards drawn to it
    alone since (a 翻牌 turned or a replacement shown is nobody's secret).  The hand's events,
    in order, take the stock's cards in order; a 财神 taken between them was laid out."""
    h = r.hand
    stock = list(h.stock)
    d = 1 if h.settings.turn_direction == "ccw" else -1
    order = [(h.banker + d * k) % PLAYERS for k in range(PLAYERS)]
    got: dict[int, list[int]] = {p: list(range(_C.DEAL * k, _C.DEAL * (k + 1))) for k, p in enumerate(order)}
    pos = _C.DEAL * PLAYERS
    for ev in h.events:
        if ev["type"] not in _DRAWS:
            continue
        while stock[pos] == CAISHEN:
            pos += 1
        if stock[pos] != ev["card"]:
            raise AssertionError("the position replay lost track of a draw")
        if ev.get("to") is not None:
            got[ev["to"]].append(pos)
        pos += 1
    return got


def hidden_positions(r: Any, seat: int) -> list[int]:
    """Stock positions of the cards ``seat`` cannot see now: the stock not yet drawn (without the
    五门将 cards shown, the first undealt card and the last) and, for each other seat, the copies
    of each face still concealed in its hand -- the last ones it received (the earlier copies were
    the ones shown, first in first out).  财神 stay where they are (laid out as soon as taken)."""
    h = r.hand
    stock = list(h.stock)
    shown = {_C.DEAL * PLAYERS, len(stock) - 1} if h.settings.wumenjiang else set()
    hidden = [i for i in range(len(stock) - h.stock_left, len(stock)) if i not in shown and stock[i] != CAISHEN]
    got = received_positions(r)
    for o in range(PLAYERS):
        if o == seat:
            continue
        for f, n in enumerate(r.view(o)["hand"]):
            if n:
                mine = [i for i in got[o] if stock[i] == f and i not in shown]
                hidden += mine[max(0, len(mine) - int(n)):]
    return hidden


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
    if not other._follow(r._action_pairs()):
        return None
    same = other.log_for(seat) == r.log_for(seat) and (other.phase, other.seats_to_act()) == (r.phase, r.seats_to_act())
    return other if same else None
