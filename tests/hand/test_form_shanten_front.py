"""The compiled front of ``form_shanten`` (issue 29, item 3) against the Python function it stands
in front of.

``mj.form_shanten`` is ``_hand.form_shanten_front``: a call with the form and the ruleset by name
and the hand as a uint8 count array or a tile string is answered in C; every other call goes to
``hand._form_shanten_checked``, the Python function with every check.  Both must give the same
value or the same exception class and message, on valid and hostile calls alike.
"""

from __future__ import annotations

import inspect

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core import _hand
from mahjong_core.families.mahjong import hand as hand_mod

RULESETS = ("two-player", "two-player-bamboo", "public")
FORMS = tuple(mj.FORMS)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except Exception as e:  # noqa: BLE001 - both paths must fail the same way
        return ("err", type(e).__name__, str(e))


def assert_same(*args, **kw):
    got = outcome(mj.form_shanten, *args, **kw)
    want = outcome(hand_mod._form_shanten_checked, *args, **kw)
    assert got == want, (args, kw)
    return got


def test_the_public_name_is_the_compiled_front_with_the_python_signature():
    assert mj.form_shanten is _hand.form_shanten_front
    assert mj.form_shanten.__wrapped__ is hand_mod._form_shanten_checked
    assert inspect.signature(mj.form_shanten) == inspect.signature(hand_mod._form_shanten_checked)
    assert "seven_pairs" in mj.form_shanten.__doc__


def test_values_of_each_form():
    assert mj.form_shanten("1199m1199p1199sEE", "seven_pairs", ruleset="public") == -1
    assert mj.form_shanten("19m19p19sESWNCFP", "thirteen_orphans", ruleset="public") == 0
    assert mj.form_shanten("147m258p369sESWN", "honors_knitted", ruleset="public") == 0
    assert mj.form_shanten("147m258p369s123mE", "knitted_straight", ruleset="public") == 0
    assert mj.form_shanten(mj.to_counts("123m456m789m11mEE"), "standard", ruleset="public") == 0


def test_refusals_name_the_problem_as_before():
    # a special form in a ruleset without it, an unknown form, a fifth copy, a bad size, a bad string
    assert assert_same("19m19p19sESWNCF", "thirteen_orphans", ruleset="two-player")[0] == "err"
    assert assert_same("1199m1199p1199sEE", "eight_pairs", ruleset="public")[1] == "MahjongError"
    assert assert_same("11111m", "standard", ruleset="public")[0] == "err"
    assert assert_same(np.array([5] + [0] * 33, np.uint8), "standard", ruleset="public")[1] == "TileCountError"
    assert assert_same("123m", "seven_pairs", ruleset="public")[1] == "HandSizeError"
    assert assert_same("12x", "standard", ruleset="public")[1] == "TileParseError"
    assert assert_same("123m", "standard", ruleset="no-such-ruleset")[1] == "RulesetError"
    # the other input forms go to the Python path and answer as before
    assert assert_same([1, 1, 1, 1] + [0] * 30, "standard", ruleset="public") == ("ok", 0)
    assert assert_same("1199m1199p1199sE", "seven_pairs", ruleset=mj.get_ruleset("public")) == ("ok", 0)
    assert assert_same(np.ones(34, np.int64), "standard", ruleset="public")[0] == "err"


def _counts(tiles):
    c = np.zeros(34, np.uint8)
    for t in tiles:
        c[t] += 1
    return c


@SETTINGS
@given(st.sampled_from(RULESETS), st.sampled_from(FORMS + ("nope",)), st.integers(0, 2),
       st.lists(st.integers(0, 33), min_size=0, max_size=15))
def test_random_calls_answer_as_the_python_path(ruleset, form, style, tiles):
    counts = _counts(tiles)
    if style == 0:
        hand = counts
    elif style == 1:
        hand = mj.format_counts(np.minimum(counts, 4))
    else:
        hand = counts.astype(np.int16)
    assert_same(hand, form, ruleset=ruleset)


@SETTINGS
@given(st.text(alphabet="123456789mpszESWNCFP 0x", max_size=20), st.sampled_from(FORMS))
def test_random_strings_answer_as_the_python_path(text, form):
    assert_same(text, form, ruleset="public")
