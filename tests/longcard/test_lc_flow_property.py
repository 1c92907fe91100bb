"""Property (issue 25): under every combination of the flow options of spec 6, the seat to act always has
a legal move and every hand ends, in both engines.

- The options that add or take away moves (the 包子 choices and ``baozi_actions_allowed``, the mandatory
  claims, the last-卯 filter, the discard bans, the 起-stage pass) are taken in every combination; the
  other flow options vary with the combination (each of their values appears); each combination plays
  seeded hands on the compiled engine with both built-in bots, checking every step.
- Hypothesis draws every flow option freely and plays the hand on the reference and the compiled
  engine in lockstep (the same offered actions at every step).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong_core.families.longcard.options import OPTIONS
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.families.longcard.round_settings import RoundSettings

MAX_STEPS = 2_000
"""No hand takes more decisions: 115 cards turned or discarded, each with its claim answers."""

# the options that decide which moves a seat has (spec 3.3, 3.5, 3.7, 3.11, 3.13): every combination
MOVE_OPTIONS = {
    "baozi_actions_allowed": (True, False), "last_mao_claim_is_hu_only": (True, False), "bi_peng": (False, True),
    "bi_jin_bi_da": (True, False), "hu_overrides_mandatory": (True, False), "liang_mao_bi_jin": (True, False),
    "wei_zhang_bi_jin": (True, False), "qi_stage_pass": (True, False),
    "chi_same_face_discard_ban": ("seven_only", "all", "none"),
}
# the other options of the flow: each combination above takes one value of each (cycled), and
# hypothesis below draws them freely
OTHER_FLOW = {
    "caishen_count": (0, 5, 10), "turn_direction": ("ccw", "cw"), "seven_triple_claim": ("chi", "peng"),
    "chi_may_use_kan": (False, True), "liang_fan_ke_tiao": (False, True), "liang_fan_measure": ("theoretical", "held"),
    "dang_rule": ("taken_or_dead_per_face", "taken_only", "any_face_releases_all"),
    "discard_chi_skips_folded": (True, False), "tiao_definition": ("discard_or_chi", "chi_only"),
    "ready_requires_live": (False, True), "win_split_kan": (True, False), "peng_bar_on_pass": (True, False),
    "guo_hu_scope": ("face", "hand"), "qi_fan_measure": ("theoretical", "s1"),
    "mao_bonus": ("live", "any", "s1", "off"), "tmax_quad_value": ("xiang", "weixiang"),
}
EXTRA_CARD = ({}, {"banker_extra_card": False, "first_actor": "banker_turns"})    # CP-4 / CP-5, coupled


def test_the_move_options_are_flow_options_of_spec_6():
    for key, values in (*MOVE_OPTIONS.items(), *OTHER_FLOW.items()):
        assert OPTIONS[key].default in values, key
        for v in values:
            RoundSettings.from_options({key: v})


def _combinations():
    keys = list(MOVE_OPTIONS)
    for k, values in enumerate(itertools.product(*MOVE_OPTIONS.values())):
        opts = dict(zip(keys, values))
        for j, (key, choices) in enumerate(OTHER_FLOW.items()):
            opts[key] = choices[(k // (j + 1)) % len(choices)]
        opts.update(EXTRA_CARD[k % 2])
        yield k, opts


def _play_checked(core, kind: str, seed: int) -> int:
    """Play the compiled hand with the built-in bot ``kind``; at every step the seat to act has a legal
    move and no other seat has one; the hand ends within MAX_STEPS.  Returns the number of steps."""
    gens = [np.random.default_rng(seed * 3 + k) for k in range(3)]
    steps = 0
    while core.seats_to_act():
        (p,) = core.seats_to_act()
        offered = core.offered(p)
        assert offered, (seed, kind, core.phase, core.log)
        assert all(core.offered(q) == {} for q in range(3) if q != p)
        a = int(core.choose(kind, gens[p]))
        assert a in offered
        core.step(p, a)
        steps += 1
        assert steps < MAX_STEPS, (seed, kind)
    assert core.result is not None
    return steps


@pytest.mark.slow
def test_every_combination_of_the_move_options_always_has_a_move_and_ends():
    combos = list(_combinations())
    assert len(combos) == 2 ** 8 * 3
    ends = set()
    for k, opts in combos:
        settings_ = RoundSettings.from_options(opts)
        for seed in (3 * k, 3 * k + 1):
            for kind in ("rule", "random"):
                core = new_core(seed, settings=settings_)
                _play_checked(core, kind, seed)
                ends.add(core.result["end"])
    assert ends == {"win", "huangzhuang", "void"}       # the built-in bots take no penalised action


_FLOW = st.fixed_dictionaries({key: st.sampled_from(values)
                               for key, values in (*MOVE_OPTIONS.items(), *OTHER_FLOW.items())})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=_FLOW, extra=st.sampled_from(EXTRA_CARD), seed=st.integers(0, 2**32 - 1),
       kind=st.sampled_from(["rule", "random"]))
def test_both_engines_always_have_a_move_and_end(opts, extra, seed, kind):
    """The reference and the compiled engine in lockstep: the same offered actions at every step, one
    of them at least, and the hand ends."""
    opts = {**opts, **extra}
    r = Round(seed, options=opts)
    core = new_core(seed, options=opts)
    gens = [np.random.default_rng(seed % 1000 + k) for k in range(3)]
    for _ in range(MAX_STEPS):
        if not r.seats_to_act():
            break
        p = r.actor
        offered = r._offered(p)
        assert offered and core.offered(p) == offered, (seed, r.phase, r.log)
        a = int(core.choose(kind, gens[p]))
        r.step(p, a)
        core.step(p, a)
    assert r.result is not None and r.result == core.result
