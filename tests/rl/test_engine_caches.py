"""The round engine's incremental caches equal a fresh computation after every step.

The engine keeps, per seat, the waits of the concealed hand of 3k+1 tiles (after a draw in the
seat's turn: of the hand without the drawn tile) until that hand changes otherwise than by the
draw, and answers the win checks of a discard, a robbed kong and a draw with a bit test of it.
Held here, over many seeded rounds of every ruleset and random legal play: whenever the cache
holds a value, it is the hand kernel's waits of that hand now, and a tile is in it exactly when
the hand with that tile added is a winning hand (``is_win``).  Also held: the 报听 discards the
engine offers (found in one pass over the hand) are the discards that leave a waiting hand."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong_core._round import kept_parts, observe
from mahjong_core.families.mahjong.actions import KONG_SELF, PASS
from mahjong_core.rl import mahjong_rulesets, observation_layout

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
    if not mj.get_ruleset(ruleset).first_turn_and_ready:     # no 报听 in public and mcr
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


# ---------------------------------------------------------------------------------------------
# The kept part of the observations: per seat, the sections that change only on events (melds,
# discards, flowers, winds, dealer) are written into every seat's copy as the events happen, and
# an observation copies its seat's.  After every step the copies equal the same sections built
# from the state now (``kept_parts``), and each observation holds its seat's copy; the hand sizes
# (counted as the hands change) equal the hands' sums.
# ---------------------------------------------------------------------------------------------
def _play_kept(ruleset: str, seed: int, rounds: int, calls: float) -> collections.Counter[str]:
    """Rounds of random play (a claim, kong or win taken with probability ``calls`` when one is
    legal, so melds of every kind come often), the kept parts held after every step; returns
    what the rounds exercised."""
    rng = np.random.default_rng(seed)
    seen: collections.Counter[str] = collections.Counter()
    sizes = observation_layout(ruleset).slices["hand_sizes"]
    for k in range(rounds):
        r = mj.Round(ruleset, seed=seed + k, dealer=k % mj.get_ruleset(ruleset).players)
        core = r._core
        while True:
            kept, fresh = kept_parts(core)
            np.testing.assert_array_equal(kept, fresh, err_msg=f"{ruleset} seed {seed + k} step {core.n_steps}")
            start = 2 * 34
            for seat in range(core.P):
                obs, _ = observe(core, seat)
                np.testing.assert_array_equal(obs[start:start + kept.shape[1]], kept[seat])
                # the hand sizes, from counters kept with the hands
                assert obs[sizes].tolist() == [core.hand_size((seat + k) % core.P) for k in range(core.P)]
            if r.is_over:
                break
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            calls_legal = [i for i in legal if i >= KONG_SELF and i != PASS]
            if calls_legal and rng.random() < calls:
                r.step(seat, calls_legal[int(rng.integers(len(calls_legal)))])
            else:
                r.step(seat, legal[int(rng.integers(len(legal)))])
            seen["steps"] += 1
        for s in range(core.P):
            seen["flowers"] += len(core.flowers_list()[s])
            seen["claimed discards"] += sum(1 for m in core.melds_list()[s] if m[2] >= 0)
            for m in core.melds_list()[s]:
                seen[("chi", "pon", "kong", "concealed kong")[m[0]] + (" added" if m[4] else "")] += 1
        seen["wins" if core.winner_totals() else "draws"] += 1
    return seen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kept_observation_parts_equal_a_fresh_computation(ruleset: str) -> None:
    seen = _play_kept(ruleset, 500, 60, 0.8)
    # every kind of change was exercised: claims, every meld kind, flowers, both ends of a round
    want = ["steps", "claimed discards", "chi", "pon", "kong", "concealed kong", "kong added", "flowers", "wins",
            "draws"]
    assert all(seen[w] > 0 for w in want), seen


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), ruleset=st.sampled_from(RULESETS), calls=st.floats(0, 1))
def test_kept_observation_parts_hold_in_any_round(seed: int, ruleset: str, calls: float) -> None:
    assert _play_kept(ruleset, seed, 2, calls)["steps"] > 0
