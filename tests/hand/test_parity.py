"""The compiled core against the pure-Python reference (the oracle).

* exhaustive: every single-suit count vector of up to 14 tiles (entries 0-4), for the win check and
  the waiting tiles in each ruleset's suits, and for shanten in the characters suit.  The rules of
  one suit are symmetric under the mirror 1<->9, 2<->8, ... (runs, pairs, triplets, seven pairs,
  the terminals of the thirteen orphans and the knitted patterns 147/258/369 map onto themselves), so
  the oracle answers each mirror pair once: the compiled core answers every vector, and a vector's
  answer is held against the oracle's answer for it or, mirrored, for its mirror image.  The compiled
  core's own symmetry is checked on every vector.  The oracle needs about 2 ms a hand at 13-14 tiles,
  so by default it answers at most :data:`ORACLE_CAP` mirror pairs per size (a seeded sample, the
  same every run; smaller sizes are whole); ``MAHJONG_CORE_EXHAUSTIVE=1`` lifts the cap (every one
  of the 312 732 vectors against the oracle: about 15 CPU-minutes);
* property tests (hypothesis) on mixed hands of all three rulesets, drawn near complete hands so
  that wins and ready hands are common, with every size a hand with declared groups can have;
* invariants: shanten == -1 exactly when is_win; waits non-empty exactly when shanten == 0.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core.families.mahjong._ref import hand as ref

PARITY = "hand"   # the behaviour the shared ``parity`` fixture (tests/conftest.py) gives this suite

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def _single_suit_vectors() -> dict[int, np.ndarray]:
    """All 9-vectors with entries 0-4, grouped by their sum (only sums 3k+1 / 3k+2)."""
    vecs = np.array(list(itertools.product(range(5), repeat=9)), dtype=np.uint8)
    sums = vecs.sum(axis=1)
    return {n: vecs[sums == n] for n in SIZES}


VECTORS = _single_suit_vectors()


def test_vector_counts():
    # 405 350 vectors with sum <= 14, of which the sums 3k+1 and 3k+2 are tested here
    total = sum(len(v) for v in VECTORS.values())
    assert total == 312732


def _embed(vectors: np.ndarray, suit: int) -> np.ndarray:
    out = np.zeros((len(vectors), 34), np.uint8)
    out[:, 9 * suit : 9 * suit + 9] = vectors
    return out


SUIT_OF = {"two-player": 0, "two-player-bamboo": 2, "public": 1, "mcr": 1}

ORACLE_CAP = None if os.environ.get("MAHJONG_CORE_EXHAUSTIVE") == "1" else 6000
"""Mirror pairs per size the oracle answers by default (None: all of them, ``MAHJONG_CORE_EXHAUSTIVE=1``)."""

_PLACE = 5 ** np.arange(8, -1, -1)


def _oracle_plan(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(canonical, picked)``: the canonical member of each vector's mirror pair (the one whose
    base-5 key is smaller), and the indices of the vectors the oracle is held against: every vector
    whose canonical member is in the (seeded, capped) sample of canonical members."""
    key, mirror = vectors.astype(np.int64) @ _PLACE, vectors[:, ::-1].astype(np.int64) @ _PLACE
    canon_keys = np.unique(np.minimum(key, mirror))
    if ORACLE_CAP is not None and len(canon_keys) > ORACLE_CAP:
        canon_keys = np.sort(np.random.default_rng(len(canon_keys)).choice(canon_keys, ORACLE_CAP, replace=False))
    picked = np.flatnonzero(np.isin(np.minimum(key, mirror), canon_keys))
    canonical = np.where((key <= mirror)[:, None], vectors, vectors[:, ::-1])
    return canonical, picked


def _mirror_tiles(tiles, suit: int) -> list[int]:
    base = 9 * suit
    return sorted(base + 8 - (t - base) for t in tiles)


def test_mirror_plan_covers_every_vector_once_per_pair():
    v = VECTORS[14]
    canonical, picked = _oracle_plan(v)
    # the canonical member is the vector or its mirror, and a pair's two vectors share it
    assert all((c == x).all() or (c == x[::-1]).all() for c, x in zip(canonical[:500], v[:500]))
    keys = {bytes(c) for c in canonical}
    assert len(keys) == (len(v) + sum((x == x[::-1]).all() for x in v)) // 2
    assert len(picked) <= len(v) and (ORACLE_CAP is not None or len(picked) == len(v))


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
@pytest.mark.parametrize("n", [n for n in SIZES if n % 3 == 2])
def test_exhaustive_single_suit_win(parity, ruleset, n):
    suit = SUIT_OF[ruleset]
    canonical, picked = _oracle_plan(VECTORS[n])
    hands, mirrored = _embed(VECTORS[n], suit), _embed(VECTORS[n][:, ::-1], suit)
    got = np.array(parity.compiled.is_win_batch(hands, ruleset))
    assert (got == np.array(parity.compiled.is_win_batch(mirrored, ruleset))).all(), "the core is not mirror-symmetric"
    unique, back = np.unique(canonical[picked], axis=0, return_inverse=True)
    want = np.array(parity.reference.is_win_batch(_embed(unique, suit), ruleset))[back.ravel()]
    bad = np.flatnonzero(got[picked] != want)
    assert bad.size == 0, f"{len(bad)} disagreements, first {mj.format_counts(hands[picked[bad[0]]])}"
    assert want.any()  # the size class does contain wins


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
@pytest.mark.parametrize("n", [n for n in SIZES if n % 3 == 1])
def test_exhaustive_single_suit_waits(parity, ruleset, n):
    suit = SUIT_OF[ruleset]
    vectors = VECTORS[n]
    canonical, picked = _oracle_plan(vectors)
    hands, mirrored = _embed(vectors, suit), _embed(vectors[:, ::-1], suit)
    got = parity.compiled.waits_batch(hands, ruleset)
    for h, g, m in zip(hands, got, parity.compiled.waits_batch(mirrored, ruleset)):
        assert g == _mirror_tiles(m, suit), f"the core is not mirror-symmetric: {mj.format_counts(h)}"
    unique, back = np.unique(canonical[picked], axis=0, return_inverse=True)
    answers = parity.reference.waits_batch(_embed(unique, suit), ruleset)
    for i, u in zip(picked, back.ravel()):
        want = answers[u] if (canonical[i] == vectors[i]).all() else _mirror_tiles(answers[u], suit)
        assert got[i] == want, mj.format_counts(hands[i])


@pytest.mark.slow
@pytest.mark.parametrize("n", SIZES)
def test_exhaustive_single_suit_shanten(parity, n):
    canonical, picked = _oracle_plan(VECTORS[n])
    hands = _embed(VECTORS[n], 0)
    got = np.array(parity.compiled.shanten_batch(hands, "two-player"))
    assert (got == np.array(parity.compiled.shanten_batch(_embed(VECTORS[n][:, ::-1], 0), "two-player"))).all()
    unique, back = np.unique(canonical[picked], axis=0, return_inverse=True)
    want = np.array(parity.reference.shanten_batch(_embed(unique, 0), "two-player"))[back.ravel()]
    bad = np.flatnonzero(got[picked] != want)
    assert bad.size == 0, f"{len(bad)} disagreements, first {mj.format_counts(hands[picked[bad[0]]])}"


# ------------------------------------------------------------------ mixed hands
def _groups_of(kinds: tuple[int, ...]) -> list[tuple[int, ...]]:
    kindset = set(kinds)
    groups = [(k, k, k) for k in kinds]
    groups += [(k, k + 1, k + 2) for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kindset]
    return groups


@st.composite
def near_complete_hands(draw, ruleset: str):
    """A complete concealed part of 3k+2 tiles (standard, seven pairs or, in public, a
    special form), then a few tiles swapped for random ones and maybe one removed."""
    rs = mj.get_ruleset(ruleset)
    kinds = rs.kinds
    counts = np.zeros(34, np.int64)
    form = draw(st.sampled_from(["standard"] * 4 + ["seven_pairs"] + (["special"] if rs.special_forms else [])))
    if form == "standard":
        groups = draw(st.integers(0, 4))
        choices = _groups_of(kinds)
        for _ in range(groups):
            g = draw(st.sampled_from(choices))
            for k in g:
                counts[k] += 1
        pair = draw(st.sampled_from(kinds))
        counts[pair] += 2
    elif form == "seven_pairs":
        for _ in range(7):
            counts[draw(st.sampled_from(kinds))] += 2
    else:
        special = draw(st.sampled_from(["orphans", "knitted", "knitted_straight"]))
        pattern = draw(st.sampled_from(ref.KNITTED_PATTERNS))
        if special == "orphans":
            for k in ref.ORPHANS:
                counts[k] += 1
            counts[draw(st.sampled_from(ref.ORPHANS))] += 1
        elif special == "knitted":
            pool = sorted(set(pattern) | set(ref.HONORS))
            drop = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
            for k in pool:
                if k not in drop:
                    counts[k] += 1
        else:
            for k in pattern:
                counts[k] += 1
            if draw(st.booleans()):
                for k in draw(st.sampled_from(_groups_of(kinds))):
                    counts[k] += 1
            counts[draw(st.sampled_from(kinds))] += 2
    # repair any fifth copy by moving it to a random kind with room
    swaps = draw(st.integers(0, 3))
    for _ in range(swaps):
        held = [k for k in kinds if counts[k] > 0]
        counts[draw(st.sampled_from(held))] -= 1
        counts[draw(st.sampled_from(kinds))] += 1
    for k in range(34):
        while counts[k] > 4:
            counts[k] -= 1
            room = [j for j in kinds if counts[j] < 4]
            counts[draw(st.sampled_from(room))] += 1
    if draw(st.booleans()):
        held = [k for k in kinds if counts[k] > 0]
        counts[draw(st.sampled_from(held))] -= 1
    return counts.astype(np.uint8)


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_mixed_hands_agree_with_reference(parity, ruleset):
    @settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(near_complete_hands(ruleset))
    def check(counts):
        n = int(counts.sum())
        s = parity.check("shanten", counts, ruleset)
        if n % 3 == 2:
            win = parity.check("is_win", counts, ruleset)
            assert (s == -1) == win
        else:
            w = parity.check("waits", counts, ruleset)
            assert bool(w) == (s == 0)

    check()


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_uniform_random_hands_agree_with_reference(parity, ruleset):
    """Plain random draws from the ruleset's wall (mostly far from complete)."""
    rng = np.random.default_rng(20261129)
    kinds = mj.get_ruleset(ruleset).kinds
    wall = np.repeat(np.asarray(kinds), 4)
    hands = []
    for size in (13, 14) * 150 + (10, 11, 7, 8, 4, 5, 1, 2) * 10:
        h = np.zeros(34, np.uint8)
        np.add.at(h, rng.choice(wall, size, replace=False), 1)
        hands.append(h)
    got, want = parity.both("shanten_batch", np.array(hands), ruleset)
    assert len(got) == len(want) == len(hands)
    for h, g, w in zip(hands, got, want):
        assert g == w, mj.format_counts(h)


@pytest.mark.parametrize(
    "form, ref_fn",
    [
        ("standard", ref.standard_shanten),
        ("seven_pairs", ref.seven_pairs_shanten),
        ("thirteen_orphans", ref.thirteen_orphans_shanten),
        ("honors_knitted", ref.honors_knitted_shanten),
        ("knitted_straight", ref.knitted_straight_shanten),
    ],
)
def test_form_shanten_agree_with_reference(form, ref_fn):
    @settings(max_examples=300, deadline=None)
    @given(near_complete_hands("public"))
    def check(counts):
        n = int(counts.sum())
        if form in ("seven_pairs", "thirteen_orphans", "honors_knitted") and n < 13:
            return
        if form == "knitted_straight" and n < 10:
            return
        assert mj.form_shanten(counts, form, ruleset="public") == ref_fn(counts)

    check()
