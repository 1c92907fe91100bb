"""bench/bench_lc_search_bot.py runs (a tiny run): it prints the win-rate and points differences with
their intervals, the CPU per decision and the load average, for the search bot and the advisor bot.
The figures themselves are not asserted (docs/guide/longcard-bots.md gives a full run's)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_lc_search_bot  # noqa: E402


def test_the_search_bench_reports_its_figures(capsys):
    out = bench_lc_search_bot.main(["--deals", "2", "--steps", "400", "--budget", "6", "--seed", "3"])
    text = capsys.readouterr().out
    assert out["deals"] == 2 and out["hands"] == 6 and out["budget"] == 6 and out["steps"] == 400
    assert out["searched_decisions"] > 0 and out["playouts_per_searched_decision"] > 0
    assert out["steps_per_searched_decision"] > 0
    for line in ("win rate difference:", "95 % CI", "points per hand difference:", "CPU per decision:",
                 "load average"):
        assert line in text
    assert -1 <= out["win_rate_diff"] <= 1 and out["ms_per_decision"] > 0


def test_the_bench_measures_the_advisor_bot_too(capsys):
    out = bench_lc_search_bot.main(["--deals", "1", "--bot", "advisor"])
    assert out["bot"] == "advisor" and out["searched_decisions"] == 0 and out["decisions"] > 0
    assert "advisor bot vs RuleBot" in capsys.readouterr().out
