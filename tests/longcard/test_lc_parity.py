"""The compiled 长牌 core against the pure-Python reference: every table entry of the small components,
exhaustive small hands, seeded random hands (declared groups, 财神, 将, every fan option) and
hypothesis."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong_core.errors import NotWinningHandError
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard._ref import hand as _ref
from mahjong_core.families.longcard.sampling import random_deal, random_group_hand

from mahjong_core import _lc_hand

INFO = _lc_hand.table_info()


def _ref_table_value(faces, state, keep):
    counts = [0] * 21
    for k, f in enumerate(faces):
        counts[f] = state // 6 ** k % 6
    if sum(counts) > 21:
        return None     # never looked up: a hand has at most 21 concealed cards
    best = -1
    for dec in _ref.decompositions(counts):
        if keep and not all((f, f, f) in dec for f in range(21) if counts[f] >= 3):
            continue
        best = max(best, sum(lc.group_tuo("kan" if t[0] == t[2] else "chi", t) for t in dec))
    return best


@pytest.mark.parametrize("comp", [c for c in range(6) if INFO["states"][c] <= 1296])
@pytest.mark.parametrize("keep", [False, True])
def test_small_component_tables_exhaustive(comp, keep):
    faces = INFO["components"][comp]
    for state in range(INFO["states"][comp]):
        want = _ref_table_value(faces, state, keep)
        if want is not None:
            assert _lc_hand._table_value(comp, state, keep) == want, (faces, state)


def test_large_component_table_sampled():
    comp = INFO["states"].index(46656)
    faces = INFO["components"][comp]
    rng = np.random.default_rng(7)
    for state in rng.integers(0, 46656, 500):
        for keep in (False, True):
            want = _ref_table_value(faces, int(state), keep)
            if want is not None:
                assert _lc_hand._table_value(comp, int(state), keep) == want, (faces, state)


def test_components_partition_faces_by_point_class():
    faces = sorted(f for c in INFO["components"] for f in c)
    assert faces == list(range(21))
    for comp in INFO["components"]:
        assert len({min(lc.POINTS[f], 14 - lc.POINTS[f]) for f in comp}) == 1


# ---------------------------------------------------------------------------------- options
def _random_kw(rng):
    kw = {"banker": bool(rng.random() < 0.4)}
    if rng.random() < 0.7:
        kw["jiang"] = (int(rng.integers(22)), int(rng.integers(22)))
    kw["caishen"] = int(rng.integers(0, 3))
    for key, p in (("wumenjiang", 0.2), ("kan_as_peng", 0.2), ("win_split_kan", 0.2), ("all_black_waives_tuo", 0.2),
                   ("xiang_bonus_on_fan_faces", 0.2)):
        if rng.random() < p:
            kw[key] = not lc.DEFAULTS[key]
    if rng.random() < 0.2:
        kw["wumenjiang_weight"] = "no_upgrade"
    if rng.random() < 0.2:
        kw["fan_cap"] = int(rng.integers(3, 7))      # a cap is 0 or at least 3 (spec 4.6)
    return kw


def _split(kw):
    opts = {k: v for k, v in kw.items() if k not in ("jiang", "caishen", "banker")}
    weights = lc.face_weights(kw.get("jiang"), wumenjiang=opts.get("wumenjiang", True),
                              wumenjiang_weight=opts.get("wumenjiang_weight", "power_of_two"))
    return opts, weights


def check_win(counts, declared, kw):
    """is_win and score of a 21-effective-card hand agree with the reference."""
    opts, weights = _split(kw)
    counts = np.asarray(counts, np.uint8)
    ref = _ref.best_win(list(counts), declared, kw.get("banker", False), weights=weights,
                        caishen=kw.get("caishen", 0), options=opts)
    win = lc.is_win(counts, declared=declared, banker=kw.get("banker", False),
                    win_split_kan=opts.get("win_split_kan", True),
                    all_black_waives_tuo=opts.get("all_black_waives_tuo", False))
    assert win == (ref is not None)
    try:
        s = lc.score(counts, None, declared=declared, **kw)
    except NotWinningHandError:
        assert ref is None
        return False
    assert ref is not None and (s.total, s.fan, s.tuo) == ref[:3]
    got = sorted(f for g in s.concealed_groups for f in g.cards)
    assert got == [f for f in range(21) for _ in range(counts[f])]
    assert sum(f.total for f in s.fans) == s.fan
    assert s.tuo == sum(g.tuo for g in s.groups)
    return True


def check_waits(counts, declared, kw):
    opts, weights = _split(kw)
    ref = _ref.waits(list(counts), declared, kw.get("banker", False), weights=weights, caishen=kw.get("caishen", 0),
                     options=opts)
    assert lc.wait_scores(counts, declared=declared, **kw) == ref
    assert lc.waits(counts, declared=declared, banker=kw.get("banker", False),
                    win_split_kan=opts.get("win_split_kan", True),
                    all_black_waives_tuo=opts.get("all_black_waives_tuo", False)) == sorted(ref)


def test_random_group_hands():
    rng = np.random.default_rng(12)
    wins = 0
    for _ in range(600):
        counts, declared = random_group_hand(rng)
        wins += check_win(counts, declared, _random_kw(rng))
    assert wins > 150          # the sample really exercises the fan evaluator


def test_random_waits():
    rng = np.random.default_rng(13)
    ready = 0
    for _ in range(200):
        counts, declared = random_group_hand(rng)
        nz = np.flatnonzero(counts)
        counts[rng.choice(nz)] -= 1          # one card out: often ready
        kw = _random_kw(rng)
        check_waits(counts, declared, kw)
        ready += bool(lc.waits(counts, declared=declared))
    assert ready > 50


def test_random_deals_win_check():
    rng = np.random.default_rng(14)
    hands = random_deal(rng, 21, 300)
    for row in hands:
        check_win(row, (), {"banker": False})


def test_exhaustive_three_card_concealed():
    """Every 3-card concealed part (1771 multisets) with 6 declared groups near the threshold."""
    declared_sets = [lc.parse_declared(d) for d in (
        ["peng 44×3", "peng 11×3", "peng 66×3", "peng 22×3", "peng 55×3", "chi 46 46 13"],      # 陀 35 declared
        ["peng 22×3", "peng 55×3", "peng 33×3", "chi 16 25 34", "peng 26×3", "sha 56×4"],      # 陀 28: needs 5+
    )]
    for declared in declared_sets:
        for combo in itertools.combinations_with_replacement(range(21), 3):
            counts = np.bincount(combo, minlength=21).astype(np.uint8)
            own = counts + np.bincount([c for g in declared for c in g.cards], minlength=21)
            if own.max() > 5:
                continue
            check_win(counts, declared, {"banker": False})


def test_exhaustive_six_cards_of_linked_faces():
    """Every 6-card multiset over the 5/9-point and 7-point faces plus 地/天, 5 declared groups."""
    faces = [3, 7, 14, 16, 5, 9, 12, 0, 20]
    declared = lc.parse_declared(["peng 44×3", "peng 15×3", "peng 66×3", "sha 55×4", "peng 11×3"])
    for combo in itertools.combinations_with_replacement(faces, 6):
        counts = np.bincount(combo, minlength=21).astype(np.uint8)
        if (counts + np.bincount([c for g in declared for c in g.cards], minlength=21)).max() > 5:
            continue
        for banker in (False, True):
            check_win(counts, declared, {"banker": banker})


def test_batch_matches_single():
    rng = np.random.default_rng(15)
    rows = []
    for _ in range(300):
        counts, _ = random_group_hand(rng, n_declared=0)
        rows.append(counts)
    rows = np.array(rows + list(random_deal(rng, 21, 100)), np.uint8)
    for banker in (False, True):
        got = lc.is_win_batch(rows, banker=banker)
        assert list(got) == [lc.is_win(r, banker=banker) for r in rows]
        fan, tuo = lc.score_batch(rows, banker=banker, jiang=(15, 3), caishen=1)
        for r, f, t in zip(rows, fan, tuo):
            if f < 0:
                assert not lc.is_win(r, banker=banker) and t == -1
            else:
                s = lc.score(r, None, banker=banker, jiang=(15, 3), caishen=1)
                assert (s.total, s.tuo) == (f, t)
    twenty = rows.copy()
    for r in twenty:
        r[np.flatnonzero(r)[0]] -= 1
    masks = lc.waits_batch(twenty)
    assert [[x for x in range(21) if m >> x & 1] for m in masks] == [lc.waits(r) for r in twenty]


# ---------------------------------------------------------------------------------- hypothesis
@st.composite
def group_hands(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    counts, declared = random_group_hand(rng, n_declared=draw(st.integers(0, 5)))
    # perturb: swap one concealed card for another face (often breaks the win, sometimes not)
    if draw(st.booleans()):
        nz = [int(f) for f in np.flatnonzero(counts)]
        out = draw(st.sampled_from(nz))
        into = draw(st.integers(0, 20))
        own = counts.copy()
        for g in declared:
            for c in g.cards:
                own[c] += 1
        if own[into] < 5 or into == out:
            counts[out] -= 1
            counts[into] += 1
    kw = _random_kw(np.random.default_rng(draw(st.integers(0, 2**32 - 1))))
    return counts, declared, kw


@settings(max_examples=300, deadline=None)
@given(group_hands())
def test_hypothesis_win_and_score(case):
    counts, declared, kw = case
    check_win(counts, declared, kw)


@settings(max_examples=100, deadline=None)
@given(group_hands(), st.data())
def test_hypothesis_waits(case, data):
    counts, declared, kw = case
    nz = [int(f) for f in np.flatnonzero(counts)]
    counts = counts.copy()
    counts[data.draw(st.sampled_from(nz))] -= 1
    check_waits(counts, declared, kw)
