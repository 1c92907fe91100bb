"""pytest-benchmark suite for the MCR speed targets of issue 29 (not part of the test run).

    python -m pip install -r bench/requirements.txt
    MCR_BENCH_RULESET=public python -m pytest bench/test_bench_mcr.py --benchmark-group-by=group

One group per hand set of :mod:`bench_mcr` (plain, melds3, melds4, kongs, flowers) with our
per-call ``mj.score`` and PyMahjongGB's ``MahjongFanCalculator`` on the same hands, one group for
``score_batch``, and one per shanten form with ``mj.form_shanten`` beside the form's PyMahjongGB
function.  The ruleset comes from ``MCR_BENCH_RULESET`` (default ``public``).  Timings are reported,
never asserted; ``python bench/bench_mcr.py`` prints the ratios of one run.
"""

from __future__ import annotations

import itertools
import os

import pytest

import bench_mcr
import mahjong_core as mj

RULESET = os.environ.get("MCR_BENCH_RULESET", "public")
N = 500
SETS = {cat: bench_mcr.winning_hands(N, cat, RULESET) for cat in bench_mcr.CATEGORIES}
H13 = bench_mcr.random_concealed(N, 13, RULESET)
gb = bench_mcr.gb


def _cycle(fn, items):
    it = itertools.cycle(items)
    return lambda: fn(next(it))


def _ours_call(h):
    kw = {"ruleset": RULESET, "melds": h.melds, "self_drawn": h.self_drawn}
    if h.n_flowers:
        kw["flowers"] = h.flowers
    return h.counts, h.win, kw


@pytest.mark.parametrize("category", bench_mcr.CATEGORIES)
def test_score_ours(benchmark, category):
    benchmark.group = f"score per call: {category}"
    calls = [_ours_call(h) for h in SETS[category]]
    benchmark(_cycle(lambda a: mj.score(a[0], a[1], **a[2]), calls))


@pytest.mark.skipif(gb is None, reason="PyMahjongGB is not installed")
@pytest.mark.parametrize("category", bench_mcr.CATEGORIES)
def test_score_pymahjonggb(benchmark, category):
    benchmark.group = f"score per call: {category}"
    calc = gb.MahjongFanCalculator
    benchmark(_cycle(lambda a: calc(*a), [h.gb_args for h in SETS[category]]))


@pytest.mark.parametrize("category", bench_mcr.CATEGORIES)
def test_score_batch(benchmark, category):
    benchmark.group = "score_batch (N hands a call)"
    counts, wins, melds, flags, flowers = bench_mcr.batch_arrays(SETS[category])
    benchmark(lambda: mj.score_batch(counts, wins, ruleset=RULESET, melds=melds, flags=flags, flowers=flowers))


@pytest.mark.parametrize("form", bench_mcr.FORMS)
def test_form_shanten_ours(benchmark, form):
    benchmark.group = f"shanten: {form}"
    benchmark(_cycle(lambda h: mj.form_shanten(h, form, ruleset=RULESET), H13))


@pytest.mark.skipif(gb is None, reason="PyMahjongGB is not installed")
@pytest.mark.parametrize("form", bench_mcr.FORMS)
def test_form_shanten_pymahjonggb(benchmark, form):
    benchmark.group = f"shanten: {form}"
    fn = getattr(gb, bench_mcr.GB_FORM_FUNCTIONS[form])
    benchmark(_cycle(fn, [bench_mcr.gb_tiles(h) for h in H13]))


def test_shanten_ours(benchmark):
    benchmark.group = "shanten: overall"
    benchmark(_cycle(lambda h: mj.shanten(h, ruleset=RULESET), H13))


@pytest.mark.skipif(gb is None, reason="PyMahjongGB is not installed")
def test_shanten_pymahjonggb(benchmark):
    benchmark.group = "shanten: overall"
    calc = gb.MahjongShanten
    benchmark(_cycle(lambda t: calc((), t), [bench_mcr.gb_tiles(h) for h in H13]))
