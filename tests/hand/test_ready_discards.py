"""The 报听 discards kernel (``_ready_discards``, what the round engine offers at every turn
start) against its definition: the held kinds t of a 3k+2 hand such that the hand without one t
has a wait, ``waits(c - t) != 0``, computed here by brute force -- one waits call per held kind.

The kernel answers a whole component at once from the removal masks of its table row (the
discards that leave the component complete or with a wait) and falls back to a waits call per
discard when the caller's mask leaves out some kinds of a component; both paths are held here:

* exhaustively over every single-suit and honor shape of 3k+2 tiles, alone and beside a small
  second component (so that a discard must leave its component complete while the tile joins
  the other one);
* on seeded near-ready mixed hands of all three rulesets (complete hands of every size a hand
  with declared groups can have -- standard, seven pairs, the ``public`` special forms -- with
  tiles swapped), with the ruleset's kinds and with masks that leave kinds out;
* a sample of those against the pure-Python reference's waits (the oracle), so that the brute
  force's own waits kernel is not the only judge.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from mahjong_core.families.mahjong._ref import hand as ref

import mahjong_core as mj
from mahjong_core import _hand

ONE = np.uint64(1)


def _mask(kinds) -> int:
    return sum(1 << int(k) for k in kinds)


def brute_ready(hands: np.ndarray, allowed: int, special: bool) -> np.ndarray:
    """Bit t of row i: hands[i] holds t and hands[i] - t has a wait (one waits call per discard)."""
    rows, kinds = np.nonzero(hands)
    minus = hands[rows]
    minus[np.arange(len(rows)), kinds] -= 1
    waits = _hand.waits_batch(minus, allowed, special)
    bits = np.where(waits != 0, ONE << kinds.astype(np.uint64), np.uint64(0))
    out = np.zeros(len(hands), np.uint64)
    np.bitwise_or.at(out, rows, bits)
    return out


def _assert_same(hands: np.ndarray, allowed: int, special: bool) -> int:
    got = _hand.ready_discards_batch(hands, allowed, special)
    want = brute_ready(hands, allowed, special)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, (
        f"{bad.size} disagreements, first {mj.format_counts(hands[bad[0]])}: "
        f"got {int(got[bad[0]]):#x}, want {int(want[bad[0]]):#x}")
    return int(np.count_nonzero(want))


# ------------------------------------------------------------------ exhaustive shapes
def _shapes(digits: int) -> np.ndarray:
    """Every vector of `digits` counts 0-4 with sum <= 14."""
    v = np.array(list(itertools.product(range(5), repeat=digits)), np.uint8)
    return v[v.sum(axis=1) <= 14]


SUIT_SHAPES = _shapes(9)
HONOR_SHAPES = _shapes(7)

# (start kind, digits) of each component; the second component of a pair test
COMPONENTS = {"characters": (0, 9), "dots": (9, 9), "bamboos": (18, 9), "honors": (27, 7)}
# small shapes for the other component: a single, a pair, two singles, a pung and a single, a chow
# plus a pair (sizes 1, 2, 2, 4, 5: every residue)
PARTNERS = {
    "characters": [[0], [4, 4], [0, 8], [3, 3, 3, 7], [1, 2, 3, 6, 6]],
    "honors": [[27], [30, 30], [27, 33], [28, 28, 28, 31], [32, 32, 32, 29, 29]],
}


def _embed(shapes: np.ndarray, start: int) -> np.ndarray:
    out = np.zeros((len(shapes), 34), np.uint8)
    out[:, start : start + shapes.shape[1]] = shapes
    return out


@pytest.mark.parametrize("component", list(COMPONENTS))
def test_every_single_component_shape(component):
    start, digits = COMPONENTS[component]
    shapes = SUIT_SHAPES if digits == 9 else HONOR_SHAPES
    hands = _embed(shapes[shapes.sum(axis=1) % 3 == 2], start)
    ready = _assert_same(hands, _mask(range(34)), False)
    assert ready > 0.2 * len(hands)      # the set is rich in ready discards


@pytest.mark.parametrize("component, partner", [("bamboos", "characters"), ("characters", "honors"),
                                                ("honors", "characters")])
def test_every_shape_beside_a_second_component(component, partner):
    start, digits = COMPONENTS[component]
    shapes = SUIT_SHAPES if digits == 9 else HONOR_SHAPES
    blocks = []
    for tiles in PARTNERS[partner]:
        other = np.bincount(tiles, minlength=34).astype(np.uint8)
        fit = shapes[(shapes.sum(axis=1) + len(tiles)) % 3 == 2]
        fit = fit[fit.sum(axis=1) + len(tiles) <= 14]
        block = _embed(fit, start)
        block += other
        blocks.append(block)
    hands = np.concatenate(blocks)
    ready = _assert_same(hands, _mask(range(34)), False)
    assert ready > 0.1 * len(hands)
    # the seven-pairs path too: a seven-pairs count over two components
    assert _assert_same(hands[hands.sum(axis=1) == 14], _mask(range(34)), False) > 0


# ------------------------------------------------------------------ near-ready mixed hands
def _groups_of(kinds: list[int]) -> list[tuple[int, ...]]:
    kindset = set(kinds)
    groups = [(k, k, k) for k in kinds]
    groups += [(k, k + 1, k + 2) for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kindset]
    return groups


def near_ready_hands(ruleset: str, n: int, seed: int) -> np.ndarray:
    """`n` hands of 3k+2 tiles (k = 0..4): a complete hand (groups and a pair; seven pairs; in
    public the special forms) with 0-2 tiles swapped for random kinds of the ruleset."""
    rng = np.random.default_rng(seed)
    rs = mj.get_ruleset(ruleset)
    kinds = list(rs.kinds)
    groups = _groups_of(kinds)
    out = np.zeros((n, 34), np.uint8)
    i = 0
    while i < n:
        h = np.zeros(34, np.int64)
        form = rng.integers(8)
        if form == 0:
            for k in rng.choice(kinds, 7):
                h[k] += 2
        elif form == 1 and rs.special_forms:
            pattern = ref.KNITTED_PATTERNS[rng.integers(len(ref.KNITTED_PATTERNS))]
            which = rng.integers(3)
            if which == 0:
                h[list(ref.ORPHANS)] += 1
                h[ref.ORPHANS[rng.integers(13)]] += 1
            elif which == 1:
                pool = sorted(set(pattern) | set(ref.HONORS))
                h[list(rng.choice(pool, 14, replace=False))] += 1
            else:
                h[list(pattern)] += 1
                if rng.integers(2):
                    np.add.at(h, list(groups[rng.integers(len(groups))]), 1)
                h[kinds[rng.integers(len(kinds))]] += 2
        else:
            for _ in range(rng.integers(5)):
                np.add.at(h, list(groups[rng.integers(len(groups))]), 1)
            h[kinds[rng.integers(len(kinds))]] += 2
        for _ in range(rng.integers(3)):
            held = np.flatnonzero(h)
            h[held[rng.integers(len(held))]] -= 1
            h[kinds[rng.integers(len(kinds))]] += 1
        if h.max() > 4:
            continue
        out[i] = h
        i += 1
    return out


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_near_ready_hands(ruleset):
    rs = mj.get_ruleset(ruleset)
    hands = near_ready_hands(ruleset, 6000, seed=16)
    allowed = _mask(rs.kinds)
    ready = _assert_same(hands, allowed, rs.special_forms)
    assert ready > 0.5 * len(hands)
    # the special forms' path on the mahjong rulesets without them, and the other way round
    _assert_same(hands, allowed, not rs.special_forms)


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_masks_leaving_kinds_out(ruleset):
    """A caller's mask without some kinds of a component the hand holds tiles of: the waits on
    those kinds do not count (the per-discard path of the kernel)."""
    rs = mj.get_ruleset(ruleset)
    rng = np.random.default_rng(1616)
    hands = near_ready_hands(ruleset, 4000, seed=61)
    full = _mask(rs.kinds)
    for special in (False, True):
        for part in np.array_split(np.arange(len(hands)), 8):
            block = hands[part]
            held = _mask(np.flatnonzero(block.sum(axis=0)))
            free = [k for k in rs.kinds if not (held >> k) & 1]
            drop = rng.choice(free, min(len(free), 1 + rng.integers(3)), replace=False) if free else []
            _assert_same(block, full & ~_mask(drop), special)
        # kinds left out inside the held components: each row may wait only on the kinds it holds
        for row in hands[:300]:
            _assert_same(row[None, :].copy(), _mask(np.flatnonzero(row)), special)


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_against_the_reference(ruleset):
    rs = mj.get_ruleset(ruleset)
    hands = near_ready_hands(ruleset, 150, seed=7)
    got = _hand.ready_discards_batch(hands, _mask(rs.kinds), rs.special_forms)
    for h, g in zip(hands, got.tolist()):
        want = 0
        for t in np.flatnonzero(h).tolist():
            rest = h.copy()
            rest[t] -= 1
            if ref.waits(rest, ruleset):
                want |= 1 << t
        assert g == want, mj.format_counts(h)


def test_engine_sized_hands_and_errors():
    """Sizes of the concealed hand with melds declared (2 to 14 tiles); a 3k+1 hand is refused."""
    hands = near_ready_hands("two-player", 500, seed=3)
    assert set(hands.sum(axis=1).tolist()) == {2, 5, 8, 11, 14}
    with pytest.raises(mj.HandSizeError, match="ready discards need 3k\\+2"):
        _hand.ready_discards_batch(np.zeros((1, 34), np.uint8) + np.eye(34, dtype=np.uint8)[0], _mask(range(34)), False)
    with pytest.raises(mj.TileCountError):
        bad = np.zeros((1, 34), np.uint8)
        bad[0, 0] = 5
        _hand.ready_discards_batch(bad, _mask(range(34)), False)
