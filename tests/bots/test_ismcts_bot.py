"""The information-set MCTS bot (issue 30 item 1, "determinized Monte Carlo or information-set MCTS"):
seeded and reproducible, within its budgets, a tree deeper than the root, refusing bad parameters,
and blind to what its seat cannot see -- the no-peeking test swaps the other seats' concealed tiles
and the wall order (the seat's view unchanged) and checks that the search's statistics and its
decision stay the same.  bench/bench_ismcts.py is smoke-run at the end."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core._round import ismcts_search
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.families.mahjong._constants import A_WIN
from mahjong_core.families.mahjong._ref.round import Round as ReferenceRound
from mahjong_core.families.mahjong.ismcts_bot import ISMCTS_DEFAULT_STEPS, IsmctsBot
from mahjong_core.game.bots import make_bots, play_round
from tests.support.bot_decisions import decision_points, first_offered_win, hidden_twin, opponents_differ
from tests.support.scripts import load_script

RULESETS = ("two-player", "two-player-bamboo", "public", "mcr")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_view_same_decision(ruleset):
    picks = 0
    for rnd, seat in decision_points(ruleset, seed=11, every=4):
        a, b = IsmctsBot(5, iterations=60), IsmctsBot(5, iterations=60)
        assert a.act_index(rnd, seat) == b.act_index(rnd, seat)
        assert a.last == {**b.last, "cpu_ms": a.last["cpu_ms"]}
        assert a.act_index(rnd, seat) in rnd.legal_indices(seat)
        picks += 1
    assert picks


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_peeking_the_hidden_tiles_swapped_change_nothing(ruleset):
    """A world where every tile the seat cannot see is permuted (:func:`hidden_world`) gives the
    same tree statistics and the same decision, whatever the real hidden tiles are."""
    rng = np.random.default_rng(3)
    checked = changed = 0
    for rnd, seat in decision_points(ruleset, seed=5, every=1):
        other = hidden_twin(rnd, seat, rng)
        if other is None:
            continue
        assert other.view(seat) == rnd.view(seat)
        changed += opponents_differ(rnd, other, seat)
        here = ismcts_search(rnd._core, seat, 40, 10**6, 0.7, np.random.PCG64(9))
        there = ismcts_search(other._core, seat, 40, 10**6, 0.7, np.random.PCG64(9))
        assert here == there
        assert IsmctsBot(4, iterations=40).act_index(rnd, seat) == IsmctsBot(4, iterations=40).act_index(other, seat)
        checked += 1
        if checked == 5 and changed:
            break
    assert checked >= 3 and changed >= 1


def test_the_root_weighs_every_legal_action_and_the_tree_grows_below_it():
    """Enough iterations try every legal action at the root (no candidate list), the visits add up
    to the iterations, and nodes of later decisions of the seat are made (a tree, not flat)."""
    rnd, seat = next(decision_points("two-player", seed=2, every=2))
    legal = rnd.legal_indices(seat)
    actions, visits, means, its, steps, nodes, edges = ismcts_search(rnd._core, seat, 400, 10**6, 0.7,
                                                                     np.random.PCG64(1))
    assert actions == sorted(legal) and its == 400 and sum(visits) == 400
    assert all(-1 <= m <= 1 for m in means) and steps > 400
    assert nodes > 1 + len(legal) and edges >= len(legal) + nodes - 1      # every node below the root tried one
    # UCB puts most of the iterations on the better actions: the most visited is among the best means
    assert means[int(np.argmax(visits))] >= sorted(means)[-3]


def test_widening_tries_the_greedy_action_first_below_the_root():
    """With ``widen`` k > 0 a node below the root tries the greedy bot's action and another only
    after k visits per action tried: with a k never reached, about one edge per node (the greedy
    bot may choose otherwise where other tiles are visible); with 0, every action legal there."""
    rnd, seat = next(decision_points("two-player", seed=2, every=2))
    n_root = len(rnd.legal_indices(seat))
    plain = ismcts_search(rnd._core, seat, 600, 10**6, 0.7, np.random.PCG64(1), widen=0)
    narrow = ismcts_search(rnd._core, seat, 600, 10**6, 0.7, np.random.PCG64(1), widen=10**6)
    some = ismcts_search(rnd._core, seat, 600, 10**6, 0.7, np.random.PCG64(1), widen=3)
    below = [(r[6] - n_root) / (r[5] - 1) for r in (plain, narrow, some)]      # edges per node below the root
    assert plain[0] == narrow[0] == sorted(rnd.legal_indices(seat))         # the root tries everything always
    assert 1 <= below[1] < 1.1 and below[0] > 2 and below[1] < below[2] < below[0]
    with pytest.raises(ValueError, match="widen"):
        ismcts_search(rnd._core, seat, 10, 1000, 0.7, np.random.PCG64(0), widen=-1)
    with pytest.raises(MahjongError, match="widen"):
        IsmctsBot(widen=-1)


def test_the_root_can_weigh_the_advisors_candidates_only():
    """``root_actions`` restricts the root's edges; ``root="advisor"`` gives it every legal action
    but the discards, and of the discards the advisor's best and the greedy bot's."""
    rnd, seat = next(decision_points("public", seed=2, every=2))
    legal = rnd.legal_indices(seat)
    few = [legal[0], legal[-1]]
    assert ismcts_search(rnd._core, seat, 50, 10**6, 0.7, np.random.PCG64(1), root_actions=few)[0] == few
    with pytest.raises(ValueError, match="at least two"):
        ismcts_search(rnd._core, seat, 50, 10**6, 0.7, np.random.PCG64(1), root_actions=[legal[0]] * 2)
    with pytest.raises(IllegalActionError, match="root action"):
        ismcts_search(rnd._core, seat, 50, 10**6, 0.7, np.random.PCG64(1), root_actions=[legal[0], A_WIN])
    bot = IsmctsBot(1, iterations=40, root="advisor", candidates=2)
    assert bot.act_index(rnd, seat) in legal
    tiles = {a % 34 for a in bot.last["actions"] if a < 68}
    assert 1 <= len(tiles) <= 3 and len(tiles) < len({a % 34 for a in legal if a < 68})
    assert mj.GreedyBot().act_index(rnd, seat) % 34 in tiles
    with pytest.raises(MahjongError, match="root"):
        IsmctsBot(root="oracle")


def test_the_objective_win_scores_no_loss():
    rnd, seat = next(decision_points("public", seed=3, every=2))
    _, _, means, *_ = ismcts_search(rnd._core, seat, 200, 10**6, 0.7, np.random.PCG64(1), True, "win")
    assert all(0 <= m <= 1 for m in means)


def test_the_budgets_are_kept():
    for rnd, seat in decision_points("public", seed=3, every=4):
        bot = IsmctsBot(2, iterations=50)
        bot.act_index(rnd, seat)
        assert bot.last["iterations"] == bot.last["playouts"] == 50 == sum(bot.last["visits"])
        small = IsmctsBot(2, steps=300)
        small.act_index(rnd, seat)
        # the search stops at the first iteration that reaches the steps (one play-out < 200 steps)
        assert 300 <= small.last["steps"] < 300 + 200 and small.last["iterations"] < ISMCTS_DEFAULT_STEPS[4]


def test_the_sampling_of_a_world_counts_its_replayed_turns_as_steps():
    """Late in a round a play-out is short and the sampling of a world (each opponent's hand
    improved by as many greedy turns as he has taken) is most of an iteration: each iteration
    counts those turns, so the step budget bounds the CPU time there too."""
    n = sum(1 for _ in decision_points("public", seed=3, every=1))
    rnd, seat = next(p for k, p in enumerate(decision_points("public", seed=3, every=1)) if k == int(n * 0.97))
    view = rnd.view(seat)
    replayed = sum(min(len(view["discards"][s]), 40) for s in range(rnd.players) if s != seat)    # at least
    assert replayed > 20
    # a budget of that many steps is spent by the first iteration's sampling alone
    hist = ismcts_search(rnd._core, seat, 1000, replayed, 0.7, np.random.PCG64(2), True)
    assert hist[3] == 1 and hist[4] > replayed


def test_the_default_budget_depends_on_the_players():
    # in steps, not in time: the CPU per decision is measured by bench/bench_ismcts.py, not bounded
    # here (a loaded machine stretches CPU time)
    searched = 0
    for ruleset in ("two-player", "public"):
        for rnd, seat in decision_points(ruleset, seed=4, every=6):
            bot = IsmctsBot(2)
            bot.act_index(rnd, seat)
            assert ISMCTS_DEFAULT_STEPS[rnd.players] <= bot.last["steps"] < ISMCTS_DEFAULT_STEPS[rnd.players] + 200
            searched += 1
    assert searched > 3


def test_a_cpu_cap_stops_the_search():
    rnd, seat = next(decision_points("public", seed=6, every=1))
    bot = IsmctsBot(1, iterations=1_000_000, steps=10**8, max_ms=20)
    bot.act_index(rnd, seat)
    assert 0 < bot.last["iterations"] < 1_000_000
    assert bot.last["cpu_ms"] < 20 + 100      # eight iterations over the cap at most (a loaded machine's margin)


def test_a_win_is_taken_without_search():
    found = first_offered_win("two-player", seed=1)
    assert found is not None, "no win offered in the round"
    rnd, seat = found
    bot = IsmctsBot(0)
    assert bot.act_index(rnd, seat) == A_WIN and bot.last["iterations"] == 0


@pytest.mark.parametrize("kwargs, word", [
    ({"iterations": 0}, "iterations"), ({"iterations": 2.5}, "iterations"), ({"steps": 0}, "steps"),
    ({"c": -1.0}, "c must"), ({"c": True}, "c must"), ({"c": float("nan")}, "c must"),
    ({"objective": "points"}, "objective"), ({"opponents": "psychic"}, "opponents"),
    ({"opponents": "discards"}, "opponents"),     # a model of the flat bot's sampler that ismcts_search lacks ({"candidates": 0}, "candidates"),
    ({"widen": 1.5}, "widen"), ({"root": 3}, "root"),
    ({"max_ms": 0}, "max_ms"), ({"max_ms": "fast"}, "max_ms"), ({"seed": -1}, "seed"), ({"seed": "one"}, "seed"),
])
def test_bad_parameters_are_refused(kwargs, word):
    with pytest.raises(MahjongError, match=word) as info:
        IsmctsBot(**kwargs)
    assert isinstance(info.value, ValueError)


def test_what_the_bot_cannot_play_is_refused():
    rnd = mj.Round(ruleset="public", seed=1)
    seat = rnd.seats_to_act()[0]
    other = (seat + 1) % rnd.players
    with pytest.raises(IllegalActionError):
        IsmctsBot(1).act_index(rnd, other)                           # not to act
    with pytest.raises(MahjongError):
        IsmctsBot(1).act_index(ReferenceRound("public", 1), 0)       # not the compiled round
    with pytest.raises(IllegalActionError):
        ismcts_search(rnd._core, other, 10, 1000, 0.7, np.random.PCG64(0))
    for args, word in (((seat, 0, 1000, 0.7), "iterations"), ((seat, 10, 0, 0.7), "max_steps"),
                       ((seat, 10, 1000, -0.1), "c must"), ((9, 10, 1000, 0.7), "seat")):
        with pytest.raises(ValueError, match=word):
            ismcts_search(rnd._core, *args, np.random.PCG64(0))
    with pytest.raises(ValueError, match="objective"):
        ismcts_search(rnd._core, seat, 10, 1000, 0.7, np.random.PCG64(0), True, "points")


def test_by_name_it_plays_whole_rounds():
    bots = make_bots(["ismcts", "greedy"], 3, ruleset="two-player")
    assert type(bots[0]) is IsmctsBot
    rnd = mj.Round(ruleset="two-player", seed=3)
    play_round(rnd, [IsmctsBot(3, iterations=30), IsmctsBot(4, iterations=30, objective="win", opponents="uniform")])
    assert rnd.is_over and rnd.result is not None


def _bench():
    return load_script("bench/bench_ismcts.py")


def test_the_bench_plays_duplicate_deals_and_merges_its_runs(capsys, tmp_path):
    bench = _bench()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    first = bench.main(["--deals", "2", "--ismcts-steps", "200", "--search-steps", "200", "--json", str(a)])
    bench.main(["--deals", "1", "--seed", "3", "--ismcts-steps", "200", "--search-steps", "200", "--json", str(b)])
    out = capsys.readouterr().out
    for text in ("2 deals", "win rate: greedy", "ismcts - greedy", "search - greedy", "ismcts - search", "(95 %)",
                 "CPU per decision, ismcts", "CPU per decision, search", "load average"):
        assert text in out, text
    assert first["cpu"]["ismcts"]["decisions"] > 0 and len(first["per_deal"]["ismcts-search win"]) == 2
    again = bench.run("two-player", 2, ismcts_steps=200, search_steps=200)
    assert again["per_deal"] == json.loads(a.read_text())["per_deal"]          # seeded: the same games
    merged = bench.main(["--merge", str(a), str(b)])
    assert merged["deals"] == 3 and len(merged["per_deal"]["ismcts-greedy points"]) == 3
    assert "3 deals" in capsys.readouterr().out
    c = tmp_path / "c.json"
    alone = bench.main(["--deals", "2", "--ismcts-steps", "200", "--widen", "4", "--root", "advisor", "--arms", "ismcts",
                        "--json", str(c)])
    out = capsys.readouterr().out
    assert "ismcts - greedy" in out and "search - greedy" not in out and "CPU per decision, search" not in out
    assert list(alone["per_deal"]) == ["ismcts-greedy win", "ismcts-greedy points"] and alone["budgets"]["widen"] == 4
    # the ismcts arm of one run against the search arm of another on the same walls
    joined = bench.main(["--join", str(c), str(a)])
    assert "ismcts - search" in capsys.readouterr().out
    d = joined["per_deal"]
    assert d["ismcts-search win"] == [x - y for x, y in zip(d["ismcts-greedy win"], d["search-greedy win"])]
    assert d["search-greedy points"] == first["per_deal"]["search-greedy points"]
