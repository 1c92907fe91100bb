#!/usr/bin/env python3
"""The ladder: every pair of bots in every ruleset, by duplicate-deal tournaments, as a Markdown table.

    python tools/ladder.py [--rulesets two-player,two-player-bamboo,public,mcr,changpai-ydr]
                           [--bots random,greedy,advisor,search] [--deals 300]
                           [--deals-for public=100 --deals-for mcr=40 ...] [--seed 11]

Each table is one :func:`mahjong_core.tournament` run (what ``mahjong-core tournament`` runs: the
same duplicate deals, intervals and ratings), in this process, one worker:

- a two-player ruleset: one tournament per pair of bots (both seatings of every deal);
- a four-player ruleset: one table of the four bots, every rotation of every deal; the runner's
  paired per-deal differences give every pair from that one table;
- a three-player ruleset (``changpai-ydr``): one table per three of the bots (every rotation), so
  each pair is measured at two tables, against a different third bot; both rows are printed.

Printed per pair: the deals, the first bot's lead over the second in win rate and in points per
round with their 95 % intervals (the runner's), and per bot the CPU time of its decisions
(``time.process_time`` around each ``act_index``: mean, 95th percentile and maximum over every
decision it took at that table; the greedy and random bots, which play whole rounds in the engine
when every seat is one of them, are timed one decision at a time here; each table first plays one
untimed deal of another seed, so that the tables a process builds once are not counted as a
decision's cost).  Then the load average.
``tests/tournament/test_ladder.py`` smoke-runs it with tiny deals.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

HERE = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("mahjong_core") is None and str(HERE / "python") not in sys.path:
    # a source tree built in place, run as a script; never when the package is importable (a test
    # that imports this module must not put the uncompiled tree before the installed package)
    sys.path.insert(0, str(HERE / "python"))

import numpy as np  # noqa: E402

import mahjong_core as mj  # noqa: E402
from mahjong_core.errors import MahjongError  # noqa: E402
from mahjong_core.families.registry import family_of, get_ruleset  # noqa: E402

RULESETS = ("two-player", "two-player-bamboo", "public", "mcr", "changpai-ydr")
BOTS = ("random", "greedy", "advisor", "search")


class _Timed:
    """A named bot whose decisions are timed (CPU, one by one) into a list shared by its copies.

    The runner deep-copies a bot object for every batch; a copy here is a new bot of the same name
    made by the family's factory with the next seed of a counter its copies share (runs in one
    process are reproducible: the batches are played in order)."""

    name = "?"

    def __init__(self, factory: Callable[[int], Any], seeds: "itertools.count[int]", cpu_ms: list[float]) -> None:
        self._factory = factory
        self._seeds = seeds
        self.cpu_ms = cpu_ms
        self.bot = factory(next(seeds))

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Timed":
        return type(self)(self._factory, self._seeds, self.cpu_ms)

    def act_index(self, rnd: Any, seat: int) -> int:
        t = time.process_time()
        i = int(self.bot.act_index(rnd, seat))
        self.cpu_ms.append((time.process_time() - t) * 1000)
        return i

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def timed_bot(ruleset: str, name: str, seed: int) -> _Timed:
    """A timed bot of ``ruleset``'s family by ``name`` (its label in the result is ``name``)."""
    factory = family_of(ruleset).bots[name]
    cls = type(f"Timed_{name}", (_Timed,), {"name": name})
    bot: _Timed = cls(factory, itertools.count(seed * 1000), [])
    return bot


def tables(players: int, bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The bots at each table of a ruleset with ``players`` seats (module docstring)."""
    if players == 2 or len(bots) == 2:
        return list(itertools.combinations(bots, 2))
    if len(bots) == players:
        return [tuple(bots)]
    if len(bots) > players:
        return list(itertools.combinations(bots, players))
    raise SystemExit(f"{len(bots)} bots do not fill a table of {players}")


def _ci(m: float, lo: "float | None", hi: "float | None", digits: int) -> str:
    if lo is None or hi is None:
        return f"{m:+.{digits}f}"
    return f"{m:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def _cpu(ms: list[float]) -> str:
    if not ms:
        return "–"
    a = np.asarray(ms)
    return f"{a.mean():.2f} / {np.percentile(a, 95):.2f} / {a.max():.1f}"


def run(rulesets: Sequence[str], bots: Sequence[str], deals: dict[str, int], seed: int,
        out: Callable[[str], object] = print) -> list[dict[str, Any]]:
    """Play every table and print the Markdown table row by row; returns the rows."""
    rows: list[dict[str, Any]] = []
    out("| ruleset | table | a vs b | deals | win-rate difference, a − b (95 %) | points per round, a − b (95 %) "
        "| CPU ms per decision of a: mean / p95 / max | of b |")
    out("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for rs in rulesets:
        players = get_ruleset(rs).players
        for table in tables(players, bots):
            entries = [timed_bot(rs, b, seed) for b in table]
            # one deal of another seed first, untimed: the first decisions of a process build
            # tables once (the advisors' fan tables), which is no cost of a decision
            mj.tournament(rs, entries, deals=1, seed=seed + 1, workers=1, bootstrap=0)
            for e in entries:
                e.cpu_ms.clear()
            t0 = time.process_time()
            result = mj.tournament(rs, entries, deals=deals[rs], seed=seed, workers=1, bootstrap=0)
            cpu_s = time.process_time() - t0
            cpu = {b: e.cpu_ms for b, e in zip(table, entries)}
            for p in result.pair_rows():
                row = {"ruleset": rs, "table": table, "cpu_s": cpu_s, **p,
                       "cpu_a": cpu[p["a"]], "cpu_b": cpu[p["b"]]}
                rows.append(row)
                out(f"| `{rs}` | {', '.join(table)} | {p['a']} vs {p['b']} | {p['deals']} "
                    f"| {_ci(p['win_rate_diff'], p['win_rate_diff_low'], p['win_rate_diff_high'], 3)} "
                    f"| {_ci(p['points_diff'], p['points_diff_low'], p['points_diff_high'], 2)} "
                    f"| {_cpu(row['cpu_a'])} | {_cpu(row['cpu_b'])} |")
    return rows


def main(argv: "list[str] | None" = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rulesets", default=",".join(RULESETS), help="comma-separated rulesets")
    ap.add_argument("--bots", default=",".join(BOTS), help="comma-separated bot names (each family's)")
    ap.add_argument("--deals", type=int, default=300, help="duplicate deals per table")
    ap.add_argument("--deals-for", action="append", default=[], metavar="RULESET=N",
                    help="deals per table of one ruleset (repeatable)")
    ap.add_argument("--seed", type=int, default=11, help="the tournaments' seed")
    a = ap.parse_args(argv)
    rulesets = [r for r in a.rulesets.split(",") if r]
    bots = [b for b in a.bots.split(",") if b]
    if a.deals < 1:
        ap.error(f"--deals {a.deals}: expected N >= 1")
    for r in rulesets:
        try:
            family_of(r)
        except MahjongError as exc:
            ap.error(str(exc))
    deals = {r: a.deals for r in rulesets}
    for item in a.deals_for:
        r, _, n = item.partition("=")
        if r not in deals or not n.isdigit() or int(n) < 1:
            ap.error(f"--deals-for {item!r}: expected RULESET=N with a ruleset of --rulesets and N >= 1")
        deals[r] = int(n)
    for r in rulesets:
        missing = [b for b in bots if b not in family_of(r).bots]
        if missing:
            ap.error(f"{r} has no bot {', '.join(missing)}")
    t0 = time.process_time()
    run(rulesets, bots, deals, a.seed)
    la = os.getloadavg()
    print(f"\n{time.process_time() - t0:.0f} s CPU; load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
