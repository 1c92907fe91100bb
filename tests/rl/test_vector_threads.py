"""``num_threads``: the rows of a batch stepped on several threads (OpenMP inside the compiled
loop) give exactly the results of one thread; bad thread counts and a random bots' generator
shared by two rows are refused with a clear error."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core._round import OPENMP, RoundBatch, check_threads
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.rl import VectorRounds, mahjong_rulesets
from mahjong_core.rl.rounds import CoreDealer

RULESETS = mahjong_rulesets()
needs_openmp = pytest.mark.skipif(not OPENMP, reason="this build has no OpenMP: num_threads > 1 is refused "
                                                     "(test_threads_refused_without_openmp covers that)")


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def _run(ruleset: str, threads: int, bots: tuple[str | None, ...], steps: int) -> list[tuple[np.ndarray, ...]]:
    vec = VectorRounds(ruleset, 37, seed=5, bots=bots, num_threads=threads)   # 37: rows not a multiple of a chunk
    rng = np.random.default_rng(9)
    obs, mask, actor = vec.reset()
    out = [(obs.copy(), mask.copy(), actor.copy())]
    for _ in range(steps):
        out.append(tuple(x.copy() for x in vec.step(_pick(mask, rng))))
        mask = out[-1][1]
    out.append(tuple(np.array(vec.core(i).get_state()["hands"]) for i in range(vec.n)))
    return out


@needs_openmp
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("bots", ["self-play", "bots"])
def test_threads_give_the_results_of_one_thread(ruleset: str, bots: str) -> None:
    players = 2 if ruleset.startswith("two") else 4
    seats: tuple[str | None, ...] = ((None,) * players if bots == "self-play"
                                     else (None, "random") + ("greedy",) * (players - 2))
    one = _run(ruleset, 1, seats, 150)
    for threads in (2, 3):
        many = _run(ruleset, threads, seats, 150)
        assert len(many) == len(one)
        for a, b in zip(one, many, strict=True):
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)


@needs_openmp
def test_threads_illegal_action_changes_nothing() -> None:
    vec = VectorRounds("public", 16, seed=3, num_threads=2)
    _, mask, _ = vec.reset()
    before = [vec.core(i).get_state() for i in range(16)]
    acts = mask.argmax(axis=1)
    acts[11] = int(np.flatnonzero(mask[11] == 0)[0])
    with pytest.raises(IllegalActionError, match="row 11"):
        vec.step(acts)
    assert [vec.core(i).get_state() for i in range(16)] == before


@pytest.mark.parametrize("bad", [0, -1, 257, 1.0, "2", None, True])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises(MahjongError, match="num_threads must be an int 1-256"):
        check_threads(bad)
    with pytest.raises(MahjongError, match="num_threads"):
        VectorRounds("two-player", 2, num_threads=bad)  # type: ignore[arg-type]
    dealer = CoreDealer("two-player", None)
    with pytest.raises(MahjongError, match="num_threads"):
        RoundBatch([dealer(np.random.default_rng(0))], np.array([[-1, -1]]), None, bad)


@pytest.mark.skipif(OPENMP, reason="this build has OpenMP (test_threads_give_the_results_of_one_thread runs)")
def test_threads_refused_without_openmp() -> None:
    with pytest.raises(MahjongError, match="needs a build with OpenMP"):
        VectorRounds("two-player", 2, num_threads=2)


@needs_openmp
def test_a_generator_shared_by_two_rows_is_refused_with_threads() -> None:
    dealer = CoreDealer("two-player", None)
    cores = [dealer(np.random.default_rng(i)) for i in range(3)]
    shared = np.random.PCG64(1)
    kinds = np.array([[-1, 1]] * 3)
    with pytest.raises(MahjongError, match="generator of their own"):
        RoundBatch(cores, kinds, [shared, np.random.PCG64(2), shared], 2)
    # one thread: the rows are stepped one after the other, a shared generator is allowed
    RoundBatch([dealer(np.random.default_rng(i)) for i in range(3)], kinds, [shared, np.random.PCG64(2), shared], 1)
    gens = [np.random.PCG64(k) for k in range(3)]
    batch = RoundBatch([dealer(np.random.default_rng(i)) for i in range(3)], kinds, gens, 2)
    old = batch.core(1)
    with pytest.raises(MahjongError, match="row 1's generator is row 0's"):
        batch.set_round(1, dealer(np.random.default_rng(7)), gens[0])
    assert batch.core(1) is old          # refused before any change
    batch.set_round(1, dealer(np.random.default_rng(7)), gens[1])   # its own generator again: fine
