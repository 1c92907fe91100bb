"""The rl modules' docstring examples run as written."""

from __future__ import annotations

import doctest

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[test]' installs it)")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[test]' installs it)")
from mahjong_core.rl import gymnasium_env, pettingzoo_env, vector

# The examples of docs/guide/learning-environments.md (once the README's) run in tests/packaging/test_docs_examples.py,
# with every page's: test_every_pycon_block_runs.


@pytest.mark.parametrize("module", [vector, pettingzoo_env, gymnasium_env])
def test_docstrings(module: object) -> None:
    result = doctest.testmod(module)   # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0
