"""Scripts under tools/ that tests import must not put the source tree's ``python/`` on ``sys.path``
when the package is importable: worker processes (Dask, multiprocessing) inherit the path, and an
uncompiled tree ahead of the installed package broke every Dask worker of a later test in the same
pytest worker (``cannot import name '_hand' from partially initialized module 'mahjong_core'``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script", ["mcr_parity.py", "gen_rules_docs.py", "train_opponent_model.py"])
def test_importing_a_tool_leaves_the_package_path_alone(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", [p for p in sys.path if Path(p or ".").resolve() != ROOT / "python"])
    before = list(sys.path)
    if importlib.util.find_spec("mahjong_core") is None:
        pytest.skip("the package is importable only from the source tree here (PYTHONPATH=python)")
    spec = importlib.util.spec_from_file_location(f"_path_probe_{script[:-3]}", ROOT / "tools" / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)   # its dataclasses look their module up
    spec.loader.exec_module(module)
    added = [p for p in sys.path if p not in before]
    assert str(ROOT / "python") not in added, added
