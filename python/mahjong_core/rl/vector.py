"""Vectorised stepping: N rounds of one ruleset stepped together in the family's compiled engine.

>>> from mahjong_core.rl import VectorRounds
>>> vec = VectorRounds("two-player", 8, seed=1, bots=(None, "greedy"))
>>> obs, mask, actor = vec.reset()
>>> obs.shape, mask.shape, actor.tolist()
((8, 268), (8, 110), [0, 0, 0, 0, 0, 0, 0, 0])

:meth:`VectorRounds.step` takes one action (a mask index) per round, for that round's actor, and
returns ``(obs, mask, actor, rewards, done)``: the next actors' observations ``(N, L)`` uint8,
their legal-action masks ``(N, A)`` int8 (``A = layout.action_size``: 110 for mahjong, 259 for long
cards), the actor seats ``(N,)``, the rewards ``(N, P)`` of the rounds that ended in this step
(zeros elsewhere) and ``done`` ``(N,)``.  A round that ends is replaced at once by a new one (its
first actor's observation is in the returned arrays).  The stepping loop -- legality checks, the
actions, the built-in bots, the observations -- runs in the family's compiled ``RoundBatch``
(mahjong's ``_round.RoundBatch`` without the GIL; the long-card one stepping and observing the rows
in C with the GIL held, since a hand's end asks the reference's rule methods); only finished rounds
come back to Python (rewards, the next deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._validate import short_repr
from ..errors import ArrayShapeError, IllegalActionError, MahjongError
from ..families.registry import DEFAULT_RULESET
from .encoding import ObservationLayout, observation_layout
from .hooks import rl_hooks
from .rewards import RewardRule
from .rounds import CoreDealer, bot_kinds

__all__ = ["VectorRounds"]

_RANDOM = 1
_INT64 = np.dtype(np.int64)   # a native int64 batch goes straight to the engine, which checks it


class VectorRounds:
    """``n`` rounds of ``ruleset`` stepped together.  ``bots``: one entry per seat, None for a seat
    the caller acts for (default: every seat, self-play) or ``"greedy"`` / ``"random"`` for a
    built-in bot; ``reward`` / ``room``: see :mod:`mahjong_core.rl.rewards`; ``options``: game
    options of the ruleset's round; ``seed``: the deals (walls, dice, dealers, the
    random bots' generators) come from one generator seeded with it.  A round that the bots
    finish before any caller seat acts is dealt again.  ``copy``: see below.  Not thread-safe:
    one per thread (several threads each stepping their own run in parallel: the mahjong stepping
    loop releases the GIL; the long-card one holds it).

    ``copy=True`` (the default, as in Gymnasium's vector environments): :meth:`step` returns
    fresh arrays every step, safe to keep.  ``copy=False`` is the throughput mode: without
    random bots the arrays are the engine's own, reused in turn (two sets): a step's ``obs``,
    ``mask``, ``actor`` and ``done`` stay valid through the next step (a transition's
    observations before and after) and are overwritten by the step after it, so a caller that
    keeps them longer (a list of transitions, say) must copy them itself; writing them into a
    rollout buffer is safe.  (The copy costs a memcpy of the ``(n, 600)`` observations per
    step.)"""

    def __init__(self, ruleset: str = DEFAULT_RULESET, n: int = 64, *, seed: int | None = None,
                 bots: Sequence[str | None] | None = None, reward: str = "points", room: Any = None,
                 options: dict[str, Any] | None = None, copy: bool = True) -> None:
        self.layout: ObservationLayout = observation_layout(ruleset)
        self.ruleset = self.layout.ruleset
        self.players = self.layout.players
        self._hooks = rl_hooks(self.ruleset)
        self._size = self.layout.action_size
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise MahjongError(f"n must be a positive number of rounds, got {n!r}")
        self.n = n
        self.copy = bool(copy)
        self._kinds = bot_kinds([None] * self.players if bots is None else bots, self.players)
        if min(self._kinds) >= 0:
            raise MahjongError("bots: at least one seat must be left to the caller (None)")
        self._random = _RANDOM in self._kinds
        self._options = options
        self._dealer = CoreDealer(self.ruleset, options)   # bad options are refused here
        self.reward = RewardRule(self.ruleset, reward, room)
        self._rng = np.random.default_rng(seed)
        self._batch: Any = None

    # ------------------------------------------------------------------ dealing
    def _deal(self) -> tuple[Any, Any]:
        core = self._dealer(self._rng)
        gen = np.random.PCG64(int(self._rng.integers(2 ** 63))) if self._random else None
        return core, gen

    def _redeal(self, i: int) -> None:
        """A new round in row ``i``, dealt in the compiled engine (no Python objects but the core)
        from the environment's generator: the random bots' generator first, then the deal."""
        batch = self._batch
        assert batch is not None
        bits = self._rng.bit_generator
        while True:
            gen = np.random.PCG64(int(self._rng.integers(2 ** 63))) if self._random else None
            if batch.deal(i, bits, gen) >= 0:
                return

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """Deal ``n`` new rounds; returns ``(obs, mask, actor)`` of their first actors."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        dealt = [self._deal() for _ in range(self.n)]
        kinds = np.array([self._kinds] * self.n, dtype=np.int8)
        self._batch = self._hooks.batch([c for c, _ in dealt], kinds, [g for _, g in dealt])
        for i in range(self.n):
            if self._batch.actor(i) < 0:
                self._redeal(i)
        obs, mask, actor, _ = self._batch.observe()
        return obs, mask, actor

    def _checked_actions(self, actions: Any) -> npt.NDArray[np.int64]:
        """A batch of actions that is not an int64 array, checked and converted (the values
        before the cast: a uint64 above the int64 range must not wrap into a legal index)."""
        n = self.n
        want = f"actions must be {n} mask indices, an integer array of shape ({n},)"
        if isinstance(actions, (list, tuple)):
            kinds = {type(a) for a in actions}
            if any(issubclass(k, (bool, np.bool_)) for k in kinds):    # numpy would read True as 1
                raise ArrayShapeError(f"{want}; got booleans in a {type(actions).__name__}")
        try:
            arr = np.asarray(actions)
        except Exception:   # noqa: BLE001 - a ragged list, a hostile __array__: refused, whatever it raised
            raise ArrayShapeError(f"{want}; got {short_repr(actions)}") from None
        if arr.dtype.kind not in "iu" or arr.shape != (n,):
            raise ArrayShapeError(f"{want}; got {arr.dtype} {arr.shape}")
        out = (arr < 0) | (arr >= self._size)
        if out.any():
            i = int(np.flatnonzero(out)[0])
            raise IllegalActionError(f"row {i}: action {int(arr[i])} is not a mask index (0-{self._size - 1})")
        return np.ascontiguousarray(arr, dtype=np.int64)

    def core(self, i: int) -> Any:
        """The compiled round of row ``i`` (a finished one is replaced in the step it ends)."""
        return self._live_batch().core(i)

    def round(self, i: int) -> Any:
        """Row ``i``'s round as the family's round (its log, views, JSON): the same deal, with the
        row's actions so far replayed -- a :class:`~mahjong_core.Round` (the same wall, dice and
        dealer) for mahjong, a long-card hand (its replay record holds the stock, spec 8.4)."""
        return self._dealer.as_round(self.core(i))

    def _live_batch(self) -> Any:
        if self._batch is None:
            raise MahjongError("call reset() first")
        return self._batch

    def step(self, actions: Any) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Apply one action per round (see the module docstring).  ``actions``: one mask index per
        row, an integer array of shape ``(n,)`` (a list of ints is converted; a C-contiguous
        int64 array, what a policy's ``argmax`` gives, is read as it is).  The rule of the
        single-round environments (:mod:`mahjong_core.rl.env_common`), for a batch: a row's
        action outside the mask or masked raises :class:`~mahjong_core.errors.IllegalActionError`
        naming the row; a batch that is not integers of shape ``(n,)`` -- floats (even
        ``3.0``), booleans, ``None``, strings, objects, another shape, a ragged list -- raises
        :class:`~mahjong_core.errors.ArrayShapeError`, as every batch argument of the API does.
        Either way nothing changes."""
        batch = self._batch
        if batch is None:
            raise MahjongError("call reset() first")
        if type(actions) is not np.ndarray or actions.dtype is not _INT64:
            actions = self._checked_actions(actions)    # the engine checks the shape and the values
        rewards = np.zeros((self.n, self.players))
        if not self._random:
            # the next deals in the compiled engine too: Python sees only the rounds that ended
            won: list[tuple[int, Any]] = []      # the ended rounds with payments: a draw pays nothing
            obs, mask, actor, done, _ = batch.step_deal(actions, self._rng.bit_generator, won)
            for i, core in won:
                rewards[i] = self.reward.of_keys(self._hooks.settle_keys(core))
            if self.copy:
                return obs.copy(), mask.copy(), actor.copy(), rewards, done.copy()
            return obs, mask, actor, rewards, done
        obs, mask, actor, done = batch.step(actions)
        for i in np.flatnonzero(done).tolist():
            rewards[i] = self.reward(batch.core(i))
            self._redeal(i)
            seat = batch.actor(i)
            obs[i], mask[i] = self._hooks.observe(batch.core(i), seat)
            actor[i] = seat
        return obs, mask, actor, rewards, done
