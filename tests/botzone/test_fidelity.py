"""tools/botzone_fidelity.py smoke-runs here (one round); its long run is in the closing report."""
from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "botzone_fidelity.py"


def test_the_fidelity_tool_runs_one_round(capsys: "object") -> None:
    spec = importlib.util.spec_from_file_location("botzone_fidelity", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--bot", "random", "--rounds", "1"]) == 0
