"""The advisor bot (discards by fan-aware shanten) against the greedy bot, over seeded rounds.

    python bench/bench_advisor_bot.py [--ruleset two-player] [--rounds N] [--seed S] [--max-draws D]

Each seed is played twice with the same wall: the advisor bot at seat 0 and the greedy bot at the
other seats, then the advisor at seat 1 (two-player) / the next seat (public), so every
wall is seen from both chairs.  Reported: the advisor seat's win rate and the win rate of the same
seat when a greedy bot sits there (the two-player case: its opponent's), each with a 95 %
normal-approximation interval, and the paired difference (advisor win - greedy win of the same
seat on the same wall) with its 95 % interval.  One run, one core.
"""

from __future__ import annotations

import argparse
import math
import time

from mahjong_core.families.mahjong.advise_bot import AdvisorBot
from mahjong_core.game.bots import play_steps

import mahjong_core as mj


def ci(p: float, n: int) -> float:
    return 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)


def play(ruleset: str, seed: int, seat: int, bot: object) -> tuple[bool, bool]:
    """(the chosen seat won, anybody won) of one round with ``bot`` at ``seat``."""
    rnd = mj.Round(ruleset=ruleset, seed=seed)
    bots = [mj.GreedyBot() for _ in range(rnd.players)]
    bots[seat] = bot  # type: ignore[call-overload]
    play_steps(rnd, bots, 10_000)
    winners = {w["seat"] for w in rnd.result.to_dict().get("winners", [])} if rnd.result else set()
    return seat in winners, bool(winners)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="two-player")
    ap.add_argument("--rounds", type=int, default=200, help="seeds (each played with the advisor and without)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-draws", type=int, default=4)
    ap.add_argument("--progress", type=int, default=0, help="print running totals every N seeds (0: never)")
    args = ap.parse_args()
    advisor = AdvisorBot(max_draws=args.max_draws)
    players = mj.get_ruleset(args.ruleset).players
    adv_wins = greedy_wins = 0
    diffs = []
    t0 = time.perf_counter()
    for i in range(args.rounds):
        seed = args.seed + i
        seat = i % players
        a, _ = play(args.ruleset, seed, seat, advisor)
        g, _ = play(args.ruleset, seed, seat, mj.GreedyBot())
        adv_wins += a
        greedy_wins += g
        diffs.append(int(a) - int(g))
        if args.progress and (i + 1) % args.progress == 0:
            print(f"  {i + 1} seeds: advisor {adv_wins}, greedy {greedy_wins} wins", flush=True)
    n = args.rounds
    pa, pg = adv_wins / n, greedy_wins / n
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1))
    print(f"{args.ruleset}: {n} seeds (seeds {args.seed}..{args.seed + n - 1}), {time.perf_counter() - t0:.0f} s")
    print(f"advisor seat win rate {pa:.3f} ± {ci(pa, n):.3f}  (greedy bot in the same seat, same walls: "
          f"{pg:.3f} ± {ci(pg, n):.3f})")
    print(f"paired difference {mean:+.3f} ± {1.96 * sd / math.sqrt(n):.3f} (95 %)")


if __name__ == "__main__":
    main()
