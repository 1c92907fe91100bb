"""Issue 28 item 2: vectorised stepping of long-card hands (``_lc_round.RoundBatch``,
``VectorRounds("changpai-ydr")``) equals stepping the same hands one by one through the single-hand
API (``RoundCore.step``, the built-in bots' ``choose``, ``_lc_round.observe``)."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._lc_round import RoundBatch, observe
from mahjong_core.errors import ArrayShapeError, IllegalActionError, MahjongError
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.rl import RewardRule, VectorRounds, observation_layout
from mahjong_core.rl.rounds import CoreDealer

RULESET = "changpai-ydr"
LAYOUT = observation_layout(RULESET)


def _kinds(row: int) -> list[int]:
    """Row-dependent seat kinds: -1 the caller, 0 greedy (RuleBot), 1 random (at least one caller)."""
    kinds = [(-1, 0, 1)[(row + s) % 3] for s in range(3)]
    kinds[row % 3] = -1
    return kinds


def _advance_one(core, kinds: list[int], gen: np.random.Generator) -> int:
    while core.result is None:
        seat = core.actor
        if kinds[seat] < 0:
            return seat
        core.step(seat, core.choose("rule") if kinds[seat] == 0 else core.choose("random", gen))
    return -1


def _pick(mask: np.ndarray, obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random offered action per row, unpenalised when one is (so that hands last)."""
    pen = LAYOUT.decode(obs)["penalised"].astype(bool)
    ok = mask.astype(bool) & ~pen
    ok = np.where(ok.any(axis=1)[:, None], ok, mask.astype(bool))
    return (rng.random(mask.shape) * ok).argmax(axis=1)


def test_batch_equals_hands_stepped_one_by_one() -> None:
    n = 12
    kinds = [_kinds(i) for i in range(n)]
    batch = RoundBatch([new_core(i) for i in range(n)], np.array(kinds), [np.random.PCG64(50 + i) for i in range(n)])
    solo = [new_core(i) for i in range(n)]
    gens = [np.random.Generator(np.random.PCG64(50 + i)) for i in range(n)]
    actors = [_advance_one(c, k, g) for c, k, g in zip(solo, kinds, gens)]
    rng = np.random.default_rng(3)
    obs, mask, actor, done = batch.observe()
    steps = ended = 0
    while not done.all():
        assert actor.tolist() == actors and done.tolist() == [a < 0 for a in actors]
        for i, c in enumerate(solo):
            if actors[i] >= 0:
                o, m = observe(c, actors[i])
                np.testing.assert_array_equal(obs[i], o)
                np.testing.assert_array_equal(mask[i], m)
            else:
                assert not obs[i].any() and not mask[i].any()
        acts = _pick(mask, obs, rng)
        for i, c in enumerate(solo):
            if actors[i] >= 0:
                c.step(actors[i], int(acts[i]))
                actors[i] = _advance_one(c, kinds[i], gens[i])
                ended += actors[i] < 0
        obs, mask, actor, done = batch.step(acts)
        steps += 1
    for i, c in enumerate(solo):
        assert batch.core(i).result == c.result and batch.core(i).log == c.log
    assert steps > 10 and ended == n


def test_batch_deals_as_the_dealer_and_step_deal_replaces_ended_hands() -> None:
    dealer = CoreDealer(RULESET, None)
    batch = RoundBatch([dealer(np.random.default_rng(k)) for k in range(4)], np.full((4, 3), -1))
    for seed in range(5):
        batch.deal(1, np.random.PCG64(seed))
        want = dealer(np.random.Generator(np.random.PCG64(seed)))
        got = batch.core(1)
        assert (got.stock, got.banker) == (want.stock, want.banker)
    assert dealer.as_round(batch.core(1)).to_dict()["stock"] == batch.core(1).stock
    rng = np.random.default_rng(0)
    bits = np.random.PCG64(9)
    obs, mask, actor, done = batch.observe()
    won: list = []
    ended_all = 0
    for _ in range(200):
        before = [batch.core(i) for i in range(4)]
        obs, mask, actor, done, ended = batch.step_deal(_pick(mask, obs, rng), bits, won)
        assert [batch.core(i) is not before[i] for i in range(4)] == done.tolist()
        assert ended == [before[i] for i in range(4) if done[i]] and (actor >= 0).all()
        ended_all += len(ended)
    assert ended_all > 10 and all(c.result["end"] in ("win", "baozi") for _, c in won)
    for bad in ([0, 0, 0], np.zeros(4), np.full(4, 259)):
        with pytest.raises((ArrayShapeError, IllegalActionError)):
            batch.step(bad)
    with pytest.raises(MahjongError, match="row 0 has a random bot"):
        RoundBatch([new_core(1)], np.array([[-1, 1, 0]]))


def test_vector_rounds_rewards_and_rows() -> None:
    """Self-play VectorRounds: the rewards of an ended row are the RewardRule of its hand, the
    row's round replays its actions, a bad batch changes nothing."""
    vec = VectorRounds(RULESET, 8, seed=1, copy=True)
    obs, mask, actor = vec.reset()
    assert obs.shape == (8, LAYOUT.size) and mask.shape == (8, 259)
    rng = np.random.default_rng(2)
    rule = RewardRule(RULESET)
    paid = 0
    for _ in range(300):
        cores = [vec.core(i) for i in range(8)]
        obs, mask, actor, rewards, done = vec.step(_pick(mask, obs, rng))
        for i in np.flatnonzero(done):
            assert rewards[i].tolist() == rule(cores[i]) and rewards[i].sum() == 0
            paid += bool(rewards[i].any())
        assert not rewards[~done].any()
    assert paid > 0
    r = vec.round(3)
    assert r.log == vec.core(3).log and r.view(0)["stock_left"] == vec.core(3).stock_left
    with pytest.raises(IllegalActionError, match="row 0"):
        vec.step(np.where(np.arange(8) == 0, 259, 0))
    mixed = VectorRounds(RULESET, 4, seed=3, bots=(None, "greedy", "random"))
    obs, mask, actor = mixed.reset()
    for _ in range(100):
        obs, mask, actor, rewards, done = mixed.step(_pick(mask, obs, rng))
        assert (actor == 0).all()
