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

from dataclasses import dataclass, field
from typing import Iterable

from ..errors import LedgerError

__all__ = ["SYSTEM", "Transfer", "Ledger", "LedgerError"]

SYSTEM = "system"
"""Name of the platform's account (fees, the system's share of penalties)."""


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

    def to_dict(self) -> dict:
        return {
            "payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason,
            "round": self.round, "requested": self.requested,
        }


@dataclass
class Ledger:
    """Balances by account name plus the list of transfers that produced them."""

    balances: dict[str, int] = field(default_factory=dict)
    transfers: list[Transfer] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.balances.setdefault(SYSTEM, 0)
        for name, value in self.balances.items():
            if not isinstance(value, int) or value < 0:
                raise LedgerError(f"opening balance of {name!r} must be a non-negative integer, got {value!r}")

    def open(self, account: str, balance: int = 0) -> None:
        """Open an account with an opening balance (recorded as a deposit from outside)."""
        if account in self.balances:
            raise LedgerError(f"account {account!r} already exists")
        if not isinstance(balance, int) or balance < 0:
            raise LedgerError(f"opening balance must be a non-negative integer, got {balance!r}")
        self.balances[account] = balance
        self.transfers.append(Transfer("outside", account, balance, "deposit"))

    def balance(self, account: str) -> int:
        try:
            return self.balances[account]
        except KeyError:
            raise LedgerError(f"unknown account {account!r}") from None

    @property
    def total(self) -> int:
        """Sum of every balance, the system's included: transfers never change it."""
        return sum(self.balances.values())

    def apply(self, requests: Iterable[tuple[str, str, int, str]], round: int | None = None) -> list[Transfer]:
        """Apply ``(payer, payee, amount, reason)`` requests in order, atomically.

        Each payment is capped at the payer's balance at that moment (OP-10).
        Returns the transfers recorded.  On any error nothing is recorded.
        """
        requests = list(requests)
        balances = dict(self.balances)
        done: list[Transfer] = []
        for payer, payee, amount, reason in requests:
            if payer not in balances:
                raise LedgerError(f"unknown account {payer!r}")
            if payee not in balances:
                raise LedgerError(f"unknown account {payee!r}")
            if payer == payee:
                raise LedgerError(f"{payer!r} cannot pay himself")
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise LedgerError(f"amount must be a non-negative integer, got {amount!r}")
            paid = min(amount, balances[payer])
            balances[payer] -= paid
            balances[payee] += paid
            done.append(Transfer(payer, payee, paid, reason, round, amount if paid < amount else None))
        self.balances = balances
        self.transfers.extend(done)
        return done

    def to_dict(self) -> dict:
        return {"balances": dict(self.balances), "transfers": [t.to_dict() for t in self.transfers]}
