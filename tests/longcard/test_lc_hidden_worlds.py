"""The long-card family's ``hidden_worlds`` hook (families/longcard/hidden_worlds.py): a hand
re-dealt where one seat cannot see keeps what the seat saw (its events, its cards, the turn) and
the original, and re-deals the other seats' cards; the conformance suite's hidden_information
check compares the views in these worlds."""

from __future__ import annotations

import numpy as np
import pytest

from mahjong_core.families import registry
from mahjong_core.families.longcard.cards import CAISHEN
from mahjong_core.families.longcard.hidden_worlds import hidden_positions, received_positions
from mahjong_core.families.longcard.round_match import LongcardRound

HOOK = registry.get_family("longcard").hidden_worlds


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_re_dealt_hand_keeps_what_the_seat_saw(engine):
    rng = np.random.default_rng(5)
    worlds = other_hands = 0
    for seed in range(12):
        r = LongcardRound("changpai-ydr", seed, dealer=seed % 3, engine=engine)
        # random legal play ends most hands within a few steps (a seat folds or wins); later
        # states, where the claims made need the cards their seats had, re-deal more rarely
        for _ in range(int(rng.integers(0, 4))):
            if r.is_over:
                break
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            r.step(seat, legal[int(rng.integers(len(legal)))])
        if r.is_over:
            continue
        before = r.to_json()
        for seat in range(r.players):
            other = HOOK(r, seat, rng)
            assert r.to_json() == before   # the original is left as it was
            if other is None:
                continue
            worlds += 1
            assert type(other) is LongcardRound and other.engine == engine
            assert other.log_for(seat) == r.log_for(seat)
            assert (other.phase, other.seats_to_act()) == (r.phase, r.seats_to_act())
            assert other.view(seat) == r.view(seat)
            other_hands += any(other.view(o)["hand"] != r.view(o)["hand"] for o in range(r.players) if o != seat)
    assert worlds >= 12 and other_hands >= worlds // 2, (worlds, other_hands)


def test_the_hidden_positions_are_the_others_cards_and_the_undrawn_stock():
    r = LongcardRound("changpai-ydr", 3, dealer=1)
    stock = list(r.hand.stock)
    for seat in range(r.players):
        hidden = set(hidden_positions(r, seat))
        assert all(stock[i] != CAISHEN for i in hidden)
        drawn = len(stock) - r.hand.stock_left
        # of the cards taken, those the other two seats hold (财神 aside): none of the seat's own
        got = received_positions(r)
        dealt_hidden = {i for i in hidden if i < drawn}
        assert not dealt_hidden & set(got[seat])
        shown = {60, len(stock) - 1}                  # the 五门将 cards: the first undealt and the last
        others = {i for o in range(r.players) if o != seat for i in got[o] if stock[i] != CAISHEN} - shown
        assert dealt_hidden == others and len(others) >= 30
        assert set(hidden) - dealt_hidden == {i for i in range(drawn, len(stock)) if stock[i] != CAISHEN} - shown
