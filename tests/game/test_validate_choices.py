"""The shared checks of a choice among names and of a CPU cap in milliseconds (mahjong_core._validate),
which every search bot's parameters go through."""

from __future__ import annotations

import math

import pytest

from mahjong_core._validate import as_cap_ms, as_choice
from mahjong_core.errors import MahjongError


def test_a_choice_is_one_of_the_names_or_none_when_allowed() -> None:
    assert as_choice("net", "objective", ("net", "win")) == "net"
    assert as_choice(None, "opponents", ("history",), none=True) is None
    for bad in (None, "Net", "", 1, b"net", ["net"]):
        with pytest.raises(MahjongError, match=r"objective must be one of net, win, got"):
            as_choice(bad, "objective", ("net", "win"))
    with pytest.raises(MahjongError, match=r"opponents must be None or one of history, got 'psychic'"):
        as_choice("psychic", "opponents", ("history",), none=True)


def test_a_cap_is_none_or_a_finite_positive_number_within_its_bound() -> None:
    assert as_cap_ms(None) is None
    assert as_cap_ms(45) == 45.0 and isinstance(as_cap_ms(45), float)
    assert as_cap_ms(3_600_000) == 3_600_000.0
    for bad in (0, -1, math.nan, math.inf, True, "50", 3_600_001):
        with pytest.raises(MahjongError, match="max_ms must be None or a number of milliseconds above 0"):
            as_cap_ms(bad)
    with pytest.raises(MahjongError, match=r"at most 600000"):
        as_cap_ms(600_001, hi=600_000)
