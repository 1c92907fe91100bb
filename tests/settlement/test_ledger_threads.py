"""One :class:`Ledger` shared by several threads (issue 10, item 5).

Settling threads and an account-opening thread run at once, with the interpreter's switch
interval at one microsecond so that threads are interrupted inside every read-modify-write.
The recorded transfers are then replayed one by one from the empty ledger: the final balances
must be exactly the replay's (no lost update, no lost account), the total must be the sum of
the deposits, and no balance may go below zero at any point of the replay.
"""

from __future__ import annotations

import random
import threading

import pytest

import dataclasses

from mahjong_core.settlement import ROOMS, SYSTEM, HandOutcome, Ledger, settle_hand

SETTLERS = 4
HANDS_PER_SETTLER = 400
OPENED_BY_THIRD_THREAD = 300
PLAYERS = ("a", "b", "c", "d")
PENALTY_ROOM = dataclasses.replace(ROOMS["public"], escape_multiplier=40, escape_system_share=25)


def replay(transfers) -> dict[str, int]:
    """Balances obtained by applying the recorded transfers in order to an empty ledger;
    asserts that no balance is ever negative on the way."""
    balances = {SYSTEM: 0}
    for k, t in enumerate(transfers):
        if t.reason == "deposit":
            assert t.payee not in balances, f"transfer {k}: account {t.payee!r} opened twice"
            balances[t.payee] = t.amount
            continue
        balances[t.payer] -= t.amount
        balances[t.payee] += t.amount
        assert balances[t.payer] >= 0, f"transfer {k} leaves {t.payer!r} negative"
    return balances


def _run(threads: list[threading.Thread]) -> None:
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
        assert not th.is_alive(), "a ledger thread did not finish (deadlock?)"


def test_threads_settling_and_opening_lose_nothing(fast_switching):
    led = Ledger()
    for name in PLAYERS:
        led.open(name, 50_000)
    errors: list[BaseException] = []

    def settler(k: int) -> None:
        rng = random.Random(k)
        try:
            for hand in range(HANDS_PER_SETTLER):
                winner = rng.randrange(4)
                loser = (winner + 1 + rng.randrange(3)) % 4
                out = HandOutcome(PLAYERS, winner=winner, loser=loser, method="discard",
                                  hand_value=8 + rng.randrange(40), non_flower_total=8, round=hand)
                settle_hand(led, "public", out)
                # an escape: the escaper's balance is read and the penalty split under one lock
                settle_hand(led, PENALTY_ROOM, HandOutcome(PLAYERS, escaped=rng.randrange(4), round=hand))
                # a raw batch as well: two payments and a fee in one atomic apply
                p, q = rng.sample(PLAYERS, 2)
                led.apply([(p, q, rng.randrange(100), "x"), (q, p, rng.randrange(100), "x"),
                           (p, SYSTEM, 1, "table_fee")], round=hand)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    def opener() -> None:
        try:
            for i in range(OPENED_BY_THIRD_THREAD):
                led.open(f"late{i}", 1_000 + i)
                assert led.balance(f"late{i}") == 1_000 + i      # nobody else pays these accounts
                assert led.total >= 4 * 50_000                     # a consistent read while others write
        except BaseException as exc:
            errors.append(exc)

    _run([threading.Thread(target=settler, args=(k,)) for k in range(SETTLERS)] + [threading.Thread(target=opener)])
    assert not errors, errors
    transfers = list(led.transfers)
    final = dict(led.balances)
    deposits = sum(t.amount for t in transfers if t.reason == "deposit")
    escapes = [t for t in transfers if t.reason == "escape_penalty"]
    assert len(escapes) == SETTLERS * HANDS_PER_SETTLER * 4          # system share + three stayers
    assert len(transfers) == len(PLAYERS) + OPENED_BY_THIRD_THREAD + SETTLERS * HANDS_PER_SETTLER * 10
    assert final == replay(transfers)                   # no lost update, no lost account
    assert sum(final.values()) == led.total == deposits == 4 * 50_000 + sum(1_000 + i for i in range(OPENED_BY_THIRD_THREAD))
    assert all(f"late{i}" in final for i in range(OPENED_BY_THIRD_THREAD))
    assert min(final.values()) >= 0


def test_concurrent_failures_leave_no_trace(fast_switching):
    """Threads whose batches fail half-way (unknown account) run beside threads that succeed:
    the failing batches record nothing and the others are all there."""
    led = Ledger()
    for name in ("a", "b"):
        led.open(name, 10_000)
    errors: list[BaseException] = []
    refused = []

    def good() -> None:
        try:
            for _ in range(500):
                led.apply([("a", "b", 3, "x"), ("b", "a", 2, "x")])
        except BaseException as exc:
            errors.append(exc)

    def bad() -> None:
        for _ in range(500):
            try:
                led.apply([("a", "b", 3, "x"), ("a", "ghost", 1, "x")])
            except ValueError as exc:
                refused.append(exc)

    _run([threading.Thread(target=good), threading.Thread(target=good), threading.Thread(target=bad)])
    assert not errors and len(refused) == 500
    transfers = list(led.transfers)
    assert len(transfers) == 2 + 2 * 500 * 2
    assert dict(led.balances) == replay(transfers) == {SYSTEM: 0, "a": 10_000 - 1_000, "b": 10_000 + 1_000}


def test_escape_penalty_is_read_and_paid_under_one_lock():
    """settle_hand reads the escaper's balance and applies the penalty as one atomic step: a
    thread that tries to drain the escaper's account in between waits until the penalty is paid
    (without the lock, the penalty would be split from a stale balance: the system's share paid
    first, the stayers short)."""
    room = dataclasses.replace(ROOMS["coins"], base=10)          # penalty 320: 160 system, 160 opponent

    class DrainedWhileReading(Ledger):
        __slots__ = ("drainer",)

        def balance(self, account):
            value = super().balance(account)
            if account == "b" and not hasattr(self, "drainer"):
                self.drainer = threading.Thread(target=self.apply, args=([("b", SYSTEM, 10 ** 6, "drain")],))
                self.drainer.start()
                self.drainer.join(0.3)          # would run now if settle_hand did not hold the lock
            return value

    led = DrainedWhileReading({"a": 1_000, "b": 1_000})
    ts = settle_hand(led, room, HandOutcome(("a", "b"), escaped=1))
    led.drainer.join(10)
    assert [(t.payee, t.amount) for t in ts] == [(SYSTEM, 160), ("a", 160)]
    assert led.balances == {SYSTEM: 160 + 680, "a": 1_160, "b": 0}
