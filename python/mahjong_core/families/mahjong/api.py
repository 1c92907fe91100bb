"""The mahjong family's round API in one place: its rounds and matches, actions, bots, flow
settings, redaction, the wall script and the invariants of play.

``mahjong_core`` re-exports the everyday names (``mj.Round``, ``mj.Match``, ``mj.GreedyBot`` ...);
this module holds the rest for code that drives mahjong rounds directly.  These names were
also offered by :mod:`mahjong_core.game` until it became the family-neutral layer: there they
still work, with a ``DeprecationWarning`` naming this module (registered by
:mod:`.family` through :func:`mahjong_core.game.register_legacy_names`).

>>> from mahjong_core.families.mahjong.api import GreedyBot, Round
>>> r = Round("two-player", seed=7)
>>> seat = r.seats_to_act()[0]
>>> GreedyBot().act(r, seat) in r.legal_actions(seat)
True
"""

from __future__ import annotations

from .actions import ACTION_SIZE, PASS, Action, Chi, DeclareReady, Discard, Kong, Pass, Pon, Win, action_from_dict
from .bots import GreedyBot, RandomBot
from .match import Match
from .round import Round, RoundResult
from .round_invariants import check_invariants
from .round_views import redact_event, redact_events
from .settings import FlowSettings, flow_settings
from .wall import script_wall

__all__ = [
    "Round", "RoundResult", "Match", "RandomBot", "GreedyBot",
    "Action", "Discard", "Chi", "Pon", "Kong", "Win", "Pass", "DeclareReady", "action_from_dict",
    "ACTION_SIZE", "PASS", "FlowSettings", "flow_settings", "redact_event", "redact_events", "script_wall",
    "check_invariants",
]
