"""bench/bench_server_load.py runs (a tiny run against a server process): its checks pass and it
reports the server's CPU per action over the measured window, split into user and system time,
with the actions/s per core that cost gives."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install 'mahjong-core[server]'")
pytest.importorskip("websockets", reason="the server extra")
pytest.importorskip("httpx", reason="the server extra")

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_bench_plays_checks_and_reports_cpu_per_action():
    import mahjong_core

    # the server of the package this test imports (the source tree built in place, or the installed one in CI)
    here = Path(mahjong_core.__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_server_load.py"), "--tables", "2",
                           "--seconds", "2", "--warmup", "1", "--server-cpu", "-1", "--tree", str(here)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    cpu = re.search(r"(\d+) µs per action \((\d+) user \+ (\d+) system; over the measured window\)", out)
    assert cpu is not None, out
    assert int(cpu[1]) > 0 and abs(int(cpu[1]) - int(cpu[2]) - int(cpu[3])) <= 1, out
    per_core = re.search(r"per core +(\d+) actions/s", out)
    assert per_core is not None and abs(int(per_core[1]) - 1e6 / int(cpu[1])) <= 0.01 * int(per_core[1]) + 1, out
    assert "ledger total" in out and ": ok" in out and "streams          ok" in out, out
