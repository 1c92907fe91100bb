"""Hostile-input suite of the learning environments' actions (issue 25 item 15: one rule for
illegal actions).  Random legal play, each step first offered a hostile action or batch made from
a legal one, in a child interpreter (``tests/support/hostile_ops_rl.py``): every one is refused with
a MahjongError leaving the round unchanged (the Gymnasium environment with
``illegal_action="terminate"`` ends the episode instead, also leaving it unchanged), or is legal
and applied; nothing else escapes."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.isolation import run_cases

pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[test]' installs it)")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[test]' installs it)")

pytestmark = pytest.mark.hostile

RULESETS = ("two-player", "two-player-bamboo", "public")


@pytest.mark.parametrize("env, mode", [("gym", "terminate"), ("gym", "raise"), ("aec", None), ("vector", None)])
def test_hostile_actions_are_refused_and_change_nothing(env: str, mode: str | None) -> None:
    cases = [{"env": env, "mode": mode, "ruleset": r, "seed": s, "steps": 120} for r in RULESETS for s in range(4)]
    c: Counter = Counter()
    for out in run_cases("hostile_ops_rl:play_hostile", cases):
        assert out["outcome"] == "ok", out
        c.update(out["detail"])
    print(f"\n{env} {mode}: {dict(c)}")
    refused = c["terminated"] if mode == "terminate" else c["refused"]
    assert refused >= 1000, dict(c)
    if env != "vector":     # a shifted index may land on another legal action: then it is played
        assert c["legal"] > 0, dict(c)
