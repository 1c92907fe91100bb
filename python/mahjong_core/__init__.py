"""mahjong-core: a fast, exact rules engine for Chinese mahjong.

The hot paths (win check, waiting tiles, shanten) are compiled Cython over
tile-count arrays and lookup tables; this package is the Python API around
them.  There is no pure-Python fallback: if the compiled core is missing the
import fails.  A slow reference implementation lives in ``mahjong_core.families.mahjong._ref``
and serves as the test oracle.

>>> import mahjong_core as mj
>>> mj.is_win("11123456789999m")
True
>>> mj.waits("1112345678999m")
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

__version__ = "0.1.0"

import sys as _sys

from .errors import (
    ArrayShapeError,
    HandSizeError,
    MahjongError,
    RulesetError,
    TileCountError,
    TileParseError,
    UnsupportedError,
)
from .families.mahjong import fan_tables, rulesets, tiles

# The old module paths of the mahjong family's data modules (``mahjong_core.tiles``,
# ``.rulesets``, ``.fan_tables``) are the very same module objects, not
# copies: users and the compiled modules import them by those names.  Registered before the
# compiled modules are imported, as they import ``mahjong_core.rulesets`` and ``.tiles``.
_sys.modules.update({__name__ + ".fan_tables": fan_tables, __name__ + ".rulesets": rulesets,
                     __name__ + ".tiles": tiles})

from .families.mahjong.hand import (
    FORMS,
    Hand,
    form_is_win,
    form_shanten,
    is_win,
    is_win_batch,
    live_waits,
    mask_to_tiles,
    shanten,
    shanten_batch,
    waits,
    waits_batch,
    waits_mask,
)
from .errors import (
    BotzoneForfeit,
    BotzoneHistoryError,
    BotzoneProtocolError,
    FlagError,
    IllegalActionError,
    LedgerError,
    NotWinningHandError,
    RoomEntryError,
    JoinError,
    JoinLimit,
    JoinUnavailable,
    SeatError,
    SimulationError,
    StateError,
    StoreError,
)
from .families.mahjong.fan_tables import FanDef, fan_table
from .families.mahjong.rulesets import RULESET_NAMES, RULESETS, Ruleset, get_ruleset
from .families.mahjong.scoring import Fan, Score, Scorer, score, score_batch
from .families.mahjong.fan_shanten import FanShanten, TargetShanten, fan_shanten
from .families.mahjong.advise import Advice, DiscardOption, LiveTile, advise
from .families.mahjong.api import GreedyBot, Match, RandomBot, Round, RoundResult
from .game import play_match, play_round
from .simulation import SimulationResult, simulate
from .tournament import TournamentResult, tournament
from .families.mahjong import family as _family  # noqa: F401 - registers the mahjong family's callables
from .families import longcard as _longcard  # noqa: F401 - registers the long-card family (changpai-ydr)
from .game import contract as _contract

# mj.Round and mj.Match, the default family's classes, are the public face of every family's rounds
# and matches (game/contract.py): a ruleset of another family is built, loaded and replayed by that
# family's registered classes, and isinstance holds for every family's round and match
_contract.public_face(_contract.Round)(Round)
_contract.public_face(_contract.Match)(Match)
from .families.mahjong.tiles import (
    format_counts,
    format_tiles,
    parse_hand,
    parse_tiles,
    tile_glyph,
    tile_name,
    to_counts,
)

__all__ = [
    "__version__",
    "MahjongError",
    "TileParseError",
    "TileCountError",
    "HandSizeError",
    "RulesetError",
    "UnsupportedError",
    "ArrayShapeError",
    "NotWinningHandError",
    "IllegalActionError",
    "SeatError",
    "StateError",
    "FlagError",
    "LedgerError",
    "RoomEntryError",
    "JoinError",
    "JoinLimit",
    "JoinUnavailable",
    "StoreError",
    "BotzoneProtocolError",
    "BotzoneHistoryError",
    "BotzoneForfeit",
    "SimulationError",
    "FanDef",
    "fan_table",
    "Fan",
    "Score",
    "Scorer",
    "score",
    "score_batch",
    "fan_shanten",
    "FanShanten",
    "TargetShanten",
    "advise",
    "Advice",
    "DiscardOption",
    "LiveTile",
    "Round",
    "RoundResult",
    "Match",
    "GreedyBot",
    "RandomBot",
    "play_round",
    "play_match",
    "simulate",
    "SimulationResult",
    "tournament",
    "TournamentResult",
    "FORMS",
    "Hand",
    "is_win",
    "waits",
    "waits_mask",
    "live_waits",
    "shanten",
    "form_shanten",
    "form_is_win",
    "is_win_batch",
    "waits_batch",
    "shanten_batch",
    "mask_to_tiles",
    "RULESETS",
    "RULESET_NAMES",
    "Ruleset",
    "get_ruleset",
    "parse_tiles",
    "parse_hand",
    "to_counts",
    "format_tiles",
    "format_counts",
    "tile_name",
    "tile_glyph",
]
