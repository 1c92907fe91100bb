"""``mahjong-core serve`` from the command line: it starts on the loopback, says the port it listens
on (``--port 0``: the one the system chose), serves the web table and the API, and stops on Ctrl-C
cleanly (one line, status 130, no error report); bad settings are usage errors (exit 2); the
examples of its ``--help`` run."""

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


def _start(argv: list[str], cwd: "Path | None" = None) -> "tuple[subprocess.Popen[str], int]":
    """``mahjong-core serve ...`` in a child; returns it and the port its first line names, once
    the web table answers there."""
    import queue
    import threading

    proc = subprocess.Popen([sys.executable, "-m", "mahjong_core", "serve", *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=ENV)
    assert proc.stdout is not None
    first: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: first.put(proc.stdout.readline() if proc.stdout else ""), daemon=True).start()
    try:
        line = first.get(timeout=60)
    except queue.Empty:
        proc.kill()
        pytest.fail("the server printed nothing in 60 s")
    found = re.match(r"mahjong-core serve: http://127\.0\.0\.1:(\d+)/ ", line)
    if not found:
        proc.kill()
        pytest.fail(f"the first line does not name the address: {line!r}")
    port = int(found.group(1))
    end = time.monotonic() + 60
    while True:   # bound at once; listening once uvicorn has started
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
            return proc, port
        except httpx.TransportError:
            if time.monotonic() > end or proc.poll() is not None:
                proc.kill()
                pytest.fail(f"the server does not answer on port {port}")
            time.sleep(0.2)


def _interrupt(proc: "subprocess.Popen[str]") -> str:
    """Ctrl-C: the rest of the output; the server must stop with status 130 and no error report."""
    time.sleep(0.5)   # uvicorn installs its signal handlers as it starts serving
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130, rest       # interrupted (docs/reference/cli.md: Exit status)
    assert "mahjong-core serve: stopped (interrupted)" in rest and "error" not in rest.lower(), rest
    return rest


def test_serve_starts_on_the_loopback_and_stops_on_ctrl_c(tmp_path):
    """Issue 25, item 16: ``--port 0`` printed port 0; Ctrl-C printed "error: interrupted"."""
    db = tmp_path / "cli.sqlite3"
    proc, port = _start(["--port", "0", "--db", str(db), "--init"])
    try:
        assert port != 0
        base = f"http://127.0.0.1:{port}"
        assert "table.js" in httpx.get(base + "/", timeout=10).text
        assert httpx.get(base + "/static/table.css", timeout=10).status_code == 200
        joined = httpx.post(base + "/api/join", json={"name": "cli", "room": "coins"}, timeout=10).json()
        assert set(joined) >= {"table", "seat", "token"}
    finally:
        if proc.poll() is None:
            _interrupt(proc)
    assert db.exists()


@pytest.mark.parametrize("line", cli.EXAMPLES["serve"])
def test_the_help_examples_serve_until_ctrl_c(line, tmp_path):
    """The examples of ``serve --help``, as shown, in an empty directory: each serves the web table
    on the port it names (8765 by default) until Ctrl-C."""
    import shlex
    import socket

    argv = shlex.split(line)
    assert argv[:2] == ["mahjong-core", "serve"]
    if "--port" not in argv:
        with socket.socket() as s:   # another program (not this test) may hold the default port
            if s.connect_ex(("127.0.0.1", 8765)) == 0:
                pytest.skip("port 8765, the default of the example, is in use on this machine")
    proc, port = _start(argv[2:], cwd=tmp_path)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=10).status_code == 200
    finally:
        _interrupt(proc)


@pytest.mark.parametrize("args", [["--port", "70000"], ["--act-timeout", "0"], ["--rounds", "0"],
                                  ["--away-limit", "-1"], ["--rate", "nan"], ["--reconnect-grace", "-1"]])
def test_bad_settings_are_usage_errors(args, capsys):
    assert cli.main(["serve", *args]) == 2
    assert "error" in capsys.readouterr().err


def test_help_shows_the_defaults():
    out = subprocess.run([sys.executable, "-m", "mahjong_core", "serve", "--help"], env=ENV,
                         capture_output=True, text=True, check=True).stdout
    text = " ".join(out.split())   # undo the line wrapping
    for fragment in ("(default: 8765)", "(default: 8)", "(default: 20.0)", "(default: the room's, 90)",
                     "(default: 30.0)", "loopback"):
        assert fragment in text
    assert "(default: None)" not in text


def test_the_serving_process_tunes_its_garbage_collector_and_an_embedding_one_keeps_its_own():
    """``serve`` (its ``run``) freezes what is alive after the start and raises the collector's
    thresholds (server.cli.GC_THRESHOLD); an application that only builds the app (``create_app``) keeps Python's own."""
    code = ("import gc, sys\n"
            "from mahjong_core.server import cli as s\n"
            "from mahjong_core.server.app import create_app\n"
            "before = gc.get_threshold()\n"
            "create_app\n"
            "assert gc.get_threshold() == before and gc.get_freeze_count() == 0, 'an import changed the collector'\n"
            "s._tune_gc()\n"
            "assert gc.get_threshold() == s.GC_THRESHOLD, gc.get_threshold()\n"
            "assert gc.get_freeze_count() > 1000, gc.get_freeze_count()\n"
            "assert s.GC_THRESHOLD[0] > before[0]\n"
            "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
    import inspect

    from mahjong_core.server import cli as server_cli
    src = inspect.getsource(server_cli.run)     # run calls it once the lobby has loaded the tables
    assert src.index("Lobby(settings)") < src.index("_tune_gc()")
