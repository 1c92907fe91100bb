"""The particle filter over the opponent's hand in a two-player round (src/mahjong_core/_round_particles.pxi,
the search bot's opponent model ``"filter"``): its hands are his hand size, of tiles the seat has not
seen; they agree with what he did (his discards as a greedy player's, his 报听); it reads nothing
hidden; its cost is counted in the search bot's budget; bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core._round import opponent_particles, sample_hidden_hands, search_outcomes
from mahjong_core.families.mahjong.search_bot import FILTER_WEIGHTS, SearchBot
from tests.support.bot_decisions import hidden_twin, two_player_points

FLAT = (1.0, 1.0, 1.0, 1.0)     # no likelihood: only the tiles he threw are forced through his hands


_points = two_player_points


def _played(r, s, o):
    """He has discarded a few times, and the filter applies (no concealed kong of his: the
    sampler deals its kind)."""
    return (len(r.view(s)["discards"][o]) >= 4
            and opponent_particles(r._core, s, 1, np.random.PCG64(0), FILTER_WEIGHTS)[0] is not None)


def test_the_hands_are_his_size_and_of_tiles_the_seat_has_not_seen():
    checked = 0
    for rnd, seat, opp in _points("two-player", range(1, 6), _played):
        hands, steps = opponent_particles(rnd._core, seat, 64, np.random.PCG64(1), FILTER_WEIGHTS)
        view = rnd.view(seat)
        assert hands.shape == (64, 34) and hands.dtype == np.int8
        assert (hands.sum(axis=1) == view["hand_sizes"][opp]).all()
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
        assert (hands + seen <= 4).all()
        assert steps == 64 * (len(view["discards"][opp]) + 1)
        # the worlds deal him one of these hands
        dealt = sample_hidden_hands(rnd._core, seat, 20, np.random.PCG64(2), True, particles=hands)[:, opp]
        rows = {h.tobytes() for h in hands}
        assert all(h.tobytes() in rows for h in dealt)
        checked += 1
    assert checked >= 5


def _kept_share(rnd, seat, opp, weights, k):
    """The share of the filter's hands with which his last discard would have lowered the
    shanten (a greedy player keeps such a tile)."""
    hands, _ = opponent_particles(rnd._core, seat, 200, np.random.PCG64(k), weights)
    last = rnd.view(seat)["discards"][opp][-1]
    plus = hands.copy()
    plus[:, last] += 1
    before = mj.shanten_batch(hands, ruleset="two-player")
    # the shanten of 14 tiles less their best discard is the shanten of the hand with the tile
    after = np.array([min(mj.shanten_batch(np.where(np.arange(34) == d, p - 1, p)[None], ruleset="two-player")[0]
                          for d in range(34) if p[d] and d != last) for p in plus])
    return float((after < before).mean())


def test_the_likelihood_keeps_hands_that_would_have_made_his_discards():
    """With the filter's weights few hands are ones his last discard would have brought nearer a
    win; with no likelihood (every weight 1) many more are."""
    flat = kept = 0.0
    n = 0
    for k, (rnd, seat, opp) in enumerate(_points("two-player", range(1, 20), _played)):
        if k % 5:
            continue
        flat += _kept_share(rnd, seat, opp, FLAT, k)
        kept += _kept_share(rnd, seat, opp, FILTER_WEIGHTS, k)
        n += 1
        if n == 8:
            break
    assert n == 8
    assert kept < 0.5 * flat


def test_a_declared_opponent_holds_a_ready_hand():
    checked = 0
    for rnd, seat, opp in _points("two-player-bamboo", range(1, 60), lambda r, s, o: r.view(s)["ready"][o]):
        hands, steps = opponent_particles(rnd._core, seat, 60, np.random.PCG64(checked), FILTER_WEIGHTS)
        assert steps > 0
        if hands is None:           # no hand of the population became ready: the bot falls back
            continue
        assert (mj.waits_batch(hands, ruleset="two-player-bamboo") != 0).all()
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_filter_reads_nothing_hidden():
    rng = np.random.default_rng(4)
    checked = 0
    for ruleset in ("two-player-bamboo", "two-player"):
        for rnd, seat, opp in _points(ruleset, range(1, 10), _played):
            other = hidden_twin(rnd, seat, rng, tries=20)
            if other is None:
                continue
            assert other.view(seat) == rnd.view(seat)
            a, sa = opponent_particles(rnd._core, seat, 50, np.random.PCG64(2), FILTER_WEIGHTS)
            b, sb = opponent_particles(other._core, seat, 50, np.random.PCG64(2), FILTER_WEIGHTS)
            assert np.array_equal(a, b) and sa == sb
            legal = rnd.legal_indices(seat)
            here = search_outcomes(rnd._core, seat, legal, 4, np.random.PCG64(3), particles=a)
            there = search_outcomes(other._core, seat, legal, 4, np.random.PCG64(3), particles=b)
            assert all(np.array_equal(x, y) for x, y in zip(here, there))
            checked += 1
            break
    assert checked == 2


def test_its_cost_is_counted_in_the_bot_budget():
    """The filter runs once a decision and its greedy turns count as steps: a bot with the
    filter spends them, and samples a world for WORLD_STEPS (no replayed turns)."""
    for rnd, seat, opp in _points("two-player", range(1, 5), _played):
        bot = SearchBot(1, steps=3000, opponents="filter")
        bot.particles = 100
        bot.act_index(rnd, seat)
        if bot.last["worlds"]:
            assert bot.last["steps"] >= 100 * (len(rnd.view(seat)["discards"][opp]) + 1)
            return
    raise AssertionError("no searched decision")


def test_four_players_fall_back_and_bad_input_is_refused():
    rnd = mj.Round(ruleset="public", seed=1)
    seat = rnd.seats_to_act()[0]
    assert opponent_particles(rnd._core, seat, 10, np.random.PCG64(1), FILTER_WEIGHTS) == (None, 0)
    rnd, seat, _ = next(_points("two-player", range(1, 3), _played))
    with pytest.raises(ValueError, match="n_particles"):
        opponent_particles(rnd._core, seat, 0, np.random.PCG64(1), FILTER_WEIGHTS)
    for bad in ((0.5, 0.5, 0.5), (0.5, 0.5, 0.5, 1.5), (0.5, 0.5, 0.5, float("nan"))):
        with pytest.raises(ValueError, match="weights"):
            opponent_particles(rnd._core, seat, 10, np.random.PCG64(1), bad)
    good, _ = opponent_particles(rnd._core, seat, 10, np.random.PCG64(1), FILTER_WEIGHTS)
    for bad in (good[:, :30], good[:0], good + 1):
        with pytest.raises(ValueError, match="particles"):
            sample_hidden_hands(rnd._core, seat, 1, np.random.PCG64(1), True, particles=bad)
    with pytest.raises(ValueError, match="tries"):
        opponent_particles(rnd._core, seat, 10, np.random.PCG64(1), FILTER_WEIGHTS, 0)
    for share in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="particle_share"):
            search_outcomes(rnd._core, seat, rnd.legal_indices(seat)[:1], 1, np.random.PCG64(1), particles=good,
                            particle_share=share)


def test_a_share_of_the_worlds_deals_from_the_filter():
    """particle_share 1: every world deals him one of the filter's hands; 0.25: about a quarter
    of them do (the others as the "history" model deals)."""
    rnd, seat, opp = next(_points("two-player", range(1, 3), _played))
    hands, _ = opponent_particles(rnd._core, seat, 50, np.random.PCG64(1), FILTER_WEIGHTS)
    rows = {h.tobytes() for h in hands}
    shares = []
    for share in (1.0, 0.25):
        dealt = sample_hidden_hands(rnd._core, seat, 400, np.random.PCG64(2), True, particles=hands,
                                    particle_share=share)[:, opp]
        shares.append(np.mean([h.tobytes() in rows for h in dealt]))
    assert shares[0] == 1.0 and 0.15 < shares[1] < 0.4
