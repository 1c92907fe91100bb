"""The tournament runner (issue 30, item 2): duplicate deals for every registered ruleset, the
figures and their intervals, reproducibility, the outputs, the refusals and the command line."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.errors import MahjongError, SimulationError
from mahjong_core.families.registry import family_of, get_ruleset, ruleset_names
from mahjong_core.tournament import runner
from mahjong_core.tournament.stats import Z95, TournamentResult, mean_interval

RULESETS = ruleset_names()


def _bots(ruleset: str) -> list[str]:
    players = get_ruleset(ruleset).players
    return ["greedy"] + ["random"] * (players - 1)


@pytest.fixture
def played(monkeypatch):
    """Every round the tournament plays, as it was dealt: (seed and spawn key of its wall, dealer,
    each seat's opening hand)."""
    seen: list[dict] = []
    real = runner.play_round

    def spy(rnd, bots):
        header = rnd.to_dict()["log"][0]
        seen.append({"wall": (header["seed"], tuple(header["spawn_key"])), "dealer": rnd.dealer,
                     "hands": [rnd.view(s)["hand"] for s in range(rnd.players)]})
        return real(rnd, bots)

    monkeypatch.setattr(runner, "play_round", spy)
    return seen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_deal_is_played_in_every_rotation(ruleset, played):
    """Each deal's wall is dealt once per seat with the dealer rotated, and every seat's hand is the
    same relative to the dealer: each bot plays each hand of every wall once."""
    players = get_ruleset(ruleset).players
    deals = 3
    res = mj.tournament(ruleset, _bots(ruleset), deals, seed=5, batch_size=2, bootstrap=0, record_games=True)
    assert res.deals == deals and res.rounds == deals * players == len(played) == len(res.games)
    walls = []
    for d in range(deals):
        group = played[d * players:(d + 1) * players]
        assert [g["dealer"] for g in group] == list(range(players))
        assert len({g["wall"] for g in group}) == 1
        walls.append(group[0]["wall"])
        relative = [[g["hands"][(g["dealer"] + i) % players] for i in range(players)] for g in group]
        assert all(r == relative[0] for r in relative)
        assert [g["deal"] for g in res.games[d * players:(d + 1) * players]] == [d] * players
    assert len(set(walls)) == deals   # a new wall for every deal


def test_the_figures_are_the_per_deal_means_with_their_normal_intervals():
    res = mj.tournament("two-player", ["greedy", "random"], 12, seed=2, bootstrap=20, record_games=True)
    assert res.points.shape == res.wins.shape == (12, 2)
    assert (res.points.sum(axis=1) == 0).all()          # the deltas of every round sum to zero
    # the points and wins are those of the recorded rounds
    pts = np.zeros(2, np.int64)
    for g in res.games:
        pts += g["deltas"]
    assert pts.tolist() == res.points.sum(axis=0).tolist()
    greedy, rnd = res.bot_rows()
    per_deal = res.points[:, 0] / 2
    assert greedy["points_per_round"] == pytest.approx(per_deal.mean())
    half = Z95 * per_deal.std(ddof=1) / math.sqrt(12)
    assert (greedy["points_per_round_low"], greedy["points_per_round_high"]) == pytest.approx(
        (per_deal.mean() - half, per_deal.mean() + half))
    assert greedy["rounds"] == rnd["rounds"] == 24
    assert greedy["win_rate"] > rnd["win_rate"] and greedy["rating"] > rnd["rating"]
    assert greedy["rating_low"] <= greedy["rating"] <= greedy["rating_high"]
    (pair,) = res.pair_rows()
    diff = (res.points[:, 0] - res.points[:, 1]) / 2    # paired per deal
    assert pair["points_diff"] == pytest.approx(diff.mean())
    assert pair["points_diff_low"] == pytest.approx(diff.mean() - Z95 * diff.std(ddof=1) / math.sqrt(12))
    assert pair["rating_diff_low"] > 0                     # greedy beats random, visibly


def test_one_deal_has_no_interval():
    assert mean_interval(np.array([3.0])) == (3.0, None, None)
    res = mj.tournament("two-player", ["greedy", "random"], 1, seed=2, bootstrap=5)
    row = res.bot_rows()[0]
    assert row["win_rate_low"] is None and row["points_per_round_high"] is None


def test_same_seed_same_result_and_other_seed_other_deals():
    a = mj.tournament("public", ["greedy", "random"], 4, seed=9, bootstrap=10, record_games=True)
    b = mj.tournament("public", ["greedy", "random"], 4, seed=9, bootstrap=10, record_games=True)
    c = mj.tournament("public", ["greedy", "random"], 4, seed=10, bootstrap=10, record_games=True)
    assert a.to_json(games=True) == b.to_json(games=True)
    assert a.games != c.games
    assert a.seating == (0, 1, 0, 1)   # two bots at a four-player table sit alternately


def test_two_workers_give_the_result_of_one():
    kw = {"seed": 4, "batch_size": 2, "bootstrap": 10, "record_games": True}
    one = mj.tournament("two-player", ["greedy", "random"], 6, workers=1, **kw)
    two = mj.tournament("two-player", ["greedy", "random"], 6, workers=2, **kw)
    a, b = one.to_dict(games=True), two.to_dict(games=True)
    assert (a["provenance"].pop("workers"), b["provenance"].pop("workers")) == (1, 2)
    assert a == b and len(a["games"]) == 12


def test_an_executor_gives_the_result_of_this_process():
    from concurrent.futures import ThreadPoolExecutor

    kw = {"seed": 8, "batch_size": 1, "bootstrap": 10, "record_games": True}
    here = mj.tournament("changpai-ydr", ["greedy", "random", "random"], 3, **kw)
    with ThreadPoolExecutor(2) as pool:
        there = mj.tournament("changpai-ydr", ["greedy", "random", "random"], 3, executor=pool, **kw)
    assert here.to_json(games=True) == there.to_json(games=True)


def test_games_are_recorded_only_when_asked():
    res = mj.tournament("two-player", ["greedy", "random"], 2, seed=1, bootstrap=0)
    assert res.games == [] and res.rounds == 4
    with pytest.raises(SimulationError, match="record_games"):
        mj.tournament("two-player", ["greedy", "random"], 2, record_games="yes")


def test_bot_objects_and_names_given_twice():
    res = mj.tournament("two-player", [mj.GreedyBot(), "greedy"], 2, seed=1, bootstrap=0)
    assert res.bots == ("greedy", "greedy#2")
    # the same bot on both sides of every deal: the duplicate deals cancel exactly
    assert (res.points[:, 0] == res.points[:, 1]).all() and (res.wins[:, 0] == res.wins[:, 1]).all()


def test_json_csv_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from mahjong_core.tournament.plots import plot_tournament

    res = mj.tournament("changpai-ydr", ["greedy", "random", "random"], 3, seed=3, bootstrap=10, record_games=True)
    d = json.loads(res.to_json())
    assert [r["bot"] for r in d["bots"]] == ["greedy", "random", "random#2"] and len(d["pairs"]) == 3
    assert d["provenance"]["seed"] == 3 and "bootstrap" in d["provenance"]["intervals"]["rating"]
    assert "games" not in d and len(json.loads(res.to_json(games=True))["games"]) == 9
    rows = list(csv.DictReader(io.StringIO(res.to_csv())))
    assert [r["bot"] for r in rows] == ["greedy", "random", "random#2"]
    assert float(rows[0]["win_rate"]) == pytest.approx(d["bots"][0]["win_rate"])
    assert len(list(csv.DictReader(io.StringIO(res.pairs_csv())))) == 3
    path = plot_tournament(res, tmp_path / "t.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("ruleset, bots, words", [
    ("two-player", ["greedy", "nosuchbot"], "unknown bot 'nosuchbot'"),
    ("two-player", ["greedy"], "needs 2 bots, got 1"),
    ("two-player", ["greedy", "random", "random"], "needs 2 bots, got 3"),
    ("changpai-ydr", ["greedy", "random"], "3 players: a tournament needs 3 bots, got 2"),
    ("public", ["greedy", "random", "random"], "needs 2 or 4 bots, got 3"),
    ("two-player", "greedy", "a list of bot names"),
])
def test_bad_bots_are_refused_by_name(ruleset, bots, words):
    with pytest.raises(SimulationError, match=words):
        mj.tournament(ruleset, bots, 2, seed=1)


@pytest.mark.parametrize("kwargs, words", [
    ({"deals": 0}, "deals"), ({"deals": -3}, "deals"), ({"deals": 1.5}, "deals"),
    ({"seed": -1}, "seed"), ({"workers": 0}, "workers"), ({"bootstrap": -1}, "bootstrap"),
    ({"executor": "spark"}, "executor"), ({"progress": "yes"}, "progress"),
])
def test_bad_arguments_are_refused_before_any_deal(kwargs, words, played):
    args = {"deals": 2, **kwargs}
    with pytest.raises(SimulationError, match=words):
        mj.tournament("two-player", ["greedy", "random"], **args)
    assert played == [] and issubclass(SimulationError, ValueError)


def test_an_unknown_ruleset_is_refused():
    with pytest.raises(MahjongError, match="unknown ruleset"):
        mj.tournament("no-such-rules", ["greedy", "random"], 2)


def test_any_registered_bot_name_is_accepted(monkeypatch):
    """A bot the family registers later (the advisor, the search bot) plays by its name."""
    factories = family_of("two-player").bots
    monkeypatch.setitem(factories, "greedy-too", factories["greedy"])
    res = mj.tournament("two-player", ["greedy-too", "random"], 1, seed=1, bootstrap=0)
    assert res.bots == ("greedy-too", "random")


def test_progress_counts_deals():
    ticks: list[int] = []
    mj.tournament("two-player", ["greedy", "random"], 5, seed=1, batch_size=2, bootstrap=0, progress=ticks.append)
    assert ticks == [2, 2, 1]


def test_merge_refuses_other_bots():
    a = mj.tournament("two-player", ["greedy", "random"], 1, seed=1, bootstrap=0)
    b = mj.tournament("two-player", ["random", "greedy"], 1, seed=1, bootstrap=0)
    with pytest.raises(SimulationError):
        a.merge(b)
    assert isinstance(a, TournamentResult)


# ------------------------------------------------------------------ command line
def test_cli_json_csv_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    csv_path, plot_path = tmp_path / "t.csv", tmp_path / "t.png"
    argv = ["tournament", "--ruleset", "two-player", "--bots", "greedy,random", "--deals", "4", "--seed", "1",
            "--bootstrap", "10", "--csv", str(csv_path), "--plot", str(plot_path)]
    assert cli.main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [r["bot"] for r in d["bots"]] == ["greedy", "random"] and d["deals"] == 4
    assert csv_path.read_text().startswith("bot,seats,rounds,win_rate")
    assert plot_path.read_bytes()[:4] == b"\x89PNG"
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "4 duplicate deals of two-player" in out and "greedy - random" in out and "wrote" in out


@pytest.mark.parametrize("argv, words", [
    (["--bots", "greedy,nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--bots", "greedy,random,random"], "needs 2 bots, got 3"),
    (["--bots", "greedy,"], "a bot name is empty"),
    (["--bots", "greedy,random", "--deals", "0"], "--deals"),
    (["--deals", "3"], "--bots"),
])
def test_cli_usage_errors_exit_2(argv, words, capsys):
    assert cli.main(["tournament", "--ruleset", "two-player", *argv]) == 2
    assert words in capsys.readouterr().err


def test_cli_usage_error_with_json_is_a_json_object(capsys):
    assert cli.main(["tournament", "--bots", "greedy,x", "--deals", "2", "--json"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert err["type"] == "SimulationError" and err["exit_status"] == 2


def test_cli_csv_to_standard_output_and_conflicting_outputs(capsys, tmp_path):
    base = ["tournament", "--bots", "greedy,random", "--deals", "2", "--bootstrap", "0"]
    assert cli.main([*base, "--csv", "-"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("bot,seats,rounds,") and "2 duplicate deals of two-player" in err
    assert cli.main([*base, "--csv", "-", "--json"]) == 2
    assert "both write to standard output" in capsys.readouterr().out
    assert cli.main([*base, "--plot", "-"]) == 2
    assert cli.main([*base, "--csv", str(tmp_path / "missing" / "t.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
