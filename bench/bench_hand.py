"""Win check, waits and shanten: calls/s of mahjong-core against the pure-Python
reference and the peer packages that are installed, as ratios from one run.

    python bench/bench_hand.py [--quick]

Per-call figures use pre-built inputs for everyone (our count arrays or Hand
objects, each peer's native input from bench/peers.py), cycling over the same
fixed-seed hands.  Batch figures are single-threaded numpy calls.
"""

from __future__ import annotations

import argparse
import platform


from common import batch_rate, random_hands, rate_over, ready_hands

import mahjong_core as mj
from mahjong_core.families.mahjong._ref import hand as ref

try:
    from peers import available_peers
except Exception:  # pragma: no cover - peers are optional
    available_peers = lambda: []  # noqa: E731


def _row(table, what, name, value, base):
    table.append((what, name, value, value / base if base else float("nan")))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer hands (smoke run)")
    args = ap.parse_args(argv)
    n_single = 2000 if args.quick else 20000
    n_batch = 200_000 if args.quick else 2_000_000
    n_ref = 100 if args.quick else 400

    wins = random_hands(n_single, 14)
    # a set with many complete hands too: ready hands plus one of their waits
    ready = ready_hands(n_single // 10)
    for i, h in enumerate(ready):
        w = mj.waits(h)
        c = h.copy()
        c[w[0]] += 1
        wins[i] = c
    h13 = random_hands(n_single, 13)
    h13[: len(ready)] = ready
    arrays14 = list(wins)
    arrays13 = list(h13)
    hands14 = [mj.Hand(h) for h in wins]
    hands13 = [mj.Hand(h) for h in h13]

    table: list = []
    # --- win check
    ours_arr = rate_over(mj.is_win, arrays14)
    ours_hand = rate_over(lambda h: h.is_win(), hands14)
    ref_rate = rate_over(lambda h: ref.is_win(h, "two-player"), arrays14[:n_ref], repeat=3)
    base = ours_arr
    _row(table, "is_win per call", "mahjong_core.is_win(array)", ours_arr, base)
    _row(table, "is_win per call", "mahjong_core.Hand.is_win()", ours_hand, base)
    _row(table, "is_win per call", "reference (pure Python)", ref_rate, base)
    peers = available_peers()
    for p in peers:
        prepped = [p.prepare(h) for h in arrays14]
        _row(table, "is_win per call", f"{p.name} {p.version} is_win", rate_over(p.is_win, prepped), base)
        if p.name == "riichienv":
            _row(table, "is_win per call", "riichienv calculate_shanten (14 tiles)", rate_over(p.shanten, prepped), base)
    # --- shanten
    ours_arr = rate_over(mj.shanten, arrays13)
    base = ours_arr
    _row(table, "shanten per call", "mahjong_core.shanten(array)", ours_arr, base)
    _row(table, "shanten per call", "mahjong_core.Hand.shanten()", rate_over(lambda h: h.shanten(), hands13), base)
    _row(table, "shanten per call", "reference (pure Python)",
         rate_over(lambda h: ref.shanten(h, "two-player"), arrays13[:n_ref], repeat=3), base)
    for p in peers:
        prepped = [p.prepare(h) for h in arrays13]
        _row(table, "shanten per call", f"{p.name} {p.version} shanten", rate_over(p.shanten, prepped), base)
    # --- waits (ready hands, where waits are non-empty)
    ready13 = list(ready)
    ours_arr = rate_over(mj.waits, ready13)
    base = ours_arr
    _row(table, "waits per call (ready hands)", "mahjong_core.waits(array)", ours_arr, base)
    _row(table, "waits per call (ready hands)", "mahjong_core.Hand.waits()",
         rate_over(lambda h: h.waits(), [mj.Hand(h) for h in ready13]), base)
    _row(table, "waits per call (ready hands)", "reference (pure Python)",
         rate_over(lambda h: ref.waits(h, "two-player"), ready13[:n_ref], repeat=3), base)
    for p in peers:
        if p.waits is None:
            continue
        prepped = [p.prepare(h) for h in ready13]
        label = "calculate_necessary_tiles" if p.name == "xiangting" else "waits"
        _row(table, "waits per call (ready hands)", f"{p.name} {p.version} {label}", rate_over(p.waits, prepped), base)
    # --- batch
    for ruleset in ("two-player", "public"):
        b14 = random_hands(n_batch, 14, ruleset)
        b13 = random_hands(n_batch, 13, ruleset)
        w = batch_rate(lambda: mj.is_win_batch(b14, ruleset=ruleset), n_batch)
        _row(table, f"batch ({ruleset})", "is_win_batch hands/s", w, w)
        _row(table, f"batch ({ruleset})", "waits_batch hands/s", batch_rate(lambda: mj.waits_batch(b13, ruleset=ruleset), n_batch), w)
        _row(table, f"batch ({ruleset})", "shanten_batch hands/s", batch_rate(lambda: mj.shanten_batch(b13, ruleset=ruleset), n_batch), w)

    print(f"mahjong-core {mj.__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"{'measure':<32} {'implementation':<46} {'calls/s':>14} {'ratio':>9}")
    last = None
    for what, name, value, ratio in table:
        if what != last:
            print("-" * 104)
            last = what
        print(f"{what:<32} {name:<46} {value:>14,.0f} {ratio:>9.3f}")
    print("ratio = rate / the first row of its group (higher is faster); one run, same hands for all")
    return {f"{w} | {n}": v for w, n, v, _ in table}


if __name__ == "__main__":
    main()
