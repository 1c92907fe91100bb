"""Rewards of a finished round for the learning environments, from the settlement layer.

Two modes (the environments' ``reward=`` setting):

* ``"points"``: what each seat wins or pays in a room of the settlement layer
  (:func:`mahjong_core.settlement.hand_payments`, win payments only: no table or service fees),
  net per seat, so the rewards of a round sum to zero.  The room defaults to the ruleset
  record's ``default_room`` (a preset room its family registered in
  :data:`~mahjong_core.settlement.ROOMS`), else the first preset room that plays the ruleset.
* ``"fans"``: a winner gets his hand value F (fans, flowers included), every other seat 0; a
  penalised seat (long cards' 包子) gets minus the penalty's fan.

A draw (and a void hand) gives every seat 0 in both modes.  Several winners of one discard (the
``multiple_winners`` option) are settled one after the other and summed.  The family's hooks
(:class:`~mahjong_core.rl.hooks.RlHooks`) give a finished round's payment keys and the outcome of
each key; this module names no family.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import MahjongError
from ..families.registry import get_ruleset
from ..settlement import ROOMS, Room, get_room, hand_payments
from .hooks import rl_hooks

__all__ = ["REWARD_MODES", "RewardRule", "default_room"]

REWARD_MODES = ("points", "fans")
_ROWS_KEPT = 100_000     # cached rewards rows (a long run meets far fewer distinct results)


def default_room(ruleset: str) -> Room:
    """The room of the ruleset record's ``default_room`` (a preset of
    :data:`~mahjong_core.settlement.ROOMS`), else the first preset room that plays ``ruleset``."""
    preset = ROOMS.get(getattr(get_ruleset(ruleset), "default_room", None) or "")
    if preset is not None and preset.ruleset == get_ruleset(ruleset).name:
        return preset
    for room in ROOMS.values():
        if room.ruleset == ruleset:
            return room
    raise MahjongError(f"no settlement room plays {ruleset!r}; pass reward='fans' or a Room")  # pragma: no cover


class RewardRule:
    """The rewards of a finished round of ``ruleset``: ``rule(core)`` -> one float per seat.
    ``reward`` is ``"points"`` or ``"fans"``; ``room`` (points only) a room name or
    :class:`~mahjong_core.settlement.Room` of the ruleset (default :func:`default_room`)."""

    __slots__ = ("_hooks", "_names", "_paid", "_rows", "_zeros", "mode", "players", "room", "ruleset")

    def __init__(self, ruleset: str, reward: Any = "points", room: str | Room | None = None) -> None:
        if not isinstance(reward, str) or reward not in REWARD_MODES:
            raise MahjongError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
        self.ruleset = get_ruleset(ruleset).name
        self._hooks = rl_hooks(self.ruleset)
        self.mode = reward
        self.players = get_ruleset(self.ruleset).players
        self._names = tuple(f"seat{k}" for k in range(self.players))
        # net payments per seat of one win (or penalty), by its key (mahjong: winner, loser, method,
        # value, non-flower total, min fan): the settlement is a function of it, and a run settles
        # the same few often
        self._paid: dict[Any, list[float]] = {}
        # the rewards of a round by its settle keys (what the vectorised loop looks up per round)
        self._rows: dict[tuple[Any, ...], npt.NDArray[np.float64]] = {}
        self._zeros = np.zeros(self.players)
        self._zeros.flags.writeable = False
        if reward == "fans":
            if room is not None:
                raise MahjongError("room is a setting of reward='points' only")
            self.room: Room | None = None
        else:
            self.room = default_room(self.ruleset) if room is None else get_room(room)
            if self.room.ruleset != self.ruleset:
                raise MahjongError(f"room {self.room.name!r} plays {self.room.ruleset}, not {self.ruleset}")

    def __call__(self, core: Any) -> list[float]:
        """The rewards of the finished round in ``core`` (zeros while it runs)."""
        return [float(x) for x in self.of_keys(self._hooks.settle_keys(core))]

    def of_keys(self, keys: tuple[Any, ...] | None) -> npt.NDArray[np.float64]:
        """The rewards (one float per seat, a read-only array) of a round whose settle keys (the
        family's ``RlHooks.settle_keys``; mahjong's :meth:`RoundCore.settle_keys`) are ``keys``
        (``None`` while running, ``()`` for a draw: zeros).  Cached by ``keys``: a run settles the
        same few results over and over."""
        if keys is not None and type(keys) is not tuple:
            self._check_keys(keys)      # raises (a list, say, would not even hash)
        if not keys:
            return self._zeros
        row = self._rows.get(keys)
        if row is None:
            self._check_keys(keys)
            out = [0.0] * self.players
            for key in keys:
                if self.room is None:
                    o = self._hooks.outcome(key, self._names)
                    if o.winner is not None:
                        out[o.winner] += float(o.hand_value)
                    elif o.offender is not None:
                        out[o.offender] -= float(o.hand_value)
                    continue
                net = self._paid.get(key)
                if net is None:
                    net = self._paid[key] = self._settle(key)
                for k in range(self.players):
                    out[k] += net[k]
            row = np.array(out)
            row.flags.writeable = False
            if len(self._rows) < _ROWS_KEPT:
                self._rows[keys] = row
        return row

    def _check_keys(self, keys: Any) -> None:
        """``keys`` as the family's ``settle_keys`` gives them, else a MahjongError naming the
        fault (checked once per distinct result: the cache holds only checked ones)."""
        if not isinstance(keys, tuple):
            raise MahjongError(f"settle keys must be a tuple of per-winner tuples, got {type(keys).__name__}")
        for key in keys:
            self._hooks.check_key(key, self.players)

    def _settle(self, key: Any) -> list[float]:
        """Each seat's net payment for one key (a win or a penalty), from the settlement layer."""
        assert self.room is not None
        net = [0.0] * self.players
        for payer, payee, amount, _ in hand_payments(self.room, self._hooks.outcome(key, self._names)):
            net[self._names.index(payer)] -= amount
            net[self._names.index(payee)] += amount
        return net
