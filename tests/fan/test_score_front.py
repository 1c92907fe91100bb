"""The compiled front of ``score`` (issue 14) against the Python path it stands in front of.

``mj.score`` is ``_fan.score``: it reads plain arguments (ASCII tile and meld strings, uint8 count
arrays, int tiles, True/False flags ...) in C and hands every other call to
``scoring._score_checked``, the Python path with every check.  The ``parity`` fixture's ``score``
twins are the two; :class:`mahjong_core.Scorer` is held against both.  Hypothesis draws winning
calls in every accepted input form and hostile ones (random strings over the tile alphabet and
junk, wrong types, contradicting flags); both paths must give the same Score (fields, per-fan
counts) or the same exception class and message.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core.families.mahjong import scoring
from mahjong_core.families.mahjong.tiles import format_tiles

PARITY = "score"   # the behaviour the shared ``parity`` fixture (tests/conftest.py) gives this suite

RULESETS = ("two-player", "two-player-bamboo", "public")
FLAG_NAMES = ("self_drawn", "last_tile", "kong_replacement", "flower_replacement", "robbing_kong", "last_of_kind",
              "ready", "heavenly", "earthly", "humanly", "heavenly_ready")
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(fn, *args, **kw):
    """The comparable result of one call: the Score's fields and counts, or the error."""
    try:
        s = fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 - both paths must fail the same way
        return ("err", type(e).__name__, str(e))
    return ("ok", type(s).__name__, s.ruleset, s.total, s.non_flower_total, s.min_fan, s.form_code,
            s.counts.tolist())


def assert_same(parity, *args, **kw):
    got = outcome(parity.compiled.score, *args, **kw)
    want = outcome(parity.reference.score, *args, **kw)
    assert got == want, (args, kw)
    return got


# ---------------------------------------------------------------------------
# Strategies: winning hands written in every accepted form, and hostile calls
# ---------------------------------------------------------------------------


def _kinds(ruleset):
    return list(mj.get_ruleset(ruleset).kinds)


def tile_text(tiles, style):
    """The tiles in one notation: the front reads compact/z/spaced itself, zh/glyph go to Python."""
    if style == "spaced":
        return " ".join(format_tiles([t]) for t in tiles)
    if style == "unsorted":
        return format_tiles(tiles, sort=False)
    return format_tiles(tiles, style=style)


@st.composite
def winning_calls(draw):
    """(args, kwargs) of a random winning call (standard form), in random input forms."""
    ruleset = draw(st.sampled_from(RULESETS))
    kinds = _kinds(ruleset)
    groups = []
    total = [0] * 34
    for _ in range(4):
        k = draw(st.sampled_from(kinds))
        chi = k < 27 and k % 9 <= 6 and k + 2 in kinds and draw(st.booleans())
        kind = "chi" if chi else draw(st.sampled_from(("pon", "pon", "kong", "ckong")))
        tiles = [k, k + 1, k + 2] if chi else [k] * (4 if kind in ("kong", "ckong") else 3)
        groups.append((kind, tiles))
        for t in tiles:
            total[t] += 1
    pair = draw(st.sampled_from(kinds))
    total[pair] += 2
    # a fifth copy is a call worth comparing too (both must raise the same), but a rare one
    assume(max(total) <= 4 or draw(st.integers(0, 9)) == 0)
    odd = draw(st.integers(0, 4)) == 0    # one call in five may carry odd flag and option values
    n_melds = draw(st.integers(0, 4))
    concealed = []
    for kind, tiles in groups[n_melds:]:
        concealed += tiles[:3] if kind != "chi" else tiles   # a concealed group is 3 tiles
    concealed += [pair, pair]
    win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    style = draw(st.sampled_from(("compact", "compact", "z", "spaced", "unsorted", "zh", "glyph", "array",
                                  "list", "array16")))
    if style in ("array", "list", "array16"):
        counts = np.zeros(34, np.uint8)
        for t in concealed:
            counts[t] += 1
        hand = counts if style == "array" else (counts.tolist() if style == "list" else counts.astype(np.int16))
    else:
        hand = tile_text(concealed, style)
    win_form = draw(st.sampled_from(("int", "text", "np", "zh")))
    win_tile = {"int": win, "text": format_tiles([win]), "np": np.int64(win),
                "zh": format_tiles([win], style="zh")}[win_form]
    melds = []
    for kind, tiles in groups[:n_melds]:
        form = draw(st.sampled_from(("text", "text", "pair_text", "pair_list", "upper", "padded", "zh")))
        text = format_tiles(tiles)
        melds.append({"text": f"{kind} {text}", "pair_text": (kind, text), "pair_list": (kind, list(tiles)),
                      "upper": f"{kind.upper()} {text}", "padded": f"  {kind}  {text} ",
                      "zh": f"{kind} {format_tiles(tiles, style='zh')}"}[form])
    if draw(st.booleans()):
        melds = tuple(melds)
    kw = {"ruleset": draw(st.sampled_from((ruleset, mj.get_ruleset(ruleset)))), "melds": melds}
    for name in FLAG_NAMES:
        if draw(st.integers(0, 11)) == 0:
            kw[name] = draw(st.sampled_from((True, False, True, 1, 0, np.bool_(True)) if odd else (True, False)))
    if draw(st.integers(0, 5)) == 0:
        kw["ready_concealed"] = draw(st.sampled_from((None, True, False)))
    if draw(st.booleans()):
        kw["flowers"] = draw(st.sampled_from((0, 1, 3, 5, 8, 9, "1f", "1f2f5f", "春梅", "1f1f", [34, 35], "5m")
                                             if odd else (0, 1, 2, 3, 8, "1f", "1f2f5f", "2f 8f")))
    for wind in ("seat_wind", "round_wind"):
        if draw(st.booleans()):
            kw[wind] = draw(st.sampled_from(("E", "S", "W", "N", "南", 27, 30, 31, "X", None) if odd
                                            else ("E", "S", "W", "N", 27, 30, None)))
    if draw(st.integers(0, 3)) == 0:
        kw["min_fan"] = draw(st.sampled_from((None, 0, 8, 1, -1, 10**30, 8.0) if odd else (None, 0, 8, 1, 24)))
    if draw(st.integers(0, 3)) == 0:
        kw["replacement_bloom"] = draw(st.sampled_from(("any", "last_tile", "kongs_only", "x", None) if odd
                                                       else ("any", "last_tile", "kongs_only")))
    for opt in ("caishen_enabled", "caishen_used_as_wild", "literal_first_turn_exclusions"):
        if draw(st.integers(0, 5)) == 0:
            kw[opt] = draw(st.sampled_from((True, False, 1, "yes") if odd else (True, False)))
    return (hand, win_tile), kw


ALPHABET = "0123456789mpszfESWNCFPeMZx \t\n中发東万🀇\ufe0f"
text = st.text(alphabet=ALPHABET, max_size=24)


@st.composite
def hostile_calls(draw):
    """(args, kwargs) with random strings (and odd objects) where tiles and melds go."""
    hand = draw(st.one_of(text, st.sampled_from((None, 5, b"123m", ["1m"], np.zeros(34, np.uint8),
                                                 np.full(34, 5, np.uint8), np.zeros(33, np.uint8)))))
    win = draw(st.one_of(text, st.sampled_from((None, -1, 34, 10**40, True, 4.0, "5m"))))
    melds = draw(st.one_of(
        st.lists(st.one_of(text.map(lambda t: "pon " + t), text.map(lambda t: "chi" + t), text,
                           st.tuples(st.sampled_from(("pon", "PON", "chi", "x", " pon")), text),
                           st.tuples(st.sampled_from(("kong", "ckong")),
                                     st.lists(st.integers(-2, 40), max_size=5))),
                 max_size=5),
        st.sampled_from(("pon CCC", None, 5))))
    kw = {"ruleset": draw(st.sampled_from(RULESETS + ("nope",))), "melds": melds}
    if draw(st.booleans()):
        kw["flowers"] = draw(st.one_of(text, st.integers(-1, 9)))
    if draw(st.booleans()):
        kw["heavenly"] = True
    return (hand, win), kw


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@SETTINGS
@given(winning_calls())
def test_front_equals_python_path_on_winning_calls(parity, call):
    args, kw = call
    assert_same(parity, *args, **kw)


@SETTINGS
@given(hostile_calls())
def test_front_equals_python_path_on_hostile_calls(parity, call):
    args, kw = call
    assert_same(parity, *args, **kw)


@SETTINGS
@given(winning_calls())
def test_scorer_equals_score(call):
    (hand, win), kw = call
    options = {k: kw.pop(k) for k in ("ruleset", "min_fan", "caishen_enabled", "caishen_used_as_wild",
                                      "literal_first_turn_exclusions", "replacement_bloom") if k in kw}
    try:
        scorer = mj.Scorer(**options)
    except Exception as e:  # noqa: BLE001 - a bad option: score raises the same
        err = outcome(mj.score, hand, win, **options, **kw)
        assert err[:3] == ("err", type(e).__name__, str(e)) or err[0] == "err"
        return
    want = outcome(mj.score, hand, win, **options, **kw)
    assert outcome(scorer.score, hand, win, **kw) == want
    assert outcome(scorer, hand, win, **kw) == want


# ---------------------------------------------------------------------------
# Examples: what the front reads itself, and the Score it builds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    (("123m456m789m11mEE", "E"), {"self_drawn": True}),
    (("123m 456m 789m 11m", 27), {"melds": ["pon EEE"], "ruleset": "public"}),
    (("1z1z 123m456m789m 1z", "1m"), {"ruleset": "public", "seat_wind": "S", "round_wind": 28}),
    (("123m456m789m1m", "1m"), {"melds": [("pon", "EEE")], "ruleset": "public", "flowers": "1f2f"}),
    (("123m456m789m1m", 0), {"melds": [("kong", [27, 27, 27, 27])], "ruleset": "public", "flowers": 3,
                              "kong_replacement": True, "self_drawn": True}),
    (("456m789m1m", "1m"), {"melds": ["chi 123m", "CKONG EEEE"], "ruleset": "public", "ready": True}),
    (("11123456789999m", None), {"heavenly": True}),
    (("123m456m789m11mEE", "5m"), {}),                   # not a winning hand: the kernel refuses
    (("123m456m789m11mEEE", "E"), {}),                   # 15 tiles
    (("123m456m789m11mE", "E"), {"melds": ["pon EEE"]}),  # a fifth E across hand and meld
    (("123m456m789m11mEE", "E"), {"ready_concealed": True}),
    (("123m456m789m11mEE", "E"), {"robbing_kong": True, "self_drawn": True}),
])
def test_examples_agree(parity, call):
    args, kw = call
    assert_same(parity, *args, **kw)


def test_an_iterator_of_melds_is_read_once_by_the_python_path(parity):
    def calls():
        return ("123m456m789m1m", "1m"), {"melds": (m for m in ["pon EEE"]), "ruleset": "public"}

    args, kw = calls()
    got = outcome(parity.compiled.score, *args, **kw)
    args, kw = calls()
    assert got == outcome(parity.reference.score, *args, **kw) and got[0] == "ok"


def test_meld_strings_read_again_and_past_the_front_table_bound(parity):
    # the front keeps meld strings it has read (at most 4096, then it starts over): every one of
    # 4200 distinct spellings of one pung, read twice, and other melds after the table was emptied
    # give what the Python path gives
    scorer = mj.Scorer("public")
    hand = np.zeros(34, np.uint8)
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9):   # 123m 456m 789m 11p; wins on 1p
        hand[t] += 1
    for k in range(4200):
        meld = " " * (k // 8) + "".join(c.upper() if k >> i & 1 else c for i, c in enumerate("pon")) + " EEE"
        first = assert_same(parity, hand, 9, melds=[meld], ruleset="public")
        assert first[0] == "ok"
        assert assert_same(parity, hand, 9, melds=[meld], ruleset="public") == first
        assert outcome(scorer.score, hand, 9, melds=[meld]) == first
    for meld in ("pon 111s", "kong 1111s", "ckong 1111s", "chi 123s", "chi 213s", "pon 1111s", "pon CC"):
        assert_same(parity, hand, 9, melds=[meld], ruleset="public")
        assert_same(parity, hand, 9, melds=[meld, meld], ruleset="public")


def test_score_is_the_front_with_the_python_signature_and_documentation():
    import inspect

    assert mj.score is scoring.score and mj.score.__wrapped__ is scoring._score_checked
    assert mj.score.__doc__ == scoring._score_checked.__doc__
    assert inspect.signature(mj.score) == inspect.signature(scoring._score_checked)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        mj.score("123m456m789m11mEE", "E", nope=1)


def test_the_light_score_keeps_its_behaviour():
    s = mj.score("123m456m789m11mEE", "E", ruleset="two-player", self_drawn=True)
    ref = scoring._score_checked("123m456m789m11mEE", "E", ruleset="two-player", self_drawn=True)
    assert isinstance(s, mj.Score) and type(s) is type(ref)
    assert "fans" not in s.__dict__            # the fan list is built on first access
    assert s.to_dict() == ref.to_dict() and repr(s) == repr(ref)
    assert "fans" in s.__dict__
    assert (s.total, s.non_flower_total, s.min_fan, s.meets_minimum, s.form) == (27, 27, 8, True, "standard")
    assert s.counts.tolist() == ref.counts.tolist() and not s.counts.flags.writeable
    with pytest.raises(ValueError):
        s.counts[0] = 1
    s.note = "kept"                                # instances keep a __dict__
    for other in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), copy.copy(s)):
        assert other.to_dict() == s.to_dict() and other.note == "kept"
    built = mj.Score("public", 9, 8, 8, 0, np.zeros(82, np.uint16))   # the old constructor
    assert (built.total, built.non_flower_total, built.fans) == (9, 8, [])


def test_scorer_surface():
    scorer = mj.Scorer("public", min_fan=4, replacement_bloom="last_tile")
    assert (scorer.ruleset, scorer.min_fan) == ("public", 4)
    assert repr(scorer) == "Scorer('public', min_fan=4)"
    again = pickle.loads(pickle.dumps(scorer))
    assert outcome(again.score, "123m456m789m11mEE", "E") == outcome(scorer.score, "123m456m789m11mEE", "E")
    assert mj.Scorer().ruleset == "two-player"
    with pytest.raises(mj.RulesetError):
        mj.Scorer("nope")
    with pytest.raises(mj.MahjongError, match="min_fan"):
        mj.Scorer("public", min_fan=-1)
    with pytest.raises(mj.MahjongError, match="replacement_bloom"):
        mj.Scorer("public", replacement_bloom="x")
    with pytest.raises(TypeError):
        scorer.score("123m456m789m11mEE", "E", ruleset="public")   # fixed at construction


def test_keywords_after_self_drawn_are_read_by_name():
    """score() and Scorer.score name few parameters and take the rest in **options (so a call pays
    nothing for the keywords it leaves out): every keyword still reads, their signatures still list
    each one, and a keyword neither knows is a TypeError naming score()."""
    import inspect

    hand, win = "123m456m789m11mEE", "E"
    every = {"last_tile": True, "last_of_kind": False, "flowers": "1f", "seat_wind": "S", "round_wind": "E",
             "ready_concealed": None, "robbing_kong": False}
    want = outcome(scoring._score_checked, hand, win, ruleset="public", **every)
    assert want[0] == "ok"
    assert outcome(mj.score, hand, win, ruleset="public", **every) == want
    assert outcome(mj.Scorer("public").score, hand, win, **every) == want
    for name, value in every.items():   # one keyword at a time, and one not plain (the Python path's error)
        one = {name: value}
        assert outcome(mj.score, hand, win, ruleset="public", **one) == outcome(
            scoring._score_checked, hand, win, ruleset="public", **one)
        assert outcome(mj.Scorer("public").score, hand, win, **one) == outcome(
            scoring._score_checked, hand, win, ruleset="public", **one)
        assert outcome(mj.score, hand, win, ruleset="public", **{name: 1.5})[0] == "err"
    options = {"min_fan": 4, "caishen_enabled": True, "replacement_bloom": "kongs_only"}
    assert outcome(mj.score, hand, win, ruleset="public", last_tile=True, **options) == outcome(
        mj.Scorer("public", **options).score, hand, win, last_tile=True)
    scorer_parameters = list(inspect.signature(mj.Scorer.score).parameters)
    assert scorer_parameters == ["self", "hand", "win_tile", "melds", *FLAG_NAMES[:7], "ready_concealed",
                                 *FLAG_NAMES[7:], "flowers", "seat_wind", "round_wind"]
    assert list(inspect.signature(mj.Scorer("public").score).parameters) == scorer_parameters[1:]
    for bad in ("nope", "ruleset", "min_fan"):   # the last two are the Scorer's own, fixed at construction
        with pytest.raises(TypeError, match=f"score\\(\\) got an unexpected keyword argument '{bad}'"):
            mj.Scorer("public").score(hand, win, **{bad: 1})


def test_scorer_docstring_examples_run():
    import doctest

    test = doctest.DocTestParser().get_doctest(mj.Scorer.__doc__, {}, "Scorer", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples and runner.summarize(verbose=False).failed == 0
