"""Long-card (changpai-ydr) hands of play per second: RandomBot and RuleBot over the same seeds, one run.

    python bench/bench_lc_round.py [--hands N] [--profile]

Hand i plays seed ``SEED + i`` (random first banker); RandomBot of seat s gets seed ``BOT_SEED + s + 3 i``.
A timed hand includes building the :class:`Round` from its seed and reading its result.  ``--profile``
runs cProfile over the RuleBot hands instead and prints the 25 costliest functions (cumulative).
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time

from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard.round_ref import Round

SEED = 18
BOT_SEED = 1000


def play(n: int, kind: str, **round_kw) -> list[dict]:
    out = []
    for i in range(n):
        r = Round(SEED + i, **round_kw)
        bots = ([RuleBot(r.settings) for _ in range(3)] if kind == "rule"
                else [RandomBot(BOT_SEED + s + 3 * i) for s in range(3)])
        out.append(play_hand(r, bots))
    return out


def rate(n: int, kind: str, **round_kw) -> tuple[float, list[dict]]:
    t = time.perf_counter()
    res = play(n, kind, **round_kw)
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
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"{args.hands} hands per row")
    out = {}
    for kind in ("random", "rule"):
        hz, _ = rate(args.hands, kind)
        out[kind] = hz
        print(f"{kind:>8} bots  {hz:10.1f} hands/s")
    return out


if __name__ == "__main__":
    main()
