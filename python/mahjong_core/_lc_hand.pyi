"""Type stubs of the compiled 长牌 hand layer ``mahjong_core._lc_hand``.

Public names are re-exported by ``mahjong_core.families.longcard`` (and ``mahjong_core.longcard``).
A hand is a card string, a list of face ids or a length-21 ``uint8`` count array; declared groups are
strings such as ``"peng 66 66 66"`` or ``(kind, cards)`` pairs.
"""

from typing import Any, Iterable

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from .families.longcard.groups import Group
from .families.longcard.result import Score

_Counts = npt.NDArray[np.uint8]
_HandLike = str | _Counts | Any
_Declared = Iterable[Any] | None
_Card = int | str

@disjoint_base
class ScoreCore:
    """The fields of a long-card ``Score`` filled by :func:`score` (read-only)."""

    @property
    def total(self) -> int: ...
    @property
    def fan(self) -> int: ...
    @property
    def tuo(self) -> int: ...
    @property
    def banker(self) -> bool: ...
    @property
    def caishen(self) -> int: ...
    @property
    def fan_cap(self) -> int: ...
    @property
    def declared(self) -> tuple[Group, ...]: ...
    @property
    def concealed(self) -> bytes: ...
    @property
    def weights(self) -> tuple[int, ...]: ...
    @property
    def kan_as_peng(self) -> bool: ...
    @property
    def xiang_bonus(self) -> bool: ...

def table_info() -> dict[str, Any]: ...
def _table_value(comp: int, idx: int, keep_kans: bool) -> int: ...
def _pool_tables_built() -> list[bool]: ...
def is_win(hand: _HandLike, *, declared: _Declared = None, banker: bool = False, win_split_kan: bool = True,
           all_black_waives_tuo: bool = False) -> bool: ...
def waits(hand: _HandLike, *, declared: _Declared = None, banker: bool = False, win_split_kan: bool = True,
          all_black_waives_tuo: bool = False) -> list[int]: ...
def score(hand: _HandLike, card: _Card | None = None, *, declared: _Declared = None, banker: bool = False,
          jiang: Any = None, caishen: int = 0, wumenjiang: bool = True, wumenjiang_weight: str = "power_of_two",
          xiang_bonus_on_fan_faces: bool = False, fan_cap: int = 0, kan_as_peng: bool = True,
          win_split_kan: bool = True, all_black_waives_tuo: bool = False, caishen_count: int = 5) -> Score: ...
def wait_scores(hand: _HandLike, *, declared: _Declared = None, banker: bool = False, jiang: Any = None,
                caishen: int = 0, wumenjiang: bool = True, wumenjiang_weight: str = "power_of_two",
                xiang_bonus_on_fan_faces: bool = False, fan_cap: int = 0, kan_as_peng: bool = True,
                win_split_kan: bool = True, all_black_waives_tuo: bool = False,
                caishen_count: int = 5) -> dict[int, tuple[int, int]]: ...
def is_win_batch(counts2d: _Counts, banker: bool = False, win_split_kan: bool = True,
                 all_black_waives_tuo: bool = False) -> npt.NDArray[np.bool_]: ...
def waits_batch(counts2d: _Counts, banker: bool = False, win_split_kan: bool = True,
                all_black_waives_tuo: bool = False) -> npt.NDArray[np.uint32]: ...
def score_batch(counts2d: _Counts, *, banker: bool = False, jiang: Any = None, caishen: int = 0,
                wumenjiang: bool = True, wumenjiang_weight: str = "power_of_two",
                xiang_bonus_on_fan_faces: bool = False, fan_cap: int = 0, kan_as_peng: bool = True,
                win_split_kan: bool = True, all_black_waives_tuo: bool = False,
                caishen_count: int = 5) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]: ...
def counting(hand: _HandLike, declared: _Declared = None, dead: Any = None, *, mao_bonus: str = "live",
             tmax_quad_value: str = "xiang", chi_may_use_kan: bool = False) -> tuple[int, int]: ...
def group_count(hand: _HandLike) -> tuple[int, bool]: ...
def theoretical_fan(hand: _HandLike, declared: _Declared = None, dead: Any = None, *, jiang: Any = None,
                    caishen: int = 0, wumenjiang: bool = True, wumenjiang_weight: str = "power_of_two",
                    xiang_bonus_on_fan_faces: bool = False, kan_as_peng: bool = True,
                    caishen_count: int = 5) -> int: ...
