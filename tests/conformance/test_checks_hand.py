"""Issue 28, item 4: the conformance suite's ``hand`` check (``mahjong_core.testing.checks_hand``)
passes for every registered ruleset (tests/conformance/test_conformance.py runs it with the others)
and catches a faulty family: an advisor that offers an illegal discard, misses one, or flags 包子
where the round does not, and an entry point that refuses a registered ruleset as unknown."""

from __future__ import annotations

import dataclasses

import pytest

import mahjong_core as mj
from mahjong_core import testing
from mahjong_core.errors import RulesetError
from mahjong_core.families import registry
from mahjong_core.testing import ConformanceError, run_check

LC = "changpai-ydr"


def _with_advisor(change):
    s = testing.subject(LC, rounds=1)
    layer = s.family.hand_layer
    real = layer.advise_round

    def broken(r, seat):
        a = real(r, seat)
        return dataclasses.replace(a, options=change(a.options))

    s.family = dataclasses.replace(s.family, hand_layer=dataclasses.replace(layer, advise_round=broken))
    return s


@pytest.mark.parametrize("change, message", [
    (lambda opts: opts[1:], "not every legal action of their kind"),                                # misses one
    (lambda opts: opts + (dataclasses.replace(opts[0], discard=255),), "not distinct legal actions"),  # an illegal id
    (lambda opts: (dataclasses.replace(opts[0], baozi="B5"),) + opts[1:], "包子 flags differ"),
])
def test_a_faulty_advisor_fails_the_hand_check(change, message):
    with pytest.raises(ConformanceError, match=message):
        run_check(_with_advisor(change), "hand")


def test_an_entry_point_refusing_a_registered_ruleset_as_unknown_fails(monkeypatch):
    def unknown(*_a, **_k):
        raise RulesetError("unknown ruleset 'changpai-ydr'")

    monkeypatch.setattr(mj, "waits_batch", unknown)
    with pytest.raises(ConformanceError, match="mj.waits_batch: a registered ruleset is refused as a ruleset"):
        run_check(testing.subject(LC, rounds=1), "hand")


def test_the_check_is_listed_and_every_family_with_an_advisor_is_advised():
    assert "hand" in testing.CHECKS
    offered = [f.name for f in registry.families() if f.hand_layer is not None and f.hand_layer.advise_round]
    assert "longcard" in offered
