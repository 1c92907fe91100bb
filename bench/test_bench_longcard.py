"""pytest-benchmark suite of the long-card hand layer (not part of the test run).

    python -m pytest bench/test_bench_longcard.py --benchmark-group-by=group

Each group holds the long-card public API, its pure-Python reference and the mahjong function of the
same package on fixed-seed hands (see bench_longcard.py for the sets).  Nothing asserts a speed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from bench_fan import winning_hands as mahjong_winning_hands
from bench_longcard import longcard_win_check_set, longcard_wins, mahjong_win_check_set
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard._ref import hand as _ref

import mahjong_core as mj

LC21 = list(longcard_win_check_set(2000))
MJ14 = list(mahjong_win_check_set(2000))
WINS = longcard_wins(2000)
WEIGHTS = lc.face_weights(None)


def _cycle(fn, items):
    it = itertools.cycle(items)
    return lambda: fn(next(it))


@pytest.mark.benchmark(group="is_win per call")
def test_longcard_is_win(benchmark):
    assert isinstance(benchmark(_cycle(lc.is_win, LC21)), bool)


@pytest.mark.benchmark(group="is_win per call")
def test_mahjong_is_win(benchmark):
    assert isinstance(benchmark(_cycle(mj.is_win, MJ14)), bool)


@pytest.mark.benchmark(group="is_win per call")
def test_longcard_is_win_reference(benchmark):
    lists = [list(map(int, a)) for a in LC21[:100]]
    assert isinstance(benchmark(_cycle(_ref.is_win, lists)), bool)


@pytest.mark.benchmark(group="score per call")
def test_longcard_score(benchmark):
    calls = [(c, k, d, b) for c, k, d, _, b in WINS]
    assert benchmark(_cycle(lambda a: lc.score(a[0], a[1], declared=a[2], banker=a[3]).total, calls)) >= 0


@pytest.mark.benchmark(group="score per call")
def test_longcard_score_reference(benchmark):
    calls = []
    for c, k, _, groups, b in WINS[:100]:
        full = c.astype(int)
        full[k] += 1
        calls.append((list(full), groups, b))
    assert benchmark(_cycle(lambda a: _ref.best_win(a[0], a[1], a[2], weights=WEIGHTS)[0], calls)) >= 0


@pytest.mark.benchmark(group="score per call")
def test_mahjong_score(benchmark):
    calls = []
    for c, w, _m, sd, groups in mahjong_winning_hands(500, "public"):
        melds = [f"{kind} " + mj.format_tiles([f, f + 1, f + 2] if kind == "chi" else [f] * 3) for kind, f in groups]
        calls.append((mj.format_counts(c), mj.tiles.tile_short(w), melds, sd))
    assert benchmark(_cycle(lambda a: mj.score(a[0], a[1], ruleset="public", melds=a[2], self_drawn=a[3]).total,
                            calls)) >= 0


@pytest.mark.benchmark(group="batch win check (1 thread, 200 000 hands)")
def test_longcard_is_win_batch(benchmark):
    big = np.ascontiguousarray(np.tile(np.array(LC21), (100, 1)))
    assert benchmark(lc.is_win_batch, big).shape == (len(big),)
