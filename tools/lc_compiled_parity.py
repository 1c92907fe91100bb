"""A large parity run of the compiled long-card engine against the reference (the tests play a few
dozen hands; this plays thousands): whole hands with RuleBot and RandomBot for every option set of
tests/longcard/test_lc_compiled_parity.py, comparing results, events and action logs.

    PYTHONPATH=python python tools/lc_compiled_parity.py [--hands N]

Prints one line per option set and bot: hands, mismatches, ends.  Exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from mahjong_core.families.longcard.round_bots import RandomBot, RuleBot, play_hand
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.families.longcard._ref.round import Round

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "longcard"))
from test_lc_compiled_parity import IDS, OPTIONS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=200, help="hands per option set and bot")
    args = ap.parse_args(argv)
    bad_total = 0
    for options, name in zip(OPTIONS, IDS):
        for kind in ("rule", "random"):
            bad, ends = 0, Counter()
            for seed in range(args.hands):
                seeds = [seed * 3 + k for k in range(3)]
                r = Round(seed, options=options)
                bots = [RuleBot(r.settings) if kind == "rule" else RandomBot(x) for x in seeds]
                ref = play_hand(r, bots)
                core = new_core(seed, options=options)
                mine = core.play((kind,) * 3, [np.random.default_rng(x) for x in seeds])
                if mine != ref or core.events() != r.events or core.log != r.log:
                    bad += 1
                ends[ref["end"]] += 1
            bad_total += bad
            print(f"{name[:60]:60}  {kind:6}  {args.hands} hands  {bad} mismatches  {dict(ends)}", flush=True)
    return 1 if bad_total else 0


if __name__ == "__main__":
    sys.exit(main())
