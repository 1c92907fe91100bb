"""The compiled engine (``_lc_round.HandCore``) follows the reference's later rules in lockstep: gap (g)
(the 起 player's forced 跳牌 is no 包子, test_lc_tiao_yields.py), 过胡 of a passed self-drawn win (spec 3.9,
test_lc_round_rules.py), and the match loop's void hands (3.3 step 4, test_lc_match_void.py)."""

from __future__ import annotations

import pytest
from mahjong_core.families.longcard.cards import parse_cards
from mahjong_core.families.longcard.round_actions import Action, chi_id
from mahjong_core.families.longcard.round_bots import RandomBot
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.families.longcard.simulation import (
    LongcardSimulationResult,
    play_batch,
)

from .lc_round_helpers import make_stock
from .test_lc_compiled_parity import STATE, lockstep
from .test_lc_round_rules import PLAIN, READY
from .test_lc_tiao_yields import STOCK, TO_DEAD_END

DEAD_ENDS = (1304, 1748, 2170, 2505, 3028, 3431, 4618, 6232, 6938, 7460, 8651)


def _id(text: str) -> int:
    kind, *cards = text.split()
    if kind == "d":
        return Action("discard", face=parse_cards(cards[0])[0]).id
    if kind == "chi":
        return chi_id(*sorted(parse_cards(" ".join(cards))))
    return Action(kind).id


def _both(stock: list[int], steps: list[tuple[int, int]], **options: object) -> tuple[Round, object]:
    """The reference and the compiled hand from one stock, stepped alike, compared at every step."""
    r = Round(banker=0, stock=stock, options=options)
    core = new_core(banker=0, stock=stock, options=options)
    for seat, a in steps:
        assert core.offered(seat) == r._offered(seat)
        r.step(seat, a)
        core.step(seat, a)
        snap = r.snapshot()
        assert {k: snap[k] for k in STATE} == core.snapshot()
    return r, core


@pytest.mark.parametrize("seed", DEAD_ENDS)
def test_former_dead_ends_in_lockstep(seed):
    lockstep(seed, {}, "rule")


def test_the_dead_end_offers_free_discards():
    r, core = _both(STOCK, TO_DEAD_END)
    assert core.offered(0) == r._offered(0) and {a: c for a, c in core.offered(0).items() if a < 21} == {
        f: None for f in parse_cards("11 14 66")}


def test_guo_hu_of_a_passed_self_drawn_win():
    stock = make_stock({0: PLAIN, 1: READY}, 0, "15 55 36", "36")
    steps = [(0, _id("qi")), (1, _id("pass")), (2, _id("fold")), (0, _id("d 23")), (1, _id("pass")),
             (1, _id("sha"))]
    r, core = _both(stock, steps, caishen_count=0)
    assert r.drawn == parse_cards("36")[0] == core.snapshot()["drawn"] and _id("hu") in core.offered(1)
    r, core = _both(stock, [*steps, (1, _id("d 25"))], caishen_count=0)
    assert core.snapshot()["guohu"][1][parse_cards("36")[0]] == 2


def test_the_compiled_match_loop_deals_void_hands_again():
    """simulate's compiled match loop plays the reference's hands, void hands dealt again (random bots
    fold in the 起 stage often)."""
    outs = []
    for engine in ("compiled", "reference"):
        out = LongcardSimulationResult("changpai-ydr", ("x",))
        play_batch("changpai-ydr", [RandomBot(k) for k in range(3)], 2024, 12, None, False, out, engine=engine)
        outs.append(out.to_dict())
    assert outs[0] == outs[1] and outs[0]["rounds"] == 12 and outs[0]["void_hands"] > 0
