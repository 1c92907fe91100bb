"""bench/bench_search_bot.py runs (tiny numbers): duplicate deals of the search bot against greedy,
with the figures it prints."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.scripts import load_script


def _bench():
    return load_script("bench/bench_search_bot.py")


def test_the_bench_plays_duplicate_deals_and_prints_its_figures(capsys):
    bench = _bench()
    bench.main(["--ruleset", "two-player", "--deals", "2", "--budget", "16"])
    out = capsys.readouterr().out
    for text in ("2 deals", "win rate: search", "difference", "(95 %)", "points per round", "CPU per decision",
                 "load average"):
        assert text in out, text
    f = bench.run("two-player-bamboo", 2, 16, seed=3)
    assert f["rounds"] == 2 * 3 and 0 <= f["bot_win_rate"] <= 1 and f["decisions"] > 0
    again = bench.run("two-player-bamboo", 2, 16, seed=3)
    same = ("bot_win_rate", "greedy_win_rate", "win_rate_diff", "points_diff", "decisions")
    assert [f[k] for k in same] == [again[k] for k in same]      # seeded: the same games


def test_the_bench_measures_the_advisor_too(capsys):
    _bench().main(["--ruleset", "public", "--deals", "1", "--bot", "advisor"])
    assert "win rate: advisor" in capsys.readouterr().out


def test_the_bench_splits_the_gain_by_the_first_departure_from_greedy(capsys):
    """--split: each seat-round is counted once, by the kind of the bot's first decision that was
    not greedy's (none: the same game as greedy's, so no difference), and by how it ended for
    greedy and for the bot in that seat."""
    bench = _bench()
    f = bench.run("two-player", 3, 400, seed=5)
    rounds = f["rounds"] - f["deals"]
    assert sum(int(row[0]) for row in f["split"].values()) == rounds
    assert sum(f["endings"].values()) == rounds
    if "none" in f["split"]:
        assert f["split"]["none"][1:] == [0.0, 0.0]
    assert set(f["split"]) <= {"none", *bench.KINDS}
    assert {e for pair in f["endings"] for e in pair} <= set(bench.ENDINGS)
    assert sum(row[1] for row in f["split"].values()) / rounds == f["bot_win_rate"] - f["greedy_win_rate"]
    bench.main(["--ruleset", "two-player", "--deals", "2", "--budget", "200", "--split"])
    out = capsys.readouterr().out
    assert "first departure from greedy's action" in out and "endings, greedy's" in out


def test_the_kind_of_a_departure():
    bench = _bench()
    from mahjong_core.families.mahjong._constants import (A_DECLARE_READY, A_DISCARD_READY, A_KONG_SELF, A_PASS, A_PON,
                                                          PH_CLAIM, PH_READY_WINDOW, PH_TURN)
    assert bench.decision_kind(PH_TURN, 3, 5) == "discard"
    assert bench.decision_kind(PH_TURN, 3, A_DISCARD_READY + 5) == "discard"
    assert bench.decision_kind(PH_TURN, 3, A_DISCARD_READY + 3) == "ready"
    assert bench.decision_kind(PH_READY_WINDOW, A_DECLARE_READY, A_PASS) == "ready"
    assert bench.decision_kind(PH_TURN, A_KONG_SELF + 2, 4) == "kong"
    assert bench.decision_kind(PH_CLAIM, A_PON, A_PASS) == "claim"


def test_the_bench_scores_the_opponent_models_against_the_real_hands(capsys):
    bench = _bench()
    st = bench.sampler_study("two-player-bamboo", 1, seed=2, worlds=20)
    assert st["points"] > 0 and set(st["waits_log_loss"]) == set(bench.MODELS)
    assert all(v > 0 for v in st["shanten_log_loss"].values())
    assert np.isnan(st["hand_found"][bench.LEARNED]) and 0 <= st["hand_found"][bench.RESAMPLED] <= 1
    bench.main(["--ruleset", "two-player", "--deals", "1", "--sampler"])
    out = capsys.readouterr().out
    assert "opponent models against the real hands" in out and "history" in out


def test_the_sampler_study_says_how_often_his_hand_and_his_waits_are_dealt(capsys):
    """Besides the log losses: the share of the turns where a world dealt him his very hand, and
    the share of the worlds with exactly his waits over the turns he is ready; --models keeps the
    models named (a name it does not know is refused)."""
    bench = _bench()
    st = bench.sampler_study("two-player", 3, seed=1, worlds=50, only=["uniform", "history"])
    assert st["models"] == ["uniform", "history"] and st["ready_points"] > 0
    for m in st["models"]:
        assert 0.0 <= st["hand_found"][m] <= 1.0 and 0.0 <= st["same_waits"][m] <= 1.0
    # a uniform hand is seldom his, a hand improved as he played nearer
    assert st["same_waits"]["history"] > st["same_waits"]["uniform"]
    bench.main(["--ruleset", "two-player", "--deals", "1", "--sampler", "--models", "history"])
    out = capsys.readouterr().out
    assert "his hand among the worlds" in out and "uniform" not in out
    with pytest.raises(SystemExit):
        bench.main(["--sampler", "--models", "history,nothing"])
