"""Memory: table sizes, resident memory after import, and resident memory over
10 million calls (it must stay flat), plus a check that batch calls allocate no
per-hand Python objects.

    python bench/bench_memory.py [--calls N]
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tracemalloc



def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=10_000_000)
    args = ap.parse_args(argv)

    before = rss_mb()
    import mahjong_core as mj
    from mahjong_core import _hand

    after_import = rss_mb()
    info = _hand.table_info()
    print(f"tables: {info['total_bytes'] / 2**20:.2f} MiB in all ({info})")
    print(f"resident: {before:.1f} MiB before import, {after_import:.1f} MiB after (+{after_import - before:.1f})")

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from common import random_hands

    hands = random_hands(1000, 13)
    hand_objs = [mj.Hand(h) for h in hands]
    chunk = args.calls // 10
    samples = []
    done = 0
    for step in range(10):
        for i in range(chunk):
            h = hands[i % 1000]
            mj.shanten(h)
        done += chunk
        gc.collect()
        samples.append(rss_mb())
        print(f"  after {done:>11,} shanten calls: {samples[-1]:.2f} MiB resident")
    growth = samples[-1] - samples[0]
    print(f"growth from the first to the last sample: {growth:+.2f} MiB")

    big = random_hands(200_000, 13)
    mj.shanten_batch(big[:10])  # warm up any one-time allocations
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    out = mj.shanten_batch(big)
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    diff = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    print(f"shanten_batch over {len(big):,} hands: {diff / 1024:.1f} KiB of Python allocations "
          f"(the result array itself is {out.nbytes / 1024:.1f} KiB)")
    del hand_objs
    return {"tables_mib": info["total_bytes"] / 2**20, "rss_growth_mib": growth, "batch_alloc_bytes": diff}


if __name__ == "__main__":
    main()
