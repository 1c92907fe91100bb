"""Monte Carlo simulation: reproducibility across workers and executors (a real local Dask
cluster, no mocks), statistics that must hold, outputs, and user errors."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.simulation import SimulationResult, simulate
from mahjong_core.simulation.plots import plot_result


def _same(a: SimulationResult, b: SimulationResult) -> None:
    assert a.to_dict() == b.to_dict()


def test_same_seed_same_result_with_one_or_two_workers():
    one = simulate("two-player", 120, ("greedy", "random"), seed=5, workers=1, batch_size=25)
    two = simulate("two-player", 120, ("greedy", "random"), seed=5, workers=2, batch_size=25)
    _same(one, two)
    with ThreadPoolExecutor(3) as ex:
        _same(one, simulate("two-player", 120, ("greedy", "random"), seed=5, executor=ex, batch_size=25))
    other = simulate("two-player", 120, ("greedy", "random"), seed=6, workers=1, batch_size=25)
    assert other.to_dict() != one.to_dict()


def test_local_pool_and_dask_cluster_agree():
    distributed = pytest.importorskip("distributed", reason="the Dask test needs mahjong-core[distributed]")
    local = simulate("public", 24, ("greedy",), seed=11, workers=2, batch_size=6)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            remote = simulate("public", 24, ("greedy",), seed=11, executor=client, batch_size=6)
    finally:
        cluster.close()
    _same(local, remote)
    _same(local, simulate("public", 24, ("greedy",), seed=11, executor="dask", workers=2, batch_size=6))


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_statistics_add_up_and_fans_match_rescoring(ruleset):
    r = simulate(ruleset, 60, ("greedy",), seed=3, workers=1, batch_size=20, record_wins=True)
    assert r.rounds == 60
    assert int(r.by_method.sum()) == 60
    assert r.wins == int(r.by_method[1:].sum()) == r.dealer_wins + r.non_dealer_wins
    assert int(r.dealer_rounds.sum()) == 60 and int(r.length_hist.sum()) == 60
    assert int(r.total_hist.sum()) == r.wins == len(r.winning_hands)
    assert int(r.points_by_seat.sum()) == 0          # points move between players only
    assert r.wins > 0
    # the fan counts equal scoring every recorded winning hand again, one by one
    counts = np.zeros(len(mj.fan_table(ruleset)), np.int64)
    totals = []
    for args in r.winning_hands:
        a = dict(args)
        s = mj.score(np.array(a.pop("hand"), np.uint8), a.pop("win_tile"), **a)
        counts += np.asarray(s._counts, np.int64)
        totals.append(s.total)
    assert counts.tolist() == r.fan_instances.tolist()
    assert sum(totals) == int((r.total_hist * np.arange(len(r.total_hist))).sum())
    d = r.to_dict()
    assert abs(sum(d["win_rate_by_seat"]) - r.wins / 60) < 1e-9
    assert abs(d["self_drawn_share"] + d["discard_share"] - 1.0) < 1e-9


def test_outputs_json_csv_plot(tmp_path):
    r = simulate("two-player", 40, ("greedy", "greedy"), seed=1, workers=1, batch_size=20)
    data = json.loads(r.to_json())
    assert data["rounds"] == 40 and len(data["fans"]) == len(mj.fan_table("two-player"))
    csv_text = r.to_csv()
    assert csv_text.splitlines()[0] == "id,name,name_en,points,rounds,instances,per_win"
    assert len(csv_text.splitlines()) == 1 + len(mj.fan_table("two-player"))
    png = plot_result(r, tmp_path / "r.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "rounds of two-player" in r.summary()


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"ruleset": "riichi"}, "ruleset"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": -5}, "rounds"),
        ({"batch_size": 0}, "batch_size"),
        ({"bots": ("greedy", "wizard")}, "wizard"),
        ({"bots": ("greedy", "greedy", "greedy")}, "2 players"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_parameters(kwargs, fragment):
    with pytest.raises(mj.MahjongError, match=fragment):
        simulate(**{"rounds": 10, "workers": 1, **kwargs})


def test_cli_simulate(tmp_path, capsys):
    out = tmp_path / "res.json"
    png = tmp_path / "res.png"
    csv_path = tmp_path / "fans.csv"
    code = cli.main(["simulate", "--ruleset", "two-player", "--rounds", "40", "--bots", "greedy,random",
                     "--workers", "1", "--batch-size", "20", "--out", str(out), "--csv", str(csv_path),
                     "--plot", str(png), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "40 rounds of two-player" in text
    assert json.loads(out.read_text())["rounds"] == 40
    assert png.exists() and csv_path.read_text().startswith("id,")


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["simulate", "--rounds", "0"], "rounds"),
        (["simulate", "--bots", "greedy,alien"], "alien"),
        (["simulate", "--rounds", "5", "--scheduler", "tcp://127.0.0.1:9", "--no-progress"], "scheduler"),
    ],
)
def test_cli_simulate_user_errors(argv, fragment, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err
