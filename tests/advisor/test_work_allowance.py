"""The fan search's work, counted without a clock (:class:`fan_shanten.Work`), and its allowance
(issue 30: a search bot's decision bounded reproducibly): the count does not change the answer,
an allowance stops the search before the limit that would pass it, and a search stopped before
its first limit ranks the discards by plain shanten and the live tiles that lower it."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.families.mahjong.advise import advise_problem
from mahjong_core.families.mahjong.fan_shanten import WORK_PER_PAIR, Work, prepare

import mahjong_core as mj

# a knitted-looking public hand five draws from any win: its first limit (6 draws) has about ten
# thousand complete hands and fifty thousand (hand, winning tile) pairs, the advisor's longest
# search over 100 seeded rounds (about 150 ms of one core)
ORDINARY = "123m456p789s11pEEN"        # the module docstring's hand: ready with 花龙


def _far_counts() -> list[int]:
    h = [0] * 34
    for t in (1, 7, 10, 11, 12, 13, 16, 18, 18, 19, 22, 25, 32, 33):
        h[t] += 1
    return h


def test_counting_the_work_changes_nothing():
    for hand, ruleset in ((ORDINARY, "public"), ("11223344556677m", "two-player"), ("1234589m123p5567s", "mcr")):
        prob = prepare(hand, ruleset=ruleset, tiles=14)
        work = Work()
        assert advise_problem(prob, 4, work=work) == advise_problem(prob, 4)
        assert work.done > 0 and not work.cut
        again = Work()
        advise_problem(prob, 4, work=again)
        assert again.done == work.done             # a count, not a clock: the same every time


def test_an_allowance_below_the_first_limit_ranks_by_plain_shanten_and_live_tiles():
    prob = prepare(_far_counts(), ruleset="public", tiles=14)
    full = Work()
    exact = advise_problem(prob, 4, breakdown=False, work=full)
    assert not full.cut and full.done > 100_000 and all(o.fan_exact for o in exact.options)
    work = Work(allowance=20_000)
    cut = advise_problem(prob, 4, breakdown=False, work=work)
    assert work.cut and work.done <= 20_000      # the first limit would pass it: enumerated, not scored
    assert [o.discard for o in cut.options] != [] and not any(o.fan_exact for o in cut.options)
    assert {o.discard for o in cut.options} == {o.discard for o in exact.options}
    # the plain order: shanten, then the live copies of the kinds whose draw lowers it
    live = prob.live

    def lowering(d: int) -> int:
        h = np.array(prob.hand, np.uint8)
        h[d] -= 1
        s = mj.shanten(h, ruleset="public")
        total = 0
        for t in range(34):
            if live[t]:
                h[t] += 1
                total += live[t] * (mj.shanten(h, ruleset="public") < s)
                h[t] -= 1
        return total

    keys = [(o.shanten, -lowering(o.discard), o.discard) for o in cut.options]
    assert keys == sorted(keys)
    assert all(o.fan_shanten == o.shanten and o.effective == () for o in cut.options)


def test_an_allowance_between_limits_keeps_what_the_earlier_limits_found():
    # ready on 4s with E discarded (the first limit, one draw); the other discards are found at
    # the second limit.  An allowance of the first limit's work gives the first limit's answer:
    # E exact as before, the other discards lower bounds (more than one draw), as a deadline would
    prob = prepare("234m456m678p22s35sE", ruleset="public", tiles=14)
    first = Work()
    advise_problem(prob, 1, breakdown=False, work=first)     # the search limited to one draw
    whole = Work()
    full = advise_problem(prob, 4, breakdown=False, work=whole)
    assert 0 < first.done < whole.done and not whole.cut
    work = Work(allowance=first.done)
    capped = advise_problem(prob, 4, breakdown=False, work=work)
    assert work.cut and first.done <= work.done <= whole.done     # the second limit enumerated only
    assert capped.options[0] == full.options[0] and capped.best.discard_tile == "E" and capped.best.fan_exact
    rest = capped.options[1:]
    assert rest and all(not o.fan_exact and o.fan_shanten >= 1 and o.effective == () for o in rest)
    assert all(o.fan_exact for o in full.options)


def test_work_per_pair_is_a_positive_weight():
    assert isinstance(WORK_PER_PAIR, int) and WORK_PER_PAIR >= 1


@pytest.mark.parametrize("allowance", [0, 1])
def test_a_tiny_allowance_still_ranks_every_discard(allowance):
    prob = prepare(ORDINARY, ruleset="public", tiles=14)
    work = Work(allowance=allowance)
    a = advise_problem(prob, 4, work=work)
    assert work.cut and len(a.options) == len({t for t in range(34) if prob.hand[t]})
