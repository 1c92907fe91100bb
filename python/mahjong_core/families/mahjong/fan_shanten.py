"""Fan-aware shanten: how far a hand is from a win that reaches the minimum fan (起和).

Plain shanten counts tiles to *a* complete hand; in a ruleset with a minimum (8 fans in every
mahjong ruleset here, spec 2.12) a complete hand under the minimum cannot be declared, so a
"ready" hand may be no closer to a win than a two-away hand.

Definition
----------
Let ``H`` be the concealed hand (3k+1 tiles, with 4-k declared groups ``M``), ``V`` the tiles the
player sees outside his hand and his own melds (all discards, his included, the other players'
exposed groups; flowers are ignored) and ``live[t] = 4 - H[t] - M[t] - V[t]`` the unseen copies.
The **fan-aware shanten** of ``H`` is ``n - 1`` for the smallest ``n`` such that there is

* a multiset ``A`` of ``n`` drawn tiles with ``A[t] <= live[t]`` for every kind,
* a winning tile ``w`` in ``A``, and
* a hand ``W`` of 3k+2 tiles, ``W <= H + A`` (as multisets), ``W[w] >= 1``,

such that ``W`` with the melds ``M`` is a winning hand of the ruleset whose non-flower fan total,
with ``w`` as the winning tile, is at least the minimum.  The win is scored with no situational
flag but the win method: on another player's discard, by self-draw, or either (``win="any"``,
the default: the hand counts if one of the two methods reaches the minimum); seat and prevalent
wind as given; no flowers (they never count toward the minimum).  ``-1`` is impossible here (the
hand has 3k+1 tiles), ``0`` means ready to win on a tile that scores enough, and a hand that can
never reach the minimum has no finite value.  The drawn tiles are limited by the copies unseen
now; tiles seen later are not foreseen.

Plain shanten is the same definition with every complete hand allowed, so it is a lower bound.

The **breakdown by target** gives, for each common fan that carries a hand over the minimum
(清一色, 混一色, 碰碰和, 七对, 清龙, and in ``public`` 花龙, 三色三同顺, 三色三步高, 五门齐, 十三幺, 全不靠,
组合龙), the same number with the extra condition that the scored hand counts that fan.

Implementations
---------------
:func:`mahjong_core.families.mahjong._ref.fan_shanten.fan_shanten_ref` is the slow exact
reference: it tries every ``A`` of size 1, 2, ... and every ``W`` inside ``H + A`` and asks the
public ``is_win`` and ``score``.  This module is the fast version: it enumerates the complete
hands ``W`` themselves (groups and pair, seven pairs, the special forms) whose distance
``|W - H|`` (tiles of ``W`` not in ``H``) is at most a budget, scores them with the compiled
evaluator in one batch call without the GIL, and raises the budget until the answer is known.
The enumeration, the choice of the ``(W, w)`` worth scoring (those some hand reaches within the
budget; after the first budget, in exactly the budget) and the fewest-draws pass are compiled
(``mahjong_core._advise``); ``compiled=False`` runs the same search in Python, scoring every
``(W, w)``, and the tests hold the two equal.
Every ``(W, w)`` with ``n <= budget`` is enumerated, so a value found within the budget is exact
and so are the sets of minimal completions with their winning tiles (the advisor's effective
tiles and ways come from them).  The first budget is plain shanten + 1 (a lower bound); the search
stops at ``max_draws`` drawn tiles (default 6), or after that first budget if it is larger.  When it stops without an answer,
:attr:`FanShanten.exact` is False and the value is a lower bound (the last budget).  The fast
version is therefore exact on every input whose fan-aware shanten is below
``max(max_draws, plain shanten + 1)``; the hypothesis tests hold it to the reference on such hands.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import _advise, _fan
from ..._types import HandLike, MeldLike, TileLike, WindLike
from ..._validate import counted, short_repr as _short_repr
from ...errors import HandSizeError, MahjongError, RulesetError, TileCountError
from ._constants import FLAG_SELF_DRAWN, MELD_CHI, MELD_NONE
from .hand import shanten as _plain_shanten
from .rulesets import DEFAULT_RULESET, Ruleset, get_ruleset
from .scoring import _parse_melds
from .tiles import (
    meld_tiles,
    parse_hand,
    parse_tiles,
    parse_wind,
    tile_short,
    to_counts,
)

__all__ = ["DEFAULT_MAX_DRAWS", "WIN_METHODS", "FanShanten", "TargetShanten", "fan_shanten"]

DEFAULT_MAX_DRAWS = 6
MAX_DRAWS = 14
"""Largest search limit (``max_draws``): a hand has 14 tiles."""
"""Largest number of drawn tiles the fast search looks at unless told otherwise."""

WIN_METHODS: dict[str, tuple[int, ...]] = {
    "any": (0, FLAG_SELF_DRAWN),
    "discard": (0,),
    "self_drawn": (FLAG_SELF_DRAWN,),
}
"""The evaluator flags a completed hand is scored with, per ``win=`` value."""

_KNITTED = tuple(
    tuple(sorted(9 * suit + rank for suit, first in zip(perm, (0, 1, 2)) for rank in (first, first + 3, first + 6)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted patterns (组合龙, spec 1.1): ranks 147, 258, 369 in a permutation of the suits."""
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_HONORS = tuple(range(27, 34))


# ------------------------------------------------------------------ results
@dataclass(frozen=True)
class TargetShanten:
    """Fan-aware shanten toward one target fan: the hand must also count ``fan``."""

    fan: str
    zh: str
    en: str
    shanten: int | None
    """None: no such hand within the search limit (``max_draws`` tiles), or none at all."""

    def to_json(self) -> dict[str, Any]:
        return {"fan": self.fan, "zh": self.zh, "en": self.en, "shanten": self.shanten}


@dataclass(frozen=True)
class FanShanten:
    """The result of :func:`fan_shanten`."""

    shanten: int
    """Fan-aware shanten (0 = ready to win with enough fans); a lower bound when not exact."""
    exact: bool
    """False when the search stopped at ``max_draws`` before finding a qualifying hand."""
    plain: int
    """Plain shanten of the same hand (every complete hand allowed)."""
    min_fan: int
    targets: tuple[TargetShanten, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"shanten": self.shanten, "exact": self.exact, "plain": self.plain, "min_fan": self.min_fan,
                "targets": [t.to_json() for t in self.targets]}


# ------------------------------------------------------------------ input
@dataclass(frozen=True)
class Problem:
    """A validated hand with its context; shared by :func:`fan_shanten` and the advisor."""

    rs: Ruleset
    hand: tuple[int, ...]
    """Concealed counts (34)."""
    melds: tuple[tuple[int, int], ...]
    """Declared groups as (kind code, first tile)."""
    meld_counts: tuple[int, ...]
    visible: tuple[int, ...]
    seat_wind: int
    round_wind: int
    min_fan: int
    flags: tuple[int, ...]

    @property
    def live(self) -> tuple[int, ...]:
        """Unseen copies of each kind (0 for kinds the ruleset does not play)."""
        mask = self.rs.kind_mask
        return tuple(4 - h - m - v if (mask >> t) & 1 else 0
                     for t, (h, m, v) in enumerate(zip(self.hand, self.meld_counts, self.visible)))


def _visible_counts(visible: Any, rs: Ruleset) -> list[int]:
    """Visible tiles as 34 counts; flowers in a tile string are dropped (they are no tile kind)."""
    if visible is None:
        return [0] * 34
    if isinstance(visible, str):
        out = [0] * 34
        for t in parse_tiles(visible):
            if t < 34:
                out[t] += 1
        over = [t for t in range(34) if out[t] > 4]
        if over:
            raise TileCountError(f"visible: {out[over[0]]} copies of {tile_short(over[0])}; a tile has only 4")
    else:
        try:
            out = [int(v) for v in to_counts(visible)]
        except MahjongError as exc:     # same class, the message says which argument it was
            raise type(exc)(f"visible: {exc}") from None
    outside = [t for t in range(34) if out[t] and not (rs.kind_mask >> t) & 1]
    if outside:
        raise RulesetError(f"visible tile {tile_short(outside[0])} is not played in ruleset {rs.name!r}")
    return out


def prepare(hand: Any, *, tiles: int, ruleset: str | Ruleset = DEFAULT_RULESET, melds: Any = (),
            visible: Any = None, seat_wind: Any = None, round_wind: Any = None, win: str = "any",
            min_fan: Any = None) -> Problem:
    """Check every argument and build a :class:`Problem`; ``tiles`` is 13 or 14 (kongs as 3).
    The keywords are those of :func:`fan_shanten` and :func:`~.advise.advise`, same defaults."""
    rs = get_ruleset(ruleset, "mj.advise" if tiles == 14 else "mj.fan_shanten")
    counts = [int(v) for v in (parse_hand(hand) if isinstance(hand, str) else to_counts(hand))]
    outside = [t for t in range(34) if counts[t] and not (rs.kind_mask >> t) & 1]
    if outside:
        raise RulesetError(f"tile {tile_short(outside[0])} is not played in ruleset {rs.name!r}")
    parsed = tuple(_parse_melds(melds))
    mc = [0] * 34
    for kind, first in parsed:
        for t in meld_tiles(kind, first):
            mc[t] += 1
    bad = [t for t in range(34) if mc[t] and not (rs.kind_mask >> t) & 1]
    if bad:
        raise RulesetError(f"meld tile {tile_short(bad[0])} is not played in ruleset {rs.name!r}")
    n = sum(counts) + 3 * len(parsed)
    if n != tiles:
        what = "a hand that must discard" if tiles == 14 else "a hand waiting for a tile"
        raise HandSizeError(f"{counted(sum(counts), 'concealed tile')} and {counted(len(parsed), 'meld')} make "
                            f"{counted(n, 'tile')} (kongs counted as 3); {what} has {tiles}")
    seen = _visible_counts(visible, rs)
    for t in range(34):
        total = counts[t] + mc[t] + seen[t]
        if total > 4:
            raise TileCountError(f"{tile_short(t)}: {counts[t]} in hand, {mc[t]} in melds and {seen[t]} visible "
                                 f"make {total} copies; a tile has only 4")
    if not isinstance(win, str) or win not in WIN_METHODS:
        raise MahjongError(f"win must be one of {', '.join(WIN_METHODS)}, got {_short_repr(win)}")
    seat = 27 if seat_wind is None else parse_wind(seat_wind, "seat_wind")
    prevalent = 27 if round_wind is None else parse_wind(round_wind, "round_wind")
    if min_fan is None:
        mins = rs.min_fan
    else:
        if isinstance(min_fan, bool) or not isinstance(min_fan, (int, np.integer)) or not 0 <= min_fan <= _fan.MAX_MIN_FAN:
            raise MahjongError(f"min_fan must be an integer 0-{_fan.MAX_MIN_FAN}, got {_short_repr(min_fan)}")
        mins = int(min_fan)
    return Problem(rs, tuple(counts), parsed, tuple(mc), tuple(seen), seat, prevalent, mins, WIN_METHODS[win])


# ------------------------------------------------------------------ enumeration of complete hands
@dataclass(frozen=True)
class Shape:
    """Which complete hands a search enumerates: the standard form over ``groups`` and ``pairs``
    (each start in ``seeds`` is a fixed set of tiles the groups are added to, with ``seed_groups``
    groups' worth of tiles), and optionally seven pairs and the special forms."""

    groups: tuple[tuple[int, ...], ...]
    pairs: tuple[int, ...]
    seeds: tuple[tuple[tuple[int, ...], int], ...] = (((), 0),)
    seven_pairs: bool = False
    specials: bool = False


def all_groups(kinds: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    """Every pung and chow made of the given kinds, in a fixed order."""
    ks = set(kinds)
    pungs = [(t, t, t) for t in sorted(ks)]
    chows = [(b, b + 1, b + 2) for s in range(3) for b in range(9 * s, 9 * s + 7)
             if b in ks and b + 1 in ks and b + 2 in ks]
    return tuple(pungs + chows)


def _fill(w: list[int], base: Sequence[int], cap: Sequence[int], groups: tuple[tuple[int, ...], ...],
          start: int, left: int, pairs: tuple[int, ...], cost: int, budget: int, out: set[bytes]) -> None:
    """Add ``left`` groups (indices >= start, repeats allowed) and then a pair to ``w``, keeping
    the tiles of ``w`` not in ``base`` at most ``budget``; every complete hand goes to ``out``."""
    if left == 0:
        for p in pairs:
            c = cost + (w[p] >= base[p]) + (w[p] + 1 >= base[p])
            if c <= budget and w[p] + 2 <= cap[p]:
                w[p] += 2
                out.add(bytes(w))
                w[p] -= 2
        return
    for g in range(start, len(groups)):
        a, b, c3 = groups[g]
        c = cost
        w[a] += 1
        c += w[a] > base[a]
        w[b] += 1
        c += w[b] > base[b]
        w[c3] += 1
        c += w[c3] > base[c3]
        if c <= budget and w[a] <= cap[a] and w[b] <= cap[b] and w[c3] <= cap[c3]:
            _fill(w, base, cap, groups, g, left - 1, pairs, c, budget, out)
        w[a] -= 1
        w[b] -= 1
        w[c3] -= 1


def _distance(w: Sequence[int], base: Sequence[int]) -> int:
    return sum(x - b for x, b in zip(w, base) if x > b)


def _seven_pairs(base: Sequence[int], cap: Sequence[int], kinds: Sequence[int], budget: int,
                 out: set[bytes]) -> None:
    """Every seven-pairs hand (a kind twice = four copies) within ``budget`` of ``base``."""
    w = [0] * 34
    # pair slots of the kinds from j on that cost nothing / one drawn tile: a bound on what the
    # pairs still to choose must cost, so hopeless branches stop at once
    free = [0] * (len(kinds) + 1)
    one = [0] * (len(kinds) + 1)
    for j in range(len(kinds) - 1, -1, -1):
        b = min(base[kinds[j]], cap[kinds[j]])
        free[j] = free[j + 1] + b // 2
        one[j] = one[j + 1] + b % 2

    def rec(i: int, left: int, cost: int) -> None:
        if left == 0:
            out.add(bytes(w))
            return
        short = left - free[i]
        if short > 0 and cost + min(short, one[i]) + 2 * max(0, short - one[i]) > budget:
            return
        for j in range(i, len(kinds)):
            t = kinds[j]
            for m in (2, 4):
                if m // 2 > left or m > cap[t]:
                    break
                c = cost + max(0, m - base[t])
                if c > budget:
                    break
                w[t] = m
                rec(j + 1, left - m // 2, c)
                w[t] = 0

    rec(0, 7, 0)


_SPECIAL_HANDS: dict[frozenset[int], np.ndarray] = {}
"""The special-form hands of each tile set, built on first use (a plain dict: stubtest reads a
cached function's signature as ``*args, **kwargs``)."""


def _special_hands(rs_kinds: frozenset[int]) -> np.ndarray:
    """Every thirteen-orphans and 全不靠 hand (public only), as rows of 34 counts."""
    if rs_kinds in _SPECIAL_HANDS:
        return _SPECIAL_HANDS[rs_kinds]
    hands = []
    for extra in _ORPHANS:
        w = [0] * 34
        for t in _ORPHANS:
            w[t] = 1
        w[extra] += 1
        hands.append(w)
    for pattern in _KNITTED:
        pool = list(pattern) + list(_HONORS)
        for i in range(len(pool)):
            for j in range(i + 1, len(pool)):
                w = [0] * 34
                for k, t in enumerate(pool):
                    if k != i and k != j:
                        w[t] = 1
                hands.append(w)
    out = np.array([w for w in hands if all(t in rs_kinds for t in range(34) if w[t])], np.int16)
    _SPECIAL_HANDS[rs_kinds] = out
    return out


def _cap(prob: Problem) -> list[int]:
    """The most copies of each kind a concealed part may hold (4 less the melds and visible)."""
    return [4 - m - v for m, v in zip(prob.meld_counts, prob.visible)]


def _seed_starts(prob: Problem, base: Sequence[int], shape: Shape, cap: Sequence[int],
                 budget: int) -> list[tuple[list[int], int, int]]:
    """The starts of the standard form: each seed of ``shape`` that fits, as (counts, groups
    still to add, tiles not in ``base``), within ``budget``."""
    n_groups = 4 - len(prob.melds)
    out = []
    for seed, seed_groups in shape.seeds:
        if seed_groups > n_groups:
            continue
        w = [0] * 34
        for t in seed:
            w[t] += 1
        if any(w[t] > cap[t] for t in seed):
            continue
        cost = _distance(w, base)
        if cost <= budget:
            out.append((w, n_groups - seed_groups, cost))
    return out


def enumerate_hands(prob: Problem, base: Sequence[int], shape: Shape, budget: int) -> list[bytes]:
    """Every complete concealed part of ``shape`` within ``budget`` tiles of ``base``."""
    cap = _cap(prob)
    out: set[bytes] = set()
    for w, left, cost in _seed_starts(prob, base, shape, cap, budget):
        _fill(w, base, cap, shape.groups, 0, left, shape.pairs, cost, budget, out)
    if not prob.melds:
        if shape.seven_pairs:
            _seven_pairs(base, cap, shape.pairs, budget, out)
        if shape.specials and prob.rs.special_forms:
            ws = _special_hands(frozenset(prob.rs.kinds))
            keep = ((ws <= np.array(cap)).all(axis=1)
                    & (np.maximum(ws - np.array(base, np.int16), 0).sum(axis=1) <= budget))
            out.update(w.astype(np.uint8).tobytes() for w in ws[keep])
    return sorted(out)


_POW5 = 5 ** np.arange(17, dtype=np.int64)


def distinct_rows(a: np.ndarray) -> np.ndarray:
    """The distinct rows of an (M, 34) array of counts 0-4, in no promised order.  Each row is
    packed into two base-5 keys and the keys sorted: ``np.unique(axis=0)`` sorts void records,
    several times slower, and this sits in the advisor's inner loop."""
    if len(a) < 2:
        return a
    k1, k2 = row_keys(a)
    order = np.lexsort((k2, k1))
    k1, k2 = k1[order], k2[order]
    first = np.ones(len(a), bool)
    first[1:] = (k1[1:] != k1[:-1]) | (k2[1:] != k2[:-1])
    return a[order[first]]


def row_keys(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two int64 keys per row of an (M, 34) array of counts 0-4 (base 5, 17 columns each): equal
    keys, equal rows."""
    b = a.astype(np.int64)      # one conversion of the whole array: twice as fast as two of its halves
    return b[:, :17] @ _POW5, b[:, 17:] @ _POW5


_SHAPE_ARRAYS: dict[Shape, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
"""Each shape's groups (G, 3), pair kinds, seeds (S, 34) and seeds' groups as the arrays the
compiled loops take."""


def _shape_arrays(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if shape not in _SHAPE_ARRAYS:
        seeds = np.zeros((len(shape.seeds), 34), np.int16)
        for i, (seed, _) in enumerate(shape.seeds):
            for t in seed:
                seeds[i, t] += 1
        _SHAPE_ARRAYS[shape] = (np.array(shape.groups, np.int32).reshape(-1, 3), np.array(shape.pairs, np.int32),
                                seeds, np.array([g for _, g in shape.seeds], np.int32))
    return _SHAPE_ARRAYS[shape]


def enumerate_array(prob: Problem, base: Sequence[int], shape: Shape, budget: int) -> np.ndarray:
    """:func:`enumerate_hands` by the compiled loops: the same hands as rows of 34 counts
    (uint8), some possibly more than once."""
    cap_a = np.array(_cap(prob), np.int16)
    base_a = np.array(base, np.int16)
    groups, pairs, seeds, seed_groups = _shape_arrays(shape)
    parts = [np.zeros((0, 34), np.uint8)]
    if len(seeds):      # the seeds of _seed_starts, all at once
        lefts = (4 - len(prob.melds)) - seed_groups
        costs = np.maximum(seeds - base_a, 0).sum(axis=1, dtype=np.int32)
        fit = (lefts >= 0) & (seeds <= cap_a).all(axis=1) & (costs <= budget)
        parts.append(_advise.fill_groups(seeds[fit].astype(np.uint8), lefts[fit], costs[fit], base_a, cap_a,
                                         groups, pairs, budget))
    if not prob.melds:
        if shape.seven_pairs:
            parts.append(_advise.seven_pairs(base_a, cap_a, pairs, budget))
        if shape.specials and prob.rs.special_forms:
            ws = _special_hands(frozenset(prob.rs.kinds))
            keep = (ws <= cap_a).all(axis=1) & (np.maximum(ws - base_a, 0).sum(axis=1) <= budget)
            parts.append(ws[keep].astype(np.uint8))
    return np.concatenate(parts)


# ------------------------------------------------------------------ scoring the candidates
@dataclass
class Scored:
    """Every (complete hand, winning tile, win method) row of a search, scored."""

    hands: np.ndarray       # (R, 34) int16: the complete concealed part W
    wins: np.ndarray        # (R,) winning tile kind
    ok: np.ndarray          # (R,) bool: non-flower total >= the minimum
    counts: np.ndarray      # (R, n_fans) fan counts


def score_hands(prob: Problem, hands: list[bytes]) -> Scored:
    """Score every complete hand with each kind it holds as the winning tile, for every win method."""
    ws = np.frombuffer(b"".join(hands), dtype=np.uint8).reshape(-1, 34)
    held_rows, held_kinds = np.nonzero(ws)
    return score_rows(prob, ws, held_rows, held_kinds)


def score_rows(prob: Problem, ws: np.ndarray, held_rows: np.ndarray, held_kinds: np.ndarray,
               win_flags: Sequence[int] | None = None) -> Scored:
    """Score the complete hands ``ws[held_rows]`` winning on ``held_kinds``, for every win method
    (``win_flags``: these evaluator flags instead of the problem's)."""
    if not len(held_rows):
        nf = _fan.fan_count(prob.rs.code)
        z = np.zeros((0, 34), np.int16)
        return Scored(z, np.zeros(0, np.int16), np.zeros(0, bool), np.zeros((0, nf), np.uint16))
    win_flags = prob.flags if win_flags is None else win_flags
    nflag = len(win_flags)
    rows = np.repeat(held_rows, nflag)
    kinds: np.ndarray = np.repeat(held_kinds, nflag).astype(np.int16)
    flags = np.tile(np.array(win_flags, np.uint32), len(rows) // nflag)
    concealed = ws[rows].copy()
    concealed[np.arange(len(rows)), kinds] -= 1
    meld_row = np.full((4, 2), MELD_NONE, np.uint8)
    for i, (kind, first) in enumerate(prob.melds):
        meld_row[i] = (kind, first)
    n = len(rows)
    melds = np.ascontiguousarray(np.broadcast_to(meld_row, (n, 4, 2)))
    _, nft, counts = _fan.evaluate_batch(
        prob.rs.code, concealed, kinds, melds, flags, np.zeros(n, np.uint32),
        np.full(n, prob.seat_wind, np.uint8), np.full(n, prob.round_wind, np.uint8), prob.min_fan, 0)
    return Scored(ws[rows].astype(np.int16), kinds, nft >= prob.min_fan, counts)


def draws_needed(sc: Scored, hand: Sequence[int], live: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """For each scored row: the tiles to draw from ``hand`` (``n`` of the definition, or a large
    number when the unseen copies do not allow it) and the drawn multiset ``A`` (R, 34)."""
    h = np.asarray(hand, np.int16)
    need = np.maximum(sc.hands - h, 0)
    r = np.arange(len(sc.wins))
    redraw = need[r, sc.wins] == 0          # the winning tile must be drawn: draw one more copy
    need[r[redraw], sc.wins[redraw]] += 1
    n = need.sum(axis=1)
    feasible = (need <= np.asarray(live, np.int16)).all(axis=1)
    n = np.where(feasible, n, 99)
    return n, need


# ------------------------------------------------------------------ targets
@dataclass(frozen=True)
class Target:
    fan: str
    shapes: tuple[Shape, ...]
    all_types: bool = False
    """五门齐: the compiled search scores only the hands that, with the melds, hold all five
    types (a hand without them cannot count the fan)."""


def _suit_kinds(s: int) -> tuple[int, ...]:
    return tuple(range(9 * s, 9 * s + 9))


def standard_shape(rs: Ruleset) -> Shape:
    """Every complete hand of the ruleset."""
    kinds = tuple(rs.kinds)
    seeds: tuple[tuple[tuple[int, ...], int], ...] = (((), 0),)
    if rs.special_forms:
        seeds += tuple((p, 3) for p in _KNITTED)
    return Shape(all_groups(kinds), kinds, seeds, seven_pairs=True, specials=True)


def _straight_seeds(straights: Iterable[tuple[int, int, int]],
                    melds: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Seeds of a three-chow target (chows given by their first tiles): the chows no declared
    chow supplies, as fixed concealed tiles, with their number of groups."""
    seeds = []
    for chows in straights:
        declared = [first for kind, first in melds if kind == MELD_CHI]
        left = []
        for first in chows:
            if first in declared:
                declared.remove(first)
            else:
                left.append(first)
        seeds.append((tuple(sorted(t for first in left for t in (first, first + 1, first + 2))), len(left)))
    return tuple(seeds)


def _all_types_shapes(rs: Ruleset, melds: tuple[tuple[int, int], ...]) -> tuple[Shape, ...]:
    """The hands that may count 五门齐: a wind and a dragon the melds lack come in the concealed
    part as a pung or the pair (honors form no chow), or as pairs of seven pairs, or beside a
    knitted straight; the suits are left to the filter of :class:`Target`."""
    kinds = tuple(rs.kinds)
    groups = all_groups(kinds)
    in_melds = {t for kind, first in melds for t in meld_tiles(kind, first)}
    winds, dragons = tuple(range(27, 31)), tuple(range(31, 34))
    missing = [x for x in (winds, dragons) if not in_melds & set(x)]
    knitted = Shape(groups, kinds, tuple((p, 3) for p in _KNITTED), seven_pairs=True, specials=True)
    if not missing:
        return (standard_shape(rs),)
    if len(missing) == 1:
        (xs,) = missing
        return (Shape(groups, xs), Shape(groups, kinds, tuple(((x, x, x), 1) for x in xs)), knitted)
    return (Shape(groups, winds, tuple(((d, d, d), 1) for d in dragons)),
            Shape(groups, dragons, tuple(((w, w, w), 1) for w in winds)),
            Shape(groups, kinds, tuple(((w, w, w, d, d, d), 2) for w in winds for d in dragons)),
            knitted)


_TARGETS: dict[tuple[int, tuple[int, ...], bool, tuple[tuple[int, int], ...]], tuple[Target, ...]] = {}
"""The targets of each ruleset (its fan tables, tiles and forms) and melds seen, built on first use."""


def targets(rs: Ruleset, melds: tuple[tuple[int, int], ...] = ()) -> tuple[Target, ...]:
    """The target fans of a ruleset and the hands each is searched over (``melds``: the declared
    groups, which may supply a straight's chows)."""
    key = (rs.code, rs.kinds, rs.special_forms, melds)
    if key not in _TARGETS:
        _TARGETS[key] = _build_targets(rs, melds)
    return _TARGETS[key]


def _build_targets(rs: Ruleset, melds: tuple[tuple[int, int], ...]) -> tuple[Target, ...]:
    kinds = set(rs.kinds)
    suits = [s for s in range(3) if set(_suit_kinds(s)) <= kinds]
    honors = tuple(t for t in _HONORS if t in kinds)
    out: list[Target] = []

    def shape(ks: Iterable[int], seven: bool = True, pungs_only: bool = False,
              seeds: tuple[tuple[tuple[int, ...], int], ...] = (((), 0),)) -> Shape:
        ks = tuple(sorted(set(ks)))
        groups = all_groups(ks)
        if pungs_only:
            groups = tuple(g for g in groups if g[0] == g[1])
        return Shape(groups, ks, seeds, seven_pairs=seven)

    out.append(Target("full_flush", tuple(shape(_suit_kinds(s)) for s in suits)))
    if honors:
        out.append(Target("half_flush", tuple(shape(_suit_kinds(s) + honors) for s in suits)))
    out.append(Target("all_pungs", (shape(rs.kinds, seven=False, pungs_only=True),)))
    out.append(Target("seven_pairs", (Shape((), tuple(rs.kinds), (), seven_pairs=True),)))
    if len(suits) == 3:
        pure = _straight_seeds(((9 * s, 9 * s + 3, 9 * s + 6) for s in suits), melds)
        out.append(Target("pure_straight", (shape(rs.kinds, seven=False, seeds=pure),)))
        perms = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
        mixed = _straight_seeds(((9 * a, 9 * b + 3, 9 * c + 6) for a, b, c in perms), melds)
        out.append(Target("mixed_straight", (shape(rs.kinds, seven=False, seeds=mixed),)))
        # 三色三同顺 (8) and 三色三步高 (6): three chows in the three suits, the same ranks or
        # ranks one apart; like the straights, a hand counts them only with those chows
        triple = _straight_seeds(((r, 9 + r, 18 + r) for r in range(7)), melds)
        out.append(Target("mixed_triple_chow", (shape(rs.kinds, seven=False, seeds=triple),)))
        shifted = _straight_seeds(((9 * a + r, 9 * b + r + 1, 9 * c + r + 2) for r in range(5)
                                   for a, b, c in perms), melds)
        out.append(Target("mixed_shifted_chows", (shape(rs.kinds, seven=False, seeds=shifted),)))
        if set(_HONORS) <= kinds:
            out.append(Target("all_types", _all_types_shapes(rs, melds), all_types=True))
    if rs.special_forms:
        out.append(Target("thirteen_orphans", (Shape((), (), (), specials=True),)))
        out.append(Target("lesser_honors_and_knitted_tiles", (Shape((), (), (), specials=True),)))
        out.append(Target("knitted_straight", (Shape(all_groups(rs.kinds), tuple(rs.kinds),
                                                     tuple((p, 3) for p in _KNITTED), specials=True),)))
    ids = {f.id for f in rs.fans}
    return tuple(t for t in out if t.fan in ids)


# ------------------------------------------------------------------ search
@dataclass
class Found:
    """The qualifying rows of one hand of a search with the fewest draws."""

    n: int | None            # fewest draws (None: none within the budget)
    rows: np.ndarray         # indices of the rows reaching it
    need: np.ndarray         # their drawn multisets (len(rows), 34)
    wins: np.ndarray         # their winning tiles (len(rows),): the tile drawn last


def _none() -> Found:
    return Found(None, np.zeros(0, np.intp), np.zeros((0, 34), np.int16), np.zeros(0, np.int16))


def best_rows(sc: Scored, hand: Sequence[int], live: Sequence[int], mask: np.ndarray | None = None) -> Found:
    """The qualifying rows of ``sc`` (and of ``mask``) needing the fewest draws from ``hand``."""
    idx = np.flatnonzero(sc.ok if mask is None else sc.ok & mask)
    sub = Scored(sc.hands[idx], sc.wins[idx], sc.ok[idx], sc.counts[idx])
    n, need = draws_needed(sub, hand, live)
    if not len(n) or n.min() >= 99:
        return _none()
    best = int(n.min())
    rows = np.flatnonzero(n == best)
    return Found(best, idx[rows], need[rows], sub.wins[rows])


def best_rows_compiled(sc: Scored, hands: Sequence[Sequence[int]], live: Sequence[int],
                       mask: np.ndarray | None = None) -> list[Found]:
    """:func:`best_rows` of each hand by the compiled loop (same rows, same order)."""
    keep = sc.ok if mask is None else sc.ok & mask
    out = _advise.fewest_draws(sc.hands, sc.wins, keep.view(np.uint8), np.array(hands, np.uint8).reshape(-1, 34),
                               np.array(live, np.uint8))
    return [Found(None if n < 0 else n, idx, need, sc.wins[idx]) for n, idx, need in out]


_TYPE_KINDS = (range(9), range(9, 18), range(18, 27), range(27, 31), range(31, 34))
"""The five types of 五门齐: the three suits, the winds, the dragons."""


def _holds_all_types(ws: np.ndarray, meld_counts: Sequence[int]) -> np.ndarray:
    """Which complete hands (rows) hold, with the melds, a tile of each of the five types."""
    ok = np.ones(len(ws), bool)
    for kinds in _TYPE_KINDS:
        if not any(meld_counts[t] for t in kinds):
            ok &= ws[:, kinds.start:kinds.stop].any(axis=1)
    return ok


def _score_compiled(prob: Problem, base: Sequence[int], hands: Sequence[Sequence[int]], live: Sequence[int],
                    shapes: Sequence[Shape], low: int, budget: int, all_types: bool = False,
                    ok_only: bool = False) -> Scored:
    """The rows of one budget, enumerated and pruned by the compiled loops, scored: only the
    (hand, winning tile) pairs some hand of ``hands`` can reach in ``low`` to ``budget`` draws
    (:func:`search` keeps rows needing at most ``budget``, and passes as ``low`` a number of
    draws below which it knows no row qualifies), so every :class:`Found` is the one of the
    Python path.  ``all_types``: only the hands holding the five types (五门齐) with the melds.
    ``ok_only``: the caller reads only ``ok`` (no fan column), so rows are scored per (hand,
    winning tile) until one win method qualifies."""
    return _score_pairs(prob, *_reachable(prob, base, hands, live, shapes, low, budget, all_types), ok_only)


def _reachable(prob: Problem, base: Sequence[int], hands: Sequence[Sequence[int]], live: Sequence[int],
               shapes: Sequence[Shape], low: int, budget: int,
               all_types: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first half of :func:`_score_compiled`: the complete hands of one budget (distinct rows)
    and the (row, winning tile) pairs worth scoring."""
    ws = _complete_hands(prob, base, shapes, budget, all_types)
    return (ws, *_reachable_pairs(ws, hands, live, low, budget))


def _complete_hands(prob: Problem, base: Sequence[int], shapes: Sequence[Shape], budget: int,
                    all_types: bool = False) -> np.ndarray:
    ws = np.concatenate([enumerate_array(prob, base, shape, budget) for shape in shapes])
    if all_types:
        ws = ws[_holds_all_types(ws, prob.meld_counts)]
    return distinct_rows(ws)


def _reachable_pairs(ws: np.ndarray, hands: Sequence[Sequence[int]], live: Sequence[int], low: int,
                     budget: int) -> tuple[np.ndarray, np.ndarray]:
    rows, kinds = _advise.reachable_wins(ws, np.array(hands, np.uint8).reshape(-1, 34),
                                         np.array(live, np.uint8), low, budget)
    return rows, kinds


def _score_pairs(prob: Problem, ws: np.ndarray, rows: np.ndarray, kinds: np.ndarray, ok_only: bool) -> Scored:
    """The second half of :func:`_score_compiled`: the pairs scored."""
    if not ok_only or len(prob.flags) == 1:
        return score_rows(prob, ws, rows, kinds)
    # win="any" and only "reaches the minimum" asked: a (hand, winning tile) that qualifies on a
    # discard needs no self-drawn row (same draws, same drawn tiles)
    first = score_rows(prob, ws, rows, kinds, prob.flags[:1])
    miss = ~first.ok
    second = score_rows(prob, ws, rows[miss], kinds[miss], prob.flags[1:])
    return Scored(np.concatenate([first.hands, second.hands]), np.concatenate([first.wins, second.wins]),
                  np.concatenate([first.ok, second.ok]), np.concatenate([first.counts, second.counts]))


def _within(f: Found, budget: int) -> bool:
    return f.n is not None and f.n <= budget


WORK_PER_PAIR = 4
"""What scoring one (complete hand, winning tile) pair counts in :class:`Work`, against 1 for
each complete hand enumerated: a pair is scored by the fan evaluator (once or twice, by the win
methods) and its qualifying rows go through the fewest-draws pass and the advisor's ways, three
to seven times what enumerating a hand costs (measured over the decisions of seeded rounds)."""

REACH_PER_WORK = 10
"""Checks of a complete hand against one candidate hand (which pairs it can reach) per unit of
:class:`Work`: a tenth of what enumerating a hand costs."""


@dataclass
class Work:
    """The work of the compiled fan search, counted without a clock, and an optional allowance
    of it (a search bot's budget, so that its decisions stay reproducible).

    Each budget (search limit) counts the complete hands it enumerated, one per
    :data:`REACH_PER_WORK` checks of such a hand against a candidate hand, and
    :data:`WORK_PER_PAIR` per (hand, winning tile) pair it scores; the last two are known before
    they are done.  With ``allowance``, a budget whose work would take ``done`` past it stops
    before that step and ``cut`` is set: the answer is that of the last budget searched, a hand
    not found needing more draws (as with a deadline), and when the first budget is not searched
    no hand is found."""

    allowance: int | None = None
    done: int = 0
    cut: bool = False

    def spend(self, spent: int, next_step: int) -> bool:
        """Count ``spent`` (work done) and, if the allowance lets it, ``next_step`` (work about to
        be done); False, with ``cut`` set, when it does not."""
        self.done += spent
        if self.allowance is not None and self.done + next_step > self.allowance:
            self.cut = True
            return False
        self.done += next_step
        return True


def search(prob: Problem, base: Sequence[int], hands: Sequence[Sequence[int]], live: Sequence[int],
           shapes: Sequence[Shape], start: int, max_draws: int, fan_column: int | None = None,
           compiled: bool = True, deadline: float | None = None,
           work: Work | None = None) -> tuple[list[Found], int]:
    """Raise the budget from ``start`` until every hand of ``hands`` has a qualifying completion
    needing at most ``budget`` draws, or the budget reaches ``max_draws``, or (``deadline``: a
    ``time.process_time()`` value) the CPU clock has passed ``deadline`` after a budget: the answer
    is then the one of that budget taken as ``max_draws`` (a hand not found needs more draws).
    ``work``: counts the compiled search's work (:class:`Work`) and, with an allowance, stops it
    before a budget that would pass the allowance (the answer is then that of the budget before,
    ``start - 1`` with no hand found when the first one is not searched).

    The enumeration keeps the complete hands ``W`` with ``|W - base| <= budget``.  The callers pass
    hands that are ``base`` itself or ``base`` minus one tile, for which ``n >= |W - hand| >=
    |W - base|``: every row needing ``n <= budget`` draws is enumerated, so a :class:`Found` with
    ``n <= budget`` is exact, its rows included; a hand without one gets ``Found(None)`` (it needs
    more than ``budget`` draws).  Returns the results and the last budget searched.
    ``compiled=False``: the pure-Python enumeration, scoring every row (the tests' second path)."""
    budget = max(start, 0)
    results = [_none() for _ in hands]
    pending = list(range(len(hands)))
    low = 0
    while True:
        if compiled:
            ws = _complete_hands(prob, base, shapes, budget)
            # the work of the two costly steps is known before each: checking every complete
            # hand against the pending hands, then scoring the pairs some hand reaches
            if work is not None and not work.spend(len(ws), len(ws) * len(pending) // REACH_PER_WORK):
                return [f if _within(f, budget - 1) else _none() for f in results], budget - 1
            rows, kinds = _reachable_pairs(ws, [hands[i] for i in pending], live, low, budget)
            if work is not None and not work.spend(0, WORK_PER_PAIR * len(rows)):
                return [f if _within(f, budget - 1) else _none() for f in results], budget - 1
            sc = _score_pairs(prob, ws, rows, kinds, ok_only=fan_column is None)
        else:
            found_hands: set[bytes] = set()
            for shape in shapes:
                found_hands.update(enumerate_hands(prob, base, shape, budget))
            sc = score_hands(prob, sorted(found_hands))
        mask = None if fan_column is None else sc.counts[:, fan_column] > 0
        if compiled:
            for i, f in zip(pending, best_rows_compiled(sc, [hands[i] for i in pending], live, mask)):
                results[i] = f
        else:
            for i in pending:
                results[i] = best_rows(sc, hands[i], live, mask)
        if (all(_within(f, budget) for f in results) or budget >= max_draws
                or (deadline is not None and time.process_time() >= deadline)):
            return [f if _within(f, budget) else _none() for f in results], budget
        if compiled:
            # a hand found is final; one not found has no qualifying row needing <= budget
            # draws, so the next round needs only the rows its pending hands reach in exactly
            # budget + 1
            pending = [i for i in pending if not _within(results[i], budget)]
            low = budget + 1
        budget += 1


def _check_max_draws(max_draws: Any) -> int:
    if isinstance(max_draws, bool) or not isinstance(max_draws, (int, np.integer)) or not 1 <= max_draws <= MAX_DRAWS:
        raise MahjongError(f"max_draws must be an integer 1-{MAX_DRAWS}, got {_short_repr(max_draws)}")
    return int(max_draws)


def target_shanten(prob: Problem, hand: Sequence[int], live: Sequence[int], start: int,
                   max_draws: int, compiled: bool = True) -> tuple[TargetShanten, ...]:
    """The breakdown by target fan of one 3k+1 hand."""
    column = {fid: i for i, fid in enumerate(_fan.fan_ids(prob.rs.code))}
    names = {f.id: f for f in prob.rs.fans}
    tlist = targets(prob.rs, prob.melds)
    if compiled:
        draws = _target_draws(prob, hand, live, tlist, [column[t.fan] for t in tlist], start, max_draws)
    else:
        draws = [search(prob, hand, [hand], live, t.shapes, start, max_draws, column[t.fan], False)[0][0].n
                 for t in tlist]
    return tuple(TargetShanten(t.fan, names[t.fan].zh, names[t.fan].en, None if n is None else n - 1)
                 for t, n in zip(tlist, draws))


def _target_draws(prob: Problem, hand: Sequence[int], live: Sequence[int], tlist: Sequence[Target],
                  columns: Sequence[int], start: int, max_draws: int) -> list[int | None]:
    """The fewest draws to each target (None: more than the search limit).  The targets given
    by shapes run in one :func:`search`-like loop: each budget enumerates the union of the
    shapes of the targets still pending and scores it once.  A target's shapes hold every
    complete hand counting its fan, so the rows the other shapes add never count it and each
    answer is the one of its own :func:`search` (the tests hold the two paths equal); later
    rounds keep only the rows needing exactly the new budget, as in :func:`search`.  五门齐
    runs alone over the hands holding the five types."""
    out: list[int | None] = [None] * len(tlist)
    for group in ([i for i, t in enumerate(tlist) if not t.all_types],
                  [i for i, t in enumerate(tlist) if t.all_types]):
        budget = max(start, 0)
        low = 0
        pending = group
        while pending:
            shapes = list(dict.fromkeys(s for i in pending for s in tlist[i].shapes))
            sc = _score_compiled(prob, hand, [hand], live, shapes, low, budget, tlist[pending[0]].all_types)
            for i in pending:
                (f,) = best_rows_compiled(sc, [hand], live, sc.counts[:, columns[i]] > 0)
                if _within(f, budget):
                    out[i] = f.n
            pending = [i for i in pending if out[i] is None]
            if budget >= max_draws:
                break
            low = budget + 1
            budget += 1
    return out


def fan_shanten(
    hand: HandLike,
    *,
    ruleset: str | Ruleset = DEFAULT_RULESET,
    melds: Iterable[MeldLike] = (),
    visible: "HandLike | Iterable[TileLike] | None" = None,
    seat_wind: WindLike | None = None,
    round_wind: WindLike | None = None,
    win: str = "any",
    min_fan: int | None = None,
    max_draws: int = DEFAULT_MAX_DRAWS,
    breakdown: bool = True,
) -> FanShanten:
    """Fan-aware shanten of a concealed hand of 3k+1 tiles (13 with the melds, kongs as 3),
    defined in the module docstring, with the breakdown by target fan (``breakdown=False``
    leaves it out).

    ``visible``: tiles seen outside the hand and the player's own melds (a tile string or 34
    counts; flowers are ignored); ``win``: ``"any"``, ``"discard"`` or ``"self_drawn"``;
    ``min_fan``: the ruleset's (8) by default; ``max_draws``: the search limit (1-14).

    >>> r = fan_shanten("123456789m1199p", ruleset="public")
    >>> r.plain, r.shanten       # every win holds 清龙 (16): ready with enough fans
    (0, 0)
    >>> r = fan_shanten("234m567m678p5s", ruleset="public", melds=["chi 345s"])
    >>> r.plain, r.shanten       # the 5s win scores 6 (7 self-drawn) < 8
    (0, 1)
    """
    limit = _check_max_draws(max_draws)
    prob = prepare(hand, ruleset=ruleset, melds=melds, visible=visible, seat_wind=seat_wind,
                   round_wind=round_wind, win=win, min_fan=min_fan, tiles=13)
    return solve(prob, limit, breakdown)


def solve(prob: Problem, limit: int, breakdown: bool, compiled: bool = True) -> FanShanten:
    """:func:`fan_shanten` of a validated 13-tile problem (``compiled``: see :func:`search`)."""
    plain = _plain_shanten(np.array(prob.hand, np.uint8), ruleset=prob.rs)
    live = prob.live
    (found,), budget = search(prob, prob.hand, [prob.hand], live, [standard_shape(prob.rs)], plain + 1, limit,
                              compiled=compiled)
    value, exact = (found.n - 1, True) if found.n is not None else (budget, False)
    tgt = target_shanten(prob, prob.hand, live, plain + 1, limit, compiled) if breakdown else ()
    return FanShanten(value, exact, plain, prob.min_fan, tgt)
