"""tests/support/scripts.py: a script loads as a module under its stem (or a given name), stays in
``sys.modules`` (its dataclasses need it), and one that raises is taken out again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.scripts import load_script


def test_a_script_loads_under_its_stem_with_its_dataclasses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "probe_tool.py"
    script.write_text("from dataclasses import dataclass\n\n@dataclass\nclass Row:\n    n: int\n\nVALUE = Row(3)\n")
    monkeypatch.delitem(sys.modules, "probe_tool", raising=False)
    mod = load_script(script)
    assert mod.VALUE.n == 3 and sys.modules["probe_tool"] is mod
    other = load_script(script, name="probe_tool_again")
    assert other is not mod and sys.modules["probe_tool_again"] is other
    monkeypatch.delitem(sys.modules, "probe_tool")
    monkeypatch.delitem(sys.modules, "probe_tool_again")


def test_a_script_that_raises_is_not_left_behind(tmp_path: Path) -> None:
    script = tmp_path / "broken_tool.py"
    script.write_text("raise RuntimeError('broken on purpose')\n")
    with pytest.raises(RuntimeError, match="broken on purpose"):
        load_script(script)
    assert "broken_tool" not in sys.modules


def test_a_relative_path_is_the_repository_s() -> None:
    mod = load_script("tools/import_graph.py", name="import_graph_probe")
    try:
        assert Path(mod.__file__).resolve() == Path(__file__).resolve().parents[2] / "tools" / "import_graph.py"
    finally:
        sys.modules.pop("import_graph_probe", None)
