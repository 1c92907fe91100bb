"""长牌 幺地人 (changpai-ydr): per-call win check and score through the public API against the
pure-Python reference and against the mahjong ``mj.is_win`` / ``mj.score`` of the same package, and
the batch win check, as rates and ratios measured in one run.

    python bench/bench_longcard.py [--quick]

Hand sets (fixed seed): long-card hands are half random 21-card deals, half winning hands assembled
from 7 groups (``families.longcard.sampling``); scores use winning hands with 0-5 declared groups
given as strings.  The mahjong sets are the same mix of random and complete 14-tile hands
(``common.random_hands``, ``bench_fan.winning_hands``).  Targets of issue 12: win check within 2x of
mahjong's per-call ``is_win``; batch >= 20 M hands/s; score >= 200x the reference.
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from bench_fan import winning_hands as mahjong_winning_hands
from common import SEED, batch_rate, random_hands, rate_over
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard._ref import hand as _ref
from mahjong_core.families.longcard.sampling import random_deal, random_group_hand

import mahjong_core as mj


def longcard_wins(n: int, seed: int = SEED, n_declared: int | None = None):
    """Winning hands: (concealed counts before the card, card, declared strings, declared groups, banker)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        counts, declared = random_group_hand(rng, n_declared)
        banker = bool(rng.random() < 0.33)
        if not lc.is_win(counts, declared=declared, banker=banker):
            continue
        card = int(rng.choice(np.flatnonzero(counts)))
        before = counts.copy()
        before[card] -= 1
        out.append((before, card, [str(g) for g in declared], declared, banker))
    return out


def longcard_win_check_set(n: int, seed: int = SEED) -> np.ndarray:
    """(n, 21) 21-card hands, no declared groups: half random deals, half wins."""
    wins = [c + np.eye(21, dtype=np.uint8)[k] for c, k, *_ in longcard_wins(n // 2, seed, n_declared=0)]
    deals = random_deal(np.random.default_rng(seed + 1), 21, n - len(wins))
    rows = np.concatenate([np.array(wins, np.uint8), deals])
    np.random.default_rng(seed + 2).shuffle(rows)
    return np.ascontiguousarray(rows)


def mahjong_win_check_set(n: int, seed: int = SEED) -> np.ndarray:
    wins = []
    for c, w, _m, _sd, groups in mahjong_winning_hands(n // 2, "two-player", seed):
        full = c.astype(np.int64)
        full[w] += 1
        for kind, f in groups:
            for t in ([f, f + 1, f + 2] if kind == "chi" else [f] * 3):
                full[t] += 1
        wins.append(full.astype(np.uint8))
    rows = np.concatenate([np.array(wins), random_hands(n - len(wins), 14)])
    np.random.default_rng(seed + 2).shuffle(rows)
    return np.ascontiguousarray(rows)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer hands (smoke run)")
    args = ap.parse_args(argv)
    n = 2000 if args.quick else 20000
    n_ref = 100 if args.quick else 400
    n_batch = 200_000 if args.quick else 2_000_000

    rows: list = []

    def add(what, name, value, base):
        rows.append((what, name, value, value / base))

    # ---- win check, per call
    lc_set = longcard_win_check_set(n)
    lc_arrays = list(lc_set)
    mj_arrays = list(mahjong_win_check_set(n))
    ours = rate_over(lc.is_win, lc_arrays)
    add("is_win per call", "longcard.is_win (uint8 arrays)", ours, ours)
    add("is_win per call", "mahjong mj.is_win (uint8 arrays)", rate_over(mj.is_win, mj_arrays), ours)
    lc_text = [lc.format_cards(a, counts=True) for a in lc_arrays[:2000]]
    add("is_win per call", "longcard.is_win (card strings)", rate_over(lc.is_win, lc_text), ours)
    mj_text = [mj.format_counts(a) for a in mj_arrays[:2000]]
    add("is_win per call", "mahjong mj.is_win (tile strings)", rate_over(mj.is_win, mj_text), ours)
    add("is_win per call", "reference _ref.is_win (lists)",
        rate_over(lambda a: _ref.is_win(a), [list(map(int, a)) for a in lc_arrays[:n_ref]], repeat=3), ours)

    # ---- score, per call
    wins = longcard_wins(n)
    calls = [(c, k, d, b) for c, k, d, _, b in wins]
    ours_s = rate_over(lambda a: lc.score(a[0], a[1], declared=a[2], banker=a[3]), calls)
    add("score per call", "longcard.score (arrays + group strings)", ours_s, ours_s)
    plain = [(c, k, b) for c, k, d, _, b in longcard_wins(n, SEED + 5, n_declared=0)]
    ours_plain = rate_over(lambda a: lc.score(a[0], a[1], banker=a[2]), plain)
    add("score per call", "longcard.score (no declared groups)", ours_plain, ours_s)
    weights = lc.face_weights(None)
    ref_calls = []
    for c, k, _, groups, b in wins[:n_ref]:
        full = c.astype(int)
        full[k] += 1
        ref_calls.append((list(full), groups, b))
    ref_s = rate_over(lambda a: _ref.best_win(a[0], a[1], a[2], weights=weights), ref_calls, repeat=3)
    add("score per call", "reference _ref.best_win (parsed input)", ref_s, ours_s)
    ref_plain = []
    for c, k, b in plain[:n_ref]:
        full = c.astype(int)
        full[k] += 1
        ref_plain.append((list(full), (), b))
    ref_p = rate_over(lambda a: _ref.best_win(a[0], a[1], a[2], weights=weights), ref_plain, repeat=3)
    add("score per call", "reference _ref.best_win, no declared groups", ref_p, ours_plain)
    mj_calls = []
    for c, w, _m, sd, groups in mahjong_winning_hands(min(n, 2000), "public"):
        melds = [f"{kind} " + mj.format_tiles([f, f + 1, f + 2] if kind == "chi" else [f] * 3) for kind, f in groups]
        mj_calls.append((mj.format_counts(c), mj.tiles.tile_short(w), melds, sd))
    add("score per call", "mahjong mj.score (tile strings, public)",
        rate_over(lambda a: mj.score(a[0], a[1], ruleset="public", melds=a[2], self_drawn=a[3]), mj_calls), ours_s)

    # ---- batch
    reps = -(-n_batch // len(lc_set))
    big = np.ascontiguousarray(np.tile(lc_set, (reps, 1))[:n_batch])
    b = batch_rate(lambda: lc.is_win_batch(big), n_batch)
    add("batch (1 thread)", "longcard.is_win_batch hands/s", b, b)
    twenty = big[: n_batch // 10].copy()
    for r in twenty:
        r[np.flatnonzero(r)[0]] -= 1
    add("batch (1 thread)", "longcard.waits_batch hands/s", batch_rate(lambda: lc.waits_batch(twenty), len(twenty)), b)
    part = big[: n_batch // 10]
    add("batch (1 thread)", "longcard.score_batch hands/s", batch_rate(lambda: lc.score_batch(part), len(part)), b)

    print(f"长牌 changpai-ydr benchmark  ({platform.python_implementation()} {platform.python_version()}, "
          f"{'quick' if args.quick else 'full'} run, seed {SEED})")
    width = max(len(r[1]) for r in rows)
    group = None
    for what, name, value, ratio in rows:
        if what != group:
            print(f"\n{what}")
            group = what
        print(f"  {name:<{width}}  {value:>14,.0f} /s   ratio to first row of group: {ratio:8.3f}")
    win = {r[1]: r[2] for r in rows}
    summary = {
        "win_vs_mahjong": win["longcard.is_win (uint8 arrays)"] / win["mahjong mj.is_win (uint8 arrays)"],
        "batch_hands_per_s": b,
        "score_vs_reference": ours_s / ref_s,
        "score_vs_reference_no_declared": ours_plain / ref_p,
    }
    print("\ntargets: win check >= 0.5x mahjong per call: {:.2f}x; batch >= 20 M/s: {:.1f} M/s; "
          "score >= 200x reference: {:.0f}x (no declared groups: {:.0f}x)".format(
              summary["win_vs_mahjong"], b / 1e6, summary["score_vs_reference"],
              summary["score_vs_reference_no_declared"]))
    return summary


if __name__ == "__main__":
    main()
