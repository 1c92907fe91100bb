"""``mj.simulate`` and ``mahjong-core simulate`` with ``ruleset="changpai-ydr"`` (long-card hands)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from mahjong_core.errors import SimulationError
from mahjong_core.families.longcard.family import new_match
from mahjong_core.families.longcard.fans import FAN_SOURCES
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.simulation import (
    BAOZI,
    ENDS,
    MAX_TUO,
    LongcardSimulationResult,
)
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
    assert r.rounds == 25 == int(r.by_end.sum()) - r.void_hands == int(r.dealer_rounds.sum())
    assert r.void_hands == r.by_end[ENDS.index("void")]
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
    played = [h for h in hands if h["end"] != "void"]      # a void hand is dealt again, not counted
    assert len(played) == n == r.rounds and len(hands) - n == r.void_hands
    wins = [h for h in hands if h["end"] == "win"]
    assert r.by_end.tolist() == [sum(h["end"] == e for h in hands) for e in ENDS]
    assert r.wins_by_seat.tolist() == [sum(h["winner"] == s for h in wins) for s in range(3)]
    assert r.baozi_by_seat.tolist() == [sum(h.get("offender") == s for h in hands if h["end"] == "baozi")
                                        for s in range(3)]
    assert r.dealer_rounds.tolist() == [sum(h["dealer"] == s for h in played) for s in range(3)]
    assert r.dealer_wins == sum(h["winner"] == h["dealer"] for h in wins)
    assert r.points_by_seat.tolist() == np.sum([h["deltas"] for h in hands], axis=0).tolist()
    assert r.mean_fan == pytest.approx(np.mean([h["fan"] for h in wins]))
    assert r.mean_win_points == pytest.approx(np.mean([h["deltas"][h["winner"]] for h in wins]))
    assert r.winning_hands == [h["score"] for h in wins]
    # fan sources and 陀 (spec 4.4), rebuilt from each win's score
    rows = {row["id"]: row for row in r.fan_table_rows()}
    assert [row["id"] for row in r.fan_table_rows()] == [src.id for src in FAN_SOURCES]
    for src in FAN_SOURCES:
        used = [f for h in wins for f in h["score"]["fans"] if f["id"] == src.id]
        assert rows[src.id]["rounds"] == sum(any(f["id"] == src.id for f in h["score"]["fans"]) for h in wins)
        assert rows[src.id]["instances"] == sum(f["count"] for f in used)
        assert rows[src.id]["fan"] == sum(f["points"] * f["count"] for f in used)
    assert sum(row["fan"] for row in rows.values()) == sum(h["score"]["fan"] for h in wins)
    assert r.tuo_hist.tolist()[:MAX_TUO] == [sum(h["score"]["tuo"] == t for h in wins) for t in range(MAX_TUO)]
    assert r.mean_tuo == pytest.approx(np.mean([h["score"]["tuo"] for h in wins]))
    assert r.baozi_by_cause.tolist() == [sum(h.get("cause") == c for h in hands) for c in BAOZI]
    d = r.to_dict()
    assert d["huangzhuang_rate"] == pytest.approx(r.by_end[ENDS.index("huangzhuang")] / n)
    assert d["void_hands"] == r.void_hands and d["void_rate"] == pytest.approx(r.void_hands / len(hands))
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
    assert {"baozi_rate", "baozi_rate_by_seat", "baozi_by_cause", "fan_sources", "mean_tuo", "tuo_histogram"} <= set(out)
    assert sum(out["tuo_histogram"]) == out["wins"] and set(out["baozi_by_cause"]) == set(BAOZI)


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
    (["--plot", "-"], "--plot -"),
    (["--plot", "x.nosuchformat"], "cannot write .nosuchformat"),
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


def test_baozi_rates_count_the_offenders():
    r = LongcardSimulationResult(RS, ("greedy",) * 3)
    win = {"end": "win", "winner": 1, "dealer": 0, "fan": 2, "deltas": [-3, 6, -3],
           "score": {"tuo": 35, "fan": 2, "fans": [{"id": "peng", "points": 2, "count": 1}]}}
    baozi = {"end": "baozi", "offender": 2, "cause": "B3", "dealer": 0, "fan": 3, "deltas": [4, 4, -8]}
    for result in (win, baozi, baozi, {"end": "huangzhuang", "dealer": 1, "deltas": [0, 0, 0]}):
        r.add_hand(result, 10)
    assert r.baozi_rate == 0.5 and r.baozi_rate_by_seat == [0.0, 0.0, 0.5]
    assert r.baozi_by_cause.tolist() == [0, 0, 2, 0, 0, 0] and r.tuo_hist[35] == 1 and r.mean_tuo == 35
    assert r.fan_table_rows()[0] | {} == {"id": "peng", "name": "碰", "name_en": FAN_SOURCES[0].en,
                                          "per": FAN_SOURCES[0].per, "rounds": 1, "instances": 1, "fan": 2,
                                          "per_win": 1.0, "fan_share": 1.0}
    merged = LongcardSimulationResult(RS, ("greedy",) * 3).merge(r).merge(r)
    assert merged.baozi_by_cause.tolist() == [0, 0, 4, 0, 0, 0] and merged.source_fan[0] == 4
    assert merged.tuo_hist[35] == 2


def test_cli_simulate_writes_json_csv_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    out, table, chart = tmp_path / "s.json", tmp_path / "s.csv", tmp_path / "s.png"
    assert cli.main(["simulate", "--ruleset", RS, "-n", "20", "--seed", "2", "--workers", "1", "--out", str(out),
                     "--csv", str(table), "--plot", str(chart)]) == 0
    text = capsys.readouterr().out
    assert all(f"wrote {p}" in text for p in (out, table, chart)) and "mean 陀" in text
    expected = _sim(20, seed=2, bots="greedy")
    assert json.loads(out.read_text(encoding="utf-8"))["fan_sources"] == expected.fan_table_rows()
    assert table.read_bytes().decode("utf-8") == expected.to_csv()
    lines = expected.to_csv().splitlines()
    assert lines[0] == "id,name,name_en,per,rounds,instances,fan,per_win,fan_share" and len(lines) == 1 + len(FAN_SOURCES)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_simulate_csv_to_standard_output(capsys):
    assert cli.main(["simulate", "--ruleset", RS, "-n", "8", "--seed", "4", "--csv", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out == _sim(8, seed=4, bots="greedy").to_csv() and "8 hands of changpai-ydr" in captured.err


def test_plot_result_takes_a_long_card_result(tmp_path):
    pytest.importorskip("matplotlib", reason="plots need the plot extra")
    import warnings

    from mahjong_core.simulation.plots import plot_result

    with warnings.catch_warnings():
        warnings.simplefilter("error")      # no glyph missing from the default font (English labels)
        path = plot_result(_sim(15, seed=3), tmp_path / "lc.png")
    assert path == tmp_path / "lc.png" and path.stat().st_size > 10_000
    with pytest.raises(SimulationError, match="directory"):
        plot_result(_sim(3, seed=3), tmp_path / "missing" / "x.png")
