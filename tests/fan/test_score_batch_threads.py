"""score_batch's ``threads`` (issue 29, item 3): the rows split over threads give the same arrays
as one thread on every hand set of bench_mcr, the error of the first invalid row whichever range
holds it, and the split really runs on other threads (seen by ``threading.settrace``, which every
thread the ``threading`` module starts calls first)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core.errors import HandSizeError, MahjongError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_mcr  # noqa: E402

HANDS_PER_SET = 1500


def _arrays(category: str, ruleset: str) -> tuple[np.ndarray, ...]:
    return bench_mcr.batch_arrays(bench_mcr.winning_hands(HANDS_PER_SET, category, ruleset))


def _score(arrays: tuple[np.ndarray, ...], ruleset: str, threads: int) -> tuple[np.ndarray, ...]:
    counts, wins, melds, flags, flowers = arrays
    return mj.score_batch(counts, wins, ruleset=ruleset, melds=melds, flags=flags, flowers=flowers, threads=threads)


@pytest.mark.parametrize("ruleset", ["mcr", "public"])
@pytest.mark.parametrize("category", bench_mcr.CATEGORIES)
def test_threads_give_the_one_thread_arrays(category, ruleset):
    arrays = _arrays(category, ruleset)
    one = _score(arrays, ruleset, 1)
    for threads in (0, 2, 3, 8):
        got = _score(arrays, ruleset, threads)
        for a, b in zip(one, got):
            assert a.dtype == b.dtype and np.array_equal(a, b), (category, threads)


def _threads_started(call) -> int:
    """Threads the threading module started while call() ran."""
    started = set()

    def trace(frame, event, arg):
        started.add(threading.get_ident())

    threading.settrace(trace)
    try:
        call()
    finally:
        threading.settrace(None)
    return len(started)


def test_the_rows_run_on_as_many_threads_as_asked_when_each_gets_512_rows():
    arrays = _arrays("plain", "mcr")                       # 1500 rows: at most 2 ranges of 512 or more
    assert _threads_started(lambda: _score(arrays, "mcr", 1)) == 0
    assert _threads_started(lambda: _score(arrays, "mcr", 2)) == 1   # the caller takes the first range
    assert _threads_started(lambda: _score(arrays, "mcr", 8)) == 1
    small = tuple(a[:1000] for a in arrays)
    assert _threads_started(lambda: _score(small, "mcr", 8)) == 0


def test_the_first_invalid_row_is_named_whichever_range_holds_it():
    counts, *rest = _arrays("melds3", "mcr")
    counts = counts.copy()
    counts[1200] = 0     # the third of three ranges
    counts[900] = 0      # the second: the one named
    for threads in (1, 3):
        with pytest.raises(HandSizeError, match=r"^row 900: the hand has 10 tiles"):
            _score((counts, *rest), "mcr", threads)


@pytest.mark.parametrize("threads", [-1, 1025, 1.0, True, "2", None])
def test_threads_must_be_a_count(threads):
    arrays = _arrays("plain", "mcr")
    with pytest.raises(MahjongError, match="threads must be an integer 0-1024"):
        _score(arrays, "mcr", threads)


def test_threads_is_a_mahjong_option():
    with pytest.raises(MahjongError, match="threads is a mahjong option"):
        mj.score_batch(np.zeros((1, 21), np.uint8), [0], ruleset="changpai-ydr", threads=2)
