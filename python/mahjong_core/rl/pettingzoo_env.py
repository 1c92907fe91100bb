"""A PettingZoo AEC environment for every ruleset whose family offers the learning environments
(:func:`~mahjong_core.rl.rl_rulesets`; ``pip install "mahjong-core[rl]"``).

>>> from mahjong_core.rl.pettingzoo_env import MahjongAECEnv
>>> env = MahjongAECEnv("public", seed=1)
>>> env.reset()
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["observation"].shape, obs["action_mask"].shape
(['action_mask', 'observation'], (600,), (110,))

Agents ``player_0`` ... ``player_{P-1}`` are the seats.  The agent selected is the first seat to
act, as in :func:`~mahjong_core.game.play_round`: in a claim window the seats answer one after the
other, each seeing only its own options (the answers are applied together when the last one is
in).  Observations are dicts: ``"observation"`` the seat's encoded view
(:mod:`mahjong_core.rl.encoding`) and ``"action_mask"`` its legal actions (int8, one entry per
action id of the family: 110 for mahjong, 259 for long cards).  An observation is defined for the
selected agent (``last()``): observing another agent during a claim window would tell it that some
seat can claim the card (see "When an observation is defined" in the encoding module).  Rewards
come when the round ends (:mod:`mahjong_core.rl.rewards`); then every agent is terminated.  An
illegal action raises :class:`~mahjong_core.errors.IllegalActionError` and changes nothing,
whatever is wrong with it (the rule of :mod:`mahjong_core.rl.env_common`: a legal action is an
integer -- a Python ``int``, a NumPy integer or a 0-d NumPy integer array, never a ``bool`` --
whose mask entry is 1; an index out of range or masked, a float, a ``bool``, ``None``, a string or
an array of another shape is not).  A terminated agent's action must be None (PettingZoo's
convention).  ``env.round`` is the family's public round with the actions so far (mahjong's
:class:`~mahjong_core.Round`; a long-card hand's round, rebuilt from the engine when asked for).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._extras import missing_extra
from .._validate import short_repr
from ..errors import IllegalActionError, MahjongError
from ..families.registry import DEFAULT_RULESET
from .hooks import EnvRound
from .rounds import deal_env_round

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv

    from .env_common import METADATA, EnvSettings, legal_action, observation_space, render
except ModuleNotFoundError as _missing:   # the rl extra is not installed: say how to install it
    raise missing_extra(_missing.name or "pettingzoo", __name__, "rl") from None

__all__ = ["MahjongAECEnv", "env"]


class MahjongAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Every seat of a round of ``ruleset`` an agent (see the module docstring).  ``reward``:
    ``"points"`` or ``"fans"``, ``room``: the settlement room of ``"points"``; ``options``: game
    options of the ruleset's round; ``seed``: the first reset's seed (a ``reset(seed=...)``
    reseeds).  Each reset deals a round whose seed and dealer come from the environment's
    generator.  ``render_mode``: :meth:`render`."""

    metadata: ClassVar[dict[str, Any]] = {"name": "mahjong_core_v0", **METADATA, "is_parallelizable": False}

    def __init__(self, ruleset: str = DEFAULT_RULESET, *, reward: str = "points", room: Any = None,
                 options: dict[str, Any] | None = None, seed: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        settings = EnvSettings(ruleset, reward, room, options, render_mode)
        self.layout, self.ruleset, self.reward_rule = settings.layout, settings.ruleset, settings.reward_rule
        self.render_mode, self._options, self._hooks = settings.render_mode, settings.options, settings.hooks
        self._observe = self._hooks.observe
        self._size = self.layout.action_size
        self.possible_agents = [f"player_{k}" for k in range(self.layout.players)]
        self._seat_of = {a: k for k, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.ruleset)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._size) for a in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self._dealt: EnvRound | None = None

    @property
    def round(self) -> Any:
        """The round being played (the family's public round; None before the first reset)."""
        return None if self._dealt is None else self._dealt.round

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (``seed`` reseeds the environment's generator; ``options`` is
        accepted for the API and unused: game options are a constructor setting)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._dealt = deal_env_round(self.ruleset, self._rng, self._options)
        self._core = self._dealt.core
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._core.seats_to_act()[0]]
        self._show()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs, mask = self._observe(self._core, self._seat_of[agent])
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        if self._dealt is None:
            raise MahjongError("call reset() first")
        agent = self.agent_selection
        if agent not in self.terminations:
            raise MahjongError("every agent is done: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent} is done: its only action is None, got {short_repr(action)}")
            self._was_dead_step(action)
            return
        core = self._core
        seat = self._seat_of[agent]
        core.step(seat, legal_action(core, seat, action, self._size))
        self._cumulative_rewards[agent] = 0.0
        to_act = core.seats_to_act()
        if to_act:   # the rewards stay 0 until the end: nothing to accumulate
            self.agent_selection = self.possible_agents[to_act[0]]
            self._show()
            return
        for a, r in zip(self.possible_agents, self.reward_rule(core)):
            self.rewards[a] = r
            self.terminations[a] = True
        self._accumulate_rewards()
        self._show()

    def _show(self) -> None:
        """``"human"``: the table is printed after every reset and step."""
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The selected agent's view as a table (:mod:`mahjong_core.rl.render`; never another
        seat's hidden cards): the text with ``render_mode="ansi"``, printed with ``"human"``
        (returns None), None without a mode."""
        seat = self._seat_of[self.agent_selection] if self._dealt is not None else 0
        return render(self.render_mode, self._dealt, seat, self._hooks)

    def close(self) -> None:
        pass


def env(ruleset: str = DEFAULT_RULESET, **kwargs: Any) -> MahjongAECEnv:
    """``MahjongAECEnv(ruleset, **kwargs)``: the PettingZoo factory convention."""
    return MahjongAECEnv(ruleset, **kwargs)
