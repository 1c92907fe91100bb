"""Rewards of a finished round for the learning environments, from the settlement layer.

Two modes (the environments' ``reward=`` setting):

* ``"points"``: what each seat wins or pays in a room of the settlement layer
  (:func:`mahjong_core.settlement.hand_payments`, win payments only: no table or service fees),
  net per seat, so the rewards of a round sum to zero.  The room defaults to the ruleset
  record's ``default_room`` (a preset room its family registered in
  :data:`~mahjong_core.settlement.ROOMS`), else the first preset room that plays the ruleset.
* ``"fans"``: a winner gets his hand value F (fans, flowers included), every other seat 0.

A draw gives every seat 0 in both modes.  Several winners of one discard (the
``multiple_winners`` option) are settled one after the other and summed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._round import RoundCore
from ..errors import MahjongError
from ..families.registry import get_ruleset
from ..settlement import ROOMS, WIN_METHODS, HandOutcome, Room, get_room, hand_payments

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

    __slots__ = ("_names", "_paid", "_rows", "_zeros", "mode", "players", "room", "ruleset")

    def __init__(self, ruleset: str, reward: Any = "points", room: str | Room | None = None) -> None:
        if not isinstance(reward, str) or reward not in REWARD_MODES:
            raise MahjongError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
        self.ruleset = get_ruleset(ruleset).name
        self.mode = reward
        self.players = get_ruleset(self.ruleset).players
        self._names = tuple(f"seat{k}" for k in range(self.players))
        # net payments per seat of one win, by (winner, loser, method, value, non-flower total,
        # min fan): the settlement is a function of those, and a run settles the same few often
        self._paid: dict[tuple[int, int | None, str | None, int, int, int], list[float]] = {}
        # the rewards of a round by its settle keys (what the vectorised loop looks up per round)
        self._rows: dict[tuple[tuple[int, int | None, str, int, int, int], ...], npt.NDArray[np.float64]] = {}
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

    def __call__(self, core: RoundCore) -> list[float]:
        """The rewards of the finished round in ``core`` (zeros while it runs)."""
        return [float(x) for x in self.of_keys(core.settle_keys())]

    def of_keys(self, keys: tuple[tuple[int, int | None, str, int, int, int], ...] | None) -> npt.NDArray[np.float64]:
        """The rewards (one float per seat, a read-only array) of a round whose
        :meth:`RoundCore.settle_keys` are ``keys`` (``None`` while running, ``()`` for a draw:
        zeros).  Cached by ``keys``: a run settles the same few results over and over."""
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
                    out[key[0]] += float(key[3])
                    continue
                net = self._paid.get(key)
                if net is None:
                    net = self._paid[key] = self._settle(*key)
                for k in range(self.players):
                    out[k] += net[k]
            row = np.array(out)
            row.flags.writeable = False
            if len(self._rows) < _ROWS_KEPT:
                self._rows[keys] = row
        return row

    def _check_keys(self, keys: Any) -> None:
        """``keys`` as :meth:`RoundCore.settle_keys` gives them, else a MahjongError naming the
        fault (checked once per distinct result: the cache holds only checked ones)."""
        P = self.players
        if not isinstance(keys, tuple):
            raise MahjongError(f"settle keys must be a tuple of per-winner tuples, got {type(keys).__name__}")
        for key in keys:
            if not (isinstance(key, tuple) and len(key) == 6):
                raise MahjongError(f"a settle key is (winner, loser, method, total, non_flower, min_fan), got {key!r}")
            winner, loser, method, total, non_flower, min_fan = key
            ints = (winner, total, non_flower, min_fan) + (() if loser is None else (loser,))
            if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
                raise MahjongError(f"settle key {key!r}: seats and totals must be ints")
            if not 0 <= winner < P or (loser is not None and (not 0 <= loser < P or loser == winner)):
                raise MahjongError(f"settle key {key!r}: winner and loser must be two seats 0-{P - 1}")
            if method not in WIN_METHODS or (loser is None) != (method == "self_drawn"):
                raise MahjongError(f"settle key {key!r}: method must be one of {', '.join(WIN_METHODS)}, "
                                   f"with a loser unless self-drawn")
            if total < 0 or non_flower < 0 or min_fan < 0:
                raise MahjongError(f"settle key {key!r}: totals and the minimum fan must be >= 0")

    def _settle(self, seat: int, loser: int | None, method: str | None, total: int, non_flower: int,
                min_fan: int) -> list[float]:
        """Each seat's net payment for one win, from the settlement layer."""
        assert self.room is not None
        net = [0.0] * self.players
        outcome = HandOutcome(self._names, winner=seat, loser=loser, method=method, hand_value=total,
                              non_flower_total=non_flower, min_fan=min_fan)
        for payer, payee, amount, _ in hand_payments(self.room, outcome):
            net[self._names.index(payer)] -= amount
            net[self._names.index(payee)] += amount
        return net
