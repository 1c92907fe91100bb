"""bench/bench_table_path.py runs (a tiny run): its rows are printed with actions played."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_path_bench_plays_and_reports_each_group():
    import mahjong_core

    # the package this test imports (the source tree built in place, or the installed one in CI)
    here = str(Path(mahjong_core.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_table_path.py"), "--tables", "3",
                           "--turns", "30", "--groups", "3,1"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [r for r in (line.split() for line in proc.stdout.splitlines()[2:])]
    assert [r[0] for r in rows] == ["3", "1"], proc.stdout
    assert all(int(r[1]) > 0 and float(r[2]) > 0 and r[3] == "µs" for r in rows), proc.stdout


@pytest.mark.parametrize("socket", [False, True])
def test_the_instruction_count_driver_plays_and_reports_its_actions(socket):
    """bench/bench_table_path_instructions.py (run under callgrind for instruction counts) runs as
    a plain script too: a tiny run reports the actions it counted, the same with each action
    arriving as its client's frame through the server's WebSocket protocol (``--socket``)."""
    import mahjong_core

    here = str(Path(mahjong_core.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_table_path_instructions.py"), "--tables", "3",
                           "--warmup", "5", "--turns", "10", "--group", "2", *(["--socket"] if socket else [])],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    words = proc.stdout.split()
    assert words[0] == "actions" and int(words[1]) > 0, proc.stdout


def test_the_storage_instruction_driver_replays_its_recording(tmp_path):
    """bench/bench_store_instructions.py (run under callgrind for the storage's instruction counts)
    runs as a plain script too: a tiny recording, saved, then replayed from the file, reports the
    same actions and the WAL bytes that its writes made."""
    import mahjong_core

    here = str(Path(mahjong_core.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    script = str(ROOT / "bench" / "bench_store_instructions.py")
    saved = str(tmp_path / "load.pickle")
    small = ["--tables", "3", "--warmup", "5", "--turns", "10", "--group", "2"]
    proc = subprocess.run([sys.executable, script, *small, "--save", saved], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("recorded "), proc.stdout
    proc = subprocess.run([sys.executable, script, "--load", saved, "--statements"], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    words = proc.stdout.replace(";", "").split()
    assert words[0] == "actions" and int(words[1]) > 0, proc.stdout
    assert float(words[words.index("action", words.index("WAL")) + 1]) > 0, proc.stdout
    assert "statements run per action" in proc.stdout, proc.stdout
