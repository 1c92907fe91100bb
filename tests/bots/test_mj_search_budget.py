"""The search bot's budget covers the advisor's fan search (issue 30: the longest decision bounded
without a clock): its work is counted (``last["advisor_work"]``), bounded by an allowance, and
what passes :data:`ADVISOR_FREE_WORK` comes off the play-outs' steps; the decision stays
reproducible."""

from __future__ import annotations

import math

from mahjong_core.families.mahjong import search_bot
from mahjong_core.families.mahjong.advise import advise_problem
from mahjong_core.families.mahjong.advise_bot import _own_melds, visible_tiles
from mahjong_core.families.mahjong.fan_shanten import Work, prepare
from mahjong_core.families.mahjong.search_bot import (
    ADVISOR_FREE_WORK,
    ADVISOR_SHARE,
    DEFAULT_STEPS,
    WORK_STEPS,
    SearchBot,
)

from tests.support.bot_decisions import decision_points


def _far_point():
    """The advisor's longest fan search over 100 seeded rounds of ``public`` (about 150 ms of one
    core before the allowance): seat 2's sixth decision of the greedy round of seed 46, a
    knitted-looking hand five draws from any win."""
    for i, (rnd, seat) in enumerate(decision_points("public", 46, every=1)):
        if i == 5:
            return rnd, seat
    raise AssertionError("the round has fewer decisions")


def _fan_search_work(rnd, seat) -> int:
    view = rnd.view(seat)
    counts = [0] * 34
    for t in view["hand"]:
        counts[t] += 1
    prob = prepare(counts, ruleset=rnd.ruleset, melds=_own_melds(view), visible=visible_tiles(view),
                   min_fan=view["min_fan"], tiles=14, seat_wind=view["seat_winds"][seat],
                   round_wind=view["round_wind"])
    work = Work()
    advise_problem(prob, 4, breakdown=False, work=work)
    return work.done


def test_the_fan_search_on_a_far_hand_stays_within_its_allowance():
    rnd, seat = _far_point()
    allowance = ADVISOR_FREE_WORK + int(ADVISOR_SHARE * DEFAULT_STEPS[4] / WORK_STEPS)
    assert _fan_search_work(rnd, seat) > 5 * allowance         # what it did without one
    bot = SearchBot(3)
    choice = bot.act_index(rnd, seat)
    assert 0 < bot.last["advisor_work"] <= allowance
    assert bot.last["playouts"] > 0 and choice in rnd.legal_indices(seat)
    charged = max(0, bot.last["advisor_work"] - ADVISOR_FREE_WORK) * WORK_STEPS
    assert bot.last["steps"] < DEFAULT_STEPS[4] - charged + 2_000    # one batch past the rest at most
    assert SearchBot(3).act_index(rnd, seat) == choice                  # a count, not a clock


def test_ordinary_decisions_are_not_charged():
    for rnd, seat in decision_points("two-player", seed=4, every=3):
        bot = SearchBot(1, steps=400)
        bot.act_index(rnd, seat)
        assert bot.last["advisor_work"] <= ADVISOR_FREE_WORK


def test_work_past_the_free_part_comes_off_the_play_outs(monkeypatch):
    rnd, seat = next(iter(decision_points("two-player", seed=4, every=3)))
    free = SearchBot(1, steps=400)
    free.act_index(rnd, seat)
    work = free.last["advisor_work"]
    assert work > 0 and free.last["playouts"] > 0
    # with nothing free, a budget of S steps (an allowance of S units: the fan search is not cut)
    # plays out what S less the charge, ceil(work * WORK_STEPS), plays with the work free
    steps = work + 400
    charge = math.ceil(work * WORK_STEPS)
    monkeypatch.setattr(search_bot, "ADVISOR_FREE_WORK", 0)
    charged = SearchBot(1, steps=steps)
    choice = charged.act_index(rnd, seat)
    assert charged.last["advisor_work"] == work
    monkeypatch.undo()
    plain = SearchBot(1, steps=steps - charge)
    assert plain.act_index(rnd, seat) == choice
    assert [plain.last[k] for k in ("worlds", "playouts", "steps")] == \
        [charged.last[k] for k in ("worlds", "playouts", "steps")]


def test_a_world_counts_the_turns_its_opponents_hands_replay():
    """A sampled world costs WORLD_STEPS per opponent and, with an opponent model that replays
    his turns, TURN_STEPS per discard he has made (up to 40): late in a round, fewer worlds."""
    late = 0
    for i, (rnd, seat) in enumerate(decision_points("public", seed=26, every=1)):
        view = rnd.view(seat)
        made = [len(view["discards"][s]) + sum(1 for k, ms in enumerate(view["melds"]) if k != s
                                                for m in ms if m.get("from") == s and m["kind"] != "ckong")
                for s in range(4) if s != seat]
        base = search_bot.WORLD_STEPS * 3
        assert SearchBot(1)._world_steps(rnd, seat, 4) == base + sum(search_bot.TURN_STEPS * min(n, 40) for n in made)
        assert SearchBot(1, opponents="uniform")._world_steps(rnd, seat, 4) == base
        if i % 20 == 19:           # the worlds' cost is in the steps spent
            bot = SearchBot(1, steps=3000)
            bot.act_index(rnd, seat)
            if bot.last["worlds"] and sum(made) > 20:
                assert bot.last["steps"] >= bot.last["worlds"] * bot._world_steps(rnd, seat, 4) > bot.last["worlds"] * 35
                late += 1
    assert late
