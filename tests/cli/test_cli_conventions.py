"""Command-line conventions (issue 15): ``python -m mahjong_core``, ``-`` for standard output,
``match --json``/``--out``, defaults and working examples in ``--help``, a progress bar only on
a terminal, ``--quiet``; usage errors exit 2 and runtime errors 1 from ``python -m`` too."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

import mahjong_core as mj
from mahjong_core import cli
from tests.support.isolation import _child_env

TINY = ["--rounds", "40", "--batch-size", "20", "--workers", "1"]


def _python_m(*argv: str, **kwargs) -> subprocess.CompletedProcess:
    if "stdout" not in kwargs:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "mahjong_core", *argv], text=True,
                          timeout=300, env=_child_env(), check=False, **kwargs)


# ------------------------------------------------------------------ python -m and exit statuses
def test_python_m_runs_the_command_line_with_its_exit_statuses(tmp_path):
    ok = _python_m("--version")
    assert ok.returncode == 0 and ok.stdout.strip() == f"mahjong-core {mj.__version__}"
    hand = _python_m("hand", "1112345678999m", "--json")
    assert hand.returncode == 0 and json.loads(hand.stdout)["waits"][0] == "1m"
    usage = _python_m("hand", "12x")
    assert usage.returncode == 2 and usage.stderr.startswith("mahjong-core: error:") and usage.stdout == ""
    usage_json = _python_m("score", "123m", "--win", "E", "--json")
    assert usage_json.returncode == 2 and json.loads(usage_json.stdout)["error"]["kind"] == "usage"
    runtime = _python_m("simulate", *TINY, "--out", "/dev/full", "--json")
    assert runtime.returncode == 1
    error = json.loads(runtime.stdout)["error"]
    assert error["kind"] == "runtime" and error["exit_status"] == 1 and error["type"] == "OutputError"


# ------------------------------------------------------------------ "-" is standard output
def test_simulate_out_dash_prints_the_json_and_writes_no_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["simulate", *TINY, "--seed", "3", "--out", "-"]) == 0
    out, _ = capsys.readouterr()
    data = json.loads(out)  # exactly one JSON object, no summary mixed in
    assert data["rounds"] == 40 and data["provenance"]["seed"] == 3
    assert list(tmp_path.iterdir()) == []
    # the same statistics as --json
    assert cli.main(["simulate", *TINY, "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    # both at once: still one object
    assert cli.main(["simulate", *TINY, "--seed", "3", "--json", "--out", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    # --json and --csv - would mix two formats on standard output: a usage error, as JSON
    assert cli.main(["simulate", *TINY, "--json", "--csv", "-"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["kind"] == "usage" and "both write to standard output" in error["message"]
    assert list(tmp_path.iterdir()) == []


def test_simulate_csv_dash_prints_the_csv_and_the_summary_goes_to_stderr(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    out_file = tmp_path / "r.json"
    assert cli.main(["simulate", *TINY, "--csv", "-", "--out", str(out_file)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("id,name,name_en,points,rounds,instances,per_win")
    assert len(out.splitlines()) == len(mj.get_ruleset("two-player").fans) + 1
    assert "40 rounds of two-player" in err and f"wrote {out_file}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_match_json_and_out(tmp_path, capsys):
    assert cli.main(["match", "--rounds", "2", "--json"]) == 0
    as_json = capsys.readouterr().out
    record = json.loads(as_json)
    assert len(record["rounds"]) == 2 and record["total"] == sum(record["balances"].values())
    assert cli.main(["match", "--rounds", "2", "--out", "-"]) == 0
    assert capsys.readouterr().out == as_json
    path = tmp_path / "match.json"
    assert cli.main(["match", "--rounds", "2", "--out", str(path)]) == 0
    text = capsys.readouterr().out
    assert "ledger:" in text and f"wrote {path}" in text
    assert json.loads(path.read_text(encoding="utf-8")) == record
    assert cli.main(["match", "--rounds", "2", "--out", str(path), "--quiet"]) == 0
    assert "wrote" not in capsys.readouterr().out
    assert cli.main(["match", "--rounds", "2", "--out", str(tmp_path / "no" / "m.json")]) == 2


# ------------------------------------------------------------------ help
def _subparsers() -> dict:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, cli.argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command, shown", [
    ("simulate", ["(default: 10000)", "(default: greedy)", "(default: 0)", "(default: 500)",
                  "(default: all cores)", "(default: two-player)", "(default: 10.0)"]),
    ("match", ["(default: 8)", "(default: greedy, then random for every other seat)",
               "(default: the ruleset's seed room; changpai for 长牌)",
               "(default: two-player)"]),
    ("score", ["(default: two-player)", "(default: 0)", "(default: E)"]),
    ("hand", ["(default: two-player)"]),
    ("play", ["(default: random)", "(default: 0)"]),
    # issue 25, item 16: simulate --min-fan says its default; advise showed [] and an empty default
    ("simulate", ["--min-fan MIN_FAN minimum fan (起和), 0-1000; default the ruleset's (8; changpai-ydr has none)"]),
    ("advise", ["(default: two-player)", "(default: none)", "(default: E)", "(default: any)",
                "default the ruleset's (8)", "1-14 (default: 6)", "(default: all)", "(default: en)"]),
    ("serve", ["(default: 8765)", "(default: 8)"]),
])
def test_help_shows_the_defaults(command, shown):
    text = " ".join(_subparsers()[command].format_help().split())  # undo the line wrapping
    for fragment in shown:
        assert fragment in text, fragment
    for empty in ("(default: None)", "(default: False)", "(default: [])", "(default: )", "(default: ())"):
        assert empty not in text, empty


def test_every_command_has_examples_in_its_help():
    """play and serve had none (issue 25, item 16)."""
    assert set(cli.EXAMPLES) == set(_subparsers())
    for command, parser in _subparsers().items():
        assert "examples:" in parser.format_help() and cli.EXAMPLES[command], command


EXAMPLES = [(command, line) for command, lines in cli.EXAMPLES.items() for line in lines]


@pytest.mark.parametrize("command, line", [e for e in EXAMPLES if e[0] != "serve"],
                         ids=[line for c, line in EXAMPLES if c != "serve"])
def test_every_help_example_is_shown_and_runs(command, line, capsys, monkeypatch):
    """Each example exits 0; ``play`` is interactive: the player quits (``q``) at the first prompt.
    (The ``serve`` examples run until Ctrl-C: tests/server/test_server_cli.py runs them.)"""
    import io

    assert line in _subparsers()[command].format_help()
    argv = shlex.split(line)
    assert argv[0] == "mahjong-core" and argv[1] == command
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(argv[1:]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert out
    if "--json" in argv or "--out" in argv:
        json.loads(out)


def test_the_score_example_is_a_hand_that_scores(capsys):
    assert cli.main(["score", "123m456m789m11mEE", "--win", "E", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] >= 8 and any(f["name_en"] == "Pure Straight" for f in result["fans"])


# ------------------------------------------------------------------ progress and --quiet
class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("tty, flags, expected", [
    (True, [], True), (True, ["--quiet"], False), (True, ["-q"], False), (True, ["--no-progress"], False),
    (False, [], False),
])
def test_progress_bar_only_on_a_terminal_and_never_with_quiet(tty, flags, expected, monkeypatch):
    args = cli.build_parser().parse_args(["simulate", *flags])
    monkeypatch.setattr(sys, "stderr", _Stream(tty))
    assert cli._show_progress(args) is expected


def test_a_simulation_into_a_log_file_writes_no_progress_bar(tmp_path):
    log = tmp_path / "log.txt"
    with open(log, "w") as f:
        proc = _python_m("simulate", "--rounds", "60", "--batch-size", "20", "--workers", "1", stdout=f, stderr=f)
    assert proc.returncode == 0
    text = log.read_text(encoding="utf-8")
    assert "60 rounds of two-player" in text and "\r" not in text and "round/s" not in text


def test_quiet_prints_nothing_but_writes_the_files(tmp_path, capsys):
    out_file = tmp_path / "r.json"
    assert cli.main(["simulate", *TINY, "--quiet", "--out", str(out_file)]) == 0
    assert capsys.readouterr() == ("", "")
    assert json.loads(out_file.read_text())["rounds"] == 40
