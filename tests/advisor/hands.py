"""Hypothesis strategies for the advisor tests: hands a few tiles from a complete hand, with
declared groups and visible tiles, so that the reference's brute force stays small."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from mahjong_core.families.mahjong.fan_shanten import all_groups

from mahjong_core import get_ruleset


@st.composite
def near_complete(draw: Any, ruleset: str, max_swaps: int, max_melds: int = 2) -> dict[str, Any]:
    """A 13-tile hand (melds included, kongs as 3): a complete hand minus one tile with up to
    ``max_swaps`` tiles replaced, some of its groups declared, and some visible tiles."""
    kinds = get_ruleset(ruleset).kinds
    groups = all_groups(kinds)
    gs = draw(st.lists(st.sampled_from(groups), min_size=4, max_size=4))
    pair = draw(st.sampled_from(kinds))
    counts = [0] * 34
    for g in gs:
        for t in g:
            counts[t] += 1
    counts[pair] += 2
    if max(counts) > 4:
        from hypothesis import assume
        assume(False)
    n_melds = draw(st.integers(0, max_melds))
    melds = []
    meld_counts = [0] * 34
    for g in gs[:n_melds]:
        for t in g:
            counts[t] -= 1
            meld_counts[t] += 1
        melds.append(("chi" if g[0] != g[1] else "pon", list(g)))
    tiles = [t for t in range(34) for _ in range(counts[t])]
    tiles = draw(st.permutations(tiles))[1:]
    for _ in range(draw(st.integers(0, max_swaps))):
        i = draw(st.integers(0, len(tiles) - 1))
        tiles = tiles[:i] + tiles[i + 1:]
        free = [t for t in kinds if tiles.count(t) + meld_counts[t] < 4]
        tiles.append(draw(st.sampled_from(free)))
    hand = np.bincount(np.array(tiles, dtype=np.intp), minlength=34).astype(np.uint8)
    visible = [0] * 34
    for t in draw(st.lists(st.sampled_from(kinds), max_size=10)):
        if hand[t] + meld_counts[t] + visible[t] < 4:
            visible[t] += 1
    return {"hand": hand, "melds": melds, "visible": visible,
            "win": draw(st.sampled_from(["any", "discard", "self_drawn"])),
            "seat_wind": draw(st.sampled_from("ESWN")), "round_wind": draw(st.sampled_from("ESWN")),
            "min_fan": draw(st.sampled_from([None, None, None, 0, 6, 16]))}


@st.composite
def near_special(draw: Any) -> np.ndarray:
    """A ``public`` hand of 13 tiles one or two tiles from a special form: the knitted straight
    with a group and a pair, 全不靠 (七星不靠 included) or thirteen orphans."""
    from mahjong_core.families.mahjong.fan_shanten import _HONORS, _KNITTED, _ORPHANS

    kinds = get_ruleset("public").kinds
    form = draw(st.sampled_from(["knitted", "honors_knitted", "orphans"]))
    counts = [0] * 34
    if form == "knitted":
        for t in draw(st.sampled_from(_KNITTED)) + draw(st.sampled_from(all_groups(kinds))):
            counts[t] += 1
        counts[draw(st.sampled_from(kinds))] += 2
    elif form == "honors_knitted":
        pool = draw(st.permutations(list(draw(st.sampled_from(_KNITTED))) + list(_HONORS)))
        for t in pool[:14]:
            counts[t] += 1
    else:
        for t in _ORPHANS:
            counts[t] += 1
        counts[draw(st.sampled_from(_ORPHANS))] += 1
    if max(counts) > 4:
        from hypothesis import assume
        assume(False)
    tiles = list(draw(st.permutations([t for t in range(34) for _ in range(counts[t])])))[1:]
    if draw(st.booleans()):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
        tiles.append(draw(st.sampled_from([t for t in kinds if tiles.count(t) < 4])))
    return np.bincount(np.array(tiles, dtype=np.intp), minlength=34).astype(np.uint8)
