"""Vectorised stepping (``_round.RoundBatch``, ``mahjong_core.rl.VectorRounds``) equals stepping
the same rounds one by one through the single-round API (``RoundCore.step``, the built-in
bots' ``bot_choice``, ``_round.observe``)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from mahjong_core._round import RoundBatch, observe
from mahjong_core.errors import ArrayShapeError, IllegalActionError, MahjongError
from mahjong_core.rl import (
    RewardRule,
    VectorRounds,
    mahjong_rulesets,
    observation_layout,
)
from mahjong_core.rl.rounds import CoreDealer

import mahjong_core as mj

RULESETS = mahjong_rulesets()


def _bots(ruleset: str, row: int) -> list[int]:
    """Row-dependent seat kinds: -1 the caller, 0 greedy, 1 random (at least one caller)."""
    P = observation_layout(ruleset).players
    kinds = [(-1, 0, 1)[(row + s) % 3] for s in range(P)]
    kinds[row % P] = -1
    return kinds


def _random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _advance_one(core: mj.Round, kinds: list[int], gen: np.random.BitGenerator) -> int:
    """Let the bots play one by one until a caller seat acts: that seat, or -1 at the end."""
    while core.phase != 4:
        seat = core.seats_to_act()[0]
        if kinds[seat] < 0:
            return seat
        core.step(seat, core.bot_choice(seat, kinds[seat], gen))
    return -1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_batch_equals_rounds_stepped_one_by_one(ruleset: str) -> None:
    n = 12
    kinds = [_bots(ruleset, i) for i in range(n)]
    batch_cores = [mj.Round(ruleset, seed=i, dealer=i % len(kinds[0]))._core for i in range(n)]
    solo = [mj.Round(ruleset, seed=i, dealer=i % len(kinds[0]))._core for i in range(n)]
    batch = RoundBatch(batch_cores, np.array(kinds), [np.random.PCG64(50 + i) for i in range(n)])
    gens = [np.random.PCG64(50 + i) for i in range(n)]
    actors = [_advance_one(c, k, g) for c, k, g in zip(solo, kinds, gens)]
    rng = np.random.default_rng(3)
    obs, mask, actor, done = batch.observe()
    steps = 0
    while not done.all():
        for i in range(n):   # the batch's outputs are the one-by-one rounds' own
            assert actor[i] == actors[i] and done[i] == (actors[i] < 0)
            if actors[i] >= 0:
                o, m = observe(solo[i], actors[i])
                np.testing.assert_array_equal(obs[i], o)
                np.testing.assert_array_equal(mask[i], m)
            else:
                assert not obs[i].any() and not mask[i].any()
        acts = np.array([_random_action(mask[i], rng) if not done[i] else -5 for i in range(n)])
        for i in range(n):
            if actors[i] >= 0:
                solo[i].step(actors[i], int(acts[i]))
                actors[i] = _advance_one(solo[i], kinds[i], gens[i])
        obs, mask, actor, done = batch.step(acts)
        steps += 1
    assert steps > 10
    for a, b in zip(batch_cores, solo):   # the same rounds, event for event
        assert a.events() == b.events() and a.result_info() == b.result_info()


def test_step_checks_before_changing_anything() -> None:
    cores = [mj.Round("two-player", seed=i)._core for i in range(3)]
    batch = RoundBatch(cores, np.full((3, 2), -1))
    _, mask, _, _ = batch.observe()
    before = [c.n_events for c in cores]
    good = np.array([_random_action(m, np.random.default_rng(0)) for m in mask])
    bad = good.copy()
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="row 2"):
        batch.step(bad)
    for wrong in (good[:2], good.astype(float), good.reshape(3, 1), "0 0 0"):
        with pytest.raises(ArrayShapeError):
            batch.step(wrong)
    with pytest.raises(IllegalActionError, match="row 0"):
        batch.step(np.array([110, good[1], good[2]]))
    assert [c.n_events for c in cores] == before
    batch.step(good)
    assert all(c.n_events > b for c, b in zip(cores, before))


def test_batch_refuses_bad_arguments() -> None:
    cores = [mj.Round("two-player", seed=1)._core, mj.Round("public", seed=1)._core]
    with pytest.raises(MahjongError, match="ruleset"):
        RoundBatch(cores, np.full((2, 2), -1))
    one = [mj.Round("two-player", seed=1)._core]
    with pytest.raises(MahjongError, match="shape"):
        RoundBatch(one, np.full((1, 3), -1))
    with pytest.raises(MahjongError, match="-1"):
        RoundBatch(one, np.array([[-1, 2]]))
    with pytest.raises(MahjongError, match="generator"):
        RoundBatch(one, np.array([[-1, 1]]))
    with pytest.raises(MahjongError, match="at least one"):
        RoundBatch([], np.zeros((0, 2)))
    with pytest.raises(MahjongError, match="row"):
        RoundBatch(one, np.array([[-1, 0]])).core(1)
    with pytest.raises(MahjongError, match="BitGenerator"):
        RoundBatch(one, np.array([[-1, 1]]), [np.random.default_rng(1)])   # a Generator, not its BitGenerator
    # one round in two rows would be stepped twice per call: refused, at creation and on replacement
    two = [mj.Round("two-player", seed=i)._core for i in range(2)]
    with pytest.raises(MahjongError, match="already row 0"):
        RoundBatch([two[0], two[0]], np.full((2, 2), -1))
    batch = RoundBatch(two, np.full((2, 2), -1))
    with pytest.raises(MahjongError, match="already row 1"):
        batch.set_round(0, two[1])
    batch.set_round(0, mj.Round("two-player", seed=5)._core)
    batch.set_round(1, two[0])          # the round left row 0: it may take another row
    with pytest.raises(MahjongError, match="once"):
        batch.__init__(two, np.full((2, 2), -1))


# options that change the flow (the compiled deal copies every setting of the row's round)
_OPTIONS = (None, {"min_fan": 0, "multiple_winners": True, "dealer_on_draw": "next", "reserved_tail_tiles": 14,
                   "ready_mode": "any_discard", "ready_locks_hand": False, "kong_replacement": "die",
                   "first_turn_fans": True, "seat_winds": True, "replacement_bloom": "last_tile",
                   "dealer_on_win": "next"})


@pytest.mark.parametrize("options", _OPTIONS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_compiled_deal_equals_core_dealer(ruleset: str, options: dict | None) -> None:
    """``RoundBatch.deal`` deals, from a bit generator, the round ``CoreDealer`` deals from a
    Generator on the same bit stream, with the same settings: played alike, they stay alike."""
    if options and not mj.get_ruleset(ruleset).first_turn_and_ready:   # no 报听, no first-turn fans (public, mcr)
        options = {k: v for k, v in options.items() if k not in ("ready_mode", "ready_locks_hand", "first_turn_fans")}
    dealer = CoreDealer(ruleset, options)
    P = observation_layout(ruleset).players
    batch = RoundBatch([dealer(np.random.default_rng(99))], np.full((1, P), -1))
    rng = np.random.default_rng(5)
    for seed in range(8):
        want = dealer(np.random.default_rng(seed))
        bits = np.random.PCG64(seed)
        old = batch.core(0)
        assert batch.deal(0, bits) == want.seats_to_act()[0]
        got = batch.core(0)
        assert got is not old and got.dealer == want.dealer and got.get_state() == want.get_state()
        _, mask, actor, done = batch.observe()
        while not done[0]:
            a = _random_action(mask[0], rng)
            want.step(int(actor[0]), a)
            _, mask, actor, done = batch.step(np.array([a]))
            if not done[0]:
                assert want.seats_to_act()[0] == actor[0]
        assert got.events() == want.events() and got.result_info() == want.result_info()
    # the generator was left where a Generator on it would be after the same draws
    gen = np.random.default_rng(7)
    dealer(gen)
    bits = np.random.PCG64(7)
    batch.deal(0, bits)
    assert bits.state == gen.bit_generator.state


def test_deal_refuses_bad_arguments() -> None:
    batch = RoundBatch([mj.Round("two-player", seed=1)._core], np.array([[-1, 1]]), [np.random.PCG64(1)])
    with pytest.raises(MahjongError, match="bit_generator must be a NumPy BitGenerator"):
        batch.deal(0, np.random.default_rng(1), np.random.PCG64(3))
    with pytest.raises(MahjongError, match="row"):
        batch.deal(1, np.random.PCG64(1))
    bits = np.random.PCG64(1)
    with pytest.raises(MahjongError, match="generator"):   # row 0 has a random bot
        batch.deal(0, bits)
    with pytest.raises(MahjongError, match="generators"):
        batch.deal(0, bits, np.random.default_rng(2))
    assert bits.state == np.random.PCG64(1).state        # refused before any draw


def test_batches_step_in_threads() -> None:
    """The stepping loop releases the GIL; batches stepped from two threads play the same rounds
    as when stepped one after the other."""
    def play(cores: list, out: list) -> None:
        batch = RoundBatch(cores, np.array([[-1, 0]] * len(cores)))
        rng = np.random.default_rng(1)
        _, mask, _, done = batch.observe()
        while not done.all():
            _, mask, _, done = batch.step(np.array([_random_action(m, rng) if not d else 0 for m, d in zip(mask, done)]))
        out.extend(c.events() for c in cores)

    results: list[list] = [[], [], []]
    play([mj.Round("two-player", seed=i)._core for i in range(8)], results[0])
    threads = [threading.Thread(target=play, args=([mj.Round("two-player", seed=i)._core for i in range(8)], results[k]))
               for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[1] == results[0] and results[2] == results[0]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_vector_rounds_rewards_and_next_deal(ruleset: str) -> None:
    P = observation_layout(ruleset).players
    bots = [None] + ["greedy"] * (P - 1)
    vec = VectorRounds(ruleset, 6, seed=4, bots=bots)
    obs, mask, actor = vec.reset()
    assert (actor == 0).all() and mask.any(axis=1).all()
    rule = RewardRule(ruleset)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        cores = [vec.core(i) for i in range(6)]
        obs, mask, actor, rewards, done = vec.step(np.array([_random_action(m, rng) for m in mask]))
        for i in np.flatnonzero(done):
            assert cores[i].phase == 4 and vec.core(i) is not cores[i]
            assert rewards[i].tolist() == rule(cores[i]) and rewards[i].sum() == 0
            finished += 1
        assert not rewards[~done].any() and (actor == 0).all() and mask.any(axis=1).all()
        for i in range(6):   # the returned observation is the (new) round's own
            np.testing.assert_array_equal(obs[i], observe(vec.core(i), 0)[0])
    assert finished >= 6
    # a row is the core of a Round dealt from its seed and dealer: round(i) replays it
    for i in range(6):
        r = vec.round(i)
        assert r._core.events() == vec.core(i).events() and r.n_steps == vec.core(i).n_steps
    # one generator: the same seed deals the same rounds
    a, b = VectorRounds(ruleset, 6, seed=4, bots=bots), VectorRounds(ruleset, 6, seed=4, bots=bots)
    a.reset()
    b.reset()
    assert [a.core(i).events() for i in range(6)] == [b.core(i).events() for i in range(6)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_round_snapshots_of_one_state_are_equal(ruleset: str) -> None:
    """``round(i)`` twice, or from two runs with the same seed, gives the same JSON (issue 25:
    each call recorded a fresh header seed), and the JSON loads back to the same round."""
    runs = [VectorRounds(ruleset, 4, seed=9) for _ in range(2)]
    masks = [v.reset()[1] for v in runs]
    rng = np.random.default_rng(1)
    for step in range(30):
        actions = np.array([_random_action(m, rng) for m in masks[0]])
        masks = [v.step(actions)[1] for v in runs]
        if step % 10 == 9:
            for i in range(4):
                first = runs[0].round(i).to_json()
                assert first == runs[0].round(i).to_json() == runs[1].round(i).to_json()
                back = mj.Round.from_json(first)
                assert back.to_json() == first and back._core.events() == runs[0].core(i).events()


def test_vector_rounds_one_rule_for_bad_actions() -> None:
    """A batch that is not n integers is an ArrayShapeError, a row's action out of range or
    masked an IllegalActionError naming the row; checked before the engine sees it, nothing
    changes (issue 25 item 15)."""

    class Hostile:
        def __array__(self, *args: object, **kwargs: object) -> np.ndarray:
            raise RuntimeError("no array here")

    vec = VectorRounds("public", 3, seed=2)
    _, mask, _ = vec.reset()
    good = np.array([int(np.flatnonzero(m)[0]) for m in mask])
    masked = int(np.flatnonzero(mask[1] == 0)[0])
    shape_errors = [good.astype(float), good.astype(np.float32), good.astype(bool), [True, good[1], good[2]],
                    list(good[:2]), [[good[0]], [good[1], 1], [good[2]]], None, "0 0 0", Hostile(),
                    good.astype(object), [2 ** 70, good[1], good[2]], good.reshape(3, 1), good[:2], float(good[0])]
    illegal = [np.array([good[0], masked, good[2]]), np.array([good[0], good[1], 110]),
               np.array([-1, good[1], good[2]], dtype=np.int8), np.array([good[0], good[1], 2 ** 63 + 5], dtype=np.uint64),
               np.array([good[0], good[1], 2 ** 40])]
    before = [vec.core(i).events() for i in range(3)]
    for bad in shape_errors:
        with pytest.raises(ArrayShapeError, match=r"shape \(3,\)"):
            vec.step(bad)
    for bad in illegal:
        with pytest.raises(IllegalActionError, match="^row [0-2]: action"):
            vec.step(bad)
    assert [vec.core(i).events() for i in range(3)] == before
    for ok in (good.tolist(), tuple(good), good.astype(np.int8), good.astype(">i8"), good.astype(np.uint16),
               np.asfortranarray(np.stack([good, good]))[0]):
        fresh = VectorRounds("public", 3, seed=2)
        fresh.reset()
        fresh.step(ok)
        assert all(fresh.core(i).n_steps > 0 for i in range(3)), repr(ok)


def test_vector_rounds_refuses_bad_arguments() -> None:
    with pytest.raises(MahjongError, match="at least one seat"):
        VectorRounds("two-player", 2, bots=["greedy", "greedy"])
    with pytest.raises(MahjongError, match="bots"):
        VectorRounds("two-player", 2, bots=["greedy"])
    with pytest.raises(MahjongError, match="positive"):
        VectorRounds("two-player", 0)
    with pytest.raises(MahjongError, match="reset"):
        VectorRounds("two-player", 2).step(np.zeros(2, int))
    with pytest.raises(MahjongError, match="reset"):
        VectorRounds("two-player", 2).round(0)
    with pytest.raises(MahjongError, match="option"):
        VectorRounds("two-player", 2, options={"no_such_option": 1})
