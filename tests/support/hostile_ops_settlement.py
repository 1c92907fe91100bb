"""Child-side operations of tests/hostile/test_hostile_settlement.py (run by _isolated_runner.py).

Each function takes one JSON case, builds the settlement objects from it (rooms, outcomes,
ledgers, trackers), runs the operation and either lets a MahjongError through (after checking
that the ledger or tracker is exactly as before) or checks the invariants of an applied
operation: the total changes only by deposits, no balance is negative, the recorded transfers
are the old ones plus the new ones and replaying the new ones gives the new balances.  A
broken invariant raises AssertionError, which the parent reports as a failure with the case.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from mahjong_core.errors import MahjongError
from mahjong_core.settlement import (
    ROOMS,
    EscapeTracker,
    HandOutcome,
    Ledger,
    Transfer,
    level_of,
    settle_hand,
    update_score,
)

_ROUNDS: dict = {}


def _room(spec: Any) -> Any:
    """A preset name as it is (settle_hand resolves it), or {"preset": name, "set": {field: value}}."""
    if isinstance(spec, dict) and "preset" in spec:
        return dataclasses.replace(ROOMS[spec["preset"]], **spec.get("set", {}))
    return spec


def _hashable(key: Any) -> Any:
    """A JSON list or object used as a dict key becomes a tuple (a key must be hashable to exist)."""
    if isinstance(key, dict):
        key = list(key.items())
    return tuple(_hashable(k) for k in key) if isinstance(key, list) else key


def _balances(spec: Any) -> Any:
    """Opening balances as a list of [name, value] pairs (JSON keys are strings only), or a
    hostile non-list value passed through as it is."""
    if isinstance(spec, list) and all(isinstance(p, list) and len(p) == 2 for p in spec):
        return {_hashable(k): v for k, v in spec}
    return spec


def _check_applied(led: Ledger, before: dict, new: list, deposited: int = 0) -> None:
    after = led.to_dict()
    old_total = sum(before["balances"].values())
    assert sum(after["balances"].values()) == old_total + deposited == led.total, "the total changed"
    assert all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in after["balances"].values()), \
        f"a balance is negative or not an int: {after['balances']}"
    assert after["transfers"] == before["transfers"] + [t.to_dict() for t in new], "history rewritten"
    replay = dict(before["balances"])
    for t in new:
        assert isinstance(t.amount, int) and t.amount >= 0
        if t.reason == "deposit":
            replay[t.payee] = t.amount
            continue
        replay[t.payer] -= t.amount
        replay[t.payee] += t.amount
        assert replay[t.payer] >= 0, "a transfer overdrew its payer"
    assert replay == after["balances"], "the balances are not the replay of the transfers"


def _refused_unchanged(led: Ledger, before: dict, fn, *args) -> Any:
    try:
        return fn(*args)
    except MahjongError:
        assert led.to_dict() == before, "refused, but the ledger changed"
        raise


def settle(case: dict) -> dict:
    """Settle one (possibly mutated) outcome in a (possibly mutated) room on a (possibly mutated) ledger."""
    led = Ledger(_balances(case["balances"]))
    before = led.to_dict()

    def run():
        room = _room(case["room"])
        outcome = HandOutcome(**case["outcome"])
        return settle_hand(led, room, outcome)

    transfers = _refused_unchanged(led, before, run)
    _check_applied(led, before, transfers)
    return {"transfers": len(transfers), "moved": sum(t.amount for t in transfers)}


def ledger_op(case: dict) -> dict:
    """One ledger operation with mutated arguments on a valid ledger."""
    led = Ledger(_balances(case["balances"]))
    before = led.to_dict()
    op, args = case["op"], case["args"]
    if op == "apply":
        requests = args[0]
        if isinstance(requests, list):
            requests = [tuple(r) if isinstance(r, list) and case.get("tuples", True) else r for r in requests]
        new = _refused_unchanged(led, before, led.apply, requests, *args[1:])
        _check_applied(led, before, new)
        return {"applied": len(new)}
    if op == "open":
        _refused_unchanged(led, before, led.open, *args)
        new = led.transfers[len(before["transfers"]):]
        assert len(new) == 1 and new[0].reason == "deposit"
        _check_applied(led, before, new, deposited=new[0].amount)
        return {"opened": new[0].payee}
    if op == "balance":
        value = _refused_unchanged(led, before, led.balance, *args)
        assert led.to_dict() == before
        return {"balance": value}
    raise AssertionError(op)


def ledger_new(case: dict) -> dict:
    """Construct a Ledger from mutated opening balances and (optionally) a mutated history."""
    transfers = case.get("transfers")
    if transfers is not None:
        transfers = [Transfer(**t) if isinstance(t, dict) else t for t in transfers]
    led = Ledger(_balances(case["balances"]), transfers)
    d = led.to_dict()
    assert d["balances"]["system"] >= 0
    assert all(isinstance(k, str) and k for k in d["balances"])
    assert all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in d["balances"].values())
    assert led.total == sum(d["balances"].values())
    return {"accounts": len(d["balances"]), "transfers": len(d["transfers"])}


def escape(case: dict) -> dict:
    """Report (possibly mutated) events to a tracker; a refused report counts nothing."""
    tracker = EscapeTracker(_room(case["room"]), case.get("players"))
    out = []
    for event in case["events"]:
        before = list(tracker.disconnects)
        try:
            out.append(tracker.report(*event))
        except MahjongError:
            assert tracker.disconnects == before, "a refused report changed the counters"
            raise
    return {"escapes": out}


def level(case: dict) -> dict:
    fn = {"level_of": level_of, "update_score": update_score}[case["fn"]]
    value = fn(*case["args"])
    if case["fn"] == "update_score":
        assert isinstance(value, int) and value >= 0
        return {"points": value}
    return {"level": value.number}


def _won_round(ruleset: str, seed: int) -> Any:
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import GreedyBot, Round

    key = (ruleset, seed)
    if key not in _ROUNDS:
        for s in range(seed, seed + 200):
            rnd = Round(ruleset, seed=s)
            res = play_round(rnd, [GreedyBot()] * rnd.players)
            if not res.draw:
                _ROUNDS[key] = res.to_dict()
                break
    return copy.deepcopy(_ROUNDS[key])


def from_result(case: dict) -> dict:
    """Mutate one field of a real finished round's result, build the outcome with
    HandOutcome.from_result and settle it."""
    from mahjong_core.families.mahjong.api import RoundResult

    d = _won_round(case["ruleset"], case["seed"])
    target = d
    *path, last = case["path"]
    for key in path:
        target = target[key]
    target[last] = case["value"]
    players = case["players"]
    outcome = HandOutcome.from_result(RoundResult(d), players, round=case.get("round"))
    led = Ledger({p: 10_000 for p in players})
    before = led.to_dict()
    transfers = _refused_unchanged(led, before, settle_hand, led, case["room"], outcome)
    _check_applied(led, before, transfers)
    return {"winner": outcome.winner, "moved": sum(t.amount for t in transfers)}
