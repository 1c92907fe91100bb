"""The long-card "cards to a win" distance (issue 28, item 3): ``cards_to_win`` and ``shanten``.

Definition.  A player holds concealed cards ``c`` (21 counts) and ``D`` declared groups; a win is
``N = 3 (7 - D)`` concealed cards that split into 3-card groups whose 陀, with the declared groups',
reaches the threshold (spec 4.1; options ``win_split_kan`` and ``all_black_waives_tuo`` as there).
``cards_to_win`` is the fewest cards ``|A|`` that must come in -- a multiset ``A`` with
``A[f] <= avail[f]`` -- such that ``c + A`` holds such a winning ``N``-card part ``K``.  ``avail[f]``
is the copies still obtainable: ``5 - concealed - own declared - dead`` (spec 2.4; ``dead`` = every
堂子 and the other players' declared groups, what the seat has seen; none by default, so the
distance then respects only the physical 5 copies, as the waits of spec 4.7 do).  The cards of
``c`` outside ``K`` are the discards made on the way, so for a hand between turns (``E = 20``:
``N - 1`` concealed cards) ``cards_to_win = 1`` exactly when the hand is ready, and for a hand
that must discard (``E = 21``: ``N`` cards) ``0`` exactly when it wins.  ``None``: no win can be
reached with the copies left (possible only when groups are declared or cards are dead).

The distance counts what the win check counts: claims that make 3-card groups (碰, 吃) are cards
coming in like draws; upgrades to 4- and 5-card groups (杀, 吐火) and their replacement draws are
not modelled, so the declared groups stay as they are.

``shanten`` is ``cards_to_win - 1`` (mahjong's convention: -1 a winning hand, 0 ready), the value
``mj.shanten(hand, ruleset="changpai-ydr")`` answers.

Algorithm.  Every group lies inside one *component* of faces: the faces of ``p`` and ``14 - p``
points (1.4; the 7s alone), six components in all.  For each component a table lists every count
vector that splits into groups (each face at most 5 times) with its group count and its largest
陀 (built once, breadth first by adding groups).  For a hand, each component's table gives, per
number of groups and per number of incoming cards, the largest 陀 (numpy over the table); the six
are combined by a max-plus product over (groups, cards) (every sum at once, grouped by cell), and the answer is the fewest cards whose
7 - D groups reach the 陀 still missing.  The slow exact reference, a brute force over the cards
that may come in, is :func:`mahjong_core.families.longcard._ref.distance.cards_to_win`.

>>> cards_to_win("46 46 13 16 34 25 14 14 55 55 55", declared=["peng 11×3", "sha 44×4", "sha 66×4"])
1
>>> shanten("46 46 13 16 34 25 14 14 55 55 55 36", declared=["peng 11×3", "sha 44×4", "sha 66×4"])
-1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._validate import as_flag
from ...errors import HandSizeError
from .cards import COPIES, IS_RED, N_FACES, POINTS
from .counting import _hand_data
from .fans import threshold
from .groups import Group, group_tuo, is_chi_group
from .options import check_value

__all__ = ["cards_to_win", "shanten", "improving_faces", "COMPONENTS", "hand_sizes"]

_GROUPS = 7
_NEG = -(10 ** 6)   # "no such plan" in the max-plus tables

COMPONENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(f for f in range(N_FACES) if min(POINTS[f], 14 - POINTS[f]) == p) for p in range(2, 8))
"""The faces of p and 14 - p points, p = 2 .. 7: every group lies inside one of them."""


def _component_groups(faces: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
    """(count vector over ``faces``, 陀) of every 3-card group inside a component."""
    out = []
    for i, a in enumerate(faces):
        for j in range(i, len(faces)):
            for k in range(j, len(faces)):
                cards = (a, faces[j], faces[k])
                if cards[0] == cards[2]:
                    kind = "kan"
                elif is_chi_group(cards):
                    kind = "chi"
                else:
                    continue
                vec = [0] * len(faces)
                for x in (i, j, k):
                    vec[x] += 1
                out.append((tuple(vec), group_tuo(kind, cards)))
    return out


_TABLES: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
"""The tables of :func:`_table`, built on first use (the largest component's in about a second)."""
_FRONTIERS: dict[tuple[Any, ...], np.ndarray] = {}
"""Memo of :func:`_frontier` (hands differ in one component at a time: the advisor reuses the others)."""
_MAX_FRONTIERS = 4096


def _table(comp: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Component ``comp``'s splittable count vectors: ``(K, groups, best 陀, best 陀 keeping a 坎 of
    every face held 3+ times (-1: none), all black)``."""
    table = _TABLES.get(comp)
    if table is None:
        table = _TABLES[comp] = _build_table(comp)
    return table


def _build_table(comp: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    faces = COMPONENTS[comp]
    groups = _component_groups(faces)
    best: dict[tuple[int, ...], int] = {(0,) * len(faces): 0}
    level = dict(best)
    for _ in range(_GROUPS):
        nxt: dict[tuple[int, ...], int] = {}
        for vec, tuo in level.items():
            for g, gt in groups:
                v = tuple(a + b for a, b in zip(vec, g))
                if max(v) <= COPIES and nxt.get(v, -1) < tuo + gt:
                    nxt[v] = tuo + gt
        best.update(nxt)
        level = nxt
    vecs = list(best)
    kan = [group_tuo("kan", (f,) * 3) for f in faces]
    keep = []
    for v in vecs:
        rest = tuple(n - 3 if n >= 3 else n for n in v)
        held = sum(t for n, t in zip(v, kan) if n >= 3)
        keep.append(held + best[rest] if rest in best else -1)
    k = np.array(vecs, np.int16).reshape(len(vecs), len(faces))
    black = np.asarray(~(k[:, [IS_RED[f] == 1 for f in faces]] > 0).any(axis=1), bool)
    groups_of = np.asarray(k.sum(axis=1) // 3, np.int16)
    return k, groups_of, np.array([best[v] for v in vecs], np.int16), np.array(keep, np.int16), black


def _frontier(comp: int, have: tuple[int, ...], cap: tuple[int, ...], keep_kans: bool, black_only: bool,
              max_cost: int) -> np.ndarray:
    """(groups 0..7, incoming cards 0..max_cost) -> largest 陀 of a split of this component's part of a
    winning hand that needs at most that many incoming cards (``_NEG``: none); memoised, read-only."""
    key = (comp, have, cap, keep_kans, black_only, max_cost)
    found = _FRONTIERS.get(key)
    if found is None:
        if len(_FRONTIERS) >= _MAX_FRONTIERS:
            _FRONTIERS.clear()
        found = _FRONTIERS[key] = _build_frontier(*key)
        found.flags.writeable = False
    return found


_COLUMNS: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]] = {}
"""Per component and ``keep_kans``: its table's rows that split (陀 >= 0) sorted by (groups, 陀
largest first), as :func:`_build_frontier` reads them: for face j and a held count h, the cards
still to come max(K_j - h, 0); for a count cap c, K_j <= c; the 陀, all black, and each group
count's run of rows."""


def _columns(comp: int, keep_kans: bool
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    cols = _COLUMNS.get((comp, keep_kans))
    if cols is None:
        k, g, tuo_any, tuo_keep, black = _table(comp)
        tuo = tuo_keep if keep_kans else tuo_any
        rows = np.flatnonzero(tuo >= 0)
        rows = rows[np.lexsort((-tuo[rows], g[rows]))]
        k, g = k[rows], g[rows]
        levels = np.arange(COPIES + 1)
        come = np.maximum(k.T[:, None, :] - levels[None, :, None], 0).astype(np.uint8)   # (face, h, row)
        fits = k.T[:, None, :] <= levels[None, :, None]                                  # (face, c, row)
        bounds = [(int(np.searchsorted(g, n, "left")), int(np.searchsorted(g, n, "right"))) for n in range(_GROUPS + 1)]
        cols = _COLUMNS[(comp, keep_kans)] = (come, fits, tuo[rows].astype(np.int32), black[rows], g, bounds)
    return cols


def _build_frontier(comp: int, have: tuple[int, ...], cap: tuple[int, ...], keep_kans: bool, black_only: bool,
                    max_cost: int) -> np.ndarray:
    """Per group count, the table's rows are in order of 陀, largest first: the largest 陀 with at
    most c cards to come is that of the first row that fits the caps and needs at most c (the running
    minimum of the cards needed, searched)."""
    come, fits, tuo, black, _, bounds = _columns(comp, keep_kans)
    cost = come[0, have[0]].copy()
    ok = fits[0, cap[0]].copy()
    for j in range(1, len(have)):
        cost += come[j, have[j]]
        ok &= fits[j, cap[j]]
    if black_only:
        ok &= black
    need = np.where(ok, cost, np.uint8(255)).astype(np.int16)
    out = np.full((_GROUPS + 1, max_cost + 1), _NEG, np.int32)
    wanted = -np.arange(max_cost + 1, dtype=np.int16)
    for groups, (start, stop) in enumerate(bounds):
        if start == stop:
            continue
        least = -np.minimum.accumulate(need[start:stop])        # nondecreasing
        first = np.searchsorted(least, wanted, "left")         # the first row needing at most c
        hit = first < stop - start
        out[groups, hit] = tuo[start + first[hit]]
    return out


_PLANS: dict[int, tuple[np.ndarray, np.ndarray]] = {}
"""Per table width: the order that groups every sum a[g1, c1] + b[g2, c2] with g1 + g2, c1 + c2
inside the table by its cell (g1 + g2, c1 + c2), and where each cell's run starts (:func:`_combine`)."""


def _plan(width: int) -> tuple[np.ndarray, np.ndarray]:
    plan = _PLANS.get(width)
    if plan is None:
        rows = _GROUPS + 1
        g1, c1, g2, c2 = np.meshgrid(np.arange(rows), np.arange(width), np.arange(rows), np.arange(width),
                                     indexing="ij")
        g, c = (g1 + g2).ravel(), (c1 + c2).ravel()
        inside = np.flatnonzero((g < rows) & (c < width))
        cell = (g * width + c)[inside]
        order = np.argsort(cell, kind="stable")
        cell = cell[order]
        starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
        assert cell[starts].tolist() == list(range(rows * width))   # every cell has a sum (g1 = c1 = 0)
        plan = _PLANS[width] = (inside[order], starts)
    return plan


def _combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Max-plus product over (groups, cards): out[g, c] = max a[g1, c1] + b[g - g1, c - c1] (``_NEG``
    where no pair of plans gives the cell): every sum at once, then the largest of each cell's run."""
    rows, width = a.shape
    picks, starts = _plan(width)
    sums = (a[:, :, None, None] + b[None, None, :, :]).ravel()[picks]
    out = np.maximum.reduceat(sums, starts).reshape(rows, width)
    out[out < _NEG // 2] = _NEG       # a sum with a missing plan in it is no plan
    return out


def hand_sizes(declared: Sequence[Group]) -> tuple[int, int]:
    """The concealed card counts of a hand between turns and of one that must discard (E = 20, 21)."""
    full = 3 * (_GROUPS - len(declared))
    return full - 1, full


def _runs(groups: Sequence[Group], banker: bool, waive: bool) -> list[tuple[bool, int]]:
    """(black cards only?, 陀 still needed) of each way to win: by the threshold, and for an all-black
    hand with ``all_black_waives_tuo`` without it (CP-13)."""
    runs = [(False, max(0, threshold(banker) - sum(g.tuo for g in groups)))]
    if waive and not any(IS_RED[c] for g in groups for c in g.cards):
        runs.append((True, 0))
    return runs


def _parts(counts: Sequence[int], avail: Sequence[int], keep_kans: bool, black_only: bool,
           max_cost: int) -> list[np.ndarray]:
    return [_frontier(comp, tuple(int(counts[f]) for f in faces), tuple(int(counts[f]) + int(avail[f]) for f in faces),
                      keep_kans, black_only, max_cost) for comp, faces in enumerate(COMPONENTS)]


def _fewest(acc: np.ndarray, groups: int, need: int) -> int | None:
    hits = np.flatnonzero(acc[groups] >= need)
    return int(hits[0]) if hits.size else None


def _least(values: Sequence[int | None]) -> int | None:
    found = [v for v in values if v is not None]
    return min(found) if found else None


def _distance(counts: Sequence[int], groups: Sequence[Group], avail: Sequence[int], banker: bool,
              keep_kans: bool, waive: bool) -> int | None:
    """:func:`cards_to_win` on validated data (``avail``: copies that may still come in)."""
    need_groups = _GROUPS - len(groups)
    out = []
    for black_only, need in _runs(groups, banker, waive):
        parts = _parts(counts, avail, keep_kans, black_only, 3 * need_groups)
        acc = parts[0]
        for part in parts[1:]:
            acc = _combine(acc, part)
        out.append(_fewest(acc, need_groups, need))
    return _least(out)


def improving_faces(counts: Sequence[int], groups: Sequence[Group], avail: Sequence[int], banker: bool,
                    keep_kans: bool = False, waive: bool = False) -> tuple[int | None, list[int]]:
    """(distance, the faces with a copy left whose arrival lowers it) of validated data: one card
    changes one component, so the other five are combined once per component (prefix and suffix
    products) and each face costs one table and one product."""
    need_groups = _GROUPS - len(groups)
    runs = _runs(groups, banker, waive)
    best: list[int | None] = []
    after: dict[int, list[int | None]] = {f: [] for f in range(N_FACES) if avail[f] >= 1}
    for black_only, need in runs:
        parts = _parts(counts, avail, keep_kans, black_only, 3 * need_groups)
        n = len(parts)
        prefix: list[np.ndarray | None] = [None] * (n + 1)
        suffix: list[np.ndarray | None] = [None] * (n + 1)
        for i in range(n):
            prefix[i + 1] = parts[i] if prefix[i] is None else _combine(prefix[i], parts[i])   # type: ignore[arg-type]
        for i in range(n - 1, -1, -1):
            suffix[i] = parts[i] if suffix[i + 1] is None else _combine(parts[i], suffix[i + 1])  # type: ignore[arg-type]
        best.append(_fewest(prefix[n], need_groups, need))   # type: ignore[arg-type]
        for comp, faces in enumerate(COMPONENTS):
            pre, suf = prefix[comp], suffix[comp + 1]
            others = pre if suf is None else suf if pre is None else _combine(pre, suf)
            for f in faces:
                if f not in after:
                    continue
                have = tuple(int(counts[x]) + (x == f) for x in faces)
                cap = tuple(int(counts[x]) + int(avail[x]) for x in faces)
                part = _frontier(comp, have, cap, keep_kans, black_only, 3 * need_groups)
                acc = part if others is None else _combine(others, part)
                after[f].append(_fewest(acc, need_groups, need))
    d = _least(best)
    if d is None:
        return None, []
    return d, [f for f, values in after.items() if (v := _least(values)) is not None and v < d]


def _prepare(hand: Any, declared: Any, dead: Any, options: dict[str, Any]
             ) -> tuple[list[int], tuple[Group, ...], list[int], bool, bool]:
    counts, groups, live = _hand_data(hand, declared, dead)
    keep_kans = not check_value("win_split_kan", options.pop("win_split_kan", True))
    waive = bool(check_value("all_black_waives_tuo", options.pop("all_black_waives_tuo", False)))
    for key, value in options.items():   # a known option the distance does not read passes
        check_value(key, value)
    n = sum(counts)
    sizes = hand_sizes(groups)
    if n not in sizes:
        raise HandSizeError(f"{n} concealed cards with {len(groups)} declared groups: the distance needs "
                            f"{sizes[0]} (between turns) or {sizes[1]} (a hand that must discard)")
    return counts, groups, live, keep_kans, waive


def cards_to_win(hand: Any, *, declared: Any = None, dead: Any = None, banker: bool = False,
                 **options: Any) -> int | None:
    """The fewest cards that must come in to reach a winning hand (the module docstring); ``None``
    when no win is reachable with the copies left.

    ``hand``: the concealed cards (20 or 21 effective with the declared groups: a card string, face
    ids or 21 counts); ``declared``: the declared groups; ``dead``: copies seen outside the hand and
    the player's own declared groups (every 堂子, the other players' groups); ``banker``: the 34-陀
    threshold; ``options``: ``win_split_kan``, ``all_black_waives_tuo`` (others are checked and
    ignored)."""
    counts, groups, live, keep_kans, waive = _prepare(hand, declared, dead, dict(options))
    return _distance(counts, groups, live, as_flag(banker, "banker"), keep_kans, waive)


def shanten(hand: Any, *, declared: Any = None, dead: Any = None, banker: bool = False,
            **options: Any) -> int | None:
    """``cards_to_win - 1``: -1 a winning hand (21 effective cards), 0 ready, ...; ``None`` when no
    win is reachable."""
    d = cards_to_win(hand, declared=declared, dead=dead, banker=banker, **options)
    return None if d is None else d - 1
