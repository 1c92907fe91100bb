"""Issue 28, the long-card vector target: the paths the compiled step takes to be fast give what the
plain ones give.

- the 卯 / T_max plan and F_theo kept per seat, of which a change of cards works out again only the
  point classes it touches: every seat's observation (its ``counting`` section included) equals the
  one of a copy of the hand, whose caches start empty and work everything out from scratch, at every
  step of hands under every flow option set;
- a hand's result built when first read: ``step_deal``'s ``won`` lists exactly the ended hands with
  payments, and the result of an ended hand, its copy's and its events' are one;
- ``step_deal`` steps, deals and observes row by row: the same outputs as ``step`` and ``deal``
  row by row; an int64 action array that is not contiguous is read like a contiguous one;
- a hand's settle keys (what the rewards read) come from how it ended, without its result: the
  ``end``, seat and ``fan`` of the result built afterwards, for wins (whose fan the engine scores
  in C, the score's breakdown built with the result), 包子 and draws; None while the hand runs.
"""

from __future__ import annotations

import numpy as np
from mahjong_core._lc_round import RoundBatch, observe
from mahjong_core.families.longcard.option_samples import FLOW_OPTION_SETS
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.rl import observation_layout
from mahjong_core.rl.rounds import CoreDealer

RULESET = "changpai-ydr"
LAYOUT = observation_layout(RULESET)


def _pick(mask: np.ndarray, obs: np.ndarray, rng: np.random.Generator, penalties: bool = False) -> np.ndarray:
    """A random offered action per row; unpenalised when one is, unless ``penalties``."""
    ok = mask.astype(bool)
    if not penalties:
        free = ok & ~LAYOUT.decode(obs)["penalised"].astype(bool)
        ok = np.where(free.any(axis=1)[:, None], free, ok)
    return (rng.random(mask.shape) * ok).argmax(axis=1)


def test_every_seats_observation_equals_a_fresh_copys_under_every_option_set() -> None:
    rng = np.random.default_rng(5)
    compared = 0
    for k, options in enumerate(FLOW_OPTION_SETS):
        for seed in range(3):
            core = new_core(100 * k + seed, options=options)
            while True:
                fresh = core.copy()              # empty plan caches: every plan from scratch
                for seat in range(3):
                    obs, mask = observe(core, seat)
                    want, want_mask = observe(fresh, seat)
                    np.testing.assert_array_equal(obs, want, err_msg=f"options {k} seed {seed} seat {seat}")
                    np.testing.assert_array_equal(mask, want_mask)
                    compared += 1
                if core.result is not None:
                    break
                offered = core.offered(core.actor)
                free = [a for a, cause in offered.items() if cause is None] or list(offered)
                core.step(core.actor, free[int(rng.integers(len(free)))])
    assert compared > 1000


def test_step_deal_lists_the_hands_with_payments_and_their_results() -> None:
    dealer = CoreDealer(RULESET, None)
    n = 16
    batch = RoundBatch([dealer(np.random.default_rng(k)) for k in range(n)], np.full((n, 3), -1))
    rng = np.random.default_rng(3)
    bits = np.random.PCG64(4)
    obs, mask, _, _ = batch.observe()
    ends: set[str] = set()
    for step in range(150):
        won: list = []
        rows = [batch.core(i) for i in range(n)]
        obs, mask, _, done, ended = batch.step_deal(_pick(mask, obs, rng, penalties=step % 3 == 0), bits, won)
        paying = [(i, rows[i]) for i in np.flatnonzero(done) if rows[i].result["end"] in ("win", "baozi")]
        assert [(i, id(c)) for i, c in won] == [(i, id(c)) for i, c in paying]
        for c in ended:
            res = c.result
            assert res is c.result and c.copy().result is res and c.events()[-1]["result"] is res
            assert {"end", "payments", "deltas", "next_banker", "counts"} <= set(res)
            ends.add(res["end"])
    assert {"baozi", "void", "huangzhuang"} <= ends


def test_step_deal_equals_step_then_deal_row_by_row() -> None:
    dealer = CoreDealer(RULESET, None)
    n = 6
    cores = [dealer(np.random.default_rng(k)) for k in range(n)]
    fast = RoundBatch([c.copy() for c in cores], np.full((n, 3), -1))
    slow = RoundBatch([c.copy() for c in cores], np.full((n, 3), -1))
    fast_bits, slow_bits = np.random.PCG64(8), np.random.PCG64(8)
    rng = np.random.default_rng(1)
    obs, mask, _, _ = fast.observe()
    for _ in range(120):
        wide = np.zeros((n, 2), dtype=np.int64)
        wide[:, 0] = _pick(mask, obs, rng)
        actions = wide[:, 0]                          # an int64 array that is not contiguous
        assert not actions.flags.c_contiguous
        slow_done = slow.step(actions.copy())[3]
        for i in np.flatnonzero(slow_done):
            slow.deal(int(i), slow_bits)
        want = slow.observe()
        obs, mask, actor, done, _ = fast.step_deal(actions, fast_bits)
        for got, exp in zip((obs, mask, actor), want[:3]):
            np.testing.assert_array_equal(got, exp)
        assert done.tolist() == slow_done.tolist()


def _keys_of(res: dict) -> tuple:
    if res["end"] in ("win", "baozi"):
        return ((res["end"], res["winner" if res["end"] == "win" else "offender"], res["fan"]),)
    return ()


def test_settle_keys_are_the_results_end_seat_and_fan() -> None:
    from mahjong_core._lc_hand import score

    ends: set[str] = set()
    for k, options in enumerate(FLOW_OPTION_SETS):
        for seed in range(12):
            core = new_core(1000 * k + seed, options=options)
            assert core.settle_keys() is None
            if seed % 3 == 0:                         # any offered action, the penalised ones too: 包子
                rng = np.random.default_rng(seed)
                while core.settle_keys() is None:
                    offered = sorted(core.offered(core.actor))
                    core.step(core.actor, offered[int(rng.integers(len(offered)))])
            else:
                kinds = ("rule", "rule", "random") if seed % 2 else ("random", "rule", "random")
                core.play(kinds, [np.random.default_rng(seed + q) for q in range(3)])
            keys = core.settle_keys()                 # before the result is first built
            res = core.result
            assert keys == _keys_of(res) and core.settle_keys() == keys
            ends.add(res["end"])
            if res["end"] == "win":                   # the engine's fan is the hand layer's score
                w = res["winner"]
                want = score(bytes(core.hands[w]), None, declared=core.groups[w], banker=w == core.banker,
                             jiang=core.jiang, caishen=core.caishen[w], **core.settings.score_options())
                assert res["fan"] == want.total and res["score"] == want.to_dict()
    assert {"win", "baozi"} <= ends and ends & {"void", "huangzhuang"}
