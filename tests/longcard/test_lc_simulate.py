"""``mj.simulate`` and ``mahjong-core simulate`` with ``ruleset="changpai-ydr"`` (long-card hands)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from mahjong_core.errors import SimulationError
from mahjong_core.families.longcard.family import new_match
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.simulation import ENDS, LongcardSimulationResult
from mahjong_core.game.bots import play_steps

import mahjong_core as mj
from mahjong_core import cli

RS = "changpai-ydr"
MIXED = ("greedy", "random", "random")


def _sim(n: int = 30, seed: int = 5, bots=MIXED, **kw) -> LongcardSimulationResult:
    return mj.simulate(ruleset=RS, n=n, seed=seed, bots=bots, **kw)


def test_plays_n_hands_and_records_its_provenance():
    r = _sim(25, seed=11)
    assert isinstance(r, LongcardSimulationResult)
    assert r.rounds == 25 == int(r.by_end.sum()) == int(r.dealer_rounds.sum())
    assert r.provenance == {"version": mj.__version__, "seed": 11, "batch_size": 500, "min_fan": None,
                            "ruleset": RS, "bots": list(MIXED), "workers": None}


def test_deterministic_for_a_seed_and_any_executor():
    a = _sim(30, seed=3, batch_size=7).to_dict()
    assert _sim(30, seed=3, batch_size=7).to_dict() == a
    with ThreadPoolExecutor(2) as pool:
        b = _sim(30, seed=3, batch_size=7, executor=pool).to_dict()
    assert b == a
    assert _sim(30, seed=4, batch_size=7).to_dict() != a


def test_stats_match_the_hands_played_one_by_one():
    """All-greedy (the RuleBot is deterministic): replay the batch's match through the shared round
    API (not the runner's direct path) and rebuild every statistic from the hands' results."""
    n, seed = 40, 9
    r = _sim(n, seed=seed, bots="greedy", record_wins=True)
    match_seed = int(np.random.SeedSequence(seed, spawn_key=(0,)).generate_state(1, np.uint64)[0])
    m = new_match(ruleset=RS, seed=match_seed, rounds=n)
    bots = [RuleBot() for _ in range(3)]
    hands = []
    while not m.is_over:
        play_steps(m.round, bots)
        hands.append(m.round.result.to_dict())
        m.next_round()
    assert len(hands) == n == r.rounds
    wins = [h for h in hands if h["end"] == "win"]
    assert r.by_end.tolist() == [sum(h["end"] == e for h in hands) for e in ENDS]
    assert r.wins_by_seat.tolist() == [sum(h["winner"] == s for h in wins) for s in range(3)]
    assert r.baozi_by_seat.tolist() == [sum(h.get("offender") == s for h in hands if h["end"] == "baozi")
                                        for s in range(3)]
    assert r.dealer_rounds.tolist() == [sum(h["dealer"] == s for h in hands) for s in range(3)]
    assert r.dealer_wins == sum(h["winner"] == h["dealer"] for h in wins)
    assert r.points_by_seat.tolist() == np.sum([h["deltas"] for h in hands], axis=0).tolist()
    assert r.mean_fan == pytest.approx(np.mean([h["fan"] for h in wins]))
    assert r.mean_win_points == pytest.approx(np.mean([h["deltas"][h["winner"]] for h in wins]))
    assert r.winning_hands == [h["score"] for h in wins]
    d = r.to_dict()
    assert d["huangzhuang_rate"] == pytest.approx(r.by_end[ENDS.index("huangzhuang")] / n)
    assert d["void_rate"] == pytest.approx(r.by_end[ENDS.index("void")] / n)
    assert sum(d["fan_histogram"]) == r.wins == len(wins) > 0


def test_payments_sum_to_zero():
    for bots in ("greedy", "random", MIXED):
        r = _sim(30, seed=2, bots=bots)
        assert int(r.points_by_seat.sum()) == 0
        assert r.win_points >= 0 and (r.wins == 0) == (r.win_points == 0)


def test_the_greedy_bot_beats_random_ones():
    r = _sim(60, seed=1)
    assert r.wins_by_seat[0] > r.wins_by_seat[1] + r.wins_by_seat[2]
    assert r.points_by_seat[0] > 0


@pytest.mark.parametrize("kw, fragment", [
    ({"min_fan": 3}, "no minimum fan"),
    ({"bots": ("greedy", "random")}, "3 players"),
    ({"bots": ("greedy", "nobody", "random")}, "unknown bot"),
    ({"rounds": 7}, "not both"),
    ({"n": 0}, "rounds"),
    ({"seed": -1}, "seed"),
])
def test_bad_arguments_raise_a_simulation_error(kw, fragment):
    args = {"n": 5, "seed": 1, "bots": MIXED, **kw}
    with pytest.raises(SimulationError, match=fragment):
        mj.simulate(ruleset=RS, **args)


def test_cli_simulate_json(capsys):
    assert cli.main(["simulate", "--ruleset", RS, "-n", "12", "--seed", "1", "--bots", "greedy,random,random",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == _sim(12, seed=1).to_dict() | {"provenance": out["provenance"]}
    assert out["rounds"] == 12 and len(out["win_rate_by_seat"]) == 3 and set(out["by_end"]) == set(ENDS)
    assert out["provenance"]["seed"] == 1 and out["provenance"]["ruleset"] == RS
    assert {"huangzhuang_rate", "void_rate", "baozi", "mean_fan", "mean_win_points", "points_by_seat"} <= set(out)


def test_cli_simulate_text_and_help(capsys):
    assert cli.main(["simulate", "--ruleset", RS, "-n", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 hands of changpai-ydr (greedy, greedy, greedy)" in out and "黄庄" in out
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--help"])
    assert RS in capsys.readouterr().out


@pytest.mark.parametrize("argv, fragment", [
    (["--bots", "greedy,random"], "3 players"),
    (["--min-fan", "3"], "--min-fan"),
    (["--csv", "x.csv"], "--csv"),
    (["--plot", "x.png"], "--plot"),
    (["-n", "0"], "-n"),
])
def test_cli_bad_arguments_exit_2(argv, fragment, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["simulate", "--ruleset", RS, "-n", "3", *argv]) == 2
    assert fragment in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


class _Wrapped:
    """A bot object that is not a built-in one: the runner plays it through the shared round API
    (``act_index`` on the :class:`LongcardRound`), not the hand engine's direct loop."""

    def __init__(self) -> None:
        self.inner = RuleBot()

    def act_index(self, rnd, seat):
        return self.inner.act_index(rnd, seat)

    def act(self, rnd, seat):
        return self.inner.act(rnd, seat)


def test_bot_objects_play_through_the_shared_round_api_with_the_same_hands():
    direct = _sim(15, seed=6, bots="greedy").to_dict()
    shared = _sim(15, seed=6, bots=(_Wrapped(), _Wrapped(), _Wrapped())).to_dict()
    assert shared["provenance"]["bots"] == ["_Wrapped"] * 3
    assert {k: v for k, v in shared.items() if k not in ("bots", "provenance")} == \
        {k: v for k, v in direct.items() if k not in ("bots", "provenance")}
