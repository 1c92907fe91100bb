"""Issue 28 item 2: the conformance suite's ``rl`` check (:mod:`mahjong_core.testing.checks_rl`)
holds every ruleset whose family registers learning hooks to the environments' contract and
catches a family whose encoder breaks it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from mahjong_core import testing
from mahjong_core.families import registry
from mahjong_core.rl import rl_rulesets
from mahjong_core.testing import ConformanceError, run_check

RULESET = "changpai-ydr"


def test_every_ruleset_with_hooks_is_checked() -> None:
    assert "rl" in testing.CHECKS
    assert rl_rulesets() == list(registry.ruleset_names())      # both families register hooks


@pytest.mark.parametrize("fault", ["mask", "bounds"])
def test_the_check_catches_a_faulty_encoder(monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    family = registry.family_of(RULESET)
    hooks = family.rl()

    def observe(core, seat):
        obs, mask = hooks.observe(core, seat)
        if fault == "mask":
            mask = mask.copy()
            mask[np.flatnonzero(mask)[:1]] = 0      # one legal action left out
        else:
            obs = obs.copy()
            obs[:21] = 9                             # a hand count no seat holds
        return obs, mask

    broken = dataclasses.replace(family, rl=lambda: dataclasses.replace(hooks, observe=observe))
    monkeypatch.setitem(registry._FAMILIES, family.name, broken)
    with pytest.raises(ConformanceError, match="not the legal set" if fault == "mask" else "above the layout"):
        run_check(RULESET, "rl")
