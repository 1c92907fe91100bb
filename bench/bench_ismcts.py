"""Information-set MCTS against greedy and against the flat search bot, on duplicate deals.

    python bench/bench_ismcts.py [--ruleset two-player] [--deals N] [--seed S]
                                 [--ismcts-steps STEPS] [--search-steps STEPS] [--max-ms MS] [--c C]
                                 [--widen K] [--root all|advisor] [--candidates K] [--arms ismcts,search]
                                 [--json OUT] [--merge A.json B.json ...]

Each deal (a seeded wall, ``Round(ruleset, seed)``) is played once by greedy bots in every seat,
then, for each seat, once with the ISMCTS bot in that seat and once with the flat search bot in
that seat, greedy bots elsewhere (bench/bench_search_bot.py's duplicate scheme, with a third
arm): every wall is seen from every chair by the three bots, so the luck of the deal cancels in
each paired difference.  Per deal a difference is the mean over the seats of (bot A's result -
bot B's result in that seat on the same wall); the figures are the means over the deals with 95 %
normal intervals (1.96 standard errors of the per-deal differences).

The budgets: each bot's default (:data:`ISMCTS_DEFAULT_STEPS`, :data:`DEFAULT_STEPS`, chosen for
about the same CPU per decision) unless given; ``--max-ms`` caps both at the same CPU milliseconds
per decision (then not reproducible).  Printed: win rates, the three differences of win rate and of
points per round, each bot's CPU per decision (``time.process_time``: mean over all decisions,
mean, 95th percentile and maximum over the searched ones) and the load average.  ``--json`` writes
the per-deal differences, ``--merge`` prints the figures of several such files (runs over
disjoint walls, so that a long measurement can be cut into short jobs), ``--join`` the ISMCTS arm
of one file against the search arm of another over the same walls (``--arms`` runs one arm: the
flat bot's figures are then measured once for several settings of the ISMCTS bot).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import mahjong_core as mj
from mahjong_core.families.mahjong.ismcts_bot import ISMCTS_DEFAULT_STEPS, ROOTS, IsmctsBot
from mahjong_core.families.mahjong.search_bot import DEFAULT_STEPS, SearchBot
from mahjong_core.game.bots import play_round, play_steps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search_bot import _outcome, _Timed, interval  # noqa: E402  (the same duplicate-deal scheme)

PAIRS = (("ismcts", "greedy"), ("search", "greedy"), ("ismcts", "search"))
"""The paired differences reported (bot A minus bot B in the same seats of the same walls)."""


def run(ruleset: str, deals: int, seed: int = 1, ismcts_steps: "int | None" = None,
        search_steps: "int | None" = None, max_ms: "float | None" = None, c: float = 0.7,
        progress: int = 0, widen: "int | None" = None, arms: tuple[str, ...] = ("ismcts", "search"),
        root: "str | None" = None, candidates: int = 3) -> dict[str, Any]:
    """Play the duplicate deals; returns the per-deal differences and the CPU figures.  ``arms``:
    the bots measured against greedy (both, or one of them alone: half the time)."""
    options: dict[str, Any] = {"widen": widen, "root": root}
    ismcts = IsmctsBot(seed, steps=ismcts_steps, c=c, candidates=candidates, max_ms=max_ms,
                       **{k: v for k, v in options.items() if v is not None})      # None: the bot's default
    widen, root = ismcts.widen, ismcts.root
    timed = {"ismcts": _Timed(ismcts),
             "search": _Timed(SearchBot(seed, steps=search_steps, max_ms=max_ms))}
    timed = {name: t for name, t in timed.items() if name in arms}
    pairs = [(a, b) for a, b in PAIRS if a in arms and b in ("greedy", *arms)]
    players = mj.get_ruleset(ruleset).players
    per_deal: dict[str, list[float]] = {f"{a}-{b} {m}": [] for a, b in pairs for m in ("win", "points")}
    totals = {name: [0.0, 0.0] for name in ("greedy", *timed)}
    t0 = time.process_time()
    for k in range(deals):
        s = seed + k
        base = mj.Round(ruleset=ruleset, seed=s)
        play_round(base, ["greedy"] * players)              # in the engine
        sums = {key: 0.0 for key in per_deal}
        for seat in range(players):
            res = {"greedy": _outcome(base, seat)}
            for name, bot in timed.items():
                rnd = mj.Round(ruleset=ruleset, seed=s)
                bots: list[Any] = [mj.GreedyBot() for _ in range(players)]
                bots[seat] = bot
                play_steps(rnd, bots, 10_000)
                res[name] = _outcome(rnd, seat)
            for name, (w, p) in res.items():
                totals[name][0] += w
                totals[name][1] += p
            for a, b in pairs:
                sums[f"{a}-{b} win"] += res[a][0] - res[b][0]
                sums[f"{a}-{b} points"] += res[a][1] - res[b][1]
        for key in per_deal:
            per_deal[key].append(sums[key] / players)
        if progress and (k + 1) % progress == 0:
            a, b = pairs[-1]
            m, h = interval(per_deal[f"{a}-{b} win"])
            print(f"  {k + 1} deals: {a} - {b} win rate {m:+.3f} ± {h:.3f}", flush=True)
    n = deals * players
    cpu: dict[str, Any] = {}
    for name, t in timed.items():
        searched = np.asarray(t.searched or [0.0])
        cpu[name] = {"decisions": len(t.cpu_ms), "mean": float(np.mean(t.cpu_ms)) if t.cpu_ms else 0.0,
                     "searched": len(t.searched), "searched_mean": float(searched.mean()),
                     "p95": float(np.percentile(searched, 95)), "max": float(searched.max())}
    return {"ruleset": ruleset, "deals": deals, "seed": seed, "players": players,
            "budgets": {"ismcts": ismcts_steps or ISMCTS_DEFAULT_STEPS[players],
                        "search": search_steps or DEFAULT_STEPS[players], "max_ms": max_ms, "c": c, "widen": widen,
                        "arms": list(timed), "root": root, "candidates": candidates},
            "win_rate": {name: v[0] / n for name, v in totals.items()},
            "points": {name: v[1] / n for name, v in totals.items()},
            "per_deal": per_deal, "cpu": cpu, "cpu_s": time.process_time() - t0,
            "load_average": list(os.getloadavg())}


def merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One set of figures from runs of the same ruleset and budgets over disjoint walls."""
    for r in runs:      # files written before the widen and arms options: their defaults
        r["budgets"] = {"widen": 0, "arms": list(r["cpu"]), "root": "all", "candidates": 3, **r["budgets"]}
    first = runs[0]
    if any(r["ruleset"] != first["ruleset"] or r["budgets"] != first["budgets"] for r in runs):
        raise SystemExit("the runs to merge differ in ruleset or budgets")
    deals = sum(r["deals"] for r in runs)
    out = {"ruleset": first["ruleset"], "deals": deals, "seed": min(r["seed"] for r in runs),
           "players": first["players"], "budgets": first["budgets"],
           "win_rate": {k: sum(r["win_rate"][k] * r["deals"] for r in runs) / deals for k in first["win_rate"]},
           "points": {k: sum(r["points"][k] * r["deals"] for r in runs) / deals for k in first["points"]},
           "per_deal": {k: [x for r in runs for x in r["per_deal"][k]] for k in first["per_deal"]},
           "cpu": {}, "cpu_s": sum(r["cpu_s"] for r in runs), "load_average": first["load_average"]}
    for name in first["cpu"]:
        cs = [r["cpu"][name] for r in runs]
        dec = sum(c["decisions"] for c in cs)
        se = sum(c["searched"] for c in cs)
        out["cpu"][name] = {"decisions": dec, "mean": sum(c["mean"] * c["decisions"] for c in cs) / max(dec, 1),
                            "searched": se, "searched_mean": sum(c["searched_mean"] * c["searched"] for c in cs) / max(se, 1),
                            "p95": max(c["p95"] for c in cs), "max": max(c["max"] for c in cs)}
    return out


def join(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The ISMCTS arm of run ``a`` and the search arm of run ``b``, over the same walls (the same
    ruleset, first seed and deals): greedy's results are the same in both, so every paired
    difference is one of the same seats on the same walls (the ISMCTS bot's settings from ``a``)."""
    if (a["ruleset"], a["seed"], a["deals"]) != (b["ruleset"], b["seed"], b["deals"]):
        raise SystemExit("the runs to join differ in ruleset, first seed or deals")
    if "ismcts" not in a["cpu"] or "search" not in b["cpu"]:
        raise SystemExit("join takes a run with the ismcts arm, then one with the search arm")
    ig, sg = a["per_deal"], b["per_deal"]
    per_deal = {f"ismcts-greedy {m}": ig[f"ismcts-greedy {m}"] for m in ("win", "points")}
    per_deal.update({f"search-greedy {m}": sg[f"search-greedy {m}"] for m in ("win", "points")})
    per_deal.update({f"ismcts-search {m}": [x - y for x, y in zip(ig[f"ismcts-greedy {m}"], sg[f"search-greedy {m}"])]
                     for m in ("win", "points")})
    budgets = {**a["budgets"], "search": b["budgets"]["search"], "arms": ["ismcts", "search"]}
    if a["win_rate"]["greedy"] != b["win_rate"]["greedy"]:
        raise SystemExit("the runs to join do not have the same greedy results: not the same walls")
    return {**a, "budgets": budgets, "per_deal": per_deal, "cpu_s": a["cpu_s"] + b["cpu_s"],
            "win_rate": {**a["win_rate"], "search": b["win_rate"]["search"]},
            "points": {**a["points"], "search": b["points"]["search"]},
            "cpu": {"ismcts": a["cpu"]["ismcts"], "search": b["cpu"]["search"]}}


def report(f: dict[str, Any]) -> None:
    b = f["budgets"]
    print(f"{f['ruleset']}: {f['deals']} deals (seeds from {f['seed']}) x {f['players']} seats; budgets: ismcts "
          f"{b['ismcts']} steps (c {b['c']}, widen {b['widen']}, root {b['root']}), search {b['search']} steps, CPU cap "
          f"{b['max_ms'] or 'none'}; {f['cpu_s']:.0f} s CPU")
    print("win rate: " + ", ".join(f"{name} {w:.3f}" for name, w in f["win_rate"].items()) + " (same seats)")
    for a, bb in PAIRS:
        if f"{a}-{bb} win" not in f["per_deal"]:
            continue
        wm, wh = interval(f["per_deal"][f"{a}-{bb} win"])
        pm, ph = interval(f["per_deal"][f"{a}-{bb} points"])
        print(f"{a} - {bb}: win rate difference {wm:+.3f} ± {wh:.3f} (95 %), points per round {pm:+.2f} ± {ph:.2f}")
    for name, c in f["cpu"].items():
        print(f"CPU per decision, {name}: {c['mean']:.1f} ms mean over {c['decisions']} decisions; searched "
              f"{c['searched']}: mean {c['searched_mean']:.1f} ms, p95 {c['p95']:.1f} ms, max {c['max']:.1f} ms")
    la = f["load_average"]
    print(f"load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} on {os.cpu_count()} cores")


def main(argv: "list[str] | None" = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="two-player")
    ap.add_argument("--deals", type=int, default=100, help="seeded walls, each played from every seat")
    ap.add_argument("--seed", type=int, default=1, help="first wall's seed (and the bots' seed)")
    ap.add_argument("--ismcts-steps", type=int, default=None, help=f"IsmctsBot(steps=...); default {ISMCTS_DEFAULT_STEPS}")
    ap.add_argument("--search-steps", type=int, default=None, help=f"SearchBot(steps=...); default {DEFAULT_STEPS}")
    ap.add_argument("--max-ms", type=float, default=None, help="the same CPU cap per decision for both bots")
    ap.add_argument("--c", type=float, default=0.7, help="IsmctsBot(c=...), the UCB constant")
    ap.add_argument("--widen", type=int, default=None, help="IsmctsBot(widen=...); default the bot's")
    ap.add_argument("--root", default=None, choices=ROOTS, help="IsmctsBot(root=...); default the bot's")
    ap.add_argument("--candidates", type=int, default=3, help="IsmctsBot(candidates=...) with --root advisor")
    ap.add_argument("--arms", default="ismcts,search", help="the bots measured against greedy: ismcts,search or one")
    ap.add_argument("--progress", type=int, default=0, help="print the running difference every N deals (0: never)")
    ap.add_argument("--json", default=None, help="write the figures and per-deal differences to this file (of a run, "
                                                  "a merge or a join)")
    ap.add_argument("--merge", nargs="+", default=None, help="print the figures of these --json files together")
    ap.add_argument("--join", nargs=2, default=None, metavar=("ISMCTS.json", "SEARCH.json"),
                    help="print the ismcts arm of one --json file against the search arm of another (same walls)")
    a = ap.parse_args(argv)
    if a.join:
        f = join(*[json.loads(Path(p).read_text()) for p in a.join])
    elif a.merge:
        f = merge([json.loads(Path(p).read_text()) for p in a.merge])
    else:
        arms = tuple(x.strip() for x in a.arms.split(","))
        if not arms or any(x not in ("ismcts", "search") for x in arms):
            raise SystemExit(f"--arms {a.arms!r}: expected ismcts, search or both")
        f = run(a.ruleset, a.deals, a.seed, a.ismcts_steps, a.search_steps, a.max_ms, a.c, a.progress, a.widen, arms,
                a.root, a.candidates)
    if a.json:
        Path(a.json).write_text(json.dumps(f))
    report(f)
    return f


if __name__ == "__main__":
    main()
