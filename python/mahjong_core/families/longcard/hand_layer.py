"""The long-card family's side of the shared hand-level entry points (issue 28, item 4):
``Family.hand_layer`` (:class:`mahjong_core.families.hooks.HandLayer`).

``mj.advise``, ``mj.Hand`` and the batch calls with ``ruleset="changpai-ydr"`` reach these:

``Hand``
    :class:`LongcardHand`: the concealed cards (21 counts) with the declared groups and the banker
    flag, updated in place with :meth:`~LongcardHand.add` / :meth:`~LongcardHand.remove`, answering
    ``is_win`` (21 effective cards), ``waits`` (20), ``shanten`` and ``cards_to_win`` (20 or 21;
    :mod:`.distance`).
``is_win_batch``, ``waits_batch``, ``score_batch``
    the compiled batch calls of :mod:`mahjong_core._lc_hand` over ``(N, 21)`` count arrays of the
    long-card index scheme (no declared groups: rows of 21 cards for a win, 20 for waits; waits are a
    ``uint32`` bit mask, bit f = face f).  The arrays are validated here at entry -- shape, integer
    dtype, every count 0-5 -- before the compiled loops, which run without bounds checks.
    ``score_batch(hands, win_cards)`` takes the 20 cards before the card and the winning faces, as
    mahjong's does, and returns ``(fan, tuo)`` int16 arrays (-1 where a row is no win).
``shanten_batch``
    the distance minus one of every 20- or 21-card row (int8), computed row by row in Python.

``mj.Scorer`` and ``mj.fan_shanten`` are not offered: the long-card fan needs no configured
scorer (``mj.score`` takes its options) and has no fan-aware shanten; they refuse with the
``UnsupportedError`` naming the family.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._validate import as_flag, short_repr
from ...errors import ArrayShapeError, HandSizeError, MahjongError, RulesetError, TileCountError
from .. import registry
from ..hooks import HandLayer
from .cards import COPIES, N_FACES, face_name, format_cards, parse_card, to_counts
from .groups import Group, parse_declared
from .options import check_value
from .ruleset import FAMILY_NAME

__all__ = ["LongcardHand", "HAND_LAYER", "counts_2d"]

_U8 = np.dtype(np.uint8)


def _check(ruleset: Any) -> str:
    record = registry.get_ruleset(ruleset)
    if record.family != FAMILY_NAME:
        raise RulesetError(f"{record.name!r} is not a long-card ruleset")
    return record.name


def counts_2d(hands: Any, what: str = "hands") -> np.ndarray:
    """An ``(N, 21)`` C-contiguous uint8 count array from any integer array or nested list, every
    count checked 0-5 before the cast (so nothing wraps around); an ArrayShapeError names a wrong
    shape or dtype, a TileCountError the row and face of a bad count."""
    try:
        arr = hands if isinstance(hands, np.ndarray) else np.asarray(hands)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ArrayShapeError(f"{what}: expected an (N, 21) array of card counts ({exc})") from None
    if arr.ndim != 2 or arr.shape[1] != N_FACES:
        raise ArrayShapeError(f"{what}: expected an (N, 21) array of card counts, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ArrayShapeError(f"{what}: card counts must be integers (uint8), got dtype {arr.dtype}")
    bad = np.argwhere((arr < 0) | (arr > COPIES))
    if bad.size:
        r, f = (int(v) for v in bad[0])
        raise TileCountError(f"{what}: row {r}: {int(arr[r, f])} copies of {face_name(f, 'pips')}; each face has 0-5")
    return np.ascontiguousarray(arr, dtype=_U8)


_WIN_KEYS = ("win_split_kan", "all_black_waives_tuo")
_SCORE_KEYS = ("banker", "jiang", "caishen", "wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces", "fan_cap",
               "kan_as_peng", "win_split_kan", "all_black_waives_tuo", "caishen_count")


def _only(options: dict[str, Any], keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """``options`` when every key is one of ``keys`` (a MahjongError naming the first other one)."""
    for key in options:
        if key not in keys:
            raise MahjongError(f"{what}: {short_repr(key)} is not one of its options ({', '.join(keys)})")
    return options


def _rows_of(arr: np.ndarray, sizes: tuple[int, ...], what: str) -> None:
    n = arr.sum(axis=1, dtype=np.int64)
    bad = np.flatnonzero(~np.isin(n, sizes))
    if bad.size:
        r = int(bad[0])
        raise HandSizeError(f"{what}: row {r} holds {int(n[r])} cards; expected {' or '.join(map(str, sizes))}")


def is_win_batch(hands: Any, *, ruleset: Any = "changpai-ydr", banker: bool = False, **options: Any) -> np.ndarray:
    """Win check of every row of an ``(N, 21)`` array of 21-card hands -> bool (N,)."""
    _check(ruleset)
    from ... import _lc_hand
    arr = counts_2d(hands)
    _rows_of(arr, (21,), "is_win_batch")
    return _lc_hand.is_win_batch(arr, as_flag(banker, "banker"), **_only(options, _WIN_KEYS, "is_win_batch"))


def waits_batch(hands: Any, *, ruleset: Any = "changpai-ydr", banker: bool = False, **options: Any) -> np.ndarray:
    """Waits of every row of an ``(N, 21)`` array of 20-card hands -> uint32 bit masks (bit f = face f)."""
    _check(ruleset)
    from ... import _lc_hand
    arr = counts_2d(hands)
    _rows_of(arr, (20,), "waits_batch")
    return _lc_hand.waits_batch(arr, as_flag(banker, "banker"), **_only(options, _WIN_KEYS, "waits_batch"))


def shanten_batch(hands: Any, *, ruleset: Any = "changpai-ydr", banker: bool = False, **options: Any) -> np.ndarray:
    """The distance minus one (:func:`.distance.shanten`) of every 20- or 21-card row -> int8 (N,)."""
    _check(ruleset)
    from .distance import shanten
    arr = counts_2d(hands)
    _rows_of(arr, (20, 21), "shanten_batch")
    flag = as_flag(banker, "banker")
    _only(options, _WIN_KEYS, "shanten_batch")
    out = np.empty(len(arr), np.int8)
    for i, row in enumerate(arr):
        value = shanten(row, banker=flag, **options)
        assert value is not None   # no declared group: 7 red 坎 are always within the deck
        out[i] = value
    return out


def score_batch(hands: Any, win_cards: Any, *, ruleset: Any = "changpai-ydr", **options: Any
                ) -> tuple[np.ndarray, np.ndarray]:
    """Fan (after the cap) and 陀 of every row: ``hands`` (N, 21) counts of the 20 cards before the
    winning card, ``win_cards`` (N,) its faces 0-20; int16 arrays, -1 where a row is no win."""
    _check(ruleset)
    from ... import _lc_hand
    arr = counts_2d(hands)
    _rows_of(arr, (20,), "score_batch")
    try:
        cards = np.asarray(win_cards)
    except (ValueError, TypeError) as exc:
        raise ArrayShapeError(f"score_batch: win cards must be an (N,) array of faces ({exc})") from None
    if cards.shape != (len(arr),) or (cards.size and cards.dtype.kind not in "iu"):
        raise ArrayShapeError(f"score_batch: expected ({len(arr)},) integer win cards, got {short_repr(win_cards)}")
    bad = np.flatnonzero((cards < 0) | (cards >= N_FACES))
    if bad.size:
        raise TileCountError(f"score_batch: row {int(bad[0])}: win card {int(cards[bad[0]])} is not a face 0-20")
    full = arr.copy()
    full[np.arange(len(arr)), cards.astype(np.intp)] += 1
    over = np.flatnonzero(full.max(axis=1, initial=0) > COPIES)
    if over.size:
        r = int(over[0])
        raise TileCountError(f"score_batch: row {r}: a 6th copy of {face_name(int(cards[r]), 'pips')}")
    return _lc_hand.score_batch(full, **_only(options, _SCORE_KEYS, "score_batch"))


class LongcardHand:
    """A long-card hand: concealed cards (21 counts), declared groups and the banker flag (the
    threshold), updated in place; ``mj.Hand(cards, ruleset="changpai-ydr")`` builds one.

    >>> h = LongcardHand("46 46 13 16 34 25 14 14 55 55 55", declared=["peng 11×3", "sha 44×4", "sha 66×4"])
    >>> h.waits(), h.shanten()
    ([3, 14, 16], 0)
    >>> h.add("36"); h.is_win(), h.shanten()
    (True, -1)
    """

    __slots__ = ("_counts", "declared", "banker", "ruleset", "_options")

    def __init__(self, cards: Any = "", *, ruleset: Any = "changpai-ydr", declared: Any = None,
                 banker: bool = False, **options: Any) -> None:
        self.ruleset: str = _check(ruleset)
        counts = to_counts(cards)
        groups = parse_declared(declared)
        own = counts.astype(np.int64)
        for g in groups:
            for c in g.cards:
                own[c] += 1
        if own.max(initial=0) > COPIES:
            f = int(np.argmax(own))
            raise TileCountError(f"{face_name(f, 'pips')}: {int(own[f])} copies in the hand and its groups; "
                                 "the deck holds 5")
        limit = 21 - 3 * len(groups)
        if int(counts.sum()) > limit:
            raise HandSizeError(f"{int(counts.sum())} concealed cards with {len(groups)} declared groups: at most {limit}")
        for key, value in options.items():   # spec-6 keys only, each checked once here
            check_value(key, value)
        self._counts = counts
        self.declared: tuple[Group, ...] = groups
        self.banker: bool = as_flag(banker, "banker")
        self._options = dict(options)

    @property
    def counts(self) -> np.ndarray:
        """A copy of the 21 concealed counts."""
        return self._counts.copy()

    def __len__(self) -> int:
        return int(self._counts.sum())

    def __getitem__(self, face: Any) -> int:
        if isinstance(face, (int, np.integer)) and not isinstance(face, bool) and not 0 <= face < N_FACES:
            raise IndexError(f"face {short_repr(face)} out of range 0-20")
        return int(self._counts[parse_card(face)])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LongcardHand):
            return NotImplemented
        return (self.ruleset, self.declared, self.banker, self._options) == (
            other.ruleset, other.declared, other.banker, other._options) and bool((self._counts == other._counts).all())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        declared = f", declared={[f'{g.kind} {format_cards(g.cards)}' for g in self.declared]!r}" if self.declared else ""
        return f"LongcardHand({format_cards(self._counts, counts=True)!r}, ruleset={self.ruleset!r}{declared})"

    def copy(self) -> LongcardHand:
        h = LongcardHand.__new__(LongcardHand)
        h._counts, h.declared, h.banker, h.ruleset, h._options = (
            self._counts.copy(), self.declared, self.banker, self.ruleset, dict(self._options))
        return h

    def _own(self, f: int) -> int:
        return int(self._counts[f]) + sum(g.cards.count(f) for g in self.declared)

    def add(self, card: Any) -> None:
        """Add one card (a face 0-20 or ``"36"``); refuses a 6th copy and a 22nd effective card."""
        f = parse_card(card)
        if self._own(f) >= COPIES:
            raise TileCountError(f"the hand already holds every copy of {face_name(f, 'pips')}")
        if len(self) >= 21 - 3 * len(self.declared):
            raise HandSizeError(f"the hand already holds {len(self)} concealed cards with {len(self.declared)} "
                                "declared groups (21 effective)")
        self._counts[f] += 1

    def remove(self, card: Any) -> None:
        """Remove one card; refuses a card the hand does not hold."""
        f = parse_card(card)
        if not self._counts[f]:
            raise TileCountError(f"the hand holds no {face_name(f, 'pips')}")
        self._counts[f] -= 1

    def _sizes(self, *sizes: int) -> None:
        full = 21 - 3 * len(self.declared)
        wanted = tuple(full - 1 + s for s in sizes)
        if len(self) not in wanted:
            raise HandSizeError(f"{len(self)} concealed cards with {len(self.declared)} declared groups: this "
                                f"question needs {' or '.join(map(str, wanted))}")

    def _win_kw(self) -> dict[str, Any]:
        return {k: v for k, v in self._options.items() if k in ("win_split_kan", "all_black_waives_tuo")}

    def is_win(self) -> bool:
        """True when the 21 effective cards win (spec 4.1)."""
        from ... import _lc_hand
        self._sizes(1)
        return bool(_lc_hand.is_win(self._counts, declared=self.declared, banker=self.banker, **self._win_kw()))

    def waits(self) -> list[int]:
        """The faces that complete the 20 effective cards (spec 4.7)."""
        from ... import _lc_hand
        self._sizes(0)
        return list(_lc_hand.waits(self._counts, declared=self.declared, banker=self.banker, **self._win_kw()))

    def cards_to_win(self) -> int | None:
        """:func:`.distance.cards_to_win` of the hand (20 or 21 effective cards)."""
        from .distance import cards_to_win
        return cards_to_win(self._counts, declared=self.declared, banker=self.banker, **self._options)

    def shanten(self) -> int | None:
        """``cards_to_win - 1`` (-1 a win, 0 ready; None when no win is reachable)."""
        d = self.cards_to_win()
        return None if d is None else d - 1


def _advise_round(rnd: Any, seat: int) -> Any:
    from .advise import advise_round
    return advise_round(rnd, seat)


def _advise(hand: Any, *, ruleset: Any = "changpai-ydr", declared: Any = None, visible: Any = None,
            **options: Any) -> Any:
    """``mj.advise`` for a long-card ruleset: :func:`.advise.advise` (``melds`` are the declared groups)."""
    _check(ruleset)
    from .advise import advise
    melds = options.pop("melds", ())
    return advise(hand, declared=declared if declared is not None else (melds or None), visible=visible, **options)


HAND_LAYER = HandLayer(advise=_advise, hand=LongcardHand, is_win_batch=is_win_batch, waits_batch=waits_batch,
                       shanten_batch=shanten_batch, score_batch=score_batch, advise_round=_advise_round)
"""``Family.hand_layer`` of the long-card family."""
