"""Fan evaluation: hands/s of mahjong-core's compiled evaluator per call and in
batch, against the pure-Python reference and (where installed) PyMahjongGB's
MahjongFanCalculator, on the same random winning `public` hands, as ratios
from one run.

    python bench/bench_fan.py [--quick]

Hands: random standard-form winning hands (groups + pair) of the public
ruleset, 0-2 exposed chows/pungs, random winning tile placement, self-drawn or
not.  Every implementation gets its input prepared once (ours: count arrays and
meld rows; PyMahjongGB: its tuples), so only the evaluation is timed.

Where the time of a call goes (issue 14): ``perf record`` of a loop of
``mj.score(counts, tile, ruleset="public", melds=..., self_drawn=...)`` over
these hands, shares of all samples.  The evaluator kernel is 55 %: per reading
(structure fans, placements of the winning tile, combination instances,
selections, exclusion pass: ``_fan_detect.pxi``, ``_fan_select.pxi``) 25 %,
finding the standard readings (the suit-split table, ``_fan_suit_splits.pxi``)
12 %, validation, hand-level fans and the output 14 %, the unique-wait search
(D8, ``_hand``'s waits) 4 %.  The Python side is the rest: the keyword dict and
argument handling 9 %, allocating and releasing the ``Score`` 7 %, the front's
reading of hand, tile and melds 6 %, the interpreter running the loop 9 %,
other CPython internals 14 %.  The kernel alone is the ``score_batch`` row
(about 0.4 us a hand).
"""

from __future__ import annotations

import argparse
import platform

import numpy as np

from common import rate_over, batch_rate, SEED

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong._ref import fan as fan_py
from mahjong_core.families.mahjong import scoring
from mahjong_core.families.mahjong.scoring import FLAGS, MELD_NONE

try:
    from peers import get_peer
except Exception:  # pragma: no cover
    get_peer = lambda name: None  # noqa: E731


def winning_hands(n: int, ruleset: str = "public", seed: int = SEED):
    """Random winning hands: (concealed counts without the win tile, win tile, meld rows, self_drawn)."""
    rng = np.random.default_rng(seed)
    kinds = np.asarray(mj.get_ruleset(ruleset).kinds)
    out = []
    while len(out) < n:
        total = np.zeros(34, np.int64)
        groups = []
        for _ in range(4):
            k = int(rng.choice(kinds))
            if k < 27 and k % 9 <= 6 and rng.random() < 0.65:
                groups.append(("chi", k))
                total[k : k + 3] += 1
            else:
                groups.append(("pon", k))
                total[k] += 3
        pair = int(rng.choice(kinds))
        total[pair] += 2
        if total.max() > 4:
            continue
        n_melds = int(rng.integers(0, 3))
        melds = np.full((4, 2), MELD_NONE, np.uint8)
        concealed = total.copy()
        for j in range(n_melds):
            kind, first = groups[j]
            melds[j] = (0 if kind == "chi" else 1, first)
            for t in ([first, first + 1, first + 2] if kind == "chi" else [first] * 3):
                concealed[t] -= 1
        held = np.flatnonzero(concealed)
        win = int(rng.choice(held))
        concealed[win] -= 1
        self_drawn = bool(rng.random() < 0.4)
        out.append((concealed.astype(np.uint8), win, melds, self_drawn, groups[:n_melds]))
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    n = 2000 if args.quick else 20000
    hands = winning_hands(n)
    code = mj.get_ruleset("public").code
    k = _fan.fan_count(code)
    out = np.zeros(k, np.uint16)
    prepared = [
        (code, c, w, np.ascontiguousarray(m[: int((m[:, 0] != MELD_NONE).sum())]),
         FLAGS["self_drawn"] if sd else 0, 0, 27, 27, 8, 0, out)
        for c, w, m, sd, _ in hands
    ]
    rows = []
    ours = rate_over(lambda a: _fan.evaluate(*a), prepared)
    rows.append(("per call", "mahjong_core._fan.evaluate (prepared arrays)", ours, ours))
    text_calls = []
    for c, w, m, sd, groups in hands:
        melds = [f"{kind} " + mj.format_tiles([f, f + 1, f + 2] if kind == "chi" else [f] * 3) for kind, f in groups]
        text_calls.append((mj.format_counts(c), mj.tiles.tile_short(w), melds, sd))
    array_calls = [(c, w, text_calls[i][2], sd) for i, (c, w, m, sd, groups) in enumerate(hands)]
    api = rate_over(lambda a: mj.score(a[0], a[1], ruleset="public", melds=a[2], self_drawn=a[3]), text_calls)
    rows.append(("per call", "mahjong_core.score (tile strings)", api, ours))
    rows.append(("per call", "mahjong_core.score (count array, int tile)",
                 rate_over(lambda a: mj.score(a[0], a[1], ruleset="public", melds=a[2], self_drawn=a[3]),
                           array_calls), ours))
    scorer = mj.Scorer("public")
    rows.append(("per call", "mahjong_core.Scorer.score (tile strings)",
                 rate_over(lambda a: scorer.score(a[0], a[1], melds=a[2], self_drawn=a[3]), text_calls), ours))
    rows.append(("per call", "mahjong_core.Scorer.score (count array, int tile)",
                 rate_over(lambda a: scorer.score(a[0], a[1], melds=a[2], self_drawn=a[3]), array_calls), ours))
    python_path = scoring._score_checked
    rows.append(("per call", "score's Python path (tile strings; before issue 14)",
                 rate_over(lambda a: python_path(a[0], a[1], ruleset="public", melds=a[2], self_drawn=a[3]),
                           text_calls), ours))
    ref_n = min(300, n)
    rows.append(("per call", "reference (pure Python)",
                 rate_over(lambda a: fan_py.evaluate_codes(*a), prepared[:ref_n], repeat=3), ours))
    gb = get_peer("pymahjonggb")
    if gb is not None:
        gb_in = []
        for c, w, m, sd, groups in hands:
            full = c.copy()
            full[w] += 1
            packs = [("CHI" if kind == "chi" else "PENG", f + 1 if kind == "chi" else f, 1) for kind, f in groups]
            gb_in.append(gb.prepare(full, win_tile=w, packs=packs, self_drawn=sd))
        rows.append(("per call", f"PyMahjongGB {gb.version} MahjongFanCalculator",
                     rate_over(gb.fan, gb_in), ours))
    # batch
    H = np.stack([c for c, *_ in hands])
    W = np.array([w for _, w, *_ in hands], np.int16)
    M = np.stack([m for _, _, m, *_ in hands])
    F = np.array([FLAGS["self_drawn"] if sd else 0 for *_, sd, _ in hands], np.uint32)
    b = batch_rate(lambda: mj.score_batch(H, W, ruleset="public", melds=M, flags=F), n)
    rows.append(("batch", "mahjong_core.score_batch hands/s", b, ours))

    print(f"mahjong-core {mj.__version__}, Python {platform.python_version()}, {platform.machine()}; {n} public winning hands")
    print(f"{'mode':<10} {'implementation':<52} {'hands/s':>14} {'ratio':>9}")
    for mode, name, value, base in rows:
        print(f"{mode:<10} {name:<52} {value:>14,.0f} {value / base:>9.3f}")
    print("ratio = rate / mahjong_core._fan.evaluate per call (higher is faster); one run, same hands")
    return {name: value for _, name, value, _ in rows}



if __name__ == "__main__":
    main()
