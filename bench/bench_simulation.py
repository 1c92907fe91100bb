"""Simulation throughput: rounds/s with 1 and 2 worker processes, and the scaling ratio,
measured in one run on the same seeds.

    python bench/bench_simulation.py [--rounds N] [--ruleset two-player] [--bots greedy,greedy]
"""

from __future__ import annotations

import argparse
import os
import time

import mahjong_core as mj


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100_000)
    ap.add_argument("--ruleset", default="two-player")
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--batch-size", type=int, default=1000)
    args = ap.parse_args(argv)
    bots = tuple(args.bots.split(","))
    rates = {}
    results = {}
    for workers in (1, 2):
        t = time.perf_counter()
        results[workers] = mj.simulate(args.ruleset, args.rounds, bots, seed=1, workers=workers,
                                       batch_size=args.batch_size)
        rates[workers] = args.rounds / (time.perf_counter() - t)
    # the same statistics: only the provenance's "workers" (what was asked for) may differ
    same = [{**r.to_dict(), "provenance": {**r.provenance, "workers": None}} for r in (results[1], results[2])]
    same = same[0] == same[1]
    print(f"{args.rounds:,} {args.ruleset} rounds, bots {','.join(bots)}, batch {args.batch_size}, "
          f"{os.cpu_count()} cores")
    print(f"  1 worker : {rates[1]:>10,.0f} rounds/s")
    print(f"  2 workers: {rates[2]:>10,.0f} rounds/s")
    print(f"  scaling 1 -> 2 workers: {rates[2] / rates[1]:.2f}x; identical results: {same}")
    return {"rate_1": rates[1], "rate_2": rates[2], "scaling": rates[2] / rates[1], "identical": same}


if __name__ == "__main__":
    main()
