"""bench/bench_search_bot.py runs (tiny numbers): duplicate deals of the search bot against greedy,
with the figures it prints."""

from __future__ import annotations

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
