"""Reference (test-oracle) implementation of win detection, waiting tiles and shanten.

This module is deliberately slow and simple: plain recursion and small dynamic
programs, no lookup tables, no compiled code, standard library only.  It is the
oracle the compiled core is tested against, so every function states the
definition it implements.

Tile indices (spec rules.md 1.1): 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s,
27-30 = E S W N, 31 = C (中), 32 = F (发), 33 = P (白).

A hand is a length-34 sequence of counts (a list of ints or a numpy uint8 array;
both are accepted and converted with ``list(map(int, counts))``).  Only the
*concealed* part of a hand is passed: it has ``n`` tiles, ``n <= 14``, with
``n = 3k + 2`` for complete-hand questions and ``n = 3k + 1`` for waiting
questions; the other ``4 - k`` groups are declared elsewhere.  ``M = n // 3`` is
the number of groups the concealed part must still form (0..4).

Winning forms (spec 3.0 D3) for a concealed part of ``n = 3M + 2`` tiles:

* standard: ``M`` groups + one pair.  A group is a chow (three consecutive
  ranks of one suit; 9 and 1 do not connect; no honor chows) or a pung (three
  identical tiles).
* seven pairs (only ``n == 14``, i.e. nothing declared): seven pairs, where a
  kind held four times counts as two pairs.
* ``public`` only:

  - thirteen orphans (``n == 14``): 1m 9m 1p 9p 1s 9s E S W N C F P, one each,
    plus a second copy of one of them;
  - honors-and-knitted, 全不靠 (``n == 14``): 14 distinct kinds, all taken from
    one knitted pattern's 9 tiles together with the 7 honors (七星不靠, with all
    seven honors, is the same form);
  - knitted straight, 组合龙 (``n in (11, 14)``): the 9 tiles of one knitted
    pattern + ``M - 3`` groups + one pair.

  A knitted pattern (spec 1.1) is, for a permutation ``(a, b, c)`` of the suits
  ``(0, 1, 2)`` in ``itertools.permutations`` order, ranks 1,4,7 of suit a,
  ranks 2,5,8 of suit b and ranks 3,6,9 of suit c.

No target hand ever holds more than four copies of a kind.

Shanten.  For a form F, the targets of F are all complete concealed multisets of
form F with exactly ``3M + 2`` tiles (every count <= 4).  The distance
``d_F(h) = min over targets T of sum_i max(0, T[i] - h[i])`` is the number of
tiles that must come in from outside; ``shanten_F(h) = d_F(h) - 1``.  So a
complete hand has shanten -1 and a ready (tenpai) ``3k + 1`` hand has shanten 0.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

__all__ = [
    "RULESET_KINDS",
    "SPECIAL_FORM_RULESETS",
    "ORPHANS",
    "HONORS",
    "KNITTED_PATTERNS",
    "is_standard_win",
    "is_seven_pairs_win",
    "is_thirteen_orphans_win",
    "is_honors_knitted_win",
    "is_knitted_straight_win",
    "is_win",
    "waits",
    "standard_shanten",
    "seven_pairs_shanten",
    "thirteen_orphans_shanten",
    "honors_knitted_shanten",
    "knitted_straight_shanten",
    "shanten",
    "decompositions",
]

N_KINDS = 34

HONORS: tuple[int, ...] = tuple(range(27, 34))
"""The 7 honor kinds: E S W N C F P."""

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26) + HONORS
"""The 13 kinds of thirteen orphans: 1m 9m 1p 9p 1s 9s E S W N C F P."""

RULESET_KINDS: dict[str, tuple[int, ...]] = {
    "two-player": tuple(range(0, 9)) + HONORS,
    "two-player-bamboo": tuple(range(18, 27)) + HONORS,
    "public": tuple(range(34)),
    "mcr": tuple(range(34)),
}
"""Tile kinds in play per ruleset (spec 1.2)."""

SPECIAL_FORM_RULESETS = frozenset({"public", "mcr"})
"""Rulesets that have thirteen orphans, honors-and-knitted and knitted straight."""


def _knitted_patterns() -> tuple[tuple[int, ...], ...]:
    """The 6 knitted patterns, in ``itertools.permutations((0, 1, 2))`` order.

    Pattern for permutation (a, b, c): ranks 1,4,7 of suit a, 2,5,8 of suit b,
    3,6,9 of suit c.  Each pattern is returned as a sorted tuple of 9 kinds.
    """
    patterns = []
    for a, b, c in itertools.permutations((0, 1, 2)):
        kinds = [9 * a + r - 1 for r in (1, 4, 7)]
        kinds += [9 * b + r - 1 for r in (2, 5, 8)]
        kinds += [9 * c + r - 1 for r in (3, 6, 9)]
        patterns.append(tuple(sorted(kinds)))
    return tuple(patterns)


KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = _knitted_patterns()


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _counts(counts) -> list[int]:
    """Convert a count sequence to a list of 34 Python ints and check it."""
    h = list(map(int, counts))
    assert len(h) == N_KINDS, f"expected 34 counts, got {len(h)}"
    assert all(0 <= c <= 4 for c in h), f"every count must be in 0..4: {h}"
    assert sum(h) <= 14, f"at most 14 concealed tiles, got {sum(h)}"
    return h


def _ruleset_name(ruleset) -> str:
    """Accept a ruleset id or any object with a ``name`` attribute (a ``Ruleset``)."""
    name = getattr(ruleset, "name", ruleset)
    assert name in RULESET_KINDS, f"unknown ruleset {ruleset!r}"
    return name


def _can_start_chow(i: int) -> bool:
    """True if a chow can start at kind ``i``: a number tile of rank 1..7."""
    return i < 27 and i % 9 <= 6


# ---------------------------------------------------------------------------
# win detection
# ---------------------------------------------------------------------------


def _standard_complete(h: list[int], need_pair: bool) -> bool:
    """True if ``h`` splits into groups plus (if ``need_pair``) exactly one pair.

    Plain recursion: the lowest kind with a nonzero count must be covered by a
    pair, a pung or a chow starting there (nothing lower is left).  ``h`` is
    modified in place and restored before returning.
    """
    i = next((k for k in range(N_KINDS) if h[k]), None)
    if i is None:
        return not need_pair
    if need_pair and h[i] >= 2:
        h[i] -= 2
        ok = _standard_complete(h, False)
        h[i] += 2
        if ok:
            return True
    if h[i] >= 3:
        h[i] -= 3
        ok = _standard_complete(h, need_pair)
        h[i] += 3
        if ok:
            return True
    if _can_start_chow(i) and h[i + 1] and h[i + 2]:
        h[i] -= 1
        h[i + 1] -= 1
        h[i + 2] -= 1
        ok = _standard_complete(h, need_pair)
        h[i] += 1
        h[i + 1] += 1
        h[i + 2] += 1
        if ok:
            return True
    return False


def is_standard_win(counts) -> bool:
    """True if the ``3k + 2`` tiles form ``k`` groups (chows/pungs) plus one pair."""
    h = _counts(counts)
    assert sum(h) % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {sum(h)}"
    return _standard_complete(h, True)


def is_seven_pairs_win(counts) -> bool:
    """True if the hand is 14 tiles forming seven pairs (4 of a kind = two pairs).

    Every count must be even (0, 2 or 4) and the hand must have 14 tiles; with
    fewer tiles a group is declared and the form does not exist (returns False).
    """
    h = _counts(counts)
    n = sum(h)
    assert n % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {n}"
    return n == 14 and all(c % 2 == 0 for c in h)


def is_thirteen_orphans_win(counts) -> bool:
    """True if the hand is the 13 orphans once each plus one more orphan (14 tiles)."""
    h = _counts(counts)
    n = sum(h)
    assert n % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {n}"
    if n != 14:
        return False
    return all(h[i] >= 1 for i in ORPHANS) and all(h[i] == 0 for i in range(N_KINDS) if i not in ORPHANS)


def is_honors_knitted_win(counts) -> bool:
    """True for 全不靠 / 七星不靠: 14 distinct kinds, all in (one pattern ∪ the 7 honors)."""
    h = _counts(counts)
    n = sum(h)
    assert n % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {n}"
    if n != 14 or any(c > 1 for c in h):
        return False
    held = {i for i in range(N_KINDS) if h[i]}
    return any(held <= set(p) | set(HONORS) for p in KNITTED_PATTERNS)


def is_knitted_straight_win(counts) -> bool:
    """True for the 组合龙 form: one knitted pattern's 9 tiles + ``M - 3`` groups + a pair.

    Needs ``n in (11, 14)`` (M = 3: the other group is declared; M = 4: one
    concealed group); for other sizes the form does not exist (False).
    """
    h = _counts(counts)
    n = sum(h)
    assert n % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {n}"
    if n not in (11, 14):
        return False
    for pattern in KNITTED_PATTERNS:
        if all(h[i] >= 1 for i in pattern):
            rest = list(h)
            for i in pattern:
                rest[i] -= 1
            if _standard_complete(rest, True):
                return True
    return False


def is_win(counts, ruleset="two-player") -> bool:
    """True if the ``3k + 2`` concealed tiles form any winning form of the ruleset.

    Every ruleset: standard, seven pairs.  ``public`` also: thirteen orphans,
    honors-and-knitted, knitted straight.
    """
    name = _ruleset_name(ruleset)
    h = _counts(counts)
    assert sum(h) % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {sum(h)}"
    if is_standard_win(h) or is_seven_pairs_win(h):
        return True
    if name in SPECIAL_FORM_RULESETS:
        return is_thirteen_orphans_win(h) or is_honors_knitted_win(h) or is_knitted_straight_win(h)
    return False


def waits(counts, ruleset="two-player") -> list[int]:
    """Sorted kinds ``t`` of the ruleset with ``counts[t] < 4`` and ``counts + t`` a win.

    ``counts`` must have ``3k + 1`` tiles.  Brute force over the ruleset's kinds.
    """
    name = _ruleset_name(ruleset)
    h = _counts(counts)
    assert sum(h) % 3 == 1, f"a waiting concealed part has 3k+1 tiles, got {sum(h)}"
    result = []
    for t in RULESET_KINDS[name]:
        if h[t] < 4:
            h[t] += 1
            if is_win(h, name):
                result.append(t)
            h[t] -= 1
    return result


# ---------------------------------------------------------------------------
# decompositions
# ---------------------------------------------------------------------------


def decompositions(counts) -> list[tuple]:
    """Every distinct split of a ``3k + 2`` hand into groups and one pair.

    Each split is a sorted tuple of ``("pair", i)``, ``("chow", j)`` (j = the
    lowest kind of the chow) and ``("pung", k)`` entries; the result lists each
    distinct multiset of groups once, sorted.  Empty if the hand is not a
    standard win.
    """
    h = _counts(counts)
    assert sum(h) % 3 == 2, f"a complete concealed part has 3k+2 tiles, got {sum(h)}"
    found: set[tuple] = set()

    def rec(parts: list, need_pair: bool) -> None:
        i = next((k for k in range(N_KINDS) if h[k]), None)
        if i is None:
            if not need_pair:
                found.add(tuple(sorted(parts)))
            return
        if need_pair and h[i] >= 2:
            h[i] -= 2
            rec(parts + [("pair", i)], False)
            h[i] += 2
        if h[i] >= 3:
            h[i] -= 3
            rec(parts + [("pung", i)], need_pair)
            h[i] += 3
        if _can_start_chow(i) and h[i + 1] and h[i + 2]:
            h[i] -= 1
            h[i + 1] -= 1
            h[i + 2] -= 1
            rec(parts + [("chow", i)], need_pair)
            h[i] += 1
            h[i + 1] += 1
            h[i + 2] += 1

    rec([], True)
    return sorted(found)


# ---------------------------------------------------------------------------
# shanten: standard form
# ---------------------------------------------------------------------------


def _groups_distance(h: list[int], m: int, cap: list[int] | None = None) -> int:
    """``min over targets T of sum_i max(0, T[i] - h[i])``, T = ``m`` groups + one pair.

    ``cap[i]`` (default 4) is the largest count the target may have at kind ``i``
    (the knitted-straight form passes ``4 - pattern``).

    Dynamic program over the kinds in index order.  At kind ``i`` it chooses the
    number ``c0`` of chows starting at ``i`` (number tiles of rank <= 7 only),
    whether a pung is at ``i`` and whether the pair is at ``i``.  It carries
    ``c1`` / ``c2`` = chows started at ``i - 1`` / ``i - 2``, which also use kind
    ``i``.  The target count at ``i`` is ``c2 + c1 + c0 + 3*pung + 2*pair``; it
    must be <= ``cap[i]``; the cost at ``i`` is ``max(0, target - h[i])``.  The
    state is (i, c1, c2, groups used, pair used) and is memoized per call.

    Groups on kinds the hand does not hold (sparse hands).  The cost splits as
    ``sum_{h_i > 0} max(0, T_i - h_i) + sum_{h_i = 0} T_i``.  A group (or the pair)
    of T none of whose kinds is held adds exactly its size (3, or 2 for the pair)
    to the second sum and nothing to the first, whatever the other groups are.
    Conversely such a group can always be added to any partial target: the hand
    holds at most 14 kinds and the rest of the target uses at most 14 tiles, so
    at most 28 of the 34 kinds are in use and a pung (or the pair) fits on a kind
    with ``h = 0``, target 0 and cap 4 (caps below 4 only occur on kinds of a
    knitted pattern, which the target already uses), at cost exactly 3 (or 2).
    Hence ``d = min over partial targets T' whose every group touches a held kind
    of cost(T') + 3 * (m - groups of T') + 2 * (no pair in T')``.  The DP below
    therefore only starts a group at ``i`` if it touches a held kind (pung/pair:
    ``h[i] > 0``; chow: ``h[i] + h[i+1] + h[i+2] > 0``), jumps over kinds where
    nothing can start and nothing is carried, and closes the remaining groups
    with that closed-form cost.  ``_groups_distance_exhaustive`` (no shortcut)
    computes the same numbers; the tests compare the two.

    Rulesets.  Targets may use all 34 kinds.  For a hand inside a ruleset this
    gives the same distance as targets restricted to the ruleset's kinds: in an
    optimal target, a group on kinds outside the ruleset holds no tile of the
    hand, so it costs its full size; moving it inside the ruleset costs at most
    its size (adding tiles never raises the cost by more than their number), and
    a place exists (16 or more kinds with 4 copies each, at most 14 target tiles).
    """
    if cap is None:
        cap = [4] * N_KINDS
    INF = 1 << 30

    held = [h[i] > 0 for i in range(N_KINDS)]
    # chow_start[i]: a chow starting at i touches a held kind
    chow_start = [
        _can_start_chow(i) and (held[i] or held[i + 1] or held[i + 2]) for i in range(N_KINDS)
    ]
    # useful[i]: something (a pung, the pair or a chow) may start at i
    useful = [held[i] or chow_start[i] for i in range(N_KINDS)]
    # nxt[i]: the first useful kind >= i (34 if none)
    nxt = [N_KINDS] * (N_KINDS + 1)
    for i in range(N_KINDS - 1, -1, -1):
        nxt[i] = i if useful[i] else nxt[i + 1]

    @lru_cache(maxsize=None)
    def best(i: int, c1: int, c2: int, groups: int, pair: int) -> int:
        if c1 == 0 and c2 == 0:
            i = nxt[i]  # nothing carried: skip kinds where nothing can start
            if i == N_KINDS:
                return 3 * (m - groups) + 2 * (1 - pair)
        carried = c1 + c2
        hi = h[i]
        ci = cap[i]
        result = INF
        max_chows = min(m - groups, ci - carried) if chow_start[i] else 0
        pung_options = (0, 1) if held[i] else (0,)
        pair_options = (0, 1) if held[i] and not pair else (0,)
        for c0 in range(max_chows + 1):
            for pung in pung_options:
                g = groups + c0 + pung
                if g > m:
                    continue
                for pr in pair_options:
                    target = carried + c0 + 3 * pung + 2 * pr
                    if target > ci:
                        continue
                    cost = target - hi if target > hi else 0
                    if cost >= result:
                        continue
                    total = cost + best(i + 1, c0, c1, g, pair + pr)
                    if total < result:
                        result = total
        return result

    d = best(0, 0, 0, 0, 0)
    assert d < INF
    return d


def _groups_distance_exhaustive(h: list[int], m: int, cap: list[int] | None = None) -> int:
    """The same distance as :func:`_groups_distance`, without the sparse shortcut.

    Scans all 34 kinds and allows every chow, pung and pair everywhere.  Slow;
    used by the tests to check the shortcut.
    """
    if cap is None:
        cap = [4] * N_KINDS
    INF = 1 << 30

    @lru_cache(maxsize=None)
    def best(i: int, c1: int, c2: int, groups: int, pair: int) -> int:
        if i == N_KINDS:
            return 0 if (groups == m and pair == 1 and c1 == 0 and c2 == 0) else INF
        result = INF
        max_chows = m - groups if _can_start_chow(i) else 0
        for c0 in range(max_chows + 1):
            for pung in (0, 1):
                for pr in (0, 1):
                    if groups + c0 + pung > m or pair + pr > 1:
                        continue
                    target = c2 + c1 + c0 + 3 * pung + 2 * pr
                    if target > cap[i]:
                        continue
                    cost = max(0, target - h[i])
                    result = min(result, cost + best(i + 1, c0, c1, groups + c0 + pung, pair + pr))
        return result

    return best(0, 0, 0, 0, 0)


def standard_shanten(counts) -> int:
    """Standard-form shanten: ``d - 1`` with d the distance to ``M`` groups + a pair."""
    h = _counts(counts)
    n = sum(h)
    assert n % 3 in (1, 2), f"the concealed part has 3k+1 or 3k+2 tiles, got {n}"
    return _groups_distance(h, n // 3) - 1


# ---------------------------------------------------------------------------
# shanten: seven pairs and the special forms
# ---------------------------------------------------------------------------


def _require_full_hand(n: int, form: str) -> None:
    if n not in (13, 14):
        raise ValueError(f"{form} needs 13 or 14 concealed tiles, got {n}")


def seven_pairs_shanten(counts) -> int:
    """Seven-pairs shanten (``n`` in 13/14 only, else ValueError).

    Targets: 7 pairs with every kind used at most twice (target counts in
    {0, 2, 4}).  Distance by a DP over the kinds: choose 0, 1 or 2 pairs of each
    kind, 7 pairs in total, cost ``max(0, 2*pairs - h[i])`` per kind.
    """
    h = _counts(counts)
    _require_full_hand(sum(h), "seven pairs")
    INF = 1 << 30

    @lru_cache(maxsize=None)
    def best(i: int, pairs: int) -> int:
        if i == N_KINDS:
            return 0 if pairs == 7 else INF
        result = INF
        for k in (0, 1, 2):
            if pairs + k <= 7:
                result = min(result, max(0, 2 * k - h[i]) + best(i + 1, pairs + k))
        return result

    return best(0, 0) - 1


def thirteen_orphans_shanten(counts) -> int:
    """Thirteen-orphans shanten (``n`` in 13/14 only, else ValueError).

    Targets: the 13 orphans once each plus a duplicate of one of them (13 targets).
    """
    h = _counts(counts)
    _require_full_hand(sum(h), "thirteen orphans")
    best = None
    for dup in ORPHANS:
        target = [0] * N_KINDS
        for i in ORPHANS:
            target[i] = 1
        target[dup] += 1
        d = sum(max(0, target[i] - h[i]) for i in range(N_KINDS))
        best = d if best is None else min(best, d)
    assert best is not None   # the loops above see at least one target
    return best - 1


def honors_knitted_shanten(counts) -> int:
    """Honors-and-knitted (全不靠) shanten (``n`` in 13/14 only, else ValueError).

    Targets: for each knitted pattern, any 14 of its 16 candidate kinds (the 9
    pattern tiles and the 7 honors), one copy each: C(16, 14) = 120 per pattern.
    """
    h = _counts(counts)
    _require_full_hand(sum(h), "honors-and-knitted")
    best = None
    for pattern in KNITTED_PATTERNS:
        candidates = pattern + HONORS
        for chosen in itertools.combinations(candidates, 14):
            d = sum(1 for i in chosen if h[i] == 0)
            best = d if best is None else min(best, d)
    assert best is not None   # the loops above see at least one target
    return best - 1


def knitted_straight_shanten(counts) -> int:
    """Knitted-straight (组合龙) shanten (``n`` in {10, 11, 13, 14}, else ValueError).

    Targets: one pattern's 9 tiles + ``M - 3`` groups + a pair.  For a pattern P
    the cost splits exactly as ``sum_{i in P} [h_i == 0]`` plus the group
    distance of ``h' = max(0, h - P)`` with caps ``4 - P`` (per kind of P,
    ``max(0, 1 + G_i - h_i) = [h_i == 0] + max(0, G_i - max(0, h_i - 1))``).
    """
    h = _counts(counts)
    n = sum(h)
    if n not in (10, 11, 13, 14):
        raise ValueError(f"knitted straight needs 10, 11, 13 or 14 concealed tiles, got {n}")
    m = n // 3 - 3
    best = None
    for pattern in KNITTED_PATTERNS:
        pattern_cost = sum(1 for i in pattern if h[i] == 0)
        rest = list(h)
        cap = [4] * N_KINDS
        for i in pattern:
            rest[i] = max(0, rest[i] - 1)
            cap[i] = 3
        d = pattern_cost + _groups_distance(rest, m, cap)
        best = d if best is None else min(best, d)
    assert best is not None   # the loops above see at least one target
    return best - 1


def shanten(counts, ruleset="two-player") -> int:
    """Minimum shanten over the forms of the ruleset that exist for this ``n``.

    Standard always; seven pairs for ``n`` in 13/14; ``public`` also thirteen
    orphans and honors-and-knitted (13/14) and knitted straight (10/11/13/14).
    """
    name = _ruleset_name(ruleset)
    h = _counts(counts)
    n = sum(h)
    assert n % 3 in (1, 2), f"the concealed part has 3k+1 or 3k+2 tiles, got {n}"
    values = [standard_shanten(h)]
    if n in (13, 14):
        values.append(seven_pairs_shanten(h))
    if name in SPECIAL_FORM_RULESETS:
        if n in (13, 14):
            values.append(thirteen_orphans_shanten(h))
            values.append(honors_knitted_shanten(h))
        if n in (10, 11, 13, 14):
            values.append(knitted_straight_shanten(h))
    return min(values)
