"""bench/bench_decision_time.py runs (tiny numbers): the default search bot's CPU per decision over
the decision points of seeded rounds, the slowest decision named, the decisions saved and compared."""

from __future__ import annotations

import json

from tests.support.scripts import load_script


def _bench():
    return load_script("bench/bench_decision_time.py")


def test_the_bench_times_decisions_and_names_the_slowest(capsys, tmp_path):
    bench = _bench()
    saved = tmp_path / "decisions.json"
    bench.main(["--ruleset", "two-player", "public", "--deals", "1", "--every", "7", "--save", str(saved)])
    out = capsys.readouterr().out
    for text in ("two-player:", "public:", "CPU per decision: mean", "p95", "max", "over 50 ms", "slowest: seed 1",
                 "advisor_work", "slowest timed 3 more times", "load average"):
        assert text in out, text
    decisions = json.loads(saved.read_text())
    assert decisions and {d["ruleset"] for d in decisions} == {"two-player", "public"}
    bench.main(["--ruleset", "two-player", "public", "--deals", "1", "--every", "7", "--compare", str(saved)])
    assert f"0 of {len(decisions)} decisions changed" in capsys.readouterr().out    # reproducible


def test_the_bench_plays_the_bots_own_rounds_and_long_cards(capsys):
    bench = _bench()
    own = bench.run("two-player-bamboo", 1, seed=2, every=4, self_play=True)
    assert own and all(d["ms"] >= 0 for d in own)
    assert 0 <= bench.retime(own[-1], own, 4, True, repeats=1) < float("inf")     # the point found again
    bench.main(["--ruleset", "changpai-ydr", "--deals", "1", "--every", "9", "--retime", "1"])
    assert "changpai-ydr:" in capsys.readouterr().out
