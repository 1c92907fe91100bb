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


# ------------------------------------------------------------------ the round boundary (issue 25)
def _record() -> dict:
    import json

    from mahjong_core.families.longcard.round_bots import RuleBot
    from mahjong_core.families.longcard._ref.round import Round
    r = Round(5, options={"base": 2})
    while r.seats_to_act():
        r.play_decision(RuleBot())
    return json.loads(r.to_json())


def _replay_cases():
    import copy
    rec = _record()
    assert rec["result"]["end"] == "win"

    def mutated(f):
        d = copy.deepcopy(rec)
        f(d)
        return d

    records = [
        mutated(lambda d: d["options"].pop("bi_peng")), mutated(lambda d: d.update(options={})),
        mutated(lambda d: d["options"].update(bi_peng=0)), mutated(lambda d: d["options"].update(fan_cap=2)),
        mutated(lambda d: d["options"].update(fan_cap=3.0)), mutated(lambda d: d["options"].update(base=2.0)),
        mutated(lambda d: d["options"].update(base=True)), mutated(lambda d: d["options"].update(face_names="x")),
        mutated(lambda d: d["options"].update(tuhuo_fixed=False)),
        mutated(lambda d: d["options"].update(caishen_count=5.0)), mutated(lambda d: d["options"].update(nope=1)),
        mutated(lambda d: d["result"]["deltas"].__setitem__(0, float(d["result"]["deltas"][0]))),
        mutated(lambda d: d["result"]["payments"][0].__setitem__(2, False)),
        mutated(lambda d: d["result"]["payments"][0].__setitem__(0, True)),
        mutated(lambda d: d["result"].update(counts=1)), mutated(lambda d: d["result"].update(fan=float(d["result"]["fan"]))),
        mutated(lambda d: d["result"].update(winner=True if d["result"]["winner"] == 1 else float(d["result"]["winner"]))),
        mutated(lambda d: d["result"]["score"].update(tuo=float(d["result"]["score"]["tuo"]))),
        mutated(lambda d: d["result"].pop("next_banker")), mutated(lambda d: d["result"].update(extra=[[[]]])),
        mutated(lambda d: d.update(result=None)), mutated(lambda d: d.update(version=2.0)),
        mutated(lambda d: d.update(version=True)), mutated(lambda d: d.update(banker=False)),
        mutated(lambda d: d.update(banker=2 ** 70)), mutated(lambda d: d["stock"].__setitem__(0, 1.0)),
        mutated(lambda d: d["stock"].__setitem__(0, True)), mutated(lambda d: d["actions"][0].__setitem__(0, 1.0)),
        mutated(lambda d: d["actions"][0].__setitem__(1, True)), mutated(lambda d: d["actions"].append([0, 2 ** 70])),
        mutated(lambda d: d.update(actions=[[0, 256]] * 5000)), mutated(lambda d: d.update(ruleset=["changpai-ydr"])),
    ]
    cases = []
    for d in records:
        cases += [{"op": "replay", "args": [d]}, {"op": "replay_compiled", "args": [d]}]
    for junk in ([1, 2, 3], None, 7, "x", {"$str": [0xD800]}, "[" * 100_000, '{"ruleset": NaN}'):
        cases.append({"op": "replay_text", "args": [junk]})
    return rec, cases


def test_hostile_replay_records_are_refused_in_both_engines():
    """Spec 8.4: a record with an option left out, a float or bool where an integer stands, a forged
    result, ... is a StateError in both engines (before issue 25 the == comparison let 6.0 and false pass
    and missing options took their defaults); the intact record replays."""
    rec, cases = _replay_cases()
    out = run_cases(TARGET, [{"op": "replay", "args": [rec]}, {"op": "replay_compiled", "args": [rec]}] + cases)
    assert [r["outcome"] for r in out[:2]] == ["ok", "ok"] and out[0]["detail"] == out[1]["detail"] == rec["result"]
    bad = [(c, r) for c, r in zip(cases, out[2:]) if r["outcome"] != "refused" or r["error"] != "StateError"]
    assert not bad, [(c, r.get("error"), r.get("message")) for c, r in bad[:5]]


SEAT_VALUES = [3, -1, 2 ** 70, {"$pow10": 400}, True, False, 1.5, {"$float": "nan"}, "1", None, [1], {"$object": 1},
               {"$hostile": 1}, {"$arr": {"values": [1], "dtype": "int64"}}]
SEAT_METHODS = {"reference": ("legal_actions", "legal_mask", "penalised_mask", "penalty_of", "step", "view", "events_for"),
                "compiled": ("legal_actions", "legal_mask", "penalised_mask", "penalty_of", "step", "view", "events_for"),
                "api": ("legal_indices", "legal_mask", "legal_actions", "penalised_mask", "view", "log_for",
                        "action_index", "step"),
                "api-compiled": ("legal_indices", "legal_mask", "penalised_mask", "step"),
                "core": ("offered", "step")}


def test_hostile_seats_are_seat_errors_everywhere():
    cases = [{"op": "seat", "args": [kind, m, seat]} for kind, methods in SEAT_METHODS.items() for m in methods
             for seat in SEAT_VALUES]
    out = run_cases(TARGET, cases)
    bad = [(c, r) for c, r in zip(cases, out) if r["outcome"] != "refused" or r["error"] != "SeatError"]
    assert not bad, [(c, r.get("error"), r.get("message")) for c, r in bad[:5]]


def test_hostile_round_options_are_ruleset_errors():
    values = [{"fan_cap": v} for v in (1, 2, -1, 2.0, True, {"$pow10": 40}, "3", None)] + [
        {"bi_peng": v} for v in (0, 1, "yes", None, {"$object": 1})] + [
        {"face_names": v} for v in ("x" * 21, [1] * 21, ["a"] * 20, {"$hostile": 1}, [{"$str": [0xD800]}] * 21)] + [
        {"base": v} for v in (0, -1, True, {"$float": "nan"}, {"$float": "inf"}, {"$pow10": 40})] + [
        {"caishen_count": v} for v in (5.0, True, 3, {"$pow10": 40})] + [
        {"tuhuo_fixed": False}, {"multiple_winners": True}, {"nope": 1}, {1: 2}]
    out = run_cases(TARGET, [{"op": "round_options", "args": [v]} for v in values])
    bad = [(v, r) for v, r in zip(values, out) if r["outcome"] != "refused" or r["error"] != "RulesetError"]
    assert not bad, [(c, r.get("error"), r.get("message")) for c, r in bad[:5]]
