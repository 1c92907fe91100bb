"""The long-card search bot (or the advisor bot) against the RuleBot, on duplicate deals.

    python bench/bench_lc_search_bot.py [--deals N] [--steps STEPS] [--budget PLAYOUTS] [--max-ms MS] [--bot search|advisor]
                                        [--objective points|wins] [--seed S] [--progress N]

Duplicate deals: deal ``d`` (the stock and the banker of ``CompiledHand(seed=S + d)``, changpai-ydr
with its default options) is played once by three RuleBots (the baseline) and three more times with
the bot under test in seat 0, 1 and 2 in turn (the RuleBot in the other two seats).  The bot's seat
is compared with the RuleBot that sat in the same seat of the same deal: the win difference (1 if
the bot won and the RuleBot did not, -1 the other way round, else 0) and the points difference.  A
deal's three seats are averaged into one sample (they share the deal), and the 95 % interval is
the normal one over the deals: mean +- 1.96 sd / sqrt(deals).  Reported too: the CPU time
(``time.process_time``) per decision of the bot (every decision it made, and the searched ones
alone) and the load average.  One process, one core.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any

import numpy as np
from mahjong_core.families.longcard.advise_bot import AdvisorBot
from mahjong_core.families.longcard.round_engine import CompiledHand, new_core
from mahjong_core.families.longcard.search_bot import DEFAULT_STEPS, SearchBot


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    a = np.asarray(xs, float)
    if len(a) < 2:
        return float(a.mean()) if len(a) else 0.0, float("nan")
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / math.sqrt(len(a))


def play_seat(seed: int, seat: int, bot: Any, stats: dict[str, float]) -> dict[str, Any]:
    """The deal of ``seed`` with ``bot`` at ``seat`` and the compiled RuleBot elsewhere; its result."""
    h = CompiledHand(seed=seed)
    while h.seats_to_act():
        p = h.seats_to_act()[0]
        if p != seat:
            h.step(p, h.core.choose("rule"))
            continue
        t = time.process_time()
        a = bot.choose_in(h, h.view(p), h.legal_mask(p), h.penalised_mask(p))
        dt = time.process_time() - t
        stats["decisions"] += 1
        stats["cpu"] += dt
        if getattr(bot, "last_playouts", 0):
            stats["searched"] += 1
            stats["search_cpu"] += dt
            stats["search_max"] = max(stats["search_max"], dt)
            stats["playouts"] += bot.last_playouts
            stats["steps"] += bot.last_steps
        h.step(p, a)
    return h.result


def make_bot(args: argparse.Namespace) -> Any:
    if args.bot == "advisor":
        return AdvisorBot()
    phases = None if args.phases is None else args.phases.split(",")
    return SearchBot(seed=args.seed, steps=args.steps, playouts=args.budget, max_ms=args.max_ms, objective=args.objective, phases=phases)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="deals, each played 4 times (default 200)")
    ap.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="search bot: engine steps per decision")
    ap.add_argument("--budget", type=int, default=None, help="search bot: the most playouts per decision (default: no cap)")
    ap.add_argument("--max-ms", type=float, default=None, help="search bot: CPU-time cap per decision (ms)")
    ap.add_argument("--objective", default="wins", choices=("wins", "points"), help="search bot: what a playout scores")
    ap.add_argument("--bot", default="search", choices=("search", "advisor"))
    ap.add_argument("--phases", default=None, help="search bot: the decisions searched, e.g. discard,claim (default all)")
    ap.add_argument("--seed", type=int, default=1, help="first deal's seed (and the search bot's seed)")
    ap.add_argument("--progress", type=int, default=0, help="print running figures every N deals (0: never)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.steps < 1 or (args.budget is not None and args.budget < 1):
        ap.error("--deals, --steps and --budget must be >= 1")
    bot = make_bot(args)
    stats = {"decisions": 0, "cpu": 0.0, "searched": 0, "search_cpu": 0.0, "search_max": 0.0, "playouts": 0, "steps": 0}
    win_d: list[float] = []
    pts_d: list[float] = []
    wins = [0, 0]
    hands = 0
    start = time.process_time()
    for d in range(args.deals):
        seed = args.seed + d
        base = new_core(seed).play(("rule", "rule", "rule"))
        dw = dp = 0.0
        for seat in range(3):
            res = play_seat(seed, seat, bot, stats)
            won = res["end"] == "win" and res["winner"] == seat
            base_won = base["end"] == "win" and base["winner"] == seat
            wins[0] += won
            wins[1] += base_won
            dw += won - base_won
            dp += res["deltas"][seat] - base["deltas"][seat]
            hands += 1
        win_d.append(dw / 3)
        pts_d.append(dp / 3)
        if args.progress and (d + 1) % args.progress == 0:
            m, h = interval(win_d)
            print(f"  {d + 1} deals: win diff {100 * m:+.2f} +- {100 * h:.2f} points of win rate", flush=True)
    wm, wh = interval(win_d)
    pm, ph = interval(pts_d)
    out = {
        "bot": args.bot, "steps": args.steps if args.bot == "search" else None,
        "budget": args.budget if args.bot == "search" else None, "max_ms": args.max_ms,
        "objective": args.objective if args.bot == "search" else None, "deals": args.deals, "hands": hands,
        "win_rate_bot": wins[0] / hands, "win_rate_rulebot": wins[1] / hands,
        "win_rate_diff": wm, "win_rate_diff_ci95": wh, "points_diff": pm, "points_diff_ci95": ph,
        "ms_per_decision": 1000 * stats["cpu"] / max(1, stats["decisions"]),
        "ms_per_searched_decision": 1000 * stats["search_cpu"] / max(1, stats["searched"]),
        "ms_max_searched_decision": 1000 * stats["search_max"], "decisions": stats["decisions"],
        "searched_decisions": stats["searched"],
        "playouts_per_searched_decision": stats["playouts"] / max(1, stats["searched"]),
        "steps_per_searched_decision": stats["steps"] / max(1, stats["searched"]),
        "cpu_s": time.process_time() - start, "loadavg": os.getloadavg(),
    }
    budget = f"--steps {args.steps}" + (f" --budget {args.budget}" if args.budget else "") + (f" --max-ms {args.max_ms:g}" if args.max_ms else "") + f" --objective {args.objective}"
    print(f"{args.bot} bot vs RuleBot, changpai-ydr, {args.deals} duplicate deals ({hands} hands with the bot)"
          + (f", {budget}" if args.bot == "search" else ""))
    print(f"  win rate: bot {100 * out['win_rate_bot']:.2f} %, RuleBot in the same seats {100 * out['win_rate_rulebot']:.2f} %")
    print(f"  win rate difference: {100 * wm:+.2f} points, 95 % CI [{100 * (wm - wh):+.2f}, {100 * (wm + wh):+.2f}]")
    print(f"  points per hand difference: {pm:+.3f}, 95 % CI [{pm - ph:+.3f}, {pm + ph:+.3f}]")
    print(f"  CPU per decision: {out['ms_per_decision']:.2f} ms over {stats['decisions']} decisions; "
          f"searched ones {out['ms_per_searched_decision']:.2f} ms (max {out['ms_max_searched_decision']:.1f} ms, "
          f"{stats['searched']} decisions, {out['playouts_per_searched_decision']:.0f} playouts and "
          f"{out['steps_per_searched_decision']:.0f} steps each)")
    la = out["loadavg"]
    print(f"  total CPU {out['cpu_s']:.1f} s; load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}")
    return out


if __name__ == "__main__":
    main()
