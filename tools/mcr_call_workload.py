"""Instructions per call of ``mj.score`` and of PyMahjongGB's ``MahjongFanCalculator`` on
bench_mcr's hand sets, counted by callgrind (a count the load of a shared machine does not move).

    PYTHONPATH=python python tools/mcr_call_workload.py [--ruleset mcr] [--hands 1000] [--sets melds4 ...]

runs ``valgrind --tool=callgrind --toggle-collect=builtin_eval --dump-after=builtin_eval`` once on
this script's ``--child`` mode, which prepares every set's calls as bench_mcr times them (the same
hands, the same keyword calls, in a function; every hand scored once before, as a warm run has it)
and then runs each set's calls once per implementation inside its own ``eval`` (one profile each:
imports run in ``exec``, never in ``eval``): the instructions collected, divided by the hands, are a
call with everything included (the interpreter's loop, the keyword call, reading the arguments, the
kernel, the Score).  Prints a table of instructions per call and their ratio (PyMahjongGB's / ours);
``--keep DIR`` leaves the profiles (the runs' are the last ones, in the order the child prints) for
``callgrind_annotate``.  About 3 minutes on a quiet machine for the five sets of 1000 hands.

    PYTHONPATH=python valgrind --tool=callgrind --branch-sim=yes --toggle-collect=builtin_eval \
        --dump-after=builtin_eval python tools/mcr_call_workload.py --child melds4 --impl ours gb

is that run by hand (here with the simulated branch predictor).  The child alone (without valgrind)
prints the SHA-1 of the totals, forms and fan counts of each set, so two builds can be checked for
the same results on the same hands.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bench"))

SETS = ("plain", "melds3", "melds4", "kongs", "flowers")

# bench_mcr's loops (in a function: its names are fast locals, as in the bench)
_OURS_LOOP = """
def run(calls, score, ruleset):
    for c, w, m, sd, f in calls:
        if f:
            score(c, w, ruleset=ruleset, melds=m, self_drawn=sd, flowers=f)
        else:
            score(c, w, ruleset=ruleset, melds=m, self_drawn=sd)
"""
_GB_LOOP = """
def run(calls, calc):
    for a in calls:
        calc(*a)
"""


def child(categories: list[str], impls: list[str], ruleset: str, n: int) -> None:
    """Prepare every set, then run each set's calls once per implementation, each run in its own eval
    (callgrind: --toggle-collect=builtin_eval --dump-after=builtin_eval, one profile a run, in the
    order printed)."""
    import bench_mcr

    import mahjong_core as mj

    runs = []
    for category in categories:
        hands = bench_mcr.winning_hands(n, category, ruleset)
        digest = hashlib.sha1()
        for h in hands:
            s = h.ours(ruleset)
            digest.update(bytes([s.total & 255, s.total >> 8, s.form_code]) + s.counts.tobytes())
        print(f"{category} {len(hands)} hands, results sha1 {digest.hexdigest()[:16]}", flush=True)
        for impl in impls:
            if impl == "ours":
                calls = [(h.counts, h.win, h.melds, h.self_drawn, h.flowers if h.n_flowers else "") for h in hands]
                ns = {"calls": calls, "score": mj.score, "ruleset": mj.get_ruleset(ruleset).name}
                loop, call = _OURS_LOOP, "run(calls, score, ruleset)"
            else:
                ns = {"calls": [h.gb_args for h in hands], "calc": bench_mcr.gb.MahjongFanCalculator}
                loop, call = _GB_LOOP, "run(calls, calc)"
            exec(loop, ns)
            runs.append((category, impl, compile(call, "<workload>", "eval"), ns))
    for category, impl, code, ns in runs:
        eval(code, ns)   # the collected part (imports run in exec, never in eval)
        print(f"run {category} {impl}", flush=True)


def collected(categories: list[str], impls: list[str], ruleset: str, n: int,
              keep: str | None = None) -> dict[tuple[str, str], int]:
    """Instructions collected inside each eval by callgrind, by (set, implementation); `keep`: a
    directory to leave the profiles in (cg.out.<k>, the runs' the last ones, in their order)."""
    with tempfile.TemporaryDirectory() as tmp:
        if keep:
            os.makedirs(keep, exist_ok=True)
            tmp = keep
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=builtin_eval", "--dump-after=builtin_eval",
               f"--callgrind-out-file={out}", sys.executable, __file__, "--child", *categories,
               "--impl", *impls, "--ruleset", ruleset, "--hands", str(n)]
        run = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if run.returncode:
            raise SystemExit(run.stderr[-2000:])
        # one profile a builtin_eval call: the runs' are the last ones (a library may call eval
        # while the hands are prepared)
        n_runs = len(categories) * len(impls)
        dumps = sorted((p for p in Path(tmp).glob("cg.out.*")), key=lambda p: int(p.suffix[1:]))[-n_runs:]
        counts = []
        for path in dumps:
            text = path.read_text()
            m = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
            counts.append(int(m.group(1)) if m else 0)
        keys = [(c, i) for c in categories for i in impls]
        return dict(zip(keys, counts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="mcr")
    ap.add_argument("--hands", type=int, default=1000, help="hands a set (default 1000)")
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    ap.add_argument("--child", nargs="+", choices=SETS, help="run the sets' calls once each (under callgrind)")
    ap.add_argument("--impl", nargs="+", choices=("ours", "gb"), default=["ours"])
    ap.add_argument("--ours-only", action="store_true", help="count our calls only")
    ap.add_argument("--keep", metavar="DIR", help="leave the callgrind profiles in DIR")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.impl, args.ruleset, args.hands)
        return
    impls = ["ours"] if args.ours_only else ["ours", "gb"]
    print(f"instructions per call (callgrind, inside eval), ruleset {args.ruleset!r}, {args.hands} hands a set",
          flush=True)
    got = collected(args.sets, impls, args.ruleset, args.hands, args.keep)
    print(f"{'set':<10} {'ours':>8} {'PyMahjongGB':>12} {'ratio':>6}")
    for cat in args.sets:
        ours = got[cat, "ours"] / args.hands
        if args.ours_only:
            print(f"{cat:<10} {ours:>8.0f}")
            continue
        theirs = got[cat, "gb"] / args.hands
        print(f"{cat:<10} {ours:>8.0f} {theirs:>12.0f} {theirs / ours:>6.2f}")


if __name__ == "__main__":
    main()
