"""A void hand (nobody 起, spec changpai.md 3.3 step 4) does not count toward a match's hands: the match
deals again with the same banker, a match of N hands plays N counted hands, its JSON and replay stay
exact, the simulation reports the void hands apart, and a run of void hands cannot make a match endless."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from mahjong_core.families.longcard import round_match
from mahjong_core.families.longcard.round_actions import FOLD
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.round_match import MAX_VOID_RUN, LongcardMatch
from mahjong_core.game.bots import play_match

import mahjong_core as mj


class QiFolder(RuleBot):
    """The RuleBot, except that it folds its first ``n`` 起-stage decisions (always free, 3.3 step 3):
    three of them make the first ``n`` hands void."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.left = n

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        if view["phase"] == "qi" and self.left > 0:
            self.left -= 1
            return FOLD
        return super().choose(view, legal, penalised)


def _step_through(m: LongcardMatch, bots: list[Any], states: list[str]) -> None:
    """Play ``m`` through ``match.step`` (no auto_advance), keeping its JSON after every hand's start."""
    while not m.is_over:
        if m.round.is_over:
            m.next_round()
            states.append(m.to_json())
        p = m.seats_to_act()[0]
        m.step(p, bots[p].act(m.round.hand, p))


def test_a_void_hand_does_not_count_and_the_banker_stays():
    m = LongcardMatch("changpai-ydr", 9, rounds=2)
    states = [m.to_json()]
    _step_through(m, [QiFolder(1) for _ in range(3)], states)
    assert m.is_over and m.hands_counted == 2 and len(m.results) == 3
    assert [r["end"] == "void" for r in m.results] == [True, False, False]
    assert [r["counted"] for r in m.results] == [False, True, True]
    assert m.results[0]["counts"] is False and m.results[0]["deltas"] == [0, 0, 0]
    assert m.results[1]["dealer"] == m.results[0]["dealer"] == m.results[0]["next_banker"]
    assert [r["round"] for r in m.results] == [0, 1, 2]            # hand k dealt with spawn_key k + 1
    assert m.ledger({"A": 10**6, "B": 10**6, "C": 10**6}).total == 3 * 10**6
    for text in states + [m.to_json()]:                             # every state rebuilds exactly
        assert LongcardMatch.from_json(text).to_json() == text


def test_the_last_counted_hand_ends_the_match_without_next_round():
    """As in the shared match: the hand that completes the match is recorded by ``step`` itself; a void
    hand before it is not (the caller deals on with ``next_round``)."""
    m = LongcardMatch("changpai-ydr", 9, rounds=1)
    bots = [QiFolder(1) for _ in range(3)]
    while not m.round.is_over:
        p = m.seats_to_act()[0]
        m.step(p, bots[p].act(m.round.hand, p))
    assert not m.is_over and m.results == [] and m.round.result.to_dict()["end"] == "void"
    m.next_round()
    while not m.is_over:
        p = m.seats_to_act()[0]
        m.step(p, bots[p].act(m.round.hand, p))
    assert len(m.results) == 2 and m.results[1]["counted"] and m.seats_to_act() == []


def test_play_match_with_auto_advance_plays_n_counted_hands():
    m = LongcardMatch("changpai-ydr", 4, rounds=3, auto_advance=True)
    play_match(m, [QiFolder(2) for _ in range(3)])
    assert [r["counted"] for r in m.results] == [False, False, True, True, True]


def test_a_run_of_void_hands_is_capped(monkeypatch):
    """Players who never 起: the void hand that ends a run of MAX_VOID_RUN counts (documented cap)."""
    assert MAX_VOID_RUN == 100
    monkeypatch.setattr(round_match, "MAX_VOID_RUN", 4)
    m = LongcardMatch("changpai-ydr", 2, rounds=2)
    play_match(m, [QiFolder(10**6) for _ in range(3)])
    assert len(m.results) == 8 and all(r["end"] == "void" for r in m.results)
    assert [r["counted"] for r in m.results] == [False, False, False, True] * 2
    assert LongcardMatch.from_json(m.to_json()).to_json() == m.to_json()


def test_the_real_cap_ends_a_match_of_players_who_never_qi():
    m = LongcardMatch("changpai-ydr", 2, rounds=1)
    play_match(m, [QiFolder(10**6) for _ in range(3)])
    assert len(m.results) == MAX_VOID_RUN and m.results[-1]["counted"] and not m.results[-2]["counted"]


@pytest.mark.parametrize("batch_size", [2, 500])
def test_the_simulation_reports_void_hands_apart(batch_size):
    r = mj.simulate(ruleset="changpai-ydr", n=3, seed=1, bots=[QiFolder(1) for _ in range(3)],
                    batch_size=batch_size)
    voids = -(-3 // batch_size)        # each batch (one match) plays with its own copy of the bots
    assert r.rounds == 3 and r.void_hands == voids == r.by_end[2]
    assert int(r.dealer_rounds.sum()) == 3 and r.void_rate == pytest.approx(voids / (3 + voids))
    d = r.to_dict()
    assert d["rounds"] == 3 and d["void_hands"] == voids and d["by_end"]["void"] == voids
    assert "3 hands of changpai-ydr" in r.summary() and f"{voids} void" in r.summary()


def test_count_hand():
    """The one rule both the match and the compiled match loop use."""
    from mahjong_core.families.longcard.round_match import count_hand
    assert count_hand({"end": "win", "counts": True}, 7) == (True, 0)
    assert count_hand({"end": "baozi", "counts": False}, 7) == (False, 0)     # baozi_hand_counts=false
    assert count_hand({"end": "void", "counts": False}, 0) == (False, 1)
    assert count_hand({"end": "void", "counts": False}, MAX_VOID_RUN - 2) == (False, MAX_VOID_RUN - 1)
    assert count_hand({"end": "void", "counts": False}, MAX_VOID_RUN - 1) == (True, 0)
