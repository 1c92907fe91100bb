"""The per-call public API against the peers (issue 14): every target ratio in one table, from one run.

    python bench/bench_api.py [--quick]

Runs :mod:`bench_fan` and :mod:`bench_hand` (their full tables print first), then one table of the
issue's ratios: ours over the peer's rate on the same hands in this run (PyMahjongGB, riichienv,
xiangting when installed; our pure-Python reference always), or an absolute rate for the batch
floors.  The table reports; nothing fails on a number (the machine may be loaded).
"""

from __future__ import annotations

import argparse

import bench_fan
import bench_hand


def _find(results: dict, *parts: str) -> "tuple[str, float] | None":
    """The first row whose name contains every part, as (name, rate)."""
    for name, value in results.items():
        if all(p in name for p in parts):
            return name, value
    return None


def _best(results: dict, *candidates: tuple) -> "tuple[str, float] | None":
    """The fastest of several rows (a peer's fastest call for the question)."""
    found = [r for r in (_find(results, *c) for c in candidates) if r is not None]
    return max(found, key=lambda r: r[1]) if found else None


def main(argv=None) -> list:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer hands (smoke run)")
    args = ap.parse_args(argv)
    flag = ["--quick"] if args.quick else []
    fan = bench_fan.main(flag)
    print()
    hand = bench_hand.main(flag)
    gb = (_find(fan, "PyMahjongGB"),)
    ref_fan = (_find(fan, "reference (pure Python)"),)
    # (our row, the rows it is held against (fastest taken), target ratio or None, absolute floor or None)
    checks = [
        (_find(fan, "mahjong_core.score (tile strings)"), gb, 3.0),
        (_find(fan, "mahjong_core.score (count array"), gb, 5.0),
        (_find(fan, "mahjong_core.Scorer.score (count array"), gb, 5.0),
        (_find(fan, "mahjong_core.Scorer.score (tile strings)"), gb, None),
        (_find(fan, "mahjong_core.score (tile strings)"), (_find(fan, "Python path"),), None),
        (_find(fan, "mahjong_core.score (tile strings)"), ref_fan, None),
        (_find(hand, "is_win per call", "is_win(array)"),
         (_best(hand, ("is_win per call", "riichienv", "is_win"), ("is_win per call", "riichienv calculate_shanten")),),
         2.0),
        (_find(hand, "is_win per call", "is_win(array)"), (_find(hand, "is_win per call", "xiangting"),), None),
        (_find(hand, "is_win per call", "is_win(array)"), (_find(hand, "is_win per call", "reference"),), None),
        (_find(hand, "waits per call", "waits(array)"), (_find(hand, "waits per call", "calculate_necessary_tiles"),),
         5.0),
        (_find(hand, "waits per call", "waits(array)"), (_find(hand, "waits per call", "reference"),), None),
        (_find(hand, "shanten per call", "shanten(array)"), (_find(hand, "shanten per call", "riichienv"),), 1.0),
        (_find(hand, "shanten per call", "shanten(array)"), (_find(hand, "shanten per call", "reference"),), None),
    ]
    floors = [
        (_find(hand, "batch (two-player)", "is_win_batch"), 40e6),
        (_find(hand, "batch (public)", "is_win_batch"), 40e6),
        (_find(fan, "score_batch"), 1e6),
    ]
    print()
    print("issue 14 targets (one run; ratio = our rate / the other's rate on the same inputs)")
    print(f"{'ours':<58} {'against':<52} {'ratio':>8} {'target':>8}")
    table = []
    for ours, against, target in checks:
        other = against[0]
        if ours is None or other is None:
            continue   # a peer that is not installed
        ratio = ours[1] / other[1]
        table.append((ours[0], other[0], ratio, target))
        print(f"{ours[0]:<58} {other[0]:<52} {ratio:>8.2f} {'>= %g' % target if target else '':>8}")
    for ours, floor in floors:
        if ours is not None:
            table.append((ours[0], "absolute", ours[1], floor))
            print(f"{ours[0]:<58} {'absolute rate (hands/s)':<52} {ours[1] / 1e6:>7.1f}M {'>= %gM' % (floor / 1e6):>8}")
    return table


if __name__ == "__main__":
    main()
