"""Child-side operations of tests/hostile/test_hostile_rl.py (run by _isolated_runner.py).

Each case plays one environment (Gymnasium with ``illegal_action`` "terminate" or "raise", the
PettingZoo AEC environment, or ``VectorRounds``) with seeded random legal actions and, at every
step, first offers a hostile action made from the legal one (shifted, huge, negative, a float, a
bool, None, a string, a container, an array of another shape or dtype, an integer subclass whose
conversion fails, ...).  The rule of issue 25 item 15: a hostile action is refused with a
MahjongError (the Gymnasium environment with "terminate" ends the episode instead), and the round
is exactly as it was; one that happens to be legal is applied.  Any other exception reaches the
runner as an "unexpected" outcome; a broken expectation raises AssertionError.  Returns counts.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np

from mahjong_core.errors import IllegalActionError, MahjongError


class _BadInt(int):
    def __int__(self) -> int:
        raise RuntimeError("no int here")

    def __index__(self) -> int:
        raise RuntimeError("no index here")


class _BadInt64(np.int64):
    def __int__(self) -> int:
        raise RuntimeError("no int here")


class _BadArray:
    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise RuntimeError("no array here")

    def __len__(self) -> int:
        raise RuntimeError("no length here")


def _hostile(a: int, rng: np.random.Generator) -> Any:
    """One hostile stand-in for the legal index ``a``."""
    k = int(rng.integers(24))
    return [
        lambda: a + int(rng.integers(1, 120)), lambda: -1 - a, lambda: 2 ** 63 + a, lambda: -(2 ** 63) - 1,
        lambda: 2 ** 64 + a, lambda: 10 ** 100, lambda: float(a), lambda: np.float64(a), lambda: a + 0.5,
        lambda: bool(a % 2), lambda: np.bool_(True), lambda: None, lambda: str(a), lambda: [a],
        lambda: (a,), lambda: {"action": a}, lambda: np.array([a]), lambda: np.array(float(a)),
        lambda: np.array(a, dtype=object), lambda: _BadInt(a), lambda: _BadInt64(a), lambda: _BadArray(),
        lambda: Fraction(a), lambda: complex(a),
    ][k]()


def _hostile_batch(good: np.ndarray, rng: np.random.Generator) -> Any:
    """One hostile stand-in for a batch of legal actions."""
    k = int(rng.integers(14))
    i = int(rng.integers(len(good)))
    bad = good.copy()
    if k == 0:
        bad[i] = 110 + int(rng.integers(1000))
        return bad
    if k == 1:
        bad[i] = -1 - int(rng.integers(1000))
        return bad
    if k == 2:
        return np.concatenate([good[:i], [2 ** 63 + int(good[i])]]).astype(np.uint64) if i == len(good) - 1 \
            else good.astype(np.uint64) + np.uint64(2 ** 63)
    return [
        lambda: good.astype(float), lambda: good.astype(bool), lambda: [bool(x % 2) for x in good],
        lambda: good.tolist()[:-1], lambda: good.reshape(-1, 1), lambda: [[int(x)] for x in good] + [[1, 2]],
        lambda: None, lambda: " ".join(map(str, good)), lambda: _BadArray(), lambda: good.astype(object),
        lambda: [*good.tolist()[:-1], 2 ** 70],
    ][k - 3]()


def _gym(case: dict[str, Any]) -> Counter:
    from mahjong_core.rl.gymnasium_env import MahjongEnv

    mode = case["mode"]
    e = MahjongEnv(case["ruleset"], illegal_action=mode, opponents="random" if case["seed"] % 2 else "greedy")
    rng = np.random.default_rng(case["seed"])
    c: Counter = Counter()
    obs, _ = e.reset(seed=case["seed"])
    for _ in range(case["steps"]):
        legal = np.flatnonzero(obs["action_mask"])
        bad = _hostile(int(legal[rng.integers(legal.size)]), rng)
        assert e.round is not None
        before = e.round.to_json()
        ok = False
        if mode == "raise":
            try:
                obs, _, term, _, _ = e.step(bad)
                ok = True
            except MahjongError:
                assert e.round.to_json() == before
                c["refused"] += 1
        else:
            out, reward, term, _, info = e.step(bad)
            if info.get("illegal_action"):
                assert term and reward == e.illegal_reward and e.round.to_json() == before
                c["terminated"] += 1
                obs, _ = e.reset(seed=int(rng.integers(1 << 30)))
                continue
            obs, ok = out, True
        if ok:
            c["legal"] += 1
        else:
            obs, _, term, _, _ = e.step(int(legal[rng.integers(legal.size)]))
        if term:
            obs, _ = e.reset(seed=int(rng.integers(1 << 30)))
    return c


def _aec(case: dict[str, Any]) -> Counter:
    from mahjong_core.rl.pettingzoo_env import MahjongAECEnv

    e = MahjongAECEnv(case["ruleset"], seed=case["seed"])
    rng = np.random.default_rng(case["seed"])
    c: Counter = Counter()
    e.reset()
    for _ in range(case["steps"]):
        assert e.round is not None
        if not e.agents:
            e.reset(seed=int(rng.integers(1 << 30)))
            continue
        agent = e.agent_selection
        if e.terminations[agent]:      # a done agent's one action is None
            bad = _hostile(int(rng.integers(110)), rng)
            if bad is not None:
                try:
                    e.step(bad)
                    raise AssertionError(f"{agent} is done, yet {bad!r} was taken")
                except IllegalActionError:
                    c["refused done"] += 1
            e.step(None)
            continue
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        before = e.round.to_json()
        try:
            e.step(_hostile(int(legal[rng.integers(legal.size)]), rng))
            c["legal"] += 1
        except MahjongError:
            assert e.round.to_json() == before and e.agent_selection == agent
            c["refused"] += 1
            e.step(int(legal[rng.integers(legal.size)]))
    return c


def _vector(case: dict[str, Any]) -> Counter:
    from mahjong_core.rl import VectorRounds

    vec = VectorRounds(case["ruleset"], 4, seed=case["seed"], bots=None if case["seed"] % 2 else
                       [None] + ["random"] * (3 if case["ruleset"] == "public" else 1))
    rng = np.random.default_rng(case["seed"])
    c: Counter = Counter()
    _, mask, _ = vec.reset()
    for _ in range(case["steps"]):
        good = np.array([int(np.flatnonzero(m)[rng.integers(int(m.sum()))]) for m in mask])
        before = [vec.core(i).events() for i in range(4)]
        try:
            _, mask, _, _, _ = vec.step(_hostile_batch(good, rng))
            c["legal"] += 1
            continue
        except MahjongError:
            assert [vec.core(i).events() for i in range(4)] == before
            c["refused"] += 1
        _, mask, _, _, _ = vec.step(good)
    return c


def play_hostile(case: dict[str, Any]) -> dict[str, int]:
    """One case: ``{"env": "gym"|"aec"|"vector", "ruleset", "seed", "steps", "mode"}``."""
    run = {"gym": _gym, "aec": _aec, "vector": _vector}[case["env"]]
    return dict(run(case))
