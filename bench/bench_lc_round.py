"""Long-card (changpai-ydr) hands of play per second: RandomBot and RuleBot over the same seeds, one run,
with the compiled counting backend (``impl="compiled"``, the default) and the pure-Python reference.

    python bench/bench_lc_round.py [--hands N] [--profile]

Hand i plays seed ``SEED + i`` (random first banker); RandomBot of seat s gets seed ``BOT_SEED + s + 3 i``.
A timed hand includes building the :class:`Round` from its seed and reading its result.  The reference
plays the first N/10 seeds; ``ratio`` = compiled hands/s / reference hands/s over those same seeds
(equal hands: the lockstep test holds the two backends event for event).  ``--profile`` runs
cProfile over the compiled RuleBot hands instead and prints the costliest functions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time

from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard.round_ref import Round

SEED = 18
BOT_SEED = 1000


def play(n: int, kind: str, impl: str = "compiled") -> list[dict]:
    out = []
    for i in range(n):
        r = Round(SEED + i, impl=impl)
        bots = ([RuleBot(r.settings, impl=impl) for _ in range(3)] if kind == "rule"
                else [RandomBot(BOT_SEED + s + 3 * i) for s in range(3)])
        out.append(play_hand(r, bots))
    return out


def rate(n: int, kind: str, impl: str = "compiled") -> tuple[float, list[dict]]:
    t = time.perf_counter()
    res = play(n, kind, impl)
    return n / (time.perf_counter() - t), res


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play(args.hands, "rule")
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return {}
    n_ref = max(1, args.hands // 10)
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"{args.hands} hands per compiled row, {n_ref} per reference row, load {os.getloadavg()[0]:.1f}")
    print(f"{'bots':>8}  {'compiled':>10}  {'reference':>10}  {'ratio':>7}  same")
    out = {}
    for kind in ("random", "rule"):
        hz, res = rate(args.hands, kind)
        hz_first, _ = rate(n_ref, kind)
        hz_ref, res_ref = rate(n_ref, kind, "reference")
        out[kind] = {"compiled": hz, "reference": hz_ref, "ratio": hz_first / hz_ref}
        same = sum(a == b for a, b in zip(res, res_ref))
        print(f"{kind:>8}  {hz:10.1f}  {hz_ref:10.1f}  {hz_first / hz_ref:6.1f}x  {same}/{n_ref}")
    return out


if __name__ == "__main__":
    main()
