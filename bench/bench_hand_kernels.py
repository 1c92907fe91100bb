"""The hand kernels the round engine calls on every turn, as hands per second from one run.

    python bench/bench_hand_kernels.py [--quick] [--baseline PATH/_hand....so]

Per mahjong ruleset, over hands met in play -- the hand of the seat on turn after its draw
(3k+2 tiles, declared melds leaving 2 to 14) at every turn start of fixed-seed rounds of random
legal play --:

* ready discards: ``ready_discards_batch`` on those hands (the 报听 discards the engine offers
  at a turn start, ``hand_ready_discards``);
* waits: ``waits_batch`` on the same hands less one random held tile (the hand after a discard,
  whose waits the engine caches, ``hand_waits``).

Both are batch calls (the rows validated as they are read, then the kernel: the same for every
build), the best of several passes.  With ``--baseline`` the ``_hand`` extension of another build
(e.g. an older commit built in a scratch directory; it needs ``ready_discards_batch`` for the
first figure) is loaded beside this one and timed in the same run, passes interleaved: the
ratio new/baseline is the figure; both must give the same answers.  Also: the tables' size and
the time their build at import takes (the ``mahjong_core._hand`` line of ``python -X
importtime``, best of 3 fresh interpreters).  Nothing fails on a number.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

import mahjong_core as mj
from mahjong_core import _hand

RULESETS = ("two-player", "two-player-bamboo", "public")


def turn_hands(ruleset: str, n: int, seed: int = 16) -> np.ndarray:
    """(n, 34) hands of the seat on turn after its draw, from rounds of random legal play."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    k = 0
    while len(out) < n:
        r = mj.Round(ruleset, seed=seed + k)
        k += 1
        while not r.is_over and len(out) < n:
            core = r._core
            if core.phase == 1:
                h = core.hand_row(core.turn)
                if h.sum() % 3 == 2:
                    out.append(h.astype(np.uint8))
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            r.step(seat, legal[int(rng.integers(len(legal)))])
    return np.array(out, np.uint8)


def after_discard(hands: np.ndarray, seed: int = 17) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = hands.copy()
    for row in out:
        held = np.flatnonzero(row)
        row[held[rng.integers(len(held))]] -= 1
    return out


def load_baseline(path: str) -> ModuleType:
    """Another build's ``_hand`` extension, under a package name of its own (its init function
    is ``PyInit__hand`` whatever the package)."""
    spec = importlib.util.spec_from_file_location("_baseline_build._hand", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def table_build_seconds(repeat: int = 3) -> float:
    """Self time of importing mahjong_core._hand (its tables' build) in a fresh interpreter."""
    best = float("inf")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for _ in range(repeat):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", "import mahjong_core"],
                             capture_output=True, text=True, env=env, check=True).stderr
        m = re.search(r"import time:\s+(\d+) \|\s+\d+ \|\s+mahjong_core\._hand$", err, re.MULTILINE)
        if m:
            best = min(best, int(m.group(1)) / 1e6)
    return best


def _calls(h: np.ndarray, w: np.ndarray, allowed: int, special: bool) -> dict:
    """what -> (a call of one build's module, rows per call)"""
    return {
        "ready discards": (lambda mod: mod.ready_discards_batch(h, allowed, special), len(h)),
        "waits": (lambda mod: mod.waits_batch(w, allowed, special), len(w)),
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer hands and passes (smoke run)")
    ap.add_argument("--baseline", help="path of another build's _hand extension to compare with")
    args = ap.parse_args(argv)
    n = 4000 if args.quick else 20000
    passes = 3 if args.quick else 11
    tile = 1 if args.quick else 5
    builds: list[tuple[str, ModuleType]] = [("this build", _hand)]
    if args.baseline:
        builds.append(("baseline", load_baseline(args.baseline)))

    print(f"# hand kernels: {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, load average {os.getloadavg()[0]:.2f}")
    results: dict = {}
    for ruleset in RULESETS:
        rs = mj.get_ruleset(ruleset)
        allowed = sum(1 << k for k in rs.kinds)
        special = rs.special_forms
        h = np.tile(turn_hands(ruleset, n), (tile, 1))
        w = after_discard(h)
        for what, (call, rows) in _calls(h, w, allowed, special).items():
            usable = [(name, mod) for name, mod in builds if what == "waits" or hasattr(mod, "ready_discards_batch")]
            answers = [call(mod) for _, mod in usable]
            assert all(np.array_equal(answers[0], a) for a in answers[1:]), f"{ruleset} {what}: builds disagree"
            best = {name: float("inf") for name, _ in usable}
            for p in range(passes):
                for name, mod in usable if p % 2 else usable[::-1]:
                    t = time.perf_counter()
                    call(mod)
                    best[name] = min(best[name], time.perf_counter() - t)
            rates = {name: rows / sec for name, sec in best.items()}
            results[(ruleset, what)] = rates
            line = "  ".join(f"{name} {rate / 1e6:6.2f} M/s" for name, rate in rates.items())
            if len(rates) == 2:
                line += f"  ratio {rates['this build'] / rates['baseline']:.2f}x"
            print(f"{ruleset:18s} {what:15s} {line}")
    info = _hand.table_info()
    build = table_build_seconds(1 if args.quick else 3)
    print(f"tables: {info['total_bytes'] / 2**20:.2f} MiB (info words {info['suit_info_bytes'] + info['honor_info_bytes']:,} bytes); "
          f"built at import in {build * 1e3:.0f} ms")
    results["tables_mib"] = info["total_bytes"] / 2**20
    results["build_seconds"] = build
    return results


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
