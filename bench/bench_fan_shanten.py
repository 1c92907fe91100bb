"""Fan-aware shanten and the advisor: calls/s of the fast search and of the brute-force reference
on the same seeded hands, their ratio, and advisor calls/s on random hands.  One run.

    python bench/bench_fan_shanten.py [--hands N] [--seed S]

Hands for the ratio are a complete hand minus one tile with 0-2 tiles replaced (the reference
is only practical there): ``two-player`` with the reference limited to 3 drawn tiles, ``public``
to 2.  The fast version runs without the target breakdown (the reference computes none); both
give the same values (tests/advisor).  Advisor hands are 14 random tiles of the ruleset's wall;
``advise/s`` is the compiled search (``mahjong_core._advise``; ``/CPU-s``: per second of the
process's CPU time), ``python/s`` the same advice by the pure-Python search it replaced
(``compiled=False``: the previous implementation, with today's targets) on the first ``--python-hands`` of them, ``identical`` how many results compare equal,
``fan_shanten/s`` the 13-tile fan-aware shanten with its breakdown.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from mahjong_core.families.mahjong.advise import advise_problem
from mahjong_core.families.mahjong.fan_shanten import (
    DEFAULT_MAX_DRAWS,
    all_groups,
    prepare,
)
from mahjong_core.families.mahjong._ref.fan_shanten import fan_shanten_ref

import mahjong_core as mj


def near_complete(rng: random.Random, ruleset: str) -> np.ndarray:
    kinds = mj.get_ruleset(ruleset).kinds
    groups = all_groups(kinds)
    while True:
        c = [0] * 34
        for g in rng.choices(groups, k=4):
            for t in g:
                c[t] += 1
        c[rng.choice(kinds)] += 2
        if max(c) > 4:
            continue
        tiles = [t for t in range(34) for _ in range(c[t])]
        rng.shuffle(tiles)
        tiles.pop()
        for _ in range(rng.randrange(3)):
            tiles.pop(rng.randrange(len(tiles)))
            tiles.append(rng.choice([t for t in kinds if tiles.count(t) < 4]))
        return np.bincount(tiles, minlength=34).astype(np.uint8)


def rate(fn, items) -> tuple[float, list]:
    r, _, out = rates(fn, items)
    return r, out


def rates(fn, items) -> tuple[float, float, list]:
    """Calls per second of wall time and per second of this process's CPU time (on a shared
    machine the second is the steadier figure)."""
    t, c = time.perf_counter(), time.process_time()
    out = [fn(x) for x in items]
    return len(items) / (time.perf_counter() - t), len(items) / max(time.process_time() - c, 1e-9), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--python-hands", type=int, default=20,
                    help="advisor hands also run through the pure-Python search (the first N)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"{'ruleset':<12} {'hands':>5} {'fast/s':>8} {'ref/s':>8} {'ratio':>7}  agree")
    for ruleset, limit in (("two-player", 3), ("public", 2)):
        hands = [near_complete(rng, ruleset) for _ in range(args.hands)]
        fast_rate, fast = rate(lambda h, rs=ruleset: mj.fan_shanten(h, ruleset=rs, breakdown=False), hands)
        ref_rate, ref = rate(lambda h, rs=ruleset, n=limit: fan_shanten_ref(h, ruleset=rs, max_draws=n), hands)
        agree = sum((f.shanten == r) if r is not None else f.shanten >= limit for f, r in zip(fast, ref))
        print(f"{ruleset:<12} {len(hands):>5} {fast_rate:>8.1f} {ref_rate:>8.1f} {fast_rate / ref_rate:>6.1f}x  "
              f"{agree}/{len(hands)}")
    print()
    print(f"{'ruleset':<12} {'hands':>5} {'advise/s':>9} {'/CPU-s':>7} {'python/s':>9} {'ratio':>7} "
          f"{'identical':>10} {'fan_shanten/s':>14}")
    for ruleset in ("two-player", "public"):
        kinds = mj.get_ruleset(ruleset).kinds
        wall = [t for t in kinds for _ in range(4)]
        hands = [np.bincount(rng.sample(wall, 14), minlength=34).astype(np.uint8) for _ in range(args.hands)]
        r, cpu, fast = rates(lambda h, rs=ruleset: mj.advise(h, ruleset=rs), hands)
        some = hands[:args.python_hands]
        probs = [prepare(h, ruleset=ruleset, tiles=14) for h in some]
        p, slow = rate(lambda q: advise_problem(q, DEFAULT_MAX_DRAWS, compiled=False), probs)
        same = sum(a == b for a, b in zip(fast, slow))
        b, _ = rate(lambda h, rs=ruleset: mj.fan_shanten(_drop(h), ruleset=rs), hands)
        print(f"{ruleset:<12} {len(hands):>5} {r:>9.1f} {cpu:>7.1f} {p:>9.1f} {r / p:>6.1f}x "
              f"{same:>5}/{len(some):<4} {b:>14.1f}")


def _drop(h: np.ndarray) -> np.ndarray:
    """The hand without its first tile (13 tiles for fan_shanten)."""
    out = h.copy()
    out[int(np.flatnonzero(out)[0])] -= 1
    return out


if __name__ == "__main__":
    main()
