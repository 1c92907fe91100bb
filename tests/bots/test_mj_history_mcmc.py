"""Metropolis-Hastings over the two-player opponent's history (src/mahjong_core/_round_mcmc.pxi, the
search bot's opponent model ``"mcmc"``): its hands are his hand size, of tiles the seat has not seen;
the moves bring them nearer what he did (his discards as a greedy player's, his 报听); it reads nothing
hidden; its cost is counted in the search bot's budget; bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core._round import opponent_mcmc, sample_hidden_hands, search_outcomes
from mahjong_core.families.mahjong.search_bot import FILTER_WEIGHTS, SearchBot
from tests.support.bot_decisions import hidden_twin, two_player_points


def _played(r, s, o):
    """He has discarded a few times, and the chains apply (no meld, no claimed discard)."""
    return (len(r.view(s)["discards"][o]) >= 4
            and opponent_mcmc(r._core, s, 1, 0, np.random.PCG64(0), FILTER_WEIGHTS)[0] is not None)


def _seen(view):
    seen = np.zeros(34, dtype=int)
    for k in view["hand"]:
        seen[k] += 1
    for pool in view["discards"]:
        for k in pool:
            seen[k] += 1
    for melds in view["melds"]:
        for m in melds:
            for k in m["tiles"]:
                seen[k] += 1
    return seen


def test_the_hands_are_his_size_and_of_tiles_the_seat_has_not_seen():
    checked = 0
    for rnd, seat, opp in two_player_points("two-player", range(1, 6), _played):
        hands, steps = opponent_mcmc(rnd._core, seat, 16, 30, np.random.PCG64(1), FILTER_WEIGHTS)
        view = rnd.view(seat)
        assert hands.shape == (16, 34) and hands.dtype == np.int8
        assert (hands.sum(axis=1) == view["hand_sizes"][opp]).all()
        assert (hands >= 0).all() and (hands + _seen(view) <= 4).all()
        # at least each start's deal and its turns evaluated
        assert steps >= 16 * (5 + 2 * len(view["discards"][opp]))
        dealt = sample_hidden_hands(rnd._core, seat, 20, np.random.PCG64(2), True, particles=hands)[:, opp]
        rows = {h.tobytes() for h in hands}
        assert all(h.tobytes() in rows for h in dealt)
        checked += 1
    assert checked >= 5


def _explained(rnd, seat, opp, moves, k):
    """The share of the chains' hands with which his last discard would not have lowered the
    shanten (a greedy player keeps a tile that does)."""
    hands, _ = opponent_mcmc(rnd._core, seat, 64, moves, np.random.PCG64(k), FILTER_WEIGHTS)
    last = rnd.view(seat)["discards"][opp][-1]
    before = mj.shanten_batch(hands, ruleset="two-player")
    plus = hands.copy()
    plus[:, last] += 1
    after = np.array([min(mj.shanten_batch(np.where(np.arange(34) == d, p - 1, p)[None], ruleset="two-player")[0]
                          for d in range(34) if p[d] and d != last) for p in plus])
    return float((after >= before).mean())


def test_the_moves_bring_the_hands_nearer_his_discards():
    """Where the chains move, more of their hands explain his last discard than where they stay at
    their start (the "history" deal, as if he had thrown each tile he drew)."""
    still = moved = 0.0
    n = 0
    for k, (rnd, seat, opp) in enumerate(two_player_points("two-player", range(1, 20), _played)):
        if k % 4:
            continue
        still += _explained(rnd, seat, opp, 0, k)
        moved += _explained(rnd, seat, opp, 200, k)
        n += 1
        if n == 8:
            break
    assert n == 8
    assert moved > still


def test_a_declared_opponent_holds_a_ready_hand():
    checked = 0
    for rnd, seat, opp in two_player_points("two-player-bamboo", range(1, 60), lambda r, s, o: r.view(s)["ready"][o]):
        hands, steps = opponent_mcmc(rnd._core, seat, 30, 100, np.random.PCG64(checked), FILTER_WEIGHTS)
        if hands is None:
            continue
        assert steps > 0
        assert (mj.waits_batch(hands, ruleset="two-player-bamboo") != 0).all()
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_chains_read_nothing_hidden():
    rng = np.random.default_rng(4)
    checked = 0
    for ruleset in ("two-player-bamboo", "two-player"):
        for rnd, seat, opp in two_player_points(ruleset, range(1, 10), _played):
            other = hidden_twin(rnd, seat, rng, tries=20)
            if other is None:
                continue
            assert other.view(seat) == rnd.view(seat)
            a, sa = opponent_mcmc(rnd._core, seat, 20, 50, np.random.PCG64(2), FILTER_WEIGHTS)
            b, sb = opponent_mcmc(other._core, seat, 20, 50, np.random.PCG64(2), FILTER_WEIGHTS)
            assert np.array_equal(a, b) and sa == sb
            legal = rnd.legal_indices(seat)
            here = search_outcomes(rnd._core, seat, legal, 4, np.random.PCG64(3), particles=a)
            there = search_outcomes(other._core, seat, legal, 4, np.random.PCG64(3), particles=b)
            assert all(np.array_equal(x, y) for x, y in zip(here, there))
            checked += 1
            break
    assert checked == 2


def test_its_cost_is_counted_in_the_bot_budget():
    """The chains run once a decision and what they cost counts as steps: a bot that may play no
    world (a budget of one play-out) spends exactly the chains' cost, more with more moves."""
    for rnd, seat, opp in two_player_points("two-player", range(1, 5), _played):
        costs = []
        for moves in (0, 60):
            bot = SearchBot(1, playouts=1, opponents="mcmc")
            bot.mcmc_moves = moves
            bot.act_index(rnd, seat)
            if bot.last["candidates"] == 1:
                break
            _, cost = opponent_mcmc(rnd._core, seat, bot.mcmc_chains, moves, np.random.PCG64(1), bot.filter_weights,
                                    bot.ready_weight, bot.last_weight, bot.mcmc_win_weight)
            assert bot.last["worlds"] == 0 and bot.last["steps"] == cost > 0
            costs.append(cost)
        if len(costs) == 2:
            assert costs[1] > costs[0]
            return
    raise AssertionError("no searched decision")


def test_four_players_fall_back_and_bad_input_is_refused():
    rnd = mj.Round(ruleset="public", seed=1)
    seat = rnd.seats_to_act()[0]
    assert opponent_mcmc(rnd._core, seat, 10, 10, np.random.PCG64(1), FILTER_WEIGHTS) == (None, 0)
    rnd, seat, _ = next(two_player_points("two-player", range(1, 3), _played))
    with pytest.raises(ValueError, match="n_chains"):
        opponent_mcmc(rnd._core, seat, 0, 10, np.random.PCG64(1), FILTER_WEIGHTS)
    with pytest.raises(ValueError, match="n_moves"):
        opponent_mcmc(rnd._core, seat, 1, -1, np.random.PCG64(1), FILTER_WEIGHTS)
    for bad in ((0.5, 0.5, 0.5), (0.5, 0.5, 0.5, 0.0), (0.5, 0.5, 0.5, float("nan"))):
        with pytest.raises(ValueError, match="weights"):
            opponent_mcmc(rnd._core, seat, 1, 10, np.random.PCG64(1), bad)
    with pytest.raises(ValueError, match="ready_weight"):
        opponent_mcmc(rnd._core, seat, 1, 10, np.random.PCG64(1), FILTER_WEIGHTS, ready_weight=2.0)
    with pytest.raises(ValueError, match="win_weight"):
        opponent_mcmc(rnd._core, seat, 1, 10, np.random.PCG64(1), FILTER_WEIGHTS, win_weight=0.0)
