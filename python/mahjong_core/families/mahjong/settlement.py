"""The mahjong family's settlement: its four profiles, its seeds' preset rooms, and a round's
per-seat ``deltas`` (spec rules.md 5.2-5.5, open points OP-2..OP-12, OP-49).

Profiles (registered with :func:`mahjong_core.settlement.register_profiles` when the family
registers):

``coins_000`` (seed 000, spec 5.2)
    the loser pays F × ``value_per_fan`` (the base), self-drawn or not (OP-3; a self-drawn win
    is paid by the opponent, so only between two players); escape ``escape_multiplier`` × base.
``beans_004`` (seed 004, spec 5.2)
    the same payments in beans (``value_per_fan`` beans per fan); the escape penalty is the
    房间系数 × 200 (OP-4: ``coefficient``, default ``value_per_fan``).
``bamboo_001`` (seed 001, spec 5.3)
    the payments of ``coins_000`` (its rooms add a service fee and a 60 × base escape penalty).
``public_mcr`` (seed 003 has none: MCR, spec 5.4, OP-12; also ruleset `mcr`'s)
    every other player pays ``MCR_BASE_POINTS``; the discarder, or everyone on a self-drawn win,
    adds F; all × ``value_per_fan``.

Rooms (:data:`ROOMS`, registered into :data:`mahjong_core.settlement.ROOMS`): ``beginner``,
``coins``, ``bamboo``, ``public``, ``mcr``.  :func:`unit_room` is a ruleset's room at one point per fan
with the profile of its record (``settlement_profile``): what the simulation's points and a
round result's :attr:`~mahjong_core.families.mahjong.round.RoundResult.deltas` are paid in.
"""

from __future__ import annotations

from typing import Any

from ...errors import MahjongError
from ...settlement import HandOutcome, Room, SettlementProfile, hand_payments, register_profiles, register_rooms
from ...settlement.profiles import Request
from .constants import FAMILY_NAME
from .rulesets import get_ruleset

__all__ = ["PROFILES", "ROOMS", "MCR_BASE_POINTS", "unit_room", "round_deltas"]

MCR_BASE_POINTS = 8
"""public_mcr: every payer adds 8 points (OP-12)."""


def _no_offender(room: Room, outcome: HandOutcome) -> None:
    if outcome.offender is not None:
        raise MahjongError(f"profile {room.profile} settles wins only; a hand ended by an offender "
                           f"(seat {outcome.offender}) has no payments in room {room.name!r}")


def _loser_pays(room: Room, outcome: HandOutcome) -> list[Request]:
    """The two-player profiles: the loser pays F × unit, self-drawn or not (OP-3)."""
    _no_offender(room, outcome)
    assert outcome.winner is not None
    players = outcome.players
    win = players[outcome.winner]
    value = outcome.hand_value * room.value_per_fan
    if outcome.loser is not None:
        return [(players[outcome.loser], win, value, "win")]
    if len(players) != 2:
        raise MahjongError(f"profile {room.profile} settles a self-drawn win between two players only; "
                           f"room {room.name!r} has {len(players)}")
    return [(players[1 - outcome.winner], win, value, "win")]


def _mcr(room: Room, outcome: HandOutcome) -> list[Request]:
    """public_mcr: base points from every other player, F more from the discarder (or from all)."""
    _no_offender(room, outcome)
    players = outcome.players
    win = players[outcome.winner]   # type: ignore[index]  # a win: the shared code returned on None
    unit = room.value_per_fan
    out = []
    for seat, name in enumerate(players):
        if seat == outcome.winner:
            continue
        if outcome.method == "self_drawn" or seat == outcome.loser:
            out.append((name, win, (outcome.hand_value + MCR_BASE_POINTS) * unit, "win"))
        else:
            out.append((name, win, MCR_BASE_POINTS * unit, "win"))
    return out


def _beans_escape(room: Room) -> int:
    """beans_004: the 房间系数 × 200 (OP-4)."""
    return room.room_coefficient * 200


PROFILES = (
    SettlementProfile("coins_000", FAMILY_NAME, _loser_pays, description="seed 000: the loser pays F x base (5.2)"),
    SettlementProfile("beans_004", FAMILY_NAME, _loser_pays, escape_penalty=_beans_escape,
                      description="seed 004: the loser pays F x beans per fan; escape 房间系数 x 200 (5.2)"),
    SettlementProfile("bamboo_001", FAMILY_NAME, _loser_pays, description="seed 001: the loser pays F x base (5.3)"),
    SettlementProfile("public_mcr", FAMILY_NAME, _mcr,
                      description=f"MCR: {MCR_BASE_POINTS} base points from each, F more from the discarder (5.4)"),
)
"""The family's settlement profiles (registered when the family registers)."""

register_profiles(*PROFILES)

ROOMS = (
    # [004] 新手场: 1番=1分=15欢乐豆, entry 1,000-200,000; escape 房间系数 × 200, coefficient = 15 (OP-4)
    Room("beginner", "two-player", "beans_004", value_per_fan=15, entry_min=1_000, entry_max=200_000),
    # [000] coins: base 1 (OP-2), escape base × 32, half to the system
    Room("coins", "two-player", "coins_000", value_per_fan=1, base=1, escape_multiplier=32,
         escape_system_share=50),
    # [001] 金豆: service fee 100 % of base per player per hand; escape 60 × base to the opponent;
    # escape = away > 90 s, closing the client, >= 3 disconnects, or a forced quit
    Room("bamboo", "two-player-bamboo", "bamboo_001", value_per_fan=1, base=1, service_fee_ratio=100,
         escape_multiplier=60, escape_rules=("forced_quit", "away", "closed_client", "disconnects")),
    # [003] has no settlement: MCR (OP-12); escape penalty configurable, default none (OP-49)
    Room("public", "public", "public_mcr", value_per_fan=1, base=1),
    # Chinese Official (MCR): the rulebook's scoring, 8 from each plus F from the discarder (or all)
    Room("mcr", "mcr", "public_mcr", value_per_fan=1, base=1),
)
"""The seeds' rooms and `mcr`'s.  ``beginner`` is [004]'s 新手场."""

register_rooms(*ROOMS)


_UNIT_ROOMS: dict[str, Room] = {}


def unit_room(ruleset: str) -> Room:
    """1 point per fan with the ruleset's payment rules (its record's ``settlement_profile``),
    built once per ruleset.  It sets no minimum of its own: each outcome carries the minimum its
    round was played under."""
    room = _UNIT_ROOMS.get(ruleset)
    if room is None:
        room = _UNIT_ROOMS[get_ruleset(ruleset).name] = Room("unit", ruleset, get_ruleset(ruleset).settlement_profile,
                                                            value_per_fan=1)
    return room


def round_deltas(ruleset: str, winners: Any) -> list[int]:
    """Per-seat points of a finished round in its ruleset's :func:`unit_room` (sums to 0; zeros
    on a draw): each winner's payments (several on a discard won by more than one player), the
    win checked against the minimum the round was played under (the score's ``min_fan``).
    ``winners``: the result's winner records (``RoundResult.winners``)."""
    room = unit_room(ruleset)
    names = tuple(str(k) for k in range(room.players))
    out = [0] * len(names)
    for w in winners:
        outcome = HandOutcome(names, winner=w["seat"], loser=w["loser"], method=w["method"], hand_value=w["total"],
                              non_flower_total=w["non_flower_total"], min_fan=w["score"]["min_fan"])
        for payer, payee, amount, _ in hand_payments(room, outcome):
            out[int(payer)] -= amount
            out[int(payee)] += amount
    return out
