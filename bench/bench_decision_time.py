"""CPU time per decision of the default search bot, over many decision points of seeded rounds.

    python bench/bench_decision_time.py [--ruleset R ...] [--deals N] [--seed S] [--every K]
                                        [--steps STEPS] [--save FILE] [--compare FILE]

For each ruleset and each deal (seeds S, S+1, ...) a round is played by the baseline bots (the
greedy bot in a mahjong ruleset, the compiled RuleBot in ``changpai-ydr``); at every ``K``-th
decision point of a seat with a real choice (several legal actions and no win offered) the
search bot made by name with the default budget (``make_bots(["search"], seed=...)``, the same as
``"search"`` anywhere; a fresh bot seeded from the deal and the point, so that each decision is
reproducible on its own) decides, timed with ``time.process_time``; the round then goes on with
the baseline's action, so the points are the same whatever the bot chose, or with
``--self-play`` with the bot's action (with ``--every 1``: rounds of search bots in every seat,
whose hands are those the bot plays into, such as the fan-seeking hands of its advisor).

Printed per ruleset: the decisions timed, CPU per decision (mean, p95, max), how many passed
50 ms, and the slowest decision (the deal's seed, the point's index, the seat, and what the bot
spent: worlds, play-outs, steps and the advisor's work); then the ``--retime`` slowest decisions
timed three more times each (the same decision: the bot is reproducible), the largest of their
least times (on a loaded machine a decision's CPU time varies by half or more from run to run);
the load average.  The times are those
of one core of this machine under its load; the bot's choices do not depend on either (no cap).

``--save FILE`` writes every decision (ruleset, seed, point, chosen action) as JSON;
``--compare FILE`` reads such a file and says how many decisions differ from it (run it before
and after a change of the bot on the same points: the same seeds, ``--every`` and rulesets).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from mahjong_core.families.mahjong._constants import A_WIN
from mahjong_core.game.bots import make_bots

import mahjong_core as mj

MAHJONG = ("two-player", "two-player-bamboo", "public", "mcr")
LONGCARD = "changpai-ydr"
TARGET_MS = 50.0


def _bot_seed(seed: int, point: int) -> int:
    return seed * 10_000 + point


def mahjong_points(ruleset: str, seed: int, every: int, played: dict[int, int] | None = None
                   ) -> Iterator[tuple[int, Any, int]]:
    """(point index, round, seat) at every ``every``-th decision with a real choice of a round
    played by greedy bots (the same round object, stepped on after each point).  ``played``: the
    actions to play instead at some points (filled in by the caller while it holds the point)."""
    rnd = mj.Round(ruleset=ruleset, seed=seed)
    greedy = mj.GreedyBot()
    k = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        action = None
        if len(legal) > 1 and A_WIN not in legal:
            if k % every == 0:
                yield k, rnd, seat
                action = None if played is None else played.get(k)
            k += 1
        rnd.step(seat, greedy.act_index(rnd, seat) if action is None else action)


def _mahjong(ruleset: str, seed: int, every: int, self_play: bool) -> Iterator[dict[str, Any]]:
    played: dict[int, int] = {}
    for k, rnd, seat in mahjong_points(ruleset, seed, every, played if self_play else None):
        (bot,) = make_bots(["search"], seed=_bot_seed(seed, k), ruleset=ruleset)
        t = time.process_time()
        action = int(bot.act_index(rnd, seat))
        ms = (time.process_time() - t) * 1000
        played[k] = action
        yield {"ruleset": ruleset, "seed": seed, "point": k, "seat": seat, "action": action, "ms": ms,
               "spent": dict(bot.last)}


def longcard_points(seed: int, every: int, played: dict[int, int] | None = None
                    ) -> Iterator[tuple[int, Any, int, Any, Any]]:
    """(point index, hand, seat, legal mask, penalised mask) at every ``every``-th decision with
    more than one unpenalised choice of a long-card hand played by the engine's rule policy (the
    same hand object, stepped on after each point).  ``played``: the actions to play instead at
    some points (filled in by the caller while it holds the point)."""
    from mahjong_core.families.longcard.round_engine import CompiledHand

    h = CompiledHand(seed=seed)
    k = 0
    while h.seats_to_act():
        p = h.seats_to_act()[0]
        action = int(h.core.choose("rule"))
        legal, penalised = h.legal_mask(p), h.penalised_mask(p)
        if int((legal & ~penalised).sum()) > 1:
            if k % every == 0:
                yield k, h, p, legal, penalised
                if played is not None and k in played:
                    action = played[k]
            k += 1
        h.step(p, action)


def _longcard(seed: int, every: int, self_play: bool) -> Iterator[dict[str, Any]]:
    from mahjong_core.families.longcard.search_bot import SearchBot as LongCardSearchBot

    played: dict[int, int] = {}
    for k, h, p, legal, penalised in longcard_points(seed, every, played if self_play else None):
        bot = LongCardSearchBot(_bot_seed(seed, k))       # the registered default budget
        t = time.process_time()
        chosen = int(bot.choose_in(h, h.view(p), legal, penalised))
        ms = (time.process_time() - t) * 1000
        played[k] = chosen
        if bot.last_playouts:      # a decision the RuleBot settles (a win, a fold) is not searched
            yield {"ruleset": LONGCARD, "seed": seed, "point": k, "seat": p, "action": chosen, "ms": ms,
                   "spent": {"playouts": bot.last_playouts, "steps": bot.last_steps}}


def run(ruleset: str, deals: int, seed: int = 1, every: int = 1, self_play: bool = False) -> list[dict[str, Any]]:
    """Every timed decision of ``deals`` rounds of ``ruleset`` (see the module docstring)."""
    out: list[dict[str, Any]] = []
    for s in range(seed, seed + deals):
        out.extend(_longcard(s, every, self_play) if ruleset == LONGCARD else _mahjong(ruleset, s, every, self_play))
    return out


def retime(decision: dict[str, Any], decisions: list[dict[str, Any]], every: int, self_play: bool,
           repeats: int = 3) -> float:
    """The least CPU time (ms) of ``repeats`` more runs of one timed decision (the same point, a
    bot of the same seed: the same decision), a figure less disturbed by a loaded machine.
    ``decisions``: the run's decisions (the actions played on at each point with ``self_play``)."""
    ruleset, seed, point = decision["ruleset"], decision["seed"], decision["point"]
    played = {d["point"]: d["action"] for d in decisions if d["ruleset"] == ruleset and d["seed"] == seed}
    best = float("inf")
    if ruleset == LONGCARD:
        from mahjong_core.families.longcard.search_bot import (
            SearchBot as LongCardSearchBot,
        )

        for k, h, p, legal, penalised in longcard_points(seed, every, played if self_play else None):
            if k == point:
                for _ in range(repeats):
                    bot = LongCardSearchBot(_bot_seed(seed, k))
                    t = time.process_time()
                    bot.choose_in(h, h.view(p), legal, penalised)
                    best = min(best, (time.process_time() - t) * 1000)
                return best
        return best
    for k, rnd, seat in mahjong_points(ruleset, seed, every, played if self_play else None):
        if k == point:
            for _ in range(repeats):
                (bot,) = make_bots(["search"], seed=_bot_seed(seed, k), ruleset=ruleset)
                t = time.process_time()
                bot.act_index(rnd, seat)
                best = min(best, (time.process_time() - t) * 1000)
            return best
    return best


def summary(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean, p95 and max of the CPU per decision, the count over 50 ms and the slowest decision."""
    ms = np.array([d["ms"] for d in decisions] or [0.0])
    slowest = max(decisions, key=lambda d: d["ms"]) if decisions else None
    return {"decisions": len(decisions), "mean": float(ms.mean()), "p95": float(np.percentile(ms, 95)),
            "max": float(ms.max()), "over": int((ms > TARGET_MS).sum()), "slowest": slowest}


def compare(decisions: list[dict[str, Any]], before: list[dict[str, Any]]) -> tuple[int, int]:
    """(decisions found in ``before``, how many of them chose another action)."""
    old = {(d["ruleset"], d["seed"], d["point"]): d["action"] for d in before}
    common = [d for d in decisions if (d["ruleset"], d["seed"], d["point"]) in old]
    return len(common), sum(d["action"] != old[(d["ruleset"], d["seed"], d["point"])] for d in common)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", nargs="+", default=list(MAHJONG), choices=MAHJONG + (LONGCARD,))
    ap.add_argument("--deals", type=int, default=20, help="seeded rounds per ruleset")
    ap.add_argument("--seed", type=int, default=1, help="first round's seed")
    ap.add_argument("--every", type=int, default=1, help="time every K-th decision point")
    ap.add_argument("--self-play", action="store_true",
                    help="the round goes on with the search bot's action at each timed point (with --every 1: "
                         "rounds of search bots in every seat) rather than the baseline's")
    ap.add_argument("--retime", type=int, default=5,
                    help="time the N slowest decisions of each ruleset 3 more times and report the least "
                         "(a loaded machine stretches some CPU times; 0: do not)")
    ap.add_argument("--save", help="write every decision as JSON to this file")
    ap.add_argument("--compare", help="count the decisions that differ from this file's (--save)")
    a = ap.parse_args(argv)
    everything: list[dict[str, Any]] = []
    for ruleset in a.ruleset:
        t0 = time.process_time()
        ds = run(ruleset, a.deals, a.seed, a.every, a.self_play)
        everything.extend(ds)
        f = summary(ds)
        print(f"{ruleset}: {f['decisions']} decisions in {a.deals} rounds (seeds {a.seed}..{a.seed + a.deals - 1}"
              f"{', self-play' if a.self_play else ''}), "
              f"CPU per decision: mean {f['mean']:.1f} ms, p95 {f['p95']:.1f} ms, max {f['max']:.1f} ms; "
              f"{f['over']} over {TARGET_MS:.0f} ms; {time.process_time() - t0:.0f} s CPU", flush=True)
        s = f["slowest"]
        if s is not None:
            print(f"  slowest: seed {s['seed']} point {s['point']} seat {s['seat']}, {s['ms']:.1f} ms, "
                  f"spent {s['spent']}", flush=True)
        if a.retime and ds:
            top = sorted(ds, key=lambda d: -d["ms"])[:a.retime]
            again = [(retime(d, ds, a.every, a.self_play), d) for d in top]
            ms, d = max(again, key=lambda x: x[0])
            print(f"  the {len(top)} slowest timed 3 more times, the least of each: max {ms:.1f} ms "
                  f"(seed {d['seed']} point {d['point']}, first {d['ms']:.1f} ms)", flush=True)
    if a.save:
        with open(a.save, "w") as fh:
            json.dump(everything, fh)
    if a.compare:
        with open(a.compare) as fh:
            n, changed = compare(everything, json.load(fh))
        print(f"against {a.compare}: {changed} of {n} decisions changed")
    la = os.getloadavg()
    print(f"load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
