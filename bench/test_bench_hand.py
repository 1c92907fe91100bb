"""pytest-benchmark suite for the hand questions (not part of the test run).

    python -m pip install -r bench/requirements.txt
    python -m pytest bench/ --benchmark-group-by=group

Each group holds mahjong-core, the pure-Python reference and every installed
peer on the same fixed-seed hands; compare rows within a group (pytest-benchmark
prints them side by side, and ``--benchmark-compare`` tracks them over time).
Nothing here asserts a speed: timings are reported, never tested.
"""

from __future__ import annotations

import itertools

import pytest

from common import random_hands, ready_hands

import mahjong_core as mj
from mahjong_core.families.mahjong._ref import hand as ref

try:
    from peers import available_peers

    PEERS = available_peers()
except Exception:  # pragma: no cover
    PEERS = []

H14 = list(random_hands(2000, 14))
H13 = list(random_hands(2000, 13))
READY = list(ready_hands(200))


def _cycle(fn, items):
    it = itertools.cycle(items)
    return lambda: fn(next(it))


@pytest.mark.benchmark(group="is_win per call")
def test_is_win_array(benchmark):
    assert isinstance(benchmark(_cycle(mj.is_win, H14)), bool)


@pytest.mark.benchmark(group="is_win per call")
def test_is_win_hand_object(benchmark):
    hands = [mj.Hand(h) for h in H14]
    assert isinstance(benchmark(_cycle(lambda h: h.is_win(), hands)), bool)


@pytest.mark.benchmark(group="is_win per call")
def test_is_win_reference(benchmark):
    assert isinstance(benchmark(_cycle(lambda h: ref.is_win(h, "two-player"), H14[:200])), bool)


@pytest.mark.benchmark(group="shanten per call")
def test_shanten_array(benchmark):
    assert benchmark(_cycle(mj.shanten, H13)) >= -1


@pytest.mark.benchmark(group="shanten per call")
def test_shanten_reference(benchmark):
    assert benchmark(_cycle(lambda h: ref.shanten(h, "two-player"), H13[:100])) >= -1


@pytest.mark.benchmark(group="waits per call")
def test_waits_array(benchmark):
    assert benchmark(_cycle(mj.waits, READY))


@pytest.mark.benchmark(group="waits per call")
def test_waits_reference(benchmark):
    assert benchmark(_cycle(lambda h: ref.waits(h, "two-player"), READY[:100]))


@pytest.mark.parametrize("peer", PEERS, ids=lambda p: p.name)
@pytest.mark.benchmark(group="is_win per call")
def test_is_win_peer(benchmark, peer):
    prepped = [peer.prepare(h) for h in H14]
    benchmark(_cycle(peer.is_win, prepped))


@pytest.mark.parametrize("peer", PEERS, ids=lambda p: p.name)
@pytest.mark.benchmark(group="shanten per call")
def test_shanten_peer(benchmark, peer):
    prepped = [peer.prepare(h) for h in H13]
    benchmark(_cycle(peer.shanten, prepped))


@pytest.mark.parametrize("peer", [p for p in PEERS if p.waits is not None], ids=lambda p: p.name)
@pytest.mark.benchmark(group="waits per call")
def test_waits_peer(benchmark, peer):
    prepped = [peer.prepare(h) for h in READY]
    benchmark(_cycle(peer.waits, prepped))


@pytest.mark.parametrize("ruleset", ["two-player", "public"])
@pytest.mark.parametrize("question", ["is_win", "waits", "shanten"])
def test_batch(benchmark, ruleset, question):
    size = 14 if question == "is_win" else 13
    hands = random_hands(200_000, size, ruleset)
    fn = {"is_win": mj.is_win_batch, "waits": mj.waits_batch, "shanten": mj.shanten_batch}[question]
    benchmark.group = f"batch of 200k ({ruleset})"
    out = benchmark(fn, hands, ruleset=ruleset)
    assert out.shape == (200_000,)
