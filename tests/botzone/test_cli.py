"""``mahjong-core botzone-bot``: our bot as a Botzone program, and what it refuses."""
from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import wrapper_command

DEAL = ["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4"]


def _run(argv: list[str], text: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60, env=env, check=False)


def test_one_request_answered_then_exit(env: dict[str, str]) -> None:
    history = "\n".join(["3", "0 0 0", "PASS", DEAL[1], "PASS", "2 F1"]) + "\n"   # the dealer's first draw
    proc = _run(wrapper_command("greedy", "--no-keep-running"), history, env)
    assert proc.returncode == 0 and proc.stdout.startswith("PLAY ") and len(proc.stdout.splitlines()) == 1


def test_a_history_our_round_cannot_have_is_answered_safely_with_a_debug_line(env: dict[str, str]) -> None:
    # player 1 cannot draw first: the wrapper discards the drawn tile and says why on the debug line
    history = "\n".join(["3", DEAL[0], "PASS", DEAL[1], "PASS", "2 B4"]) + "\n"
    proc = _run(wrapper_command("greedy", "--no-keep-running"), history, env)
    assert proc.returncode == 0 and proc.stdout.splitlines()[0] == "PLAY B4"
    assert "fallback: the history does not start with the dealer's draw" in proc.stdout.splitlines()[1]


def test_keep_running_answers_each_request_as_it_comes(env: dict[str, str]) -> None:
    text = "1\n" + DEAL[0] + "\n\n" + DEAL[1] + "\n\n3 0 DRAW\n"   # blank lines: empty saved data
    proc = _run(wrapper_command("random"), text, env)
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == ["PASS", ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"] * 3


@pytest.mark.parametrize(("args", "text", "message"), [
    (("--ruleset", "two-player"), "1\n0 1 0\n", "for four players; two-player has 2"),
    ((), "x\n", "starts with the turn number"),
    (("--json",), "3\n", "not Botzone's JSON input"),
])
def test_refusals_name_the_problem(env: dict[str, str], args: tuple[str, ...], text: str, message: str) -> None:
    argv = [sys.executable, "-m", "mahjong_core", "botzone-bot", *args]
    proc = _run(argv, text, env)
    assert proc.returncode == 2 and message in proc.stdout + proc.stderr


def test_requests_given_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from mahjong_core import cli
    deal = DEAL[1]
    assert cli.main(["botzone-bot", "--bot", "greedy", "--requests", "0 0 0", deal, "2 B4"]) == 0
    assert capsys.readouterr().out == "HU\n"     # W1-9 B1-4 with B4: a pure straight, a win
    assert cli.main(["botzone-bot", "--requests", "0 1 0", deal, "2 B4"]) == 0
    out = capsys.readouterr().out.splitlines()   # player 1 does not draw first: answered safely
    assert out[0] == "PLAY B4" and "does not start with the dealer's draw" in out[1]
