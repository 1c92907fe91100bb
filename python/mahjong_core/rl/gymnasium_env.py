"""A Gymnasium single-agent environment: one seat against the built-in bots, for every ruleset
whose family offers the learning environments (``pip install "mahjong-core[rl]"``).

>>> from mahjong_core.rl.gymnasium_env import MahjongEnv
>>> env = MahjongEnv("two-player", opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((268,), True)

The learner plays ``seat``; the other seats are the compiled greedy or random bots, played inside
the engine (the family's ``RoundBatch`` of one round) between two of the learner's actions.  Observation
and action spaces are those of :mod:`mahjong_core.rl.env_common`.  The reward is the seat's
(:mod:`mahjong_core.rl.rewards`) when the round ends, else 0.  A round the bots finish before the
learner acts is dealt again.

Illegal actions, one rule (:mod:`mahjong_core.rl.env_common`): an action is legal when it is an
integer (a Python ``int``, a NumPy integer or a 0-d NumPy integer array; never a ``bool``) whose
mask entry is 1.  Every other action -- out of range, masked, a float such as ``3.0`` or
``np.float64(3)``, a ``bool``, ``None``, a string, an array of another shape -- is illegal, and
all are treated alike: with ``illegal_action="terminate"`` (the default) the episode ends with
``illegal_reward`` (``terminated`` True, ``info["illegal_action"]`` True, the round unchanged);
with ``illegal_action="raise"`` :class:`~mahjong_core.errors.IllegalActionError` is raised and
nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._extras import missing_extra
from .._validate import is_int
from ..errors import IllegalActionError, MahjongError
from ..families.registry import DEFAULT_RULESET
from .hooks import EnvRound
from .rounds import bot_kinds, deal_env_round

try:
    import gymnasium as gym
    from gymnasium import spaces

    from .env_common import METADATA, EnvSettings, legal_action, observation_space, render
except ModuleNotFoundError as _missing:   # the rl extra is not installed: say how to install it
    raise missing_extra(_missing.name or "gymnasium", __name__, "rl") from None

__all__ = ["MahjongEnv"]

_ILLEGAL = ("terminate", "raise")
_RANDOM = 1


class MahjongEnv(gym.Env[dict[str, Any], np.int64]):
    """``seat`` of a round of ``ruleset`` against built-in bots (see the module docstring).
    ``opponents``: ``"greedy"``, ``"random"``, or one name per other seat in seat order;
    ``reward`` / ``room``: :mod:`mahjong_core.rl.rewards`; ``options``: game options of the
    ruleset's round.  ``round``: the family's public round being played (see the AEC
    environment)."""

    metadata: dict[str, Any] = dict(METADATA)  # noqa: RUF012 - as gymnasium.Env declares it

    def __init__(self, ruleset: str = DEFAULT_RULESET, *, seat: int = 0,
                 opponents: str | Sequence[str] = "greedy", reward: str = "points", room: Any = None,
                 options: dict[str, Any] | None = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        settings = EnvSettings(ruleset, reward, room, options, render_mode)
        self.layout, self.ruleset, self.reward_rule = settings.layout, settings.ruleset, settings.reward_rule
        self.render_mode, self._options, self._hooks = settings.render_mode, settings.options, settings.hooks
        P = self.layout.players
        if not is_int(seat) or not 0 <= seat < P:
            raise MahjongError(f"seat must be 0-{P - 1}, got {seat!r}")
        self.seat = int(seat)
        others: list[str | None] = [opponents] * (P - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != P - 1:
            raise MahjongError(f"opponents: one bot for each of the {P - 1} other seats, got {opponents!r}")
        others.insert(self.seat, None)
        self._kinds = bot_kinds(others, P)
        if None in others[:self.seat] + others[self.seat + 1:]:
            raise MahjongError("opponents must be bot names ('greedy' or 'random')")
        if illegal_action not in _ILLEGAL:
            raise MahjongError(f"illegal_action must be one of {', '.join(_ILLEGAL)}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space(self.ruleset)
        self.action_space = spaces.Discrete(self.layout.action_size)
        self._dealt: EnvRound | None = None
        self._batch: Any = None
        self._ended = True

    @property
    def round(self) -> Any:
        """The round being played (the family's public round; None before the first reset)."""
        return None if self._dealt is None else self._dealt.round

    def _obs(self) -> dict[str, np.ndarray]:
        assert self._dealt is not None
        obs, mask = self._hooks.observe(self._dealt.core, self.seat)
        return {"observation": obs, "action_mask": mask}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a round and let the bots play up to the learner's first action."""
        super().reset(seed=seed)
        rng = self.np_random
        kinds = np.array([self._kinds], dtype=np.int8)
        while True:
            self._dealt = deal_env_round(self.ruleset, rng, self._options)
            gen = np.random.PCG64(int(rng.integers(2 ** 63))) if _RANDOM in self._kinds else None
            self._batch = self._hooks.batch([self._dealt.core], kinds, [gen])
            if self._batch.actor(0) >= 0:
                self._ended = False
                self._show()
                return self._obs(), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        batch = self._batch
        if batch is None or self._dealt is None or self._ended:
            raise MahjongError("the episode is over (or never started): call reset()")
        try:
            i = legal_action(self._dealt.core, self.seat, action, self.layout.action_size)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True}
        obs, mask, _, done = batch.step(np.array([i]))
        self._show()
        if not done[0]:   # the bots played up to the learner's next action
            return {"observation": obs[0], "action_mask": mask[0]}, 0.0, False, False, {}
        self._ended = True
        return self._obs(), self.reward_rule(self._dealt.core)[self.seat], True, False, {}

    def _show(self) -> None:
        """``"human"``: the table is printed after every reset and step (Gymnasium's convention)."""
        if self.render_mode == "human":
            render("human", self._dealt, self.seat, self._hooks)

    def render(self) -> str | None:
        """The learner seat's view as a table (:mod:`mahjong_core.rl.render`): the text with
        ``render_mode="ansi"``, printed with ``"human"`` (returns None), None without a mode."""
        return render(self.render_mode, self._dealt, self.seat, self._hooks)
