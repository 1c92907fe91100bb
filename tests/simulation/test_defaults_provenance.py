"""``simulate``'s default runs in this process (no pool: safe in an embedding server and in a
script without a ``__main__`` guard), and every result records how it was made."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core.simulation import execution

ROOT = Path(__file__).resolve().parents[2]


class _CountingPool(ProcessPoolExecutor):
    made: list = []

    def __init__(self, *args, **kwargs):
        _CountingPool.made.append(kwargs.get("max_workers"))
        super().__init__(*args, **kwargs)


@pytest.fixture
def counting_pool(monkeypatch):
    _CountingPool.made = []
    monkeypatch.setattr(execution, "ProcessPoolExecutor", _CountingPool)   # where simulate starts its pool
    return _CountingPool.made


def test_default_runs_in_process_and_starts_no_pool(counting_pool):
    assert inspect.signature(mj.simulate).parameters["workers"].default is None
    res = mj.simulate("two-player", 30, seed=3, batch_size=10)
    assert res.rounds == 30 and counting_pool == []
    mj.simulate("two-player", 30, seed=3, batch_size=10, workers=1)
    assert counting_pool == []


def test_explicit_workers_use_a_process_pool_with_the_same_result(counting_pool):
    inline = mj.simulate("two-player", 30, seed=3, batch_size=10)
    pooled = mj.simulate("two-player", 30, seed=3, batch_size=10, workers=2)
    assert counting_pool == [2]
    a, b = inline.to_dict(), pooled.to_dict()
    assert (a["provenance"]["workers"], b["provenance"]["workers"]) == (None, 2)
    a["provenance"].pop("workers"), b["provenance"].pop("workers")
    assert a == b


def test_provenance_records_version_seed_batch_size_min_fan_ruleset_bots_workers():
    res = mj.simulate("public", 12, bots=("greedy",), seed=None, batch_size=5, min_fan=0)
    assert isinstance(res.seed, int)
    prov = res.provenance
    assert prov == {"version": mj.__version__, "seed": res.seed, "batch_size": 5, "min_fan": 0,
                    "ruleset": "public", "bots": ["greedy"] * 4, "workers": None}
    assert json.loads(res.to_json())["provenance"] == prov
    # the provenance is enough to make the result again
    again = mj.simulate(prov["ruleset"], res.rounds, bots=tuple(prov["bots"]), seed=prov["seed"],
                        batch_size=prov["batch_size"], min_fan=prov["min_fan"])
    assert again.to_dict() == res.to_dict()


def test_cli_results_json_records_provenance(tmp_path, capsys):
    out = tmp_path / "results.json"
    assert cli.main(["simulate", "--rounds", "20", "--batch-size", "10", "--workers", "1", "--seed", "7",
                     "--min-fan", "1", "--out", str(out), "--no-progress"]) == 0
    prov = json.loads(out.read_text())["provenance"]
    assert prov == {"version": mj.__version__, "seed": 7, "batch_size": 10, "min_fan": 1,
                    "ruleset": "two-player", "bots": ["greedy", "greedy"], "workers": 1}


def test_guide_simulation_snippet_runs_as_a_script_under_spawn(tmp_path):
    """The simulation guide's (docs/guide/simulation.md) simulate snippet pasted into a script with no ``__main__`` guard, under the
    ``spawn`` start method (macOS, Windows, Linux from 3.14): it must not start processes."""
    section = (ROOT / "docs/guide/simulation.md").read_text(encoding="utf-8")
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "mj.simulate(" in snippet
    snippet = snippet.replace("rounds=2_000", "rounds=40")
    script = tmp_path / "pasted.py"
    script.write_text("import multiprocessing\nmultiprocessing.set_start_method('spawn', force=True)\n"
                      "import mahjong_core as mj\n" + snippet + "\nprint('done', res.rounds)\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(Path(mj.__file__).resolve().parent.parent)},
                          cwd=tmp_path)  # the package under test: the installed one in CI, python/ in place
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("done 40")
