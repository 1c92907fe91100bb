"""The round engine's incremental caches equal a fresh computation after every step.

The engine keeps, per seat, the waits of the concealed hand of 3k+1 tiles (after a draw in the
seat's turn: of the hand without the drawn tile) until that hand changes otherwise than by the
draw, and answers the win checks of a discard, a robbed kong and a draw with a bit test of it.
Held here, over many seeded rounds of every ruleset and random legal play: whenever the cache
holds a value, it is the hand kernel's waits of that hand now, and a tile is in it exactly when
the hand with that tile added is a winning hand (``is_win``).  Also held: the 报听 discards the
engine offers (found in one pass over the hand) are the discards that leave a waiting hand."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong_core.rl import mahjong_rulesets

import mahjong_core as mj

RULESETS = mahjong_rulesets()
# the 报听 options exercise the ready-discard and ready-window paths in every ruleset
_OPTIONS = (None, {"ready_mode": "any_discard", "ready_locks_hand": False, "ready_window": True})


def _check_ready_discards(r: mj.Round, ruleset: str) -> None:
    """The 报听 discards offered on turn (found in one pass over the hand) are exactly the
    discards whose hand waits on some tile."""
    core = r._core
    seat = core.turn
    if core.phase != 1 or core.must_discard or not core.ready_allowed(seat):
        return
    hand = core.hand_row(seat)
    want = []
    for t in np.flatnonzero(hand).tolist():
        rest = hand.copy()
        rest[t] -= 1
        if mj.waits_mask(rest, ruleset=ruleset):
            want.append(34 + t)
    legal = [i for i in core.legal(seat) if 34 <= i < 68]
    locked = core.locked(seat) and core.drawn >= 0
    assert legal == ([] if locked else want)


def _check_caches(r: mj.Round, ruleset: str) -> int:
    """Every seat's cached waits (if computed) against the kernels; returns how many were held."""
    core = r._core
    kinds = sum(1 << k for k in mj.get_ruleset(ruleset).kinds)
    held = 0
    for seat in range(core.P):
        got = core.cached_waits(seat)
        if got is None:
            continue
        hand = core.hand_row(seat)
        if hand.sum() % 3 == 2:            # in its turn after a draw: the hand before the draw
            assert core.phase == 1 and core.turn == seat and core.drawn >= 0
            hand[core.drawn] -= 1
        assert got == mj.waits_mask(hand, ruleset=ruleset)
        for t in np.flatnonzero(hand < 4).tolist():   # a tile that can still come
            if (kinds >> t) & 1:
                plus = hand.copy()
                plus[t] += 1
                assert mj.is_win(plus, ruleset=ruleset) == bool((got >> t) & 1)
        held += 1
    return held


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), ruleset=st.sampled_from(RULESETS), options=st.sampled_from(_OPTIONS))
def test_cached_waits_equal_a_fresh_computation(seed: int, ruleset: str, options: dict | None) -> None:
    if ruleset == "public":     # no 报听 in public
        options = None
    rng = np.random.default_rng(seed)
    held = 0
    for k in range(4):
        r = mj.Round(ruleset, seed=seed + k, options=options)
        while not r.is_over:
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            r.step(seat, legal[int(rng.integers(len(legal)))])
            _check_ready_discards(r, ruleset)
            for s in range(r._core.P):      # ask every win check, filling the caches
                r._core.win_check(s)
            held += _check_caches(r, ruleset)
    assert held > 0
