"""score's direct entry (issue 29, item 3): a call ``score(hand[, win_tile], ruleset=, melds=,
self_drawn=)`` with no other keyword is read from the call's arguments without the def's parsing
(``_fan.py``'s vectorcall slot); every other shape of call, and every call the plain front does not
read, reaches the def as before.  Each call below must answer as the Python path does."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong import scoring

from .test_score_front import outcome

HAND, WIN = "123m456p789s11pEE", "E"
MELDS = ["pon CCC", "chi 123m", "chi 456p", "kong 9999s"]


def same(*args, **kw):
    got = outcome(mj.score, *args, **kw)
    assert got == outcome(scoring._score_checked, *args, **kw), (args, kw)
    return got


def test_the_slot_is_installed_on_the_public_function():
    assert _fan._SCORE_VECTORCALL == 1
    assert mj.score is _fan.score


def test_the_direct_entry_reads_flowers_and_the_winds_too():
    """The names the slot's function interns and picks out of a call (a call with flowers went
    through the def's **options dict before)."""
    assert _fan._SCORE_DIRECT_KEYWORDS == ("ruleset", "melds", "self_drawn", "flowers", "seat_wind", "round_wind")


@pytest.mark.parametrize("kw", [
    {"ruleset": "mcr", "flowers": "1f3f"},
    {"ruleset": "mcr", "flowers": 3, "self_drawn": True},
    {"ruleset": "mcr", "flowers": 0, "melds": ()},
    {"ruleset": "public", "flowers": "1f2f3f4f"},                  # public scores flowers by name
    {"ruleset": "mcr", "seat_wind": "S", "round_wind": "W"},
    {"ruleset": "mcr", "round_wind": 28, "seat_wind": None},
    {"ruleset": "mcr", "seat_wind": "E", "flowers": "2f", "self_drawn": False, "melds": ()},
])
def test_flowers_and_winds_answer_as_the_python_path(kw):
    assert same("123m456p789s11pEE", "E", **kw)[0] == "ok"


@pytest.mark.parametrize("kw", [
    {"ruleset": "mcr", "flowers": 9},
    {"ruleset": "mcr", "flowers": "1f1f"},
    {"ruleset": "mcr", "flowers": True},
    {"ruleset": "mcr", "flowers": -1},
    {"ruleset": "mcr", "seat_wind": "X"},
    {"ruleset": "mcr", "round_wind": 26},
    {"ruleset": "mcr", "seat_wind": 27.0},
])
def test_flowers_and_winds_refused_as_the_python_path(kw):
    assert same("123m456p789s11pEE", "E", **kw)[0] == "err"


@pytest.mark.parametrize("args, kw", [
    ((HAND, WIN), {"ruleset": "public"}),
    ((HAND, WIN), {"self_drawn": True, "ruleset": "public"}),
    ((HAND,), {"win_tile": WIN, "ruleset": "public"}),
    (("1z", "1z"), {"melds": MELDS, "ruleset": "public", "self_drawn": False}),
    (("1z", 27), {"melds": tuple(MELDS), "ruleset": "public"}),
    ((mj.to_counts("123m456m789m11mEE"), WIN), {"ruleset": "two-player"}),
    (("123m456m789m11mEE", WIN), {}),                           # the default ruleset
    ((HAND, WIN), {"ruleset": "".join(["pub", "lic"])}),        # a name that is not interned
    ((HAND, WIN), {"ruleset": mj.get_ruleset("public")}),
    ((HAND, WIN), {"ruleset": "public", "flowers": "1f"}),      # another keyword: the def
    ((HAND, WIN), {"ruleset": "public", "self_drawn": 1}),      # not True / False: the Python path
])
def test_call_shapes_answer_as_the_python_path(args, kw):
    assert same(*args, **kw)[0] == "ok"


@pytest.mark.parametrize("args, kw", [
    ((HAND, "X"), {"ruleset": "public"}),
    ((HAND, WIN), {"ruleset": "public", "melds": ["pon 111m"]}),
    (("1z", "1z"), {"ruleset": "public", "melds": MELDS[:3] + ["chi 999s"]}),
    ((HAND, WIN), {"ruleset": "no-such-ruleset"}),
    ((HAND, WIN), {"ruleset": "public", "melds": "pon CCC"}),
    ((np.zeros(34, np.uint8), WIN), {"ruleset": "public"}),
    ((HAND, WIN), {"ruleset": "public", "self_drawn": True, "robbing_kong": True}),
])
def test_refusals_answer_as_the_python_path(args, kw):
    assert same(*args, **kw)[0] == "err"


def test_argument_errors_are_the_defs():
    with pytest.raises(TypeError, match="positional"):
        mj.score()
    with pytest.raises(TypeError, match="positional"):
        mj.score(HAND, WIN, "public")
    with pytest.raises(TypeError, match="multiple values|win_tile"):
        mj.score(HAND, WIN, win_tile=WIN)
    with pytest.raises(TypeError, match="no_such_keyword"):
        mj.score(HAND, WIN, ruleset="public", no_such_keyword=1)
