"""Bad input to the compiled long-card engine (``_lc_round.HandCore`` and :mod:`.round_engine`): every
argument is checked before it reaches the C state, with a ``MahjongError`` naming the problem; an
illegal action changes nothing; nothing is accepted after the end."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._lc_round import HandCore
from mahjong_core.errors import (
    IllegalActionError,
    MahjongError,
    RulesetError,
    StateError,
)
from mahjong_core.families.longcard.round_engine import new_core, play_hand
from mahjong_core.families.longcard.round_settings import RoundSettings

S = RoundSettings()
DECK = [f for f in range(21) for _ in range(5)] + [21] * 5


@pytest.mark.parametrize("seed", [-1, 1.5, "7", 2**128, True, [1]])
def test_bad_seed(seed):
    with pytest.raises(MahjongError, match="seed"):
        new_core(seed)


@pytest.mark.parametrize("banker", [3, -1, "0", 1.0, None])
def test_bad_banker(banker):
    if banker is None:
        assert new_core(1, banker=None).banker in (0, 1, 2)
        return
    with pytest.raises(MahjongError, match="banker"):
        new_core(1, banker=banker)
    with pytest.raises(MahjongError, match="banker"):
        HandCore(S, list(DECK), banker)


@pytest.mark.parametrize("stock, msg", [
    (DECK[:-1], "110 cards|list of 110"), (DECK[:-1] + [0], "not the deck"), ([0] * 110, "not the deck"),
    (DECK[:-1] + [22], r"card id"), (DECK[:-1] + [-1], "card id"), (DECK[:-1] + ["1"], "card id"),
    ("x" * 110, "stock"),
])
def test_bad_stock_is_refused_by_both_entries(stock, msg):
    with pytest.raises((StateError, MahjongError), match=msg):
        new_core(stock=stock)
    with pytest.raises(MahjongError, match=msg):
        HandCore(S, stock if isinstance(stock, list) else list(stock), 0)


def test_bad_settings():
    with pytest.raises(MahjongError, match="RoundSettings"):
        HandCore({"caishen_count": 5}, list(DECK), 0)
    with pytest.raises(MahjongError, match="RoundSettings"):
        new_core(1, settings="default")
    with pytest.raises(MahjongError, match="not both"):
        new_core(1, settings=S, options={"bi_peng": True})
    with pytest.raises(RulesetError, match="unknown"):
        new_core(1, options={"no_such_option": 1})
    with pytest.raises(MahjongError, match="110|105"):       # the deck of caishen_count 0 is 105 cards
        HandCore(RoundSettings(caishen_count=0), list(DECK), 0)


def test_illegal_actions_change_nothing_and_the_end_accepts_nothing():
    core = new_core(4)
    before = core.snapshot()
    p = core.actor
    for seat, action, err in [(p, 259, IllegalActionError), (p, -1, IllegalActionError), (p, "qi", IllegalActionError),
                              (p, 2**70, IllegalActionError), ((p + 1) % 3, 258, IllegalActionError),
                              (p, 0, IllegalActionError), (3, 258, MahjongError), ("0", 258, MahjongError)]:
        with pytest.raises(err):
            core.step(seat, action)
        assert core.snapshot() == before and core.n_events == len(core.events())
    res = core.play()
    assert core.seats_to_act() == [] and core.offered(p) == {}
    with pytest.raises(IllegalActionError, match="over"):
        core.step(p, 256)
    with pytest.raises(IllegalActionError, match="over"):
        core.choose("rule")
    assert core.result == res and core.play() == res       # playing a finished hand does nothing


def test_bad_bots_and_arguments():
    core = new_core(2)
    for bots, rngs in [(("rule", "rule"), (None,) * 3), (("rule", "greedy", "rule"), (None,) * 3),
                       (("random",) * 3, (None,) * 3), (("random",) * 3, (1, 2, 3)), (("rule",) * 3, (None,) * 2)]:
        with pytest.raises(MahjongError, match="bots|rngs"):
            core.play(bots, rngs)
    for steps in (0, -5, 1.5, "10"):
        with pytest.raises(MahjongError, match="max_steps"):
            core.play(max_steps=steps)
    with pytest.raises(MahjongError, match="not finished after 3"):
        core.play(max_steps=3)
    with pytest.raises(MahjongError, match="bot"):
        core.choose("greedy")
    with pytest.raises(MahjongError, match="bot"):
        core.choose("random", rng=7)
    for start in (-1, "0", 1.5):
        with pytest.raises(MahjongError, match="start"):
            core.events(start)
    assert core.events(10**9) == []
    for seat in (-1, 3, None, "1"):
        with pytest.raises(MahjongError, match="seat"):
            core.offered(seat)
    with pytest.raises(MahjongError, match="bots"):
        play_hand(1, bots="greedy")
    with pytest.raises(MahjongError, match="bots"):
        play_hand(1, bots=["rule"] * 2)
    with pytest.raises(MahjongError, match="bot_seeds"):
        play_hand(1, bots="random", bot_seeds=[1, 2])
    with pytest.raises(MahjongError, match="engine"):
        play_hand(1, engine="fast")


def test_random_bot_generator_is_shared_with_the_caller():
    # the compiled random bot draws from the Generator it is given, as RandomBot.choose does
    g = [np.random.default_rng(k) for k in range(3)]
    a = new_core(9).play(("random",) * 3, g)
    g2 = [np.random.default_rng(k) for k in range(3)]
    assert new_core(9).play(("random",) * 3, g2) == a
    assert [x.bit_generator.state for x in g] == [x.bit_generator.state for x in g2]
