"""Stubs of the compiled fan evaluator (``src/mahjong_core/_fan.pyx``)."""

from typing import Any, Iterable

import numpy as np
from numpy.typing import NDArray
from typing_extensions import disjoint_base

from ._types import FlowersLike, HandLike, Int, MeldLike, TileLike, WindLike
from .families.mahjong.rulesetdef import Ruleset
from .families.mahjong.scoring import Score

FLAG_SELF_DRAWN: int
FLAG_LAST_TILE: int
FLAG_KONG_REPLACEMENT: int
FLAG_FLOWER_REPLACEMENT: int
FLAG_ROBBING_KONG: int
FLAG_LAST_OF_KIND: int
FLAG_READY_DECLARED: int
FLAG_READY_CONCEALED: int
FLAG_HEAVENLY: int
FLAG_EARTHLY: int
FLAG_HUMANLY: int
FLAG_HEAVENLY_READY: int

OPT_CAISHEN_ENABLED: int
OPT_CAISHEN_USED_AS_WILD: int
OPT_LITERAL_FIRST_TURN: int
OPT_BLOOM_LAST_TILE: int
OPT_BLOOM_KONGS_ONLY: int
OPT_CHECK_FLAGS: int
"""Refuse flags that contradict each other or the hand (FlagError); set by score / score_batch."""

MELD_CHI: int
MELD_PON: int
MELD_KONG: int
MELD_CKONG: int
MELD_NONE: int

MAX_MIN_FAN: int
FORM_NAMES: tuple[str, str, str, str, str]
FAN_IDS: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]

def fan_count(ruleset_code: int) -> int: ...
def fan_ids(ruleset_code: int) -> tuple[str, ...]: ...
def evaluate(
    ruleset_code: int,
    concealed: Any,
    win_tile: int,
    melds: Any,
    flags: int,
    flowers: int,
    seat_wind: int,
    round_wind: int,
    min_fan: int,
    options: int,
    out_counts: Any,
) -> tuple[int, int, int]: ...
def evaluate_batch(
    ruleset_code: int,
    concealed_arg: NDArray[np.uint8],
    win_tiles_arg: NDArray[np.int16],
    melds_arg: NDArray[np.uint8],
    flags_arg: NDArray[np.uint32],
    flowers_arg: NDArray[np.uint32],
    seat_winds_arg: NDArray[np.uint8],
    round_winds_arg: NDArray[np.uint8],
    min_fan: int,
    options_arg: int,
    threads: int = 1,
) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.uint16]]: ...
def batch_columns_plain(
    n: int,
    win_tiles_arg: Any,
    melds_arg: Any,
    flags_arg: Any,
    flowers_arg: Any,
    seat_winds_arg: Any,
    round_winds_arg: Any,
    all_flags: int,
) -> bool: ...

DEFAULT_RULESET: str
WIND_NAMES: dict[str, int]

@disjoint_base
class ScoreBase:
    """Storage of :class:`mahjong_core.Score` (its fields; the per-fan counts in C until read)."""

    ruleset: str
    total: int
    non_flower_total: int
    min_fan: int
    form_code: int
    _counts: NDArray[Any]

def score(
    hand: HandLike, win_tile: TileLike | None = None, *, melds: Iterable[MeldLike] = (), self_drawn: bool = False,
        last_tile: bool = False, kong_replacement: bool = False, flower_replacement: bool = False,
        robbing_kong: bool = False, last_of_kind: bool = False, ready: bool = False,
        ready_concealed: bool | None = None, heavenly: bool = False, earthly: bool = False,
        humanly: bool = False, heavenly_ready: bool = False, flowers: FlowersLike = 0,
        seat_wind: WindLike | None = None, round_wind: WindLike | None = None, ruleset: str | Ruleset = "two-player",
        min_fan: Int | None = None,
    caishen_enabled: bool = False, caishen_used_as_wild: bool = False,
    literal_first_turn_exclusions: bool = False, replacement_bloom: str = "any", **family_options: Any,
) -> Score: ...

@disjoint_base
class Scorer:
    def __init__(self, ruleset: str | Ruleset = "two-player", *, min_fan: Int | None = None, caishen_enabled: bool = False,
                 caishen_used_as_wild: bool = False, literal_first_turn_exclusions: bool = False,
                 replacement_bloom: str = "any") -> None: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def min_fan(self) -> int: ...
    def score(
        self, hand: HandLike, win_tile: TileLike | None = None, *, melds: Iterable[MeldLike] = (),
        self_drawn: bool = False, last_tile: bool = False, kong_replacement: bool = False,
        flower_replacement: bool = False, robbing_kong: bool = False, last_of_kind: bool = False,
        ready: bool = False, ready_concealed: bool | None = None, heavenly: bool = False, earthly: bool = False,
        humanly: bool = False, heavenly_ready: bool = False, flowers: FlowersLike = 0,
        seat_wind: WindLike | None = None, round_wind: WindLike | None = None,
    ) -> Score: ...
    def __call__(self, hand: HandLike, win_tile: TileLike | None = None, **kwargs: Any) -> Score: ...
