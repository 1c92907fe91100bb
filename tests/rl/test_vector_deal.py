"""``RoundBatch.step_deal`` (the step and the next deals in one compiled call, what
``VectorRounds`` uses without random bots) equals ``RoundBatch.step`` followed by
``RoundBatch.deal`` of every row whose round ended, on the same bit stream."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._round import RoundBatch
from mahjong_core.errors import ArrayShapeError, IllegalActionError, MahjongError
from mahjong_core.rl import VectorRounds, mahjong_rulesets, observation_layout
from mahjong_core.rl.rounds import CoreDealer

RULESETS = mahjong_rulesets()


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_step_deal_equals_step_then_deal(ruleset: str) -> None:
    P = observation_layout(ruleset).players
    n = 6
    kinds = np.array([[-1] + [0 if (i + s) % 2 else -1 for s in range(1, P)] for i in range(n)])
    dealer = CoreDealer(ruleset, None)
    a = RoundBatch([dealer(np.random.default_rng(i)) for i in range(n)], kinds)
    b = RoundBatch([dealer(np.random.default_rng(i)) for i in range(n)], kinds)
    bits_a, bits_b = np.random.PCG64(11), np.random.PCG64(11)
    rng = np.random.default_rng(2)
    _, mask, _, _ = a.observe()
    ended_total = won_total = 0
    for _ in range(300):
        acts = _pick(mask, rng)
        before = [a.core(i) for i in range(n)]
        won: list = []
        obs, mask, actor, done, ended = a.step_deal(acts, bits_a, won)
        obs_b, mask_b, actor_b, done_b = b.step(acts)
        np.testing.assert_array_equal(done, done_b)
        assert len(ended) == int(done.sum())
        # won: (row, core) of exactly the ended rounds with a winner, in row order
        rows = np.flatnonzero(done).tolist()
        assert won == [(i, c) for i, c in zip(rows, ended, strict=True) if c.winner_totals()]
        for c in ended:     # settle_keys: result_info and winner_totals in one call
            draw, _, loser, method, _, _ = c.result_info()
            want = () if draw else tuple((w, loser, method, total, nf, c.min_fan)
                                         for w, total, nf in c.winner_totals())
            assert c.settle_keys() == want
        won_total += len(won)
        for k, i in enumerate(np.flatnonzero(done).tolist()):
            assert ended[k] is before[i] and ended[k].phase == 4
            assert ended[k].events() == b.core(i).events()
            while b.deal(i, bits_b) < 0:
                pass
            assert a.core(i) is not before[i] and a.core(i).get_state() == b.core(i).get_state()
            obs_b[i], mask_b[i], actor_b[i], _ = (x[i] for x in b.observe())
        ended_total += len(ended)
        np.testing.assert_array_equal(obs, obs_b)
        np.testing.assert_array_equal(mask, mask_b)
        np.testing.assert_array_equal(actor, actor_b)
        assert (actor >= 0).all() and mask.any(axis=1).all()
    assert ended_total >= n
    if ruleset != "public":      # random play in public rarely reaches its 8 fans
        assert won_total > 0
    assert bits_a.state == bits_b.state


def test_step_deal_refuses_before_any_change() -> None:
    dealer = CoreDealer("two-player", None)
    cores = [dealer(np.random.default_rng(i)) for i in range(2)]
    batch = RoundBatch(cores, np.array([[-1, -1], [-1, 1]]), [None, np.random.PCG64(1)])
    _, mask, _, _ = batch.observe()
    before = [c.n_events for c in cores]
    with pytest.raises(MahjongError, match="row 1 has a random bot"):
        batch.step_deal(_pick(mask, np.random.default_rng(0)), np.random.PCG64(1))
    with pytest.raises(MahjongError, match="bit_generator"):
        batch.step_deal(_pick(mask, np.random.default_rng(0)), np.random.default_rng(1))
    many = RoundBatch([dealer(np.random.default_rng(i)) for i in range(40)], np.full((40, 2), -1))
    many.step_deal(_pick(many.observe()[1], np.random.default_rng(0)), np.random.PCG64(1))   # no random bot: runs
    self_play = RoundBatch([dealer(np.random.default_rng(5))], np.array([[-1, -1]]))
    bad = np.array([int(np.flatnonzero(self_play.observe()[1][0] == 0)[0])])
    with pytest.raises(IllegalActionError, match="row 0"):
        self_play.step_deal(bad, np.random.PCG64(1))
    assert [c.n_events for c in cores] == before


@pytest.mark.parametrize("bots", [(None, "random"), (None, "greedy")])
def test_vector_rounds_same_rounds_either_way(bots: tuple) -> None:
    """With random bots VectorRounds deals in Python, else in the engine: both deal from the
    environment's generator, so the same seed plays the same rounds as dealt one by one."""
    vec = VectorRounds("two-player", 4, seed=3, bots=bots)
    _, mask, _ = vec.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        _, mask, _, rewards, done = vec.step(_pick(mask, rng))
        finished += int(done.sum())
        assert not rewards[~done].any()
    assert finished >= 4


def test_step_arrays_live_through_the_next_step() -> None:
    """``copy=False``, the reused output sets: a step's arrays keep their values through the
    next step (then the engine writes them again); the default (``copy=True``) returns fresh
    arrays every step."""
    reused, copied = VectorRounds("public", 8, seed=6, copy=False), VectorRounds("public", 8, seed=6)
    _, mask, _ = reused.reset()
    copied.reset()
    rng = np.random.default_rng(1)
    seen: list[tuple[np.ndarray, ...]] = []
    for _ in range(30):
        acts = _pick(mask, rng)
        out = reused.step(acts)
        fresh = copied.step(acts)
        for x, y in zip(out, fresh, strict=True):
            np.testing.assert_array_equal(x, y)
        if seen:
            prev, snapshot = seen[-1]
            assert out[0] is not prev[0]
            for x, y in zip(prev, snapshot, strict=True):   # untouched by this step
                np.testing.assert_array_equal(x, y)
        seen.append((out, tuple(x.copy() for x in out)))
        assert all(f is not o for f, o in zip(fresh, out, strict=True))
        mask = out[1]
    assert seen[-1][0][0] is seen[-3][0][0]   # two sets, in turn


def test_step_deal_reads_any_int_array_and_generator_alike() -> None:
    """The fast path (a C-contiguous int64 vector, the generator of the last call) and the
    general one (other integer dtypes, strided views, another generator object) step alike."""
    dealer = CoreDealer("public", None)
    kinds = np.full((4, 4), -1)
    a = RoundBatch([dealer(np.random.default_rng(i)) for i in range(4)], kinds)
    b = RoundBatch([dealer(np.random.default_rng(i)) for i in range(4)], kinds)
    bits_a = np.random.PCG64(3)
    bits_b = np.random.PCG64(3)
    _, mask, _, _ = a.observe()
    rng = np.random.default_rng(4)
    for k in range(200):
        acts = _pick(mask, rng).astype(np.int64)
        wide = np.zeros(8, dtype=np.int64)
        wide[::2] = acts
        other = (acts.astype(np.int32), wide[::2], acts.tolist(), acts.astype(np.uint16))[k % 4]
        out_a = a.step_deal(acts, bits_a)
        # b alternates between two objects over the same state: the pointer kept from the last
        # call must follow the object passed
        gen = bits_b if k % 2 else np.random.PCG64(1)
        if k % 2 == 0:
            gen.state = bits_b.state
        out_b = b.step_deal(other, gen)
        if gen is not bits_b:
            bits_b.state = gen.state
        for x, y in zip(out_a[:4], out_b[:4], strict=True):
            np.testing.assert_array_equal(x, y)
        mask = out_a[1]
    with pytest.raises(MahjongError, match="bit_generator must be a NumPy BitGenerator"):
        a.step_deal(_pick(mask, rng), None)
    with pytest.raises(ArrayShapeError):
        a.step_deal(np.zeros((4, 1), dtype=np.int64), bits_a)
    with pytest.raises(ArrayShapeError):
        a.step_deal(np.zeros(5, dtype=np.int64), bits_a)


def test_step_deal_won_must_be_a_list() -> None:
    dealer = CoreDealer("two-player", None)
    batch = RoundBatch([dealer(np.random.default_rng(0))], np.array([[-1, -1]]))
    _, mask, _, _ = batch.observe()
    before = batch.core(0).get_state()
    for bad in ((), {}, "x", 3):
        with pytest.raises(MahjongError, match="won must be a list"):
            batch.step_deal(mask.argmax(axis=1), np.random.PCG64(1), bad)
    assert batch.core(0).get_state() == before          # refused before any change


@pytest.mark.parametrize("keys", [
    [(0, 1, "discard", 8, 8, 8)],                 # not a tuple
    ((0, 1, "discard", 8, 8),),                   # five fields
    ((2, 1, "discard", 8, 8, 8),),                # winner out of range
    ((0, 0, "discard", 8, 8, 8),),                # loser = winner
    ((0, None, "discard", 8, 8, 8),),             # a discard win without a loser
    ((0, 1, "self_drawn", 8, 8, 8),),             # a self-drawn win with a loser
    ((0, 1, "thrown", 8, 8, 8),),                 # no such method
    ((0, 1, "discard", -8, 8, 8),),               # a negative total
    ((0, 1.0, "discard", 8, 8, 8),),              # a float seat
    ((True, 1, "discard", 8, 8, 8),),             # a bool seat
])
@pytest.mark.parametrize("reward", ["points", "fans"])
def test_forged_settle_keys_are_refused(keys: object, reward: str) -> None:
    from mahjong_core.rl import RewardRule
    rule = RewardRule("two-player", reward)
    with pytest.raises(MahjongError, match="settle key"):
        rule.of_keys(keys)  # type: ignore[arg-type]
    row = rule.of_keys(((0, 1, "discard", 8, 8, 8),)).tolist()     # a real result still settles
    if reward == "fans":
        assert row == [8.0, 0.0]
    else:
        assert row[0] > 0 and sum(row) == 0     # the loser pays the winner
    assert rule.of_keys(()).tolist() == [0.0, 0.0] and rule.of_keys(None).tolist() == [0.0, 0.0]
