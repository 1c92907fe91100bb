"""The search bot against the greedy bot on duplicate deals: win rate, points, CPU per decision.

    python bench/bench_search_bot.py [--ruleset two-player] [--deals N] [--budget STEPS]
                                     [--seed S] [--objective net|win] [--candidates K] [--bot search]

Each deal (a seeded wall, ``Round(ruleset, seed)``) is played once by greedy bots in every seat,
then once per seat with the search bot in that seat and greedy bots elsewhere: every wall is seen
from every chair, by the search bot and by the greedy bot, so the luck of the deal cancels.
Per deal the paired difference is the mean over the seats of (search seat's result - greedy's
result in that seat on the same wall); the figures are the means over the deals with 95 %
normal intervals (1.96 standard errors of the per-deal differences: the deals are independent).

Printed: the win rate of the bot's seat and of greedy in the same seats, their difference with
its 95 % interval; points per round (the round's ``deltas``, the ruleset's default settlement)
the same way; the bot's CPU time per decision (``time.process_time``; mean over all decisions,
mean and 95th percentile and maximum over the decisions it searched); the load average.  One
process, one core.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any

import numpy as np

import mahjong_core as mj
from mahjong_core.families.mahjong.advise_bot import AdvisorBot
from mahjong_core.families.mahjong.search_bot import ANCHORS, DEFAULT_STEPS, OBJECTIVES, OPPONENT_MODELS, SearchBot
from mahjong_core.game.bots import play_round, play_steps


class _Timed:
    """A bot whose decisions are timed (CPU) one by one."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu_ms: list[float] = []
        self.searched: list[float] = []

    def act_index(self, rnd: Any, seat: int) -> int:
        t = time.process_time()
        i = int(self.bot.act_index(rnd, seat))
        ms = (time.process_time() - t) * 1000
        self.cpu_ms.append(ms)
        if getattr(self.bot, "last", {}).get("playouts", 1):
            self.searched.append(ms)
        return i

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def _outcome(rnd: Any, seat: int) -> tuple[int, float]:
    """(the seat won, its points) of a finished round."""
    res = rnd.result
    winners = {w["seat"] for w in res.to_dict().get("winners", [])}
    return int(seat in winners), float(res.deltas[seat])


def interval(diffs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    a = np.asarray(diffs, dtype=np.float64)
    if a.size < 2:
        return float(a.mean()) if a.size else 0.0, math.inf
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / math.sqrt(a.size)


def run(ruleset: str, deals: int, budget: "int | None", seed: int = 1, objective: str = "net", candidates: int = 3,
        bot_name: str = "search", progress: int = 0, opponents: "str | None" = None,
        anchor: str = "auto", z: float = 2.0) -> dict[str, Any]:
    """Play the duplicate deals; returns the figures (what :func:`main` prints)."""
    if bot_name == "search":
        timed = _Timed(SearchBot(seed, steps=budget, objective=objective, candidates=candidates,
                                   opponents=opponents, anchor=anchor, z=z))
    else:
        timed = _Timed(AdvisorBot())
    players = mj.get_ruleset(ruleset).players
    win_d: list[float] = []
    pts_d: list[float] = []
    bot_wins = greedy_wins = 0.0
    bot_pts = greedy_pts = 0.0
    t0 = time.process_time()
    for k in range(deals):
        s = seed + k
        base = mj.Round(ruleset=ruleset, seed=s)
        play_round(base, ["greedy"] * players)              # in the engine
        wd = pd = 0.0
        for seat in range(players):
            rnd = mj.Round(ruleset=ruleset, seed=s)
            bots: list[Any] = [mj.GreedyBot() for _ in range(players)]
            bots[seat] = timed
            play_steps(rnd, bots, 10_000)
            bw, bp = _outcome(rnd, seat)
            gw, gp = _outcome(base, seat)
            bot_wins += bw
            greedy_wins += gw
            bot_pts += bp
            greedy_pts += gp
            wd += bw - gw
            pd += bp - gp
        win_d.append(wd / players)
        pts_d.append(pd / players)
        if progress and (k + 1) % progress == 0:
            m, h = interval(win_d)
            print(f"  {k + 1} deals: win rate difference {m:+.3f} ± {h:.3f}", flush=True)
    n = deals * players
    searched = np.asarray(timed.searched or [0.0])
    return {
        "ruleset": ruleset, "deals": deals, "rounds": n + deals, "budget": budget, "objective": objective,
        "bot": bot_name, "bot_win_rate": bot_wins / n, "greedy_win_rate": greedy_wins / n,
        "win_rate_diff": interval(win_d), "bot_points": bot_pts / n, "greedy_points": greedy_pts / n,
        "points_diff": interval(pts_d), "decisions": len(timed.cpu_ms),
        "cpu_ms_mean": float(np.mean(timed.cpu_ms)) if timed.cpu_ms else 0.0,
        "searched": len(timed.searched), "cpu_ms_searched_mean": float(searched.mean()),
        "cpu_ms_p95": float(np.percentile(searched, 95)), "cpu_ms_max": float(searched.max()),
        "cpu_s": time.process_time() - t0, "load_average": os.getloadavg(),
    }


def main(argv: "list[str] | None" = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="two-player")
    ap.add_argument("--deals", type=int, default=200, help="seeded walls, each played from every seat")
    ap.add_argument("--budget", type=int, default=None,
                    help=f"engine steps of play-outs per decision (SearchBot(steps=...); default by players: {DEFAULT_STEPS})")
    ap.add_argument("--seed", type=int, default=1, help="first wall's seed (and the bot's seed)")
    ap.add_argument("--objective", default="net", choices=OBJECTIVES)
    ap.add_argument("--candidates", type=int, default=3, help="advisor's discards weighed")
    ap.add_argument("--opponents", default=None, choices=OPPONENT_MODELS,
                    help="SearchBot(opponents=...); default: by players (DEFAULT_OPPONENTS)")
    ap.add_argument("--anchor", default="auto", choices=ANCHORS, help="SearchBot(anchor=...)")
    ap.add_argument("--z", type=float, default=2.0, help="SearchBot(z=...)")
    ap.add_argument("--bot", default="search", choices=("search", "advisor"))
    ap.add_argument("--progress", type=int, default=0, help="print the running difference every N deals (0: never)")
    a = ap.parse_args(argv)
    f = run(a.ruleset, a.deals, a.budget, a.seed, a.objective, a.candidates, a.bot, a.progress, a.opponents, a.anchor, a.z)
    wm, wh = f["win_rate_diff"]
    pm, ph = f["points_diff"]
    print(f"{f['ruleset']}: {f['deals']} deals (seeds {a.seed}..{a.seed + a.deals - 1}) x {f['rounds'] // f['deals'] - 1} "
          f"seats, {f['bot']} (budget {f['budget'] or 'default'} steps, objective {f['objective']}) vs greedy, "
          f"opponents {a.opponents or 'default'}, anchor {a.anchor}, z {a.z}, {f['cpu_s']:.0f} s CPU")
    print(f"win rate: {f['bot']} {f['bot_win_rate']:.3f}, greedy in the same seats {f['greedy_win_rate']:.3f}, "
          f"difference {wm:+.3f} ± {wh:.3f} (95 %)")
    print(f"points per round: {f['bot']} {f['bot_points']:+.3f}, greedy {f['greedy_points']:+.3f}, "
          f"difference {pm:+.3f} ± {ph:.3f} (95 %)")
    print(f"CPU per decision: {f['cpu_ms_mean']:.1f} ms mean over {f['decisions']} decisions; "
          f"searched {f['searched']}: mean {f['cpu_ms_searched_mean']:.1f} ms, p95 {f['cpu_ms_p95']:.1f} ms, "
          f"max {f['cpu_ms_max']:.1f} ms")
    la = f["load_average"]
    print(f"load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
