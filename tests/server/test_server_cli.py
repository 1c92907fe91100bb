"""``mahjong-core serve`` from the command line: it starts on the loopback, serves the web table
and the API, stops on Ctrl-C with status 0; bad settings are usage errors (exit 2)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the server extra: pip install 'mahjong-core[server]'")
httpx = pytest.importorskip("httpx", reason="the server extra")

import mahjong_core
from mahjong_core import cli

ENV = dict(os.environ, PYTHONPATH=str(Path(mahjong_core.__file__).resolve().parents[1]))


def test_serve_starts_on_the_loopback_and_stops_on_ctrl_c(tmp_path):
    db = tmp_path / "cli.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "mahjong_core", "serve", "--port", "0", "--db", str(db), "--init"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    try:
        port = None
        end = time.monotonic() + 30
        assert proc.stdout is not None
        while port is None and time.monotonic() < end:
            line = proc.stdout.readline()
            found = re.search(r"Uvicorn running on http://127\.0\.0\.1:(\d+)", line)
            port = int(found.group(1)) if found else None
        assert port, "the server did not report its address"
        base = f"http://127.0.0.1:{port}"
        assert "table.js" in httpx.get(base + "/", timeout=10).text
        assert httpx.get(base + "/static/table.css", timeout=10).status_code == 200
        joined = httpx.post(base + "/api/join", json={"name": "cli", "room": "coins"}, timeout=10).json()
        assert set(joined) >= {"table", "seat", "token"}
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert proc.returncode == 130      # interrupted (README: Command line)
    assert db.exists()


@pytest.mark.parametrize("args", [["--port", "70000"], ["--act-timeout", "0"], ["--rounds", "0"],
                                  ["--away-limit", "-1"], ["--rate", "nan"]])
def test_bad_settings_are_usage_errors(args, capsys):
    assert cli.main(["serve", *args]) == 2
    assert "error" in capsys.readouterr().err


def test_help_shows_the_defaults():
    out = subprocess.run([sys.executable, "-m", "mahjong_core", "serve", "--help"], env=ENV,
                         capture_output=True, text=True, check=True).stdout
    text = " ".join(out.split())   # undo the line wrapping
    for fragment in ("(default: 8765)", "(default: 8)", "(default: 20.0)", "(default: the room's, 90)",
                     "loopback"):
        assert fragment in text
    assert "(default: None)" not in text
