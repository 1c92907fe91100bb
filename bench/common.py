"""Shared pieces of the benchmarks: fixed-seed hand sets and a min-of-N timer.

Hands are drawn from each ruleset's own wall with a fixed seed, so every run
(and every peer) sees the same hands.  Timings are the minimum of several
repeats (the least disturbed run), reported as calls per second; speed-ups are
ratios of rates measured in the same run.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mahjong_core as mj  # noqa: E402

SEED = 18


def random_hands(n: int, size: int, ruleset: str = "two-player", seed: int = SEED) -> np.ndarray:
    """(n, 34) uint8 array of `size`-tile hands drawn without replacement from the ruleset's wall."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.asarray(mj.get_ruleset(ruleset).kinds), 4)
    order = np.argsort(rng.random((n, wall.size)), axis=1)[:, :size]
    hands = np.zeros((n, 34), np.uint8)
    np.add.at(hands, (np.repeat(np.arange(n), size), wall[order].ravel()), 1)
    return hands


def ready_hands(n: int, ruleset: str = "two-player", seed: int = SEED) -> np.ndarray:
    """(n, 34) 13-tile hands that are ready (shanten 0): complete hands minus one tile."""
    rng = np.random.default_rng(seed)
    out = []
    pool = random_hands(max(4 * n, 2000), 14, ruleset, seed)
    # complete hands are rare among random ones: build them from groups instead
    kinds = np.asarray(mj.get_ruleset(ruleset).kinds)
    while len(out) < n:
        h = np.zeros(34, np.int64)
        for _ in range(4):
            k = int(rng.choice(kinds))
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6 and k + 2 in set(kinds.tolist()):
                h[k : k + 3] += 1
            else:
                h[k] += 3
        h[int(rng.choice(kinds))] += 2
        if h.max() > 4:
            continue
        held = np.flatnonzero(h)
        h[int(rng.choice(held))] -= 1
        h = h.astype(np.uint8)
        if mj.shanten(h, ruleset=ruleset) == 0:
            out.append(h)
    del pool
    return np.array(out, np.uint8)


def rate(fn: Callable[[], object], calls: int, repeat: int = 5) -> float:
    """Calls per second of `fn` (min over `repeat` runs of `calls` calls)."""
    best = min(timeit.repeat(fn, number=calls, repeat=repeat))
    return calls / best


def rate_over(fn: Callable[[object], object], items: Sequence[object], repeat: int = 5) -> float:
    """Calls per second of fn(item) over a list of items (min over `repeat` passes)."""

    def one_pass() -> None:
        for x in items:
            fn(x)

    best = min(timeit.repeat(one_pass, number=1, repeat=repeat))
    return len(items) / best


def batch_rate(fn: Callable[[], object], rows: int, repeat: int = 5) -> float:
    """Hands per second of a batch call over `rows` hands."""
    best = min(timeit.repeat(fn, number=1, repeat=repeat))
    return rows / best
