"""Vectorised stepping: N rounds of one mahjong ruleset stepped together in the compiled engine.

>>> from mahjong_core.rl import VectorRounds
>>> vec = VectorRounds("two-player", 8, seed=1, bots=(None, "greedy"))
>>> obs, mask, actor = vec.reset()
>>> obs.shape, mask.shape, actor.tolist()
((8, 268), (8, 110), [0, 0, 0, 0, 0, 0, 0, 0])

:meth:`VectorRounds.step` takes one action (a mask index) per round, for that round's actor, and
returns ``(obs, mask, actor, rewards, done)``: the next actors' observations ``(N, L)`` uint8,
their legal-action masks ``(N, 110)`` int8, the actor seats ``(N,)``, the rewards ``(N, P)`` of the
rounds that ended in this step (zeros elsewhere) and ``done`` ``(N,)``.  A round that ends is
replaced at once by a new one (its first actor's observation is in the returned arrays).  The
stepping loop -- legality checks, the actions, the built-in bots, the observations -- runs in
``_round.RoundBatch`` without the GIL; only finished rounds come back to Python (rewards, the next
deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._round import RoundBatch, observe
from ..errors import MahjongError
from ..families.mahjong.round import Round
from .encoding import ObservationLayout, observation_layout
from .rewards import RewardRule
from .rounds import bot_kinds, deal

__all__ = ["VectorRounds"]

_RANDOM = 1


class VectorRounds:
    """``n`` rounds of ``ruleset`` stepped together.  ``bots``: one entry per seat, None for a seat
    the caller acts for (default: every seat, self-play) or ``"greedy"`` / ``"random"`` for a
    built-in bot; ``reward`` / ``room``: see :mod:`mahjong_core.rl.rewards`; ``options``: game
    options of :class:`~mahjong_core.game.Round`; ``seed``: the deals (round seeds, dealers,
    random bots) come from one generator seeded with it.  A round that the bots finish before
    any caller seat acts is dealt again.  Not thread-safe: one per thread."""

    def __init__(self, ruleset: str = "two-player", n: int = 64, *, seed: int | None = None,
                 bots: Sequence[str | None] | None = None, reward: str = "points", room: Any = None,
                 options: dict[str, Any] | None = None) -> None:
        self.layout: ObservationLayout = observation_layout(ruleset)
        self.ruleset = self.layout.ruleset
        self.players = self.layout.players
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise MahjongError(f"n must be a positive number of rounds, got {n!r}")
        self.n = n
        self._kinds = bot_kinds([None] * self.players if bots is None else bots, self.players)
        if min(self._kinds) >= 0:
            raise MahjongError("bots: at least one seat must be left to the caller (None)")
        self._random = _RANDOM in self._kinds
        self._options = options
        self.reward = RewardRule(self.ruleset, reward, room)
        self._rng = np.random.default_rng(seed)
        self._batch: RoundBatch | None = None
        self._rounds: list[Round] = []
        Round(self.ruleset, seed=0, options=options)   # bad options are refused here, not at reset

    # ------------------------------------------------------------------ dealing
    def _deal(self) -> tuple[Round, Any]:
        r = deal(self.ruleset, self._rng, self._options)
        gen = np.random.PCG64(int(self._rng.integers(2 ** 63))) if self._random else None
        return r, gen

    def _redeal(self, i: int) -> None:
        batch = self._batch
        assert batch is not None
        while True:
            r, gen = self._deal()
            batch.set_round(i, r._core, gen)
            self._rounds[i] = r
            if batch.actor(i) >= 0:
                return

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """Deal ``n`` new rounds; returns ``(obs, mask, actor)`` of their first actors."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        dealt = [self._deal() for _ in range(self.n)]
        self._rounds = [r for r, _ in dealt]
        kinds = np.array([self._kinds] * self.n, dtype=np.int8)
        self._batch = RoundBatch([r._core for r in self._rounds], kinds, [g for _, g in dealt])
        for i in range(self.n):
            if self._batch.actor(i) < 0:
                self._redeal(i)
        obs, mask, actor, _ = self._batch.observe()
        return obs, mask, actor

    @property
    def rounds(self) -> list[Round]:
        """The rounds being played, by row (a finished one is replaced in the step it ends)."""
        return list(self._rounds)

    def step(self, actions: Any) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Apply one action per round (see the module docstring); an illegal action raises
        :class:`~mahjong_core.errors.IllegalActionError` naming the row, and nothing changes."""
        batch = self._batch
        if batch is None:
            raise MahjongError("call reset() before step()")
        obs, mask, actor, done = batch.step(actions)
        rewards = np.zeros((self.n, self.players))
        for i in np.flatnonzero(done).tolist():
            rewards[i] = self.reward(batch.core(i))
            self._redeal(i)
            seat = batch.actor(i)
            obs[i], mask[i] = observe(batch.core(i), seat)
            actor[i] = seat
        return obs, mask, actor, rewards, done
