"""Game flow shared by every family (the round API base, the validated state boundary, views,
the match, the bot protocol), and the mahjong names it has always offered: rounds and matches of
the mahjong rulesets (spec section 2), the built-in bots, views and redaction.

Saved rounds and matches are loaded through a validated boundary (:mod:`.state`): a state is
rebuilt from its log's header and actions and compared field by field, never copied into the
engine; :func:`check_invariants` states the invariants of play explicitly.
:func:`~mahjong_core.game.state.load_state` loads a saved round or match of any family.

>>> from mahjong_core.game import Round, GreedyBot, play_round
>>> r = Round("two-player", seed=7)
>>> res = play_round(r, [GreedyBot(), GreedyBot()])
>>> r.is_over
True
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..families.mahjong.actions import (
    ACTION_SIZE, PASS, Action, Chi, DeclareReady, Discard, Kong, Pass, Pon, Win, action_from_dict,
)
from .bots import play_match, play_round
from .state import load_state

if TYPE_CHECKING:   # the lazily imported names below, for type checkers
    from ..families.mahjong.bots import GreedyBot, RandomBot
    from ..families.mahjong.match import Match
    from ..families.mahjong.round import Round, RoundResult
    from ..families.mahjong.round_invariants import check_invariants
    from ..families.mahjong.round_views import redact_event, redact_events
    from ..families.mahjong.settings import FlowSettings, flow_settings
    from ..families.mahjong.wall import script_wall

__all__ = [
    "Round", "RoundResult", "Match", "RandomBot", "GreedyBot", "play_round", "play_match",
    "Action", "Discard", "Chi", "Pon", "Kong", "Win", "Pass", "DeclareReady", "action_from_dict",
    "ACTION_SIZE", "PASS", "FlowSettings", "flow_settings", "redact_event", "redact_events", "script_wall",
    "check_invariants", "load_state",
]

# The mahjong family's round names, imported on first use: the family's modules import this
# package's shared modules, so importing them here at once would be an import circle.
_MAHJONG = {
    "Round": "round", "RoundResult": "round", "Match": "match", "check_invariants": "round_invariants",
    "FlowSettings": "settings", "flow_settings": "settings", "redact_event": "round_views",
    "redact_events": "round_views", "script_wall": "wall", "GreedyBot": "bots", "RandomBot": "bots",
}


def __getattr__(name: str) -> Any:
    module = _MAHJONG.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"..families.mahjong.{module}", __name__), name)
    globals()[name] = value
    return value
