"""tools/botzone_fidelity.py smoke-runs here (one round); its long run is in the closing report."""
from __future__ import annotations

from tests.support.scripts import load_script


def test_the_fidelity_tool_runs_one_round(capsys: "object") -> None:
    tool = load_script("tools/botzone_fidelity.py")
    assert tool.main(["--bot", "random", "--rounds", "1"]) == 0
