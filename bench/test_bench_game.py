"""pytest-benchmark suite for full rounds (not part of the test run).

    python -m pip install -r bench/requirements.txt
    python -m pytest bench/test_bench_game.py --benchmark-group-by=group

Each group holds the shipped engine (``mahjong_core.game``: ``play_round`` and the
server path, a Python loop over ``seats_to_act`` / ``legal_indices`` / ``step``) and the
pure-Python reference engine (``mahjong_core.families.mahjong._ref``) on the same fixed seeds; compare rows
within a group.  One benchmarked call plays one whole round, building the ``Round`` from its
seed included.  Nothing here asserts a speed: every test checks the rounds it played instead
(over, with a consistent result, the same game on every path).
"""

from __future__ import annotations

import itertools

import pytest

from bench_game import REFERENCE, SEED, SHIPPED, serve_round

from mahjong_core.families.mahjong._ref import round as round_py

SEEDS = list(range(SEED, SEED + 40))
METHODS = {"self_drawn", "discard", "robbing"}


def _check(rnd, res, players: int) -> None:
    """A finished round and a result consistent with it."""
    assert rnd.is_over
    assert rnd.seats_to_act() == []
    assert res is not None and res == rnd.result
    assert 0 <= res.dealer < players and 0 <= res.next_dealer < players
    assert res.dealer_continues == (res.next_dealer == res.dealer)
    if res.draw:
        assert res.winners == [] and res.winner is None and res.total == 0
        return
    assert res.winners and 0 <= res.winner < players
    assert res.method in METHODS
    assert res.total > 0 and res.fan_ids
    if res.method == "self_drawn":
        assert res.loser is None
    else:
        assert res.loser is not None and res.loser != res.winner and 0 <= res.loser < players
    seats = [w["seat"] for w in res.winners]
    # a winning dealer deals again, else the (first) winner deals next
    assert res.next_dealer == (res.dealer if res.dealer in seats else seats[0])


def _player(impl, ruleset: str, players: int, serve: bool = False):
    """A callable playing the next seed's round with greedy bots; returns (round, result)."""
    bots = [impl.GreedyBot() for _ in range(players)]
    seeds = itertools.cycle(SEEDS)
    Round, play_round = impl.Round, impl.play_round
    if serve:
        def one():
            rnd = Round(ruleset, seed=next(seeds))
            return rnd, serve_round(rnd, bots)[0]
    else:
        def one():
            rnd = Round(ruleset, seed=next(seeds))
            return rnd, play_round(rnd, bots)
    return one


def _results(impl, ruleset: str, players: int, seeds, serve: bool = False) -> list:
    """Untimed: play ``seeds`` once, checking every round; their results as plain dicts."""
    one = _player(impl, ruleset, players, serve)
    out = []
    for _ in seeds:
        rnd, res = one()
        _check(rnd, res, players)
        out.append(res.to_dict())
    return out


@pytest.mark.benchmark(group="round two-player greedy x2")
def test_round_two_player_greedy(benchmark):
    rnd, res = benchmark(_player(SHIPPED, "two-player", 2))
    _check(rnd, res, 2)
    # every seed of the cycle finishes consistently, and the same seed gives the same game
    assert _results(SHIPPED, "two-player", 2, SEEDS) == _results(SHIPPED, "two-player", 2, SEEDS)


@pytest.mark.benchmark(group="round two-player greedy x2")
def test_round_two_player_greedy_server_path(benchmark):
    rnd, res = benchmark(_player(SHIPPED, "two-player", 2, serve=True))
    _check(rnd, res, 2)
    # the public-API loop plays exactly the games play_round plays
    assert _results(SHIPPED, "two-player", 2, SEEDS, serve=True) == _results(SHIPPED, "two-player", 2, SEEDS)


@pytest.mark.benchmark(group="round two-player greedy x2")
def test_round_two_player_greedy_reference(benchmark):
    rnd, res = benchmark(_player(REFERENCE, "two-player", 2))
    assert isinstance(rnd, round_py.Round)
    _check(rnd, res, 2)


@pytest.mark.benchmark(group="round public greedy x4")
def test_round_public_greedy(benchmark):
    rnd, res = benchmark(_player(SHIPPED, "public", 4))
    _check(rnd, res, 4)
    seeds = SEEDS[:10]
    assert _results(SHIPPED, "public", 4, seeds) == _results(SHIPPED, "public", 4, seeds)


@pytest.mark.benchmark(group="round public greedy x4")
def test_round_public_greedy_server_path(benchmark):
    rnd, res = benchmark(_player(SHIPPED, "public", 4, serve=True))
    _check(rnd, res, 4)
    seeds = SEEDS[:10]
    assert _results(SHIPPED, "public", 4, seeds, serve=True) == _results(SHIPPED, "public", 4, seeds)


@pytest.mark.benchmark(group="round public greedy x4")
def test_round_public_greedy_reference(benchmark):
    rnd, res = benchmark(_player(REFERENCE, "public", 4))
    assert isinstance(rnd, round_py.Round)
    _check(rnd, res, 4)


@pytest.mark.benchmark(group="round two-player random x2")
def test_round_two_player_random_server_path(benchmark):
    bots = [SHIPPED.RandomBot(1000 + s) for s in range(2)]
    seeds = itertools.cycle(SEEDS)

    def one():
        rnd = SHIPPED.Round("two-player", seed=next(seeds))
        return rnd, serve_round(rnd, bots)

    rnd, (res, steps) = benchmark(one)
    _check(rnd, res, 2)
    assert steps >= 1
