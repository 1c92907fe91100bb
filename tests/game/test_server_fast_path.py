"""The server loop's fast paths of the compiled Round against the generic Python path: the view
built in the core equals :func:`mahjong_core.game.views.make_view` (keys, order, redaction), the
core's legal mask equals the one built from ``legal_indices``, and ``step`` with a mask index
plays the same game as ``step`` with the typed action."""

from __future__ import annotations

import json

import pytest
from mahjong_core.errors import IllegalActionError, SeatError
from mahjong_core.families.mahjong.api import GreedyBot, RandomBot, Round
from mahjong_core.game.round_base import RoundBase
from mahjong_core.game.views import make_view

RULESETS = ["two-player", "two-player-bamboo", "public"]


def _bots(r: Round, seed: int) -> list:
    return [RandomBot(seed * 7 + k) if seed % 2 else GreedyBot() for k in range(r.players)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_compiled_view_and_mask_equal_generic(ruleset: str) -> None:
    checked = 0
    for seed in range(12):
        r = Round(ruleset, seed=seed)
        bots = _bots(r, seed)
        while True:
            for s in range(r.players):
                fast, slow = r.view(s), make_view(r, s)
                assert json.dumps(fast) == json.dumps(slow)
                assert (r.legal_mask(s) == RoundBase.legal_mask(r, s)).all()
                checked += 1
            if r.is_over:
                break
            seat = r.seats_to_act()[0]
            r.step(seat, bots[seat].act_index(r, seat))
    assert checked > 100


def test_legal_mask_of_an_int_that_is_no_seat_is_a_seat_error() -> None:
    """Like every per-seat method (issue 25: one rule for a bad seat): an int out of range, of any
    size, is a SeatError (no OverflowError from the compiled path), as a seat that is not an int."""
    r = Round("two-player", seed=3)
    for s in (-1, 2, 99, 2 ** 40, -(2 ** 70), "0"):
        with pytest.raises(SeatError):
            r.legal_indices(s)
        with pytest.raises(SeatError):
            r.legal_mask(s)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_step_by_index_equals_step_by_action(ruleset: str) -> None:
    for seed in range(6):
        a, b = Round(ruleset, seed=seed), Round(ruleset, seed=seed)
        bots = _bots(a, seed)
        while not a.is_over:
            seat = a.seats_to_act()[0]
            i = bots[seat].act_index(a, seat)
            assert a.step(seat, i) == b.step(seat, b.decode_action(seat, i))
        assert a.to_dict() == b.to_dict()
        # after the end every index is refused with the checked path's reason
        with pytest.raises(IllegalActionError, match="over"):
            a.step(0, 0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_view_snapshot_is_the_view_of_its_moment(ruleset: str) -> None:
    """``view_snapshot(seat).to_dict()`` equals ``view(seat)`` of the moment it was taken, also when
    it is read after the round went on (it holds a copy), and each call gives a fresh dict."""
    taken = 0
    for seed in range(4):
        r = Round(ruleset, seed=seed)
        bots = _bots(r, seed)
        pairs = []
        while True:
            for s in range(r.players):
                pairs.append((r.view_snapshot(s), json.dumps(r.view(s))))
            if r.is_over:
                break
            seat = r.seats_to_act()[0]
            r.step(seat, bots[seat].act_index(r, seat))
        for snap, then in pairs:
            d = snap.to_dict()
            assert json.dumps(d) == then
            d["hand"].append(99)
            d["melds"].clear()
            assert json.dumps(snap.to_dict()) == then
            taken += 1
        assert pairs[-1][0].seat == r.players - 1
    assert taken > 100


def test_view_snapshot_refuses_what_view_refuses() -> None:
    import pickle

    from mahjong_core.errors import SeatError

    r = Round("public", seed=3)
    for bad in (4, -1, True, "0", 1.0, None, 10**40):
        with pytest.raises(SeatError) as a:
            r.view(bad)
        with pytest.raises(SeatError) as b:
            r.view_snapshot(bad)
        assert str(a.value) == str(b.value)
    with pytest.raises(TypeError, match="to_dict"):
        pickle.dumps(r.view_snapshot(0))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_greedy_bot_is_the_engine_bot(ruleset: str) -> None:
    """GreedyBot.act_index (compiled) chooses the engine's greedy action; a seat not to act is
    refused with the Python path's error."""
    r = Round(ruleset, seed=5)
    bot = GreedyBot()
    while not r.is_over:
        seat = r.seats_to_act()[0]
        i = bot.act_index(r, seat)
        assert i == r.builtin_bot_choice(seat, 0)
        idle = [s for s in range(r.players) if not r.legal_indices(s)]
        for s in idle:
            with pytest.raises(IllegalActionError, match="not to act"):
                bot.act_index(r, s)
        r.step(seat, i)
