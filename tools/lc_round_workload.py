"""A fixed-seed workload of the compiled long-card round engine, for checking that an engine change
leaves every output as it was (as ``tools/step_deal_workload.py`` does for the mahjong engine):

- whole hands played in C by the built-in bots (``core.play``), rule and random, over option sets
  that reach every rule switch: each result, event list and action log;
- stepped hands, where a seeded generator picks among the offered actions of every seat to act
  (``seats_to_act``, ``offered``, ``step``): each offer, snapshot, event list and result.

    PYTHONPATH=python python tools/lc_round_workload.py [--hands 60]

Prints the SHA-1 of each part and of the whole.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np
from mahjong_core.families.longcard.option_samples import WORKLOAD_OPTION_SETS
from mahjong_core.families.longcard.round_engine import new_core

OPTIONS = WORKLOAD_OPTION_SETS   # the option sets of the parity tests that these digests were recorded over


def played(hands: int) -> str:
    digest = hashlib.sha1()
    for options in OPTIONS:
        for kind in ("rule", "random"):
            for seed in range(hands):
                core = new_core(seed, options=options)
                res = core.play((kind,) * 3, [np.random.default_rng(seed * 3 + k) for k in range(3)])
                digest.update(repr((res, core.events(), core.log, core.n_actions)).encode())
    return digest.hexdigest()


def stepped(hands: int) -> str:
    digest = hashlib.sha1()
    for options in OPTIONS:
        for seed in range(hands):
            core = new_core(seed, options=options)
            rng = np.random.default_rng(seed)
            while core.result is None:
                seats = core.seats_to_act()
                offers = {p: core.offered(p) for p in seats}
                digest.update(repr((str(core.phase), int(core.actor), seats, offers, core.snapshot())).encode())
                p = seats[int(rng.integers(len(seats)))]
                actions = sorted(offers[p])
                core.step(p, actions[int(rng.integers(len(actions)))])
            digest.update(repr((core.result, core.events(), core.log)).encode())
    return digest.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=60, help="hands per option set (and bot kind)")
    args = ap.parse_args()
    parts = {"played": played(args.hands), "stepped": stepped(args.hands)}
    for name, h in parts.items():
        print(f"changpai-ydr {name} {h}")
    print("changpai-ydr all", hashlib.sha1("".join(parts.values()).encode()).hexdigest())


if __name__ == "__main__":
    main()
