"""The compiled long-card engine's copies for search (src/mahjong_core/_lc_round_worlds.pxi):
``RoundCore.copy`` plays to the same end as its original, ``RoundCore.world`` keeps what the seat
sees and takes the cards it cannot see from the caller (checked: a world is the hand's cards), and
the search bot's :func:`determinize` deals worlds that the engine accepts, from the view alone."""

from __future__ import annotations

import numpy as np
import pytest

from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.families.longcard.cards import CAISHEN
from mahjong_core.families.longcard.round_engine import CompiledHand, new_core
from mahjong_core.families.longcard.search_bot import determinize, unseen_counts


def _states(n: int, seed: int = 0, options=None):
    """``n`` compiled hands stopped at a random point of a RuleBot game (never over)."""
    rng = np.random.default_rng(seed)
    out = []
    s = 0
    while len(out) < n:
        h = CompiledHand(seed=seed * 1000 + s, options=options)
        s += 1
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if not h.seats_to_act():
                break
            p = h.seats_to_act()[0]
            h.step(p, h.core.choose("rule"))
        if h.seats_to_act():
            out.append(h)
    return out


def test_a_copy_plays_to_the_same_end_as_its_original():
    for h in _states(30, seed=1):
        core = h.core
        for bots in (("rule",) * 3, ("random", "rule", "random")):
            seeds = [np.random.default_rng(9) if b == "random" else None for b in bots]
            seeds2 = [np.random.default_rng(9) if b == "random" else None for b in bots]
            a = core.copy()
            b = core.copy()
            assert a.play(bots, seeds) == b.play(bots, seeds2)
        before = core.snapshot()
        c = core.copy()
        assert c.snapshot() == before and c.n_actions == 0 and c.n_events == 0
        c.play(("rule",) * 3)
        assert core.snapshot() == before             # the original is untouched


def test_a_world_with_the_hands_own_cards_is_the_hand_but_what_others_alone_know():
    for h in _states(20, seed=2):
        core = h.core
        if core.phase == "claim":
            continue
        seat = core.actor
        w = core.world(seat, core.hands, core.stock[len(core.stock) - core.stock_left:])
        a, b = core.snapshot(), w.snapshot()
        for key in ("phase", "actor", "pos", "banker", "hands", "caishen", "folded", "groups", "tangzi",
                    "qi_player", "dang", "chi_faces", "offer", "discard_ban", "drawn"):
            assert a[key] == b[key], key
        assert b["peng_barred"][seat] == a["peng_barred"][seat] and b["guohu"][seat] == a["guohu"][seat]
        for o in range(3):
            if o != seat:
                assert not any(b["peng_barred"][o]) and set(b["guohu"][o]) == {-1}


def test_worlds_are_refused_when_they_are_not_the_hands_cards():
    h = _states(1, seed=3)[0]
    core = h.core
    while core.phase == "claim":
        core.step(core.actor, core.choose("rule"))
    seat = core.actor
    tail = core.stock[len(core.stock) - core.stock_left:]
    hands = [list(x) for x in core.hands]
    o = (seat + 1) % 3
    f = next(i for i in range(21) if hands[o][i])
    g = next(i for i in range(21) if i != f and hands[o][i] < 5)
    bad = [list(x) for x in hands]
    bad[o][f] -= 1
    bad[o][g] += 1                                   # a card that is not the hand's
    with pytest.raises(MahjongError, match="not the hand's"):
        core.world(seat, bad, tail)
    short = [list(x) for x in hands]
    short[o][f] -= 1
    with pytest.raises(MahjongError, match="concealed cards"):
        core.world(seat, short, tail)
    with pytest.raises(MahjongError, match="tail"):
        core.world(seat, hands, tail[:-1])
    with pytest.raises(MahjongError, match="tail"):
        core.world(seat, hands, [float(x) for x in tail])
    with pytest.raises(MahjongError):
        core.world(3, hands, tail)


def test_a_claim_window_world_is_built_for_the_seat_asked_only():
    for h in _states(60, seed=4):
        core = h.core
        if core.phase != "claim":
            continue
        seat = core.actor
        tail = core.stock[len(core.stock) - core.stock_left:]
        with pytest.raises(MahjongError, match="claim window"):
            core.world((seat + 1) % 3, core.hands, tail)
        w = core.world(seat, core.hands, tail)
        assert w.phase == "claim" and w.actor == seat
        assert w.offered(seat) == core.offered(seat)    # the seat's options are its own cards'
        return
    pytest.fail("no claim window among the states")


@pytest.mark.parametrize("options", [None, {"caishen_count": 10}, {"caishen_count": 0, "wumenjiang": False}])
def test_determinize_deals_what_the_seat_cannot_see(options):
    rng = np.random.default_rng(5)
    checked = set()
    for h in _states(60, seed=5, options=options):
        core = h.core
        seat = core.actor
        view = h.view(seat)
        tail_true = core.stock[len(core.stock) - core.stock_left:]
        u = unseen_counts(view, h.settings.caishen_count)
        true = [0] * 22
        for o in range(3):
            if o != seat:
                for f, n in enumerate(core.hands[o]):
                    true[f] += n
        for c in tail_true:
            true[c] += 1
        assert u == true                  # the view's unseen cards are exactly the hidden ones
        hands, tail = determinize(view, h.settings.caishen_count, rng)
        assert hands[seat] == list(view["hand"]) and len(tail) == core.stock_left
        for o in range(3):
            assert sum(hands[o]) == view["players"][o]["concealed"]
        if core.stock_left and view["jiang"] is not None:     # the 五门将 cards stay where every seat saw them
            assert tail[-1] == tail_true[-1]
            if core.stock_left > len(core.stock) - 60:
                assert tail[60 - (len(core.stock) - core.stock_left)] == tail_true[60 - (len(core.stock) - core.stock_left)]
        if core.phase != "claim" or core.actor == seat:
            core.world(seat, hands, tail)     # the engine's census agrees
        checked.add(core.phase)
    assert {"discard", "claim", "turn"} <= checked
    assert CAISHEN == 21


def test_a_playout_counts_its_actions_and_ends_as_play():
    """RoundCore.playout (the search bot's): the action, then the RuleBot at every seat to the end;
    it reports the actions applied (the search's budget is counted in them) and the winner and
    points of the hand that play() reports for the same moves; an action not offered is refused."""
    for seed in range(6):
        core = new_core(seed)
        for _ in range(seed * 7):
            if core.phase == "end":
                break
            core.step(core.actor, core.choose("rule"))
        if core.phase == "end":
            continue
        seat = core.actor
        for a in core.offered(seat):
            x, y = core.copy(), core.copy()
            steps, winner, deltas = x.playout(seat, a)
            y.step(seat, a)
            res = y.play(("rule",) * 3)
            assert steps == y.n_actions == x.n_actions >= 1       # a copy's log starts empty
            assert deltas == res["deltas"] and winner == (res["winner"] if res["end"] == "win" else -1)
    core = new_core(1)
    with pytest.raises(IllegalActionError):
        core.copy().playout((core.actor + 1) % 3, 0)
