"""``score_batch`` on bench_mcr's hand sets: the SHA-1 of its output, and a loop to count under
``perf stat`` or callgrind (issue 29, item 3: a one-thread rate of 2 M hands/s).

    PYTHONPATH=python python tools/mcr_batch_workload.py [--ruleset mcr] [--hands 5000] [--sets plain ...]
    PYTHONPATH=python valgrind --tool=callgrind --branch-sim=yes \
        --toggle-collect=__pyx_pw_12mahjong_core_4_fan_10_BatchRows_1run \
        python tools/mcr_batch_workload.py --sets plain --hands 1000 --loops 2

The first prints each set's digest: the SHA-1 of the totals, the non-flower totals and the fan
count matrix of one ``score_batch`` call (one thread) on the set, so a change to the kernel can be
checked for byte-identical results against the build before it (``--expect FILE`` compares with
the digests a previous run wrote with ``--write FILE``; ``tests/fan/test_batch_digest.py`` holds
main's).  ``--loops N`` then calls ``score_batch`` N more times on each set, on one thread.  Under callgrind
(the second command), collecting only inside the batch's row loop, the instructions and simulated
mispredicted branches divided by (N + 1) times the hands are a hand's (the hands' preparation, which
scores each once through ``mj.score``, is not collected).  ``perf stat -e cycles,branch-misses`` on
the same loop needs hardware counters (a virtual machine may not show them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bench"))

SETS = ("plain", "melds3", "melds4", "kongs", "flowers")


def batch_inputs(category: str, ruleset: str, n: int) -> tuple[Any, ...]:
    """bench_mcr's arrays of the set (seeded: the same hands every run)."""
    import bench_mcr
    arrays: tuple[Any, ...] = bench_mcr.batch_arrays(bench_mcr.winning_hands(n, category, ruleset))
    return arrays


def digest(arrays: tuple[Any, ...], ruleset: str) -> str:
    """SHA-1 (first 16 hex digits) of one score_batch call's three outputs on the set's arrays."""
    import mahjong_core as mj
    counts, wins, melds, flags, flowers = arrays
    totals, non_flower, fans = mj.score_batch(counts, wins, ruleset=ruleset, melds=melds, flags=flags,
                                              flowers=flowers, threads=1)
    h = hashlib.sha1()
    for a in (totals, non_flower, fans):
        h.update(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> dict[str, str]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="mcr")
    ap.add_argument("--hands", type=int, default=5000, help="hands a set (default 5000, as bench_mcr)")
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    ap.add_argument("--loops", type=int, default=0, help="score_batch calls a set after the digest")
    ap.add_argument("--write", metavar="FILE", help="write the digests as JSON")
    ap.add_argument("--expect", metavar="FILE", help="exit 1 unless the digests equal FILE's")
    args = ap.parse_args(argv)
    import mahjong_core as mj
    found = {}
    prepared = {}
    for category in args.sets:
        prepared[category] = batch_inputs(category, args.ruleset, args.hands)
        found[category] = digest(prepared[category], args.ruleset)
        print(f"{category:<8} {args.hands} hands, score_batch sha1 {found[category]}", flush=True)
    for category in args.sets:
        counts, wins, melds, flags, flowers = prepared[category]
        for _ in range(args.loops):
            mj.score_batch(counts, wins, ruleset=args.ruleset, melds=melds, flags=flags, flowers=flowers, threads=1)
    if args.write:
        Path(args.write).write_text(json.dumps(found, indent=1) + "\n")
    if args.expect:
        want = json.loads(Path(args.expect).read_text())
        bad = [c for c in found if want.get(c) != found[c]]
        if bad:
            print(f"digests differ from {args.expect}: {', '.join(bad)}")
            raise SystemExit(1)
        print(f"digests equal {args.expect}'s")
    return found


if __name__ == "__main__":
    main()
