"""The observation encoding of the learning environments: one flat ``uint8`` vector per seat.

The compiled engine writes it (``_round.observe``, ``_round.RoundBatch``) from what the seat may
see only; this module names its sections.  For a ruleset with ``P`` players and a wall of ``W``
tiles, ``D = W - 13 P`` (the most discards one seat can make).  Seats are *relative*: row ``k`` of a
per-seat section is seat ``(seat + k) % P``, so the observing seat is always row 0.

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
of :mod:`mahjong_core.families.mahjong.actions`.

Everything here is in the seat's view (``Round.view(seat)``; ``tests/rl`` holds the two equal at
every step).

**When an observation is defined: at the seat's decision points only** -- when the seat is the
first to act (the AEC environment's selected agent, ``VectorRounds``' / ``RoundBatch``'s actor of
a row, the Gymnasium environment's seat when ``step`` returns).  That is what the environments
hand out, and there the observation is the same whatever the tiles the seat cannot see (the
tested leak property).  Why only there: the engine opens a claim window (phase ``claim`` or
``rob``) only when some seat can claim the tile (win, pon, kong or chi), so a seat that is *not*
asked and observed during that window would learn from ``phase`` and ``claim_tile`` that another
seat holds tiles that claim it -- a fact about hidden hands.  A seat that is asked knows the
window is open (it is asked), and nothing in its observation says who else is.  So
``_round.observe(core, seat)`` (and ``MahjongAECEnv.observe`` for an agent that is not selected)
at any other moment is outside the contract; ``RoundBatch`` writes only the actors' rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._round import OBS_MELD_KINDS, observation_fields
from ..errors import ArrayShapeError, RulesetError
from ..families.mahjong.settings import flow_settings
from ..families.registry import DEFAULT_RULESET, get_ruleset, ruleset_names

__all__ = ["OBS_MELD_KINDS", "ObservationLayout", "mahjong_rulesets", "observation_layout"]

_HAND_MAX = 14     # concealed tiles of a seat at most


@dataclass(frozen=True)
class ObservationLayout:
    """The sections of a ruleset's observation vector: ``fields`` (name, shape) in order,
    ``slices`` (name -> slice of the flat vector), ``size`` and ``high`` (the largest value of
    each entry, the upper bound of the environments' observation space)."""

    ruleset: str
    players: int
    discard_cap: int
    fields: tuple[tuple[str, tuple[int, ...]], ...]
    slices: dict[str, slice]
    size: int
    high: npt.NDArray[np.uint8]

    def decode(self, obs: npt.NDArray[np.uint8]) -> dict[str, npt.NDArray[np.uint8]]:
        """The sections of one observation ``(size,)`` or of a batch ``(N, size)``, as views
        shaped ``shape`` or ``(N, *shape)``."""
        a = np.asarray(obs)
        if a.ndim not in (1, 2) or a.shape[-1] != self.size or a.dtype != np.uint8:
            raise ArrayShapeError(f"an observation of {self.ruleset} is uint8 of shape ({self.size},) or "
                                  f"(N, {self.size}), got {a.dtype} {a.shape}")
        lead = a.shape[:-1]
        return {name: a[..., self.slices[name]].reshape(lead + shape) for name, shape in self.fields}


def _high(fields: tuple[tuple[str, tuple[int, ...]], ...], players: int, wall: int) -> npt.NDArray[np.uint8]:
    parts = []
    for name, shape in fields:
        n = int(np.prod(shape))
        if name == "hand":
            top = np.full(n, 4)
        elif name == "melds":
            top = np.tile([len(OBS_MELD_KINDS) - 1, 34, 34, players], n // 4)
        elif name == "discards":
            top = np.full(n, 34)
        elif name == "wall":
            top = np.full(n, wall)
        elif name == "hand_sizes":
            top = np.full(n, _HAND_MAX)
        else:   # one-hots and flags
            top = np.ones(n)
        parts.append(top)
    return np.concatenate(parts).astype(np.uint8)


def mahjong_rulesets() -> list[str]:
    """The rulesets the learning environments play: every registered mahjong ruleset."""
    return [n for n in ruleset_names() if get_ruleset(n).family == "mahjong"]


_LAYOUTS: dict[str, ObservationLayout] = {}


def _layout(ruleset: str) -> ObservationLayout:
    players = get_ruleset(ruleset).players
    wall = 2 * flow_settings(ruleset).stacks
    discard_cap = wall - 13 * players
    fields = tuple((name, tuple(shape)) for name, shape in observation_fields(players, discard_cap))
    slices: dict[str, slice] = {}
    at = 0
    for name, shape in fields:
        n = int(np.prod(shape))
        slices[name] = slice(at, at + n)
        at += n
    return ObservationLayout(ruleset, players, discard_cap, fields, slices, at, _high(fields, players, wall))


def observation_layout(ruleset: Any = DEFAULT_RULESET) -> ObservationLayout:
    """The :class:`ObservationLayout` of a mahjong ruleset (a name or a registered record)."""
    name = get_ruleset(ruleset).name
    if name not in mahjong_rulesets():
        raise RulesetError(f"the learning environments play the mahjong rulesets ({', '.join(mahjong_rulesets())}), "
                           f"not {name!r}")
    if name not in _LAYOUTS:
        _LAYOUTS[name] = _layout(name)
    return _LAYOUTS[name]
