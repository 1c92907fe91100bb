"""The mahjong search bot (issue 30 item 1): seeded and reproducible, within its budget, refusing
bad parameters, and blind to what its seat cannot see -- the no-peeking test swaps the other
seats' concealed tiles and the wall order (the seat's view unchanged) and checks that the worlds
it samples, their play-outs and its decision stay the same."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core._round import search_outcomes
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.families.mahjong._constants import A_WIN
from mahjong_core.families.mahjong._ref.round import Round as ReferenceRound
from mahjong_core.families.mahjong.hidden_worlds import hidden_world
from mahjong_core.families.mahjong.search_bot import SearchBot

RULESETS = ("two-player", "two-player-bamboo", "public", "mcr")


def _decision_points(ruleset: str, seed: int, every: int = 3):
    """(round, seat) at every ``every``-th decision of a seat with several choices and no win, in
    a round played by greedy bots (the round is copied at each point by replaying its seed)."""
    rnd = mj.Round(ruleset=ruleset, seed=seed)
    greedy = mj.GreedyBot()
    k = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        if len(legal) > 1 and A_WIN not in legal:
            k += 1
            if k % every == 0:
                yield rnd, seat
        rnd.step(seat, greedy.act_index(rnd, seat))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_view_same_decision(ruleset):
    picks = []
    for rnd, seat in _decision_points(ruleset, seed=11, every=4):
        a, b = SearchBot(5, playouts=48).act_index(rnd, seat), SearchBot(5, playouts=48).act_index(rnd, seat)
        assert a == b and a in rnd.legal_indices(seat)
        picks.append(a)
    assert picks


def test_the_search_departs_from_greedy_somewhere():
    """Not a greedy bot in disguise: on some decisions it chooses otherwise."""
    differ = 0
    for rnd, seat in _decision_points("public", seed=2, every=2):
        differ += SearchBot(1, playouts=96).act_index(rnd, seat) != mj.GreedyBot().act_index(rnd, seat)
    assert differ > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_peeking_the_hidden_tiles_swapped_change_nothing(ruleset):
    """A world where every tile the seat cannot see is permuted (the opponents' hands and the wall,
    the public history replayed: :func:`hidden_world`) gives the same sampled play-outs and the
    same decision, whatever the real hidden tiles are."""
    rng = np.random.default_rng(3)
    checked = changed = 0
    for rnd, seat in _decision_points(ruleset, seed=5, every=1):
        # a permutation that cannot produce the seat's history is no world of its: try another
        other = next((w for w in (hidden_world(rnd, seat, rng) for _ in range(6)) if w is not None), None)
        if other is None:
            continue
        assert other.view(seat) == rnd.view(seat)
        hidden = [s for s in range(rnd.players) if s != seat]
        changed += any(list(rnd.hand_counts(s)) != list(other.hand_counts(s)) for s in hidden)
        legal = rnd.legal_indices(seat)
        here = search_outcomes(rnd._core, seat, legal, 6, np.random.PCG64(9))
        there = search_outcomes(other._core, seat, legal, 6, np.random.PCG64(9))
        assert all(np.array_equal(x, y) for x, y in zip(here, there))
        assert SearchBot(4, playouts=40).act_index(rnd, seat) == SearchBot(4, playouts=40).act_index(other, seat)
        checked += 1
        if checked == 6 and changed:
            break
    assert checked >= 3 and changed >= 1


def test_the_play_out_budget_is_kept():
    bot = SearchBot(2, playouts=30, batch=4)
    searched = 0
    for rnd, seat in _decision_points("public", seed=3, every=2):
        bot.act_index(rnd, seat)
        assert bot.last["playouts"] <= 30
        assert bot.last["worlds"] * bot.last["candidates"] >= bot.last["playouts"]
        searched += bot.last["playouts"] > 0
    assert searched > 3


def test_the_step_budget_is_kept():
    """The search stops at the first batch of worlds that reaches its engine steps (a fresh bot
    of the same seed sees the same worlds: a larger budget goes on where the smaller stopped)."""
    searched = 0
    for rnd, seat in _decision_points("public", seed=3, every=4):
        small, large = SearchBot(2, steps=400, batch=2), SearchBot(2, steps=8000, batch=2)
        small.act_index(rnd, seat)
        large.act_index(rnd, seat)
        if small.last["playouts"]:
            searched += 1
            # at most one batch past the budget: two worlds, each candidate's play-out < 150 steps
            assert small.last["steps"] < 400 + 2 * small.last["candidates"] * 150
            assert large.last["steps"] >= small.last["steps"]
    assert searched > 3


def test_the_default_budget_costs_at_most_50_ms_of_cpu_on_average():
    bot = SearchBot(2)
    cpu = []
    for rnd, seat in _decision_points("public", seed=4, every=5):
        bot.act_index(rnd, seat)
        cpu.append(bot.last["cpu_ms"])
    assert cpu and sum(cpu) / len(cpu) <= 50


def test_a_cpu_cap_stops_the_search():
    rnd, seat = next(_decision_points("public", seed=6, every=1))
    bot = SearchBot(1, playouts=1_000_000, max_ms=20, batch=2)
    bot.act_index(rnd, seat)
    assert 0 < bot.last["playouts"] < 1_000_000
    assert bot.last["cpu_ms"] < 20 + 200      # one batch over the cap at most (a loaded machine's margin)


def test_a_win_is_taken_without_search():
    rnd = mj.Round(ruleset="two-player", seed=1)
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        if A_WIN in rnd.legal_indices(seat):
            bot = SearchBot(0)
            assert bot.act_index(rnd, seat) == A_WIN and bot.last["playouts"] == 0
            return
        rnd.step(seat, mj.GreedyBot().act_index(rnd, seat))
    pytest.fail("no win offered in the round")


@pytest.mark.parametrize("kwargs, word", [
    ({"playouts": 0}, "playouts"), ({"playouts": 2.5}, "playouts"), ({"candidates": 0}, "candidates"),
    ({"objective": "points"}, "objective"), ({"anchor": "oracle"}, "anchor"), ({"batch": 0}, "batch"), ({"z": -1.0}, "z"), ({"z": True}, "z"),
    ({"steps": 0}, "steps"), ({"max_ms": 0}, "max_ms"), ({"max_ms": "fast"}, "max_ms"), ({"opponents": "psychic"}, "opponents"),
    ({"seed": -1}, "seed"), ({"seed": "one"}, "seed"),
])
def test_bad_parameters_are_refused(kwargs, word):
    with pytest.raises(MahjongError, match=word) as info:
        SearchBot(**kwargs)
    assert isinstance(info.value, ValueError)


def test_what_the_bot_cannot_play_is_refused():
    rnd = mj.Round(ruleset="public", seed=1)
    seat = rnd.seats_to_act()[0]
    with pytest.raises(IllegalActionError):
        SearchBot(1).act_index(rnd, (seat + 1) % rnd.players)      # not to act
    with pytest.raises(MahjongError):
        SearchBot(1).act_index(ReferenceRound("public", 1), 0)       # not the compiled round
    with pytest.raises(IllegalActionError):
        search_outcomes(rnd._core, seat, [A_WIN], 1, np.random.PCG64(0))


def test_the_anchor_is_kept_unless_the_search_shows_better():
    """With an unreachable z the bot plays its anchor: the greedy bot's or the advisor bot's action."""
    from mahjong_core.families.mahjong.advise_bot import AdvisorBot
    for rnd, seat in _decision_points("public", seed=8, every=3):
        assert SearchBot(1, playouts=32, z=10, anchor="greedy").act_index(rnd, seat) == \
            mj.GreedyBot().act_index(rnd, seat)
        assert SearchBot(1, playouts=32, z=10, anchor="advisor").act_index(rnd, seat) == \
            AdvisorBot().act_index(rnd, seat)


def test_the_default_budget_depends_on_the_players():
    from mahjong_core.families.mahjong.search_bot import DEFAULT_STEPS
    for ruleset in ("two-player", "public"):
        rnd, seat = next(_decision_points(ruleset, seed=1, every=2))
        bot = SearchBot(1, playouts=1_000_000, z=10, batch=1)
        bot.act_index(rnd, seat)
        assert DEFAULT_STEPS[rnd.players] <= bot.last["steps"] < DEFAULT_STEPS[rnd.players] + 400 * bot.last["candidates"]
