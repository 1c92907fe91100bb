"""Settlement of a 长牌 幺地人 hand (spec changpai.md section 5) and the next banker (3.14).

A hand's result names its end (``win``, ``baozi``, ``void``, ``huangzhuang``) and, for a win or a
包子, the fan basis.  :func:`hand_payments` turns it into ``(payer seat, payee seat, points)``:

- win (5.2): every other seat, folded ones too (``folded_players_pay``, CP-9), pays the winner
  ``points(F)``;
- 包子 (5.3): the offender pays every other seat ``points(N_b)`` (``baozi_convert``, CP-33; false = the
  fan paid as points);
- 黄庄 and void hands (5.4): nothing.

``points`` is 梯坎番 N + 1 or 番乘番 2^N (5.1), times ``base``.  :func:`ledger_requests` gives the
requests the shared :class:`~mahjong_core.settlement.Ledger` applies (names per seat).

>>> from .round_settings import RoundSettings
>>> hand_payments({"end": "win", "winner": 0, "fan": 4}, RoundSettings(), [False, False, True])
[(1, 0, 5), (2, 0, 5)]
>>> hand_payments({"end": "baozi", "offender": 2, "fan": 3}, RoundSettings(settlement_mode="fan_cheng_fan"), [False] * 3)
[(2, 0, 8), (2, 1, 8)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._validate import short_repr
from ...errors import LedgerError
from .fans import settlement_points

__all__ = ["hand_deltas", "hand_payments", "ledger_requests", "next_banker"]

PLAYERS = 3


def hand_payments(result: dict[str, Any], settings: Any, folded: Sequence[bool]) -> list[tuple[int, int, Any]]:
    """``(payer, payee, amount)`` of every payment of the hand, in seat order."""
    s = settings
    if result["end"] == "win":
        w = result["winner"]
        pts = settlement_points(result["fan"], s.settlement_mode, s.base)
        return [(q, w, pts) for q in range(PLAYERS) if q != w and (s.folded_players_pay or not folded[q])]
    if result["end"] == "baozi":
        o = result["offender"]
        n = result["fan"]
        pts = settlement_points(n, s.settlement_mode, s.base) if s.baozi_convert else n * s.base
        return [(o, q, pts) for q in range(PLAYERS) if q != o]
    return []


def hand_deltas(result: dict[str, Any], settings: Any, folded: Sequence[bool]) -> list[Any]:
    """Per-seat point change of the hand (sums to 0)."""
    out = [0] * PLAYERS
    for payer, payee, amount in hand_payments(result, settings, folded):
        out[payer] -= amount
        out[payee] += amount
    return out


def next_banker(result: dict[str, Any], settings: Any, banker: int) -> int:
    """The banker of the next hand (spec 3.14, CP-6, CP-7, CP-8); ``rotate`` = the banker's 下家."""
    s = settings
    rotate = (banker + (1 if s.turn_direction == "ccw" else -1)) % PLAYERS
    end = result["end"]
    if end == "win":
        rule = s.banker_after_win
        return result["winner"] if rule == "winner" else rotate if rule == "rotate" else banker
    if end == "baozi":
        rule = s.banker_after_baozi
        return result["offender"] if rule == "offender" else rotate if rule == "rotate" else banker
    return rotate if s.banker_after_void == "rotate" else banker


def ledger_requests(result: dict[str, Any], players: Sequence[str], *, reason: str | None = None
                    ) -> list[tuple[str, str, int, str]]:
    """``(payer, payee, amount, reason)`` requests for :meth:`Ledger.apply` from a finished hand's
    ``result`` (its ``payments``); amounts must be whole (``base`` an integer)."""
    if len(players) != PLAYERS:
        raise LedgerError(f"a long-card hand has 3 players, got {short_repr(players)}")
    why = reason or ("baozi" if result["end"] == "baozi" else "win")
    out = []
    for payer, payee, amount in result.get("payments", []):
        if amount != int(amount):
            raise LedgerError(f"payment {amount!r} is not a whole amount (use an integer base)")
        out.append((players[payer], players[payee], int(amount), why))
    return out
