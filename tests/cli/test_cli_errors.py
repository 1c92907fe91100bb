"""Command line as a hostile user meets it: every mistake ends in one line and the documented exit status.

The contract (module docstring of ``mahjong_core.cli``): a usage error exits 2, a runtime error 1,
Ctrl-C 130, a reader that closes standard output 141 (quietly); an error is one line on stderr
``mahjong-core: error: ...`` with no traceback, or, with ``--json``, one JSON object on stdout
``{"error": {"type", "kind", "message", "exit_status"}}`` and nothing on stderr.  Output files are
checked before the run and no file is left behind by the check or by a failed run.

In-process ``cli.main`` runs where nothing can crash; child processes where the case is a pipe,
a signal, a dead worker, a missing module in a fresh interpreter or bytes that are not UTF-8.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.support.isolation import _child_env, run_code
from mahjong_core import cli
from mahjong_core.families.mahjong import cli as mahjong_cli
from mahjong_core.errors import MahjongError, RulesetError
from mahjong_core.play import play_terminal
from mahjong_core.families.mahjong.rulesets import MAX_MIN_FAN

TINY = ["--rounds", "40", "--batch-size", "20", "--no-progress"]
"""A simulation that takes a fraction of a second."""


def assert_one_line_error(err: str, fragment: str = "") -> str:
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    assert lines[0].startswith("mahjong-core: error: "), err
    assert "Traceback" not in err
    assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def assert_json_error(out: str, err: str, type_name: str, status: int, fragment: str = "") -> dict:
    assert err == "", f"--json errors go to stdout only, stderr was {err!r}"
    lines = out.splitlines()
    assert len(lines) == 1, out
    error = json.loads(lines[0])["error"]
    assert set(error) == {"type", "kind", "message", "exit_status"}
    assert error["type"] == type_name and error["exit_status"] == status
    assert error["kind"] == {1: "runtime", 2: "usage", 130: "interrupted"}[status]
    assert fragment in error["message"] and "\n" not in error["message"]
    return error


def cli_child(*args: "str | bytes", stdin: "bytes | None" = None, env: "dict | None" = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m mahjong_core.cli args`` in a child (arguments may be bytes); output as text."""
    proc = subprocess.run([sys.executable, "-m", "mahjong_core.cli", *args], input=stdin, capture_output=True,
                          timeout=timeout, env={**_child_env(), **(env or {})})
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


# ------------------------------------------------------------------ usage errors: exit 2, one line
HAND = "123m456m789m11mEE"
USAGE_CASES = [
    # the reports of issue 10, item 8
    (["score", HAND, "--win", "E", "--min-fan", "99999999999999"], f"0 to {MAX_MIN_FAN:,}"),
    (["simulate", "--workers", "-3"], "--workers"),
    (["simulate", "--workers", "0"], "--workers"),
    (["simulate", "--workers", "100000"], "from 1 to 1,024"),
    (["simulate", *TINY, "--out", "/no/such/dir/x.json"], "/no/such/dir does not exist"),
    # the command line itself
    ([], "required: command"),
    (["deal"], "invalid choice: 'deal'"),
    (["hand"], "required: tiles"),
    (["hand", "123m", "--nope"], "unrecognized arguments: --nope"),
    (["hand", "1112345678999m", "--ruleset", "riichi"], "invalid choice: 'riichi'"),
    (["hand", "1112345678999m", "--ruleset", ""], "invalid choice: ''"),
    # tiles and hands
    (["hand", ""], "0 tiles"),
    (["hand", "1112345678999p"], "1p"),
    (["hand", "x" * 10_000], "unknown tile letter 'x'"),
    (["hand", "1m" * 5_000], "5000 copies of 1m"),
    (["score", HAND], "--win is required (it is left out only with --heavenly, 天胡)"),
    (["score", HAND, "--win", ""], "one tile"),
    (["score", HAND, "--win", "5m5m"], "one tile"),
    (["score", HAND, "--win", "S"], ""),
    (["score", "123m456m789m11mE", "--win", "E", "--melds", ""], "unknown meld kind"),
    (["score", "123m456m789m11mE", "--win", "E", "--melds", "pon " + "1m" * 3000], "must be 3 identical tiles"),
    (["score", HAND, "--win", "E", "--flowers", "abc"], "unknown tile letter"),
    (["score", HAND, "--win", "E", "--flowers", "9" * 5000], "is not a number of flowers"),
    (["score", HAND, "--win", "E", "--flowers", "99999999999999999"], "8 flowers"),
    (["score", HAND, "--win", "E", "--ruleset", "public", "--seat-wind", "X"], "--seat-wind must be E, S, W or N"),
    # numbers out of range or not numbers
    (["score", HAND, "--win", "E", "--min-fan", "-1"], "--min-fan"),
    (["score", HAND, "--win", "E", "--min-fan", "1e3"], "expected an integer, got '1e3'"),
    (["score", HAND, "--win", "E", "--min-fan", "9" * 5000], "expected an integer"),
    (["simulate", "--rounds", "0"], "--rounds"),
    (["simulate", "--rounds", "-5"], "--rounds"),
    (["simulate", "--rounds", "10000000000"], "--rounds"),
    (["simulate", "--rounds", "1000000000", "--batch-size", "1"], "raise --batch-size"),
    (["simulate", "--batch-size", "0"], "--batch-size"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["simulate", "--seed", "abc"], "--seed"),
    (["simulate", "--min-fan", "-3"], "--min-fan"),
    (["simulate", "--min-fan", "99999999999"], "--min-fan"),
    (["simulate", "--scheduler-timeout", "nan"], "--scheduler-timeout"),
    (["simulate", "--scheduler-timeout", "-1"], "--scheduler-timeout"),
    (["simulate", "--scheduler-timeout", "inf"], "--scheduler-timeout"),
    (["match", "--rounds", "0"], "--rounds"),
    (["match", "--rounds", "99999999999999999"], "--rounds"),
    (["match", "--seed", "-1"], "--seed"),
    (["match", "--balance", "-5"], "--balance"),
    (["match", "--balance", "10"], "at least 1,000"),
    (["play", "--seed", "-1"], "--seed"),
    (["play", "--seat", "2"], "--seat"),
    # a ruleset its family does not play at the terminal: refused by the family (issue 27, item 3)
    (["play", "--ruleset", "public"], "play: the mahjong family does not offer play for 'public'"),
    (["play", "--ruleset", "nope"], "invalid choice: 'nope'"),
    # bots, rooms, rulesets that do not fit together
    (["simulate", *TINY, "--bots", "greedy,alien"], "unknown bot 'alien'"),
    (["simulate", *TINY, "--bots", ""], "a bot name is empty"),
    (["simulate", *TINY, "--bots", "greedy,,random"], "a bot name is empty"),
    (["simulate", *TINY, "--bots", "greedy,greedy,greedy"], "two-player has 2 players"),
    (["simulate", *TINY, "--ruleset", "public", "--bots", "greedy,random"], "public has 4 players"),
    (["match", "--bots", "greedy,alien"], "--bots"),
    (["match", "--ruleset", "public", "--bots", "greedy,random"], "public has 4 players"),
    (["match", "--ruleset", "public", "--room", "beginner"], "two-player room"),
    (["match", "--room", "vip"], "unknown room 'vip'"),
    (["match", "--room", ""], "unknown room ''"),
    # Dask options
    (["simulate", *TINY, "--scheduler", ""], "must not be empty"),
    (["simulate", *TINY, "--scheduler", "tcp://127.0.0.1:9", "--local-dask"], "not allowed with"),
    (["simulate", *TINY, "--scheduler", "nonsense"], "missing port"),
    (["simulate", *TINY, "--scheduler", "ftp://host:1"], "unknown address scheme"),
    # output files (checked before the run)
    (["simulate", *TINY, "--out", ""], "must not be empty"),
    (["simulate", *TINY, "--out", "-", "--csv", "-"], "both write to standard output"),
    (["simulate", *TINY, "--plot", "-"], "give a file name"),
    (["simulate", *TINY, "--out", "a\x00b.json"], "NUL"),
    (["simulate", *TINY, "--out", "/"], "is a directory"),
    (["simulate", *TINY, "--csv", "/proc/new.csv"], "cannot write"),
    (["simulate", *TINY, "--out", "/proc/version"], "cannot write"),
    (["simulate", *TINY, "--plot", "/tmp/chart.foo"], "cannot write .foo files"),
]


# issue 25, item 16: the messages name the options, not the library's parameters, and agree in number
USAGE_CASES += [
    (["score", HAND, "--win", "E", "--round-wind", "7"], "error: --round-wind must be E, S, W or N"),
    (["score", HAND, "--win", "E", "--ready-concealed"], "error: --ready-concealed needs --ready (报听 declared)"),
    (["score", HAND, "--win", "E", "--kong-replacement"], "error: --kong-replacement / --flower-replacement need a"),
    (["score", HAND, "--win", "E", "--flowers", "9"], "error: --flowers 9: there are 8 flowers"),
    (["score", "123m456m789m11mE", "--win", "E", "--robbing-kong", "--self-drawn"], "error: --robbing-kong with a"),
    (["score", "46 46 13 16 34 25 14 14 55 55 55", "--win", "36", "--ruleset", "changpai-ydr", "--jiang", "36"],
     "error: --jiang must be a pair"),
    (["advise", "55789m678p345sSCC", "--ruleset", "public", "--seat-wind", "Q"], "error: --seat-wind must be"),
    (["advise", "55789m678p345sSCC", "--max-draws", "99"], "argument --max-draws: the value must be an integer 1-14"),
    (["advise", "55789m678p345sSCC", "--min-fan", "5000"], "argument --min-fan: the value must be an integer from 0 to 1,000"),
    (["advise", "55789m678p345sSCC", "--top", "0"], "argument --top: the value must be an integer >= 1"),
    (["advise", "5m", "--melds", "pon CCC"], "error: 1 concealed tile and 1 meld make 4 tiles"),
    (["score", "min_fan", "--win", "E"], "in 'min_fan' has no digits"),   # an echo of the input stays as typed
    (["hand", "5m5m", "--json"], ""),
    (["simulate", "--seed", str(2 ** 256)], "argument --seed: the value must be an integer >= 0 and below 2**256"),
    (["match", "--seed", "1" * 80], "below 2**256"),
    (["play", "--seed", str(2 ** 300)], "below 2**256"),
]
USAGE_CASES.remove((["hand", "5m5m", "--json"], ""))


def test_no_message_names_a_python_parameter(capsys):
    """Every usage error above: no parameter name of the library (``win_tile``, ``max_draws``) is left
    in the line where an option passes it (``--win``, ``--max-draws``), no Python literal (``=True``),
    and no "1 tiles" / "1 melds"."""
    import re

    params = ("win_tile", "max_draws", "min_fan", "seat_wind", "round_wind", "batch_size", "ready_concealed",
              "kong_replacement", "flower_replacement", "robbing_kong", "last_of_kind", "heavenly", "jiang")
    for argv, _ in USAGE_CASES:
        if "min_fan" in argv:
            continue    # the input itself holds the name
        cli.main(argv)
        line = capsys.readouterr().err
        for name in params:
            assert not re.search(rf"(?<![\w-]){name}\b", line), (name, line)
        assert "=True" not in line and not re.search(r"\b1 (tiles|melds|rounds|cards|hands|entries)\b", line), line


@pytest.mark.parametrize("argv, fragment", USAGE_CASES, ids=[" ".join(a)[:60] for a, _ in USAGE_CASES])
def test_usage_error_is_one_line_and_exit_2(argv, fragment, capsys):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    line = assert_one_line_error(captured.err, fragment)
    assert captured.out == ""
    assert len(line) <= 330, "a long echo of the input is shortened"


@pytest.mark.parametrize(
    "argv, type_name, fragment",
    [
        (["hand", "1112345678999p", "--json"], "RulesetError", "1p"),
        (["hand", "x" * 10_000, "--json"], "TileParseError", "unknown tile letter"),
        (["hand", "--json"], "UsageError", "required: tiles"),
        (["hand", "1112345678999m", "--json", "--ruleset", "riichi"], "UsageError", "riichi"),
        (["hand", "1112345678999m", "--js", "--nope"], "UsageError", "--nope"),  # an abbreviation counts
        (["score", HAND, "--win", "E", "--min-fan", "99999999999999", "--json"], "UsageError", "--min-fan"),
        (["score", HAND, "--win", "S", "--json"], "NotWinningHandError", ""),
        (["score", HAND, "--json"], "MahjongError", "--win is required"),
        (["simulate", *TINY, "--json", "--workers", "-3"], "UsageError", "--workers"),
        (["simulate", *TINY, "--json", "--bots", "greedy,alien"], "UsageError", "alien"),
        (["simulate", *TINY, "--json", "--out", "/no/such/dir/x.json"], "OutputError", "does not exist"),
        (["match", "--json", "--room", "vip"], "MahjongError", "unknown room"),
        (["match", "--json", "--balance", "10"], "RoomEntryError", "at least 1,000"),
    ],
)
def test_json_errors_are_one_object_on_stdout(argv, type_name, fragment, capsys):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert_json_error(captured.out, captured.err, type_name, 2, fragment)


def test_a_json_flag_after_double_dash_is_an_argument_not_the_json_mode(capsys):
    assert cli.main(["hand", "--", "--json"]) == 2
    assert_one_line_error(capsys.readouterr().err, "'--json'")


def test_control_characters_of_the_input_are_escaped_into_one_line(capsys):
    assert cli.main(["hand", "12\u2028\x1b[31m\nE"]) == 2
    line = assert_one_line_error(capsys.readouterr().err)
    assert "\x1b" not in line and "\\u2028" in line


# ------------------------------------------------------------------ output files
def test_output_check_comes_before_the_run_and_leaves_no_file(tmp_path, capsys, monkeypatch):
    ran = []
    monkeypatch.setattr(cli, "_run_simulation", lambda *a: ran.append(a))
    out = tmp_path / "new.json"
    assert cli.main(["simulate", *TINY, "--out", str(out), "--csv", str(tmp_path / "no" / "x.csv")]) == 2
    assert_one_line_error(capsys.readouterr().err, "--csv")
    assert ran == [] and list(tmp_path.iterdir()) == [], "the --out check created and removed its probe"
    assert cli.main(["simulate", *TINY, "--out", str(out), "--csv", str(out)]) == 2
    assert_one_line_error(capsys.readouterr().err, "--out and --csv name the same file")
    (tmp_path / "file").write_text("x")
    assert cli.main(["simulate", *TINY, "--out", str(tmp_path / "file" / "x.json")]) == 2
    assert_one_line_error(capsys.readouterr().err, "is not a directory")
    assert ran == [] and [p.name for p in tmp_path.iterdir()] == ["file"]


def test_a_failed_run_leaves_an_existing_output_intact_and_creates_no_new_one(tmp_path, capsys, monkeypatch):
    def crash(*args):
        raise cli.RunError("a simulation worker process died unexpectedly", "WorkerCrashed")

    monkeypatch.setattr(cli, "_run_simulation", crash)
    old = tmp_path / "old.json"
    old.write_text("keep me")
    assert cli.main(["simulate", *TINY, "--out", str(old), "--csv", str(tmp_path / "new.csv")]) == 1
    assert_one_line_error(capsys.readouterr().err, "worker")
    assert old.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


def test_a_write_that_fails_after_the_run_is_a_runtime_error(capsys):
    # /dev/full passes the check (a writable device) and refuses the data (ENOSPC)
    assert cli.main(["simulate", *TINY, "--workers", "1", "--out", "/dev/full"]) == 1
    assert_one_line_error(capsys.readouterr().err, "--out /dev/full: writing failed: No space left on device")


def test_outputs_are_written_and_a_plot_without_extension_becomes_png(tmp_path, capsys):
    out, csv_path, plot = tmp_path / "r.json", tmp_path / "f.csv", tmp_path / "chart"
    assert cli.main(["simulate", *TINY, "--workers", "2", "--out", str(out), "--csv", str(csv_path),
                     "--plot", str(plot)]) == 0
    text = capsys.readouterr().out
    assert json.loads(out.read_text())["rounds"] == 40 and csv_path.read_text().startswith("id,")
    assert (tmp_path / "chart.png").stat().st_size > 0 and not plot.exists()
    assert f"wrote {tmp_path / 'chart.png'}" in text


# ------------------------------------------------------------------ missing optional dependencies
def test_plot_without_matplotlib_names_the_extra_before_the_run(tmp_path, capsys, monkeypatch):
    for name in ("matplotlib", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    monkeypatch.setattr(cli, "_run_simulation", lambda *a: pytest.fail("the simulation ran"))
    assert cli.main(["simulate", *TINY, "--plot", str(tmp_path / "c.png"), "--out", str(tmp_path / "r.json")]) == 2
    assert_one_line_error(capsys.readouterr().err, 'pip install "mahjong-core[plot]"')
    assert list(tmp_path.iterdir()) == []
    assert cli.main(["simulate", *TINY, "--plot", str(tmp_path / "c.png"), "--json"]) == 2
    captured = capsys.readouterr()
    assert_json_error(captured.out, captured.err, "MissingDependency", 2, "mahjong-core[plot]")


@pytest.mark.parametrize("option", [["--local-dask"], ["--scheduler", "tcp://127.0.0.1:9"]])
def test_dask_options_without_distributed_name_the_extra(option, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setattr(cli, "_run_simulation", lambda *a: pytest.fail("the simulation ran"))
    assert cli.main(["simulate", *TINY, *option]) == 2
    assert_one_line_error(capsys.readouterr().err, f'{option[0]} needs distributed, which is not installed: '
                                                   'pip install "mahjong-core[distributed]"')


# ------------------------------------------------------------------ runtime errors: exit 1
def test_unreachable_scheduler_is_a_runtime_error(capsys):
    argv = ["simulate", *TINY, "--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "1"]
    assert cli.main(argv) == 1
    assert_one_line_error(capsys.readouterr().err, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert cli.main([*argv, "--json"]) == 1
    captured = capsys.readouterr()
    assert_json_error(captured.out, captured.err, "SchedulerUnreachable", 1, "cannot reach")


def test_a_dead_worker_process_is_one_line_exit_1_and_writes_nothing(tmp_path):
    out = tmp_path / "r.json"
    proc = run_code(f"""
        import multiprocessing, os, signal, sys
        multiprocessing.set_start_method("fork", force=True)   # the workers see the patched function
        from mahjong_core import cli
        from mahjong_core.simulation import runner
        real = runner.run_batch
        def dies_in_batch_1(*job):
            if job[3] == 1:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*job)
        runner.run_batch = dies_in_batch_1
        sys.exit(cli.main(["simulate", "--rounds", "60", "--batch-size", "20", "--workers", "2",
                           "--no-progress", "--out", {str(out)!r}]))
    """, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert_one_line_error(proc.stderr, "a simulation worker process died unexpectedly")
    assert not out.exists()


def test_an_internal_error_is_one_line_exit_1_and_debug_shows_it(capsys, monkeypatch):
    def bug(*args):
        raise TypeError("something the library should never raise")

    monkeypatch.setattr(mahjong_cli, "_hand_report", bug)   # the family's side of hand
    monkeypatch.delenv("MAHJONG_CORE_DEBUG", raising=False)
    assert cli.main(["hand", "1112345678999m"]) == 1
    assert_one_line_error(capsys.readouterr().err, "internal error, please report it: TypeError: something")
    assert cli.main(["hand", "1112345678999m", "--json"]) == 1
    captured = capsys.readouterr()
    assert_json_error(captured.out, captured.err, "TypeError", 1, "internal error")
    monkeypatch.setenv("MAHJONG_CORE_DEBUG", "1")
    with pytest.raises(TypeError, match="should never raise"):
        cli.main(["hand", "1112345678999m"])


def test_an_output_encoding_without_chinese_is_a_runtime_error():
    proc = cli_child("hand", "1112345678999m", env={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 1
    assert_one_line_error(proc.stderr, "PYTHONIOENCODING=utf-8")


# ------------------------------------------------------------------ interrupt and closed pipe
def test_keyboard_interrupt_exits_130(capsys, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(mahjong_cli, "_hand_report", interrupted)
    assert cli.main(["hand", "1112345678999m"]) == 130
    assert capsys.readouterr().err == "mahjong-core: error: interrupted\n"
    assert cli.main(["hand", "1112345678999m", "--json"]) == 130
    captured = capsys.readouterr()
    assert_json_error(captured.out, captured.err, "KeyboardInterrupt", 130, "interrupted")


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"),
                    reason="needs /proc/<pid>/task/<pid>/children (Linux) to see the workers start")
@pytest.mark.parametrize(("started", "delay"), [(1, 0.0), (1, 0.05), (1, 0.2), (2, 0.5)])
def test_ctrl_c_during_a_parallel_simulation_is_one_line_and_130(tmp_path, started, delay):
    # SIGINT as the first worker appears (before its initializer may have run), and later, mid-run
    out = tmp_path / "r.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mahjong_core.cli", "simulate", "--rounds", "1000000", "--batch-size", "50",
         "--workers", "2", "--no-progress", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_child_env(), start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < started and time.monotonic() < deadline:
            time.sleep(0.005)  # Ctrl-C reaches the whole foreground group: parent and workers
        assert len(_children(proc.pid)) >= started, "the worker processes did not start"
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert stderr.decode() == "mahjong-core: error: interrupted\n"
    assert stdout == b"" and not out.exists()


@pytest.mark.parametrize("argv", [
    ["simulate", *TINY, "--workers", "1"],
    ["match", "--rounds", "3"],
    ["hand", "1112345678999m"],
    ["score", HAND, "--win", "E", "--json"],
])
def test_a_closed_stdout_ends_quietly_with_141(argv):
    proc = subprocess.Popen([sys.executable, "-m", "mahjong_core.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_child_env())
    proc.stdout.close()  # the reader is gone before the first line
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert stderr == b""


def test_head_of_a_long_output_ends_quietly(tmp_path):
    out = tmp_path / "r.json"
    script = (f"{sys.executable} -m mahjong_core.cli simulate {' '.join(TINY)} --workers 1 --out {out} | head -1; "
              f"{sys.executable} -m mahjong_core.cli match --rounds 1500 | head -3; echo status ${{PIPESTATUS[0]}}")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300, env=_child_env())
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == "40 rounds of two-player (greedy, greedy)" and lines[-1] == "status 141"
    assert len(lines) == 5
    assert json.loads(out.read_text())["rounds"] == 40, "files are written before the printing"


# ------------------------------------------------------------------ bytes that are not UTF-8
def test_arguments_that_are_not_utf8(tmp_path):
    proc = cli_child("hand", b"\xff\xfe")
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "\\udcff")
    proc = cli_child("score", HAND, "--win", b"\xff", "--json")
    assert proc.returncode == 2
    assert_json_error(proc.stdout, proc.stderr, "TileParseError", 2, "\\udcff")
    proc = cli_child("simulate", *TINY, "--workers", "1", "--out", os.fsencode(tmp_path) + b"/r\xff.json")
    assert proc.returncode == 0 and "wrote " in proc.stdout
    assert os.listdir(os.fsencode(tmp_path)) == [b"r\xff.json"]


def test_play_reads_input_that_is_not_utf8_as_a_wrong_entry():
    proc = cli_child("play", "--seed", "3", stdin=b"\xff\xfe\n1\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert "type a number from 1" in proc.stdout and proc.stdout.rstrip().endswith("bye")


# ------------------------------------------------------------------ --json results
def test_simulate_json_is_one_object(capsys):
    assert cli.main(["simulate", *TINY, "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rounds"] == 40 and data["ruleset"] == "two-player" and len(data["win_rate_by_seat"]) == 2


def test_match_json_is_one_object_with_a_balanced_ledger(capsys):
    assert cli.main(["match", "--rounds", "4", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3, 4]
    assert sum(data["balances"].values()) == data["total"] == 2 * data["opening_balance"]
    for r in data["rounds"]:
        assert r["draw"] or (r["total"] == sum(f["points"] * f["count"] for f in r["fans"]))
    # the JSON tells the same match as the text
    assert cli.main(["match", "--rounds", "4", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert all(f"{v:>10,}" in text for v in data["balances"].values())


# ------------------------------------------------------------------ play_terminal's own arguments
@pytest.mark.parametrize("kwargs, error", [
    ({"ruleset": "public"}, RulesetError),
    ({"ruleset": "riichi"}, RulesetError),
    ({"you": 2}, MahjongError),
    ({"you": True}, MahjongError),
    ({"glyphs": "no"}, MahjongError),
    ({"seed": -1}, MahjongError),
])
def test_play_terminal_refuses_bad_arguments_before_showing_anything(kwargs, error):
    import io

    out = io.StringIO()
    with pytest.raises(error):
        play_terminal(**{"ruleset": "two-player", "seed": 1, **kwargs}, stdin=io.StringIO("q\n"), stdout=out)
    assert out.getvalue() == ""


def test_play_prints_the_seed_that_replays_the_round():
    import io

    from mahjong_core.families.mahjong.api import Round

    out = io.StringIO()
    assert play_terminal("two-player", None, stdin=io.StringIO("q\n"), stdout=out) == 0
    seed = int(out.getvalue().split("seed ")[1].split(".")[0])
    again = io.StringIO()
    play_terminal("two-player", seed, stdin=io.StringIO("q\n"), stdout=again)
    assert again.getvalue() == out.getvalue()
    assert Round("two-player", seed=seed).seed == seed


def test_help_and_version_still_exit_0(capsys):
    for argv in (["--help"], ["--version"], ["simulate", "--help"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 0
    assert "Exit status" in cli.build_parser().format_help()


# ------------------------------------------------------------------ one set of limits (issue 25, item 16)
def test_the_api_and_the_command_line_share_their_limits(monkeypatch, capsys):
    """Every bound of simulate/match is mahjong_core.limits' in both: the command line accepts a value
    exactly when the library does (they disagreed: --rounds up to 10**9 against 10**10, 10**6 batches
    against 100 000, 256 workers against 1024, a batch size bounded only by the rounds)."""
    import mahjong_core as mj
    from mahjong_core import limits
    from mahjong_core.errors import SimulationError
    from mahjong_core.simulation import runner

    parser = cli.build_parser()
    for option, top in (("--rounds", limits.MAX_ROUNDS), ("--batch-size", limits.MAX_BATCH_SIZE),
                        ("--workers", limits.MAX_WORKERS), ("--seed", limits.MAX_SEED),
                        ("--min-fan", limits.MAX_MIN_FAN)):
        assert getattr(parser.parse_args(["simulate", option, str(top)]), option[2:].replace("-", "_")) == top
        with pytest.raises(cli.UsageError, match=option):
            parser.parse_args(["simulate", option, str(top + 1)])
    assert parser.parse_args(["match", "--rounds", str(limits.MAX_ROUNDS)]).rounds == limits.MAX_ROUNDS
    with pytest.raises(cli.UsageError, match="--rounds"):
        parser.parse_args(["match", "--rounds", str(limits.MAX_ROUNDS + 1)])
    # the library: the same bounds, checked before any work
    for kw in ({"rounds": limits.MAX_ROUNDS + 1}, {"batch_size": limits.MAX_BATCH_SIZE + 1},
               {"workers": limits.MAX_WORKERS + 1}, {"seed": limits.MAX_SEED + 1}, {"min_fan": limits.MAX_MIN_FAN + 1}):
        with pytest.raises(SimulationError, match=next(iter(kw))):
            mj.simulate("two-player", **kw)
    with pytest.raises(mj.MahjongError, match="rounds"):
        mj.Match("two-player", 1, rounds=limits.MAX_ROUNDS + 1)
    assert mj.Match("two-player", 1, rounds=limits.MAX_ROUNDS).rounds == limits.MAX_ROUNDS
    # the number of batches: refused by both at the same point
    fits, over = 2 * limits.MAX_BATCHES, 2 * limits.MAX_BATCHES + 1
    assert len(runner._batch_sizes(fits, 2)) == limits.MAX_BATCHES
    with pytest.raises(SimulationError, match="raise batch_size"):
        runner._batch_sizes(over, 2)
    ran = []
    monkeypatch.setattr(cli, "_run_simulation", lambda *a: ran.append(a) or (_ for _ in ()).throw(KeyboardInterrupt))
    assert cli.main(["simulate", "--rounds", str(fits), "--batch-size", "2", "--no-progress"]) == 130 and ran
    assert cli.main(["simulate", "--rounds", str(over), "--batch-size", "2"]) == 2
    assert "raise --batch-size" in capsys.readouterr().err
