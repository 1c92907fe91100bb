"""Monte Carlo simulation: reproducibility across workers and executors (a real local Dask
cluster, no mocks), statistics that must hold, outputs, and user errors."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.simulation import SimulationResult, simulate
from mahjong_core.simulation.plots import plot_result


def _same(a: SimulationResult, b: SimulationResult) -> None:
    """The same statistics and provenance, but for the workers asked for (they do not change the result)."""
    da, db = a.to_dict(), b.to_dict()
    da["provenance"].pop("workers")
    db["provenance"].pop("workers")
    assert da == db


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
    ],
)
def test_cli_simulate_user_errors(argv, fragment, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_cli_simulate_unreachable_scheduler_is_a_runtime_error(capsys):
    # issue 10 item 8: usage errors exit 2, failures while running (an unreachable cluster) exit 1
    assert cli.main(["simulate", "--rounds", "5", "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "scheduler" in err and "Traceback" not in err


# ------------------------------------------------------------------ issue 10: arguments checked before any work
class _SpyExecutor:
    """An executor that records submissions (none may happen when an argument is refused)."""

    def __init__(self):
        self.calls = 0

    def submit(self, *args, **kwargs):  # pragma: no cover - must not be reached
        self.calls += 1
        raise AssertionError("work started before the arguments were checked")


class _NoSubmit:
    """Not an executor (a stable repr keeps the test ids equal across xdist workers)."""

    def __repr__(self) -> str:
        return "NoSubmit()"


BAD_SIMULATE_ARGS = [
    ({"workers": -3}, "workers"), ({"workers": 0}, "workers"), ({"workers": True}, "workers"),
    ({"workers": 10 ** 9}, "workers"), ({"workers": 2.0}, "workers"), ({"workers": "2"}, "workers"),
    ({"rounds": True}, "rounds"), ({"rounds": 2.5}, "rounds"), ({"rounds": "10"}, "rounds"),
    ({"rounds": 10 ** 30}, "rounds"), ({"rounds": None}, "rounds"),
    ({"batch_size": True}, "batch_size"), ({"batch_size": -1}, "batch_size"), ({"batch_size": "5"}, "batch_size"),
    ({"rounds": 10 ** 9, "batch_size": 1}, "batches"),
    ({"seed": True}, "seed"), ({"seed": 1.5}, "seed"), ({"seed": "0"}, "seed"), ({"seed": -1}, "seed"),
    ({"bots": "wizard"}, "wizard"), ({"bots": 5}, "bots"), ({"bots": ["greedy", 3]}, "3"), ({"bots": ()}, "0 bots"),
    ({"bots": ("random",) * 3}, "2 players"), ({"ruleset": "public", "bots": ("greedy", "random")}, "4 players"),
    ({"ruleset": 5}, "ruleset"), ({"ruleset": None}, "ruleset"),
    ({"executor": "spark"}, "executor"), ({"executor": 42}, "executor"), ({"executor": _NoSubmit()}, "submit"),
    ({"progress": "yes"}, "progress"), ({"progress": 1}, "progress"),
    ({"min_fan": -1}, "min_fan"), ({"min_fan": 1001}, "min_fan"), ({"min_fan": True}, "min_fan"),
    ({"min_fan": 8.0}, "min_fan"), ({"record_wins": "no"}, "record_wins"), ({"record_wins": 2}, "record_wins"),
]


@pytest.mark.parametrize("kwargs, fragment", BAD_SIMULATE_ARGS, ids=[repr(k)[:40] for k, _ in BAD_SIMULATE_ARGS])
def test_simulate_refuses_bad_arguments_before_any_work(kwargs, fragment):
    spy = _SpyExecutor()
    args = {"rounds": 10, "executor": spy, **kwargs}
    ticks = []
    if "progress" not in args:
        args["progress"] = ticks.append
    with pytest.raises(mj.MahjongError, match=fragment):
        simulate(**args)
    assert spy.calls == 0 and ticks == []


def test_simulate_with_a_huge_worker_count_fails_fast():
    import time

    t = time.perf_counter()
    with pytest.raises(mj.errors.SimulationError, match="workers"):
        simulate("two-player", 10, workers=10 ** 9)
    assert time.perf_counter() - t < 1.0


def test_run_batch_checks_its_arguments():
    from mahjong_core.simulation import run_batch

    for args, fragment in [(("two-player", ("greedy", "greedy"), -1, 0, 5), "seed"),
                           (("two-player", ("greedy", "greedy"), 0, True, 5), "batch"),
                           (("two-player", ("greedy", "greedy"), 0, 0, 0), "rounds"),
                           (("two-player", ("greedy",) * 4, 0, 0, 5), "2 players")]:
        with pytest.raises(mj.errors.SimulationError, match=fragment):
            run_batch(*args)


def test_one_bot_name_as_a_string_plays_every_seat():
    _same(simulate("two-player", 20, "greedy", seed=2, workers=1, batch_size=10),
          simulate("two-player", 20, ("greedy", "greedy"), seed=2, workers=1, batch_size=10))


def test_min_fan_0_rounds_are_settled_with_their_own_minimum():
    """Item 7: the runner builds outcomes with HandOutcome.from_result (no Room(min_fan=0) work-around):
    wins under 8 fan from a min_fan=0 run are paid, and the points still sum to zero."""
    r = simulate("public", 40, ("greedy",), seed=4, workers=1, batch_size=20, min_fan=0, record_wins=True)
    low = [a for a in r.winning_hands if mj.score(np.array(a["hand"], np.uint8), a["win_tile"],
                                                  **{k: v for k, v in a.items() if k not in ("hand", "win_tile")}
                                                  ).non_flower_total < 8]
    assert low and all(a["min_fan"] == 0 for a in r.winning_hands)
    assert int(r.points_by_seat.sum()) == 0 and int(np.abs(r.points_by_seat).sum()) > 0


def test_check_output_refuses_unwritable_paths_before_a_run(tmp_path):
    from mahjong_core.simulation import check_output

    assert check_output(tmp_path / "r.json") == tmp_path / "r.json"
    for bad, fragment in [("/no/such/dir/x.json", "does not exist"), (tmp_path, "directory"), (5, "file path"),
                          ("", "file path"), (None, "file path")]:
        with pytest.raises(mj.errors.SimulationError, match=fragment):
            check_output(bad, "--out")


def test_plot_checks_its_path_and_matplotlib(tmp_path, monkeypatch):
    import sys

    from mahjong_core.simulation.plots import require_matplotlib

    r = simulate("two-player", 4, ("greedy",), seed=1, workers=1)
    with pytest.raises(mj.errors.SimulationError, match="does not exist"):
        plot_result(r, "/no/such/dir/p.png")
    with pytest.raises(mj.errors.SimulationError, match="top"):
        plot_result(r, tmp_path / "p.png", top=0)
    monkeypatch.setitem(sys.modules, "matplotlib", None)            # as if it were not installed
    with pytest.raises(mj.errors.SimulationError, match="matplotlib"):
        require_matplotlib()
    with pytest.raises(mj.errors.SimulationError, match="matplotlib"):
        plot_result(r, tmp_path / "p.png")
    assert not (tmp_path / "p.png").exists()


def test_merging_different_runs_is_a_simulation_error():
    a = SimulationResult("two-player", ("greedy", "greedy"))
    with pytest.raises(mj.errors.SimulationError, match="cannot merge"):
        a.merge(SimulationResult("public", ("greedy",) * 4))


@pytest.mark.parametrize("address, timeout, fragment", [
    ("foo://x:1", 1, "scheduler"), ("not an address", 1, "scheduler"), ("", 1, "address"), (5, 1, "address"),
    ("tcp://127.0.0.1:9", -1, "timeout"), ("tcp://127.0.0.1:9", math.nan, "timeout"), ("tcp://127.0.0.1:9", True, "timeout"),
])
def test_dask_connect_refuses_bad_addresses(address, timeout, fragment):
    pytest.importorskip("distributed", reason="connect needs mahjong-core[distributed]")
    from mahjong_core.simulation.dask_support import connect

    with pytest.raises(mj.errors.SimulationError, match=fragment):
        connect(address, timeout=timeout)
