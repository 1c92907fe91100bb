"""Ruleset `mcr` as a game: its flow settings, rounds and matches played to the end, its settlement.

The readings are those of ``rulesets/mcr.py``'s docstring (tail replacements, no 报听, the deal
passing every hand, MCR payments); the conformance suite (``tests/conformance``) also runs every
family check on `mcr`, as on every registered ruleset.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import mahjong_core as mj
from mahjong_core.errors import MahjongError, RulesetError
from mahjong_core.families.mahjong._ref import round as reference_round
from mahjong_core.families.mahjong.rulesets import get_ruleset
from mahjong_core.families.mahjong.settings import flow_settings
from mahjong_core.families.mahjong.settlement import round_deltas, unit_room
from mahjong_core.settlement import HandOutcome, get_room, hand_payments


def test_record_and_flow() -> None:
    r = get_ruleset("mcr")
    assert (r.code, r.players, len(r.kinds), r.special_forms, r.min_fan) == (3, 4, 34, True, 8)
    assert len(mj.fan_table("mcr")) == 82
    ids = {f.id for f in mj.fan_table("mcr")}
    assert "concealed_kong_and_melded_kong" in ids and "no_caishen" not in ids
    s = flow_settings("mcr")
    assert (s.stacks, s.kong_replacement, s.ready_mode, s.seat_winds, s.dealer_on_draw, s.dealer_on_win,
            s.multiple_winners, s.rob_kong, s.reserved_tail_tiles) == (72, "tail", "none", True, "next", "next",
                                                                        False, True, 0)
    # the other rulesets keep the winner's deal
    assert {flow_settings(n).dealer_on_win for n in ("two-player", "two-player-bamboo", "public")} == {"winner"}


def test_no_ready_declaration_and_no_first_turn_fans() -> None:
    with pytest.raises(MahjongError, match="报听"):
        flow_settings("mcr", {"ready_mode": "any_discard"})
    for flag in ("heavenly", "ready"):
        with pytest.raises(RulesetError, match="ruleset 'mcr' has no first-turn fans and no 报听"):
            mj.score("123m456m789m11mE", "E", ruleset="mcr", **{flag: True})


def test_dealer_on_win_is_an_option() -> None:
    assert flow_settings("public", {"dealer_on_win": "next"}).dealer_on_win == "next"
    with pytest.raises(MahjongError, match="dealer_on_win"):
        flow_settings("mcr", {"dealer_on_win": "stay"})


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_rounds_pass_the_deal_every_hand(engine: str) -> None:
    """Won or drawn, the dealer's 下家 deals next; a win reaches the minimum and its deltas sum to 0."""
    wins = 0
    for seed in range(10):
        if engine == "compiled":
            r = mj.Round(ruleset="mcr", seed=seed, dealer=seed % 4)
            res = mj.play_round(r, [mj.GreedyBot() for _ in range(4)])
        else:
            r = reference_round.Round(ruleset="mcr", seed=seed, dealer=seed % 4)
            res = _play_winning_first(r, random.Random(seed))
        assert res.next_dealer == (seed % 4 + 1) % 4
        if res.winners:
            wins += 1
            w = res.winners[0]
            assert w["score"]["ruleset"] == "mcr" and w["non_flower_total"] >= 8
        assert sum(res.deltas) == 0
    assert wins > 0


def _play_winning_first(r: Any, rng: random.Random) -> Any:
    """Random legal actions, a win whenever one is legal (so that some rounds are won)."""
    while not r.is_over:
        seat = r.seats_to_act()[0]
        actions = r.legal_actions(seat)
        wins = [a for a in actions if type(a).__name__ == "Win"]
        r.step(seat, wins[0] if wins else rng.choice(actions))
    return r.result


def test_match_rotates_dealer_and_wind() -> None:
    m = mj.Match("mcr", seed=3, rounds=8, wind_rotation=True)
    results = mj.play_match(m, ("greedy",) * 4)
    first = results[0].dealer
    assert [res.dealer for res in results] == [(first + k) % 4 for k in range(8)]
    assert [rec["round_wind"] for rec in m.results] == [27] * 4 + [28] * 4


def test_settlement_discard_and_self_drawn() -> None:
    room = unit_room("mcr")
    names = ("0", "1", "2", "3")
    # discard win worth 10 by seat 0 on seat 2's discard: 18 from seat 2, 8 from seats 1 and 3
    pays = hand_payments(room, HandOutcome(names, winner=0, loser=2, method="discard", hand_value=10,
                                           non_flower_total=10, min_fan=8))
    assert sorted((p, a) for p, _, a, _ in pays) == [("1", 8), ("2", 18), ("3", 8)]
    # self-drawn win worth 12: 20 from each
    pays = hand_payments(room, HandOutcome(names, winner=1, loser=None, method="self_drawn", hand_value=12,
                                           non_flower_total=12, min_fan=8))
    assert sorted((p, a) for p, _, a, _ in pays) == [("0", 20), ("2", 20), ("3", 20)]
    assert get_room("mcr").ruleset == "mcr" and get_room("mcr").profile == "public_mcr"
    winners = [{"seat": 3, "loser": 0, "method": "discard", "total": 9, "non_flower_total": 9,
                "score": {"min_fan": 8}}]
    assert round_deltas("mcr", winners) == [-17, -8, -8, 33]
