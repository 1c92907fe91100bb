"""Typing (issue 15, item 4): ``mypy --strict`` on the package ([tool.mypy] in pyproject.toml),
stubtest of the package against the modules it imports (the compiled modules' ``.pyi`` stubs
among them, with the commented allowlist ``stubtest_allowlist.txt``), and the ``TypedDict`` s of
:mod:`mahjong_core.families.mahjong.json_types` against the keys
:mod:`mahjong_core.families.mahjong.round_schema` checks.

mypy and stubtest run in a child interpreter, each with its cache in a temporary directory.
Stubtest checks the ``mahjong_core`` this test session imports -- installed (CI: the wheel's
stubs, so a stub missing from the wheel fails here) or built in place -- through a copy of the
configuration without ``mypy_path``.  Both are skipped only when mypy is not installed (the test
extra installs it).
"""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest

import mahjong_core
from mahjong_core.families.mahjong import json_types as jt
from mahjong_core.families.mahjong import round_schema as schema
from mahjong_core.families.mahjong.round_views import VIEW_KEYS

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def _run(cmd: list[str], cwd: Path, env: "dict[str, str] | None" = None) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]' installs it)")
    return subprocess.run([sys.executable, "-m", *cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900, check=False)


def test_mypy_strict_clean(tmp_path: Path) -> None:
    proc = _run(["mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(tmp_path / "cache")], ROOT)
    assert proc.returncode == 0, (
        "mypy (strict, [tool.mypy] in pyproject.toml) reports errors in python/mahjong_core:\n"
        f"{proc.stdout}{proc.stderr}")
    assert "Success: no issues found" in proc.stdout


def test_stubtest_clean(tmp_path: Path) -> None:
    import os

    config = PYPROJECT.read_text(encoding="utf-8")
    # the package is found where this session imports it from, not in the source tree
    config = config.replace('mypy_path = "python"\n', "").replace('packages = ["mahjong_core"]\n', "")
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(mahjong_core.__file__).resolve().parents[1]))
    proc = _run(["mypy.stubtest", "mahjong_core", "--mypy-config-file", str(tmp_path / "pyproject.toml"),
                 "--allowlist", str(ALLOWLIST), "--concise"], tmp_path, env)
    assert proc.returncode == 0, (
        f"stubtest of {Path(mahjong_core.__file__).parent} (stubs against the built modules; allowlist "
        f"{ALLOWLIST.name}) reports:\n{proc.stdout}{proc.stderr}")


# ---------------------------------------------------------------------------------- TypedDicts vs schema
def _keys(td: type) -> tuple[set[str], set[str]]:
    return set(td.__required_keys__), set(td.__optional_keys__)  # type: ignore[attr-defined]


def _by_type(union: object) -> dict[str, type]:
    """TypedDicts of a union by the Literal of their ``type`` key."""
    out = {}
    for td in typing.get_args(union):
        (tag,) = typing.get_args(typing.get_type_hints(td, vars(jt))["type"])
        out[tag] = td
    return out


def test_events_have_the_schema_keys() -> None:
    events = _by_type(jt.Event)
    shapes = schema.event_shape().shapes
    assert set(events) == set(shapes) == set(schema.EVENT_TYPES)
    for tag, shape in shapes.items():
        assert _keys(events[tag]) == (set(shape.required), set(shape.optional)), tag


def test_actions_have_the_schema_keys() -> None:
    actions = _by_type(jt.ActionDict)
    shapes = schema.action_shape.shapes
    assert set(actions) == set(shapes) == set(schema.ACTION_TYPES)
    for tag, shape in shapes.items():
        assert _keys(actions[tag]) == (set(shape.required), set(shape.optional)), tag


def test_result_and_state_have_the_schema_keys() -> None:
    result = schema.result_shape(2)
    assert _keys(jt.RoundResultDict) == (set(result.required), set())
    assert _keys(jt.WinnerRecord) == (set(result.required["winners"].item.required), set())
    state = schema.state_shape(2, 144)
    assert _keys(jt.RoundState) == (set(state.required), set(state.optional))


def test_view_has_the_view_keys() -> None:
    assert _keys(jt.PlayerView) == (set(VIEW_KEYS), set())
    assert _keys(jt.MatchView) == (set(VIEW_KEYS) | {"match"}, set())


def test_a_played_round_has_the_documented_keys() -> None:
    """What a round hands out at run time carries exactly the keys its TypedDicts name."""
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import Match, Round

    r = Round(seed=5)
    play_round(r, ["greedy", "greedy"])
    events = _by_type(jt.Event)
    for ev in r.log:
        required, optional = _keys(events[ev["type"]])
        assert required <= set(ev) <= required | optional, ev
    assert set(r.view(1)) == _keys(jt.PlayerView)[0]
    assert set(r.to_dict()) == _keys(jt.RoundState)[0]
    result = r.result
    assert result is not None
    assert set(result.to_dict()) == _keys(jt.RoundResultDict)[0]
    m = Match(seed=2, rounds=1)
    assert set(m.to_dict()) == _keys(jt.MatchState)[0]
    assert set(m.view(0)) == _keys(jt.MatchView)[0]


def test_the_ruleset_literals_are_the_registered_rulesets() -> None:
    """The Literal types that pick mj.Round's, mj.Match's, mj.simulate's and mj.score's result type
    (issue 25, item 18) name exactly the registered rulesets of each family."""
    from mahjong_core import _types
    from mahjong_core.families.registry import ruleset_names

    assert typing.get_args(_types.MahjongRulesetName) == ruleset_names("mahjong") == mahjong_core.RULESET_NAMES
    assert typing.get_args(_types.LongcardRulesetName) == ruleset_names("longcard")
