"""The long-card search bot (issue 30, families/longcard/search_bot.py): its parameters are checked,
it is reproducible (same seed, same view, same decision), it keeps to its budget, and it never
reads what its seat cannot see: with the other seats' cards and the stock order swapped (a world
that shows the seat the same thing) it makes the same decision."""

from __future__ import annotations

import numpy as np
import pytest

from mahjong_core.errors import MahjongError
from mahjong_core.families import registry
from mahjong_core.families.longcard.round_bots import RuleBot
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.families.longcard.search_bot import (
    DEFAULT_STEPS,
    MAX_STEPS,
    PLAYOUT_STEPS,
    WORLD_STEPS,
    SearchBot,
)

RULESET = "changpai-ydr"
HIDDEN_WORLD = registry.get_family("longcard").hidden_worlds


def _searched_points(n: int, seed: int = 0, phases=("discard", "claim", "qi")):
    """Up to ``n`` (round, seat) where the search bot searches (two candidates or more), from hands
    played by RuleBots, at most 3 per hand."""
    rule, probe = RuleBot(), SearchBot(seed=0, playouts=1)
    out = []
    s = seed
    while len(out) < n:
        r = LongcardRound(RULESET, s, dealer=s % 3)
        s += 1
        taken = 0
        while not r.is_over and len(out) < n and taken < 3:
            seat = r.seats_to_act()[0]
            if r.view(seat)["phase"] in phases:
                probe.act_index(r, seat)
                if probe.last_playouts:
                    out.append((LongcardRound.from_json(r.to_json()), seat))
                    taken += 1
            r.step(seat, rule.act_index(r, seat))
    return out


@pytest.mark.parametrize("kw", [
    {"seed": -1}, {"seed": 1.5}, {"seed": "7"}, {"seed": 2**128},
    {"playouts": 0}, {"playouts": 100_001}, {"playouts": 2.0}, {"playouts": True}, {"playouts": "9"},
    {"steps": 0}, {"steps": MAX_STEPS + 1}, {"steps": 5.0}, {"steps": False}, {"steps": None},
    {"max_ms": 0}, {"max_ms": -5}, {"max_ms": float("nan")}, {"max_ms": float("inf")}, {"max_ms": "50"},
    {"max_ms": True}, {"objective": "fan"}, {"objective": None}, {"phases": "discard"}, {"phases": []},
    {"phases": ["discard", "turn"]}, {"phases": 3},
])
def test_bad_parameters_are_refused(kw):
    with pytest.raises(MahjongError) as e:
        SearchBot(**kw)
    assert isinstance(e.value, ValueError)
    assert next(iter(kw)) in str(e.value)


def test_same_seed_and_view_give_the_same_decision():
    points = _searched_points(6, seed=40)
    for r, seat in points:
        bot = SearchBot(seed=11, playouts=40)
        first = bot.act_index(r, seat)
        assert bot.last_playouts > 0
        assert bot.act_index(r, seat) == first                       # the same bot, asked again
        assert SearchBot(seed=11, playouts=40).act_index(r, seat) == first   # a fresh bot of the seed
        default = [SearchBot(seed=11), SearchBot(seed=11)]        # the default budget: counted, no clock
        assert default[0].act_index(r, seat) == default[1].act_index(r, seat)
        assert default[0].last_steps == default[1].last_steps >= DEFAULT_STEPS
        assert default[0].last_playouts == default[1].last_playouts
    assert {r.view(seat)["phase"] for r, seat in points} >= {"discard"}


def test_the_playouts_cap_is_kept():
    (r, seat), = _searched_points(1, seed=7, phases=("discard",))
    k = sum(1 for i in r.legal_indices(seat) if i < 21 and not r.penalised_mask(seat)[i])
    for playouts in (1, k, 5 * k + 1, 60):
        bot = SearchBot(seed=1, steps=MAX_STEPS, playouts=playouts)
        bot.act_index(r, seat)
        assert bot.last_playouts == max(1, playouts // k) * k      # whole worlds, every candidate in each
    capped = SearchBot(seed=1, steps=MAX_STEPS, playouts=100_000, max_ms=2)
    capped.act_index(r, seat)
    assert k <= capped.last_playouts < 100_000      # the cap, not the playouts, ended it (no bound on time)


def test_the_steps_budget_is_kept():
    """The search stops at the first world whose steps reach the budget (counted, not timed): with
    one world fewer (the same worlds: the generator is the decision's) it had not reached it."""
    for r, seat in _searched_points(4, seed=60):
        one = SearchBot(seed=1, steps=1)
        one.act_index(r, seat)
        k = one.last_playouts                                    # one world: each candidate once
        assert k >= 2 and one.last_steps >= WORLD_STEPS + k * (1 + PLAYOUT_STEPS)
        for steps in (500, 3000, DEFAULT_STEPS):
            bot = SearchBot(seed=1, steps=steps) if steps != DEFAULT_STEPS else SearchBot(seed=1)
            bot.act_index(r, seat)
            worlds = bot.last_playouts // k
            assert bot.last_steps >= steps and worlds >= 1
            fewer = SearchBot(seed=1, steps=MAX_STEPS, playouts=(worlds - 1) * k) if worlds > 1 else None
            if fewer is not None:
                fewer.act_index(r, seat)
                assert fewer.last_playouts == (worlds - 1) * k and fewer.last_steps < steps
            # a world costs WORLD_STEPS plus, per candidate, the playout's actions and PLAYOUT_STEPS
            assert bot.last_steps - (fewer.last_steps if fewer else 0) <= WORLD_STEPS + k * (PLAYOUT_STEPS + 400)


def test_the_steps_budget_spends_fewer_playouts_on_longer_playouts():
    """Counted in steps, the first searched decision of a hand (playouts of some 45 actions) plays
    fewer playouts than its last one (a few actions each): the budget holds the work of a decision,
    not its count of playouts."""
    rule, probe = RuleBot(), SearchBot(seed=0, steps=1)
    for seed in (5, 6):
        r = LongcardRound(RULESET, seed, dealer=0)
        points = []
        while not r.is_over:
            seat = r.seats_to_act()[0]
            probe.act_index(r, seat)
            if probe.last_playouts:
                points.append((LongcardRound.from_json(r.to_json()), seat))
            r.step(seat, rule.act_index(r, seat))
        per_playout = []
        for r2, seat in (points[0], points[-1]):
            bot = SearchBot(seed=3)
            bot.act_index(r2, seat)
            assert bot.last_steps >= DEFAULT_STEPS
            per_playout.append(bot.last_steps / bot.last_playouts)
        assert per_playout[0] > 2 * per_playout[1], per_playout


def test_decisions_do_not_change_when_the_hidden_cards_are_swapped():
    rng = np.random.default_rng(8)
    swapped = 0
    phases = set()
    for r, seat in _searched_points(40, seed=100):
        other = HIDDEN_WORLD(r, seat, rng)
        if other is None:
            continue
        assert other.view(seat) == r.view(seat)
        if all(other.view(o)["hand"] == r.view(o)["hand"] for o in range(3) if o != seat) \
                and list(other.hand.stock) == list(r.hand.stock):
            continue
        bot = SearchBot(seed=5, playouts=30)
        a = bot.act_index(r, seat)
        assert bot.last_playouts > 0
        assert SearchBot(seed=5, playouts=30).act_index(other, seat) == a
        swapped += 1
        phases.add(r.view(seat)["phase"])
    assert swapped >= 8 and {"discard", "claim"} <= phases, (swapped, phases)


def test_a_cheating_search_would_see_the_swap():
    """The swap test has teeth: the hidden cards of the two worlds make different playouts (a bot
    that played out on the true cards instead of sampled ones would tell them apart)."""
    rng = np.random.default_rng(8)
    differ = 0
    for r, seat in _searched_points(12, seed=100):
        other = HIDDEN_WORLD(r, seat, rng)
        if other is None:
            continue
        cands = [i for i in r.legal_indices(seat) if not r.penalised_mask(seat)[i] and i not in (255, 258)]
        res = []
        for world in (r, other):
            ends = []
            for a in cands:
                c = world.hand.core.copy()
                c.step(seat, a)
                ends.append(c.play(("rule",) * 3)["deltas"][seat])
            res.append(ends)
        differ += res[0] != res[1]
    assert differ >= 1


def test_the_reference_engine_and_a_bare_view():
    r = LongcardRound(RULESET, 3, dealer=0)
    ref = LongcardRound(RULESET, 3, dealer=0, engine="reference")
    rule = RuleBot()
    seen = 0
    while not r.is_over and seen < 3:
        seat = r.seats_to_act()[0]
        bot_c, bot_r = SearchBot(seed=2, playouts=24), SearchBot(seed=2, playouts=24)
        a = bot_c.act_index(r, seat)
        assert bot_r.act_index(ref, seat) == a          # the reference hand is searched on a compiled copy
        seen += bot_c.last_playouts > 0
        h = r.hand
        assert SearchBot(seed=2).choose(h.view(seat), h.legal_mask(seat), h.penalised_mask(seat)) \
            == rule.choose(h.view(seat), h.legal_mask(seat), h.penalised_mask(seat))   # no engine: the RuleBot
        b = rule.act_index(r, seat)
        r.step(seat, b)
        ref.step(seat, b)
    assert seen == 3
