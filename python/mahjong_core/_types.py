"""The types of the public signatures: what a hand, a tile, a meld or a ruleset may be given as.

One home for them, so that the compiled modules' stubs (``_hand.pyi``, ``_fan.pyi``) and the Python
entry points say the same thing, and a type checker refuses what the functions refuse at run time
(``mj.is_win(123)``: a number is not a hand; ``mj.score(hand, 4.5)``: a float is not a tile).  The
run-time checks stay the authority (every bad value is a :class:`~mahjong_core.errors.MahjongError`);
these aliases only let ``mypy --strict`` see the same rules first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ._hand import Hand

__all__ = ["Int", "HandLike", "HandsLike", "TileLike", "MeldLike", "FlowersLike", "WindLike",
           "MahjongRulesetName", "LongcardRulesetName", "Options"]

Int = Union[int, np.integer[Any]]
"""An integer: Python's or NumPy's (booleans are refused at run time)."""

HandLike = Union[str, npt.NDArray[np.integer[Any]], Sequence[Int], "Hand"]
"""A hand: a tile string (``"123m456p"``; long cards ``"11 66 44"``), a count array or sequence of
counts (34 for mahjong, 21 for long cards), or a :class:`~mahjong_core.Hand`."""

HandsLike = Union[npt.NDArray[np.integer[Any]], Sequence[Sequence[Int]]]
"""N hands at once, an ``(N, 34)`` array of counts (the ``*_batch`` functions)."""

TileLike = Union[Int, str]
"""One tile: an index (0-33 for mahjong) or one tile's text (``"5m"``, ``"E"``, ``"中"``, ``"36"``)."""

MeldLike = Union[str, Sequence[Any]]
"""One declared group: ``"pon CCC"`` (``"peng 66 66 66"`` for long cards) or a ``(kind, tiles)``
pair."""

FlowersLike = Union[Int, str, Iterable[TileLike]]
"""Flowers: a count, or the flower tiles (``"春夏"``, ``"1f2f"``, ``[34, 35]``)."""

WindLike = Union[Int, str]
"""A wind: ``"E"`` ... ``"N"`` (or ``"东"``) or its index 27-30."""

MahjongRulesetName = Literal["two-player", "two-player-bamboo", "public", "mcr"]
"""The mahjong family's rulesets (``mahjong_core.RULESET_NAMES``; a test holds them equal)."""

LongcardRulesetName = Literal["changpai-ydr"]
"""The long-card family's ruleset (``mj.Round``, ``mj.Match``, ``mj.simulate`` and ``mj.score``
give its own types for it)."""

Options = Mapping[str, Any]
"""Rule options by name (a ruleset's flow options, spec 6 for long cards)."""
