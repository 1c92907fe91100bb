"""The ledger: accounts, balances and every transfer, never losing a bean.

Every movement of currency is a :class:`Transfer` (from, to, amount, reason,
round).  Balances never go below zero: a payment larger than the payer's
balance is reduced to what he holds (spec 5.1, OP-10) and the reduction is
recorded on the transfer (``requested``).  A batch of transfers is applied
atomically with :meth:`Ledger.apply`: either every transfer is recorded or,
on any error, none is and the balances are unchanged.  The ``system`` account
holds fees and the system's share of penalties.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Iterable

from .._validate import is_int
from ..errors import LedgerError

__all__ = ["SYSTEM", "OUTSIDE", "Transfer", "Ledger", "LedgerError"]

SYSTEM = "system"
"""Name of the platform's account (fees, the system's share of penalties)."""
OUTSIDE = "outside"
"""Payer named on a deposit (an opening balance comes from outside the ledger; not an account)."""


def check_account_name(name: Any, what: str = "account name") -> str:
    """``name`` if it is a non-empty string, else :class:`LedgerError`."""
    if not isinstance(name, str) or not name:
        raise LedgerError(f"{what} must be a non-empty string, got {name!r}")
    return name


def non_negative(value: Any, what: str) -> int:
    """``value`` as an ``int`` >= 0 (no bool, float or str), else :class:`LedgerError`."""
    if not is_int(value) or value < 0:
        raise LedgerError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


def _optional_int(value: Any, what: str) -> "int | None":
    return None if value is None else non_negative(value, what)


@dataclass(frozen=True)
class Transfer:
    """One recorded movement: ``amount`` from ``payer`` to ``payee``."""

    payer: str
    payee: str
    amount: int
    """What actually moved (after capping at the payer's balance)."""
    reason: str
    """``"win"``, ``"table_fee"``, ``"service_fee"``, ``"escape_penalty"``, ``"deposit"`` ..."""
    round: int | None = None
    requested: int | None = None
    """What the rules asked for, when more than the payer held (else None)."""

    def __post_init__(self) -> None:
        check_account_name(self.payer, "payer")
        check_account_name(self.payee, "payee")
        if self.payer == self.payee:
            raise LedgerError(f"payer and payee are both {self.payer!r} (nobody pays himself)")
        # stored as Python ints (a NumPy integer would not survive to_dict -> JSON)
        object.__setattr__(self, "amount", non_negative(self.amount, "amount"))
        check_account_name(self.reason, "reason")
        object.__setattr__(self, "round", _optional_int(self.round, "round"))
        object.__setattr__(self, "requested", _optional_int(self.requested, "requested"))
        if self.requested is not None and self.requested <= self.amount:
            raise LedgerError(f"requested ({self.requested}) is only recorded when more than the amount paid "
                              f"({self.amount})")

    def to_dict(self) -> dict[str, Any]:
        return {
            "payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason,
            "round": self.round, "requested": self.requested,
        }


def _request(item: Any, k: int) -> tuple[str, str, int, str]:
    """One ``(payer, payee, amount, reason)`` request, checked (``k``: its position, for the message)."""
    if not isinstance(item, (tuple, list)) or len(item) != 4:
        raise LedgerError(f"request {k} must be a (payer, payee, amount, reason) tuple, got {item!r}")
    payer, payee, amount, reason = item
    check_account_name(payer, f"request {k}: payer")
    check_account_name(payee, f"request {k}: payee")
    if payer == payee:
        raise LedgerError(f"request {k}: payer and payee are both {payer!r} (nobody pays himself)")
    amount = non_negative(amount, f"request {k}: amount")
    check_account_name(reason, f"request {k}: reason")
    return payer, payee, amount, reason


class Ledger:
    """Balances by account name plus the list of transfers that produced them.

    ``Ledger()`` starts with the ``system`` account at 0; ``Ledger({"a": 100})`` starts with
    opening balances (checked: names are non-empty strings, balances non-negative integers;
    ``transfers``, if given, must be :class:`Transfer` objects and are kept as history).

    Thread safety: a ``Ledger`` may be shared by any number of threads.  Every operation
    (:meth:`open`, :meth:`apply`, :meth:`balance`, :attr:`total`, :attr:`balances`,
    :attr:`transfers`, :meth:`to_dict`) holds the ledger's lock, so each one is atomic: an
    ``apply`` is seen entirely or not at all, no update or account is lost, the total only
    changes by deposits, and a read returns a consistent snapshot (``balances`` and
    ``transfers`` return copies).  To make several calls one atomic step (read a balance, then
    apply payments computed from it, as :func:`~mahjong_core.settlement.settle_hand` does),
    hold :meth:`locked` around them; the lock is re-entrant.  What is *not* shared-safe: a
    game :class:`~mahjong_core.Round` or :class:`~mahjong_core.Match` and an
    :class:`~mahjong_core.settlement.EscapeTracker` are plain objects: use one per thread (or
    per table, guarded by the caller).  Rooms, outcomes and transfers are immutable and may be
    shared freely.
    """

    __slots__ = ("_balances", "_transfers", "_lock")

    def __init__(self, balances: "dict[str, int] | None" = None, transfers: "Iterable[Transfer] | None" = None) -> None:
        self._lock = threading.RLock()
        if balances is None:
            balances = {}
        if not isinstance(balances, dict):
            raise LedgerError(f"opening balances must be a dict of account name -> balance, got {type(balances).__name__}")
        opening: dict[str, int] = {SYSTEM: 0}
        for name, value in balances.items():
            check_account_name(name)
            opening[name] = non_negative(value, f"opening balance of {name!r}")
        history = list(transfers) if transfers is not None else []
        for k, t in enumerate(history):
            if not isinstance(t, Transfer):
                raise LedgerError(f"transfers[{k}] must be a Transfer, got {type(t).__name__}")
        self._balances = opening
        self._transfers = history

    # ------------------------------------------------------------------ reads
    def locked(self) -> "threading.RLock":
        """The ledger's (re-entrant) lock: ``with ledger.locked(): ...`` makes several calls atomic."""
        return self._lock

    @property
    def balances(self) -> dict[str, int]:
        """A copy of the balances by account (the system's included)."""
        with self._lock:
            return dict(self._balances)

    @property
    def transfers(self) -> list[Transfer]:
        """A copy of the recorded transfers, in the order they were applied."""
        with self._lock:
            return list(self._transfers)

    def balance(self, account: str) -> int:
        check_account_name(account)
        with self._lock:
            try:
                return self._balances[account]
            except KeyError:
                raise LedgerError(f"unknown account {account!r}") from None

    @property
    def total(self) -> int:
        """Sum of every balance, the system's included: transfers never change it."""
        with self._lock:
            return sum(self._balances.values())

    def to_dict(self) -> dict[str, Any]:
        with self._lock:
            return {"balances": dict(self._balances), "transfers": [t.to_dict() for t in self._transfers]}

    # ------------------------------------------------------------------ writes
    def open(self, account: str, balance: int = 0) -> None:
        """Open an account with an opening balance (recorded as a deposit from outside)."""
        check_account_name(account)
        if account == OUTSIDE:
            raise LedgerError(f"{OUTSIDE!r} names the source of deposits; it cannot be an account")
        balance = non_negative(balance, "opening balance")
        deposit = Transfer(OUTSIDE, account, balance, "deposit")
        with self._lock:
            if account in self._balances:
                raise LedgerError(f"account {account!r} already exists")
            self._balances[account] = balance
            self._transfers.append(deposit)

    def apply(self, requests: Iterable[tuple[str, str, int, str]], round: "int | None" = None) -> list[Transfer]:
        """Apply ``(payer, payee, amount, reason)`` requests in order, atomically.

        Each payment is capped at the payer's balance at that moment (OP-10).
        Returns the transfers recorded.  On any error nothing is recorded.
        """
        round = _optional_int(round, "round")
        if isinstance(requests, (str, bytes, dict)) or not hasattr(requests, "__iter__"):
            raise LedgerError(f"requests must be a list of (payer, payee, amount, reason), got {type(requests).__name__}")
        checked = [_request(item, k) for k, item in enumerate(requests)]
        with self._lock:
            balances = dict(self._balances)
            done: list[Transfer] = []
            for k, (payer, payee, amount, reason) in enumerate(checked):
                for role, name in (("payer", payer), ("payee", payee)):
                    if name not in balances:
                        raise LedgerError(f"request {k}: unknown {role} account {name!r}")
                paid = min(amount, balances[payer])
                balances[payer] -= paid
                balances[payee] += paid
                done.append(Transfer(payer, payee, paid, reason, round, amount if paid < amount else None))
            # nothing above can fail after this point: the batch is committed as a whole
            self._balances = balances
            self._transfers.extend(done)
        return done

    # ------------------------------------------------------------------ comparison, copies
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ledger):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable (typeshed types object.__hash__ as a method)

    def __repr__(self) -> str:
        with self._lock:
            return f"Ledger(balances={self._balances!r}, transfers=<{len(self._transfers)}>)"

    def __reduce__(self) -> tuple[type[Ledger], tuple[dict[str, int], list[Transfer]]]:
        # a copy or a pickle goes through the checked constructor (the lock is not copied)
        with self._lock:
            return (Ledger, (dict(self._balances), list(self._transfers)))
