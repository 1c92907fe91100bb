"""Type stubs of the compiled inner loops of the fan-aware shanten search ``mahjong_core._advise``
(private: used by :mod:`mahjong_core.families.mahjong.fan_shanten`)."""

import numpy as np
import numpy.typing as npt

def fill_groups(seeds: npt.NDArray[np.uint8], lefts: npt.NDArray[np.int32], costs: npt.NDArray[np.int32],
                base: npt.NDArray[np.int16], cap: npt.NDArray[np.int16], groups: npt.NDArray[np.int32],
                pairs: npt.NDArray[np.int32], budget: int) -> npt.NDArray[np.uint8]: ...
def seven_pairs(base: npt.NDArray[np.int16], cap: npt.NDArray[np.int16], kinds: npt.NDArray[np.int32],
                budget: int) -> npt.NDArray[np.uint8]: ...
def reachable_wins(ws: npt.NDArray[np.uint8], hands: npt.NDArray[np.uint8], live: npt.NDArray[np.uint8],
                   low: int, budget: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int16]]: ...
def fewest_draws(ws: npt.NDArray[np.int16], wins: npt.NDArray[np.int16], keep: npt.NDArray[np.uint8],
                 hands: npt.NDArray[np.uint8], live: npt.NDArray[np.uint8],
                 ) -> list[tuple[int, npt.NDArray[np.intp], npt.NDArray[np.int16]]]: ...
