"""Public hand API: known hands per form, errors, batch = scalar, invariants."""

from __future__ import annotations

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import tiles as T


def t(s: str) -> list[int]:
    return T.parse_tiles(s)


# ---------------------------------------------------------------- win check
@pytest.mark.parametrize(
    "hand, ruleset, expected",
    [
        ("11123456789999m", "two-player", True),           # nine gates + 9m
        ("123m456m789mEEECC", "two-player", True),
        ("EEESSSWWWNNNCC", "two-player", True),             # all honors
        ("11m", "two-player", True),                         # 4 groups declared, pair left
        ("11122m", "two-player", True),                      # 111 + 22
        ("12m", "two-player", False),
        ("1122m3344m5566m77m", "two-player", True),          # seven pairs (also 123 123 ... standard)
        ("1111m33m55m77mEEWW", "two-player", True),          # seven pairs with a quad
        ("1111m33m55m77mEEW", "two-player", None),           # 13 tiles: size error
        ("123s456s789sEEECC", "two-player-bamboo", True),
        ("19m19p19sESWNCFPP", "public", True),              # thirteen orphans
        ("19m19p19sESWNCFPP", "two-player", None),           # p/s not played: ruleset error
        ("147m258p369sESWNC", "public", True),              # 全不靠: 14 distinct knitted + honors
        ("147m258p369sESWNCF", "public", None),              # 15 tiles
        ("147m258p369sESWNF", "public", True),
        ("147m258p369sESWNF", "two-player", None),           # p/s tiles
        ("147m258p369sESWWF", "public", False),             # a duplicate breaks 全不靠
        ("147m25p36sESWNCFP", "public", True),              # 七星不靠: all 7 honors + 7 knitted
        ("147m25p36sESWNCFP", "two-player", None),
        ("147m258p369s123pEE", "public", True),             # knitted straight + chow + pair
        ("147m258p369sEE", "public", True),                  # knitted straight, one group declared
        ("147m258p369s12pEE", "public", None),               # 13 tiles
        ("147m258p369s124pEE", "public", False),
    ],
)
def test_is_win_known(hand, ruleset, expected):
    if expected is None:
        with pytest.raises(mj.MahjongError):
            mj.is_win(hand, ruleset=ruleset)
        return
    if T.parse_hand(hand).sum() % 3 != 2:
        pytest.fail(f"test hand {hand} has the wrong size")
    assert mj.is_win(hand, ruleset=ruleset) is expected


# ---------------------------------------------------------------- waits
@pytest.mark.parametrize(
    "hand, ruleset, expected",
    [
        ("1112345678999m", "two-player", "123456789m"),
        ("1m", "two-player", "1m"),
        ("1111m", "two-player", ""),                          # single wait on a 5th copy: none
        ("1111m234p567p789s", "public", ""),                  # 111+1 or 11+11 would need a fifth 1m
        ("1111m456m789mEEE", "two-player", ""),
        ("19m19p19sESWNCFP", "public", "19m19p19sESWNCFP"),  # 13-sided
        ("19m19p19sESWNCFF", "public", "P"),
        ("19m19p19sESWNCFP", "two-player", None),
        ("1122m3344m5566m7m", "two-player", "147m"),         # 7 pairs 7m; 11+123 234 456 567 -> 1m; 4m
        ("147m258p369sESWN", "public", "CFP"),              # 全不靠: the three missing honors
        ("147m258p369sEEE", "public", None),                  # 12 tiles
        ("147m258p369s11pEE", "public", "1pE"),              # knitted straight + 11p + EE: shanpon
        ("EESS", "two-player", "ES"),
        ("123m", "two-player", None),
    ],
)
def test_waits_known(hand, ruleset, expected):
    if expected is None:
        with pytest.raises(mj.MahjongError):
            mj.waits(hand, ruleset=ruleset)
        return
    got = mj.waits(hand, ruleset=ruleset)
    want = sorted(t(expected))
    # every listed wait really completes the hand, and no other tile does
    counts = T.parse_hand(hand)
    brute = []
    for k in mj.get_ruleset(ruleset).kinds:
        if counts[k] < 4:
            c = counts.copy()
            c[k] += 1
            if mj.is_win(c, ruleset=ruleset):
                brute.append(k)
    assert got == brute
    assert got == want


def test_quad_is_never_a_wait():
    # 1112345678999m + 1m: waits exclude 1m once four are held
    hand = T.parse_hand("1111234567899m")
    got = mj.waits(hand)
    assert 0 not in got and got  # still ready on other tiles
    assert all(hand[w] < 4 for w in got)


def test_live_waits():
    assert mj.live_waits("1112345678999m", "5m5m9m") == {
        0: 1, 1: 3, 2: 3, 3: 3, 4: 1, 5: 3, 6: 3, 7: 3, 8: 0,
    }
    with pytest.raises(mj.TileCountError, match="1m"):
        mj.live_waits("1112345678999m", "11m")


# ---------------------------------------------------------------- shanten
@pytest.mark.parametrize(
    "hand, ruleset, expected",
    [
        ("1112345678999m", "two-player", 0),
        ("11123456789999m", "two-player", -1),
        ("123m456m789mEESS", "two-player", 0),
        ("1m", "two-player", 0),
        ("12m", "two-player", 0),                            # 2 tiles: 3k+2, needs pair -> 1 exchange
        ("19m19p19sESWNCFP", "public", 0),
        ("19m19p19sESWNCFF", "public", 0),
        ("19m19p19sESWNCCF", "public", 0),
        ("147m258p369sESWN", "public", 0),
        ("147m258p369sESWNC", "public", -1),
    ],
)
def test_shanten_known(hand, ruleset, expected):
    assert mj.shanten(hand, ruleset=ruleset) == expected


def test_form_shanten_rejects_forms_outside_ruleset():
    with pytest.raises(mj.MahjongError, match="does not exist"):
        mj.form_shanten("19m19p19sESWNCFP", "thirteen_orphans", ruleset="two-player")
    with pytest.raises(mj.MahjongError, match="unknown form"):
        mj.form_shanten("1m", "dragon")
    with pytest.raises(mj.HandSizeError):
        mj.form_shanten("1m", "seven_pairs")
    # three pairs and seven singles: 6 - 3 pairs
    assert mj.form_shanten("159mESWNCFP159m", "seven_pairs", ruleset="two-player") == 3
    assert mj.form_shanten("1199m1199p1199sEE", "seven_pairs", ruleset="public") == -1
    assert mj.form_shanten("19m19p19sESWNCFP", "thirteen_orphans", ruleset="public") == 0
    assert mj.form_shanten("147m258p369sESWN", "honors_knitted", ruleset="public") == 0
    assert mj.form_shanten("147m258p369s11pEE", "knitted_straight", ruleset="public") == 0
    assert mj.form_is_win("147m258p369s123pEE", "knitted_straight", ruleset="public")
    assert not mj.form_is_win("147m258p369s123pEE", "standard", ruleset="public")


# ---------------------------------------------------------------- inputs and errors
def test_accepts_counts_in_many_types():
    counts = T.parse_hand("1112345678999m")
    want = mj.waits(counts)
    assert mj.waits(counts.astype(np.int64)) == want
    assert mj.waits(list(counts)) == want
    assert mj.waits(tuple(int(x) for x in counts)) == want
    assert mj.waits(np.asfortranarray(counts)) == want
    strided = np.zeros(68, np.uint8)[::2]
    strided[:] = counts
    assert mj.waits(strided) == want


@pytest.mark.parametrize(
    "call, exc, fragment",
    [
        (lambda: mj.is_win("123x"), mj.TileParseError, "x"),
        (lambda: mj.is_win("11111m"), mj.TileCountError, "1m"),
        (lambda: mj.is_win("123m"), mj.HandSizeError, "3 tiles"),
        (lambda: mj.waits("11m"), mj.HandSizeError, "2 tiles"),
        (lambda: mj.shanten("123m456m"), mj.HandSizeError, "6 tiles"),
        (lambda: mj.shanten(""), mj.HandSizeError, "0 tiles"),
        (lambda: mj.shanten("1112223334445556m"), mj.HandSizeError, "16 tiles"),
        (lambda: mj.shanten("11m", ruleset="riichi"), mj.RulesetError, "riichi"),
        (lambda: mj.shanten("11p", ruleset="two-player"), mj.RulesetError, "1p"),
        (lambda: mj.shanten("11m", ruleset="two-player-bamboo"), mj.RulesetError, "1m"),
        (lambda: mj.shanten(np.zeros(33, np.uint8)), mj.ArrayShapeError, "33"),
        (lambda: mj.shanten(np.zeros((2, 34), np.uint8)), mj.ArrayShapeError, "34"),
        (lambda: mj.shanten(np.zeros(34, np.float32)), mj.ArrayShapeError, "float32"),
        (lambda: mj.shanten(np.full(34, 5, np.uint8)), mj.TileCountError, "5"),
        (lambda: mj.shanten(np.full(34, -1, np.int64)), mj.TileCountError, "-1"),
        (lambda: mj.shanten(np.full(34, 300, np.int64)), mj.TileCountError, "300"),
        (lambda: mj.shanten(object()), mj.ArrayShapeError, "object"),
        (lambda: mj.is_win("1f11m"), mj.TileParseError, "flower"),
    ],
)
def test_bad_input_raises_named_error(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert fragment.lower() in str(info.value).lower()


# ---------------------------------------------------------------- batch
def _random_hands(rng, n, size, kinds):
    out = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.asarray(kinds), 4)
    for i in range(n):
        np.add.at(out[i], rng.choice(wall, size, replace=False), 1)
    return out


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_batch_equals_scalar(ruleset):
    rng = np.random.default_rng(7)
    kinds = mj.get_ruleset(ruleset).kinds
    h14 = _random_hands(rng, 300, 14, kinds)
    h13 = _random_hands(rng, 300, 13, kinds)
    assert mj.is_win_batch(h14, ruleset=ruleset).tolist() == [mj.is_win(h, ruleset=ruleset) for h in h14]
    assert [mj.mask_to_tiles(m) for m in mj.waits_batch(h13, ruleset=ruleset)] == [
        mj.waits(h, ruleset=ruleset) for h in h13
    ]
    both = np.concatenate([h13, h14])
    assert mj.shanten_batch(both, ruleset=ruleset).tolist() == [mj.shanten(h, ruleset=ruleset) for h in both]


def test_batch_outputs_and_errors():
    hands = np.stack([T.parse_hand("11123456789999m"), T.parse_hand("11122233344455m")])
    out = mj.is_win_batch(hands)
    assert out.dtype == np.bool_ and out.shape == (2,) and out.tolist() == [True, True]
    assert mj.shanten_batch(hands).dtype == np.int8
    w = mj.waits_batch(np.stack([T.parse_hand("1112345678999m"), T.parse_hand("19m19p19sESWNCFP")]), ruleset="public")
    assert w.dtype == np.uint64 and w.tolist() == [0x1FF, mj.waits_mask("19m19p19sESWNCFP", ruleset="public")]
    assert mj.is_win_batch(np.zeros((0, 34), np.uint8)).shape == (0,)
    bad = hands.copy()
    bad[1, 0] = 5
    with pytest.raises(mj.TileCountError, match="row 1"):
        mj.is_win_batch(bad)
    with pytest.raises(mj.HandSizeError, match="row 0"):
        mj.waits_batch(hands)
    with pytest.raises(mj.ArrayShapeError):
        mj.is_win_batch(np.zeros((3, 33), np.uint8))
    with pytest.raises(mj.ArrayShapeError):
        mj.is_win_batch(np.zeros(34, np.uint8))
    with pytest.raises(mj.ArrayShapeError, match="float"):
        mj.is_win_batch(np.zeros((2, 34)))
    with pytest.raises(mj.TileCountError, match="row 0"):
        mj.is_win_batch(np.full((2, 34), 7, np.int32))
    # an integer array of another dtype is converted, not rejected
    assert mj.is_win_batch(hands.astype(np.int64)).tolist() == [True, True]
    # a non-contiguous view gives the same answer
    assert mj.is_win_batch(np.repeat(hands, 2, axis=0)[::2]).tolist() == [True, True]


def test_batch_releases_the_gil_and_threads_agree():
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    hands = _random_hands(rng, 4000, 13, mj.get_ruleset("public").kinds)
    want = mj.shanten_batch(hands, ruleset="public")
    with ThreadPoolExecutor(4) as ex:
        parts = list(ex.map(lambda a: mj.shanten_batch(a, ruleset="public"), np.array_split(hands, 8)))
    assert np.array_equal(np.concatenate(parts), want)


def test_table_sizes():
    from mahjong_core import _hand

    info = _hand.table_info()
    assert info["suit_rows"] == 405350
    assert info["honor_rows"] == 5 ** 7
    assert info["total_bytes"] < 20 * 1024 * 1024


# ---------------------------------------------------------------- Hand objects
def test_hand_object_questions_and_updates():
    h = mj.Hand("1112345678999m")
    assert len(h) == 13 and h.ruleset == "two-player"
    assert h.waits() == list(range(9)) and h.shanten() == 0
    assert h.waits_mask() == 0x1FF
    h.add(4)
    assert h.is_win() and h.shanten() == -1 and h[4] == 2
    h.remove(4)
    assert h.counts.tolist() == T.parse_hand("1112345678999m").tolist()
    c = h.copy()
    c.add(27)
    assert c != h and len(c) == 14 and len(h) == 13
    assert h == mj.Hand(T.parse_hand("1112345678999m"))
    assert repr(h) == "Hand('1112345678999m', ruleset='two-player')"
    import pickle

    assert pickle.loads(pickle.dumps(h)) == h


def test_hand_object_refusals_leave_it_unchanged():
    h = mj.Hand("1111m", ruleset="two-player")
    before = h.counts.copy()
    with pytest.raises(mj.TileCountError, match="four 1m"):
        h.add(0)
    with pytest.raises(mj.RulesetError, match="1p"):
        h.add(9)
    with pytest.raises(mj.TileCountError, match="no 2m"):
        h.remove(1)
    with pytest.raises(mj.TileParseError, match="not a tile of a hand"):
        h.add(34)    # a flower's index: not a tile of a hand (the error table of docs/reference/errors.md; issue 25, item 16)
    with pytest.raises(mj.HandSizeError):
        h.is_win()
    assert h.shanten() == 1  # 1111m: 4 tiles (3k+1); the fifth 1m is never assumed
    assert h.counts.tolist() == before.tolist()


def test_hand_object_size_limits():
    full = mj.Hand("11122233344455m")
    with pytest.raises(mj.HandSizeError, match="14"):
        full.add(27)
    with pytest.raises(mj.HandSizeError):
        mj.Hand("111222333444555m")
    with pytest.raises(mj.TileCountError):
        mj.Hand(np.full(34, 5, np.uint8))
    with pytest.raises(mj.RulesetError):
        mj.Hand("1p", ruleset="two-player")
    three = mj.Hand("123m")
    with pytest.raises(mj.HandSizeError, match="3 tiles"):
        three.shanten()
    with pytest.raises(mj.HandSizeError):
        three.waits()


@pytest.mark.parametrize("ruleset", mj.RULESET_NAMES)
def test_hand_object_agrees_with_functions(ruleset):
    rng = np.random.default_rng(11)
    kinds = mj.get_ruleset(ruleset).kinds
    for h in _random_hands(rng, 200, 13, kinds):
        obj = mj.Hand(h, ruleset=ruleset)
        assert obj.waits() == mj.waits(h, ruleset=ruleset)
        assert obj.shanten() == mj.shanten(h, ruleset=ruleset)
    for h in _random_hands(rng, 200, 14, kinds):
        assert mj.Hand(h, ruleset=ruleset).is_win() == mj.is_win(h, ruleset=ruleset)
