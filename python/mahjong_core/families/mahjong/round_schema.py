"""The JSON shape of a mahjong round's saved data: the log header, the log events, a finished
round's result and the whole round state (``Round.to_dict()``), in the shape language of
:mod:`mahjong_core.game.schema`."""

from __future__ import annotations

from functools import lru_cache

from ...game.schema import (
    ANY_OBJ, MAX_SEATS, MAX_SEED, MAX_SPAWN_KEY, MAX_SPAWN_VALUE, NONE, Bool, Either, Flag, Int, List, Obj, Str,
    Tagged, Tuple,
)
from ._constants import A_SIZE, FLAGS, MAX_TILES, MELD_NAMES, N_KONG_DICE, SRC_NAMES
from .constants import PHASE_NAMES, WIN_METHODS
from .rulesets import MAX_MIN_FAN, RULESET_NAMES
from .settings import OPTION_NAMES

__all__ = ["state_shape", "header_shape", "event_shape", "result_shape", "action_shape", "EVENT_TYPES",
           "ACTION_TYPES", "MAX_TILES", "N_KONG_DICE", "MAX_TOTAL"]

N_ACTIONS = A_SIZE
MAX_TOTAL = 100_000
"""Bound of a recorded hand value (no hand reaches a thousand fans)."""


_TILE = Int(0, 33)
_ANY_TILE = Int(0, 41)
_FLOWER = Int(34, 41)
_DIE = Int(1, 6)
_WIND = Int(27, 30)
_OPTION_VALUE = Either(Bool(), Int(0, MAX_MIN_FAN), Str())

ACTION_TYPES = ("discard", "chi", "pon", "kong", "win", "pass", "declare_ready")
_ACTION_SHAPES = {
    "discard": Obj({"type": Str(), "tile": _TILE, "ready": Bool()}),
    "chi": Obj({"type": Str(), "tiles": List(_TILE, 3)}),
    "pon": Obj({"type": Str()}),
    "kong": Obj({"type": Str(), "tile": _TILE, "kind": Str(("concealed", "added", "exposed"))}),
    "win": Obj({"type": Str()}),
    "pass": Obj({"type": Str()}),
    "declare_ready": Obj({"type": Str()}),
}
action_shape = Tagged(_ACTION_SHAPES, "action")
"""The shape of an action as a log records it (``Action.to_dict()``)."""


@lru_cache(maxsize=None)
def header_shape() -> Obj:
    """The log header (the first event): everything the round is rebuilt from."""
    return Obj(
        {"type": Str(("header",)), "schema_version": Int(1, 1), "ruleset": Str(RULESET_NAMES),
         "seed": Int(0, MAX_SEED), "spawn_key": List(Int(0, MAX_SPAWN_VALUE), lo=0, hi=MAX_SPAWN_KEY),
         "dealer": Int(0, MAX_SEATS - 1), "round_wind": _WIND,
         "options": Obj({}, {k: _OPTION_VALUE for k in _option_names()})},
        {"wall": List(_ANY_TILE, lo=0, hi=MAX_TILES), "dice": List(_DIE, 2), "kong_dice": List(_DIE, lo=0, hi=N_KONG_DICE)},
    )


def _option_names() -> tuple[str, ...]:
    return tuple(sorted(OPTION_NAMES))


@lru_cache(maxsize=None)
def event_shape(players: int = MAX_SEATS) -> Tagged:
    """The shape of one log event (by its ``type``) in a round of ``players`` seats."""
    seat = Int(0, players - 1)
    t = Str()
    return Tagged({
        "header": header_shape(),
        "dice": Obj({"type": t, "dice": List(_DIE, 2), "sum": Int(2, 12), "opened_wall": seat,
                     "first_stack": Int(0, MAX_TILES // 2)}),
        "deal": Obj({"type": t, "seat": seat, "tiles": List(_ANY_TILE, lo=13, hi=14)}),
        "flower": Obj({"type": t, "seat": seat, "tile": _FLOWER}),
        "draw": Obj({"type": t, "seat": seat, "tile": _ANY_TILE, "from": Str(("head", "tail", "die"))},
                    {"die": _DIE}),
        "action": Obj({"type": t, "seat": seat, "action": action_shape}),
        "ready": Obj({"type": t, "seat": seat, "heavenly": Bool()}),
        "discard": Obj({"type": t, "seat": seat, "tile": _TILE}, {"ready": Bool(), "heavenly": Bool()}),
        "kong": Obj({"type": t, "seat": seat, "kind": Str(("concealed", "added", "exposed")),
                     "tile": Either(NONE, _TILE)}, {"from": seat}),
        "pon": Obj({"type": t, "seat": seat, "tile": _TILE, "from": seat}),
        "chi": Obj({"type": t, "seat": seat, "tiles": List(_TILE, 3), "tile": _TILE, "from": seat}),
        "exhaustive_draw": Obj({"type": t, "wall_remaining": Int(0, MAX_TILES)}),
        "round_end": Obj({"type": t, "draw": Bool(), "winners": List(seat, lo=0, hi=players - 1),
                          "next_dealer": seat}),
        "win": Obj({"type": t, "seat": seat, "from": Either(NONE, seat),
                    "method": Str(WIN_METHODS), "tile": Either(NONE, _TILE),
                    "total": Int(0, MAX_TOTAL), "fans": List(Tuple(Str(), Int(0, MAX_TOTAL), Int(0, 64)), hi=128)}),
    }, "event")


EVENT_TYPES = tuple(event_shape().shapes)

# the situational flags (the generated FLAGS, one per bit) and the one boolean option a result records
_SCORE_FLAGS = (*FLAGS, "literal_first_turn_exclusions")


@lru_cache(maxsize=None)
def result_shape(players: int) -> Obj:
    """A finished round's result (``RoundResult.to_dict()``)."""
    seat = Int(0, players - 1)
    score_args = Obj(
        {"ruleset": Str(RULESET_NAMES), "melds": List(Tuple(Str(MELD_NAMES), List(_TILE, lo=3, hi=4)),
                                                      lo=0, hi=4),
         "flowers": List(_FLOWER, lo=0, hi=8), "min_fan": Int(0, MAX_MIN_FAN), "hand": List(Int(0, 4), 34),
         "win_tile": Either(NONE, _TILE)},
        dict({k: Bool() for k in _SCORE_FLAGS}, seat_wind=_WIND, round_wind=_WIND,
             replacement_bloom=Str(("any", "last_tile", "kongs_only"))),
    )
    winner = Obj({"seat": seat, "loser": Either(NONE, seat), "method": Str(WIN_METHODS),
                  "win_tile": Either(NONE, _TILE), "total": Int(0, MAX_TOTAL), "non_flower_total": Int(0, MAX_TOTAL),
                  "score": ANY_OBJ, "score_args": score_args})
    return Obj({"draw": Bool(), "winners": List(winner, lo=0, hi=players - 1), "dealer": seat, "next_dealer": seat,
                "dealer_continues": Bool(), "wall_remaining": Int(0, MAX_TILES)})


@lru_cache(maxsize=None)
def state_shape(players: int, n_tiles: int) -> Obj:
    """The whole round state (``Round.to_dict()``) of a ruleset with ``players`` seats and a wall
    of ``n_tiles`` tiles (the header is only required to be an object here: check it with
    :func:`header_shape` first, as its ruleset gives ``players`` and ``n_tiles``)."""
    P = players
    seat = Int(0, P - 1)
    per_seat_flag = List(Flag(), P)
    meld = List(Int(-1, 33), 5)  # [kind, first, from, claimed, added]; ranges per entry in the invariants
    return Obj({
        "schema_version": Int(1, 1),
        "header": ANY_OBJ,  # checked first, with header_shape(): the settings come from it
        "wall": Obj({"tiles": List(_ANY_TILE, n_tiles), "taken": Str(max_len=n_tiles)}),
        "dice": List(_DIE, 2),
        "kong_dice": List(_DIE, N_KONG_DICE),
        "kong_dice_used": Int(0, N_KONG_DICE),
        "hands": List(List(Int(0, 4), 34), P),
        "melds": List(List(meld, lo=0, hi=4), P),
        "discards": List(List(_TILE, lo=0, hi=n_tiles), P),
        "flowers": List(List(_FLOWER, lo=0, hi=8), P),
        "phase": Str(PHASE_NAMES),
        "turn": seat,
        "drawn": Int(-1, 33),
        "drawn_src": Str(SRC_NAMES),
        "must_discard": Flag(),
        "ready": per_seat_flag,
        "ready_concealed": per_seat_flag,
        "heavenly_ready": per_seat_flag,
        "dealer_first": Flag(),
        "calls_made": Flag(),
        "drew": per_seat_flag,
        "earthly_seat": Int(-1, P - 1),
        "claim": Obj({"tile": Int(-1, 33), "from": Int(-1, P - 1), "last": Flag(), "humanly": Flag(),
                      "pending": List(seat, lo=0, hi=P - 1), "responses": List(Int(-1, N_ACTIONS - 1), P)}),
        "n_steps": Int(0, 10 ** 5),
        "result": Either(NONE, result_shape(P)),
        "log": List(ANY_OBJ, lo=1, hi=10 ** 5),
    })
