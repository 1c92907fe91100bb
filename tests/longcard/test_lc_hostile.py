"""Hostile input to every 长牌 entry point, batch functions above all: wrong dtype, shape, layout and
values, odd strings and objects.  Each case runs in a child interpreter (tests.support.isolation.run_cases): the
outcome must be a result or a MahjongError naming the problem, never a crash or another exception."""

from __future__ import annotations

import pytest
from tests.support.isolation import run_cases

# marked hostile: tools/test_checked_build.sh also runs it against the bounds-checked ASan/UBSan build
pytestmark = pytest.mark.hostile

TARGET = "hostile_ops_lc:run"

WIN21 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
GOOD = "46 46 13 16 34 25 14 14 55 55 55"
DECL = ["peng 11×3", "sha 44×4", "sha 66×4"]


def arr(values, dtype="uint8", shape=None, layout="C", readonly=False):
    spec = {"values": values, "dtype": dtype, "layout": layout, "readonly": readonly}
    if shape is not None:
        spec["shape"] = shape
    return {"$arr": spec}


def row(n_first=21):
    """A (1, 21) valid-looking row: n_first copies spread 5,5,5,5,1 ..."""
    out, left = [], n_first
    for _ in range(21):
        k = min(5, left)
        out.append(k)
        left -= k
    return out


HAND_VALUES = [
    None, 3.5, {"$object": 1}, {"$hostile": 1}, {"a": 1}, {"$bytes": [1, 2]}, "", "77", "1", "ab", "11 CS",
    "11×999999999999", "11×0", {"$str": [0xD800]}, "天牌" * 6, [0] * 21, [22], [-1], [True], [{"$pow10": 40}],
    arr([0] * 20), arr([0] * 42, shape=[21, 2]), arr([0] * 21, dtype="float64"), arr([300] * 21, dtype="int64"),
    arr([-1] * 21, dtype="int8"), arr([True] * 21, dtype="bool"), arr([6] + [0] * 20), arr([255] * 21),
    arr(row(21), layout="strided"), arr(row(21), dtype="int64", layout="swapped"), arr(row(21), readonly=True),
    arr([0] * 21, dtype="object"),
]


def _cases():
    cases = []
    for h in HAND_VALUES:
        for op in ("is_win", "waits", "wait_scores"):
            cases.append({"op": op, "args": [h]})
        cases.append({"op": "score", "args": [h, "36"]})
        cases.append({"op": "to_counts", "args": [h]})
        for op in ("c_counting", "c_theoretical_fan", "c_group_count"):      # the compiled counting
            cases.append({"op": op, "args": [h]})
        cases.append({"op": "parse_cards", "args": [h]})
    bad_decl = ["peng 66 66 66", [["peng"]], [None], [["peng", "11 11"]], [["chi", "11 11 11"]], [["sha", "11×5"]],
                [["peng", "11×3"]] * 8, [["peng", "11×3"], ["sha", "11×4"]], [{"$hostile": 1}], [{"$object": 1}],
                [["peng", [99, 99, 99]]], [["peng", [True, True, True]]], [["tuhuo_xiang", "CS×5"]], 7,
                [["kan", {"$str": [0xD800]}]], [["xx", "11×3"]]]
    for d in bad_decl:
        cases.append({"op": "is_win", "args": [GOOD + " 36"], "kw": {"declared": d}})
        cases.append({"op": "score", "args": [GOOD, "36"], "kw": {"declared": d}})
        cases.append({"op": "waits", "args": [GOOD], "kw": {"declared": d}})
    for kw in ({"banker": "yes"}, {"banker": 1}, {"banker": None}, {"win_split_kan": 0}, {"fan_cap": -1},
               {"fan_cap": {"$pow10": 100}}, {"fan_cap": True}, {"fan_cap": 2.0}, {"jiang": [1, 2, 3]},
               {"jiang": [99, 1]}, {"jiang": "77 11"}, {"jiang": {"$object": 1}}, {"caishen": -1}, {"caishen": 6},
               {"caishen": {"$pow10": 100}}, {"caishen": 2.5}, {"caishen": True}, {"caishen_count": 7},
               {"caishen": 8, "caishen_count": 10}, {"wumenjiang_weight": "x"}, {"kan_as_peng": "no"}):
        cases.append({"op": "score", "args": [GOOD, "36"], "kw": dict(kw, declared=DECL)})
        cases.append({"op": "wait_scores", "args": [GOOD], "kw": dict(kw, declared=DECL)})
    for card in (21, -1, 99, "CS", "1166", None, 2.0, {"$object": 1}, True):
        cases.append({"op": "score", "args": [GOOD, card], "kw": {"declared": DECL}})
    batch_values = [None, [[0] * 21], 5, arr([0] * 21), arr(row(21) * 2, dtype="int64", shape=[2, 21]),
                    arr(row(21) * 2, dtype="float32", shape=[2, 21]), arr([1] * 40, shape=[2, 20]),
                    arr(row(21) * 2, shape=[2, 21], layout="F"), arr(row(21) * 2, shape=[2, 21], layout="strided"),
                    arr(row(21) * 2, shape=[2, 21], readonly=True), arr([], shape=[0, 21]),
                    arr(row(21) * 2, shape=[1, 2, 21]), arr([6] + [0] * 20 + row(21), shape=[2, 21]),
                    arr(row(21) + row(19), shape=[2, 21]), arr([255] * 42, shape=[2, 21]),
                    arr(row(20) * 2, shape=[2, 21]), arr([0] * 42, shape=[2, 21], dtype="object")]
    for b in batch_values:
        for op in ("is_win_batch", "waits_batch", "score_batch"):
            cases.append({"op": op, "args": [b]})
    for b in ("x", 2, None):
        cases.append({"op": "is_win_batch", "args": [arr(row(21), shape=[1, 21]), b]})
    for dead in ([0] * 20, [6] * 21, [-1] * 21, "11×6", {"$object": 1}, [[0] * 21], [0.5] * 21):
        cases.append({"op": "counting_summary", "args": [GOOD + " 11 11 11 66 66 66"], "kw": {"dead": dead}})
        for op in ("c_counting", "c_theoretical_fan"):
            cases.append({"op": op, "args": [GOOD + " 11 11 11 66 66 66", None, dead]})
    for d in bad_decl:
        cases.append({"op": "c_counting", "args": [GOOD], "kw": {"declared": d}})
    for kw in ({"mao_bonus": "x"}, {"mao_bonus": None}, {"tmax_quad_value": 3}, {"chi_may_use_kan": "no"}):
        cases.append({"op": "c_counting", "args": [GOOD, DECL], "kw": kw})
    for kw in ({"caishen": 9}, {"caishen": -1}, {"jiang": [99, 1]}, {"kan_as_peng": "no"}, {"caishen_count": 7}):
        cases.append({"op": "c_theoretical_fan", "args": [GOOD, DECL], "kw": kw})
    for kw in ({"mao_bonus": "x"}, {"fan_cap": -2}, {"nonsense": 1}, {"caishen": 9}):
        cases.append({"op": "baozi_fan", "args": [GOOD, DECL], "kw": kw})
        cases.append({"op": "theoretical_fan", "args": [GOOD, DECL], "kw": kw})
    for args in ([-1], [10**5], [3, "x"], [2.5]):
        cases.append({"op": "settlement_points", "args": args})
    cases.append({"op": "check_options", "args": [{"fan_cap": "4"}]})
    cases.append({"op": "check_options", "args": [[1, 2]]})
    return cases


CASES = _cases()


def test_hostile_inputs_never_crash():
    out = run_cases(TARGET, CASES)
    assert len(out) == len(CASES)
    refused = sum(r["outcome"] == "refused" for r in out)
    assert refused > 0.8 * len(CASES)


@pytest.mark.parametrize("case, error", [
    ({"op": "is_win", "args": ["77"]}, "TileParseError"),
    ({"op": "is_win", "args": ["11 CS"]}, "TileParseError"),
    ({"op": "is_win", "args": ["11×6"]}, "TileCountError"),
    ({"op": "is_win", "args": [arr([6] + [0] * 20)]}, "TileCountError"),
    ({"op": "is_win", "args": [GOOD]}, "HandSizeError"),
    ({"op": "waits", "args": [GOOD + " 36"], "kw": {"declared": DECL}}, "HandSizeError"),
    ({"op": "score", "args": [GOOD, "36"], "kw": {"declared": DECL, "caishen": 6}}, "TileCountError"),
    ({"op": "score", "args": [GOOD, "36"], "kw": {"declared": DECL, "caishen": 1, "caishen_count": 0}},
     "TileCountError"),
    ({"op": "score", "args": [GOOD, "36"], "kw": {"declared": DECL, "fan_cap": -1}}, "RulesetError"),
    ({"op": "is_win_batch", "args": [arr(row(21), dtype="int64", shape=[1, 21])]}, "ArrayShapeError"),
    ({"op": "is_win_batch", "args": [arr(row(21) * 2, shape=[2, 21], layout="F")]}, "ArrayShapeError"),
    ({"op": "is_win_batch", "args": [arr(row(20), shape=[1, 21])]}, "HandSizeError"),
    ({"op": "is_win_batch", "args": [arr([6] + row(15)[:20], shape=[1, 21])]}, "TileCountError"),
    ({"op": "score", "args": [GOOD, "36"], "kw": {"declared": [["peng", "11×3"], ["sha", "11×4"]]}},
     "TileCountError"),
    ({"op": "score", "args": [GOOD, "55"], "kw": {"declared": DECL}}, "NotWinningHandError"),
])
def test_error_classes(case, error):
    (out,) = run_cases(TARGET, [case])
    assert out["outcome"] == "refused" and out["error"] == error, out


def test_readonly_and_empty_batches_work():
    out = run_cases(TARGET, [{"op": "is_win_batch", "args": [arr(row(21), shape=[1, 21], readonly=True)]},
                             {"op": "is_win_batch", "args": [arr([], shape=[0, 21])]},
                             {"op": "is_win", "args": [arr(row(21), readonly=True)]}])
    assert [r["outcome"] for r in out] == ["ok", "ok", "ok"]
    assert out[1]["detail"] == []
