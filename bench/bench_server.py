"""The server loop and public greedy rounds (issue 14): rounds/s of a Python server driving the
public API against the compiled ``play_round`` on the same seeds, per ruleset, and optionally
against an older build of the package, alternating the two builds pass by pass.

    python bench/bench_server.py [--rounds N] [--repeat R] [--before PATH/TO/old/python] [--clock cpu]

The server loop, per step: ``seats_to_act()``, ``legal_mask(seat)``, the bot's ``act_index``,
``step(seat, index)`` and one ``view(seat)`` -- what a server does to tell the acting player
his options and the new state.  Both loops play the same games with greedy bots (the result of
every round is compared).  ``ratio`` = server rounds/s / play_round rounds/s, same run, same
seeds; ``public greedy`` is play_round on `public` with four greedy bots.

Every measurement runs in a fresh subprocess with the package tree on ``PYTHONPATH`` (this
worktree's, and ``--before``'s when given); passes alternate old/new and each figure is the best
of ``--repeat`` passes, since the machine may be shared.  The load average is printed.  ``--clock
cpu`` times with the process's CPU time instead of the wall clock (on a loaded machine the wall
clock counts the time the process waits for a core).  The table reports; nothing fails on a number.

The ``snapshot`` columns run the same loop with ``view_snapshot(seat)`` (a RoundView: the view's C
state copied, its dict built only by ``to_dict()``) in place of ``view(seat)``: the loop of a server
that takes a view every step but sends few (docs/guide/round-api.md: The server loop).

Where the time goes (callgrind, instructions per step inside the loop, 100 rounds, seeds 18..;
``play_round``'s whole round divided by the same steps for comparison).  Main before issue 14's
server work: public 59.0k per server step against 18.8k for play_round, two-player 62.5k / 21.7k,
two-player-bamboo 64.8k / 23.1k.  Now 49.1k, 54.1k and 56.4k.  Of a public step now: building the
view 13.9k (its 25-key dict and ~20 lists: about 26 dict stores at ~190 instructions and 13 lists
at ~105, so the floor of a plain dict view is high) and freeing the views and events about as much
again (dict and list deallocation 13.2k); the greedy bot 12.4k (the engine's own choice, which
play_round makes too); ``step`` 7.6k (the transition 1.7k, the event dicts 1.8k, the log sync of
the deal at a round's first step and the win event's scoring at its last 2.9k); ``legal_mask``
1.9k with the option computation it triggers; ``seats_to_act`` and ``is_over`` 0.4k and 0.2k;
``Round(...)`` construction 3.6k (in both loops).  Before, each of those calls also ran a Python
method (about 1k instructions each) and ``step``/``view`` a second call into the core.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

SEED = 18
RULESETS = [("two-player", 2), ("two-player-bamboo", 2), ("public", 4)]
HERE = Path(__file__).resolve().parent
NEW_TREE = HERE.parent / "python"


def serve(rnd, bots, snapshot: bool = False) -> int:
    """The server loop over one round; returns its steps.  ``snapshot``: take each view as
    ``view_snapshot(seat)`` (a RoundView, its dict not built) instead of ``view(seat)``."""
    steps = 0
    view = rnd.view_snapshot if snapshot else rnd.view
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        mask = rnd.legal_mask(seat)
        i = bots[seat].act_index(rnd, seat)
        if not mask[i]:  # pragma: no cover - a bot / engine bug
            raise RuntimeError(f"bot chose illegal index {i}")
        rnd.step(seat, i)
        view(seat)
        steps += 1
    return steps


def worker(rounds: int, clock: str = "wall") -> dict:
    """One pass in this process: per ruleset play_round and server rounds/s."""
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import GreedyBot, Round

    now = time.process_time if clock == "cpu" else time.perf_counter
    out = {}
    for ruleset, players in RULESETS:
        bots = [GreedyBot() for _ in range(players)]
        seeds = range(SEED, SEED + rounds)
        for s in seeds[:20]:  # warm-up
            play_round(Round(ruleset, seed=s), bots)
            serve(Round(ruleset, seed=s), bots)
        gc.collect()   # every timed loop starts from the same heap (no garbage of the loop before)
        t = now()
        played = [play_round(Round(ruleset, seed=s), bots).to_dict() for s in seeds]
        t_play = now() - t
        served = []
        steps = 0
        gc.collect()
        t = now()
        for s in seeds:
            r = Round(ruleset, seed=s)
            steps += serve(r, bots)
            served.append(r.result)
        t_serve = now() - t
        same = sum(a == b.to_dict() for a, b in zip(played, served))
        out[ruleset] = {"play": rounds / t_play, "server": rounds / t_serve, "same": same,
                        "us_per_step": t_serve / steps * 1e6, "snapshot": None}
        if hasattr(Round, "view_snapshot"):   # an older build has only the dict view
            served = []
            gc.collect()
            t = now()
            for s in seeds:
                r = Round(ruleset, seed=s)
                serve(r, bots, snapshot=True)
                served.append(r.result)
            out[ruleset]["snapshot"] = rounds / (now() - t)
            out[ruleset]["same"] = min(same, sum(a == b.to_dict() for a, b in zip(played, served)))
        del played, served   # the next ruleset's loops do not carry this one's rounds
    return out


def run_pass(tree: Path, rounds: int, clock: str = "wall") -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    p = subprocess.run([sys.executable, __file__, "--worker", str(rounds), "--clock", clock], env=env, check=True,
                       capture_output=True, text=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=600, help="rounds per ruleset and pass")
    ap.add_argument("--repeat", type=int, default=3, help="passes per build (best of)")
    ap.add_argument("--before", type=Path, default=None,
                    help="the python/ directory of an older built tree (e.g. main's) to compare with")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall clock (default) or the process's CPU time")
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.clock)))
        return {}
    trees = {"after": NEW_TREE}
    if args.before is not None:
        trees = {"before": args.before.resolve(), "after": NEW_TREE}
    load0 = os.getloadavg()
    best: dict = {k: None for k in trees}
    for _ in range(args.repeat):
        for name, tree in trees.items():  # alternate the builds pass by pass
            r = run_pass(tree, args.rounds, args.clock)
            if best[name] is None:
                best[name] = r
            else:
                for rs, row in r.items():
                    b = best[name][rs]
                    for k in ("play", "server", "snapshot"):
                        if row[k] is not None:
                            b[k] = max(b[k], row[k])
                    b["us_per_step"] = min(b["us_per_step"], row["us_per_step"])
    load1 = os.getloadavg()
    print(f"{args.rounds} rounds per ruleset and pass, seeds {SEED}.., greedy bots, best of {args.repeat} "
          f"passes per build (alternated), {args.clock} clock; load average {load0[0]:.1f} at start, "
          f"{load1[0]:.1f} at end, {os.cpu_count()} cores")
    head = (f"{'ruleset':<18} {'build':<7} {'play_round r/s':>14} {'server r/s':>11} {'us/step':>8} "
            f"{'ratio':>6} {'snapshot r/s':>12} {'ratio':>6} {'same':>9}")
    print(head)
    print("-" * len(head))
    figures = {}
    for rs, _ in RULESETS:
        for name in trees:
            row = best[name][rs]
            ratio = row["server"] / row["play"]
            figures[f"{rs} | {name} | ratio"] = ratio
            figures[f"{rs} | {name} | play"] = row["play"]
            snap = "-" if row["snapshot"] is None else f"{row['snapshot']:,.0f}"
            snap_ratio = "-" if row["snapshot"] is None else f"{row['snapshot'] / row['play']:.2f}"
            if row["snapshot"] is not None:
                figures[f"{rs} | {name} | snapshot ratio"] = row["snapshot"] / row["play"]
            print(f"{rs:<18} {name:<7} {row['play']:>14,.0f} {row['server']:>11,.0f} {row['us_per_step']:>8.1f} "
                  f"{ratio:>6.2f} {snap:>12} {snap_ratio:>6} {row['same']:>4}/{args.rounds}")
    for name in trees:
        print(f"public greedy play_round ({name}): {best[name]['public']['play']:,.0f} rounds/s "
              f"(issue target >= 5,000 per core)")
    print("ratio = server r/s / play_round r/s of the same build in the same pass (issue target >= 0.50); "
          "snapshot = the same loop taking each view as view_snapshot(seat) (a RoundView whose dict is "
          "built only on to_dict(); '-' for a build without it); same = rounds whose result equals "
          "play_round's in every loop")
    return figures


if __name__ == "__main__":
    main()
