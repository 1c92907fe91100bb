"""Regression tests of issue 10 at the hand and scoring boundary (items 3 and 4): each input seen
giving a wrong exception type or a silently wrong answer, now a MahjongError naming the problem.
(The broad mutation suite is tests/hostile/test_hostile_hand.py.)"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import _fan, _hand, tiles
from mahjong_core.errors import FlagError, MahjongError
from mahjong_core.families.mahjong.rulesets import MAX_MIN_FAN

WIN14 = "123m456m789m11mEE"      # 13 concealed tiles + the winning tile E


# ------------------------------------------------------------------ Hand.add / remove
def test_hand_add_accepts_an_index_or_one_tile_string_and_remove_mirrors_it():
    h = mj.Hand("1112345678999m")
    h.add("5m")
    assert h.is_win() and h["5m"] == 2 and h[4] == 2
    h.remove("5m")
    h.add(np.int64(4))
    h.remove(np.uint8(4))
    assert h == mj.Hand("1112345678999m")


@pytest.mark.parametrize("tile, error", [
    (2**70, mj.TileParseError), (-2**70, mj.TileParseError), (34, mj.TileParseError), (-1, mj.TileParseError),
    (4.7, mj.TileParseError), (4.0, mj.TileParseError), (True, mj.TileParseError), (None, mj.TileParseError),
    ("55m", mj.TileParseError), ("", mj.TileParseError), ("1f", mj.TileParseError), ("x", mj.TileParseError),
    ([4], mj.TileParseError), (np.float64(4), mj.TileParseError),
])
def test_hand_add_and_remove_refuse_anything_but_one_tile(tile, error):
    h = mj.Hand("123m")
    before = h.counts.tolist()
    with pytest.raises(error):
        h.add(tile)
    with pytest.raises(error):
        h.remove(tile)
    assert h.counts.tolist() == before          # 4.7 used to add 5m
    with pytest.raises(mj.RulesetError):
        h.add("5p")                             # a tile, but not one of this ruleset
    with pytest.raises(mj.TileCountError):
        h.remove("5p")                          # not held
    assert h.counts.tolist() == before


def test_hand_indexing_keeps_the_sequence_protocol():
    h = mj.Hand("123m")
    assert list(h)[:4] == [1, 1, 1, 0] and len(list(h)) == 34      # iteration stops at IndexError
    with pytest.raises(IndexError):
        h[34]
    with pytest.raises(IndexError):
        h[2**70]
    with pytest.raises(mj.TileParseError):
        h[1.5]


# ------------------------------------------------------------------ minimum fan, rulesets
@pytest.mark.parametrize("min_fan", [2**31, 2**63, MAX_MIN_FAN + 1, -1, 8.0, "8", True])
def test_score_min_fan_out_of_range(min_fan):
    with pytest.raises(mj.MahjongError, match="min_fan"):
        mj.score(WIN14, "E", min_fan=min_fan)
    with pytest.raises(mj.MahjongError, match="min_fan"):
        mj.score_batch([mj.parse_hand(WIN14)], [27], min_fan=min_fan)


def test_score_min_fan_bounds_accepted():
    assert mj.score(WIN14, "E", min_fan=0).meets_minimum
    assert not mj.score(WIN14, "E", min_fan=MAX_MIN_FAN).meets_minimum


CUSTOM = dataclasses.replace(mj.RULESETS["public"], name="my-rules")
MODIFIED = dataclasses.replace(mj.RULESETS["two-player"], special_forms=True)


@pytest.mark.parametrize("custom", [CUSTOM, MODIFIED], ids=["custom", "modified-copy"])
@pytest.mark.parametrize("call", [
    lambda rs: mj.is_win("11123456789999m", ruleset=rs),
    lambda rs: mj.waits("1112345678999m", ruleset=rs),
    lambda rs: mj.waits_mask("1112345678999m", ruleset=rs),
    lambda rs: mj.shanten("1112345678999m", ruleset=rs),
    lambda rs: mj.Hand("1112345678999m", ruleset=rs),
    lambda rs: mj.live_waits("1112345678999m", "", ruleset=rs),
    lambda rs: mj.form_shanten("1112345678999m", "standard", ruleset=rs),
    lambda rs: mj.form_is_win("11123456789999m", "standard", ruleset=rs),
    lambda rs: mj.is_win_batch([mj.parse_hand("11123456789999m")], ruleset=rs),
    lambda rs: mj.waits_batch([mj.parse_hand("1112345678999m")], ruleset=rs),
    lambda rs: mj.shanten_batch([mj.parse_hand("1112345678999m")], ruleset=rs),
    lambda rs: mj.score(WIN14, "E", ruleset=rs),
    lambda rs: mj.score_batch([mj.parse_hand(WIN14)], [27], ruleset=rs),
], ids=["is_win", "waits", "waits_mask", "shanten", "Hand", "live_waits", "form_shanten", "form_is_win",
        "is_win_batch", "waits_batch", "shanten_batch", "score", "score_batch"])
def test_every_entry_point_refuses_an_unregistered_ruleset_object(call, custom):
    with pytest.raises(mj.RulesetError, match="registered"):
        call(custom)
    call(mj.RULESETS["public"])      # the registered object itself is fine


# ------------------------------------------------------------------ batch functions: ragged / strings
RAGGED = [[0] * 34, [0] * 33]


@pytest.mark.parametrize("fn", [mj.is_win_batch, mj.waits_batch, mj.shanten_batch])
@pytest.mark.parametrize("bad", [RAGGED, [["1"] * 34], [[0.5] * 34], [[True] * 34], [[2**70] + [0] * 33],
                                 np.zeros((2, 34), np.float64), np.full((1, 34), np.nan)],
                         ids=["ragged", "strings", "floats", "bools", "huge", "float-array", "nan"])
def test_hand_batches_refuse_bad_arrays_with_a_mahjong_error(fn, bad):
    with pytest.raises(mj.MahjongError):
        fn(bad)


@pytest.mark.parametrize("column, value", [
    ("flags", ["1"]), ("flags", [[1, 2]]), ("flags", [True]), ("flowers", ["1f"]), ("seat_winds", ["E"]),
    ("melds", [[[0, 0]] * 3]), ("melds", [[[0, 0], [0], [1, 2], [3, 4]]]),
])
def test_score_batch_refuses_string_and_ragged_columns(column, value):
    with pytest.raises(mj.MahjongError):
        mj.score_batch([mj.parse_hand(WIN14)], [27], **{column: value})


# ------------------------------------------------------------------ score_batch: no wrap-around
@pytest.mark.parametrize("column, value, error, fragment", [
    ("win_tiles", 65563, mj.TileParseError, "65563"),          # used to wrap to 27 (E)
    ("win_tiles", 27.9, mj.ArrayShapeError, "27.9"),           # used to truncate to 27
    ("win_tiles", 27.0, mj.ArrayShapeError, "row 0: win_tiles 27.0 is not an integer (got a float64"),
    ("win_tiles", -2, mj.TileParseError, "-2"),
    ("win_tiles", 34, mj.TileParseError, "34"),
    ("seat_winds", 283, mj.MahjongError, "283"),               # used to wrap to 27
    ("round_winds", 27 + 256, mj.MahjongError, "283"),
    ("flowers", 2**32 + 1, mj.RulesetError, "0x100000001"),    # used to wrap to 1
    ("flowers", -1, mj.RulesetError, "-1"),
    ("flags", 1 << 12, FlagError, "unknown bits"),
    ("flags", 2**32 + 1, FlagError, "unknown bits"),           # used to wrap to self_drawn
    ("flags", -1, FlagError, "-1"),
])
def test_score_batch_checks_every_column_before_the_cast(column, value, error, fragment):
    hands = np.stack([mj.parse_hand(WIN14)] * 3)
    cols = {"win_tiles": [27] * 3, "seat_winds": [27] * 3, "round_winds": [27] * 3, "flowers": [0] * 3,
            "flags": [0] * 3}
    cols[column] = cols[column][:2] + [value]
    win = np.array(cols.pop("win_tiles"))
    with pytest.raises(error, match="row [02]") as info:   # a float column: its first non-integer, else row 0
        mj.score_batch(hands, win, **{k: np.array(v) for k, v in cols.items()})
    assert fragment in str(info.value) and column in str(info.value)


@pytest.mark.parametrize("kind, first, fragment", [(4, 0, "kind 4"), (256, 0, "kind 256"), (0, 34, "first tile 34"),
                                                    (1, 256 + 31, "first tile 287"), (0, -1, "first tile -1")])
def test_score_batch_meld_rows_checked_before_the_cast(kind, first, fragment):
    hand = mj.parse_hand("PPP999m5m")
    melds = np.full((1, 4, 2), 255, np.int64)
    melds[0, 0] = [1, 31]
    melds[0, 1] = [kind, first]
    with pytest.raises(mj.TileParseError, match="row 0") as info:
        mj.score_batch(hand[None, :], [4], melds=melds)
    assert fragment in str(info.value)


def test_score_batch_accepts_any_integer_dtype_and_lists_with_the_same_answer():
    hands = [mj.parse_hand(WIN14), mj.parse_hand("PPP999m5m")]
    melds = np.full((2, 4, 2), 255, np.uint8)
    melds[1, :2] = [[1, 31], [1, 32]]
    want = mj.score_batch(np.stack(hands), np.array([27, 4], np.int16), melds=melds, flags=np.array([1, 0], np.uint32))
    got = mj.score_batch([h.tolist() for h in hands], [27, 4], melds=melds.astype(np.int64).tolist(), flags=[1, 0],
                         seat_winds=np.array([27, 27], np.int64), flowers=np.array([0, 0], np.uint64))
    assert all(np.array_equal(a, b) for a, b in zip(want, got))
    empty = mj.score_batch(np.zeros((0, 34), np.uint8), np.zeros(0, np.int16))
    assert [a.shape[0] for a in empty] == [0, 0, 0]


# ------------------------------------------------------------------ live_waits
def test_live_waits_refuses_visible_tiles_outside_the_ruleset():
    with pytest.raises(mj.RulesetError, match="1p"):
        mj.live_waits("1112345678999m", "1p")                  # used to be ignored
    with pytest.raises(mj.RulesetError, match="5m"):
        mj.live_waits("1112345678999s", "5m", ruleset="two-player-bamboo")
    with pytest.raises(mj.TileCountError, match="1m"):
        mj.live_waits("1112345678999m", "11m")                # 5 copies with the hand
    with pytest.raises(mj.TileCountError):
        mj.live_waits("1112345678999m", [5] + [0] * 33)
    assert mj.live_waits("1112345678999m", "1p9p", ruleset="public")[0] == 1


# ------------------------------------------------------------------ small helpers
@pytest.mark.parametrize("mask", [4.5, "5", None, True, -1, 1 << 34])
def test_mask_to_tiles_refuses_non_masks(mask):
    with pytest.raises(mj.MahjongError):
        mj.mask_to_tiles(mask)


def test_long_strings_are_parsed_but_not_cached():
    text = " " * 10_000 + "1m"
    before = tiles._scan_cached.cache_info().currsize
    assert mj.parse_tiles(text) == [0] and mj.parse_hand(text)[0] == 1
    assert tiles._scan_cached.cache_info().currsize == before
    with pytest.raises(mj.TileParseError) as info:
        mj.parse_tiles("1" * 100_000)
    assert len(str(info.value)) < 300                      # the digits are quoted, cut short


def test_tile_kind():
    assert [tiles.tile_kind(x) for x in ("1m", "E", "白", 33, np.int8(5))] == [0, 27, 33, 33, 5]
    for bad in (34, -1, 4.0, True, "1f", "11m", None, 2**70):
        with pytest.raises(mj.TileParseError):
            tiles.tile_kind(bad)


# ------------------------------------------------------------------ the compiled entry points themselves
def test_discard_eval_refuses_more_than_14_tiles():
    full = mj.get_ruleset("public").kind_mask
    for counts in ([4] * 33 + [2], [4] * 34):              # 134 (3k+2) and 136 tiles
        with pytest.raises(mj.HandSizeError):
            _hand.discard_eval(np.array(counts, np.uint8), full, True, (1 << 34) - 1, [4] * 34)
    with pytest.raises(mj.MahjongError, match="unseen"):
        _hand.discard_eval(mj.parse_hand("123m456p789s11pEEE"), full, True, 1, [2**40] * 34)
    with pytest.raises(mj.MahjongError, match="allowed"):
        _hand.discard_eval(mj.parse_hand("123m456p789s11pEEE"), 2**64, True, 1, [4] * 34)


@pytest.mark.parametrize("call", [
    lambda: _hand.form_shanten(np.zeros(34, np.float64), 1, 0),
    lambda: _hand.form_shanten(mj.parse_hand("1m"), -1, 0),
    lambda: _hand.form_shanten(mj.parse_hand("1m"), 1, 7),
    lambda: _hand.form_is_win(mj.parse_hand("11m"), 1, 2**70),
    lambda: _hand.is_win_batch(np.zeros((1, 34), np.int64), 1, True),
    lambda: _hand.is_win_batch(np.zeros((1, 34), np.uint8), 2**70, True),
    lambda: _hand.waits_batch(np.zeros((1, 34), np.uint8), 1, "yes"),
    lambda: _fan.evaluate(2, mj.parse_hand(WIN14), 2**70, np.zeros((0, 2), np.uint8), 0, 0, 27, 27, 8, 0,
                          np.zeros(82, np.uint16)),
    lambda: _fan.evaluate(2, mj.parse_hand(WIN14), 27, np.zeros((0, 2), np.uint8), -1, 0, 27, 27, 8, 0,
                          np.zeros(82, np.uint16)),
    lambda: _fan.evaluate(2**70, mj.parse_hand(WIN14), 27, np.zeros((0, 2), np.uint8), 0, 0, 27, 27, 8, 0,
                          np.zeros(82, np.uint16)),
    lambda: _fan.evaluate(2, mj.parse_hand(WIN14), 27, np.zeros((0, 2), np.uint8), 0, 0, 27.0, 27, 8, 0,
                          np.zeros(82, np.uint16)),
    lambda: _fan.evaluate_batch(2, np.zeros((1, 34), np.float64), np.zeros(1, np.int16), np.zeros((1, 4, 2), np.uint8),
                                np.zeros(1, np.uint32), np.zeros(1, np.uint32), np.zeros(1, np.uint8),
                                np.zeros(1, np.uint8), 8, 0),
    lambda: _fan.fan_count(2**70),
    lambda: _fan.fan_ids(1.0),
], ids=["form-float", "form-mask", "form-code", "form-huge", "batch-dtype", "batch-mask", "batch-flag",
        "eval-win", "eval-flags", "eval-ruleset", "eval-float", "evalbatch-dtype", "fan_count", "fan_ids"])
def test_compiled_entry_points_refuse_out_of_range_arguments(call):
    with pytest.raises(mj.MahjongError):
        call()


def test_bounded_items_reads_one_entry_past_the_bound_and_names_the_value():
    """The one bounded iteration over client sequences (melds, meld tiles, long-card groups)."""
    import itertools

    from mahjong_core._validate import bounded_items
    from mahjong_core.errors import HandSizeError, TileParseError

    kw = dict(not_a_list="not a list: {}", too_many="too many in {}", string="a string: {}")
    assert bounded_items((1, 2), 2, str, **kw) == ["1", "2"]
    endless = itertools.count()
    with pytest.raises(HandSizeError, match=r"^too many in \['the', 'subject'\]$"):
        bounded_items(endless, 3, int, too_many_error=HandSizeError, subject=["the", "subject"], **kw)
    assert next(endless) == 4            # entries 0-3 read: the bound and one past it, no more
    with pytest.raises(TileParseError, match=r"^a string: 'abc'$"):
        bounded_items("abc", 3, str, error=TileParseError, **kw)
    with pytest.raises(MahjongError, match=r"^not a list: 5$"):
        bounded_items(5, 3, str, **kw)
    with pytest.raises(HandSizeError, match="more than 4 melds"):
        mj.score("123m456m789m11mEE", "E", melds=itertools.repeat("pon CCC"))
    # an endless meld: refused after reading past the bound, made lazily (it was iter([31] * 10**9):
    # an 8 GB list built before the call, the peak memory of the whole suite; issue 25, item 19)
    read = itertools.count()
    endless_meld = (t for t, _ in zip(itertools.repeat(31), read))
    with pytest.raises(TileParseError, match="meld .* has more than 4 tiles"):
        mj.score("123m456m789m11mEE", "E", melds=[("pon", endless_meld)])
    assert next(read) == 5               # a kong's 4 tiles and the one past them were made, not 10**9
