"""The conformance check of the learning environments (:mod:`mahjong_core.rl`): a ruleset whose
family registers learning hooks (``Family.rl``) keeps the environments' contract; one whose family
registers none is refused by every entry point with the documented
:class:`~mahjong_core.errors.UnsupportedError` naming the family."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from ..errors import IllegalActionError, UnsupportedError
from ..rl import RewardRule, VectorRounds, observation_layout
from .subject import Subject

__all__ = ["check_rl"]

_STEPS = 400            # AEC steps checked per ruleset (a few hands)
_VECTOR_STEPS = 30


def _has_extra() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("pettingzoo", "gymnasium"))


def check_rl(s: Subject) -> None:
    """The learning environments: without hooks every entry point (the layout, the rewards, the
    vectorised rounds, both environments) refuses the ruleset naming its family.  With them: the
    layout tiles its vector; the AEC environment (the rl extra installed) deals the same hand from
    the same seed, selects a seat to act whose observation is inside the layout's bounds and whose
    mask is exactly the round's legal set, refuses an illegal action without change, and ends every
    hand with rewards for every agent (points summing to 0); the Gymnasium environment's
    observations lie in its space; the vectorised rounds' rows are the single-round observations."""
    if s.family.rl is None:
        _check_refused(s)
        return
    lay = observation_layout(s.ruleset)
    at = 0
    for name, shape in lay.fields:
        s.expect(lay.slices[name] == slice(at, at + int(np.prod(shape))), f"layout section {name} is not at {at}")
        at += int(np.prod(shape))
    s.expect(at == lay.size == lay.high.size and lay.high.dtype == np.uint8,
             f"the layout's sections ({at}), size ({lay.size}) and bounds ({lay.high.size}) disagree")
    s.expect(lay.players == s.players, f"the layout has {lay.players} seats, the ruleset {s.players}")
    if _has_extra():
        _check_aec(s, lay)
        _check_gym(s, lay)
    _check_vector(s, lay)


def _check_refused(s: Subject) -> None:
    makers: list[tuple[str, Any]] = [("observation_layout", lambda: observation_layout(s.ruleset)),
                                     ("RewardRule", lambda: RewardRule(s.ruleset)),
                                     ("VectorRounds", lambda: VectorRounds(s.ruleset, 2))]
    if _has_extra():
        from ..rl.gymnasium_env import MahjongEnv
        from ..rl.pettingzoo_env import MahjongAECEnv
        makers += [("MahjongAECEnv", lambda: MahjongAECEnv(s.ruleset)), ("MahjongEnv", lambda: MahjongEnv(s.ruleset))]
    for what, make in makers:
        try:
            make()
        except UnsupportedError as exc:
            s.expect(s.family.name in str(exc), f"{what}'s refusal does not name the family: {exc}")
        else:
            s.fail(f"{what} accepted a ruleset of a family without learning hooks")


def _observation_ok(s: Subject, lay: Any, obs: Any, at: str) -> None:
    o, m = obs["observation"], obs["action_mask"]
    s.expect(o.dtype == np.uint8 and o.shape == (lay.size,), f"{at}: observation {o.dtype} {o.shape}")
    s.expect(m.dtype == np.int8 and m.shape == (lay.action_size,), f"{at}: mask {m.dtype} {m.shape}")
    s.expect(bool((o <= lay.high).all()), f"{at}: observation entries {np.flatnonzero(o > lay.high)[:5].tolist()} "
                                          f"above the layout's bounds")


def _check_aec(s: Subject, lay: Any) -> None:
    from ..rl.pettingzoo_env import MahjongAECEnv

    e = MahjongAECEnv(s.ruleset, seed=s.seed)
    twin = MahjongAECEnv(s.ruleset, seed=s.seed)
    steps = hands = 0
    while steps < _STEPS:
        e.reset()
        twin.reset()
        s.expect(e.round.to_json() == twin.round.to_json(), "two AEC environments of one seed dealt different hands")
        hands += 1
        final: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            if term or trunc:
                final[agent] = reward
                e.step(None)
                continue
            seat = int(agent.split("_")[1])
            at = f"AEC hand {hands}, step {steps}, {agent}"
            _observation_ok(s, lay, obs, at)
            legal = e.round.legal_indices(seat)
            mask = np.flatnonzero(obs["action_mask"]).tolist()
            s.expect(mask == sorted(legal), f"{at}: mask {mask} is not the legal set {sorted(legal)}")
            masked = np.flatnonzero(obs["action_mask"] == 0)
            if masked.size:
                before = e.round.to_json()
                try:
                    e.step(int(masked[0]))
                except IllegalActionError:
                    pass
                else:
                    s.fail(f"{at}: the masked action {int(masked[0])} was taken")
                s.expect(e.round.to_json() == before, f"{at}: a refused action changed the round")
            e.step(int(legal[steps % len(legal)]))
            steps += 1
        s.expect(e.round.is_over and not e.agents and sorted(final) == sorted(e.possible_agents),
                 f"AEC hand {hands}: agents left, or agents without a final reward, after the hand ended")
        total = sum(final.values())
        s.expect(abs(total) < 1e-9, f"AEC hand {hands}: the points rewards sum to {total}, not 0")


def _check_gym(s: Subject, lay: Any) -> None:
    from ..rl.gymnasium_env import MahjongEnv

    e = MahjongEnv(s.ruleset, seat=s.players - 1, opponents="greedy")
    obs, _ = e.reset(seed=s.seed)
    for k in range(60):
        s.expect(e.observation_space.contains(obs), f"Gymnasium step {k}: the observation is not in the space")
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, _ = e.step(int(legal[k % legal.size]))
        s.expect(isinstance(reward, float) and isinstance(term, bool), f"Gymnasium step {k}: reward/terminated types")
        if term:
            obs, _ = e.reset()


def _check_vector(s: Subject, lay: Any) -> None:
    vec = VectorRounds(s.ruleset, 4, seed=s.seed)
    obs, mask, actor = vec.reset()
    rng = np.random.default_rng(s.seed)
    hooks_observe = vec._hooks.observe
    for k in range(_VECTOR_STEPS):
        s.expect(obs.shape == (4, lay.size) and mask.shape == (4, lay.action_size) and bool((obs <= lay.high).all()),
                 f"vector step {k}: arrays {obs.shape} {mask.shape} or values outside the layout")
        for i in range(4):
            o, m = hooks_observe(vec.core(i), int(actor[i]))
            s.expect(np.array_equal(o, obs[i]) and np.array_equal(m, mask[i]),
                     f"vector step {k}, row {i}: not the single round's observation")
        obs, mask, actor, rewards, done = vec.step((rng.random(mask.shape) * mask).argmax(axis=1))
