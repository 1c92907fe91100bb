"""The server loop's fast paths of the compiled Round against the generic Python path: the view
built in the core equals :func:`mahjong_core.game.views.make_view` (keys, order, redaction), the
core's legal mask equals the one built from ``legal_indices``, and ``step`` with a mask index
plays the same game as ``step`` with the typed action."""

from __future__ import annotations

import json

import pytest
from mahjong_core.errors import IllegalActionError
from mahjong_core.game import GreedyBot, RandomBot, Round
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
