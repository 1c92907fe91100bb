"""A fixed-seed workload of the compiled vector loop (``RoundBatch.step_deal``, as in
``bench/bench_rl.py``'s step_deal column): for measuring the round engine by instruction counts,
which the load of a shared machine does not move, and for checking that an engine change leaves
every output as it was (the digest of every observation, mask, actor and done array).

    PYTHONPATH=python python tools/step_deal_workload.py public [--calls 40] [--batch 256]
    PYTHONPATH=python valgrind --tool=callgrind --toggle-collect='*step_deal*' \\
        python tools/step_deal_workload.py public --calls 40
    PYTHONPATH=python python tools/step_deal_workload.py changpai-ydr --batch 128 --warm 3000

Prints the ruleset, the SHA-1 of the outputs and the steps/s of the timed calls (the random
policy, the same as bench_rl's, is outside both the timing and the collected instructions when
callgrind's collection is toggled on ``step_deal`` as above: "Collected" is then the engine's).
For a ruleset whose observation flags the penalised actions (long cards) the policy is
bench_rl's there too: an unpenalised action when the row has one.  ``--warm N``: deal N hands
first, outside the timing and the collection (the long-card engine caches the face weights of
each pair of 将 cards, as a long run has them all).
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np
from mahjong_core.rl import VectorRounds, observation_layout, rl_rulesets
from mahjong_core.rl.rounds import CoreDealer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", choices=rl_rulesets())
    ap.add_argument("--calls", type=int, default=40, help="step_deal calls (default 40)")
    ap.add_argument("--batch", type=int, default=256, help="rounds stepped together (default 256)")
    ap.add_argument("--warm", type=int, default=0, help="hands dealt before the workload (default 0)")
    args = ap.parse_args()
    if args.warm:
        deal, warm_rng = CoreDealer(args.ruleset, None), np.random.default_rng(2)
        for _ in range(args.warm):
            deal(warm_rng)
    pen = observation_layout(args.ruleset).slices.get("penalised")
    rng = np.random.default_rng(1)
    vec = VectorRounds(args.ruleset, args.batch, seed=1, copy=False)
    obs, mask, _ = vec.reset()
    batch = vec._live_batch()
    bits = np.random.PCG64(1)
    digest = hashlib.sha1()
    dt = 0.0
    for _ in range(args.calls):
        # bench_rl's policy: the legal entry with the largest random byte (an unpenalised one if any)
        noise = np.frombuffer(rng.bytes(mask.size), dtype=np.uint8).reshape(mask.shape) | 1
        ok = mask.view(np.uint8)
        if pen is not None:
            free = ok & (obs[:, pen] == 0)
            ok = np.where(free.any(axis=1)[:, None], free, ok)
        actions = (noise * ok).argmax(axis=1)
        t = time.perf_counter()
        obs, mask, actor, done, _ = batch.step_deal(actions, bits)
        dt += time.perf_counter() - t
        for a in (obs, mask, actor, done):
            digest.update(a.tobytes())
    print(args.ruleset, digest.hexdigest(), f"{args.calls * args.batch / dt:,.0f} steps/s")


if __name__ == "__main__":
    main()
