"""How exactly our bots play as Botzone programs: rounds with one seat played by the wrapper
(``mahjong-core botzone-bot``, a kept-alive subprocess under :class:`BotzoneBot`) against the same
rounds with that bot in process; every round must end the same (the wrapper's world, rebuilt
from the Botzone history alone, gives the bot the decisions it has in process).

    PYTHONPATH=python python tools/botzone_fidelity.py --bot greedy --rounds 40

Prints one line per bot and exits 1 if any round differs.  tests/botzone/test_fidelity.py runs it
on one round.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import mahjong_core as mj
from mahjong_core.families.mahjong.botzone import BotzoneBot, make_bot, play_game
from mahjong_core.families.mahjong.botzone.protocol import BOTZONE_RULESET


def run(bot: str, rounds: int, ruleset: str, seed: int) -> tuple[int, int, float]:
    """(rounds that ended the same, rounds, seconds)."""
    program = [sys.executable, "-m", "mahjong_core", "botzone-bot", "--bot", bot, "--ruleset", ruleset,
               "--seed", "7"]
    same, start = 0, time.monotonic()
    for k in range(rounds):
        seat, dealer = k % 4, (k * 3 + 1) % 4
        others = ["greedy", "random", "greedy", "random"]
        with BotzoneBot(program, keep_running=True, time_limit=30, kept_time_limit=10) as outside:
            bots: list[Any] = list(others)
            bots[seat] = outside
            out = play_game(mj.Round(ruleset, seed=seed + k, dealer=dealer), bots)
        inside: list[Any] = list(others)
        inside[seat] = make_bot(bot, 7)
        ref: Any = mj.Round(ruleset, seed=seed + k, dealer=dealer)
        mj.play_round(ref, inside)
        fallbacks = [d for d in outside.record if "fallback" in d.note]
        if out.result is not None and out.result.to_dict() == ref.result.to_dict() and not fallbacks:
            same += 1
        else:
            print(f"  round {k} (seed {seed + k}, seat {seat}): {out.forfeit or out.result} vs {ref.result}; "
                  f"wrapper fallbacks: {[d.note for d in fallbacks][:3]}")
    return same, rounds, time.monotonic() - start


def main(argv: "list[str] | None" = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", action="append", choices=("greedy", "random", "advisor"))
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--ruleset", default=BOTZONE_RULESET)
    p.add_argument("--seed", type=int, default=1000)
    args = p.parse_args(argv)
    bad = 0
    for bot in args.bot or ["greedy"]:
        same, n, took = run(bot, args.rounds, args.ruleset, args.seed)
        print(f"{bot}: {same} of {n} rounds the same as in process ({took:.1f} s)")
        bad += n - same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
