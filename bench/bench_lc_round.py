"""Long-card (changpai-ydr) hands of play per second on one core: RandomBot and RuleBot (greedy) over the
same seeds, one run, three implementations:

* ``engine``: the compiled hand engine ``_lc_round`` with its bots in C (:func:`.round_engine.play_hand`,
  what ``mj.simulate`` plays);
* ``reference``: the pure-Python hand engine :mod:`._ref.round` with :mod:`.round_bots`, on the compiled
  counting backend (``impl="compiled"``, its default);
* ``ref-counting``: the same on the pure-Python counting (``impl="reference"``, the oracle).

    python bench/bench_lc_round.py [--hands N] [--profile]

Hand i plays seed ``SEED + i`` (random first banker); RandomBot of seat s gets seed ``BOT_SEED + s + 3 i``.
A timed hand includes building the hand from its seed and reading its result.  Rates are hands per
second of this process's CPU time (``time.process_time``: one core, whatever else the machine runs).
The reference rows play the first N/10 seeds; each ``ratio`` compares the engine's rate over those same
seeds with the row's (equal hands: the parity tests hold the three event for event; ``same`` counts
equal results).  The issue target (13, item 5) is engine greedy >= 5 000 hands/s.  ``--profile`` runs
cProfile over the reference RuleBot hands instead and prints the costliest functions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time

from mahjong_core.families.longcard import round_engine
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard._ref.round import Round

SEED = 18
BOT_SEED = 1000
TARGET = 5_000     # issue 13 item 5: compiled greedy three-player hands/s on one core


def play(n: int, kind: str, impl: str = "compiled") -> list[dict]:
    out = []
    for i in range(n):
        r = Round(SEED + i, impl=impl)
        bots = ([RuleBot(r.settings, impl=impl) for _ in range(3)] if kind == "rule"
                else [RandomBot(BOT_SEED + s + 3 * i) for s in range(3)])
        out.append(play_hand(r, bots))
    return out


def play_engine(n: int, kind: str) -> list[dict]:
    return [round_engine.play_hand(SEED + i, bots=kind, bot_seeds=[BOT_SEED + s + 3 * i for s in range(3)])
            for i in range(n)]


def rate(n: int, kind: str, impl: str = "compiled") -> tuple[float, list[dict]]:
    """Hands/s of the reference engine (``impl``: its counting backend), wall clock."""
    t = time.perf_counter()
    res = play(n, kind, impl)
    return n / (time.perf_counter() - t), res


def cpu_rate(fn, n: int, kind: str, *more) -> tuple[float, list[dict]]:
    """Hands/s of ``fn(n, kind, *more)`` in CPU time, the best of two passes."""
    best, res = 0.0, []
    for _ in range(2):
        t = time.process_time()
        res = fn(n, kind, *more)
        best = max(best, n / max(time.process_time() - t, 1e-9))
    return best, res


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1000)
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
          f"{args.hands} hands per engine row, {n_ref} per reference row, load {os.getloadavg()[0]:.1f}; "
          "hands/s of CPU time")
    print(f"{'bots':>8}  {'engine':>9}  {'reference':>9}  {'ratio':>7}  {'ref-counting':>12}  {'ratio':>7}  same")
    out = {}
    for kind in ("random", "rule"):
        play_engine(20, kind)                                  # warm-up (imports, caches)
        hz, res = cpu_rate(play_engine, args.hands, kind)
        hz_first, _ = cpu_rate(play_engine, n_ref, kind)
        hz_ref, res_ref = cpu_rate(play, n_ref, kind, "compiled")
        hz_oracle, res_oracle = cpu_rate(play, n_ref, kind, "reference")
        same = sum(a == b == c for a, b, c in zip(res, res_ref, res_oracle))
        out[kind] = {"engine": hz, "reference": hz_ref, "ratio": hz_first / hz_ref, "ref_counting": hz_oracle,
                     "ratio_ref_counting": hz_first / hz_oracle, "same": same}
        print(f"{kind:>8}  {hz:9.0f}  {hz_ref:9.1f}  {hz_first / hz_ref:6.1f}x  {hz_oracle:12.1f}  "
              f"{hz_first / hz_oracle:6.0f}x  {same}/{n_ref}")
    print(f"# target: engine greedy (rule) >= {TARGET:,} hands/s: "
          f"{'met' if out['rule']['engine'] >= TARGET else 'NOT met'} ({out['rule']['engine']:,.0f})")
    return out


if __name__ == "__main__":
    main()
