"""The observation encoding of the learning environments: one flat ``uint8`` vector per seat.

Each family's compiled engine writes it from what the seat may see only, and documents its sections
(the table of the family's ``rl`` module: ``mahjong_core.families.<family>.rl``); this module names
them for every ruleset that offers the environments (:func:`rl_rulesets`):
:func:`observation_layout` gives a ruleset's :class:`ObservationLayout` -- the sections' names,
shapes and offsets, the vector's length and the largest value of each entry.  Seats are
*relative*: row ``k`` of a per-seat section is the seat ``k`` places after the observer in turn
order, so the observing seat is always row 0.  The legal actions come as a separate ``int8`` mask
of the family's action ids (``layout.action_size`` entries).

**When an observation is defined: at the seat's decision points only** -- when the seat is the
first to act (the AEC environment's selected agent, ``VectorRounds``' / ``RoundBatch``'s actor of a
row, the Gymnasium environment's seat when ``step`` returns).  That is what the environments hand
out, and there the observation is the same whatever the cards the seat cannot see (the tested leak
property).  Why only there: a claim window opens (mahjong) or asks a seat (long cards) only when
some seat can claim the card, so a seat that is *not* asked, observed during that window, would
learn from it a fact about hidden hands.  A seat that is asked knows the window is open (it is
asked), and nothing in its observation says who else is.  So ``observe(core, seat)`` (and
``env.observe(agent)`` for an agent that is not selected) at any other moment is outside the
contract; the batches write only the actors' rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ArrayShapeError
from ..families.registry import DEFAULT_RULESET, get_ruleset, ruleset_names
from .hooks import rl_hooks, rl_rulesets

__all__ = ["OBS_MELD_KINDS", "ObservationLayout", "build_layout", "mahjong_rulesets", "observation_layout",
           "rl_rulesets"]


@dataclass(frozen=True)
class ObservationLayout:
    """The sections of a ruleset's observation vector: ``fields`` (name, shape) in order,
    ``slices`` (name -> slice of the flat vector), ``size`` and ``high`` (the largest value of
    each entry, the upper bound of the environments' observation space).  ``discard_cap``: the
    most discards (堂子 cards) of one seat the ``discards`` (``tangzi``) section holds;
    ``action_size``: the entries of the legal-action mask."""

    ruleset: str
    players: int
    discard_cap: int
    fields: tuple[tuple[str, tuple[int, ...]], ...]
    slices: dict[str, slice]
    size: int
    high: npt.NDArray[np.uint8]
    action_size: int = 110

    def decode(self, obs: npt.NDArray[np.uint8]) -> dict[str, npt.NDArray[np.uint8]]:
        """The sections of one observation ``(size,)`` or of a batch ``(N, size)``, as views
        shaped ``shape`` or ``(N, *shape)``."""
        a = np.asarray(obs)
        if a.ndim not in (1, 2) or a.shape[-1] != self.size or a.dtype != np.uint8:
            raise ArrayShapeError(f"an observation of {self.ruleset} is uint8 of shape ({self.size},) or "
                                  f"(N, {self.size}), got {a.dtype} {a.shape}")
        lead = a.shape[:-1]
        return {name: a[..., self.slices[name]].reshape(lead + shape) for name, shape in self.fields}


def build_layout(ruleset: str, players: int, discard_cap: int, fields: Sequence[tuple[str, Sequence[int]]],
                 high: Mapping[str, Any], action_size: int) -> ObservationLayout:
    """The :class:`ObservationLayout` of ``fields`` (name, shape) in order; ``high``: each section's
    largest value, a number or an array broadcast to its shape (a family's layout hook builds its
    layouts with this)."""
    fields_t = tuple((name, tuple(int(d) for d in shape)) for name, shape in fields)
    slices: dict[str, slice] = {}
    parts = []
    at = 0
    for name, shape in fields_t:
        n = int(np.prod(shape))
        slices[name] = slice(at, at + n)
        parts.append(np.broadcast_to(np.asarray(high[name]), shape).ravel())
        at += n
    top = np.concatenate(parts).astype(np.uint8)
    top.flags.writeable = False
    return ObservationLayout(ruleset, players, discard_cap, fields_t, slices, at, top, action_size)


def mahjong_rulesets() -> list[str]:
    """The rulesets of the default ruleset's family (the mahjong rulesets, which the environments
    played first; :func:`rl_rulesets` lists every ruleset they play)."""
    return list(ruleset_names(get_ruleset(DEFAULT_RULESET).family))


OBS_MELD_KINDS: tuple[str, ...]
"""The kind names of mahjong's ``melds`` section (index = code): a constant of the default
ruleset's family, looked up when first read (see ``__getattr__``)."""

_LAYOUTS: dict[str, ObservationLayout] = {}


def observation_layout(ruleset: Any = DEFAULT_RULESET) -> ObservationLayout:
    """The :class:`ObservationLayout` of a ruleset (a name or a registered record) whose family
    offers the learning environments; another family's ruleset raises
    :class:`~mahjong_core.errors.UnsupportedError`, an unknown one
    :class:`~mahjong_core.errors.RulesetError`."""
    name = get_ruleset(ruleset).name
    if name not in _LAYOUTS:
        _LAYOUTS[name] = rl_hooks(name).layout(name)
    return _LAYOUTS[name]


def __getattr__(name: str) -> Any:
    if name == "OBS_MELD_KINDS":    # the mahjong melds' kind codes: a constant of the default ruleset's family
        return rl_hooks(DEFAULT_RULESET).names[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
