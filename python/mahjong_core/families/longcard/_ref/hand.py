"""Pure-Python reference of the 长牌 win check, waits and fan (spec changpai.md 4.1-4.7): the oracle.

Slow and plain on purpose: every 3-card group is listed by brute force over all card triples, every
decomposition of the concealed cards is enumerated (the group holding the lowest remaining face is
chosen first, spec 4.3), and every decomposition is scored with :func:`fans.fan_breakdown`.  No tables,
no pruning.  The compiled core (``mahjong_core._lc_hand``) must agree with it.

Arguments are already-validated data: ``counts`` a list of 21 ints (concealed cards, the winning card
included for :func:`best_win`), ``declared`` a tuple of :class:`Group`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

from ..cards import COPIES, IS_RED, N_FACES
from ..fans import fan_breakdown, threshold
from ..groups import Group, group_tuo, is_chi_group

ALL_TRIPLES: tuple[tuple[int, int, int], ...] = tuple(
    t for t in combinations_with_replacement(range(N_FACES), 3) if t[0] == t[2] or is_chi_group(t))
"""Every 3-card group (sorted faces): 21 坎 and every 吃 group."""


def decompositions(counts: Sequence[int]) -> list[list[tuple[int, int, int]]]:
    """Every way of splitting the cards into 3-card groups (each multiset of groups once)."""
    c = list(counts)
    out: list[list[tuple[int, int, int]]] = []

    def rec(acc: list) -> None:
        low = next((f for f in range(N_FACES) if c[f]), None)
        if low is None:
            out.append(list(acc))
            return
        for t in ALL_TRIPLES:
            if t[0] != low:
                continue
            need = [t.count(f) for f in range(N_FACES)]
            if all(c[f] >= need[f] for f in range(N_FACES)):
                for f in t:
                    c[f] -= 1
                acc.append(t)
                rec(acc)
                acc.pop()
                for f in t:
                    c[f] += 1

    if sum(c) % 3 == 0:
        rec([])
    # the same groups can come out in two orders ([11 11 66] then [11 66 66], or the reverse)
    unique = {tuple(sorted(d)): None for d in out}
    return [list(d) for d in unique]


def _as_groups(dec: list[tuple[int, int, int]]) -> list[Group]:
    return [Group("kan" if t[0] == t[2] else "chi", t) for t in dec]


def _keeps_kans(counts: Sequence[int], dec: list[tuple[int, int, int]]) -> bool:
    """``win_split_kan = false``: every face held 3 or more times keeps a 坎 (CP-51)."""
    return all(any(t == (f, f, f) for t in dec) for f in range(N_FACES) if counts[f] >= 3)


def winning_decompositions(counts: Sequence[int], declared: Sequence[Group], banker: bool,
                           win_split_kan: bool = True, all_black_waives_tuo: bool = False) -> list[tuple[list[Group], int]]:
    """(groups of the concealed part, total 陀) of every decomposition that wins (spec 4.1)."""
    thr = threshold(banker)
    base = sum(g.tuo for g in declared)
    all_black = not any(IS_RED[f] * n for f, n in enumerate(counts)) and not any(
        IS_RED[c] for g in declared for c in g.cards)
    out = []
    for dec in decompositions(counts):
        if not win_split_kan and not _keeps_kans(counts, dec):
            continue
        groups = _as_groups(dec)
        tuo = base + sum(group_tuo(g.kind, g.cards) for g in groups)
        if tuo >= thr or (all_black_waives_tuo and all_black):
            out.append((groups, tuo))
    return out


def is_win(counts: Sequence[int], declared: Sequence[Group] = (), banker: bool = False, *,
           win_split_kan: bool = True, all_black_waives_tuo: bool = False) -> bool:
    """True when the concealed cards (winning card included) and the declared groups win."""
    return bool(winning_decompositions(counts, declared, banker, win_split_kan, all_black_waives_tuo))


def best_win(counts: Sequence[int], declared: Sequence[Group] = (), banker: bool = False, *,
             weights: Sequence[int], caishen: int = 0, options: dict[str, Any] | None = None
             ) -> tuple[int, int, int, list[Group]] | None:
    """``(capped fan, fan, 陀, concealed groups)`` of the best decomposition (largest fan, then 陀;
    spec 4.3), or None when the cards do not win."""
    o = options or {}
    best = None
    for groups, tuo in winning_decompositions(counts, declared, banker, o.get("win_split_kan", True),
                                              o.get("all_black_waives_tuo", False)):
        fans = fan_breakdown(list(declared) + groups, weights, tuo, banker, caishen,
                             kan_as_peng=o.get("kan_as_peng", True),
                             xiang_bonus_on_fan_faces=o.get("xiang_bonus_on_fan_faces", False))
        fan = sum(f.total for f in fans)
        if best is None or (fan, tuo) > (best[1], best[2]):
            best = (fan, fan, tuo, groups)
    if best is None:
        return None
    cap = o.get("fan_cap", 0)
    return (min(best[1], cap) if cap else best[1], best[1], best[2], best[3])


def waits(counts: Sequence[int], declared: Sequence[Group] = (), banker: bool = False, *,
          weights: Sequence[int], caishen: int = 0, options: dict[str, Any] | None = None
          ) -> dict[int, tuple[int, int]]:
    """face -> (capped fan, 陀) of every face that completes a win; a face the player owns all 5
    copies of (concealed + declared) is never a wait (spec 4.7)."""
    own = list(counts)
    for g in declared:
        for card in g.cards:
            own[card] += 1
    out = {}
    for x in range(N_FACES):
        if own[x] >= COPIES:
            continue
        c = list(counts)
        c[x] += 1
        b = best_win(c, declared, banker, weights=weights, caishen=caishen, options=options)
        if b is not None:
            out[x] = (b[0], b[2])
    return out
