"""The long-card family's side of the shared settlement layer (spec changpai.md section 5): its
settlement profiles, its preset room, and how a finished hand's result becomes a
:class:`~mahjong_core.settlement.HandOutcome`.

Profiles, one per settlement mode of spec 5.1 (the ruleset record's ``settlement_profile`` names
the default one):

``tikan`` (梯坎番)
    N fan are N + 1 points;
``fan_cheng_fan`` (番乘番)
    N fan are 2^N points.

In either, a win (5.2) is paid ``points(F)`` × ``value_per_fan`` by every other seat (folded ones
too, CP-9), and a 包子 (5.3), an outcome with an ``offender``, is paid ``points(N_b)`` ×
``value_per_fan`` by the offender to every other seat (CP-33); 黄庄 and void hands pay nothing
(5.4).  ``value_per_fan`` is the room's unit (the ``base`` of spec 5.1).  The points are
:func:`.fans.settlement_points`, the one implementation the hand's own payments use
(:mod:`.round_settlement`).

The preset rooms :data:`ROOMS`, one per mode of spec 5.1: ``changpai`` (unit base, 梯坎番: the
ruleset record's ``default_room``) and ``changpai-fcf`` (the same in 番乘番).  A hand's result
(:class:`.round_match.HandResult`) is read by :func:`outcome_of` (registered with :func:`mahjong_core.settlement.register_outcome_reader` by
:mod:`.round_match`): a room settles the fan of the result by its own profile and unit, which
may differ from the options the hand was played with (its own ``payments``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import MahjongError
from ...settlement import HandOutcome, Room, SettlementProfile, register_profiles, register_rooms
from ...settlement.profiles import Request
from .fans import settlement_points
from .options import OPTIONS, RULESET
from .ruleset import FAMILY_NAME

__all__ = ["MODES", "PROFILES", "ROOMS", "outcome_of"]

MODES: tuple[str, ...] = tuple(OPTIONS["settlement_mode"].allowed)
"""The settlement modes of spec 5.1 (``settlement_mode``), each a profile of the same name."""


def _payments(mode: str) -> Any:
    def hand_payments(room: Room, outcome: HandOutcome) -> list[Request]:
        players = outcome.players
        pts = int(settlement_points(outcome.hand_value, mode)) * room.value_per_fan
        if outcome.offender is not None:   # 包子 (5.3): the offender pays every other seat
            o = outcome.offender
            return [(players[o], name, pts, "baozi") for q, name in enumerate(players) if q != o]
        w = outcome.winner                  # a win (5.2): every other seat pays the winner
        if w is None:
            raise MahjongError(f"profile {room.profile}: an outcome with neither winner nor offender pays nothing")
        return [(name, players[w], pts, "win") for q, name in enumerate(players) if q != w]
    return hand_payments


_NAMES = {"tikan": "梯坎番 N + 1", "fan_cheng_fan": "番乘番 2^N"}

PROFILES = tuple(
    SettlementProfile(mode, FAMILY_NAME, _payments(mode),
                      description=f"{_NAMES.get(mode, mode)} points from every other seat; 包子: the offender pays each (5)")
    for mode in MODES
)
"""The family's settlement profiles (registered when the family registers)."""

register_profiles(*PROFILES)

ROOMS = (
    # a points room: base 1 (CP-54), the default mode 梯坎番 (CP-10), no fees, no escape penalty
    Room("changpai", RULESET, OPTIONS["settlement_mode"].default, value_per_fan=OPTIONS["base"].default),
    # the same in the other mode of 5.1, 番乘番 (N fan are 2^N points)
    Room("changpai-fcf", RULESET, "fan_cheng_fan", value_per_fan=OPTIONS["base"].default),
)
"""The family's preset rooms (the ruleset record's ``default_room`` is the first)."""

register_rooms(*ROOMS)


def outcome_of(result: Any, players: Sequence[str], round: "int | None" = None) -> HandOutcome:
    """The :class:`~mahjong_core.settlement.HandOutcome` of a finished hand's result: a win (the
    winner, every other seat paying: method ``self_drawn``, as S1 counts every win, spec 5.2),
    a 包子 (the offender and N_b), or a hand without payments (黄庄, void)."""
    if not isinstance(players, (tuple, list)) or len(players) != 3:
        raise MahjongError(f"a {RULESET} hand has 3 players; got {players!r}")
    end = result.end
    if end == "win":
        return HandOutcome(tuple(players), winner=result.winner, method="self_drawn", hand_value=result.fan,
                           non_flower_total=result.fan, round=round)
    if end == "baozi":
        return HandOutcome(tuple(players), offender=result.offender, hand_value=result.fan, round=round)
    return HandOutcome(tuple(players), round=round)
