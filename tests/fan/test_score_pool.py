"""The pool of freed Scores (_fan_front.pxi): a Score's memory is reused by the next one, which then
starts clean (no attribute, no cached fan list of the last), the Score type's references stay
balanced, and a subclass of Score is made and freed as CPython makes any class's instances."""

from __future__ import annotations

import gc
import sys

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong import scoring

HAND = ("123m456m789m11mEE", "E")

pytestmark = pytest.mark.skipif(hasattr(sys, "_is_gil_enabled") and not sys._is_gil_enabled(),
                                reason="no pool on the free-threaded build")


def _score():
    return mj.score(*HAND, ruleset="two-player", self_drawn=True)


def test_a_freed_score_is_reused_clean():
    _score()                                   # binds the Python side (the pool is installed then)
    installed, _, capacity = _fan._score_pool_state()
    assert installed and capacity > 0
    s = _score()
    s.note = "old"
    assert s.fans and "fans" in s.__dict__
    s_id = id(s)
    before = _fan._score_pool_state()[1]
    del s
    assert _fan._score_pool_state()[1] == min(before + 1, capacity)
    t = _score()
    assert id(t) == s_id                       # the block just freed
    assert t.__dict__ == {} and not hasattr(t, "note")
    assert (t.total, t.non_flower_total, t.min_fan, t.form_code) == (27, 27, 8, 0)
    assert t.to_dict() == scoring._score_checked(*HAND, ruleset="two-player", self_drawn=True).to_dict()


def test_the_python_constructor_reuses_the_pool_too():
    _score()
    counts = np.zeros(len(mj.fan_table("public")), np.uint16)
    for _ in range(3):
        built = mj.Score("public", 9, 8, 8, 0, counts)
        assert (built.total, built.fans, built.__dict__) == (9, [], {"fans": []})
        del built


def test_type_references_stay_balanced():
    refs = []
    for _ in range(4):
        kept = [_score() for _ in range(100)]     # more than the pool holds: some go back to the allocator
        del kept
        gc.collect()
        refs.append(sys.getrefcount(scoring.Score))
    assert refs[1] == refs[2] == refs[3]


def test_a_subclass_of_score_is_made_and_freed_as_any_class():
    class Mine(scoring.Score):
        def extra(self):
            return self.total + 1

    counts = np.zeros(len(mj.fan_table("public")), np.uint16)
    gc.collect()
    before = sys.getrefcount(Mine)
    for _ in range(50):
        m = Mine("public", 9, 8, 8, 0, counts)
        m.note = [m]                               # a cycle through the dict: the collector frees it
        assert m.extra() == 10 and type(m) is Mine
        del m
    gc.collect()
    assert sys.getrefcount(Mine) == before


def test_the_fronts_score_makes_its_dict_on_first_use():
    s = _score()
    assert not any(type(r) is dict for r in gc.get_referents(s))   # no dict made for the call
    assert vars(s) == {} and any(r is s.__dict__ for r in gc.get_referents(s))
    s.note = 1
    assert s.__dict__ == {"note": 1}
