"""The mahjong family's side of the learning environments (``Family.rl``): its observation
layout and compiled encoder (``_round.observe``, ``_round.RoundBatch``), its deals, rewards'
keys and rendered table.  Imported when an environment first needs it.

The observation of a seat, written by the compiled engine (``_round_obs.pxi``) from what the seat
may see only.  For a ruleset with ``P`` players and a wall of ``W`` tiles, ``D = W - 13 P`` (the
most discards one seat can make).  Seats are relative: row ``k`` of a per-seat section is seat
``(seat + k) % P``, so the observing seat is always row 0.

================  ==========  ==============================================================
section           shape       content
================  ==========  ==============================================================
``hand``          (34,)       own concealed tiles, counts 0-4 (index = tile, as everywhere)
``drawn``         (34,)       one-hot: the tile the seat just drew on its turn, else zeros
``melds``         (P, 4, 4)   per seat, per meld in declaration order: kind (0 none, 1 chi,
                              2 pon, 3 kong on a discard, 4 added kong, 5 concealed kong),
                              first tile + 1 (0 for another seat's face-down kong), claimed
                              tile + 1 (0 none), relative seat it was claimed from + 1 (0 none)
``discards``      (P, D)      per seat, its discard pool in order as tile + 1 (0 = empty); a
                              claimed discard leaves the pool (it is in the claimer's meld)
``flowers``       (P, 8)      per seat, 1 for each flower set aside (春夏秋冬梅兰竹菊)
``seat_wind``     (4,)        one-hot E S W N of the seat (zeros if the ruleset has no winds)
``round_wind``    (4,)        one-hot E S W N of the round (zeros if the ruleset has no winds)
``dealer``        (P,)        one-hot relative seat of the dealer
``wall``          (2,)        tiles left in the wall; live tiles left (without a reserved tail)
``phase``         (5,)        one-hot ready_window, turn, claim, rob, over
``turn``          (P,)        one-hot: the seat on turn, or whose discard / added kong is claimed
``claim_tile``    (34,)       one-hot: the tile being claimed (claim and rob phases)
``claim_last``    (1,)        the claimed discard was the wall's last tile
``ready``         (P,)        报听 declared, per seat
``hand_sizes``    (P,)        concealed tiles per seat
``flags``         (2,)        the seat must act now; it must discard (after its own chi or pon)
================  ==========  ==============================================================

The legal actions come as a separate ``int8`` mask of ``ACTION_SIZE`` (110) entries, the layout
of :mod:`mahjong_core.families.mahjong.actions`.  Everything here is in the seat's view
(``Round.view(seat)``; ``tests/rl`` holds the two equal at every step).  Rewards: a win's key is
:meth:`RoundCore.settle_keys`' ``(winner, loser, method, total, non_flower, min_fan)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..._round import OBS_MELD_KINDS, RoundBatch, RoundCore, observation_fields, observe, shuffle_tiles
from ...errors import MahjongError
from ...rl.encoding import ObservationLayout, build_layout
from ...rl.hooks import EnvRound, RlHooks
from ...settlement import WIN_METHODS, HandOutcome
from .actions import ACTION_SIZE
from .round import Round, _compiled
from .rulesets import get_ruleset as mahjong_ruleset
from .settings import flow_settings, settings_and_options
from .tiles import format_tiles, tile_short
from .wall import N_KONG_DICE
from ..registry import get_ruleset

__all__ = ["CoreDealer", "HOOKS", "deal", "hooks", "view_table"]

_HAND_MAX = 14     # concealed tiles of a seat at most
_EAST = 27         # a round's default wind (Round's round_wind)


def layout(ruleset: str) -> ObservationLayout:
    """The layout of a mahjong ruleset (the table of the module docstring)."""
    players = get_ruleset(ruleset).players
    wall = 2 * flow_settings(ruleset).stacks
    discard_cap = wall - 13 * players
    fields = [(name, tuple(shape)) for name, shape in observation_fields(players, discard_cap)]
    high: dict[str, Any] = {name: 1 for name, _ in fields}    # one-hots and flags
    high.update(hand=4, discards=34, wall=wall, hand_sizes=_HAND_MAX,
                melds=np.array([len(OBS_MELD_KINDS) - 1, 34, 34, players]))
    return build_layout(ruleset, players, discard_cap, fields, high, ACTION_SIZE)


def deal(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> Round:
    """A new round of ``ruleset``: its seed and dealer drawn from ``rng`` (so an environment
    seeded once deals the same sequence of rounds)."""
    seed = int(rng.integers(2 ** 63))
    dealer = int(rng.integers(get_ruleset(ruleset).players))
    return Round(mahjong_ruleset(ruleset, "the learning environments"), seed=seed, dealer=dealer, options=options)


def _env_round(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> EnvRound:
    r = deal(ruleset, rng, options)
    return EnvRound(r._core, r)      # a Round reads its core: always in step


class CoreDealer:
    """Deals compiled rounds fast, for the vectorised loop (no :class:`Round` wrapper, no seed
    sequence per round): the wall, dice and kong dice are shuffled on the bit stream of ``rng``
    (NumPy's algorithms, as :func:`~mahjong_core.families.mahjong.wall.shuffle_wall` does on a
    round's own generator) and the dealer drawn from it.  :meth:`as_round` rebuilds a dealt
    round as a :class:`Round` from the wall it holds."""

    def __init__(self, ruleset: str, options: dict[str, Any] | None) -> None:
        self.settings, _ = settings_and_options(ruleset, options)
        self.options = options
        self._c = _compiled(self.settings)
        self._tiles = self.settings.tile_set()

    def __call__(self, rng: np.random.Generator) -> RoundCore:
        tiles, dice, kong_dice = shuffle_tiles(self._tiles, rng.bit_generator, N_KONG_DICE)
        c = self._c
        return RoundCore(c.settings_dict, c.code, c.special, c.kind_mask, int(rng.integers(self.settings.players)),
                         _EAST, tiles, dice, kong_dice)

    def as_round(self, core: RoundCore) -> Round:
        """``core``'s round as a :class:`Round` (a scripted wall: the core's), its actions replayed.
        The wall, dice and every kong die are the core's, so the round owes nothing to a seed: its
        header records seed 0 (a Round without one would draw a fresh seed, and two snapshots of
        one state would differ)."""
        state = core.get_state()
        r = Round(mahjong_ruleset(self.settings.ruleset), seed=0, dealer=core.dealer, options=self.options,
                  wall=state["wall"]["tiles"], dice=state["dice"], kong_dice=state["kong_dice"])
        pairs = core.action_pairs()
        for k in range(0, len(pairs), 2):
            r.step(pairs[k], pairs[k + 1])
        return r


def _settle_keys(core: RoundCore) -> Any:
    return core.settle_keys()


def _outcome(key: tuple[int, int | None, str, int, int, int], names: tuple[str, ...]) -> HandOutcome:
    winner, loser, method, total, non_flower, min_fan = key
    return HandOutcome(names, winner=winner, loser=loser, method=method, hand_value=total,
                       non_flower_total=non_flower, min_fan=min_fan)


def _check_key(key: Any, players: int) -> None:
    """A key as :meth:`RoundCore.settle_keys` gives it, else a MahjongError naming the fault."""
    P = players
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


# ------------------------------------------------------------------ the rendered table
def _melds(melds: list[dict[str, Any]]) -> str:
    return " ".join(f"{m['kind']} {format_tiles(m['tiles'], sort=False)}" if m["tiles"] is not None
                    else f"{m['kind']} (face down)" for m in melds) or "-"


def _result(result: dict[str, Any]) -> str:
    winners = result.get("winners") or []
    if not winners:
        return "result: drawn (no winner)"
    return "result: " + "; ".join(
        f"player_{w['seat']} wins on {tile_short(w['win_tile'])} "
        + ("self-drawn" if w["method"] == "self_drawn" else f"from player_{w['loser']}")
        + f", {w['total']} fans" for w in winners)


def view_table(view: Mapping[str, Any]) -> str:
    """The table of one seat's view (:meth:`Round.view`), one line per seat: what that seat may
    know -- its own concealed tiles and drawn tile, every seat's concealed-hand size, melds
    (another seat's concealed kong face down), flowers and discards, the winds, the dealer, the
    wall count, the tile being claimed, and the result once the round is over."""
    me = view["seat"]
    winds = view["seat_winds"]
    ready = view["ready"]
    head = f"{view['ruleset']}: player_{me}'s view, phase {view['phase']}, wall {view['wall_remaining']}"
    if view["round_wind"] is not None:
        head += f", round wind {tile_short(view['round_wind'])}"
    if view["to_act"]:
        head += f", to act ({len(view['legal_indices'])} legal actions)"
    rows = [("seat", "wind", "hand", "melds", "flowers", "discards")]
    for k in range(view["players"]):
        name = f"player_{k}" + (" (you)" if k == me else "") + (" dealer" if k == view["dealer"] else "") \
            + (" ready" if ready is not None and ready[k] else "")
        if k == me:
            hand = format_tiles(view["hand"])
            if view["drawn"] is not None:
                hand += f" + {tile_short(view['drawn'])}"
        else:
            hand = f"{view['hand_sizes'][k]} tiles"
        rows.append((name, tile_short(winds[k]) if winds is not None else "-", hand, _melds(view["melds"][k]),
                     format_tiles(view["flowers"][k]) or "-",
                     " ".join(tile_short(t) for t in view["discards"][k]) or "-"))   # in order
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = [head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]
    claim = view["claim"]
    if claim is not None:
        lines.append(f"claim: {tile_short(claim['tile'])} from player_{claim['from']} "
                     f"({'a discard' if claim['kind'] == 'discard' else 'an added kong'})")
    if view["result"] is not None:
        lines.append(_result(view["result"]))
    return "\n".join(lines)


HOOKS = RlHooks(
    action_size=ACTION_SIZE, layout=layout, observe=observe, deal=_env_round, dealer=CoreDealer, batch=RoundBatch,
    settle_keys=_settle_keys, outcome=_outcome, check_key=_check_key, table=view_table,
    names={"OBS_MELD_KINDS": OBS_MELD_KINDS},
)
"""``Family.rl()`` of the mahjong family."""


def hooks() -> RlHooks:
    """``Family.rl``: :data:`HOOKS`."""
    return HOOKS
