"""Helpers of the Botzone tests: the test bot programs and our wrapper as a program."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import mahjong_core

BOTS = Path(__file__).parent / "bots"
RULESET = "mcr"   # the ruleset Botzone's Chinese Standard Mahjong judge scores by
# the child interpreters import the package the tests import (the source tree here, the installed one in CI)
PYTHONPATH = os.pathsep.join(p for p in [str(Path(mahjong_core.__file__).parents[1]), os.environ.get("PYTHONPATH", "")] if p)


def script(name: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / name), *args]


def wrapper_command(bot: str = "greedy", *extra: str) -> list[str]:
    """Our wrapper as a Botzone program (the package of this tree, as the tests import it)."""
    return [sys.executable, "-m", "mahjong_core", "botzone-bot", "--bot", bot, "--ruleset", RULESET, *extra]


@pytest.fixture
def env() -> dict[str, str]:
    return {"PYTHONPATH": PYTHONPATH}
