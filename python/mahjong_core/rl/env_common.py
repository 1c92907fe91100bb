"""What both environments share: their settings' checks, their Gymnasium spaces, the rule of
illegal actions and rendering.  A seat's observation is a dict of its encoded view
(``"observation"``, :mod:`mahjong_core.rl.encoding`, bounded by the layout's ``high``) and its
legal-action mask (``"action_mask"``, int8, one entry per action id of the ruleset's family:
110 for mahjong, :mod:`mahjong_core.families.mahjong.actions`; 259 for long cards); an action is a
mask index (``Discrete(layout.action_size)``).

Illegal actions, one rule (:func:`legal_action`): an action is legal when it is an integer -- a
Python ``int``, a NumPy integer or a 0-d NumPy integer array, never a ``bool`` -- whose entry in
the acting seat's mask is 1.  Anything else is an illegal action, whatever is wrong with it: an
index outside the mask, a masked index, a float (even ``3.0``, NumPy's included), a ``bool``,
``None``, a string, an array of any other shape.  Every illegal action is treated alike: the
Gymnasium environment with ``illegal_action="terminate"`` ends the episode with its
``illegal_reward``; with ``"raise"``, and always in the PettingZoo environment,
:class:`~mahjong_core.errors.IllegalActionError` is raised.  Either way the round is unchanged.
(:class:`~mahjong_core.rl.VectorRounds` takes a batch: see its ``step``.)"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._extras import missing_extra
from .._validate import is_int, short_repr
from ..errors import IllegalActionError, MahjongError
from .encoding import ObservationLayout, observation_layout
from .hooks import EnvRound, RlHooks, rl_hooks
from .render import RENDER_MODES
from .rewards import RewardRule
from .rounds import deal_env_round

try:
    from gymnasium import spaces
except ModuleNotFoundError as _missing:   # the rl extra is not installed: say how to install it
    raise missing_extra(_missing.name or "gymnasium", __name__, "rl") from None

__all__ = ["METADATA", "RENDER_MODES", "EnvSettings", "legal_action", "observation_space", "render"]

METADATA: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}
"""The metadata both environments declare (Gymnasium's keys; PettingZoo adds its own)."""


def observation_space(ruleset: str) -> spaces.Dict:
    """The observation space of a seat of ``ruleset``."""
    layout = observation_layout(ruleset)
    return spaces.Dict({
        "observation": spaces.Box(low=np.zeros(layout.size, np.uint8), high=layout.high, dtype=np.uint8),
        "action_mask": spaces.Box(low=0, high=1, shape=(layout.action_size,), dtype=np.int8),
    })


def legal_action(core: Any, seat: int, action: Any, size: int = 110) -> int:
    """The mask index ``action`` names, when it is a legal action of ``seat`` now (the rule in
    the module docstring; ``size``: the mask's entries); :class:`IllegalActionError` saying what
    is wrong otherwise."""
    if is_int(action) or (type(action) is np.ndarray and action.shape == () and action.dtype.kind in "iu"):
        try:
            i = int(action)
        except Exception:   # noqa: BLE001 - an integer subclass whose __int__ fails names no index
            raise IllegalActionError(f"action {short_repr(action)} names no mask index") from None
        if not 0 <= i < size:
            raise IllegalActionError(f"action {short_repr(i)} is not a mask index (0-{size - 1})")
        if not core.is_legal(seat, i):
            raise IllegalActionError(f"action {i} is not legal for seat {seat} now")
        return i
    raise IllegalActionError(f"an action is a mask index, an integer 0-{size - 1}; got "
                             f"{short_repr(action)} ({type(action).__name__})")


class EnvSettings:
    """The checked settings of an environment: ``layout`` (:class:`ObservationLayout`), the
    family's ``hooks``, the ``reward_rule``, the game ``options`` (refused here when bad, not at
    the first reset) and the ``render_mode`` (None, ``"human"`` or ``"ansi"``: :func:`render`)."""

    __slots__ = ("hooks", "layout", "options", "render_mode", "reward_rule", "ruleset")

    def __init__(self, ruleset: str, reward: str, room: Any, options: dict[str, Any] | None,
                 render_mode: str | None) -> None:
        self.layout: ObservationLayout = observation_layout(ruleset)
        self.ruleset = self.layout.ruleset
        self.hooks: RlHooks = rl_hooks(self.ruleset)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise MahjongError(f"render_mode must be None, {' or '.join(map(repr, RENDER_MODES))}, "
                               f"got {short_repr(render_mode)}")
        self.render_mode = render_mode
        self.reward_rule = RewardRule(self.ruleset, reward, room)
        deal_env_round(self.ruleset, np.random.default_rng(0), options)    # bad options are refused here
        self.options = options


def render(mode: str | None, dealt: Any, seat: int, hooks: RlHooks | None = None) -> str | None:
    """What ``render()`` gives in ``mode``: the table of ``seat``'s view of the dealt round (an
    :class:`~mahjong_core.rl.hooks.EnvRound`, or the family's public round itself) drawn by the
    family's ``hooks`` (:mod:`mahjong_core.rl.render`; found from the round's ruleset when not
    given), returned (``"ansi"``) or printed (``"human"``, returns None)."""
    if mode is None:
        return None
    if dealt is None:
        raise MahjongError("nothing to render before the first reset()")
    rnd = dealt.round if isinstance(dealt, EnvRound) else dealt
    table = (hooks or rl_hooks(rnd.ruleset)).table
    text: str = table(rnd.view(seat))
    if mode == "ansi":
        return text
    print(text)
    return None
