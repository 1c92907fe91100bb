"""Compiled fan evaluator (``mahjong_core._fan``) against the pure-Python reference.

The reference (``_ref.fan``, spec 4.2 by brute force) is the oracle: for every
input both must give the same total, non-flower total, form and count of every
fan - including the reference's readings of ambiguous points (account-once order,
D8 waits on kinds held four times, the 4.2 step 5 tie rule).  Both are called with
the same compiled-convention arguments (``fan_py.evaluate_codes``).

* the 11 worked cases of spec 4.4, the per-fan cases and the cross-checked
  ``public`` hands of ``tests/fan/test_ref_fan.py``;
* Hypothesis: thousands of random *winning* hands per ruleset (random groups +
  pair with declared chows, pungs, kongs and concealed kongs; seven pairs; the
  ``public`` special forms), random situational flags valid for the win method,
  flowers, winds and options;
* errors: same exception classes as the reference;
* ``evaluate_batch`` == ``evaluate`` row by row.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_core import _fan
from mahjong_core.families.mahjong._ref import fan as fan_py
from mahjong_core.errors import (
    FlagError,
    HandSizeError,
    MahjongError,
    NotWinningHandError,
    RulesetError,
    TileCountError,
)
from mahjong_core.families.mahjong.fan_tables import FAN_TABLES
from mahjong_core.families.mahjong.tiles import parse_tiles

from tests.fan import test_ref_fan as ref_cases

PARITY = "fan"   # the behaviour the shared ``parity`` fixture (tests/conftest.py) gives this suite

RULESET_CODE = {"two-player": 0, "two-player-bamboo": 1, "public": 2}
FLAG_BITS = {name: 1 << bit for bit, name in enumerate(fan_py._FLAG_NAMES)}
MELD_CODE = {"chi": 0, "pon": 1, "kong": 2, "ckong": 3}
KINDS = {0: list(range(0, 9)) + list(range(27, 34)),
         1: list(range(18, 27)) + list(range(27, 34)),
         2: list(range(34))}
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


# ---------------------------------------------------------------------------
# Encoding and the comparison
# ---------------------------------------------------------------------------


def encode(ruleset, hand, win, meld_text="", **kw):
    """Spec-notation case (as in test_ref_fan) -> compiled-convention arguments."""
    counts = np.zeros(34, dtype=np.uint8)
    for t in parse_tiles(hand):
        counts[t] += 1
    rows = []
    for item in meld_text.split():
        kind, tiles = item.split(":")
        rows.append((MELD_CODE[kind], min(parse_tiles(tiles))))
    melds = np.array(rows, dtype=np.uint8).reshape(-1, 2)
    flags = flowers = options = 0
    seat = rnd_wind = 27
    for key, value in kw.items():
        if key in FLAG_BITS:
            flags |= FLAG_BITS[key] if value else 0
        elif key == "flowers":
            for f in value:
                flowers |= 1 << (f - 34)
        elif key == "seat_wind":
            seat = value
        elif key == "round_wind":
            rnd_wind = value
        elif key == "options":
            options = _options(value)
        else:  # pragma: no cover - a new keyword in the case tables
            raise KeyError(key)
    w = -1 if win is None else parse_tiles(win)[0]
    return (RULESET_CODE[ruleset], counts, w, melds, flags, flowers, seat, rnd_wind, 8, options)


def _options(opts: dict) -> int:
    bits = 0
    if opts.get("caishen_enabled"):
        bits |= _fan.OPT_CAISHEN_ENABLED
    if opts.get("caishen_used_as_wild"):
        bits |= _fan.OPT_CAISHEN_USED_AS_WILD
    if opts.get("literal_first_turn_exclusions"):
        bits |= _fan.OPT_LITERAL_FIRST_TURN
    bloom = opts.get("replacement_bloom", "any")
    bits |= {"any": 0, "last_tile": _fan.OPT_BLOOM_LAST_TILE, "kongs_only": _fan.OPT_BLOOM_KONGS_ONLY}[bloom]
    return bits


def run_both(parity, args):
    """(compiled result, counts) and (reference result, counts), or the exception classes: one
    call of ``evaluate`` on both implementations of the ``parity`` fixture."""
    nf = _fan.fan_count(args[0])
    out_c = np.zeros(nf, dtype=np.uint16)
    out_r = np.zeros(nf, dtype=np.uint16)
    try:
        rc = parity.compiled.evaluate(*args, out_c)
    except MahjongError as e:
        rc = type(e)
    try:
        rr = parity.reference.evaluate(*args, out_r)
    except MahjongError as e:
        rr = type(e)
    return rc, out_c, rr, out_r


def assert_same(parity, args):
    rc, out_c, rr, out_r = run_both(parity, args)
    ids = _fan.fan_ids(args[0])
    got = {ids[i]: int(out_c[i]) for i in np.nonzero(out_c)[0]}
    want = {ids[i]: int(out_r[i]) for i in np.nonzero(out_r)[0]}
    assert rc == rr, (args, got, want)
    assert got == want, (args, rc)
    return rc, got


# ---------------------------------------------------------------------------
# Module surface
# ---------------------------------------------------------------------------


def test_fan_counts_and_ids_follow_the_tables():
    for name, code in RULESET_CODE.items():
        assert _fan.fan_count(code) == len(FAN_TABLES[name])
        assert _fan.fan_ids(code) == tuple(f.id for f in FAN_TABLES[name])
    assert (_fan.fan_count(0), _fan.fan_count(1), _fan.fan_count(2), _fan.fan_count(3)) == (59, 62, 82, 82)
    with pytest.raises(RulesetError):
        _fan.fan_count(4)


def test_constants():
    assert [_fan.FLAG_SELF_DRAWN, _fan.FLAG_LAST_TILE, _fan.FLAG_KONG_REPLACEMENT,
            _fan.FLAG_FLOWER_REPLACEMENT, _fan.FLAG_ROBBING_KONG, _fan.FLAG_LAST_OF_KIND,
            _fan.FLAG_READY_DECLARED, _fan.FLAG_READY_CONCEALED, _fan.FLAG_HEAVENLY,
            _fan.FLAG_EARTHLY, _fan.FLAG_HUMANLY, _fan.FLAG_HEAVENLY_READY] == [1 << i for i in range(12)]
    for name, bit in FLAG_BITS.items():
        assert getattr(_fan, "FLAG_" + name.upper().replace("ROBBING_KONG", "ROBBING_KONG")) == bit
    assert (_fan.OPT_CAISHEN_ENABLED, _fan.OPT_CAISHEN_USED_AS_WILD, _fan.OPT_LITERAL_FIRST_TURN,
            _fan.OPT_BLOOM_LAST_TILE, _fan.OPT_BLOOM_KONGS_ONLY) == (1, 2, 4, 8, 16)
    assert (_fan.MELD_CHI, _fan.MELD_PON, _fan.MELD_KONG, _fan.MELD_CKONG, _fan.MELD_NONE) == (0, 1, 2, 3, 255)


# ---------------------------------------------------------------------------
# The case tables of the reference's own tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "hand", "win", "meld_text", "flags", "alternatives", "total"),
                         ref_cases.REGRESSION_44)
def test_worked_regression_cases(parity, ruleset, hand, win, meld_text, flags, alternatives, total):
    (t, nft, form), got = assert_same(parity, encode(ruleset, hand, win, meld_text, **flags))
    assert t == nft == total
    assert got in alternatives


@pytest.mark.parametrize(("fan", "ruleset", "hand", "win", "meld_text", "count", "absent", "flags"),
                         ref_cases.FAN_CASES)
def test_fan_cases(parity, fan, ruleset, hand, win, meld_text, count, absent, flags):
    rc, got = assert_same(parity, encode(ruleset, hand, win, meld_text, **flags))
    assert got.get(fan, 0) == count


@pytest.mark.parametrize(("hand", "win", "meld_text", "flags", "fans", "total"),
                         ref_cases.CROSS_CHECKED_PUBLIC)
def test_cross_checked_public_hands(parity, hand, win, meld_text, flags, fans, total):
    (t, nft, form), got = assert_same(parity, encode("public", hand, win, meld_text, **flags))
    assert got == fans and t == total


@pytest.mark.parametrize(
    ("ruleset", "hand", "win", "meld_text", "kw", "form"),
    [
        ("two-player", "123m456m789mEEE9m", "9m", "", {}, 0),
        ("two-player", "1122m55m99mEESSC", "C", "", {}, 1),
        ("public", "19m19p19sESWNCFP", "1m", "", {}, 2),
        ("public", "147m258p369sESWN", "C", "", {}, 3),
        ("public", "147m258p369s456m5p", "5p", "", {}, 4),
        ("public", "147m258p369s5p", "5p", "pon:CCC", {}, 4),
        ("public", "147m258p369s5p", "5p", "kong:CCCC", dict(self_drawn=True), 4),
        ("public", "147m258p369sCCC5p", "5p", "", dict(self_drawn=True), 4),
        ("public", "147m258p369s12m55p", "3m", "", {}, 4),
        ("public", "147m258p369sESWNC", None, "", dict(), None),   # no 天胡 in public: error
    ],
)
def test_forms_and_special_shapes(parity, ruleset, hand, win, meld_text, kw, form):
    args = encode(ruleset, hand, win, meld_text, **kw)
    rc, _ = assert_same(parity, args)
    if form is None:
        assert rc is HandSizeError
    else:
        assert rc[2] == form


@pytest.mark.parametrize(
    ("ruleset", "hand", "win", "meld_text", "kw"),
    [
        # D8: a kind held four times is still a wait (no single wait on 3s)
        ("public", "789m3456s", "3s", "pon:666s pon:888m", {}),
        ("public", "789m3456s", "6s", "pon:666s pon:888m", {}),
        # concealed 1111 + a fifth by shape: 11112 + win 2 / 3
        ("public", "1111m234p567s99s2m", "3m", "", {}),
        ("public", "11112m", "3m", "chi:234p chi:567s pon:999s", {}),
        # knitted form with four copies of a tile outside the pattern
        ("public", "147m258p369sEEE", "E", "", dict(self_drawn=True)),
        # heavenly hands, nine gates by removing any tile (OP-24)
        ("two-player", "11123455678999m", None, "", dict(heavenly=True)),
        ("two-player-bamboo", "11112345678999s", None, "", dict(heavenly=True)),
        ("two-player", "123456789mEEE9m", "9m", "", dict(heavenly=True)),
        # option bits
        ("public", "123m456m789m99pEE", "E", "", dict(options={"caishen_enabled": True})),
        ("public", "123m456m789m99pEE", "E", "", dict(options={"caishen_enabled": True,
                                                                  "caishen_used_as_wild": True})),
        ("two-player", "123456789mEEE99m", None, "", dict(heavenly=True,
                                                           options={"literal_first_turn_exclusions": True})),
        ("two-player-bamboo", "123456789sEEE9s", "9s", "", dict(self_drawn=True, flower_replacement=True,
                                                                 options={"replacement_bloom": "kongs_only"})),
        ("two-player-bamboo", "123456789sEEE9s", "9s", "", dict(self_drawn=True, flower_replacement=True,
                                                                 last_tile=True,
                                                                 options={"replacement_bloom": "last_tile"})),
        # flowers: 八仙过海 keeps 花牌 (OP-31); flowers never count toward the chicken hand
        ("two-player-bamboo", "123456789sEEE9s", "9s", "", dict(flowers=list(range(34, 42)))),
        ("public", "123m456p789s11pEE", "E", "chi:234s", dict(flowers=[34, 38])),
        ("public", "234m567p11s456s", "1s", "chi:345p", dict(flowers=[35])),
        # prevalent + seat wind on the same pung
        ("public", "EEE123m456p789s1p", "1p", "", dict(seat_wind=27, round_wind=27)),
    ],
)
def test_corner_cases(parity, ruleset, hand, win, meld_text, kw):
    assert_same(parity, encode(ruleset, hand, win, meld_text, **kw))


# ---------------------------------------------------------------------------
# Random winning hands (Hypothesis drives the random source)
# ---------------------------------------------------------------------------


def _pool(rs, rnd):
    """Kinds to draw groups from: biased towards one suit / same ranks / honors so that
    the combination fans, flushes and terminal hands actually occur."""
    kinds = KINDS[rs]
    r = rnd.random()
    if r < 0.3:
        return kinds
    if r < 0.55 and rs == 2:
        s = rnd.randrange(3)
        return list(range(9 * s, 9 * s + 9)) + list(range(27, 34))
    if r < 0.7:
        nums = [k for k in kinds if k < 27]
        return rnd.sample(nums, rnd.randint(3, 6)) + rnd.sample(range(27, 34), rnd.randint(0, 2))
    if r < 0.85 and rs == 2:
        base = rnd.randrange(7)
        return [s * 9 + base + d for s in range(3) for d in range(3)] + rnd.sample(range(27, 34), 1)
    return rnd.sample(range(27, 34), rnd.randint(2, 7)) + rnd.sample([k for k in kinds if k < 27], 3)


def _standard(rs, rnd):
    while True:
        pool = _pool(rs, rnd)
        cnt = [0] * 34
        groups = []
        for _g in range(4):
            for _t in range(20):
                if rnd.random() < 0.5:
                    starts = [k for k in pool if k < 27 and k % 9 <= 6]
                    if not starts:
                        continue
                    k = rnd.choice(starts)
                    if all(cnt[k + d] < 4 for d in range(3)):
                        for d in range(3):
                            cnt[k + d] += 1
                        groups.append(("chow", k))
                        break
                else:
                    k = rnd.choice(pool)
                    if cnt[k] <= 1:
                        cnt[k] += 3
                        groups.append(("pung", k))
                        break
            else:
                break
        pairs = [k for k in pool if cnt[k] <= 2]
        if len(groups) == 4 and pairs:
            p = rnd.choice(pairs)
            cnt[p] += 2
            return groups, cnt


def random_hand(rs, rnd, form=None):
    """Compiled-convention arguments of a random winning hand of ruleset code rs."""
    form = rnd.random() if form is None else form
    melds = []
    if rs == 2 and form < 0.04:                       # 十三幺
        conc = [0] * 34
        for k in ORPHANS:
            conc[k] += 1
        conc[rnd.choice(ORPHANS)] += 1
    elif rs == 2 and form < 0.08:                     # 全不靠 / 七星不靠
        a, b, c = rnd.sample(range(3), 3)
        pat = [a * 9 + r for r in (0, 3, 6)] + [b * 9 + r for r in (1, 4, 7)] + [c * 9 + r for r in (2, 5, 8)]
        conc = [0] * 34
        for k in rnd.sample(pat + list(range(27, 34)), 14):
            conc[k] += 1
    elif rs == 2 and form < 0.14:                     # knitted straight (group may be declared)
        a, b, c = rnd.sample(range(3), 3)
        pat = [a * 9 + r for r in (0, 3, 6)] + [b * 9 + r for r in (1, 4, 7)] + [c * 9 + r for r in (2, 5, 8)]
        while True:
            cnt = [0] * 34
            for k in pat:
                cnt[k] += 1
            if rnd.random() < 0.5:
                k = rnd.choice([k for k in range(27) if k % 9 <= 6])
                g = ("chow", k)
                for d in range(3):
                    cnt[k + d] += 1
            else:
                k = rnd.randrange(34)
                g = ("pung", k)
                cnt[k] += 3
            cnt[rnd.randrange(34)] += 2
            if max(cnt) <= 4:
                break
        if rnd.random() < 0.3:
            melds.append(g)
            if g[0] == "chow":
                for d in range(3):
                    cnt[g[1] + d] -= 1
            else:
                cnt[g[1]] -= 3
        conc = cnt
    elif form < 0.28:                                 # seven pairs
        kinds = _pool(rs, rnd)
        if len(kinds) < 4:
            kinds = KINDS[rs]
        conc = [0] * 34
        n = 0
        while n < 7:
            k = rnd.choice(kinds)
            if conc[k] <= 2:
                conc[k] += 2
                n += 1
    else:                                             # standard form, 0-4 declared groups
        groups, cnt = _standard(rs, rnd)
        rnd.shuffle(groups)
        melds = groups[: rnd.choice((0, 0, 1, 1, 2, 3, 4))]
        conc = list(cnt)
        for shape, k in melds:
            if shape == "chow":
                for d in range(3):
                    conc[k + d] -= 1
            else:
                conc[k] -= 3
    total = list(conc)
    for shape, k in melds:
        if shape == "chow":
            for d in range(3):
                total[k + d] += 1
        else:
            total[k] += 3
    rows = []
    for shape, k in melds:
        if shape == "chow":
            rows.append((_fan.MELD_CHI, k))
        else:
            t = rnd.choice((1, 1, 2, 3)) if total[k] == 3 else 1   # a kong needs the fourth copy
            total[k] += t != 1
            rows.append((t, k))
    m = np.array(rows, dtype=np.uint8).reshape(-1, 2)
    tiles = [k for k in range(34) for _ in range(conc[k])]
    flags = 0
    if rs != 2 and rnd.random() < 0.05:
        flags |= _fan.FLAG_HEAVENLY
        win = -1
        if rnd.random() < 0.3:
            win = rnd.choice(tiles)     # 天胡 with a passed last tile: part of the 14
            conc[win] -= 1
    else:
        win = rnd.choice(tiles)
        conc[win] -= 1
        if rnd.random() < 0.5:
            flags |= _fan.FLAG_SELF_DRAWN
            if rnd.random() < 0.15:
                flags |= _fan.FLAG_KONG_REPLACEMENT
            if rnd.random() < 0.15:
                flags |= _fan.FLAG_FLOWER_REPLACEMENT
            if rs != 2 and rnd.random() < 0.05:
                flags |= _fan.FLAG_EARTHLY
        else:
            if rnd.random() < 0.1:
                flags |= _fan.FLAG_ROBBING_KONG
            if rs != 2 and rnd.random() < 0.05:
                flags |= _fan.FLAG_HUMANLY
        if rnd.random() < 0.1:
            flags |= _fan.FLAG_LAST_TILE
        if rnd.random() < 0.1:
            flags |= _fan.FLAG_LAST_OF_KIND
    if rs != 2:
        if rnd.random() < 0.1:
            flags |= _fan.FLAG_READY_DECLARED
        if rnd.random() < 0.1:
            flags |= _fan.FLAG_READY_CONCEALED
        if rnd.random() < 0.05:
            flags |= _fan.FLAG_HEAVENLY_READY
    r = rnd.random()
    flowers = rnd.getrandbits(8) if r < 0.3 else (0xFF if r < 0.35 else 0)
    options = rnd.choice((0, 0, 0, 1, 3, 4, 8, 16, 4 | 8, 1 | 16))
    return (rs, np.array(conc, dtype=np.uint8), win, m, flags, flowers,
            rnd.randint(27, 30), rnd.randint(27, 30), 8, options)


SETTINGS = settings(max_examples=5000, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow])


SEEDS = st.integers(min_value=0, max_value=2**63)    # Hypothesis picks the seed of the hand builder


@pytest.mark.parametrize("rs", [0, 1, 2])
@SETTINGS
@given(seed=SEEDS)
def test_random_winning_hands(parity, rs, seed):
    args = random_hand(rs, random.Random(seed))
    rc, _ = assert_same(parity, args)
    assert not isinstance(rc, type), rc      # the generator only makes winning hands


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, form=st.floats(0.0, 0.14))
def test_random_public_special_forms(parity, seed, form):
    rc, _ = assert_same(parity, random_hand(2, random.Random(seed), form=form))
    assert not isinstance(rc, type), rc


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rs=st.integers(0, 2), seed=SEEDS)
def test_random_near_misses_raise_the_same_errors(parity, rs, seed):
    """Winning hands with one tile changed (usually not winning, sometimes a fifth copy
    or a tile outside the ruleset): same outcome or same exception class."""
    rnd = random.Random(seed)
    args = list(random_hand(rs, rnd))
    conc = args[1].copy()
    held = [k for k in range(34) if conc[k]]
    if held:
        conc[rnd.choice(held)] -= 1
        conc[rnd.randrange(34)] += 1
    args[1] = conc
    assert_same(parity, tuple(args))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "error"),
    [
        (("two-player", "123m456m789mEEE", "9m", "", {}), HandSizeError),
        (("two-player", "1111m456m789mEE1m", "E", "", {}), TileCountError),
        (("two-player", "456m789mEE1m", "E", "pon:111m", {}), HandSizeError),
        (("two-player", "456m789mEE11m", "E", "kong:1111m", {}), TileCountError),   # fifth copy across melds
        (("public", "11m456p789sEE", "1m", "pon:111m", {}), TileCountError),
        (("public", "1m456p789s", "1m", "pon:111m chi:123m", {}), TileCountError),
        (("two-player", "123m456m789mEES9m", "9m", "", {}), NotWinningHandError),
        (("public", "123m456p789sEES9s", "9s", "", {}), NotWinningHandError),
        (("two-player", "123p456m789mEEE9m", "9m", "", {}), RulesetError),
        (("two-player-bamboo", "123m456s789sEEE9s", "9s", "", {}), RulesetError),
        (("two-player", "456m789mEEE9m", "9m", "chi:123p", {}), RulesetError),
        (("public", "123m456p789sEEE9s", "9s", "", dict(heavenly_ready=True)), RulesetError),
        (("public", "123m456p789sEEE9s", "9s", "", dict(ready_declared=True)), RulesetError),
        (("two-player", "123m456m789mEEE9m", "9m", "", dict(robbing_kong=True, self_drawn=True)), MahjongError),
        (("two-player", "123m456m789mEEE9m", "9m", "", dict(kong_replacement=True)), MahjongError),
        (("two-player", "123m456m789mEEE9m", "9m", "", dict(humanly=True, self_drawn=True)), MahjongError),
        (("two-player", "123m456m789mEEE9m", None, "", {}), HandSizeError),
        (("public", "123m456m789m9m", "9m", "chi:123p chi:123p chi:123s chi:123s chi:123m", {}), HandSizeError),
    ],
)
def test_errors_match_the_reference(parity, case, error):
    ruleset, hand, win, meld_text, kw = case
    args = encode(ruleset, hand, win, meld_text, **kw)
    rc, _, rr, _ = run_both(parity, args)
    assert rc is rr is error


def test_compiled_only_argument_errors():
    base = list(encode("public", "123m456p789sEEE9s", "9s"))
    out = np.zeros(82, dtype=np.uint16)
    bad_meld = np.array([[7, 0]], dtype=np.uint8)
    with pytest.raises(MahjongError):
        _fan.evaluate(*base[:3], bad_meld, *base[4:], out)
    chi_9m = np.array([[0, 8]], dtype=np.uint8)
    args = encode("public", "456p789sEEE9s", "9s")
    with pytest.raises(MahjongError):
        _fan.evaluate(*args[:3], chi_9m, *args[4:], out)
    for flags in (1 << 12, 1 << 31):
        with pytest.raises(MahjongError):
            _fan.evaluate(*base[:4], flags, *base[5:], out)
    with pytest.raises(MahjongError):   # both bloom options
        _fan.evaluate(*base[:9], _fan.OPT_BLOOM_LAST_TILE | _fan.OPT_BLOOM_KONGS_ONLY, out)
    with pytest.raises(RulesetError):   # flower bit 8 = tile 42
        _fan.evaluate(*base[:5], 1 << 8, *base[6:], out)
    with pytest.raises(MahjongError):   # seat wind not a wind
        _fan.evaluate(*base[:6], 31, *base[7:], out)
    with pytest.raises(RulesetError):
        _fan.evaluate(5, *base[1:], out)
    from mahjong_core.errors import ArrayShapeError
    with pytest.raises(ArrayShapeError):
        _fan.evaluate(*base, np.zeros(81, dtype=np.uint16))
    with pytest.raises(ArrayShapeError):
        _fan.evaluate(*base, np.zeros(82, dtype=np.int32))
    with pytest.raises(ArrayShapeError):
        _fan.evaluate(base[0], np.zeros(33, dtype=np.uint8), *base[2:], out)
    with pytest.raises(ArrayShapeError):
        _fan.evaluate(*base[:3], np.zeros((1, 3), dtype=np.uint8), *base[4:], out)


def test_meld_none_rows_are_skipped():
    args = list(encode("public", "456p789sEEE9s", "9s", "chi:123m"))
    out1 = np.zeros(82, dtype=np.uint16)
    out2 = np.zeros(82, dtype=np.uint16)
    r1 = _fan.evaluate(*args, out1)
    args[3] = np.array([[255, 0], [0, 0], [255, 7]], dtype=np.uint8)
    assert _fan.evaluate(*args, out2) == r1
    assert (out1 == out2).all()


# ---------------------------------------------------------------------------
# Batch == scalar
# ---------------------------------------------------------------------------


def _batch_arrays(rows):
    n = len(rows)
    conc = np.stack([r[1] for r in rows])
    wins = np.array([r[2] for r in rows], dtype=np.int16)
    melds = np.full((n, 4, 2), _fan.MELD_NONE, dtype=np.uint8)
    for i, r in enumerate(rows):
        melds[i, : len(r[3])] = r[3]
    flags = np.array([r[4] for r in rows], dtype=np.uint32)
    flowers = np.array([r[5] for r in rows], dtype=np.uint32)
    seats = np.array([r[6] for r in rows], dtype=np.uint8)
    rounds = np.array([r[7] for r in rows], dtype=np.uint8)
    return conc, wins, melds, flags, flowers, seats, rounds


@pytest.mark.parametrize("rs", [0, 1, 2])
def test_batch_equals_scalar(rs):
    rnd = random.Random(1000 + rs)
    rows = []
    while len(rows) < 300:
        a = random_hand(rs, rnd)
        rows.append(a[:9] + (0,))       # one options value per batch call
    totals, nft, counts = _fan.evaluate_batch(rs, *_batch_arrays(rows), 8, 0)
    assert totals.dtype == np.int32 and nft.dtype == np.int32 and counts.dtype == np.uint16
    assert counts.shape == (300, _fan.fan_count(rs))
    out = np.zeros(_fan.fan_count(rs), dtype=np.uint16)
    for i, a in enumerate(rows):
        t, n, _form = _fan.evaluate(*a, out)
        assert (totals[i], nft[i]) == (t, n)
        assert (counts[i] == out).all()


def test_batch_errors_name_the_row():
    rnd = random.Random(7)
    rows = [random_hand(2, rnd)[:9] + (0,) for _ in range(5)]
    arrays = list(_batch_arrays(rows))
    arrays[0] = arrays[0].copy()
    arrays[0][3] = 0
    arrays[0][3, :14] = 1            # row 3: 14 distinct tiles + win: not a winning hand
    arrays[0][3, 0] = 0
    arrays[1] = arrays[1].copy()
    arrays[1][3] = 20
    arrays[2] = arrays[2].copy()
    arrays[2][3] = _fan.MELD_NONE
    with pytest.raises(NotWinningHandError, match="^row 3: "):
        _fan.evaluate_batch(2, *arrays, 8, 0)
    arrays[0][3, 0] = 5
    with pytest.raises(HandSizeError, match="^row 3: "):
        _fan.evaluate_batch(2, *arrays, 8, 0)
    empty = _fan.evaluate_batch(2, *(a[:0] for a in _batch_arrays(rows)), 8, 0)
    assert [e.shape for e in empty] == [(0,), (0,), (0, 82)]


def test_ndarray_fast_path_and_buffer_protocol_agree():
    """_fan.evaluate reads exact C-contiguous ndarrays through the NumPy C API and everything
    else through the buffer protocol: both give the same result, and bad arrays get the errors."""
    import numpy as np

    import mahjong_core as mj
    from mahjong_core import _fan
    from mahjong_core.errors import ArrayShapeError

    code = mj.get_ruleset("two-player").code
    hand = mj.parse_hand("PPP999m5m")
    melds = np.array([[1, 31], [1, 32]], np.uint8)
    args = (code, hand, 4, melds, 1, 0, 27, 27, 8, 0)
    out = np.zeros(_fan.fan_count(code), np.uint16)
    want = _fan.evaluate(*args, out)
    assert want[0] == 105
    for conc, mel, dst in (
        (bytearray(hand.tobytes()), melds, np.zeros_like(out)),
        (memoryview(hand.tobytes()), memoryview(melds), memoryview(bytearray(out.nbytes)).cast("H")),
        (np.repeat(hand, 2)[::2].copy(), np.asfortranarray(melds).copy(order="C"), np.zeros_like(out)),
    ):
        got = _fan.evaluate(code, conc, 4, mel, 1, 0, 27, 27, 8, 0, dst)
        assert got == want
        assert np.frombuffer(bytes(dst), np.uint16).tolist() == out.tolist()
    with pytest.raises(ArrayShapeError, match="concealed"):
        _fan.evaluate(code, hand.astype(np.int8), 4, melds, 1, 0, 27, 27, 8, 0, np.zeros_like(out))
    with pytest.raises(ArrayShapeError, match="concealed"):
        _fan.evaluate(code, np.repeat(hand, 2)[::2], 4, melds, 1, 0, 27, 27, 8, 0, np.zeros_like(out))
    with pytest.raises(ArrayShapeError, match="melds"):
        _fan.evaluate(code, hand, 4, melds.T, 1, 0, 27, 27, 8, 0, np.zeros_like(out))
    ro = np.zeros_like(out)
    ro.flags.writeable = False
    with pytest.raises(ArrayShapeError, match="out_counts"):
        _fan.evaluate(code, hand, 4, melds, 1, 0, 27, 27, 8, 0, ro)
    with pytest.raises(ArrayShapeError, match="out_counts"):
        _fan.evaluate(code, hand, 4, melds, 1, 0, 27, 27, 8, 0, np.zeros(3, np.uint16))


# ---------------------------------------------------------------------------
# OPT_CHECK_FLAGS (the public API's flag checks): the same refusals as the reference's check_flags
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rs", [0, 1, 2])
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_flags_checked_alike(parity, rs, seed):
    """The random flags of ``random_hand`` often contradict each other or the hand; with the check
    on, compiled and reference refuse exactly the same hands with the same class (FlagError), and
    score the others alike."""
    args = list(random_hand(rs, random.Random(seed)))
    args[9] |= _fan.OPT_CHECK_FLAGS
    rc, _ = assert_same(parity, tuple(args))
    unchecked = list(args)
    unchecked[9] &= ~_fan.OPT_CHECK_FLAGS
    rc0, _, _, _ = run_both(parity, tuple(unchecked))
    # the check only refuses (FlagError) or leaves the evaluation as it was
    assert rc == rc0 or rc is FlagError, (args, rc, rc0)


def test_check_flags_option_turns_the_old_d7_errors_into_flag_errors(parity):
    args = list(encode("two-player", "123m456m789mEEE9m", "9m", "", robbing_kong=True, self_drawn=True))
    rc, _, rr, _ = run_both(parity, tuple(args))
    assert rc is rr is MahjongError
    args[9] |= _fan.OPT_CHECK_FLAGS
    rc, _, rr, _ = run_both(parity, tuple(args))
    assert rc is rr is FlagError


# ---------------------------------------------------------------------------
# Three declared groups: the compiled kernel reads the five concealed tiles directly
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("self_drawn", [False, True])
def test_every_five_tiles_beside_three_declared_groups(parity, self_drawn):
    """Every 5 tiles of 1m-4m, 1p and E (pung + pair, chow + a pair apart, 1 + 3 + 1 read as chow +
    pair, 2 + 2 + 1 and the other misses), each held kind the winning tile, beside three declared
    groups: the kernel's direct reading of three declared groups against the reference."""
    from itertools import combinations_with_replacement

    kinds = "1m 2m 3m 4m 1p E".split()
    seen = wins = 0
    for five in combinations_with_replacement(kinds, 5):
        if max(five.count(k) for k in kinds) > 4:
            continue
        for win in sorted(set(five)):
            rest = list(five)
            rest.remove(win)
            hand = "".join(rest)
            args = encode("public", hand, win, "pon:999s chi:789p pon:WWW", self_drawn=self_drawn)
            rc, _ = assert_same(parity, args)
            seen += 1
            wins += not isinstance(rc, type)     # a result, not an exception class
    assert seen > 600 and wins > 100
