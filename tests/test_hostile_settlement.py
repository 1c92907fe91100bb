"""Hostile settlement input (issue 10): rooms, outcomes, ledger operations, opening balances,
escape reports, levels and finished-round results, mutated field by field (and a few fields at
once) with huge, negative, boolean, float, string, NaN and structured values.

Every case runs in one child interpreter (``conftest.run_cases``) that checks, for each case,
that a refusal is a MahjongError with the ledger (or tracker) unchanged and that an applied
operation kept the total, left no negative balance and recorded exactly what moved.  Here the
parent checks that every value which is not what the field means (a bool where an integer is
meant, a float, a string, a negative or out-of-range number) was refused with a message naming
the field.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

import pytest

from conftest import run_cases
from mahjong_core.families.mahjong.rulesets import MAX_MIN_FAN

pytestmark = pytest.mark.hostile

HOSTILE: list[Any] = [
    -1, -(2 ** 70), 2 ** 70, 2 ** 31, 2 ** 63, 10 ** 30, 0, 1, 3, True, False, 1.5, 8.0, -0.0,
    math.nan, math.inf, -math.inf, "8", "", None, [], {}, [1], "system", "outside", "x" * 5000,
]
"""Values tried in every field (JSON-able; tuples travel as lists)."""

# ------------------------------------------------------------------ what each field accepts
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def int_in(lo: int, hi: "int | None" = None, optional: bool = False) -> Callable[[Any], bool]:
    return lambda v: (optional and v is None) or (_is_int(v) and v >= lo and (hi is None or v <= hi))


def _seconds(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 1e9


def _name(v: Any) -> bool:
    return isinstance(v, str) and v != ""


ROOM_FIELDS: dict[str, Callable[[Any], bool]] = {
    "name": _name,
    "ruleset": lambda v: v in ("two-player", "two-player-bamboo", "public"),
    "profile": lambda v: v in ("coins_000", "beans_004", "bamboo_001", "public_mcr"),
    "value_per_fan": int_in(0), "base": int_in(0), "coefficient": int_in(0, optional=True),
    "entry_min": int_in(0), "entry_max": int_in(0, optional=True), "table_fee": int_in(0),
    "service_fee_ratio": int_in(0, 10_000), "escape_multiplier": int_in(0), "escape_system_share": int_in(0, 100),
    "min_fan": int_in(0, MAX_MIN_FAN, optional=True),
    "escape_rules": lambda v: isinstance(v, list) and all(r in ("forced_quit", "away", "closed_client", "disconnects")
                                                          for r in v if isinstance(r, str)) and all(isinstance(r, str) for r in v),
    "away_limit_s": _seconds, "escape_disconnects": int_in(1), "extra": lambda v: isinstance(v, dict),
}
ROOM_VALUES: dict[str, list] = {
    "ruleset": ["two-player", "public", "riichi"], "profile": ["coins_000", "public_mcr", "nope"],
    "escape_rules": [["away"], ["forced_quit", "disconnects"], ["teleport"], "away", [1]],
    "away_limit_s": [0.5, 1e9, 1e9 + 1], "min_fan": [MAX_MIN_FAN, MAX_MIN_FAN + 1, 100],
    "escape_system_share": [100, 101], "service_fee_ratio": [10_000, 10_001],
}

OUTCOME_FIELDS: dict[str, Callable[[Any], bool]] = {
    "players": lambda v: False,        # only valid player lists are "any" (see _players_ok)
    "winner": int_in(0, 3, optional=True), "loser": int_in(0, 3, optional=True),
    "escaped": int_in(0, 3, optional=True),
    "method": lambda v: v is None or v in ("self_drawn", "discard", "robbing"),
    "hand_value": int_in(0), "non_flower_total": int_in(0), "round": int_in(0, optional=True),
    "min_fan": int_in(0, MAX_MIN_FAN, optional=True),
}
PLAYER_LISTS = [["a", "b"], ["a", "b", "c", "d"], ["a", "a"], ["a"], ["a", "b", "c", "d", "e"], ["a", ""],
                ["a", 1], ["a", "system"], ["outside", "b"], ["a", "b", "c"], ["a", "zz"], "ab", ["a", None],
                [["a"], "b"]]

PRESETS = {
    # preset room, players, opening balances, outcome shapes
    "beginner": ("beginner", ["a", "b"]),
    "coins": ("coins", ["a", "b"]),
    "bamboo": ("bamboo", ["a", "b"]),
    "public": ("public", ["a", "b", "c", "d"]),
}


def _shapes(players: list[str]) -> list[dict]:
    return [
        {"players": players, "winner": 0, "loser": 1, "method": "discard", "hand_value": 20,
         "non_flower_total": 18, "round": 1},
        {"players": players, "winner": 1, "method": "self_drawn", "hand_value": 12, "non_flower_total": 12},
        {"players": players, "round": 2},
        {"players": players, "escaped": 1, "round": 3},
    ]


def _balances(players: list[str], rng: random.Random) -> list:
    return [[p, rng.choice([0, 5, 1_000, 50_000])] for p in players]


def _case(kind_fields: str, field: str, mutated: Any, ok: Callable[[Any], bool], **case: Any) -> dict:
    """A case with what the parent expects: "refuse" (the value is not what the field means) or "any"."""
    case["_expect"] = "any" if ok(mutated) else "refuse"
    case["_field"] = f"{kind_fields}.{field}"
    return case


def _players_ok(v: Any) -> bool:
    return (isinstance(v, list) and 2 <= len(v) <= 4 and all(_name(p) and p not in ("system", "outside") for p in v)
            and len(set(v)) == len(v))


# ------------------------------------------------------------------ case generators
def settle_cases() -> list[dict]:
    rng = random.Random(10)
    out = []
    for room, players in PRESETS.values():
        win = _shapes(players)[0]
        for field, ok in ROOM_FIELDS.items():
            for value in HOSTILE + ROOM_VALUES.get(field, []):
                out.append(_case("room", field, value, ok, balances=_balances(players, rng),
                                 room={"preset": room, "set": {field: value}}, outcome=win))
        for shape in _shapes(players):
            for field, ok in OUTCOME_FIELDS.items():
                values = PLAYER_LISTS if field == "players" else HOSTILE + [2, 4]
                for value in values:
                    check = _players_ok if field == "players" else ok
                    out.append(_case("outcome", field, value, check, balances=_balances(players, rng),
                                     room=room, outcome={**shape, field: value}))
        for value in HOSTILE:                     # one opening balance mutated
            bal = _balances(players, rng)
            bal[0][1] = value
            out.append(_case("balances", "balance", value, int_in(0), balances=bal, room=room, outcome=_shapes(players)[0]))
    for value in HOSTILE + ["beginner", "vip"]:     # the room argument itself
        out.append(_case("settle", "room", value, lambda v: v == "beginner", balances=[["a", 10], ["b", 10]],
                         room=value, outcome=_shapes(["a", "b"])[0]))
    return out


def random_settle_cases(n: int) -> list[dict]:
    """Several fields mutated at once (room, outcome and balances); no expectation but the
    child's invariants."""
    rng = random.Random(2026)
    pool = HOSTILE + [0, 1, 2, 3, 8, 20, 100, "discard", "self_drawn", "robbing", None]
    out = []
    for _ in range(n):
        preset = rng.choice(list(PRESETS))
        room, players = PRESETS[preset]
        outcome = dict(rng.choice(_shapes(players)))
        for field in rng.sample(list(OUTCOME_FIELDS)[1:], rng.randrange(0, 3)):
            outcome[field] = rng.choice(pool)
        room_set = {f: rng.choice(pool + ROOM_VALUES.get(f, [])) for f in rng.sample(list(ROOM_FIELDS), rng.randrange(0, 3))}
        bal = _balances(players, rng)
        if rng.random() < 0.3:
            bal[rng.randrange(len(bal))][1] = rng.choice(pool)
        out.append({"_expect": "any", "_field": "random", "balances": bal,
                    "room": {"preset": room, "set": room_set}, "outcome": outcome})
    return out


VALID_BALANCES = [["a", 100], ["b", 50]]


def ledger_op_cases() -> list[dict]:
    out = []
    base = ["a", "b", 30, "win"]
    checks = {0: lambda v: v in ("a", "b"), 1: lambda v: v in ("a", "b"), 2: int_in(0), 3: _name}
    names = {0: "payer", 1: "payee", 2: "amount", 3: "reason"}
    for k in range(4):
        for value in HOSTILE + ["a", "b", "ghost"]:
            req = list(base)
            req[k] = value
            ok = checks[k]
            if k in (0, 1):
                other = req[1 - k]
                ok = (lambda v, other=other: v in ("a", "b", "system") and v != other)
            out.append(_case("apply", names[k], value, ok, balances=VALID_BALANCES, op="apply", args=[[req]]))
            # the bad request second in a batch: the first, valid one must not be applied either
            out.append(_case("apply", names[k], value, ok, balances=VALID_BALANCES, op="apply",
                             args=[[["a", "b", 5, "x"], req]]))
    for value in HOSTILE:
        out.append(_case("apply", "round", value, int_in(0, optional=True), balances=VALID_BALANCES, op="apply",
                         args=[[base], value]))
        out.append(_case("apply", "request", value, lambda v: v == [], balances=VALID_BALANCES, op="apply",
                         args=[value]))
        out.append(_case("open", "account", value, lambda v: _name(v) and v not in ("a", "b", "system", "outside"),
                         balances=VALID_BALANCES, op="open", args=[value, 10]))
        out.append(_case("open", "balance", value, int_in(0), balances=VALID_BALANCES, op="open", args=["c", value]))
        out.append(_case("balance", "account", value, lambda v: v in ("a", "b", "system"), balances=VALID_BALANCES,
                         op="balance", args=[value]))
    for shape in (["a", "b"], ["a", "b", 1], ["a", "b", 1, "x", "y"], [], "abcd", {"payer": "a"}):
        out.append(_case("apply", "request", shape, lambda v: False, balances=VALID_BALANCES, op="apply",
                         args=[[shape]], tuples=False))
    return out


def ledger_new_cases() -> list[dict]:
    out = []
    for value in HOSTILE:
        out.append(_case("Ledger", "balance", value, int_in(0), balances=[["a", value]]))
        out.append(_case("Ledger", "name", value, _name, balances=[[value, 5]]))
        out.append(_case("Ledger", "balances", value, lambda v: v is None or (isinstance(v, (list, dict)) and not v),
                         balances=value))
    transfer = {"payer": "a", "payee": "b", "amount": 5, "reason": "win", "round": 1, "requested": None}
    tchecks = {"payer": lambda v: _name(v) and v != "b", "payee": lambda v: _name(v) and v != "a",
               "amount": int_in(0), "reason": _name, "round": int_in(0, optional=True),
               "requested": lambda v: v is None or (_is_int(v) and v > 5)}
    for field, ok in tchecks.items():
        for value in HOSTILE:
            out.append(_case("Transfer", field, value, ok, balances=VALID_BALANCES,
                             transfers=[{**transfer, field: value}]))
    out.append(_case("Ledger", "transfers", "x", lambda v: False, balances=VALID_BALANCES, transfers=["x"]))
    return out


def escape_cases() -> list[dict]:
    out = []
    events = {"event": ("disconnect", lambda v: v in ("forced_quit", "away", "closed_client", "disconnect")),
              "seat": (1, int_in(0, 1)), "seconds": (95.0, _seconds)}
    for room in ("coins", "bamboo"):
        for k, (field, (_, ok)) in enumerate(events.items()):
            for value in HOSTILE + ["away", "forced_quit"]:
                ev = [e for e, _ in events.values()]
                ev[k] = value
                out.append(_case("report", field, value, ok, room=room, events=[["away", 0, 10], ev, ev, ev]))
        for value in HOSTILE:
            out.append(_case("EscapeTracker", "players", value, lambda v: v is None or (_is_int(v) and v == 2),
                             room=room, players=value, events=[]))
            out.append(_case("EscapeTracker", "room", value, lambda v: False, room=value, events=[]))
    return out


def level_cases() -> list[dict]:
    out = []
    for value in HOSTILE:
        out.append(_case("level_of", "积分", value, int_in(0), fn="level_of", args=[value]))
        out.append(_case("update_score", "积分", value, int_in(0), fn="update_score", args=[value, 5, True]))
        out.append(_case("update_score", "hand_value", value, int_in(0), fn="update_score", args=[50, value, False]))
        out.append(_case("update_score", "won", value, lambda v: v in (0, 1) and not isinstance(v, float),
                         fn="update_score", args=[50, 5, value]))
    return out


def from_result_cases() -> list[dict]:
    out = []
    paths = {   # the field of the result -> (the outcome field that the refusal names, what it accepts)
        ("winners", 0, "seat"): ("winner", int_in(0, 3)),
        ("winners", 0, "loser"): ("loser", int_in(0, 3, optional=True)),
        ("winners", 0, "method"): ("method", lambda v: v in ("self_drawn", "discard", "robbing")),
        ("winners", 0, "total"): ("total", lambda v: True), ("draw",): ("draw", lambda v: isinstance(v, bool)),
        ("winners", 0, "non_flower_total"): ("non_flower_total", lambda v: True),
    }
    for ruleset, seed, players, room in (("two-player", 1, ["a", "b"], "coins"), ("public", 3, ["a", "b", "c", "d"], "public")):
        for path, (named, ok) in paths.items():
            for value in HOSTILE + [2, 4, "discard", "self_drawn"]:
                out.append(_case("result", named, value, ok, ruleset=ruleset, seed=seed,
                                 players=players, room=room, path=list(path), value=value))
    return out


# ------------------------------------------------------------------ the tests
def _check(target: str, cases: list[dict]) -> tuple[int, int]:
    """Run the cases; every value that is not what its field means must be refused with a message
    naming the field.  Returns (cases run, cases refused)."""
    results = run_cases(target, cases)
    assert len(results) == len(cases)
    refused = 0
    for case, res in zip(cases, results):
        if res["outcome"] == "refused":
            refused += 1
        if case["_expect"] == "refuse":
            assert res["outcome"] == "refused", f"{case['_field']}: {repr(case)[:300]} was accepted: {res}"
            word = case["_field"].split(".")[-1]
            assert word in res["message"], f"{case['_field']}: the message does not name it: {res['message']}"
    print(f"{target}: {len(cases)} mutated inputs, {refused} refused, {len(cases) - refused} applied")
    return len(cases), refused


def test_settle_hand_mutations():
    total, refused = _check("hostile_ops_settlement:settle", settle_cases())
    assert total > 3_000 and 0 < refused < total


def test_random_multi_field_mutations_keep_the_ledger_whole():
    total, refused = _check("hostile_ops_settlement:settle", random_settle_cases(1_500))
    assert 0 < refused < total


def test_ledger_operation_mutations():
    total, refused = _check("hostile_ops_settlement:ledger_op", ledger_op_cases())
    assert 0 < refused < total


def test_ledger_construction_mutations():
    total, refused = _check("hostile_ops_settlement:ledger_new", ledger_new_cases())
    assert 0 < refused < total


def test_escape_report_mutations():
    total, refused = _check("hostile_ops_settlement:escape", escape_cases())
    assert 0 < refused < total


def test_level_mutations():
    total, refused = _check("hostile_ops_settlement:level", level_cases())
    assert 0 < refused < total


def test_finished_round_result_mutations():
    total, refused = _check("hostile_ops_settlement:from_result", from_result_cases())
    assert 0 < refused < total
