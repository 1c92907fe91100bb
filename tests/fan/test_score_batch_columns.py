"""score_batch's columns in the compiled core's dtypes (issue 29, item 3): checked in one pass in C
(``_fan.batch_columns_plain``) and passed straight to the kernel; a bad value in them, and every
column of another dtype, still goes through the Python checks, which name it.  Both ways give the
same result or the same error as the same columns given as int64 arrays (the checked path)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core import _fan
from mahjong_core.families.mahjong.scoring import FLAGS, MELD_KINDS, MELD_NONE

RULESET = "public"
HANDS = [
    # (concealed without the win tile, win tile, melds)
    ("123m456p789s11pEE", "E", []),
    ("1z", "1z", ["pon CCC", "chi 123m", "chi 456p", "kong 9999s"]),
    ("456p789s11pEE", "E", ["chi 123m"]),
]


def columns():
    n = len(HANDS)
    counts = np.stack([mj.to_counts(h) for h, _, _ in HANDS])
    wins = np.array([mj.tiles.tile_kind(w) for _, w, _ in HANDS], np.int16)
    melds = np.full((n, 4, 2), MELD_NONE, np.uint8)
    for i, (_, _, ms) in enumerate(HANDS):
        for j, m in enumerate(ms):
            kind, tiles = m.split()
            melds[i, j] = (MELD_KINDS[kind], min(mj.parse_tiles(tiles)))
    flags = np.array([FLAGS["self_drawn"], 0, 0], np.uint32)
    flowers = np.array([0, 3, 0x80], np.uint32)
    winds = np.array([27, 28, 30], np.uint8)
    return counts, dict(win_tiles=wins, melds=melds, flags=flags, flowers=flowers, seat_winds=winds,
                        round_winds=winds.copy())


def outcome(counts, cols):
    try:
        totals, nf, per_fan = mj.score_batch(counts, cols.pop("win_tiles"), ruleset=RULESET, **cols)
    except Exception as e:  # noqa: BLE001 - both paths must fail the same way
        return ("err", type(e).__name__, str(e))
    return ("ok", totals.tolist(), nf.tolist(), per_fan.tolist())


def as_int64(cols):
    return {k: v.astype(np.int64) for k, v in cols.items()}


def test_plain_columns_take_the_compiled_check_and_score_as_checked_ones():
    counts, cols = columns()
    assert _fan.batch_columns_plain(len(counts), *cols.values(), sum(FLAGS.values()))
    got = outcome(counts, dict(cols))
    assert got[0] == "ok"
    assert got == outcome(counts, as_int64(cols))
    for i, (h, w, ms) in enumerate(HANDS):
        s = mj.score(h, w, ruleset=RULESET, melds=ms, self_drawn=bool(cols["flags"][i]),
                     flowers=[34 + b for b in range(8) if cols["flowers"][i] >> b & 1],
                     seat_wind=int(cols["seat_winds"][i]), round_wind=int(cols["round_winds"][i]))
        assert got[1][i] == s.total


@pytest.mark.parametrize("column, row, value, error", [
    ("win_tiles", 1, 34, "TileParseError"),
    ("win_tiles", 0, -2, "TileParseError"),
    ("flags", 2, 1 << 20, "FlagError"),
    ("flowers", 0, 0x100, "RulesetError"),
    ("seat_winds", 1, 26, "MahjongError"),
    ("round_winds", 2, 31, "MahjongError"),
])
def test_a_bad_value_in_a_plain_column_is_named_as_before(column, row, value, error):
    counts, cols = columns()
    cols[column] = cols[column].copy()
    cols[column][row] = value
    assert not _fan.batch_columns_plain(len(counts), *cols.values(), sum(FLAGS.values()))
    got = outcome(counts, dict(cols))
    assert got[:2] == ("err", error) and f"row {row}" in got[2], got
    assert got == outcome(counts, as_int64(cols))


@pytest.mark.parametrize("cell, value", [((0, 1, 0), 4), ((1, 0, 1), 34), ((2, 3, 0), 254)])
def test_a_bad_meld_cell_is_named_as_before(cell, value):
    counts, cols = columns()
    cols["melds"][cell] = value
    got = outcome(counts, dict(cols))
    assert got[:2] == ("err", "TileParseError") and f"melds[{cell[0]}, {cell[1]}]" in got[2], got
    assert got == outcome(counts, as_int64(cols))


def test_shapes_and_lengths_that_differ_go_to_the_checks():
    counts, cols = columns()
    short = dict(cols, flags=cols["flags"][:2])
    assert not _fan.batch_columns_plain(len(counts), *short.values(), sum(FLAGS.values()))
    assert outcome(counts, short)[:2] == ("err", "ArrayShapeError")
    assert not _fan.batch_columns_plain(len(counts) + 1, *cols.values(), sum(FLAGS.values()))
    swapped = dict(cols, flags=cols["flags"].astype(">u4"))
    assert not _fan.batch_columns_plain(len(counts), *swapped.values(), sum(FLAGS.values()))
    assert outcome(counts, swapped) == outcome(counts, as_int64(cols))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["win_tiles", "flags", "flowers", "seat_winds", "round_winds", "melds"]),
       st.integers(0, 2), st.integers(0, 7), st.integers(0, 255))
def test_random_cells_answer_as_the_checked_path(column, row, j, value):
    counts, cols = columns()
    arr = cols[column]
    if column == "melds":
        arr[row, j % 4, j // 4] = value
    elif arr.dtype == np.int16:
        arr[row] = value - 128
    else:
        arr[row] = value if arr.dtype == np.uint8 else value << (j * 3)
    assert outcome(counts, dict(cols)) == outcome(counts, as_int64(cols))
