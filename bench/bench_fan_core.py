"""Quick timing of the compiled fan evaluator alone (``mahjong_core._fan``).

Builds a fixed-seed set of random *public* winning hands (standard form with
0-4 declared groups, seven pairs, and the special forms), then reports, on the
same hands:

* ``_fan.evaluate`` per call (NumPy inputs prepared beforehand),
* ``_fan.evaluate_batch`` hands/s (single thread),
* PyMahjongGB's ``MahjongFanCalculator`` per call (if installed), with the same
  tiles, melds, win tile, self-draw flag and winds,
* the pure-Python reference on a small sample (for scale).

Min of N ``timeit``-style runs.  Run: ``PYTHONPATH=python python bench/bench_fan_core.py``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from mahjong_core import _fan
from mahjong_core.families.mahjong._ref import fan as fan_py

PUBLIC = 2
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _standard(rnd: random.Random):
    """4 random groups + a pair (no fifth copy); returns (groups, pair, counts)."""
    while True:
        cnt = [0] * 34
        groups = []
        suit_bias = rnd.random() < 0.4
        s0 = rnd.randrange(3)
        for _ in range(4):
            for _try in range(50):
                if rnd.random() < 0.55:
                    s = s0 if suit_bias else rnd.randrange(3)
                    k = 9 * s + rnd.randrange(7)
                    if all(cnt[k + d] < 4 for d in range(3)):
                        for d in range(3):
                            cnt[k + d] += 1
                        groups.append(("chow", k))
                        break
                else:
                    k = rnd.randrange(34)
                    if cnt[k] <= 1:
                        cnt[k] += 3
                        groups.append(("pung", k))
                        break
        if len(groups) < 4:
            continue
        pairs = [k for k in range(34) if cnt[k] <= 2]
        p = rnd.choice(pairs)
        cnt[p] += 2
        return groups, p, cnt


def make_hand(rnd: random.Random):
    """One public winning hand: (counts13 uint8[34], win, melds [(type, first)], self_drawn, seat, round)."""
    r = rnd.random()
    melds = []
    if r < 0.03:
        cnt = [0] * 34
        for k in ORPHANS:
            cnt[k] += 1
        cnt[rnd.choice(ORPHANS)] += 1
    elif r < 0.15:
        cnt = [0] * 34
        n = 0
        while n < 7:
            k = rnd.randrange(34)
            if cnt[k] <= 2:
                cnt[k] += 2
                n += 1
    else:
        groups, _p, cnt = _standard(rnd)
        n_melds = rnd.choice((0, 1, 1, 2, 2, 3, 4))
        full = list(cnt)
        for shape, k in groups[:n_melds]:
            if shape == "chow":
                melds.append((_fan.MELD_CHI, k))
                for d in range(3):
                    cnt[k + d] -= 1
            else:
                total = full[k]
                melds.append((rnd.choice((_fan.MELD_PON, _fan.MELD_PON, _fan.MELD_KONG, _fan.MELD_CKONG))
                              if total == 3 else _fan.MELD_PON, k))
                cnt[k] -= 3
                if melds[-1][0] != _fan.MELD_PON:
                    full[k] += 1
    tiles = [k for k in range(34) for _ in range(cnt[k])]
    win = rnd.choice(tiles)
    cnt[win] -= 1
    return (np.array(cnt, dtype=np.uint8), win, melds, rnd.random() < 0.5,
            rnd.randint(27, 30), rnd.randint(27, 30))


def make_hands(n: int, seed: int = 18):
    rnd = random.Random(seed)
    return [make_hand(rnd) for _ in range(n)]


def compiled_args(h):
    counts, win, melds, self_drawn, seat, rnd_wind = h
    m = np.array(melds, dtype=np.uint8).reshape(-1, 2)
    flags = _fan.FLAG_SELF_DRAWN if self_drawn else 0
    return (PUBLIC, counts, win, m, flags, 0, seat, rnd_wind, 8, 0)


_GB_CODES = tuple([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
                  + [f"T{i}" for i in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])


def gb_args(h):
    counts, win, melds, self_drawn, seat, rnd_wind = h
    packs = []
    for kind, first in melds:
        if kind == _fan.MELD_CHI:
            packs.append(("CHI", _GB_CODES[first + 1], 1))
        elif kind == _fan.MELD_PON:
            packs.append(("PENG", _GB_CODES[first], 1))
        else:
            packs.append(("GANG", _GB_CODES[first], 0 if kind == _fan.MELD_CKONG else 1))
    hand = tuple(_GB_CODES[k] for k in range(34) for _ in range(int(counts[k])))
    return (tuple(packs), hand, _GB_CODES[win], 0, bool(self_drawn), False, False, False,
            seat - 27, rnd_wind - 27)


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20000, help="number of hands")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    hands = make_hands(args.n)
    cargs = [compiled_args(h) for h in hands]
    out = np.zeros(_fan.fan_count(PUBLIC), dtype=np.uint16)
    ev = _fan.evaluate

    def scalar():
        for a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 in cargs:
            ev(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, out)

    n = len(hands)
    conc = np.stack([a[1] for a in cargs])
    wins = np.array([a[2] for a in cargs], dtype=np.int16)
    melds = np.full((n, 4, 2), _fan.MELD_NONE, dtype=np.uint8)
    for i, a in enumerate(cargs):
        melds[i, : len(a[3])] = a[3]
    flags = np.array([a[4] for a in cargs], dtype=np.uint32)
    flowers = np.zeros(n, dtype=np.uint32)
    seats = np.array([a[6] for a in cargs], dtype=np.uint8)
    rounds = np.array([a[7] for a in cargs], dtype=np.uint8)

    def batch():
        _fan.evaluate_batch(PUBLIC, conc, wins, melds, flags, flowers, seats, rounds, 8, 0)

    t_scalar = best_of(scalar, args.repeat) / n
    t_batch = best_of(batch, args.repeat) / n
    print(f"hands: {n} public winning hands (seed 18)")
    print(f"_fan.evaluate        {t_scalar * 1e9:8.0f} ns/call  {1 / t_scalar:12,.0f} calls/s")
    print(f"_fan.evaluate_batch  {t_batch * 1e9:8.0f} ns/hand  {1 / t_batch:12,.0f} hands/s")
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        print("PyMahjongGB not installed")
    else:
        gargs = []
        for h in hands:
            g = gb_args(h)
            try:
                MahjongFanCalculator(*g)
            except TypeError:
                continue     # a hand PyMahjongGB rejects (its rules differ); skipped for both
            gargs.append(g)

        def gb():
            for g in gargs:
                MahjongFanCalculator(*g)

        t_gb = best_of(gb, max(1, args.repeat // 2)) / len(gargs)
        print(f"PyMahjongGB          {t_gb * 1e9:8.0f} ns/call  {1 / t_gb:12,.0f} calls/s"
              f"   ({len(gargs)} of the hands accepted)")
        print(f"ratio scalar: {t_gb / t_scalar:.1f}x   batch: {t_gb / t_batch:.1f}x")
    sample = cargs[:500]
    ref_out = np.zeros_like(out)
    t = time.perf_counter()
    for a in sample:
        fan_py.evaluate_codes(*a, ref_out)
    t_ref = (time.perf_counter() - t) / len(sample)
    print(f"reference (python)   {t_ref * 1e9:8.0f} ns/call  {1 / t_ref:12,.0f} calls/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
