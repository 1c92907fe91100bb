#!/usr/bin/env python3
"""Parity of ``mj.score(..., ruleset="mcr")`` with PyMahjongGB's ``MahjongFanCalculator``.

Draws N random winning hands from a seeded generator that reaches every MCR fan (themed tile
sets and meld patterns for the standard form, seven pairs and 连七对, 十三幺, 全不靠/七星不靠, the
knitted-straight form, 九莲宝灯; declared chows, pungs, exposed and concealed kongs; flowers; every
situational flag: self-drawn, 和绝张, about-kong (杠上开花 / 抢杠和), last tile of the wall, seat and
prevalent wind), scores each with both libraries and compares the totals and the fan multisets.
Every difference is classified by the set of fans that differ; the script prints the agreement
rate, each class with its count and one example hand.

    PYTHONPATH=python python tools/mcr_parity.py --hands 1000000 --seed 1 [--dump diffs.jsonl]

``--dump`` writes every differing hand as a JSON line (the fields of :class:`Hand`), to study them.

PyMahjongGB takes no minimum (a hand under 8 fans is scored like any other), so our side is
compared on every fan too (``meets_minimum`` is not part of the comparison).  The generator only
produces flag sets a game can produce (the ones ``mj.score`` refuses as contradictory, e.g.
robbing a kong on the last tile, are not drawn).  ``tests/mcr/test_mcr_parity.py`` smoke-runs it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if str(HERE / "python") not in sys.path:
    sys.path.insert(0, str(HERE / "python"))

# --------------------------------------------------------------------------- tiles
SUITS = ((0, 9), (9, 18), (18, 27))
HONORS = tuple(range(27, 34))
WINDS = tuple(range(27, 31))
DRAGONS = tuple(range(31, 34))
NUMBERS = tuple(range(27))
GB_NAME = [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)] \
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
"""PyMahjongGB's tile codes by our index: W 万 (m), B 饼 (p), T 条 (s), F1-F4 E S W N, J1-J3 中 发 白."""


def rank(t: int) -> int:
    return t % 9 + 1


def _kinds(pred) -> tuple[int, ...]:
    return tuple(t for t in range(34) if pred(t))


GREEN = (19, 20, 21, 23, 25, 32)
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33)
TERMINALS = (0, 8, 9, 17, 18, 26)


@dataclass
class Theme:
    """A tile set the groups of a standard hand are drawn from, and how likely a group is a chow."""

    name: str
    kinds: tuple[int, ...]
    chow: float
    group_filter: object = None   # a predicate on a group's tiles (全带五, 全带幺)


def themes(rng: random.Random) -> Theme:
    s = rng.randrange(3)
    lo, hi = SUITS[s]
    suit = tuple(range(lo, hi))
    s2 = rng.choice([x for x in range(3) if x != s])
    suit2 = tuple(range(*SUITS[s2]))
    pick = rng.randrange(20)
    chow = rng.choice((0.0, 0.3, 0.6, 0.9, 1.0))
    if pick == 0:
        return Theme("one_suit", suit, chow)
    if pick == 1:
        return Theme("suit_honors", suit + HONORS, chow)
    if pick == 2:
        return Theme("two_suits", suit + suit2, chow)
    if pick == 3:
        return Theme("terminal_honors", TERMINALS + HONORS, 0.0)
    if pick == 4:
        return Theme("honors", HONORS, 0.0)
    if pick == 5:
        return Theme("winds", WINDS + suit, chow)
    if pick == 6:
        return Theme("dragons", DRAGONS + suit, chow)
    if pick == 7:
        return Theme("green", GREEN, chow)
    if pick == 8:
        return Theme("reversible", REVERSIBLE, chow)
    if pick == 9:
        r0 = rng.choice((1, 4, 7))
        return Theme("thirds", _kinds(lambda t: t < 27 and r0 <= rank(t) <= r0 + 2), chow)
    if pick == 10:
        return Theme("lower_four", _kinds(lambda t: t < 27 and rank(t) <= 4), chow)
    if pick == 11:
        return Theme("upper_four", _kinds(lambda t: t < 27 and rank(t) >= 6), chow)
    if pick == 12:
        return Theme("even", _kinds(lambda t: t < 27 and rank(t) % 2 == 0), 0.0)
    if pick == 13:
        return Theme("fives", NUMBERS, chow, lambda g: any(t < 27 and rank(t) == 5 for t in g))
    if pick == 14:
        return Theme("outside", tuple(range(34)), chow,
                     lambda g: any(t >= 27 or rank(t) in (1, 9) for t in g))
    if pick == 15:
        return Theme("simples", _kinds(lambda t: t < 27 and 2 <= rank(t) <= 8), chow)
    if pick == 16:
        return Theme("numbers", NUMBERS, chow)
    return Theme("any", tuple(range(34)), chow)


# --------------------------------------------------------------------------- one hand
@dataclass
class Hand:
    """One random winning hand in both libraries' terms."""

    concealed: list[int]                 # 13 (or fewer with melds) concealed tiles, winning tile excluded
    win: int
    melds: list[tuple[str, int]] = field(default_factory=list)   # ("chi", first) / ("pon", t) / ("kong", t) / ("ckong", t)
    self_drawn: bool = False
    last_of_kind: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat: int = 0
    prevalent: int = 0
    flowers: int = 0

    def ours(self) -> dict:
        melds = []
        for kind, t in self.melds:
            tiles = [t, t + 1, t + 2] if kind == "chi" else [t] * (3 if kind == "pon" else 4)
            melds.append((kind, tiles))
        return dict(melds=melds, self_drawn=self.self_drawn, last_tile=self.wall_last,
                    kong_replacement=self.about_kong and self.self_drawn,
                    robbing_kong=self.about_kong and not self.self_drawn,
                    last_of_kind=self.last_of_kind, flowers=self.flowers,
                    seat_wind="ESWN"[self.seat], round_wind="ESWN"[self.prevalent])

    def gb(self) -> dict:
        pack = []
        for i, (kind, t) in enumerate(self.melds):
            if kind == "chi":
                pack.append(("CHI", GB_NAME[t + 1], 1 + i % 3))
            elif kind == "pon":
                pack.append(("PENG", GB_NAME[t], 1 + i % 3))
            else:
                pack.append(("GANG", GB_NAME[t], 0 if kind == "ckong" else 1 + i % 3))
        return dict(pack=tuple(pack), hand=tuple(GB_NAME[t] for t in sorted(self.concealed)),
                    winTile=GB_NAME[self.win], flowerCount=self.flowers, isSelfDrawn=self.self_drawn,
                    is4thTile=self.last_of_kind, isAboutKong=self.about_kong, isWallLast=self.wall_last,
                    seatWind=self.seat, prevalentWind=self.prevalent)

    def text(self) -> str:
        from mahjong_core.families.mahjong.tiles import tile_short
        melds = " ".join(f"{k}:{tile_short(t)}" for k, t in self.melds)
        flags = [n for n, v in (("self_drawn", self.self_drawn), ("last_of_kind", self.last_of_kind),
                                ("about_kong", self.about_kong), ("wall_last", self.wall_last)) if v]
        return (f"hand={''.join(tile_short(t) for t in sorted(self.concealed))} win={tile_short(self.win)} "
                f"melds=[{melds}] flags={flags} seat={'ESWN'[self.seat]} prevalent={'ESWN'[self.prevalent]} "
                f"flowers={self.flowers}")


def _group_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


def _chow_starts(kinds: tuple[int, ...]) -> list[int]:
    ks = set(kinds)
    return [t for t in kinds if t < 27 and rank(t) <= 7 and t + 1 in ks and t + 2 in ks]


def _patterned_groups(rng: random.Random) -> list[tuple[str, int]]:
    """Three or four groups in a pattern that meld-combination fans need (shifted, mixed, straights)."""
    suits = [0, 1, 2]
    rng.shuffle(suits)
    kind = rng.choice(("chow", "pung"))
    pick = rng.randrange(6)
    if pick == 0:   # 三色三同顺 / 三同刻 / 三色三步高 / 三色三节高
        step = rng.choice((0, 1))
        base = rng.randrange(1, (8 if kind == "chow" else 10) - 2 * step)
        return [(kind, suits[i] * 9 + base - 1 + i * step) for i in range(3)]
    if pick == 1:   # 花龙
        return [("chow", suits[i] * 9 + 3 * i) for i in range(3)]
    if pick == 2:   # 清龙
        return [("chow", suits[0] * 9 + 3 * i) for i in range(3)]
    if pick == 3:   # one-suit shifted chows/pungs (一色三步高, 一色四步高, 一色三节高, 一色四节高, 同顺)
        n = rng.choice((3, 4))
        step = rng.choice((0, 1, 2)) if kind == "chow" else rng.choice((0, 1))
        top = 7 if kind == "chow" else 9
        if (n - 1) * step >= top:
            step = 1
        base = rng.randrange(1, top - (n - 1) * step + 1)
        return [(kind, suits[0] * 9 + base - 1 + i * step) for i in range(n)]
    if pick == 4:   # 双龙会 chows (一色 or 三色)
        if rng.random() < 0.5:
            return [("chow", suits[0] * 9), ("chow", suits[0] * 9), ("chow", suits[0] * 9 + 6), ("chow", suits[0] * 9 + 6)]
        return [("chow", suits[0] * 9), ("chow", suits[0] * 9 + 6), ("chow", suits[1] * 9), ("chow", suits[1] * 9 + 6)]
    # wind / dragon pungs (大/小四喜, 大/小三元, 三风刻, 双箭刻)
    pool = list(WINDS) if rng.random() < 0.5 else list(DRAGONS)
    rng.shuffle(pool)
    return [("pung", t) for t in pool[:rng.choice((2, 3, 3, 4))]]


def _standard(rng: random.Random) -> tuple[list[tuple[str, int]], int] | None:
    theme = themes(rng)
    groups: list[tuple[str, int]] = []
    if rng.random() < 0.3:
        groups = _patterned_groups(rng)[:4]
    counts = [0] * 34
    for g in groups:
        for t in _group_tiles(*g):
            counts[t] += 1
    if max(counts) > 4:
        return None
    starts = _chow_starts(theme.kinds)
    tries = 0
    while len(groups) < 4:
        tries += 1
        if tries > 60:
            return None
        if starts and rng.random() < theme.chow:
            g = ("chow", rng.choice(starts))
        else:
            g = ("pung", rng.choice(theme.kinds))
        tiles = _group_tiles(*g)
        if theme.group_filter is not None and not theme.group_filter(tiles):
            continue
        if any(counts[t] + tiles.count(t) > 4 for t in set(tiles)):
            continue
        for t in tiles:
            counts[t] += 1
        groups.append(g)
    for _ in range(60):
        p = rng.choice(theme.kinds)
        if theme.group_filter is not None and not theme.group_filter([p]):
            continue
        if counts[p] <= 2:
            return groups, p
    return None


def _add_flags(rng: random.Random, h: Hand) -> Hand:
    """The situational flags, drawn only in combinations a game can produce."""
    h.self_drawn = rng.random() < 0.5
    h.seat = rng.randrange(4)
    h.prevalent = rng.randrange(4)
    h.flowers = rng.choice((0, 0, 0, 0, 1, 2, 3, 8)) if rng.random() < 0.5 else 0
    h.wall_last = rng.random() < 0.08
    kongs = any(k in ("kong", "ckong") for k, _ in h.melds)
    held = h.concealed.count(h.win) + sum(
        (1 if k == "chi" and t <= h.win <= t + 2 else 0) + (3 if k == "pon" and t == h.win else 0)
        + (4 if k in ("kong", "ckong") and t == h.win else 0) for k, t in h.melds)
    if rng.random() < 0.12:
        if h.self_drawn and kongs:
            h.about_kong = True          # 杠上开花
        elif not h.self_drawn and held == 0 and not h.wall_last:
            h.about_kong = True          # 抢杠和: the three other copies are in the robbed kong
    exposed_copies = sum(3 if k == "pon" and t == h.win else (1 if k == "chi" and t <= h.win <= t + 2 else 0)
                         for k, t in h.melds)
    if h.concealed.count(h.win) == 0 and not any(k in ("kong", "ckong") and t == h.win for k, t in h.melds):
        if exposed_copies == 3 or (h.about_kong and not h.self_drawn):
            h.last_of_kind = True        # the other three copies are in sight
        else:
            h.last_of_kind = rng.random() < 0.25
    return h


def random_hand(rng: random.Random) -> Hand:
    """One random winning hand (every MCR fan can come out)."""
    while True:
        form = rng.random()
        if form < 0.80:
            h = _random_standard(rng)
        elif form < 0.88:
            h = _random_seven_pairs(rng)
        elif form < 0.90:
            h = _random_orphans(rng)
        elif form < 0.93:
            h = _random_honors_knitted(rng)
        elif form < 0.97:
            h = _random_knitted_straight(rng)
        else:
            h = _random_nine_gates(rng)
        if h is not None:
            return _add_flags(rng, h)


def _split_win(rng: random.Random, tiles: list[int], melds: list[tuple[str, int]]) -> Hand:
    tiles = list(tiles)
    win = tiles.pop(rng.randrange(len(tiles)))
    return Hand(concealed=tiles, win=win, melds=melds)


def _random_standard(rng: random.Random) -> Hand | None:
    got = _standard(rng)
    if got is None:
        return None
    groups, pair = got
    counts = [0] * 34
    for g in groups:
        for t in _group_tiles(*g):
            counts[t] += 1
    counts[pair] += 2
    declare = rng.choice((0.0, 0.0, 0.25, 0.5, 0.75, 1.0))
    kong_p = rng.choice((0.0, 0.2, 0.5, 0.9))
    melds: list[tuple[str, int]] = []
    concealed: list[int] = [pair, pair]
    for kind, t in groups:
        if kind == "pung" and rng.random() < kong_p and counts[t] == 3:
            counts[t] += 1
            melds.append(("kong" if rng.random() < declare or rng.random() < 0.3 else "ckong", t))
        elif rng.random() < declare:
            melds.append(("chi" if kind == "chow" else "pon", t))
        else:
            concealed.extend(_group_tiles(kind, t))
    h = _split_win(rng, concealed, melds)
    return h


def _random_seven_pairs(rng: random.Random) -> Hand | None:
    if rng.random() < 0.15:   # 连七对
        s = rng.randrange(3) * 9 + rng.randrange(3)
        pairs = [s + i for i in range(7)]
    else:
        theme = themes(rng)
        if len(theme.kinds) < 4:
            return None
        pairs = [rng.choice(theme.kinds) for _ in range(7)]
        if any(pairs.count(p) > 2 for p in pairs):
            return None
    tiles = [p for p in pairs for _ in range(2)]
    return _split_win(rng, tiles, [])


def _random_orphans(rng: random.Random) -> Hand:
    tiles = list(TERMINALS + HONORS)
    tiles.append(rng.choice(tiles))
    return _split_win(rng, tiles, [])


def _knitted(rng: random.Random) -> list[int]:
    suits = [0, 1, 2]
    rng.shuffle(suits)
    return [suits[i] * 9 + r - 1 for i, ranks in enumerate(((1, 4, 7), (2, 5, 8), (3, 6, 9))) for r in ranks]


def _random_honors_knitted(rng: random.Random) -> Hand:
    knit = _knitted(rng)
    if rng.random() < 0.3:
        tiles = list(HONORS) + rng.sample(knit, 7)        # 七星不靠
    else:
        n_h = rng.randrange(5, 8)
        tiles = rng.sample(HONORS, n_h) + rng.sample(knit, 14 - n_h)
    return _split_win(rng, tiles, [])


def _random_knitted_straight(rng: random.Random) -> Hand | None:
    knit = _knitted(rng)
    counts = [0] * 34
    for t in knit:
        counts[t] += 1
    theme = themes(rng)
    starts = _chow_starts(theme.kinds)
    g = ("chow", rng.choice(starts)) if starts and rng.random() < theme.chow else ("pung", rng.choice(theme.kinds))
    tiles = _group_tiles(*g)
    pair = rng.choice(theme.kinds)
    for t in tiles + [pair, pair]:
        counts[t] += 1
    if max(counts) > 4:
        return None
    melds: list[tuple[str, int]] = []
    concealed = knit + [pair, pair]
    if rng.random() < 0.4:
        kind, t = g
        if kind == "pung" and counts[t] == 3 and rng.random() < 0.4:
            melds.append((rng.choice(("kong", "ckong")), t))
        else:
            melds.append(("chi" if kind == "chow" else "pon", t))
    else:
        concealed += tiles
    return _split_win(rng, concealed, melds)


def _random_nine_gates(rng: random.Random) -> Hand:
    s = rng.randrange(3) * 9
    base = [s + r - 1 for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    extra = s + rng.randrange(9)
    if rng.random() < 0.8:
        return Hand(concealed=base, win=extra)
    return _split_win(rng, base + [extra], [])


# --------------------------------------------------------------------------- comparison
GB_TO_ID: dict[str, str] = {}
"""PyMahjongGB's Chinese fan name -> our fan id (filled from our table's names plus the
renamings below: the library's spellings that differ from ours)."""
GB_RENAMED = {
    "独听・单钓": "single_wait", "独听・嵌张": "closed_wait", "独听・边张": "edge_wait", "花龙": "mixed_straight", "全求人": "melded_hand",
    "碰碰和": "all_pungs", "七星不靠": "greater_honors_and_knitted_tiles", "全不靠": "lesser_honors_and_knitted_tiles",
}


def gb_fans(h: Hand) -> Counter:
    from MahjongGB import MahjongFanCalculator
    out: Counter = Counter()
    for points, cnt, zh, en in MahjongFanCalculator(**h.gb(), verbose=True):
        fid = GB_TO_ID.get(zh) or GB_RENAMED.get(zh) or f"?{zh}/{en}"
        out[(fid, points)] += cnt
    return out


def our_fans(h: Hand, ruleset: str) -> Counter:
    import mahjong_core as mj
    counts = [0] * 34
    for t in h.concealed:
        counts[t] += 1
    s = mj.score(counts, h.win, ruleset=ruleset, **h.ours())
    return Counter({(f.id, f.points): f.count for f in s.fans})


def classify(ours: Counter, gb: Counter) -> str:
    plus = sorted(f"+{fid}" + (f"x{n}" if n > 1 else "") for (fid, _), n in (ours - gb).items())
    minus = sorted(f"-{fid}" + (f"x{n}" if n > 1 else "") for (fid, _), n in (gb - ours).items())
    return " ".join(plus + minus)


def run(n: int, seed: int, ruleset: str, examples: int = 1, progress: bool = False,
        dump: "list[Hand] | None" = None) -> dict:
    from mahjong_core import fan_table
    for f in fan_table(ruleset):
        GB_TO_ID.setdefault(f.zh, f.id)
    rng = random.Random(seed)
    classes: Counter = Counter()
    unequal: Counter = Counter()   # the classes whose totals differ (the others are equal-total readings)
    samples: dict[str, list[str]] = {}
    fans_seen: Counter = Counter()
    agree = total_agree = 0
    t0 = time.perf_counter()
    for i in range(n):
        h = random_hand(rng)
        gb = gb_fans(h)
        ours = our_fans(h, ruleset)
        for fid, _ in gb:
            fans_seen[fid] += 1
        s_gb = sum(p * c for (_, p), c in gb.items())
        s_ours = sum(p * c for (_, p), c in ours.items())
        if s_gb == s_ours:
            total_agree += 1
        if progress and (i + 1) % 100000 == 0:
            print(f"  {i + 1} hands, {(agree + (gb == ours)) / (i + 1):.6%} agree", file=sys.stderr, flush=True)
        if gb == ours:
            agree += 1
            continue
        key = classify(ours, gb)
        classes[key] += 1
        if dump is not None:
            dump.append(h)
        if len(samples.setdefault(key, [])) < examples:
            samples[key].append(f"{h.text()}  ours={s_ours} gb={s_gb}")
        if s_gb != s_ours:
            unequal[key] += 1
    return dict(n=n, agree=agree, total_agree=total_agree, classes=classes, unequal=unequal, samples=samples,
                fans_seen=fans_seen, seconds=time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="mcr")
    ap.add_argument("--examples", type=int, default=1)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--dump", metavar="PATH", help="write every differing hand to PATH as JSON lines")
    args = ap.parse_args(argv)
    dump: list[Hand] | None = [] if args.dump else None
    r = run(args.hands, args.seed, args.ruleset, args.examples, args.progress, dump)
    if args.dump:
        import dataclasses
        import json
        with open(args.dump, "w", encoding="utf-8") as fh:
            for h in dump or ():
                fh.write(json.dumps(dataclasses.asdict(h)) + "\n")
    n = r["n"]
    print(f"{n} hands, seed {args.seed}, ruleset {args.ruleset}: fan multisets agree on {r['agree']} "
          f"({r['agree'] / n:.6%}), totals on {r['total_agree']} ({r['total_agree'] / n:.6%}); "
          f"{r['seconds']:.1f} s")
    from mahjong_core import fan_table
    unseen = [f.id for f in fan_table(args.ruleset) if f.id not in r["fans_seen"] and f.id != "no_caishen"]
    print(f"fans PyMahjongGB counted: {len(r['fans_seen'])}; never seen: {unseen or 'none'}")
    for key, c in r["classes"].most_common():
        print(f"{c:8d}  {key}" + (f"   (totals differ in {r['unequal'][key]})" if r["unequal"][key] else
                                  "   (equal totals: another reading of the same value)"))
        for s in r["samples"][key]:
            print(f"          {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
