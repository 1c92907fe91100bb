"""The compiled core against the pure-Python reference (the oracle).

* exhaustive: every single-suit count vector of up to 14 tiles (entries 0-4), for the win check and
  the waiting tiles in each ruleset's suits, and for shanten in the characters suit;
* property tests (hypothesis) on mixed hands of all three rulesets, drawn near complete hands so
  that wins and ready hands are common, with every size a hand with declared groups can have;
* invariants: shanten == -1 exactly when is_win; waits non-empty exactly when shanten == 0.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core.families.mahjong._ref import hand_py as ref

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


SUIT_OF = {"two-player": 0, "two-player-bamboo": 2, "public": 1}


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
@pytest.mark.parametrize("n", [n for n in SIZES if n % 3 == 2])
def test_exhaustive_single_suit_win(ruleset, n):
    hands = _embed(VECTORS[n], SUIT_OF[ruleset])
    got = mj.is_win_batch(hands, ruleset=ruleset)
    want = np.array([ref.is_win(h, ruleset) for h in hands])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{len(bad)} disagreements, first {mj.format_counts(hands[bad[0]])}"
    assert want.any()  # the size class does contain wins


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
@pytest.mark.parametrize("n", [n for n in SIZES if n % 3 == 1])
def test_exhaustive_single_suit_waits(ruleset, n):
    hands = _embed(VECTORS[n], SUIT_OF[ruleset])
    got = mj.waits_batch(hands, ruleset=ruleset)
    for h, mask in zip(hands, got):
        want = ref.waits(h, ruleset)
        assert mj.mask_to_tiles(mask) == want, mj.format_counts(h)


@pytest.mark.slow
@pytest.mark.parametrize("n", SIZES)
def test_exhaustive_single_suit_shanten(n):
    hands = _embed(VECTORS[n], 0)
    got = mj.shanten_batch(hands, ruleset="two-player")
    for h, s in zip(hands, got):
        assert s == ref.shanten(h, "two-player"), mj.format_counts(h)


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
def test_mixed_hands_agree_with_reference(ruleset):
    @settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(near_complete_hands(ruleset))
    def check(counts):
        n = int(counts.sum())
        s = mj.shanten(counts, ruleset=ruleset)
        assert s == ref.shanten(counts, ruleset)
        if n % 3 == 2:
            win = mj.is_win(counts, ruleset=ruleset)
            assert win == ref.is_win(counts, ruleset)
            assert (s == -1) == win
        else:
            w = mj.waits(counts, ruleset=ruleset)
            assert w == ref.waits(counts, ruleset)
            assert bool(w) == (s == 0)

    check()


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_uniform_random_hands_agree_with_reference(ruleset):
    """Plain random draws from the ruleset's wall (mostly far from complete)."""
    rng = np.random.default_rng(20261129)
    kinds = mj.get_ruleset(ruleset).kinds
    wall = np.repeat(np.asarray(kinds), 4)
    hands = []
    for size in (13, 14) * 150 + (10, 11, 7, 8, 4, 5, 1, 2) * 10:
        h = np.zeros(34, np.uint8)
        np.add.at(h, rng.choice(wall, size, replace=False), 1)
        hands.append(h)
    got = mj.shanten_batch(np.array(hands), ruleset=ruleset)
    for h, s in zip(hands, got):
        assert s == ref.shanten(h, ruleset), mj.format_counts(h)


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
