"""Game flow: rounds and matches of the three rulesets (spec section 2), bots, views.

Saved rounds and matches are loaded through a validated boundary (:mod:`.state`): a state is
rebuilt from its log's header and actions and compared field by field, never copied into the
engine; :func:`check_invariants` states the invariants of play explicitly.

>>> from mahjong_core.game import Round, GreedyBot, play_round
>>> r = Round("two-player", seed=7)
>>> res = play_round(r, [GreedyBot(), GreedyBot()])
>>> r.is_over
True
"""

from .actions import (
    ACTION_SIZE, PASS, Action, Chi, DeclareReady, Discard, Kong, Pass, Pon, Win, action_from_dict,
)
from .bots import GreedyBot, RandomBot, play_match, play_round
from .invariants import check_invariants
from .match import Match
from .round import Round, RoundResult
from ..families.mahjong.settings import FlowSettings, flow_settings
from .views import redact_event, redact_events
from ..families.mahjong.wall import script_wall

__all__ = [
    "Round", "RoundResult", "Match", "RandomBot", "GreedyBot", "play_round", "play_match",
    "Action", "Discard", "Chi", "Pon", "Kong", "Win", "Pass", "DeclareReady", "action_from_dict",
    "ACTION_SIZE", "PASS", "FlowSettings", "flow_settings", "redact_event", "redact_events", "script_wall",
    "check_invariants",
]
