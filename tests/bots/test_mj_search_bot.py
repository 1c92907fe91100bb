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
from mahjong_core.families.mahjong.search_bot import DEFAULT_STEPS, SearchBot
from tests.support.bot_decisions import decision_points, first_offered_win, hidden_twin, opponents_differ

RULESETS = ("two-player", "two-player-bamboo", "public", "mcr")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_view_same_decision(ruleset):
    picks = []
    for rnd, seat in decision_points(ruleset, seed=11, every=4):
        a, b = SearchBot(5, playouts=48).act_index(rnd, seat), SearchBot(5, playouts=48).act_index(rnd, seat)
        assert a == b and a in rnd.legal_indices(seat)
        picks.append(a)
    assert picks


def test_the_search_departs_from_greedy_somewhere():
    """Not a greedy bot in disguise: on some decisions it chooses otherwise."""
    differ = 0
    for rnd, seat in decision_points("public", seed=2, every=2):
        differ += SearchBot(1, playouts=96).act_index(rnd, seat) != mj.GreedyBot().act_index(rnd, seat)
    assert differ > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_peeking_the_hidden_tiles_swapped_change_nothing(ruleset):
    """A world where every tile the seat cannot see is permuted (the opponents' hands and the wall,
    the public history replayed: :func:`hidden_world`) gives the same sampled play-outs and the
    same decision, whatever the real hidden tiles are."""
    rng = np.random.default_rng(3)
    checked = changed = 0
    for rnd, seat in decision_points(ruleset, seed=5, every=1):
        # a permutation that cannot produce the seat's history is no world of its: try another
        other = hidden_twin(rnd, seat, rng)
        if other is None:
            continue
        assert other.view(seat) == rnd.view(seat)
        changed += opponents_differ(rnd, other, seat)
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
    for rnd, seat in decision_points("public", seed=3, every=2):
        bot.act_index(rnd, seat)
        assert bot.last["playouts"] <= 30
        assert bot.last["worlds"] * bot.last["candidates"] >= bot.last["playouts"]
        searched += bot.last["playouts"] > 0
    assert searched > 3


def test_the_step_budget_is_kept():
    """The search stops at the first batch of worlds that reaches its engine steps (a fresh bot
    of the same seed sees the same worlds: a larger budget goes on where the smaller stopped)."""
    searched = 0
    for rnd, seat in decision_points("public", seed=3, every=4):
        small, large = SearchBot(2, steps=400, batch=2), SearchBot(2, steps=8000, batch=2)
        small.act_index(rnd, seat)
        large.act_index(rnd, seat)
        if small.last["playouts"]:
            searched += 1
            # at most one batch past the budget: two worlds, each candidate's play-out < 150 steps
            assert small.last["steps"] < 400 + 2 * small.last["candidates"] * 150
            assert large.last["steps"] >= small.last["steps"]
    assert searched > 3


def test_the_default_budget_is_kept_in_engine_steps():
    # counted in steps, not in time: its CPU cost per decision is measured by
    # bench/bench_decision_time.py, not bounded here (a loaded machine stretches CPU time)
    bot = SearchBot(2)
    searched = 0
    for rnd, seat in decision_points("public", seed=4, every=5):
        bot.act_index(rnd, seat)
        if bot.last["worlds"]:
            searched += 1
            assert bot.last["steps"] < 1.5 * DEFAULT_STEPS[rnd.players]   # the last batch's overshoot at most
    assert searched > 3


def test_a_cpu_cap_stops_the_search():
    rnd, seat = next(decision_points("public", seed=6, every=1))
    bot = SearchBot(1, playouts=1_000_000, max_ms=20, batch=2)
    bot.act_index(rnd, seat)
    assert 0 < bot.last["playouts"] < 1_000_000
    assert bot.last["cpu_ms"] < 20 + 200      # one batch over the cap at most (a loaded machine's margin)


def test_a_win_is_taken_without_search():
    found = first_offered_win("two-player", seed=1)
    assert found is not None, "no win offered in the round"
    rnd, seat = found
    bot = SearchBot(0)
    assert bot.act_index(rnd, seat) == A_WIN and bot.last["playouts"] == 0


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
    for rnd, seat in decision_points("public", seed=8, every=3):
        assert SearchBot(1, playouts=32, z=10, anchor="greedy").act_index(rnd, seat) == \
            mj.GreedyBot().act_index(rnd, seat)
        assert SearchBot(1, playouts=32, z=10, anchor="advisor").act_index(rnd, seat) == \
            AdvisorBot().act_index(rnd, seat)


def test_the_default_budget_depends_on_the_players():
    for ruleset in ("two-player", "public"):
        rnd, seat = next(decision_points(ruleset, seed=1, every=2))
        bot = SearchBot(1, playouts=1_000_000, z=10, batch=1)
        bot.act_index(rnd, seat)
        assert DEFAULT_STEPS[rnd.players] <= bot.last["steps"] < DEFAULT_STEPS[rnd.players] + 400 * bot.last["candidates"]


def _opponent_after_discards(ruleset: str = "two-player", seed: int = 8, steps: int = 8):
    """(round, seat, opponent, the opponent's discards) a few greedy steps into a round."""
    rnd = mj.Round(ruleset=ruleset, seed=seed)
    for _ in range(steps):
        s = rnd.seats_to_act()[0]
        rnd.step(s, mj.GreedyBot().act_index(rnd, s))
    seat = rnd.seats_to_act()[0]
    opp = (seat + 1) % rnd.players
    return rnd, seat, opp, rnd.view(seat)["discards"][opp]


def test_discard_weights_keep_the_opponent_off_what_he_threw():
    """opponents="discards": an opponent's sampled hand holds the kinds of his discards (and their
    neighbours) less often than the history model's; weights of 1 are that model, draw for draw."""
    from mahjong_core._round import sample_hidden_hands
    rnd, seat, opp, thrown = _opponent_after_discards()
    assert thrown
    plain = sample_hidden_hands(rnd._core, seat, 1500, np.random.PCG64(1), True)
    weighted = sample_hidden_hands(rnd._core, seat, 1500, np.random.PCG64(1), True, (0.2, 0.5, 0.8, 0.05))
    assert (plain[:, opp].sum(axis=1) == rnd.view(seat)["hand_sizes"][opp]).all()
    assert (weighted[:, opp].sum(axis=1) == plain[:, opp].sum(axis=1)).all()
    assert not plain[:, seat].any() and not weighted[:, seat].any()
    held = lambda h: h[:, opp, thrown].sum(axis=1).mean()     # noqa: E731
    assert held(weighted) < 0.5 * held(plain)
    ones = sample_hidden_hands(rnd._core, seat, 50, np.random.PCG64(1), True, (1, 1, 1, 1))
    assert np.array_equal(ones, plain[:50])
    # the hands come from what the seat sees: the same in a world whose hidden tiles are permuted
    rng = np.random.default_rng(4)
    other = hidden_twin(rnd, seat, rng, tries=20)
    assert other is not None
    assert other.view(seat) == rnd.view(seat)
    assert np.array_equal(sample_hidden_hands(other._core, seat, 40, np.random.PCG64(2), True, (0.2, 0.5, 0.8, 0.05)),
                          sample_hidden_hands(rnd._core, seat, 40, np.random.PCG64(2), True, (0.2, 0.5, 0.8, 0.05)))
    for bad in ((0.5, 0.5, 0.5), (0, 1, 1, 1), (1, 1, 1, 1.5), (float("nan"), 1, 1, 1)):
        with pytest.raises(ValueError, match="discard_weights"):
            sample_hidden_hands(rnd._core, seat, 1, np.random.PCG64(1), True, bad)
        with pytest.raises(ValueError, match="discard_weights"):
            search_outcomes(rnd._core, seat, rnd.legal_indices(seat)[:1], 1, np.random.PCG64(1), True,
                            discard_weights=bad)


def test_the_advisor_stops_deepening_at_its_deadline():
    """advise_problem with a deadline already passed answers from its first search limit (as with
    that limit as max_draws); without the breakdown the options are the same and targets empty."""
    from mahjong_core.families.mahjong.advise import advise_problem
    from mahjong_core.families.mahjong.fan_shanten import prepare
    prob = prepare("1223m456p789s1155z", ruleset="public", tiles=14)
    full = advise_problem(prob, 4)
    lean = advise_problem(prob, 4, breakdown=False)
    assert lean.options == full.options and lean.targets == () and full.targets
    cut = advise_problem(prob, 4, deadline=0.0, breakdown=False)
    first = min(o.shanten for o in full.options) + 1          # the first limit searched
    assert cut.options == advise_problem(prob, max(first, 1), breakdown=False).options
    assert cut.options != full.options


def test_a_cpu_cap_is_reported_and_none_by_default():
    assert SearchBot(1).max_ms is None          # by default a decision is reproducible from the seed
    rnd, seat = next(decision_points("public", seed=6, every=1))
    bot = SearchBot(1, playouts=1_000_000, max_ms=5, batch=2)
    bot.act_index(rnd, seat)
    assert bot.last["capped"] and 0 <= bot.last["playouts"] < 1_000_000
    free = SearchBot(1, playouts=64)
    free.act_index(rnd, seat)
    assert free.last["capped"] is False


def test_sampling_a_world_counts_in_the_step_budget():
    """Near the end of a round the play-outs are a few steps long: the worlds' own cost keeps
    their number within the budget (each counts WORLD_STEPS per opponent)."""
    from mahjong_core.families.mahjong.search_bot import WORLD_STEPS
    bot = SearchBot(3, steps=2000, playouts=1_000_000, z=10, batch=4)
    bot.last = {"worlds": 0}
    for seed in range(1, 40):
        for rnd, seat in decision_points("public", seed=seed, every=1):
            if rnd.view(seat)["wall_remaining"] < 16:
                bot.act_index(rnd, seat)
                if bot.last["worlds"]:
                    break
        if bot.last["worlds"]:
            break
    assert bot.last["worlds"] > 0
    assert bot.last["worlds"] * WORLD_STEPS * (rnd.players - 1) <= bot.last["steps"] < 2000 + 4 * 400


@pytest.mark.parametrize("ruleset", ["two-player", "public"])
def test_the_default_opponent_model_depends_on_the_players(ruleset):
    """opponents=None is DEFAULT_OPPONENTS[players]: the same worlds, play-outs and choices."""
    from mahjong_core.families.mahjong.search_bot import DEFAULT_OPPONENTS
    model = DEFAULT_OPPONENTS[mj.get_ruleset(ruleset).players]
    assert DEFAULT_OPPONENTS[2] == "history" and DEFAULT_OPPONENTS[4] == "history"
    other = "discards"
    differ = 0
    for k, (rnd, seat) in enumerate(decision_points(ruleset, seed=12, every=3)):
        a, b, c = (SearchBot(3, steps=1500, opponents=o) for o in (None, model, other))
        assert a.act_index(rnd, seat) == b.act_index(rnd, seat)
        c.act_index(rnd, seat)
        assert a.last["steps"] == b.last["steps"] and a.last["worlds"] == b.last["worlds"]
        differ += a.last["steps"] != c.last["steps"]
        if k == 5:
            break
    assert differ > 0
