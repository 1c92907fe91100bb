"""Chinese Official (MCR) speed against PyMahjongGB (issue 29, item 3): per-call scoring, batch
scoring and the shanten of every form, as ratios measured in one run on the same random hands.

    python bench/bench_mcr.py [--ruleset public] [--hands N] [--quick]

The ruleset is a parameter (``public``, the seed's 大众麻将 with the MCR fans, by default; any
mahjong ruleset with the special forms, e.g. ``mcr``); PyMahjongGB always scores Chinese Official
rules.  Hand sets, drawn with a fixed seed from the ruleset's tiles, every hand a complete
standard-form hand that both engines accept:

* ``plain``: no declared group (14 concealed tiles);
* ``melds3`` / ``melds4``: three / four declared chows and pungs (5 / 2 concealed tiles), the
  hands where the per-call path reads the most meld strings;
* ``kongs``: one to four of the groups declared as kongs (exposed or concealed), 0-1 other melds;
* ``flowers``: 0-2 declared groups and 1-8 flowers.

score_batch is timed on one thread (the target's measure, in CPU time) and with ``threads=0``, one
thread per core, in wall time (the CPU time of a process adds its threads'; on a loaded machine the
threaded figure shows the load more than the code).

Each implementation gets its input prepared once: ours the count array of the concealed tiles
(without the winning tile), the winning tile as an index and the melds as strings (``"pon CCC"``),
flowers as flower tiles (``"1f3f"``); a second row gives the hand and the tile as strings
(``"123m456p..."``, ``"5m"``); PyMahjongGB its tuples (``("PENG", "J1", 1)``), called with its
default (non-verbose) output.  A loop over the prepared calls is timed in this process's CPU time
(another process's load does not count), the best of five passes, the passes of the implementations
compared interleaved.

Shanten: random 13-tile hands of the ruleset's wall for every form (ours
``mj.form_shanten(hand, form, ruleset=...)`` against the form's PyMahjongGB function, which also
returns the useful tiles), and ``mj.shanten`` against ``MahjongShanten`` on 13 - 3k concealed tiles
with k = 0-4 declared groups (PyMahjongGB is given the groups; our shanten of the concealed part
is the same number).

Agreement: the totals of the benched hands (ours ``Score.total``, flowers included, against the sum
of PyMahjongGB's fan points) and the shanten values.  Where ``public`` and MCR differ (a few fans,
the flowers) the totals differ; the script reports how many agree and shows a few that do not.

The ratios are reported, never asserted (the machine may be loaded: the load average is printed).
``tests/fan/test_bench_mcr.py`` runs this script on a few hands.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import timeit
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mahjong_core as mj  # noqa: E402
from mahjong_core.families.mahjong.scoring import FLAGS, MELD_KINDS, MELD_NONE  # noqa: E402

try:
    import MahjongGB as gb  # PyMahjongGB
except ImportError:  # pragma: no cover - the peer is optional
    gb = None

SEED = 29
CATEGORIES = ("plain", "melds3", "melds4", "kongs", "flowers")
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
GB_FORM_FUNCTIONS = {
    "standard": "RegularShanten",
    "seven_pairs": "SevenPairsShanten",
    "thirteen_orphans": "ThirteenOrphansShanten",
    "honors_knitted": "HonorsAndKnittedTilesShanten",
    "knitted_straight": "KnittedStraightShanten",
}
TARGET_RATIO = 5.0
TARGET_BATCH = 2e6

#: our tile index -> PyMahjongGB's code (W 万 = m, B 饼 = p, T 条 = s, F1-F4 winds, J1 中 J2 发 J3 白)
GB_CODES = tuple([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
                 + [f"T{i}" for i in range(1, 10)] + [f"F{i}" for i in range(1, 5)] + ["J1", "J2", "J3"])


class Hand:
    """One benched winning hand in both engines' input forms."""

    __slots__ = ("counts", "win", "melds", "rows", "self_drawn", "flowers", "n_flowers", "gb_args", "text")

    def __init__(self, counts: np.ndarray, win: int, melds: List[Tuple[str, int]], self_drawn: bool,
                 n_flowers: int) -> None:
        self.counts = counts                      # concealed tiles without the winning tile, uint8 (34,)
        self.win = win
        self.melds = [f"{kind} {mj.format_tiles(_group(kind, first))}" for kind, first in melds]
        self.rows = [(MELD_KINDS[kind], first) for kind, first in melds]
        self.self_drawn = self_drawn
        self.n_flowers = n_flowers
        self.flowers = "".join(f"{i}f" for i in range(1, n_flowers + 1))
        self.text = (mj.format_counts(counts), mj.tiles.tile_short(win))
        standing = tuple(GB_CODES[t] for t in range(34) for _ in range(int(counts[t])))
        packs = tuple(_gb_pack(kind, first) for kind, first in melds)
        # pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast, seat, prevalent
        self.gb_args = (packs, standing, GB_CODES[win], n_flowers, self_drawn, False, False, False, 0, 0)

    def ours(self, ruleset: str) -> Any:
        kw: Dict[str, Any] = {"ruleset": ruleset, "melds": self.melds, "self_drawn": self.self_drawn}
        if self.n_flowers:
            kw["flowers"] = self.flowers
        return mj.score(self.counts, self.win, **kw)


def _group(kind: str, first: int) -> List[int]:
    return [first, first + 1, first + 2] if kind == "chi" else [first] * (3 if kind == "pon" else 4)


def _gb_pack(kind: str, first: int) -> Tuple[str, str, int]:
    """(kind, tile, offer): a chow by its middle tile; offer 0 = a concealed kong, 1 = claimed from
    the player on the left (for a chow: the first tile was the claimed one)."""
    if kind == "chi":
        return ("CHI", GB_CODES[first + 1], 1)
    if kind == "pon":
        return ("PENG", GB_CODES[first], 1)
    return ("GANG", GB_CODES[first], 0 if kind == "ckong" else 1)


def _gb_total(fans: Sequence[Tuple[int, str]]) -> int:
    return sum(points for points, _ in fans)


def winning_hands(n: int, category: str, ruleset: str = "public", seed: int = SEED) -> List[Hand]:
    """`n` random complete standard-form hands of `category` that both engines score."""
    rng = np.random.default_rng([seed, CATEGORIES.index(category)])
    kinds = np.asarray(mj.get_ruleset(ruleset).kinds)
    playable = set(kinds.tolist())
    out: List[Hand] = []
    while len(out) < n:
        total = np.zeros(34, np.int64)
        groups = []
        for _ in range(4):
            k = int(rng.choice(kinds))
            if k < 27 and k % 9 <= 6 and k + 2 in playable and rng.random() < 0.55:
                groups.append(["chi", k])
                total[k:k + 3] += 1
            else:
                groups.append(["pon", k])
                total[k] += 3
        pair = int(rng.choice(kinds))
        total[pair] += 2
        n_melds, n_flowers = 0, 0
        if category == "melds3":
            n_melds = 3
        elif category == "melds4":
            n_melds = 4
        elif category == "kongs":
            pungs = [g for g in groups if g[0] == "pon"]
            if not pungs:
                continue
            n_kongs = int(rng.integers(1, len(pungs) + 1))
            for g in pungs[:n_kongs]:
                g[0] = "ckong" if rng.random() < 0.4 else "kong"
                total[g[1]] += 1
            groups.sort(key=lambda g: g[0] not in ("kong", "ckong"))   # the kongs are declared
            n_melds = n_kongs + int(rng.integers(0, 2))
        elif category == "flowers":
            n_melds = int(rng.integers(0, 3))
            n_flowers = int(rng.integers(1, 9))
        if total.max() > 4:
            continue
        concealed = total.copy()
        for kind, first in groups[:n_melds]:
            for t in _group(kind, first):
                concealed[t] -= 1
        win = int(rng.choice(np.flatnonzero(concealed)))
        concealed[win] -= 1
        hand = Hand(concealed.astype(np.uint8), win, [(k, f) for k, f in groups[:n_melds]],
                    bool(rng.random() < 0.4), n_flowers)
        try:
            hand.ours(ruleset)
            if gb is not None:
                gb.MahjongFanCalculator(*hand.gb_args)
        except (mj.MahjongError, TypeError):
            continue   # e.g. a hand the peer refuses (its own checks); the same hands for both
        out.append(hand)
    return out


def random_concealed(n: int, size: int, ruleset: str = "public", seed: int = SEED) -> List[np.ndarray]:
    """`n` hands of `size` tiles drawn from the ruleset's wall."""
    rng = np.random.default_rng([seed, 100 + size])
    wall = np.repeat(np.asarray(mj.get_ruleset(ruleset).kinds), 4)
    return [np.bincount(rng.choice(wall, size, replace=False), minlength=34).astype(np.uint8) for _ in range(n)]


def gb_tiles(counts: np.ndarray) -> Tuple[str, ...]:
    return tuple(GB_CODES[t] for t in range(34) for _ in range(int(counts[t])))


def gb_packs(k: int) -> Tuple[Tuple[str, str, int], ...]:
    """k declared groups for MahjongShanten that take no tile of a random hand's count past 4 often:
    pungs of the dragons and a chow of 7-8-9 bamboo (the hand's own tiles are not checked against
    them by either engine's shanten of the concealed part)."""
    return (("PENG", "J1", 1), ("PENG", "J2", 1), ("PENG", "J3", 1), ("CHI", "T8", 1))[:k]


# ------------------------------------------------------------------------------------------- timing
def _best(run: Callable[[], object], repeat: int) -> float:
    """The least CPU time of `repeat` passes of run() (this process's CPU time: on a shared machine
    another process's load does not count, where wall time would)."""
    return min(timeit.repeat(run, number=1, repeat=repeat, timer=time.process_time))


def _best_each(runs: Dict[str, Callable[[], object]], repeat: int) -> Dict[str, float]:
    """_best of every run, their passes interleaved, so a slow spell of the machine falls on all."""
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            best[name] = min(best[name], _best(run, 1))
    return best


def score_rates(hands: List[Hand], ruleset: str, repeat: int = 5) -> Dict[str, float]:
    """Calls per second of our per-call score (count array; tile strings) and of PyMahjongGB."""
    score = mj.score
    plain = [(h.counts, h.win, h.melds, h.self_drawn) for h in hands if not h.n_flowers]
    flowered = [(h.counts, h.win, h.melds, h.self_drawn, h.flowers) for h in hands if h.n_flowers]
    text = [(h.text[0], h.text[1], h.melds, h.self_drawn, h.flowers) for h in hands]

    def ours() -> None:
        for c, w, m, sd in plain:
            score(c, w, ruleset=ruleset, melds=m, self_drawn=sd)
        for c, w, m, sd, f in flowered:
            score(c, w, ruleset=ruleset, melds=m, self_drawn=sd, flowers=f)

    def ours_text() -> None:
        for c, w, m, sd, f in text:
            if f:
                score(c, w, ruleset=ruleset, melds=m, self_drawn=sd, flowers=f)
            else:
                score(c, w, ruleset=ruleset, melds=m, self_drawn=sd)

    runs: Dict[str, Callable[[], object]] = {"ours": ours, "ours_text": ours_text}
    if gb is not None:
        calc = gb.MahjongFanCalculator
        gb_in = [h.gb_args for h in hands]

        def theirs() -> None:
            for a in gb_in:
                calc(*a)

        runs["gb"] = theirs
    return {name: len(hands) / t for name, t in _best_each(runs, repeat).items()}


def batch_arrays(hands: List[Hand]) -> Tuple[np.ndarray, ...]:
    n = len(hands)
    counts = np.stack([h.counts for h in hands])
    wins = np.array([h.win for h in hands], np.int16)
    melds = np.full((n, 4, 2), MELD_NONE, np.uint8)
    for i, h in enumerate(hands):
        for j, row in enumerate(h.rows):
            melds[i, j] = row
    flags = np.array([FLAGS["self_drawn"] if h.self_drawn else 0 for h in hands], np.uint32)
    flowers = np.array([(1 << h.n_flowers) - 1 for h in hands], np.uint32)
    return counts, wins, melds, flags, flowers


#: rows of the threaded score_batch call (the set repeated up to this many): a call on 5 000 rows
#: lasts a few milliseconds, the time of one scheduler slice, so on a shared machine a thread that
#: waits for a core (or starts late) decided the wall time of every pass and the column read well
#: under the rate of a long call
THREADED_ROWS = 200_000


def batch_rate(hands: List[Hand], ruleset: str, repeat: int = 5, threads: int = 1) -> float:
    """Hands per second of score_batch: on one thread in this process's CPU time; on `threads`
    threads (0: one per core) in wall time, since the CPU time of a process adds its threads', on
    the set repeated to about THREADED_ROWS rows (at most 20 times)."""
    counts, wins, melds, flags, flowers = batch_arrays(hands)
    if threads != 1:
        times = max(1, min(20, THREADED_ROWS // max(1, len(hands))))
        counts, wins, melds, flags, flowers = (np.concatenate([a] * times)
                                               for a in (counts, wins, melds, flags, flowers))

    def run() -> None:
        mj.score_batch(counts, wins, ruleset=ruleset, melds=melds, flags=flags, flowers=flowers, threads=threads)

    if threads == 1:
        return len(hands) / _best(run, repeat)
    return len(counts) / min(timeit.repeat(run, number=1, repeat=repeat, timer=time.perf_counter))


def shanten_rates(hands: List[np.ndarray], ruleset: str, repeat: int = 5) -> List[Tuple[str, float, float, int]]:
    """(form, ours/s, PyMahjongGB/s, values that differ) for every form on 13-tile hands."""
    rows = []
    form_shanten = mj.form_shanten
    theirs_in = [gb_tiles(h) for h in hands]
    for form in FORMS:
        def ours(form: str = form) -> None:
            for h in hands:
                form_shanten(h, form, ruleset=ruleset)

        r_gb, differ = float("nan"), -1
        if gb is None:
            r_ours = len(hands) / _best(ours, repeat)
        else:
            fn = getattr(gb, GB_FORM_FUNCTIONS[form])

            def theirs(fn: Callable[..., Any] = fn) -> None:
                for t in theirs_in:
                    fn(t)

            best = _best_each({"ours": ours, "gb": theirs}, repeat)
            r_ours, r_gb = len(hands) / best["ours"], len(hands) / best["gb"]
            differ = sum(form_shanten(h, form, ruleset=ruleset) != fn(t)[0] for h, t in zip(hands, theirs_in))
        rows.append((form, r_ours, r_gb, differ))
    return rows


def overall_shanten_rates(ruleset: str, n: int, repeat: int = 5) -> List[Tuple[str, float, float, int]]:
    """mj.shanten against MahjongShanten with k = 0-4 declared groups (13 - 3k concealed tiles)."""
    rows = []
    shanten = mj.shanten
    for k in range(5):
        hands = random_concealed(n, 13 - 3 * k, ruleset)
        packs = gb_packs(k)
        theirs_in = [gb_tiles(h) for h in hands]

        def ours() -> None:
            for h in hands:
                shanten(h, ruleset=ruleset)

        r_gb, differ = float("nan"), -1
        if gb is None:
            r_ours = len(hands) / _best(ours, repeat)
        else:
            calc = gb.MahjongShanten

            def theirs() -> None:
                for t in theirs_in:
                    calc(packs, t)

            best = _best_each({"ours": ours, "gb": theirs}, repeat)
            r_ours, r_gb = len(hands) / best["ours"], len(hands) / best["gb"]
            differ = sum(shanten(h, ruleset=ruleset) != calc(packs, t) for h, t in zip(hands, theirs_in))
        rows.append((f"overall, {k} declared", r_ours, r_gb, differ))
    return rows


def agreement(hands: List[Hand], ruleset: str) -> Tuple[int, List[str]]:
    """How many totals agree with PyMahjongGB's, and a few that do not (as notation)."""
    same, examples = 0, []
    for h in hands:
        ours = h.ours(ruleset)
        theirs = _gb_total(gb.MahjongFanCalculator(*h.gb_args))
        if ours.total == theirs:
            same += 1
        elif len(examples) < 3:
            fans = " ".join(f"{f.zh}{f.points}x{f.count}" for f in ours.fans)
            gb_fans = " ".join(f"{name}{pts}" for pts, name in gb.MahjongFanCalculator(*h.gb_args))
            examples.append(f"{h.text[0]} +{h.text[1]} {h.melds} sd={h.self_drawn} flowers={h.n_flowers}: "
                            f"ours {ours.total} ({fans}) / PyMahjongGB {theirs} ({gb_fans})")
    return same, examples


# --------------------------------------------------------------------------------------------- main
def main(argv: "Sequence[str] | None" = None) -> Dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="public", help="the mahjong ruleset scored (default: public)")
    ap.add_argument("--hands", type=int, default=5000, help="hands per set (default 5000)")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes; the best is kept (default 5)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 200 hands, 2 passes")
    args = ap.parse_args(argv)
    n, repeat = (200, 2) if args.quick else (args.hands, args.repeat)
    rs = mj.get_ruleset(args.ruleset).name
    gb_name = f"PyMahjongGB {_version('PyMahjongGB')}" if gb is not None else "PyMahjongGB (not installed)"
    print(f"mahjong-core {mj.__version__} ruleset {rs!r} against {gb_name}; Python {platform.python_version()} "
          f"{platform.machine()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {n} hands a set")
    results: Dict[str, Any] = {"ruleset": rs, "score": {}, "batch": {}, "batch_threads": {}, "shanten": {},
                               "agreement": {}}
    print(f"\n{'score per call':<24} {'ours/s':>12} {'ours text/s':>12} {'PyMahjongGB/s':>14} {'ratio':>7} "
          f"{'text':>6}  target")
    sets = {cat: winning_hands(n, cat, rs) for cat in CATEGORIES}
    for cat, hands in sets.items():
        r = score_rates(hands, rs, repeat)
        results["score"][cat] = r
        g = r.get("gb", float("nan"))
        print(f"{cat:<24} {r['ours']:>12,.0f} {r['ours_text']:>12,.0f} {g:>14,.0f} {r['ours'] / g:>7.2f} "
              f"{r['ours_text'] / g:>6.2f}  >= {TARGET_RATIO:g}")
    cores = _cores()
    print(f"\n{'score_batch':<24} {'hands/s':>12} {f'{cores} threads':>12}  target (one thread)")
    for cat, hands in sets.items():
        b = batch_rate(hands, rs, repeat)
        b_all = batch_rate(hands, rs, repeat, threads=0)
        results["batch"][cat] = b
        results["batch_threads"][cat] = b_all
        print(f"{cat:<24} {b:>12,.0f} {b_all:>12,.0f}  >= {TARGET_BATCH:,.0f}")
    print(f"\n{'shanten per call':<24} {'ours/s':>12} {'PyMahjongGB/s':>14} {'ratio':>7} {'differ':>7}  target")
    rows = shanten_rates(random_concealed(n, 13, rs), rs, repeat) + overall_shanten_rates(rs, n, repeat)
    for name, ours, theirs, differ in rows:
        results["shanten"][name] = (ours, theirs, differ)
        print(f"{name:<24} {ours:>12,.0f} {theirs:>14,.0f} {ours / theirs:>7.2f} {differ:>7}  >= {TARGET_RATIO:g}")
    if gb is not None:
        print(f"\ntotals equal to PyMahjongGB's ({rs!r} and MCR differ in a few fans and in the flowers)")
        for cat, hands in sets.items():
            same, examples = agreement(hands, rs)
            results["agreement"][cat] = (same, len(hands))
            print(f"{cat:<24} {same:>6}/{len(hands)}")
            for e in examples:
                print(f"    {e}")
    print("\nratio = our calls per second / PyMahjongGB's on the same hands in this run; text = ours with the "
          "hand and winning tile as strings; score_batch: hands/s on one thread (CPU time) and with threads=0, "
          "one thread per core (wall time); differ = hands whose shanten values differ")
    return results


def _cores() -> int:
    """The cores this process may run on (score_batch's threads=0)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # pragma: no cover
        return "?"


if __name__ == "__main__":
    main()
