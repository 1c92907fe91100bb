"""The long-card property run of spec changpai.md 8.5 at full size: seeded RuleBot hands (10,000 by
default) on the reference engine, every property checked on every hand.  The test suite keeps a few
dozen hands (tests/longcard/test_lc_round_properties.py); this script is run by hand and its figures
are reported, not asserted in CI.

    PYTHONPATH=python python tools/lc_property_run.py [--hands 10000] [--first-seed 0] [--views 3]
    PYTHONPATH=python python tools/lc_property_run.py --seeds 1304,1748   # those hands only

Per hand ``Round(seed)`` (seeds first-seed .. first-seed + hands - 1, default options), three RuleBots:

- at every step: every card in exactly one place (``card_census``: each face 5 times, 财神 caishen_count)
  and the card total 105 + caishen_count; hand sizes (20 each, 21 for the seat about to discard or a
  seat holding the banker's extra card before play);
- at ``--views`` random steps: the views of a seat are unchanged when hidden cards are swapped (a card
  of another seat's concealed hand with an unseen stock card, and between the two other hands);
- at the end: no seat to act, every legal mask empty, PASS/HU/FOLD/a discard refused for every seat
  with the state unchanged; ``to_json`` -> ``from_json`` and ``replay`` give the same state and JSON;
  the deltas sum to 0; the payments through a shared :class:`~mahjong_core.settlement.Ledger` keep its
  total; how the hand ended (the spec requires that no RuleBot hand ends in 包子).

Prints one line of figures per 1,000 hands and a summary; exits 1 if any property failed.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from collections import Counter
from typing import Any

import numpy as np
from mahjong_core.errors import IllegalActionError
from mahjong_core.families.longcard.cards import CAISHEN, COPIES, N_FACES
from mahjong_core.families.longcard.round_actions import FOLD, HU, PASS
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.families.longcard.round_settlement import ledger_requests
from mahjong_core.settlement import Ledger

PLAYERS = ("A", "B", "C")
OPENING = 10**9


def census_and_sizes(r: Round) -> str | None:
    """What is wrong with where the cards are and how many each seat holds, or None."""
    expected = [COPIES] * N_FACES + [r.settings.caishen_count]
    if r.card_census() != expected:
        return f"card census {r.card_census()}"
    on_offer = 1 if r.phase == "claim" else 0
    total = (sum(map(sum, r.hands)) + sum(r.caishen) + sum(map(len, r.tangzi)) + r.stock_left + on_offer
             + sum(len(g.cards) for gs in r.groups for g in gs))
    if total != 105 + r.settings.caishen_count:
        return f"{total} cards"
    for p in range(3):
        e = r.effective(p)
        if r.folded[p] or r.phase == "end":
            continue
        if r.phase == "qi" or (r.phase == "stay" and not r.started):
            ok = e in (20, 21)
        elif r.phase == "discard":
            ok = e == (21 if p == r.actor else 20)
        else:
            ok = e == 20
        if not ok:
            return f"seat {p} holds {e} in phase {r.phase}"
    return None


def views_leak(r: Round, rng: np.random.Generator) -> str | None:
    """Swap hidden cards (another seat's concealed card with an unseen stock card; then a card between
    the two other hands); the seat's view must not change.  None when nothing leaked."""
    seat = int(rng.integers(3))
    other, third = [q for q in range(3) if q != seat][:: 1 if rng.integers(2) else -1]
    unseen = [j for j in range(max(r.pos, 61), len(r.stock) - 1) if r.stock[j] != CAISHEN]
    held = [f for f in range(N_FACES) if r.hands[other][f]]
    if not unseen or not held:
        return None
    before = r.view(seat)
    r2 = copy.deepcopy(r)
    j, f = int(rng.choice(unseen)), int(rng.choice(held))
    g = r2.stock[j]
    r2.hands[other][f] -= 1
    r2.hands[other][g] += 1
    r2.stock[j] = f
    if r2.view(seat) != before:
        return f"seat {seat}'s view changed when seat {other}'s {f} and stock[{j}] = {g} swapped"
    x = next((x for x in range(N_FACES) if r2.hands[third][x] and x != g), None)
    if x is not None and r2.hands[other][g]:
        r2.hands[other][g] -= 1
        r2.hands[third][g] += 1
        r2.hands[third][x] -= 1
        r2.hands[other][x] += 1
        if r2.view(seat) != before:
            return f"seat {seat}'s view changed when seats {other} and {third} swapped {g} and {x}"
    return None


def after_the_end(r: Round) -> str | None:
    if r.seats_to_act() or any(r.legal_mask(p).any() for p in range(3)):
        return "a seat may still act after the end"
    before = r.snapshot()
    face = next(f for f in range(N_FACES) if r.hands[0][f] or r.hands[1][f] or r.hands[2][f])
    for p in range(3):
        for a in (PASS, HU, FOLD, face):
            try:
                r.step(p, a)
            except IllegalActionError:
                continue
            return f"seat {p}'s action {a} accepted after the end"
    return None if r.snapshot() == before else "a refused action changed the state"


def round_trips(r: Round) -> str | None:
    text = r.to_json()
    again = Round.from_json(text)
    if again.snapshot() != r.snapshot() or again.to_json() != text:
        return "from_json(to_json()) differs"
    if Round.replay(json.loads(text)).snapshot() != r.snapshot():
        return "replay differs"
    return None


def play_hand(seed: int, views: int) -> tuple[Round, int, int, str | None]:
    """Play hand ``seed`` with three RuleBots, checking at every step: (hand, steps, views checked,
    the first problem or None)."""
    rng = np.random.default_rng(seed)
    r = Round(seed)
    bots = [RuleBot(r.settings) for _ in range(3)]
    at = set(rng.integers(0, 120, views).tolist())
    k = checked = 0
    problem = census_and_sizes(r)
    while problem is None and r.seats_to_act():
        p = r.seats_to_act()[0]
        r.step(p, bots[p].choose(r.view(p), r.legal_mask(p), r.penalised_mask(p)))
        k += 1
        problem = census_and_sizes(r)
        if problem is None and k in at and r.phase != "end":
            checked += 1
            problem = views_leak(r, rng)
    if problem is None and r.result is None:
        problem = "no result"
    if problem is None:
        problem = after_the_end(r) or round_trips(r)
    if problem is None and sum(r.result["deltas"]) != 0:
        problem = f"deltas {r.result['deltas']} do not sum to 0"
    return r, k, checked, problem


def run(hands: int, first_seed: int, views: int, out: Any = sys.stdout, seeds: list[int] | None = None
        ) -> dict[str, Any]:
    ledger = Ledger(dict.fromkeys(PLAYERS, OPENING))
    total = ledger.total
    ends: Counter[str] = Counter()
    baozi: list[tuple[int, str]] = []
    failures: list[tuple[int, str]] = []
    steps = views_checked = 0
    t0 = time.perf_counter()
    seeds = list(range(first_seed, first_seed + hands)) if seeds is None else seeds
    hands = len(seeds)
    for done, seed in enumerate(seeds, 1):
        res: dict[str, Any] = {}
        try:
            r, k, checked, problem = play_hand(seed, views)
            res = r.result or {}
        except Exception as exc:  # noqa: BLE001  # any engine error is a failure of the run, not its end
            k, checked, problem = 0, 0, f"{type(exc).__name__}: {exc}"
        steps += k
        views_checked += checked
        if problem is None:
            ledger.apply(ledger_requests(res, PLAYERS), round=seed)
            if ledger.total != total or min(ledger.balances.values()) < 0:
                problem = f"ledger total {ledger.total} (was {total}) or a negative balance"
        if problem is not None:
            failures.append((seed, problem))
        else:
            ends[res["end"]] += 1
            if res["end"] == "baozi":
                baozi.append((seed, f"{res['cause']} seat {res['offender']}"))
        if done % 1000 == 0 or done == hands:
            print(f"{done:>6} hands  {time.perf_counter() - t0:7.1f} s  ends {dict(sorted(ends.items()))}  "
                  f"failures {len(failures)}", file=out, flush=True)
    summary = {"hands": hands, "first_seed": seeds[0] if seeds else first_seed, "steps": steps, "views_checked": views_checked,
               "ends": dict(sorted(ends.items())), "baozi": baozi, "failures": failures[:20],
               "failure_count": len(failures), "ledger_total": ledger.total, "ledger_total_start": total,
               "seconds": round(time.perf_counter() - t0, 1)}
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--views", type=int, default=3, help="steps per hand at which views are checked")
    ap.add_argument("--seeds", help="comma-separated seeds to play instead of --hands from --first-seed")
    args = ap.parse_args(argv)
    seeds = None if args.seeds is None else [int(x) for x in args.seeds.split(",")]
    what = f"seeds {args.seeds}" if seeds else f"{args.hands} RuleBot hands from seed {args.first_seed}"
    print(f"# {what}, load {os.getloadavg()[0]:.1f}", flush=True)
    summary = run(args.hands, args.first_seed, args.views, seeds=seeds)
    print(json.dumps(summary, ensure_ascii=False))
    return 1 if summary["failure_count"] else 0


if __name__ == "__main__":
    sys.exit(main())
