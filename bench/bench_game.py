"""Full rounds per second on one core: the shipped round engine against the pure-Python
reference engine, as ratios from one run on the same seeds.

    python bench/bench_game.py [--rounds N] [--quick]

For each configuration (ruleset x bots) every implementation plays the rounds of the same
seeds (``SEED .. SEED + N - 1``); random bots get the same per-seat seeds and are created
afresh for every pass, so equal engines play equal games.  A timed round includes building
the :class:`Round` from its seed and reading its result.

* shipped: ``mahjong_core.Round`` with the built-in bots through ``play_round``;
* server path: a plain Python loop over the public API of the shipped ``Round`` -- per step
  ``seats_to_act()``, ``legal_indices(seat)`` (what a server sends to the client), the bot's
  ``act_index`` and ``step(seat, index)`` -- i.e. what driving the engine from Python costs
  per step (reported as us/step, with the average number of steps per round);
* reference: ``mahjong_core.families.mahjong._ref.round.Round`` with ``mahjong_core.families.mahjong._ref.bots`` on the
  first N/10 seeds (it is the slow oracle).

Every figure is the best of 3 timed passes after a warm-up (garbage collection stays on, as in
a server).  ``ratio`` = shipped rounds/s / reference rounds/s over the reference's seeds (the
shipped passes time their first N/10 rounds separately), so both play the same games.  ``same``
counts the reference rounds whose result (``RoundResult.to_dict()``) equals the shipped one.
The issue target is two-player greedy >= 10 000 rounds/s per core (shipped, play_round).
"""

from __future__ import annotations

import argparse
import gc
import platform
import time
from types import SimpleNamespace
from typing import Any, Callable, Sequence

import mahjong_core as mj
from mahjong_core import game as shipped_game
from mahjong_core.families.mahjong import api as shipped_api
from mahjong_core.families.mahjong._ref import bots as ref_bots
from mahjong_core.families.mahjong._ref import round as ref_round

SEED = 18          # first round seed; round i plays seed SEED + i
BOT_SEED = 1000    # RandomBot of seat s gets seed BOT_SEED + s
TARGET = 10_000    # issue target: two-player greedy rounds/s per core
REPEAT = 3         # every figure is the best of REPEAT timed passes
WARMUP = 20        # warm-up rounds before timing each implementation

# (label, ruleset, bot kind, players)
CONFIGS = [
    ("two-player greedy x2", "two-player", "greedy", 2),
    ("two-player-bamboo greedy x2", "two-player-bamboo", "greedy", 2),
    ("public greedy x4", "public", "greedy", 4),
    ("two-player random x2", "two-player", "random", 2),
    ("public random x4", "public", "random", 4),
]
TARGET_LABEL = "two-player greedy x2"

SHIPPED = SimpleNamespace(name="shipped", Round=shipped_api.Round, GreedyBot=shipped_api.GreedyBot,
                          RandomBot=shipped_api.RandomBot, play_round=shipped_game.play_round)
REFERENCE = SimpleNamespace(name="reference", Round=ref_round.Round, GreedyBot=ref_bots.GreedyBot,
                            RandomBot=ref_bots.RandomBot, play_round=ref_bots.play_round)


def make_bots(impl: Any, kind: str, players: int) -> list:
    """Fresh bots for one pass (random bots restart their streams)."""
    if kind == "greedy":
        return [impl.GreedyBot() for _ in range(players)]
    if kind == "random":
        return [impl.RandomBot(BOT_SEED + s) for s in range(players)]
    raise ValueError(f"unknown bot kind {kind!r}")


def serve_round(rnd: Any, bots: Sequence[Any], max_steps: int = 10_000) -> "tuple[Any, int]":
    """Drive ``rnd`` to its end through the public API the way a server does; returns
    (result, steps).  Acts for the first seat to act, like ``play_round``, so the game is the same."""
    steps = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        i = bots[seat].act_index(rnd, seat)
        if i not in legal:  # pragma: no cover - a bot / engine bug
            raise RuntimeError(f"bot chose illegal index {i} for seat {seat}")
        rnd.step(seat, i)
        steps += 1
        if steps > max_steps:  # pragma: no cover - a flow bug
            raise RuntimeError("round did not finish")
    return rnd.result, steps


def _pass_play(impl: Any, ruleset: str, kind: str, players: int, seeds: Sequence[int],
               prefix: int = 0) -> "tuple[float, list, float]":
    """One timed pass of play_round over ``seeds``: (seconds, results, seconds of the first
    ``prefix`` rounds -- the reference's seeds, so the ratio compares the same games)."""
    Round, play_round = impl.Round, impl.play_round
    bots = make_bots(impl, kind, players)
    out = []
    t_prefix = 0.0
    gc.collect()
    t = time.perf_counter()
    for j, s in enumerate(seeds):
        if j == prefix:
            t_prefix = time.perf_counter() - t
        out.append(play_round(Round(ruleset, seed=s), bots))
    dt = time.perf_counter() - t
    return dt, out, (t_prefix if 0 < prefix < len(seeds) else dt)


def _pass_serve(impl: Any, ruleset: str, kind: str, players: int, seeds: Sequence[int]) -> "tuple[float, list, int]":
    """One timed pass of the server loop over ``seeds``: (seconds, results, total steps)."""
    Round = impl.Round
    bots = make_bots(impl, kind, players)
    out = []
    steps = 0
    gc.collect()
    t = time.perf_counter()
    for s in seeds:
        res, n = serve_round(Round(ruleset, seed=s), bots)
        out.append(res)
        steps += n
    return time.perf_counter() - t, out, steps


def _best(fn: Callable[[], tuple], repeat: int) -> tuple:
    """Best of ``repeat`` passes: every timing (tuple items that are floats) is the minimum over
    the passes; every pass must give the same results."""
    best = None
    for _ in range(repeat):
        r = fn()
        if best is None:
            best = list(r)
            continue
        if [x.to_dict() for x in r[1]] != [x.to_dict() for x in best[1]]:
            raise RuntimeError("two passes over the same seeds gave different results")
        best = [min(a, b) if isinstance(a, float) else a for a, b in zip(best, r)]
    return tuple(best)


def _same(a: Sequence[Any], b: Sequence[Any]) -> int:
    return sum(x.to_dict() == y.to_dict() for x, y in zip(a, b))


def _steps(impl: Any, ruleset: str, kind: str, players: int, seeds: Sequence[int]) -> int:
    """Total steps of the rounds of ``seeds`` (untimed; counted by the server loop)."""
    bots = make_bots(impl, kind, players)
    return sum(serve_round(impl.Round(ruleset, seed=s), bots)[1] for s in seeds)


def measure(label: str, ruleset: str, kind: str, players: int, n: int, n_ref: int,
            repeat: int = REPEAT) -> dict:
    seeds = list(range(SEED, SEED + n))
    ref_seeds = seeds[:n_ref]
    warm = seeds[: min(WARMUP, n)]
    # shipped, play_round
    _pass_play(SHIPPED, ruleset, kind, players, warm)
    t_play, res_play, t_play_ref = _best(
        lambda: _pass_play(SHIPPED, ruleset, kind, players, seeds, n_ref), repeat)
    # shipped, server path
    _pass_serve(SHIPPED, ruleset, kind, players, warm)
    t_serve, res_serve, steps = _best(lambda: _pass_serve(SHIPPED, ruleset, kind, players, seeds), repeat)
    # reference, play_round
    _pass_play(REFERENCE, ruleset, kind, players, ref_seeds[: min(WARMUP, n_ref)])
    t_ref, res_ref, _ = _best(lambda: _pass_play(REFERENCE, ruleset, kind, players, ref_seeds), repeat)
    ref_steps = _steps(REFERENCE, ruleset, kind, players, ref_seeds)
    shipped_ref_steps = _steps(SHIPPED, ruleset, kind, players, ref_seeds)
    shipped = n / t_play
    shipped_on_ref = n_ref / t_play_ref
    reference = n_ref / t_ref
    return {
        "label": label,
        "rounds": n,
        "ref_rounds": n_ref,
        "shipped": shipped,
        "server": n / t_serve,
        "reference": reference,
        "shipped_on_ref_seeds": shipped_on_ref,
        "ratio": shipped_on_ref / reference,
        "steps": steps / n,
        "ref_steps": ref_steps / n_ref,
        "shipped_steps_on_ref_seeds": shipped_ref_steps / n_ref,
        "server_us_per_step": t_serve / steps * 1e6,
        "play_us_per_step": t_play / steps * 1e6,
        "server_same": _same(res_play, res_serve),
        "ref_same": _same(res_play[:n_ref], res_ref),
    }


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2000,
                    help="rounds per configuration for the shipped engine (reference: 1/10)")
    ap.add_argument("--quick", action="store_true", help="200 rounds per configuration (smoke run)")
    ap.add_argument("--only", default=None, help="run only the configurations whose label contains this")
    args = ap.parse_args(argv)
    n = 200 if args.quick else args.rounds
    if n < 1:
        ap.error("--rounds must be positive")
    n_ref = max(n // 10, min(n, 20))

    rows = [measure(label, ruleset, kind, players, n, n_ref)
            for label, ruleset, kind, players in CONFIGS if args.only is None or args.only in label]

    print(f"mahjong-core {mj.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"one core, {n:,} rounds per configuration (reference {n_ref:,}), seeds {SEED}.., "
          f"best of {REPEAT}")
    head = (f"{'configuration':<28} {'shipped r/s':>12} {'server r/s':>11} {'shipped@ref':>12} {'reference r/s':>14} "
            f"{'ratio':>7} {'steps/rd':>9} {'server us/step':>15} {'same':>11}")
    print(head)
    print("-" * len(head))
    for r in rows:
        same = f"{r['ref_same']}/{r['ref_rounds']}"
        print(f"{r['label']:<28} {r['shipped']:>12,.0f} {r['server']:>11,.0f} "
              f"{r['shipped_on_ref_seeds']:>12,.0f} {r['reference']:>14,.0f} "
              f"{r['ratio']:>7.2f} {r['steps']:>9.1f} {r['server_us_per_step']:>15.1f} {same:>11}")
    print("shipped@ref = shipped (play_round) rounds/s on the reference's seeds (the first rounds of "
          "the shipped passes); ratio = shipped@ref / reference, same run, same games;\n"
          "same = reference rounds with the shipped result; server = the public-API loop, "
          "us/step its time per step")
    for r in rows:
        if r["server_same"] != r["rounds"]:
            print(f"  note: {r['label']}: the server path and play_round differ on "
                  f"{r['rounds'] - r['server_same']} of {r['rounds']} rounds")
        if r["ref_same"] != r["ref_rounds"]:
            print(f"  note: {r['label']}: shipped and reference results differ on "
                  f"{r['ref_rounds'] - r['ref_same']} of {r['ref_rounds']} seeds "
                  f"(steps/round on those seeds {r['shipped_steps_on_ref_seeds']:.1f} shipped vs "
                  f"{r['ref_steps']:.1f} reference), "
                  f"so its ratio compares different games")
    figures: dict[str, Any] = {}
    for r in rows:
        for k in ("shipped", "shipped_on_ref_seeds", "server", "reference", "ratio", "steps", "ref_steps", "server_us_per_step",
                  "play_us_per_step", "server_same", "ref_same"):
            figures[f"{r['label']} | {k}"] = r[k]
    tgt = next((r for r in rows if r["label"] == TARGET_LABEL), None)
    if tgt is not None:
        met = tgt["shipped"] >= TARGET
        print(f"two-player greedy rounds/s per core >= {TARGET:,}: {'met' if met else 'not met'} "
              f"({tgt['shipped']:,.0f})")
        figures["target_met"] = met
    return figures


if __name__ == "__main__":
    main()
