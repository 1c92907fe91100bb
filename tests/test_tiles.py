"""Tests of mahjong_core.families.mahjong.tiles: index scheme, notation, parsing, formatting."""

from __future__ import annotations

import doctest
import itertools
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_core import tiles
from mahjong_core.errors import (
    ArrayShapeError,
    MahjongError,
    TileCountError,
    TileParseError,
)
from mahjong_core.families.mahjong.tiles import (
    FLOWER_BASE,
    GREEN_TILES,
    HONOR_LETTERS,
    KNITTED_PATTERNS,
    N_FLOWERS,
    N_KINDS,
    N_TILE_IDS,
    REVERSIBLE_TILES,
    TERMINALS_AND_HONORS,
    counts_to_indices,
    format_counts,
    format_tiles,
    indices_to_counts,
    is_dragon,
    is_flower,
    is_honor,
    is_number,
    is_simple,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    parse_flowers,
    parse_hand,
    parse_tiles,
    rank,
    suit,
    tile_glyph,
    tile_name,
    tile_short,
    to_counts,
)

M = list(range(0, 9))      # 1m..9m
P = list(range(9, 18))     # 1p..9p
S = list(range(18, 27))    # 1s..9s
E, SOUTH, W, NORTH, C, F, WHITE = range(27, 34)
FLOWERS = list(range(34, 42))


# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------


def test_constants():
    assert (N_KINDS, N_FLOWERS, FLOWER_BASE, N_TILE_IDS) == (34, 8, 34, 42)
    assert HONOR_LETTERS == "ESWNCFP"
    assert [parse_tiles(ch)[0] for ch in HONOR_LETTERS] == list(range(27, 34))


def test_all_names_exist():
    assert len(set(tiles.__all__)) == len(tiles.__all__)
    for name in tiles.__all__:
        assert hasattr(tiles, name), name


def test_doctests_pass():
    result = doctest.testmod(tiles, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20
    assert result.failed == 0


def test_green_tiles_per_spec():
    # 2s 3s 4s 6s 8s and F
    assert GREEN_TILES == frozenset(parse_tiles("23468sF"))
    assert GREEN_TILES == frozenset({19, 20, 21, 23, 25, 32})
    assert isinstance(GREEN_TILES, frozenset)


def test_reversible_tiles_per_spec():
    # 1p 2p 3p 4p 5p 8p 9p, 2s 4s 5s 6s 8s 9s, P
    assert REVERSIBLE_TILES == frozenset(parse_tiles("1234589p245689sP"))
    assert REVERSIBLE_TILES == frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})
    assert isinstance(REVERSIBLE_TILES, frozenset)


def test_terminals_and_honors_per_spec():
    assert TERMINALS_AND_HONORS == frozenset(parse_tiles("19m19p19sESWNCFP"))
    assert len(TERMINALS_AND_HONORS) == 13


def test_knitted_patterns():
    assert isinstance(KNITTED_PATTERNS, tuple)
    assert len(KNITTED_PATTERNS) == 6
    perms = list(itertools.permutations((0, 1, 2)))
    for pattern, (a, b, c) in zip(KNITTED_PATTERNS, perms):
        assert isinstance(pattern, tuple) and len(pattern) == 9
        assert list(pattern) == sorted(pattern)
        assert sorted(rank(i) for i in pattern if suit(i) == a) == [1, 4, 7]
        assert sorted(rank(i) for i in pattern if suit(i) == b) == [2, 5, 8]
        assert sorted(rank(i) for i in pattern if suit(i) == c) == [3, 6, 9]
        # one tile of each rank
        assert sorted(rank(i) for i in pattern) == list(range(1, 10))
    assert len(set(KNITTED_PATTERNS)) == 6
    assert format_tiles(KNITTED_PATTERNS[0]) == "147m258p369s"
    assert format_tiles(KNITTED_PATTERNS[1]) == "147m369p258s"
    assert format_tiles(KNITTED_PATTERNS[5]) == "369m258p147s"


# ---------------------------------------------------------------------------
# predicates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(N_TILE_IDS))
def test_predicates_match_spec(i):
    number = i <= 26
    assert is_number(i) is number
    assert is_honor(i) is (27 <= i <= 33)
    assert is_wind(i) is (27 <= i <= 30)
    assert is_dragon(i) is (31 <= i <= 33)
    assert is_flower(i) is (34 <= i <= 41)
    assert suit(i) == (i // 9 if number else None)
    assert rank(i) == (i % 9 + 1 if number else None)
    assert is_terminal(i) is (number and i % 9 + 1 in (1, 9))
    assert is_simple(i) is (number and 2 <= i % 9 + 1 <= 8)
    assert is_terminal_or_honor(i) is (is_terminal(i) or is_honor(i))
    assert is_terminal_or_honor(i) is (i in TERMINALS_AND_HONORS)
    # exactly one category
    assert is_number(i) + is_honor(i) + is_flower(i) == 1


def test_predicates_spot_values():
    assert suit(0) == 0 and suit(9) == 1 and suit(26) == 2 and suit(27) is None
    assert rank(0) == 1 and rank(13) == 5 and rank(26) == 9 and rank(41) is None
    assert [i for i in range(42) if is_terminal(i)] == [0, 8, 9, 17, 18, 26]


@pytest.mark.parametrize(
    "fn", [is_number, is_honor, is_wind, is_dragon, is_terminal, is_simple,
           is_terminal_or_honor, is_flower, suit, rank, tile_short, tile_glyph, tile_name])
@pytest.mark.parametrize("bad", [-1, 42, 100])
def test_single_tile_functions_reject_out_of_range(fn, bad):
    with pytest.raises(TileParseError, match=rf"tile index {bad} out of range 0-41"):
        fn(bad)


def test_single_tile_functions_accept_numpy_ints():
    assert tile_short(np.uint8(31)) == "C"
    assert is_honor(np.int64(27)) is True
    with pytest.raises(TileParseError, match="bool"):
        tile_short(True)
    with pytest.raises(TileParseError, match="float"):
        tile_short(1.0)


# ---------------------------------------------------------------------------
# single tile names
# ---------------------------------------------------------------------------


def test_tile_short_all():
    expected = ([f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)]
                + [f"{r}s" for r in range(1, 10)] + list("ESWNCFP")
                + [f"{r}f" for r in range(1, 9)])
    assert [tile_short(i) for i in range(42)] == expected
    # every short form parses back to its index
    assert [parse_tiles(tile_short(i)) for i in range(42)] == [[i] for i in range(42)]


@pytest.mark.parametrize(
    "i, en, zh",
    [(0, "1m", "一万"), (8, "9m", "九万"), (9, "1p", "一饼"), (17, "9p", "九饼"),
     (18, "1s", "一条"), (26, "9s", "九条"),
     (27, "East", "东"), (28, "South", "南"), (29, "West", "西"), (30, "North", "北"),
     (31, "Red", "中"), (32, "Green", "发"), (33, "White", "白"),
     (34, "Spring", "春"), (35, "Summer", "夏"), (36, "Autumn", "秋"), (37, "Winter", "冬"),
     (38, "Plum", "梅"), (39, "Orchid", "兰"), (40, "Bamboo", "竹"),
     (41, "Chrysanthemum", "菊")])
def test_tile_name(i, en, zh):
    assert tile_name(i) == en
    assert tile_name(i, "en") == en
    assert tile_name(i, lang="zh") == zh
    assert parse_tiles(zh) == [i]


def test_tile_name_bad_lang():
    with pytest.raises(MahjongError, match="'fr'"):
        tile_name(0, "fr")


# Unicode names of the glyph of each index, per spec index scheme
_SUIT_WORD = {0: "CHARACTERS", 1: "CIRCLES", 2: "BAMBOOS"}
_NUM_WORD = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
_HONOR_WORD = ["EAST WIND", "SOUTH WIND", "WEST WIND", "NORTH WIND",
               "RED DRAGON", "GREEN DRAGON", "WHITE DRAGON"]
_FLOWER_WORD = ["SPRING", "SUMMER", "AUTUMN", "WINTER", "PLUM", "ORCHID", "BAMBOO",
                "CHRYSANTHEMUM"]


def _expected_unicode_name(i):
    if i <= 26:
        return f"MAHJONG TILE {_NUM_WORD[i % 9]} OF {_SUIT_WORD[i // 9]}"
    if i <= 33:
        return f"MAHJONG TILE {_HONOR_WORD[i - 27]}"
    return f"MAHJONG TILE {_FLOWER_WORD[i - 34]}"


@pytest.mark.parametrize("i", range(N_TILE_IDS))
def test_glyph_table_against_unicode_names(i):
    g = tile_glyph(i)
    assert len(g) == 1
    assert unicodedata.name(g) == _expected_unicode_name(i)
    assert parse_tiles(g) == [i]


def test_glyph_spot_values():
    assert unicodedata.name(tile_glyph(0)) == "MAHJONG TILE ONE OF CHARACTERS"
    assert tile_glyph(9) == "\U0001F019"    # dots are circles
    assert tile_glyph(18) == "\U0001F010"   # bamboo
    assert tile_glyph(31) == "\U0001F004"   # 中
    assert tile_glyph(34) == "\U0001F026"   # 春
    assert tile_glyph(38) == "\U0001F022"   # 梅
    assert len({tile_glyph(i) for i in range(42)}) == 42


# ---------------------------------------------------------------------------
# parse_tiles: every notation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", []),
        ("   ", []),
        ("123m456p789s", [0, 1, 2, 12, 13, 14, 24, 25, 26]),
        ("1m", [0]), ("9p", [17]), ("1s", [18]), ("9s", [26]),
        ("111m", [0, 0, 0]),
        ("312m", [2, 0, 1]),                               # order as written
        ("1 2 3 m", [0, 1, 2]),                            # whitespace ignored
        ("1m\t2p\n3s\u3000E", [0, 10, 20, 27]),
        # honors as letters
        ("EESWCC", [27, 27, 28, 29, 31, 31]),
        ("ESWNCFP", list(range(27, 34))),
        ("E S W N C F P", list(range(27, 34))),
        # z notation, tenhou order
        ("1z", [27]), ("2z", [28]), ("3z", [29]), ("4z", [30]),
        ("5z", [33]), ("6z", [32]), ("7z", [31]),
        ("1234567z", [27, 28, 29, 30, 33, 32, 31]),
        ("123m1157z", [0, 1, 2, 27, 27, 33, 31]),
        # flowers
        ("1f", [34]), ("8f", [41]), ("12345678f", FLOWERS),
        # mixed
        ("11m E 5z 12f 9s", [0, 0, 27, 33, 34, 35, 26]),
        ("E12m", [27, 0, 1]),
        # Chinese names
        ("一万九万", [0, 8]),
        ("一萬九萬", [0, 8]),
        ("一饼九饼", [9, 17]), ("一筒九筒", [9, 17]), ("一餅", [9]),
        ("一条九条", [18, 26]), ("一索九索", [18, 26]), ("一條", [18]),
        ("五万 五饼 五条", [4, 13, 22]),
        ("东南西北", [27, 28, 29, 30]), ("東南西北", [27, 28, 29, 30]),
        ("中发白", [31, 32, 33]), ("中發白", [31, 32, 33]),
        ("春夏秋冬梅兰竹菊", FLOWERS), ("蘭", [39]),
        ("红中 紅中 发财 發財 白板", [31, 31, 32, 32, 33]),
        ("东风南风西风北风", [27, 28, 29, 30]), ("東風南風西風北風", [27, 28, 29, 30]),
        ("中发", [31, 32]),                                  # 发 here is a tile, not 发财
        # Arabic digits + Chinese suits
        ("1万", [0]), ("5饼", [13]), ("9条", [26]), ("5筒", [13]), ("3索", [20]),
        ("123万", [0, 1, 2]), ("9萬1條", [8, 18]),
        # glyphs
        ("\U0001F007\U0001F00F", [0, 8]),                  # 🀇 🀏 characters
        ("\U0001F019\U0001F021", [9, 17]),                 # 🀙 🀡 circles = dots
        ("\U0001F010\U0001F018", [18, 26]),                # 🀐 🀘 bamboo
        ("\U0001F000\U0001F001\U0001F002\U0001F003", [27, 28, 29, 30]),
        ("\U0001F004\U0001F005\U0001F006", [31, 32, 33]),
        ("\U0001F026\U0001F027\U0001F028\U0001F029", [34, 35, 36, 37]),
        ("\U0001F022\U0001F023\U0001F024\U0001F025", [38, 39, 40, 41]),
        ("\U0001F004\ufe0f", [31]),                        # emoji presentation
        ("\U0001F004\ufe0e\U0001F004", [31, 31]),
        ("\U0001F004\ufe0f\ufe0e", [31]),
        # everything mixed
        ("1m 一万 1万 \U0001F007 E 1z 东 \U0001F000 春 1f", [0, 0, 0, 0, 27, 27, 27, 27, 34, 34]),
    ],
)
def test_parse_tiles(text, expected):
    assert parse_tiles(text) == expected


def test_parse_tiles_returns_fresh_list():
    a = parse_tiles("123m")
    a.append(99)
    assert parse_tiles("123m") == [0, 1, 2]
    assert isinstance(parse_tiles("1m"), list)


# ---------------------------------------------------------------------------
# parse_tiles: errors name the culprit and its position (from 1)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragments",
    [
        ("12x", ["unknown tile letter 'x'", "position 3", "'12x'"]),
        ("123m45", ["digits '45'", "position 5", "no suit letter"]),
        ("123m 45", ["digits '45'", "position 6", "no suit letter (m, p, s, z or f)"]),
        ("4", ["digit '4'", "position 1", "no suit letter"]),
        ("12E", ["digits '12'", "before 'E' at position 3"]),
        ("1F", ["digit '1'", "'F'", "write 'f'"]),
        ("1中", ["digit '1'", "before '中'"]),
        ("1一万", ["digit '1'", "before '一'"]),
        ("1\U0001F004", ["digit '1'", "position 1"]),
        ("102m", ["'0m'", "position 2"]),
        ("0p", ["'0p'", "position 1"]),
        ("8z", ["'8z'", "1z-7z"]),
        ("9z", ["'9z'"]),
        ("0z", ["'0z'"]),
        ("9f", ["'9f'", "1f-8f"]),
        ("0f", ["'0f'"]),
        ("0万", ["'0万'"]),
        ("eee", ["'e'", "position 1", "upper case"]),
        ("1mw", ["'w'", "position 3", "upper case"]),
        ("n", ["'n'", "upper case"]),
        ("c", ["'c'", "upper case"]),
        ("s", ["suit letter 's'", "no digits", "'S'"]),
        ("Ep", ["suit letter 'p'", "position 2", "'P'"]),
        ("f", ["suit letter 'f'", "'F'"]),
        ("m", ["suit letter 'm'", "no digits"]),
        ("z", ["suit letter 'z'"]),
        ("1M", ["'M'", "position 2", "lower case"]),
        ("1Z", ["'Z'", "lower case"]),
        ("1,2m", ["','", "position 2"]),
        ("万", ["'万'", "no number"]),
        ("一", ["'一'", "followed by a suit"]),
        ("一m", ["'一'", "'m'"]),
        ("一东", ["'一'", "'东'"]),
        ("红", ["'红'", "position 1"]),
        ("红白", ["'红'"]),
        ("\ufe0f", ["U+FE0F", "position 1"]),
        ("E\ufe0f", ["U+FE0F", "position 2"]),
        ("\U0001F02A", ["joker", "U+1F02A"]),
        ("1m\U0001F02B", ["back", "U+1F02B", "position 3"]),
        ("1m\U0001F02C", ["position 3"]),
        ("１m", ["'１'", "position 1"]),                   # full-width digit
    ],
)
def test_parse_tiles_errors(text, fragments):
    with pytest.raises(TileParseError) as info:
        parse_tiles(text)
    msg = str(info.value)
    for frag in fragments:
        assert frag in msg, (frag, msg)


def test_parse_error_is_value_error():
    with pytest.raises(ValueError):
        parse_tiles("x")


@pytest.mark.parametrize("bad", [None, 12, b"123m", ["1m"]])
def test_parse_tiles_rejects_non_strings(bad):
    with pytest.raises(TileParseError, match=type(bad).__name__):
        parse_tiles(bad)


def test_long_text_is_truncated_in_message():
    text = "1m" * 100 + "x"
    with pytest.raises(TileParseError) as info:
        parse_tiles(text)
    assert "'x' at position 201" in str(info.value)
    assert len(str(info.value)) < 200


@given(st.text(alphabet="0123456789mpszfESWNCFPxe 一万东中发红\U0001F004\ufe0f\U0001F02B", max_size=30))
@settings(max_examples=400)
def test_parse_tiles_fuzz_only_tile_parse_errors(text):
    try:
        result = parse_tiles(text)
    except TileParseError as e:
        assert str(e)
    else:
        assert all(0 <= i < 42 for i in result)


# ---------------------------------------------------------------------------
# parse_hand / indices_to_counts / counts_to_indices
# ---------------------------------------------------------------------------


def test_parse_hand_string():
    h = parse_hand("123m 11p EEE C")
    assert h.shape == (34,) and h.dtype == np.uint8
    expected = np.zeros(34, np.uint8)
    expected[[0, 1, 2]] = 1
    expected[9] = 2
    expected[27] = 3
    expected[31] = 1
    assert np.array_equal(h, expected)


def test_parse_hand_indices():
    h = parse_hand([0, 0, 27, np.int64(33)])
    assert h.tolist() == [2] + [0] * 26 + [1] + [0] * 5 + [1]
    assert parse_hand(iter([5])).tolist()[5] == 1
    assert parse_hand(np.array([3, 3], dtype=np.int32))[3] == 2
    assert parse_hand("").sum() == 0 and parse_hand([]).sum() == 0


def test_parse_hand_four_copies_ok():
    assert parse_hand("1111m")[0] == 4
    assert parse_hand([33] * 4)[33] == 4


@pytest.mark.parametrize(
    "hand, fragments",
    [("33333m", ["5 copies of 3m", "only 4"]),
     ("3m3m 三万 3万 \U0001F009", ["5 copies of 3m"]),
     ("CCCCCC", ["6 copies of C"]),
     ([31] * 5, ["5 copies of C"]),
     ([17] * 5, ["5 copies of 9p"])])
def test_parse_hand_fifth_copy(hand, fragments):
    with pytest.raises(TileCountError) as info:
        parse_hand(hand)
    for frag in fragments:
        assert frag in str(info.value)


@pytest.mark.parametrize("hand, name", [("123m1f", "1f"), ("春", "Spring"), ([0, 41], "8f"),
                                        ("\U0001F022", "Plum")])
def test_parse_hand_rejects_flowers(hand, name):
    with pytest.raises(TileParseError) as info:
        parse_hand(hand)
    assert "flower" in str(info.value) and name in str(info.value)


@pytest.mark.parametrize("bad, fragment", [([42], "42"), ([-1], "-1"), ([1.5], "float"),
                                           ([True], "bool"), (["1"], "str"), (5, "int")])
def test_parse_hand_bad_indices(bad, fragment):
    with pytest.raises(TileParseError, match=fragment):
        parse_hand(bad)


def test_indices_to_counts():
    c = indices_to_counts([26, 26, 0])
    assert c.dtype == np.uint8 and c.shape == (34,)
    assert c[26] == 2 and c[0] == 1 and c.sum() == 3
    with pytest.raises(TileCountError, match="5 copies of E"):
        indices_to_counts([27] * 5)
    with pytest.raises(TileParseError, match="1f"):
        indices_to_counts([34])
    with pytest.raises(TileParseError, match="parse_hand"):
        indices_to_counts("123m")


def test_counts_to_indices():
    assert counts_to_indices(parse_hand("E 11m C 9s")) == [0, 0, 26, 27, 31]
    assert counts_to_indices([0] * 33 + [4]) == [33] * 4
    assert counts_to_indices("21m") == [0, 1]
    assert counts_to_indices(np.zeros(34, np.int64)) == []
    with pytest.raises(TileCountError):
        counts_to_indices([5] + [0] * 33)


# ---------------------------------------------------------------------------
# parse_flowers
# ---------------------------------------------------------------------------


def test_parse_flowers():
    assert parse_flowers("春夏秋冬梅兰竹菊") == FLOWERS
    assert parse_flowers("8f 1f") == [41, 34]
    assert parse_flowers("12345678f") == FLOWERS
    assert parse_flowers("") == []
    assert parse_flowers([34, np.int64(41)]) == [34, 41]
    assert parse_flowers("\U0001F026\U0001F022") == [34, 38]


@pytest.mark.parametrize("bad, name", [("1m", "1m"), ("1f E", "E"), ("中", "C"), ([33], "P")])
def test_parse_flowers_rejects_non_flowers(bad, name):
    with pytest.raises(TileParseError) as info:
        parse_flowers(bad)
    assert name in str(info.value) and "not a flower" in str(info.value)


@pytest.mark.parametrize("bad, name", [("1f1f", "1f"), ("春 1f", "Spring"), ([41, 41], "8f")])
def test_parse_flowers_duplicate(bad, name):
    with pytest.raises(TileCountError) as info:
        parse_flowers(bad)
    assert name in str(info.value) and "2 copies" in str(info.value)


# ---------------------------------------------------------------------------
# to_counts
# ---------------------------------------------------------------------------


def test_to_counts_string():
    c = to_counts("19m19p19sESWNCFP")
    assert c.dtype == np.uint8
    assert set(np.flatnonzero(c).tolist()) == TERMINALS_AND_HONORS


def test_to_counts_uint8_contiguous_not_copied():
    a = np.zeros(34, np.uint8)
    a[3] = 4
    assert to_counts(a) is a


def test_to_counts_uint8_noncontiguous_copied():
    base = np.zeros(68, np.uint8)
    base[::2][5] = 2
    view = base[::2]
    out = to_counts(view)
    assert out is not view and out.flags.c_contiguous and out.dtype == np.uint8
    assert out[5] == 2 and out.sum() == 2


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64,
                                   np.uint16, np.uint32, np.uint64, ">i4"])
def test_to_counts_integer_dtypes(dtype):
    a = np.zeros(34, dtype)
    a[33] = 4
    a[0] = 1
    out = to_counts(a)
    assert out.dtype == np.uint8 and out is not a
    assert out[33] == 4 and out[0] == 1 and out.sum() == 5
    a[0] = 2                      # a copy: input changes do not leak
    assert out[0] == 1


def test_to_counts_list_and_tuple_are_counts():
    lst = [0] * 34
    lst[27] = 3
    assert to_counts(lst)[27] == 3
    assert to_counts(tuple(lst)).tolist() == lst
    assert to_counts(lst).dtype == np.uint8


@pytest.mark.parametrize(
    "bad, fragment",
    [(np.zeros(33, np.uint8), "got shape (33,)"),
     (np.zeros((2, 34), np.uint8), "got shape (2, 34)"),
     (np.array(3), "got shape ()"),
     (np.zeros(34, np.float64), "float64"),
     (np.zeros(34, bool), "bool"),
     (np.zeros(34, object), "object"),
     ([0] * 33, "list of 33"),
     ([0, 0, 27], "list of 3"),
     ((0,) * 35, "tuple of 35"),
     ([0.0] * 34, "float64"),
     ([False] * 34, "bool"),
     ({1: 2}, "dict"),
     (None, "NoneType"),
     (3, "int"),
     (b"123m", "bytes")])
def test_to_counts_shape_and_type_errors(bad, fragment):
    with pytest.raises(ArrayShapeError) as info:
        to_counts(bad)
    assert fragment in str(info.value)


def test_to_counts_other_type_message_lists_accepted_types():
    with pytest.raises(ArrayShapeError) as info:
        to_counts({1, 2})
    msg = str(info.value)
    assert "str" in msg or "string" in msg
    assert "numpy array" in msg and "list" in msg and "set" in msg


@pytest.mark.parametrize(
    "index, value, dtype, name",
    [(2, 5, np.uint8, "3m"), (0, -1, np.int64, "1m"), (33, 7, np.int32, "P"),
     (27, 200, np.uint8, "E"), (9, -3, np.int8, "1p")])
def test_to_counts_value_errors(index, value, dtype, name):
    a = np.zeros(34, dtype)
    a[index] = value
    with pytest.raises(TileCountError) as info:
        to_counts(a)
    assert name in str(info.value) and str(value) in str(info.value)
    with pytest.raises(TileCountError):
        to_counts(a.tolist())


# ---------------------------------------------------------------------------
# format_tiles / format_counts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "indices, style, expected",
    [([0, 1, 2, 27, 27, 31, 34], "compact", "123mEEC1f"),
     ([34, 31, 27, 2, 1, 0, 27], "compact", "123mEEC1f"),
     (list(range(42)), "compact", "123456789m123456789p123456789sESWNCFP12345678f"),
     ([], "compact", ""),
     ([0, 1, 2, 27, 27, 31, 33], "z", "123m1157z"),
     (list(range(27, 34)), "z", "1234567z"),
     ([33, 32, 31], "z", "567z"),
     ([0, 41], "z", "1m8f"),
     ([0, 1, 27, 31, 34], "zh", "一万 二万 东 中 春"),
     ([9, 18, 32, 33, 39], "zh", "一饼 一条 发 白 兰"),
     ([27, 0], "glyph", "\U0001F007\U0001F000"),
     ([9, 18, 34], "glyph", "\U0001F019\U0001F010\U0001F026"),
     ([], "glyph", "")])
def test_format_tiles(indices, style, expected):
    assert format_tiles(indices, style=style) == expected


@pytest.mark.parametrize(
    "indices, style, expected",
    [([27, 0, 1], "compact", "E12m"),
     ([0, 27, 1], "compact", "1mE2m"),
     ([2, 1, 0, 9], "compact", "321m1p"),
     ([31, 0, 27], "z", "7z1m1z"),
     ([27, 0], "zh", "东 一万"),
     ([27, 0], "glyph", "\U0001F000\U0001F007")])
def test_format_tiles_unsorted(indices, style, expected):
    assert format_tiles(indices, style=style, sort=False) == expected


def test_format_tiles_accepts_numpy_and_generators():
    assert format_tiles(np.array([1, 0], np.int64)) == "12m"
    assert format_tiles(i for i in (27, 0)) == "1mE"


@pytest.mark.parametrize("bad, exc, fragment",
                         [([42], TileParseError, "42"), ([-1], TileParseError, "-1"),
                          ("123m", TileParseError, "string"), ([0.5], TileParseError, "float")])
def test_format_tiles_errors(bad, exc, fragment):
    with pytest.raises(exc, match=fragment):
        format_tiles(bad)


def test_format_tiles_bad_style():
    with pytest.raises(MahjongError, match="'tenhou'"):
        format_tiles([0], style="tenhou")


def test_format_counts():
    c = parse_hand("E C 11m 9s")
    assert format_counts(c) == "11m9sEC"
    assert format_counts(c, style="z") == "11m9s17z"
    assert format_counts(c, style="zh") == "一万 一万 九条 东 中"
    assert format_counts([0] * 34) == ""
    with pytest.raises(ArrayShapeError):
        format_counts([0] * 33)


# ---------------------------------------------------------------------------
# round trips (hypothesis)
# ---------------------------------------------------------------------------


@st.composite
def tile_multisets(draw):
    """A random multiset: <= 4 copies per kind, <= 1 per flower, shuffled."""
    counts = draw(st.lists(st.integers(0, 4), min_size=34, max_size=34))
    flowers = draw(st.lists(st.booleans(), min_size=8, max_size=8))
    items = [i for i, c in enumerate(counts) for _ in range(c)]
    items += [34 + k for k, f in enumerate(flowers) if f]
    return draw(st.permutations(items))


STYLES = ["compact", "z", "zh", "glyph"]


@given(tile_multisets())
@settings(max_examples=200)
def test_round_trip_compact_sorted(x):
    assert parse_tiles(format_tiles(x)) == sorted(x)


@pytest.mark.parametrize("style", STYLES)
@given(x=tile_multisets())
@settings(max_examples=100)
def test_round_trip_every_style(style, x):
    text = format_tiles(x, style=style)
    back = parse_tiles(text)
    if style == "z":      # z groups honors in tenhou order, not index order
        assert sorted(back) == sorted(x)
    else:
        assert back == sorted(x)


@pytest.mark.parametrize("style", STYLES)
@given(x=tile_multisets())
@settings(max_examples=100)
def test_round_trip_unsorted_keeps_order(style, x):
    assert parse_tiles(format_tiles(x, style=style, sort=False)) == list(x)


@given(tile_multisets())
@settings(max_examples=100)
def test_round_trip_counts(x):
    hand = [i for i in x if i < 34]
    counts = parse_hand(hand)
    assert counts_to_indices(counts) == sorted(hand)
    for style in STYLES:
        assert np.array_equal(parse_hand(format_counts(counts, style=style)), counts)
    assert to_counts(counts) is counts
    flowers = [i for i in x if i >= 34]
    assert parse_flowers(format_tiles(flowers, sort=False)) == flowers


@given(tile_multisets())
@settings(max_examples=100)
def test_compact_has_one_group_per_suit(x):
    text = format_tiles(x)
    for letter in "mpsf":
        assert text.count(letter) <= 1
    z = format_tiles(x, style="z")
    assert z.count("z") <= 1
    assert not any(ch in z for ch in HONOR_LETTERS)


def test_old_module_paths_are_the_family_modules():
    """``mahjong_core.tiles``, ``.rulesets`` and ``.fan_tables`` moved into ``families/mahjong``;
    the old paths give the same module objects, not copies."""
    import mahjong_core.fan_tables as old_tables
    import mahjong_core.rulesets as old_rulesets
    import mahjong_core.tiles as old_tiles
    from mahjong_core.families.mahjong import fan_tables, rulesets, tiles

    assert old_tiles is tiles and old_rulesets is rulesets and old_tables is fan_tables
    from mahjong_core import FanDef
    assert old_tables.FanDef is FanDef
