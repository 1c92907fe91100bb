"""Long-card (changpai-ydr) hands per second through ``mj.simulate`` (in-process, one batch), per bot
line-up, and the share the simulation machinery adds over the bare hand loop of bench_lc_round.py.

    python bench/bench_lc_simulate.py [--hands N]

``simulate`` plays one match of N hands (the banker rules, 3.14) on the compiled engine (its default)
and adds each hand's result to the statistics; ``bare`` plays N independent hands on the compiled
engine with :func:`.round_engine.play_hand` (no match, no statistics).  ``ratio`` = simulate hands/s /
bare hands/s of the same bots, measured in this one run (CPU time of this process).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from bench_lc_round import cpu_rate, play_engine

import mahjong_core as mj

LINEUPS = {"greedy": ("greedy",) * 3, "random": ("random",) * 3, "greedy,random,random": ("greedy", "random", "random")}
BARE = {"greedy": "rule", "random": "random"}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args(argv)
    n = args.hands
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"{n} hands per row, load {os.getloadavg()[0]:.1f}")
    print(f"{'bots':>22}  {'simulate/s':>10}  {'bare/s':>8}  {'ratio':>6}  wins  黄庄  void  包子")
    out = {}
    for label, bots in LINEUPS.items():
        t = time.process_time()
        r = mj.simulate(ruleset="changpai-ydr", n=n, seed=1, bots=bots, batch_size=n)
        hz = n / (time.process_time() - t)
        bare = cpu_rate(play_engine, n, BARE[label])[0] if label in BARE else None
        out[label] = {"simulate": hz, "bare": bare}
        cols = f"{bare:8.1f}  {hz / bare:5.2f}x" if bare else f"{'-':>8}  {'-':>6}"   # no bare loop of mixed bots
        print(f"{label:>22}  {hz:10.1f}  {cols}  {r.wins:4d}  "
              f"{r.by_end[3]:4d}  {r.by_end[2]:4d}  {r.baozi:4d}")
    return out


if __name__ == "__main__":
    main()
