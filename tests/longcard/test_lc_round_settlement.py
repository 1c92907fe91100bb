"""Settlement of a long-card hand (spec changpai.md section 5): the worked examples of 5.5 with exact
numbers, both modes, 包子 bases (X14-X16), the next banker, and the shared Ledger."""

from __future__ import annotations

import pytest
from mahjong_core.errors import LedgerError
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard.round_settings import RoundSettings
from mahjong_core.families.longcard.round_settlement import (
    hand_deltas,
    hand_payments,
    ledger_requests,
    next_banker,
)
from mahjong_core.settlement import Ledger

TIKAN, FCF = RoundSettings(), RoundSettings(settlement_mode="fan_cheng_fan")
ACTIVE = [False, False, False]
W1 = (lc.score("46 46 13 16 34 25 14 14 55 55 55", "36", declared=["peng 11×3", "sha 44×4", "sha 66×4"],
               jiang="36 25"))
W2_ARGS = ("14 14 14 22 22 22 26 26", "26")
W2_KW = {"declared": ["tuhuo_xiang 44×5", "peng 55×3", "sha 33×4", "tuhuo_xiang 56×5"], "jiang": "13 12",
         "caishen": 1, "banker": True}


def win(winner: int, fan: int) -> dict:
    return {"end": "win", "winner": winner, "fan": fan}


def baozi(offender: int, fan: int) -> dict:
    return {"end": "baozi", "offender": offender, "fan": fan}


@pytest.mark.parametrize("settings,each", [(TIKAN, 5), (FCF, 16)])
def test_w1_wins(settings, each):
    assert W1.total == 4
    assert hand_payments(win(0, W1.total), settings, ACTIVE) == [(1, 0, each), (2, 0, each)]
    assert hand_deltas(win(0, W1.total), settings, ACTIVE) == [2 * each, -each, -each]


@pytest.mark.parametrize("cap,settings,each", [(0, TIKAN, 9), (0, FCF, 256), (4, TIKAN, 5), (4, FCF, 16)])
def test_w2_banker_wins_and_cap(cap, settings, each):
    s = lc.score(*W2_ARGS, fan_cap=cap, **W2_KW)
    assert s.total == (8 if not cap else 4)
    assert hand_deltas(win(1, s.total), settings, ACTIVE) == [-each, 2 * each, -each]


def test_baozi_not_ready_held_fan():
    """5.5 row 4: not ready, holds (11 11 11) 碰 地 and 1 财神: H = 2 -> max(3, 2) = 3."""
    n = counting.baozi_fan("12 13 15 16 23 26 33 36 45 46 55 56 66 22 14 24 35", ["peng 11×3"], caishen=1)
    assert counting.held_fan("12 13 15 16 23 26 33 36 45 46 55 56 66 22 14 24 35", ["peng 11×3"], caishen=1) == 2
    assert n == 3
    assert hand_deltas(baozi(2, n), TIKAN, ACTIVE) == [4, 4, -8]
    assert hand_deltas(baozi(2, n), FCF, ACTIVE) == [8, 8, -16]


def test_baozi_ready_best_win_5():
    """5.5 row 5: ready with best_win 5 -> pays 6 / 32 to each."""
    assert hand_deltas(baozi(0, 5), TIKAN, ACTIVE) == [-12, 6, 6]
    assert hand_deltas(baozi(0, 5), FCF, ACTIVE) == [-64, 32, 32]


def test_x14_x15_x16():
    """X14 (H = 4), X15 (ready, best_win 2 -> 3), X16 (ready 平胡 -> 3)."""
    x14 = counting.baozi_fan("12 13 15 16 23 26 33 36 45 46 14 22 35 55", ["sha 44×4", "tuhuo_xiang 56×5"], caishen=1)
    x15 = counting.baozi_fan("16 34 25 46 46 22 24 24 26 11 11", ["peng 44×3", "peng 15×3", "peng 66×3"])
    x16 = counting.baozi_fan("46 46 12 12 56 16 34 25 24 24 26", ["peng 66×3", "peng 45×3", "peng 15×3"])
    assert (x14, x15, x16) == (4, 3, 3)
    assert hand_deltas(baozi(1, x14), TIKAN, ACTIVE) == [5, -10, 5]
    assert hand_deltas(baozi(1, x14), FCF, ACTIVE) == [16, -32, 16]
    assert hand_deltas(baozi(1, x15), TIKAN, ACTIVE)[1] == -8 and hand_deltas(baozi(1, x15), FCF, ACTIVE)[1] == -16
    assert hand_payments(baozi(1, x16), TIKAN, ACTIVE) == [(1, 0, 4), (1, 2, 4)]
    assert hand_payments(baozi(1, x16), FCF, ACTIVE) == [(1, 0, 8), (1, 2, 8)]


def test_baozi_convert_off_and_base():
    assert hand_payments(baozi(0, 3), RoundSettings(baozi_convert=False), ACTIVE) == [(0, 1, 3), (0, 2, 3)]
    assert hand_payments(win(0, 4), RoundSettings(base=10), ACTIVE) == [(1, 0, 50), (2, 0, 50)]


def test_folded_players_pay_option():
    folded = [False, False, True]
    assert hand_payments(win(0, 4), TIKAN, folded) == [(1, 0, 5), (2, 0, 5)]
    assert hand_payments(win(0, 4), RoundSettings(folded_players_pay=False), folded) == [(1, 0, 5)]


@pytest.mark.parametrize("end", ["void", "huangzhuang"])
def test_no_payment_without_winner(end):
    assert hand_payments({"end": end}, TIKAN, ACTIVE) == [] and hand_deltas({"end": end}, TIKAN, ACTIVE) == [0, 0, 0]


def test_next_banker():
    assert next_banker(win(2, 1), TIKAN, 0) == 2
    assert next_banker(win(2, 1), RoundSettings(banker_after_win="rotate"), 0) == 1
    assert next_banker(win(2, 1), RoundSettings(banker_after_win="stay"), 0) == 0
    assert next_banker(baozi(1, 3), TIKAN, 0) == 0
    assert next_banker(baozi(1, 3), RoundSettings(banker_after_baozi="offender"), 0) == 1
    assert next_banker({"end": "huangzhuang"}, TIKAN, 2) == 2
    assert next_banker({"end": "void"}, RoundSettings(banker_after_void="rotate"), 2) == 0
    assert next_banker({"end": "void"}, RoundSettings(banker_after_void="rotate", turn_direction="cw"), 2) == 1


def test_ledger_applies_and_conserves():
    res = win(0, 4)
    res["payments"] = [list(p) for p in hand_payments(res, TIKAN, ACTIVE)]
    led = Ledger({"a": 100, "b": 100, "c": 3})
    total = led.total
    led.apply(ledger_requests(res, ["a", "b", "c"]), round=1)
    assert led.balances["a"] == 108 and led.balances["b"] == 95 and led.balances["c"] == 0   # never negative
    assert led.total == total
    with pytest.raises(LedgerError):
        ledger_requests(res, ["a", "b"])
    res["payments"] = [[1, 0, 2.5]]
    with pytest.raises(LedgerError, match="whole"):
        ledger_requests(res, ["a", "b", "c"])
