"""A fixed-seed workload of the compiled vector loop (``RoundBatch.step_deal``, as in
``bench/bench_rl.py``'s step_deal column): for measuring the round engine by instruction counts,
which the load of a shared machine does not move, and for checking that an engine change leaves
every output as it was (the digest of every observation, mask, actor and done array).

    PYTHONPATH=python python tools/step_deal_workload.py public [--calls 40] [--batch 256]
    PYTHONPATH=python valgrind --tool=callgrind --toggle-collect='*step_deal*' \\
        python tools/step_deal_workload.py public --calls 40

Prints the ruleset, the SHA-1 of the outputs and the steps/s of the timed calls (the random
policy, the same as bench_rl's, is outside both the timing and the collected instructions when
callgrind's collection is toggled on ``step_deal`` as above: "Collected" is then the engine's).
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np
from mahjong_core.rl import VectorRounds, mahjong_rulesets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", choices=mahjong_rulesets())
    ap.add_argument("--calls", type=int, default=40, help="step_deal calls (default 40)")
    ap.add_argument("--batch", type=int, default=256, help="rounds stepped together (default 256)")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    vec = VectorRounds(args.ruleset, args.batch, seed=1, copy=False)
    _, mask, _ = vec.reset()
    batch = vec._live_batch()
    bits = np.random.PCG64(1)
    digest = hashlib.sha1()
    dt = 0.0
    for _ in range(args.calls):
        # bench_rl's policy: the legal entry with the largest random byte
        noise = np.frombuffer(rng.bytes(mask.size), dtype=np.uint8).reshape(mask.shape) | 1
        actions = (noise * mask.view(np.uint8)).argmax(axis=1)
        t = time.perf_counter()
        obs, mask, actor, done, _ = batch.step_deal(actions, bits)
        dt += time.perf_counter() - t
        for a in (obs, mask, actor, done):
            digest.update(a.tobytes())
    print(args.ruleset, digest.hexdigest(), f"{args.calls * args.batch / dt:,.0f} steps/s")


if __name__ == "__main__":
    main()
