"""Hostile input at the hand and scoring boundary (issue 10, items 3 and 4).

Every case runs in a child interpreter (``conftest.run_cases``), so a crash of the compiled core
fails the test with the case instead of killing the run.  Each mutated input must give a correct
answer or a :class:`~mahjong_core.errors.MahjongError`; any other exception fails the test.  On
top of that the parent checks:

* ``refuse``: inputs that are wrong (float counts, a count of 5, ragged lists, a win tile 65 563,
  a string flag ...) must be refused, never answered (a silent cast or wrap-around is a failure);
* ``expect``: inputs that only change the container (dtype, memory layout, read-only, a list)
  must give the answer of the pure-Python reference on the canonical counts.

Each test prints how many cases it ran and how many were refused (``pytest -s``).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import mahjong_core as mj
from tests.support.isolation import run_cases
from mahjong_core.families.mahjong._ref import hand as hand_py
from mahjong_core.families.mahjong.scoring import FLAGS

pytestmark = pytest.mark.hostile

RULESETS = mj.RULESET_NAMES
TARGET = "hostile_ops_hand:run"
INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]
BAD_DTYPES = ["float32", "float64", "bool", "complex128", "<U2", "object"]


def S(text: str) -> dict:
    """Any string (lone surrogates too) as JSON data."""
    return {"$str": [ord(c) for c in text]}


def ARR(values, dtype=None, shape=None, layout="C", readonly=False) -> dict:
    spec = {"values": values, "layout": layout, "readonly": readonly}
    if dtype is not None:
        spec["dtype"] = dtype
    if shape is not None:
        spec["shape"] = shape
    return {"$arr": spec}


def _report(name: str, cases: list, out: list) -> Counter:
    c = Counter(r["outcome"] for r in out)
    errors = Counter(r["error"] for r in out if r["outcome"] == "refused")
    print(f"\n[hostile] {name}: {len(cases)} cases, {c['refused']} refused, {c['ok']} answered; "
          f"refusals by class {dict(errors)}")
    return c


def _check(cases: list, out: list) -> None:
    for case, r in zip(cases, out):
        want = case.get("expect")
        if case.get("refuse"):
            assert r["outcome"] == "refused", f"must be refused, got {r}: {case}"
            allowed = case.get("errors")
            if allowed:
                assert r["error"] in allowed, f"refused with {r['error']}, expected one of {allowed}: {case}"
        elif want is not None:
            assert r["outcome"] == want["outcome"], f"expected {want}, got {r}: {case}"
            if want["outcome"] == "ok":
                assert r["detail"] == want["detail"], f"expected {want['detail']}, got {r['detail']}: {case}"
            else:
                assert r["error"] == want["error"], f"expected {want['error']}, got {r}: {case}"


# ------------------------------------------------------------------ reference answers
_SIZE_OK = {"is_win": lambda n: n % 3 == 2, "waits": lambda n: n % 3 == 1, "waits_mask": lambda n: n % 3 == 1,
            "shanten": lambda n: n % 3 != 0}


def _reference(op: str, counts: list[int], ruleset: str) -> dict:
    """What ``op`` must answer for canonical counts (refusals included), from the reference."""
    n = sum(counts)
    kinds = set(mj.get_ruleset(ruleset).kinds)
    if any(c and k not in kinds for k, c in enumerate(counts)):
        return {"outcome": "refused", "error": "RulesetError"}
    if not 1 <= n <= 14 or not _SIZE_OK[op](n):
        return {"outcome": "refused", "error": "HandSizeError"}
    if op == "is_win":
        return {"outcome": "ok", "detail": hand_py.is_win(counts, ruleset)}
    if op == "shanten":
        return {"outcome": "ok", "detail": hand_py.shanten(counts, ruleset)}
    w = hand_py.waits(counts, ruleset)
    return {"outcome": "ok", "detail": w if op == "waits" else sum(1 << t for t in w)}


def _random_counts(rng: random.Random, ruleset: str, size: int) -> list[int]:
    wall = [k for k in mj.get_ruleset(ruleset).kinds for _ in range(4)]
    c = [0] * 34
    for t in rng.sample(wall, size):
        c[t] += 1
    return c


# ------------------------------------------------------------------ tile strings
_ALPHABET = "0123456789mpszfMPSZFESWNCFP万饼条筒索萬餅條东南西北中发白春夏秋冬梅兰竹菊一二三四五六七八九红紅白板风 \t\n\u3000\ufe0f\ufe0e"


def _random_unicode(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(rng.choice(_ALPHABET))
        elif r < 0.6:
            out.append(chr(rng.randint(0x1F000, 0x1F02F)))    # mahjong glyphs, joker, back, unassigned
        elif r < 0.7:
            out.append(chr(rng.randint(0xD800, 0xDFFF)))      # lone surrogates
        elif r < 0.8:
            out.append(chr(rng.randint(0, 0x1F)))             # control characters, NUL
        else:
            out.append(chr(rng.randint(0x80, 0x10FFFF)))
    return "".join(out)


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randint(0, len(chars))
        if op < 0.4:
            chars.insert(pos, rng.choice(_ALPHABET))
        elif op < 0.7 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(_ALPHABET)
    return "".join(chars)


def _string_cases() -> list[dict]:
    rng = random.Random(10)
    texts = []
    for ruleset in RULESETS:
        for size in (13, 14):
            for _ in range(60):
                t = mj.format_counts(_random_counts(rng, ruleset, size), style=rng.choice(["compact", "z", "zh", "glyph"]))
                texts.append((t, ruleset))
                texts.append((_mutate(rng, t), ruleset))
    texts += [(_random_unicode(rng, rng.randint(0, 40)), rng.choice(RULESETS)) for _ in range(300)]
    long_ones = [" " * 100_000 + "1m", "1" * 100_000 + "m", "123m" * 25_000, "东" * 100_000, "9" * 50_000,
                 "\ufe0f" * 1000, "🀇\ufe0f\ufe0f", "1m" * 4 + "1m", "红", "红中中", "1234567890m", "0m", "8z", "9f",
                 "123", "12 3", "m", "", " ", "1m\x002m", "\ud800", "1m" + "\U0010ffff"]
    texts += [(t, "two-player") for t in long_ones]
    cases = []
    for text, ruleset in texts:
        cases.append({"op": "parse_tiles", "args": [S(text)]})
        cases.append({"op": "parse_hand", "args": [S(text)]})
        cases.append({"op": "tile_kind", "args": [S(text)]})
        cases.append({"op": "Hand", "args": [S(text)], "kw": {"ruleset": ruleset}})
        for op in ("is_win", "waits", "shanten"):
            case = {"op": op, "args": [S(text)], "kw": {"ruleset": ruleset}}
            try:
                counts = mj.parse_hand(text).tolist()
            except mj.MahjongError:
                case["refuse"] = True
            else:
                case["expect"] = _reference(op, counts, ruleset)
            cases.append(case)
        cases.append({"op": "score", "args": [S(text), S(text[-2:])], "kw": {"ruleset": ruleset}})
        cases.append({"op": "live_waits", "args": [S(text), S(text[:4])], "kw": {"ruleset": ruleset}})
    return cases


def test_hostile_tile_strings():
    cases = _string_cases()
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("tile strings", cases, out)
    for case, r in zip(cases, out):
        if case["op"] == "parse_tiles" and r["outcome"] == "ok":
            assert all(0 <= t <= 41 for t in r["detail"])
        if case["op"] == "parse_hand" and r["outcome"] == "ok":
            assert len(r["detail"]) == 34 and all(0 <= c <= 4 for c in r["detail"])


# ------------------------------------------------------------------ count arrays
def _count_array_cases() -> list[dict]:
    rng = random.Random(11)
    cases = []
    for ruleset in RULESETS:
        for size in (1, 2, 4, 5, 13, 14, 14):
            base = _random_counts(rng, ruleset, size)
            for op in ("is_win", "waits", "waits_mask", "shanten"):
                want = _reference(op, base, ruleset)
                kw = {"ruleset": ruleset}
                # containers that keep the meaning: the reference answer
                for dt in INT_DTYPES:
                    for layout in ("C", "strided", "swapped"):
                        cases.append({"op": op, "args": [ARR(base, dt, layout=layout, readonly=rng.random() < 0.5)],
                                      "kw": kw, "expect": want})
                cases.append({"op": op, "args": [base], "kw": kw, "expect": want})
                cases.append({"op": op, "args": [{"$tuple": base}], "kw": kw, "expect": want})
                # wrong containers: refused
                for dt in BAD_DTYPES:
                    cases.append({"op": op, "args": [ARR(base, dt)], "kw": kw, "refuse": True})
                for shape_values in (base[:33], base + [0], [base[:17], base[17:]], [[c] for c in base], [],
                                     [base, base]):
                    cases.append({"op": op, "args": [shape_values], "kw": kw, "refuse": True})
                bad = list(base)
                k = rng.randrange(34)
                for v in (-1, 5, 255, 256, 2**31, 2**63 - 1, -2**63):
                    bad[k] = v
                    dt = "int64" if -2**63 <= v < 2**63 else None
                    cases.append({"op": op, "args": [ARR(list(bad), dt)], "kw": kw, "refuse": True})
                    cases.append({"op": op, "args": [list(bad)], "kw": kw, "refuse": True})
                bad[k] = 2**70
                cases.append({"op": op, "args": [list(bad)], "kw": kw, "refuse": True})
                cases.append({"op": op, "args": [ARR([4] * 34, "uint8")], "kw": kw, "refuse": True})
                cases.append({"op": op, "args": [[base[:10], base[10:], 5]], "kw": kw, "refuse": True})
                for odd in (None, 3, 4.5, {"$object": 1}, {"$bytes": [0] * 33}, {"$float": "nan"}):
                    cases.append({"op": op, "args": [odd], "kw": kw, "refuse": True})
            # other single-hand functions, same hostile containers
            for bad_arg in (ARR(base, "float64"), base[:33], [[1, 2], [3]], ARR([9] * 34, "int64"), 2**70):
                cases += [
                    {"op": "Hand", "args": [bad_arg], "kw": {"ruleset": ruleset}, "refuse": True},
                    {"op": "form_shanten", "args": [bad_arg, "standard"], "kw": {"ruleset": ruleset}, "refuse": True},
                    {"op": "form_is_win", "args": [bad_arg, "seven_pairs"], "kw": {"ruleset": ruleset}, "refuse": True},
                    {"op": "live_waits", "args": [base, bad_arg], "kw": {"ruleset": ruleset}, "refuse": True},
                    {"op": "to_counts", "args": [bad_arg], "refuse": True},
                    {"op": "format_counts", "args": [bad_arg], "refuse": True},
                ]
            for form in ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight",
                         "", "STANDARD", 3, None, ["standard"], 2**70):
                cases.append({"op": "form_shanten", "args": [base, form], "kw": {"ruleset": ruleset}})
                cases.append({"op": "form_is_win", "args": [base, form], "kw": {"ruleset": ruleset}})
    # live_waits: visible tiles outside the ruleset, more than four copies with the hand
    cases += [
        {"op": "live_waits", "args": ["1112345678999m", "1p"], "kw": {"ruleset": "two-player"}, "refuse": True,
         "errors": ["RulesetError"]},
        {"op": "live_waits", "args": ["1112345678999m", "1s"], "kw": {"ruleset": "two-player"}, "refuse": True,
         "errors": ["RulesetError"]},
        {"op": "live_waits", "args": ["1112345678999s", "5m"], "kw": {"ruleset": "two-player-bamboo"},
         "refuse": True, "errors": ["RulesetError"]},
        {"op": "live_waits", "args": ["1112345678999m", "11m"], "kw": {"ruleset": "two-player"}, "refuse": True,
         "errors": ["TileCountError"]},
        {"op": "live_waits", "args": ["1112345678999m", "1p"], "kw": {"ruleset": "public"},
         "expect": {"outcome": "ok", "detail": {str(k): v for k, v in mj.live_waits(
             "1112345678999m", "1p", ruleset="public").items()}}},
    ]
    for mask in (0, 1, (1 << 34) - 1, 1 << 34, -1, 4.5, "5", None, True, 2**70):
        cases.append({"op": "mask_to_tiles", "args": [mask]})
    return cases


def test_hostile_count_arrays():
    cases = _count_array_cases()
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("count arrays", cases, out)


# ------------------------------------------------------------------ Hand objects
def test_hostile_hand_object_updates():
    """Hand.add / remove / [] with every kind of argument: a tile or a clear refusal; a refused step
    leaves the hand unchanged (checked in the child)."""
    rng = random.Random(12)
    args = [0, 4, 33, 34, -1, 2**70, -2**70, 4.7, 4.0, True, False, None, "5m", "5p", "E", "1f", "55m", "", "x",
            {"$object": 1}, {"$bytes": [4]}, [4], {"$tuple": [4]}, ARR([4], "int64", shape=[]),
            ARR([4], "float64", shape=[]), ARR([True], "bool", shape=[]), ARR([4], "uint8")]
    cases = []
    for ruleset in RULESETS:
        for _ in range(80):
            tiles = mj.format_counts(_random_counts(rng, ruleset, rng.choice([0, 1, 12, 13, 14])))
            steps = [[rng.choice(["add", "remove", "getitem"]), rng.choice(args)] for _ in range(12)]
            cases.append({"op": "hand_session", "args": [tiles, ruleset, steps]})
    size3 = ["HandSizeError"] * 3      # is_win, waits, shanten of a 3-tile hand
    after = mj.parse_hand("235m").tolist()
    cases += [
        {"op": "hand_session", "args": ["123m", "two-player", [["add", 4.7]]],
         "expect": {"outcome": "ok", "detail": ["TileParseError"] + size3}},
        {"op": "hand_session", "args": ["123m", "two-player", [["add", "5m"], ["remove", "1m"], ["getitem", "5m"],
                                                               ["getitem", 34], ["add", "1f"], ["add", "1p"]]],
         "expect": {"outcome": "ok", "detail": [mj.parse_hand("1235m").tolist(), after, 1, "IndexError",
                                                "TileParseError", "RulesetError"] + size3}},
        {"op": "hand_session", "args": ["123m", "two-player", [["add", 2**70], ["add", True], ["remove", "55m"],
                                                               ["remove", -1], ["remove", "4m"]]],
         "expect": {"outcome": "ok", "detail": ["TileParseError", "TileParseError", "TileParseError", "TileParseError",
                                                "TileCountError"] + size3}},
        {"op": "hand_session", "args": ["123m", "two-player", [["add", "5m"]]],
         "expect": {"outcome": "ok", "detail": [mj.parse_hand("1235m").tolist(), "HandSizeError",
                                                hand_py.waits(mj.parse_hand("1235m").tolist(), "two-player"),
                                                hand_py.shanten(mj.parse_hand("1235m").tolist(), "two-player")]}},
    ]
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("Hand objects", cases, out)
    steps = [x for case, r in zip(cases, out) if r["outcome"] == "ok" for x in r["detail"][:len(case["args"][2])]]
    refused = Counter(x for x in steps if isinstance(x, str))
    print(f"[hostile] Hand objects: {len(steps)} add/remove/[] steps, {sum(refused.values())} refused {dict(refused)}")
    assert refused["TileParseError"] and refused["RulesetError"]


# ------------------------------------------------------------------ batch arrays of the hand functions
def _batch_cases() -> list[dict]:
    rng = random.Random(13)
    cases = []
    for ruleset in RULESETS:
        for op, size in (("is_win_batch", 14), ("waits_batch", 13), ("shanten_batch", 13)):
            single = {"is_win_batch": "is_win", "waits_batch": "waits_mask", "shanten_batch": "shanten"}[op]
            for n in (0, 1, 5):
                rows = [_random_counts(rng, ruleset, size) for _ in range(n)]
                want = {"outcome": "ok", "detail": [_reference(single, r, ruleset)["detail"] for r in rows]}
                kw = {"ruleset": ruleset}
                flat = [c for r in rows for c in r]
                for dt in INT_DTYPES:
                    for layout in ("C", "F", "strided", "swapped"):
                        cases.append({"op": op, "args": [ARR(flat, dt, [n, 34], layout, rng.random() < 0.5)],
                                      "kw": kw, "expect": want})
                cases.append({"op": op, "args": [rows], "kw": kw, "expect": want if n else None})
                for dt in BAD_DTYPES:
                    if n:
                        cases.append({"op": op, "args": [ARR(flat, dt, [n, 34])], "kw": kw, "refuse": True})
                if not n:
                    continue
                ragged = [list(r) for r in rows]
                ragged[-1] = ragged[-1][:33]
                for bad in (ragged, [rows[0] + [0]], [[str(c) for c in r] for r in rows],
                            [[float(c) for c in r] for r in rows], [[c + 0.5 for c in r] for r in rows],
                            flat, [rows], ARR(flat, "int64", [n, 34, 1]), ARR(flat, "int64", [n * 34]),
                            ARR(flat + [0] * 34, "int64", [n + 1, 34])[:0] if False else [[0] * 35]):
                    cases.append({"op": op, "args": [bad], "kw": kw, "refuse": True})
                bad = [list(r) for r in rows]
                bad[-1][rng.randrange(34)] = rng.choice([-1, 5, 256, 2**31, 2**40])
                cases.append({"op": op, "args": [ARR([c for r in bad for c in r], "int64", [n, 34])], "kw": kw,
                              "refuse": True})
                cases.append({"op": op, "args": [bad], "kw": kw, "refuse": True})
                nan = [[{"$float": "nan"}] + r[1:] for r in rows]
                inf = [[{"$float": "inf"}] + r[1:] for r in rows]
                cases += [{"op": op, "args": [nan], "kw": kw, "refuse": True},
                          {"op": op, "args": [inf], "kw": kw, "refuse": True},
                          {"op": op, "args": [[[2**70] + r[1:] for r in rows]], "kw": kw, "refuse": True},
                          {"op": op, "args": [ARR([5] * (34 * n), "uint8", [n, 34])], "kw": kw, "refuse": True},
                          {"op": op, "args": [ARR([4] * (34 * n), "uint8", [n, 34])], "kw": kw, "refuse": True}]
                for rs in ("nope", 3, None, ["public"], {"$object": 1}):
                    cases.append({"op": op, "args": [rows], "kw": {"ruleset": rs}, "refuse": True,
                                  "errors": ["RulesetError"]})
    return cases


def test_hostile_batch_arrays():
    cases = _batch_cases()
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("hand batch arrays", cases, out)


# ------------------------------------------------------------------ score and score_batch
# Winning hands of each ruleset: (hand, win, melds, flag keywords), valid under score().
WINS = {
    "two-player": [("123m456m789m11mEE", "E", [], {"self_drawn": True}), ("PPP999m5m", "5m", ["pon CCC", "pon FFF"], {}),
                   ("456m789m9m", "9m", ["kong CCCC", "chi 123m"], {"self_drawn": True, "kong_replacement": True})],
    "two-player-bamboo": [("123s456s789s11sEE", "E", [], {}), ("123s456s789sEEE9s", "9s", [], {"self_drawn": True})],
    "public": [("123m456p789s11pEE", "E", [], {}), ("1m4m7m2s5s8s3p7p7p9p", "6p", ["pon 6p6p6p"], {})],
    "mcr": [("123m456p789s11pEE", "E", [], {}), ("123p789pE", "E", ["kong 5555s", "ckong 9999m"], {})],
}


def _score_rows(ruleset):
    rows = []
    for hand, win, melds, flags in WINS[ruleset]:
        m = [list(mj.families.mahjong.scoring.parse_meld(x)) for x in melds] + [[255, 255]] * (4 - len(melds))
        f = sum(FLAGS[k] for k, v in flags.items() if v)
        rows.append((mj.parse_hand(hand).tolist(), mj.parse_tiles(win)[0], m, f))
    return rows


def _score_cases() -> list[dict]:
    rng = random.Random(14)
    cases = []
    junk = [None, True, False, 0, 1, -1, 2, 1.5, 0.0, {"$float": "nan"}, {"$float": "inf"}, "x", "", "E", "True",
            [], {}, [1, 2], {"$tuple": [1]}, 2**31, 2**70, -2**70, {"$object": 1}, {"$bytes": [69]}, 10**4000]
    for ruleset in RULESETS:
        for hand, win, melds, flags in WINS[ruleset]:
            base = {"ruleset": ruleset, "melds": melds, **flags}
            good = mj.score(hand, win, **base)
            ok_detail = {"total": good.total, "non_flower_total": good.non_flower_total, "fans": good.fan_counts}
            cases.append({"op": "score", "args": [hand, win], "kw": base, "expect": {"outcome": "ok", "detail": ok_detail}})
            for key in list(FLAGS) + ["ready_concealed", "caishen_enabled", "caishen_used_as_wild",
                                      "literal_first_turn_exclusions"]:
                for v in junk:
                    case = {"op": "score", "args": [hand, win], "kw": {**base, key: v}}
                    if not (v is True or v is False or (isinstance(v, int) and v in (0, 1)) or
                            (v is None and key == "ready_concealed")):
                        case["refuse"] = True     # a string, float, list ... is never a flag
                    cases.append(case)
            for key in ("min_fan", "flowers", "seat_wind", "round_wind", "replacement_bloom", "ruleset", "melds",
                        "caishen_enabled"):
                for v in junk:
                    cases.append({"op": "score", "args": [hand, win], "kw": {**base, key: v}})
            for v in junk:
                cases.append({"op": "score", "args": [hand, v], "kw": base})
                cases.append({"op": "score", "args": [v, win], "kw": base})
                cases.append({"op": "parse_meld", "args": [v]})
            for v in (1001, 2**31, -1, 1.0, "8", True):
                cases.append({"op": "score", "args": [hand, win], "kw": {**base, "min_fan": v}, "refuse": True})
            for m in (["pon CCC"] * 5, ["pon"], ["chi 123"], [("pon", [31, 31, 31, 31, 31])],
                      [("pon", "CCC", "x")], [("chi", [0, 1, 2.0])], [("chi", [0, 1, True])], "pon CCC",
                      [("pon", [2**70] * 3)], [("ckong", [0] * 10**3)], [{"$bytes": [1, 2]}]):
                cases.append({"op": "score", "args": [hand, win], "kw": {**base, "melds": m}, "refuse": True})
        # score_batch: every column mutated, values checked before any cast
        rows = _score_rows(ruleset)
        n = len(rows)
        H = [r[0] for r in rows]
        W = [r[1] for r in rows]
        M = [r[2] for r in rows]
        F = [r[3] for r in rows]
        good = {"ruleset": ruleset, "melds": M, "flags": F}
        cases.append({"op": "score_batch", "args": [H, W], "kw": good})
        for dt in INT_DTYPES:
            cases.append({"op": "score_batch", "args": [ARR([c for h in H for c in h], dt, [n, 34]),
                                                        ARR(W, "int64")],
                          "kw": {**good, "flags": ARR(F, "uint64" if dt.startswith("u") else "int64",
                                                      layout="strided")}})
        col_bad = {
            "win_tiles": [65563, 34, -2, 27.9, 27.0, 2**40, -2**40, "E", {"$float": "nan"}, {"$float": "inf"}, None,
                          True, 2**70],
            "flags": [1 << 12, 1 << 31, 2**32 + 1, -1, 1.5, "1", 2**70, {"$float": "nan"}],
            "flowers": [256, 2**32 + 1, -1, 1.5, "1f", 2**64, {"$float": "inf"}],
            "seat_winds": [26, 31, 283, 27 + 256, -1, 27.0, "E", 2**70],
            "round_winds": [26, 31, 283, 27 + 256, -229, 27.5, "S"],
        }
        for col, values in col_bad.items():
            for v in values:
                arr = {"win_tiles": list(W), "flags": list(F), "flowers": [0] * n, "seat_winds": [27] * n,
                       "round_winds": [27] * n}[col]
                arr[rng.randrange(n)] = v
                args = [H, arr if col == "win_tiles" else W]
                kw = dict(good) if col == "win_tiles" else {**good, col: arr}
                cases.append({"op": "score_batch", "args": args, "kw": kw, "refuse": True})
                for dt in ("int64", "uint64", "float64", "object"):
                    try:
                        lossless = np.array(arr, dtype=dt).tolist() == arr
                    except (ValueError, TypeError, OverflowError):
                        continue
                    if dt in ("int64", "uint64") and not (lossless and all(type(x) is int for x in arr)):
                        continue     # numpy itself would have changed the value before the call
                    spec = ARR(arr, dt)
                    kw2 = dict(good) if col == "win_tiles" else {**good, col: spec}
                    cases.append({"op": "score_batch", "args": [H, spec if col == "win_tiles" else W], "kw": kw2,
                                  "refuse": True})
        for mv in ([4, 0], [254, 0], [256, 0], [-1, 0], [0, 34], [1, 300], [2, -1], [0, 7], [1, 40],
                   [0, 2.5], ["pon", 3], [0, 2**70]):
            m = [[list(x) for x in row] for row in M]
            m[rng.randrange(n)][rng.randrange(4)] = mv
            cases.append({"op": "score_batch", "args": [H, W], "kw": {**good, "melds": m}, "refuse": True})
        for m in ([row[:3] for row in M], [[x[:1] for x in row] for row in M], M[:-1], [M], "pon CCC",
                  ARR([v for row in M for x in row for v in x], "float64", [n, 4, 2])):
            cases.append({"op": "score_batch", "args": [H, W], "kw": {**good, "melds": m}, "refuse": True})
        for bad_h in ([h[:33] for h in H], [H[0][:10]] + H[1:], ARR([c for h in H for c in h], "float64", [n, 34]),
                      [[c + 5 for c in h] for h in H], "123m"):
            cases.append({"op": "score_batch", "args": [bad_h, W], "kw": good, "refuse": True})
        for key, v in (("min_fan", 2**31), ("min_fan", -1), ("min_fan", 8.0), ("ruleset", "nope"),
                       ("ruleset", ["public"]), ("flags", F[:-1]), ("flags", [F]), ("win_tiles", None)):
            if key == "win_tiles":
                cases.append({"op": "score_batch", "args": [H, v], "kw": good, "refuse": True})
            else:
                cases.append({"op": "score_batch", "args": [H, W], "kw": {**good, key: v}, "refuse": True})
        cases.append({"op": "score_batch", "args": [[], []], "kw": {"ruleset": ruleset}})
        cases.append({"op": "score_batch", "args": [ARR([], "uint8", [0, 34]), ARR([], "int16")],
                      "kw": {"ruleset": ruleset}})
    return cases


def test_hostile_score_arguments():
    cases = _score_cases()
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("score / score_batch arguments", cases, out)
    # a valid batch answers exactly what score() answers, row by row
    for case, r in zip(cases, out):
        if case["op"] == "score_batch" and r["outcome"] == "ok" and r["detail"][0]:
            rs = case["kw"]["ruleset"]
            want = [mj.score(h, w, ruleset=rs, melds=m, **f).total for h, w, m, f in WINS[rs]]
            assert r["detail"][0] == want, case


# ------------------------------------------------------------------ the compiled entry points, called directly
def _compiled_cases() -> list[dict]:
    cases = []
    full = mj.get_ruleset("public").kind_mask
    hand14 = mj.parse_hand("123m456p789s11pEEE").tolist()
    for counts in (hand14, [4] * 34, [4] * 33 + [2], [0] * 34, [14] + [0] * 33, [134] + [0] * 33):
        for dt in ("uint8", "int64"):
            a = ARR(counts, dt)
            cases += [
                {"op": "_hand.discard_eval", "args": [a, full, True, (1 << 34) - 1, [4] * 34]},
                {"op": "_hand.form_shanten", "args": [a, full, 0]},
                {"op": "_hand.form_is_win", "args": [a, full, 4]},
                {"op": "_hand.is_win_batch", "args": [ARR(counts, dt, [1, 34]), full, True]},
                {"op": "_hand.waits_batch", "args": [ARR(counts, dt, [1, 34]), full, False]},
                {"op": "_hand.shanten_batch", "args": [ARR(counts, dt, [1, 34]), full, True]},
            ]
    for v in (-1, 2**34, 2**64, 2**70, 1.5, "x", None, True):
        a = ARR(hand14, "uint8")
        cases += [
            {"op": "_hand.discard_eval", "args": [a, v, True, 1 << 0, [4] * 34], "refuse": True},
            {"op": "_hand.discard_eval", "args": [a, full, True, v, [4] * 34], "refuse": True},
            {"op": "_hand.discard_eval", "args": [a, full, v, 1, [4] * 34], "refuse": v is not True},
            {"op": "_hand.discard_eval", "args": [a, full, True, 1, [v] * 34], "refuse": v != -1},
            {"op": "_hand.form_shanten", "args": [a, full, v], "refuse": True},
            {"op": "_hand.form_is_win", "args": [a, v, 0], "refuse": True},
            {"op": "_hand.is_win_batch", "args": [ARR(hand14, "uint8", [1, 34]), v, True], "refuse": True},
            {"op": "_hand.shanten_batch", "args": [ARR(hand14, "uint8", [1, 34]), full, v],
             "refuse": v is not True},
        ]
    for bad in (ARR(hand14, "float64", [1, 34]), ARR(hand14, "uint8", [2, 17]), [hand14], "x", None):
        cases.append({"op": "_hand.is_win_batch", "args": [bad, full, True], "refuse": True})
    base = [2, ARR(mj.parse_hand("123m456p789s11pEE").tolist(), "uint8"), 27, ARR([], "uint8", [0, 2]), 0, 0, 27,
            27, 8, 0, ARR([0] * 82, "uint16")]
    cases.append({"op": "_fan.evaluate", "args": base})
    for i in (0, 2, 4, 5, 6, 7, 8, 9):
        for v in (-1, 2**31, 2**32, 2**63, 2**70, -2**70, 1.5, "1", None, 255, 1 << 12):
            args = list(base)
            args[i] = v
            cases.append({"op": "_fan.evaluate", "args": args})
    for i, bad in ((1, ARR([200] * 34, "uint8")), (1, ARR([14] + [0] * 33, "uint8")), (1, ARR([0] * 33, "uint8")),
                   (1, ARR([0] * 34, "int64")), (3, ARR([0, 40] * 5, "uint8", [5, 2])),
                   (3, ARR([3, 33] * 9, "uint8", [9, 2])), (3, ARR([0] * 6, "uint8", [2, 3])),
                   (10, ARR([0] * 81, "uint16")), (10, ARR([0] * 82, "uint16", readonly=True))):
        args = list(base)
        args[i] = bad
        cases.append({"op": "_fan.evaluate", "args": args, "refuse": True})
    batch = [2, ARR(mj.parse_hand("123m456p789s11pEE").tolist(), "uint8", [1, 34]), ARR([27], "int16"),
             ARR([255] * 8, "uint8", [1, 4, 2]), ARR([0], "uint32"), ARR([0], "uint32"), ARR([27], "uint8"),
             ARR([27], "uint8"), 8, 0]
    cases.append({"op": "_fan.evaluate_batch", "args": batch})
    for i, bad in ((1, ARR([0] * 34, "int64", [1, 34])), (2, ARR([27], "int64")), (2, ARR([900], "int16")),
                   (3, ARR([255] * 6, "uint8", [1, 3, 2])), (4, ARR([1 << 20], "uint32")), (4, ARR([0], "int32")),
                   (5, ARR([256], "uint32")), (6, ARR([200], "uint8")), (7, ARR([27, 27], "uint8")),
                   (0, 9), (0, 2**70), (8, 2**40), (9, 1 << 30), (9, -1), (1, None), (2, "x")):
        args = list(batch)
        args[i] = bad
        cases.append({"op": "_fan.evaluate_batch", "args": args, "refuse": True})
    for v in (-1, 4, 2**70, 1.5, "public", None):
        cases.append({"op": "_fan.fan_count", "args": [v], "refuse": True, "errors": ["RulesetError"]})
        cases.append({"op": "_fan.fan_ids", "args": [v], "refuse": True, "errors": ["RulesetError"]})
    return cases


def test_hostile_compiled_entry_points():
    """The importable compiled functions check their own arguments: nothing of unchecked size or
    range reaches the C loops (e.g. discard_eval of 134 or 136 tiles is refused)."""
    cases = _compiled_cases()
    out = run_cases(TARGET, cases)
    _check(cases, out)
    _report("compiled entry points", cases, out)
    by = {json_key(c): r for c, r in zip(cases, out)}
    big = {"op": "_hand.discard_eval", "args": [ARR([4] * 33 + [2], "uint8"), mj.get_ruleset("public").kind_mask,
                                                 True, (1 << 34) - 1, [4] * 34]}
    assert by[json_key(big)]["outcome"] == "refused"


def json_key(case: dict) -> str:
    import json

    return json.dumps(case, sort_keys=True)


# ------------------------------------------------------------------ values the shared helpers cannot print
def test_unprintable_values_at_the_validate_helpers():
    cases = [
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"min_fan": {"$pow10": 5000}}},
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"self_drawn": {"$hostile": 1}}},
        {"op": "mask_to_tiles", "args": [{"$pow10": 5000}]},
    ]
    run_cases(TARGET, cases)


def test_unprintable_values_in_this_layer_are_refused():
    """The hand and scoring layer itself never prints an unprintable value."""
    big = {"$pow10": 5000}
    cases = [
        {"op": "hand_session", "args": ["123m", "two-player", [["add", big], ["remove", {"$hostile": 1}],
                                                               ["getitem", big]]]},
        {"op": "score", "args": ["123m456m789m11mEE", big]},
        {"op": "score", "args": ["123m456m789m11mEE", {"$hostile": 1}]},
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"seat_wind": {"$hostile": 1}}},
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"flowers": big}},
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"melds": [{"$hostile": 1}]}},
        {"op": "score", "args": ["123m456m789m11mEE", "E"], "kw": {"replacement_bloom": {"$hostile": 1}}},
        {"op": "tile_kind", "args": [big]},
        {"op": "to_counts", "args": [[big] + [0] * 33]},
        {"op": "_fan.evaluate", "args": [big, [0] * 34, 0, [], 0, 0, 27, 27, 8, 0, []]},
        {"op": "_fan.fan_count", "args": [{"$hostile": 1}]},
    ]
    out = run_cases(TARGET, cases)
    assert all(r["outcome"] in ("refused", "ok") for r in out)
    assert [r["outcome"] for r in out[1:]] == ["refused"] * (len(cases) - 1), out
    assert out[0]["detail"][:3] == ["TileParseError", "TileParseError", "IndexError"]
