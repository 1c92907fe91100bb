"""Scoring a winning hand: the fan (番) evaluator's public API.

>>> import mahjong_core as mj
>>> s = mj.score("123m456m789m11mEE", "E", ruleset="two-player", self_drawn=True)
>>> s.total, s.meets_minimum
(27, True)
>>> [(f.zh, f.points, f.count) for f in s.fans]
[('清龙', 16, 1), ('混一色', 6, 1), ('不求人', 4, 1), ('幺九刻', 1, 1)]

(Self-drawn on a concealed hand is 不求人, 4, which excludes 门前清 and 自摸; won on a discard
the same hand scores 25 with 门前清.)

The hand is the concealed tiles *without* the winning tile; the winning tile
is the second argument (``None`` only for 天胡, where the dealer's 14 tiles are
all passed as the hand).  Declared groups are meld strings ``"chi 123m"``,
``"pon CCC"``, ``"kong EEEE"`` (exposed, also an added kong) and
``"ckong 9999m"`` (concealed), or ``(kind, tiles)`` pairs.  Situational fans
come from keyword flags; everything is validated and bad input raises a
:class:`~mahjong_core.errors.MahjongError` naming the problem.  The evaluation
itself runs in the compiled core (``mahjong_core._fan``); the :class:`Score`
it returns builds its fan list lazily, so a server that only needs
``total`` pays for nothing else.
"""

from __future__ import annotations

import functools
import os
from functools import cached_property
from typing import Any, Iterable, overload

import numpy as np

from ... import _fan
from ..._types import FlowersLike, HandLike, HandsLike, Int, MahjongRulesetName, MeldLike, \
    TileLike, WindLike
from ..._validate import as_flag, as_int, bounded_items, is_int
from ...errors import (
    ArrayShapeError, FlagError, HandSizeError, MahjongError, RulesetError, TileCountError, TileParseError,
)
from .fan_tables import fan_table
from .. import registry
from .rulesets import DEFAULT_RULESET, MAX_MIN_FAN, RULESETS, Ruleset, get_ruleset
from ..._validate import short_repr as _short
from ..._fan import Scorer
from ._constants import (
    FLAGS, FORM_NAMES, OPT_BLOOM_KONGS_ONLY, OPT_BLOOM_LAST_TILE, OPT_CAISHEN_ENABLED, OPT_CAISHEN_USED_AS_WILD,
    OPT_CHECK_FLAGS, OPT_LITERAL_FIRST_TURN,
)
from .constants import FAMILY_NAME, MELD_KINDS, MELD_NONE
from ...fan import Fan, ScoreLike   # the one counted-fan row of every family's scores
from .hand import counts_2d
from .tiles import meld_tiles, parse_flowers, parse_tiles, parse_wind, tile_kind, tile_short, to_counts


__all__ = ["Fan", "Score", "Scorer", "MELD_KINDS", "FLAGS", "parse_meld", "score", "score_batch", "score_kwargs",
           "FORM_NAMES"]



_OPT_BLOOM = {"any": 0, "last_tile": OPT_BLOOM_LAST_TILE, "kongs_only": OPT_BLOOM_KONGS_ONLY}
_ALL_FLAGS = sum(FLAGS.values())

_NO_MELDS = np.zeros((0, 2), np.uint8)
_NO_MELDS.flags.writeable = False



class Score(_fan.ScoreBase):
    """The best reading of a winning hand (spec 4.2).  Fields are computed lazily from the
    compiled evaluator's per-fan counts (held in C by the compiled base until first read)."""

    __slots__ = ()     # its __dict__ is the compiled base's (no managed dict: the base's pool reuses Scores)

    def __init__(self, ruleset: str, total: int, non_flower_total: int, min_fan: int, form: int,
                 counts: np.ndarray) -> None:
        self.ruleset = ruleset
        self.total = int(total)
        """Hand value F: all counted fans, flower fans included."""
        self.non_flower_total = int(non_flower_total)
        """Total without flower-derived fans; compared with the minimum (起和)."""
        self.min_fan = int(min_fan)
        self.form_code = int(form)
        self._counts = counts

    @property
    def counts(self) -> np.ndarray:
        """Per-fan counts in table order (the columns of :func:`~mahjong_core.fan_table`), read-only."""
        view = self._counts.view()
        view.flags.writeable = False
        return view

    @property
    def meets_minimum(self) -> bool:
        """True when the non-flower total reaches the ruleset's minimum (起和)."""
        return self.non_flower_total >= self.min_fan

    @property
    def form(self) -> str:
        """``"standard"``, ``"seven_pairs"``, ``"thirteen_orphans"``, ``"honors_knitted"`` or ``"knitted_straight"``."""
        return FORM_NAMES[self.form_code]

    @cached_property
    def fans(self) -> list[Fan]:
        """Counted fans, highest points first (then table order)."""
        table = fan_table(self.ruleset)
        out = [
            Fan(f.id, f.zh, f.en, f.points, int(n))
            for f, n in zip(table, self._counts)
            if n
        ]
        order = {f.id: k for k, f in enumerate(table)}
        out.sort(key=lambda f: (-f.points, order[f.id]))
        return out

    @property
    def fan_counts(self) -> dict[str, int]:
        """``{fan_id: count}`` of the counted fans."""
        return {f.id: f.count for f in self.fans}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "ruleset": self.ruleset,
            "total": self.total,
            "non_flower_total": self.non_flower_total,
            "min_fan": self.min_fan,
            "meets_minimum": self.meets_minimum,
            "form": self.form,
            "fans": [
                {"id": f.id, "name": f.zh, "name_en": f.en, "points": f.points, "count": f.count}
                for f in self.fans
            ],
        }

    def __repr__(self) -> str:
        fans = ", ".join(f"{f.zh}{'×' + str(f.count) if f.count > 1 else ''} {f.total}" for f in self.fans)
        return f"Score(total={self.total}, ruleset={self.ruleset!r}, fans=[{fans}])"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.ruleset, self.total, self.non_flower_total, self.min_fan, self.form_code,
                             self._counts.copy()), self.__dict__ or None)


# ------------------------------------------------------------------ input parsing
def parse_meld(meld: Any) -> tuple[int, int]:
    """``"chi 123m"`` / ``"pon CCC"`` / ``"kong EEEE"`` / ``"ckong 9999m"`` (or ``(kind, tiles)``)
    -> ``(kind code, first tile)``; the tiles must form that group.

    >>> parse_meld("chi 123m"), parse_meld("pon CCC"), parse_meld(("ckong", [8, 8, 8, 8]))
    ((0, 0), (1, 31), (3, 8))
    """
    if isinstance(meld, str):
        kind, _, rest = meld.strip().partition(" ")
        tiles = parse_tiles(rest)
    else:
        try:
            kind, tiles = meld
        except (TypeError, ValueError):
            raise TileParseError(
                f"a meld is a string like 'pon CCC' or a (kind, tiles) pair, got {_short(meld)}") from None
        tiles = parse_tiles(tiles) if isinstance(tiles, str) else _meld_tile_list(tiles, meld)
    if not isinstance(kind, str) or kind.lower() not in MELD_KINDS:
        raise TileParseError(
            f"unknown meld kind {_short(kind)} in {_short(meld)}; expected chi, pon, kong or ckong")
    kind = kind.lower()
    tiles = sorted(tiles)
    if any(t > 33 for t in tiles):
        raise TileParseError(f"meld {_short(meld)} contains a flower")
    if kind == "chi":
        ok = (len(tiles) == 3 and tiles[0] < 27 and tiles[0] % 9 <= 6
              and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2)
        if not ok:
            raise TileParseError(f"chi {_short(meld)} must be three consecutive tiles of one suit")
    else:
        size = 3 if kind == "pon" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise TileParseError(f"{kind} {_short(meld)} must be {size} identical tiles")
    return MELD_KINDS[kind], tiles[0]


def _meld_tile_list(tiles: Any, meld: Any) -> list[int]:
    """The tile indices of a ``(kind, tiles)`` meld; at most 4 are read (a group never has more)."""
    return bounded_items(tiles, 4, _meld_tile, subject=meld, error=TileParseError,
                         not_a_list="the tiles of meld {} must be a tile string or a list of tiles",
                         too_many="meld {} has more than 4 tiles")


def _meld_tile(t: Any) -> int:
    return tile_kind(t, "meld tile")


def _parse_melds(melds: Any) -> list[tuple[int, int]]:
    """Every declared group as ``(kind code, first tile)``; refuses a bare string and a fifth meld
    (without reading the rest of a long iterable)."""
    return bounded_items(melds, 4, parse_meld, error=TileParseError, too_many_error=HandSizeError,
                         string="melds must be a list of melds such as ['pon CCC'], got the string {}",
                         not_a_list="melds must be a list of melds such as ['pon CCC'], got {}",
                         too_many="more than 4 melds: a hand has at most 4 declared groups")


def _flower_mask(flowers: Any, rs: Ruleset) -> int:
    if isinstance(flowers, (bool, np.bool_)):
        raise MahjongError(f"flowers must be a count or flower tiles, got {_short(flowers)}")
    if isinstance(flowers, (int, np.integer)):
        n = int(flowers)
        if not 0 <= n <= 8:
            raise TileCountError(f"flowers={_short(n)}: there are 8 flowers")
        if rs.flowers_scored_by_name and 4 <= n <= 7:
            raise MahjongError(
                f"flowers={n} is ambiguous in {rs.name} (梅兰竹菊 / 春夏秋冬 score which ones): "
                "pass the flower tiles, e.g. flowers='梅兰竹菊' or [38, 39, 40, 41]"
            )
        return (1 << n) - 1
    mask = 0
    for f in parse_flowers(flowers):
        mask |= 1 << (f - 34)
    return mask


def score_kwargs(args: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`score` from a win record's ``score_args`` (melds as
    ``(kind, tiles)`` pairs), as rounds and their checks re-score a win."""
    kw = dict(args)
    kw["melds"] = [(k, list(t)) for k, t in args["melds"]]
    return kw


def _wind(w: Any, what: str) -> int:
    return 27 if w is None else parse_wind(w, what)


def _options(rs: Ruleset, min_fan: Any, caishen_enabled: bool, caishen_used_as_wild: bool,
             literal_first_turn_exclusions: bool, replacement_bloom: str) -> tuple[int, int]:
    mins = rs.min_fan if min_fan is None else as_int(min_fan, "min_fan", 0, MAX_MIN_FAN)
    if not isinstance(replacement_bloom, str) or replacement_bloom not in _OPT_BLOOM:
        raise MahjongError(
            f"replacement_bloom must be one of {', '.join(_OPT_BLOOM)}, got {_short(replacement_bloom)}")
    opts = _OPT_BLOOM[replacement_bloom] | OPT_CHECK_FLAGS   # the public API refuses contradicting flags
    if as_flag(caishen_enabled, "caishen_enabled"):
        opts |= OPT_CAISHEN_ENABLED
    if as_flag(caishen_used_as_wild, "caishen_used_as_wild"):
        opts |= OPT_CAISHEN_USED_AS_WILD
    if as_flag(literal_first_turn_exclusions, "literal_first_turn_exclusions"):
        opts |= OPT_LITERAL_FIRST_TURN
    return mins, opts


def _check_totals(concealed: np.ndarray, win_tile: int, melds: list[tuple[int, int]]) -> None:
    # plain lists: for 34 small ints they beat numpy's per-call overhead
    total = concealed.tolist()
    if win_tile >= 0:
        total[win_tile] += 1
    for kind, first in melds:
        for t in meld_tiles(kind, first):
            total[t] += 1
    if max(total) > 4:
        k = next(i for i, v in enumerate(total) if v > 4)
        raise TileCountError(
            f"{int(total[k])} copies of {tile_short(k)} across the hand, the melds and the winning tile; a tile has only 4"
        )


_MAHJONG_ONLY = {
    "self_drawn": False, "last_tile": False, "kong_replacement": False, "flower_replacement": False,
    "robbing_kong": False, "last_of_kind": False, "ready": False, "ready_concealed": None, "heavenly": False,
    "earthly": False, "humanly": False, "heavenly_ready": False, "flowers": 0, "seat_wind": None,
    "round_wind": None, "min_fan": None, "caishen_enabled": False, "caishen_used_as_wild": False,
    "literal_first_turn_exclusions": False, "replacement_bloom": "any",
}
"""The mahjong keywords of :func:`score` and their defaults: a call for another family's ruleset
must leave them alone."""


def _other_family_score(ruleset: Any, mahjong_args: dict[str, Any]) -> Any:
    """The ``score`` of the registered family of a non-mahjong ruleset, or None for a mahjong one
    (a RulesetError for a name no family knows)."""
    family = registry.family_of(ruleset)
    if family.score is None:
        return None
    changed = [k for k, default in _MAHJONG_ONLY.items() if mahjong_args[k] is not default
               and mahjong_args[k] != default]
    if changed:
        raise MahjongError(f"{changed[0]} is a mahjong option; ruleset {ruleset!r} does not take it")
    return family.score


@overload
def score(hand: HandLike, win_tile: TileLike | None = None, *, ruleset: "MahjongRulesetName | Ruleset" = ...,
          melds: Iterable[MeldLike] = (), self_drawn: bool = False, last_tile: bool = False,
          kong_replacement: bool = False, flower_replacement: bool = False, robbing_kong: bool = False,
          last_of_kind: bool = False, ready: bool = False, ready_concealed: bool | None = None,
          heavenly: bool = False, earthly: bool = False, humanly: bool = False, heavenly_ready: bool = False,
          flowers: FlowersLike = 0, seat_wind: WindLike | None = None, round_wind: WindLike | None = None,
          min_fan: Int | None = None, caishen_enabled: bool = False, caishen_used_as_wild: bool = False,
          literal_first_turn_exclusions: bool = False, replacement_bloom: str = "any") -> Score: ...
@overload
def score(hand: HandLike, win_tile: TileLike | None = None, *, ruleset: str, melds: Iterable[MeldLike] = (),
          **options: Any) -> ScoreLike: ...
def score(
    hand: Any,
    win_tile: Any = None,
    *,
    ruleset: "str | Ruleset" = DEFAULT_RULESET,
    melds: Iterable[Any] = (),
    self_drawn: bool = False,
    last_tile: bool = False,
    kong_replacement: bool = False,
    flower_replacement: bool = False,
    robbing_kong: bool = False,
    last_of_kind: bool = False,
    ready: bool = False,
    ready_concealed: bool | None = None,
    heavenly: bool = False,
    earthly: bool = False,
    humanly: bool = False,
    heavenly_ready: bool = False,
    flowers: Any = 0,
    seat_wind: Any = None,
    round_wind: Any = None,
    min_fan: Int | None = None,
    caishen_enabled: bool = False,
    caishen_used_as_wild: bool = False,
    literal_first_turn_exclusions: bool = False,
    replacement_bloom: str = "any",
    **family_options: Any,
) -> ScoreLike:
    """Score a winning hand under ``ruleset`` and return its best reading (spec 4.2).

    ``hand``: the concealed tiles without the winning tile (tile string or counts).
    ``win_tile``: the winning tile (``"5m"`` or an index); ``None`` only with
    ``heavenly=True`` (天胡: the dealer's 14 tiles are the hand).
    ``melds``: declared groups (``"chi 123m"``, ``"pon CCC"``, ``"kong EEEE"``, ``"ckong 9999m"``).

    Flags: ``self_drawn`` (自摸; implied by ``heavenly``/``earthly``), ``last_tile``
    (妙手回春 when self-drawn, 海底捞月 on the discard after the last wall tile),
    ``kong_replacement`` (杠上开花), ``flower_replacement`` (win on a flower's
    replacement; 杠上开花 only in ``two-player-bamboo``, see ``replacement_bloom``),
    ``robbing_kong`` (抢杠和), ``last_of_kind`` (和绝张: the other three copies were
    visible), ``ready`` (报听 declared; with a concealed hand it scores 立直 in
    ``two-player-bamboo`` — ``ready_concealed`` overrides whether the hand was
    concealed when declared, by default "no exposed meld now"), ``heavenly`` /
    ``earthly`` / ``humanly`` / ``heavenly_ready`` (天胡 地胡 人胡 天听).
    ``flowers``: a count, or the flower tiles (``"春夏1f"``, indices 34-41); in
    ``two-player-bamboo`` counts 4-7 are ambiguous and must be given as tiles.
    ``seat_wind`` / ``round_wind``: ``"E"``/``"S"``/``"W"``/``"N"`` (``public``; default East).
    ``min_fan``: the minimum (起和) the result is compared with (default: the ruleset's, 8).
    Open-point options (spec section 6): ``caishen_enabled``/``caishen_used_as_wild``
    (OP-18), ``literal_first_turn_exclusions`` (OP-23), ``replacement_bloom``
    (OP-28: ``"any"``, ``"last_tile"`` or ``"kongs_only"``).

    和绝张 is also counted, whatever ``last_of_kind`` says, when the three other copies of
    the winning tile are in the winner's own exposed melds (spec D10; a concealed kong is face
    down and does not count).

    Raises :class:`~mahjong_core.errors.NotWinningHandError` if the tiles form no
    winning hand, :class:`~mahjong_core.errors.TileCountError` for a fifth copy
    across hand, melds and winning tile, :class:`~mahjong_core.errors.HandSizeError`
    for a wrong tile count, :class:`~mahjong_core.errors.RulesetError` for a
    tile or a flag the ruleset does not have, :class:`~mahjong_core.errors.TileParseError`
    for a bad tile or meld, and :class:`~mahjong_core.errors.FlagError` for a flag that is
    not ``True``/``False`` or flags that no game can produce together: a first-turn fan
    (天胡/地胡/人胡) with a declared group or with 和绝张, 天胡 with 地胡/报听/天听, 人胡 or
    ``robbing_kong`` self-drawn, a replacement win not self-drawn, ``kong_replacement``
    without a kong, ``robbing_kong`` on the last tile or on a kind the winner holds,
    ``last_of_kind`` while the concealed hand holds a copy, ``ready_concealed`` without
    ``ready``.  Every other bad value is a :class:`~mahjong_core.errors.MahjongError`
    naming the argument.
    """
    if not (type(ruleset) is str and ruleset in RULESETS) and not isinstance(ruleset, Ruleset):
        passed = locals()
        other = _other_family_score(ruleset, passed)
        if other is not None:
            return other(hand, win_tile, ruleset=ruleset, melds=melds, **family_options)  # type: ignore[no-any-return]  # the long-card Score
    if family_options:
        raise TypeError(f"score() got an unexpected keyword argument {next(iter(family_options))!r}")
    rs = get_ruleset(ruleset, "mj.score")
    values = {
        "self_drawn": self_drawn,
        "last_tile": last_tile,
        "kong_replacement": kong_replacement,
        "flower_replacement": flower_replacement,
        "robbing_kong": robbing_kong,
        "last_of_kind": last_of_kind,
        "ready": ready,
        "ready_concealed": False if ready_concealed is None else ready_concealed,
        "heavenly": heavenly,
        "earthly": earthly,
        "humanly": humanly,
        "heavenly_ready": heavenly_ready,
    }
    flags = 0
    for name, bit in FLAGS.items():
        v = values[name]
        if v is True or (v is not False and as_flag(v, name, FlagError)):   # bools without a call
            flags |= bit
    concealed = to_counts(hand)
    win = -1 if win_tile is None else tile_kind(win_tile, "winning tile")
    if win < 0 and not flags & FLAGS["heavenly"]:
        raise MahjongError("win_tile is required (it is left out only with heavenly=True, 天胡)")
    parsed = _parse_melds(melds)
    _check_totals(concealed, win, parsed)
    if ready_concealed is None:
        if flags & FLAGS["ready"] and all(kind == 3 for kind, _ in parsed):
            flags |= FLAGS["ready_concealed"]   # by default: concealed now, so concealed when declared
    elif flags & FLAGS["ready_concealed"] and not flags & FLAGS["ready"]:
        raise FlagError("ready_concealed=True needs ready=True (报听 declared)")
    if flags & (FLAGS["heavenly"] | FLAGS["earthly"]):
        flags |= FLAGS["self_drawn"]   # D7: 天胡 and 地胡 are self-drawn
    mins, opts = _options(rs, min_fan, caishen_enabled, caishen_used_as_wild,
                          literal_first_turn_exclusions, replacement_bloom)
    meld_arr = np.array(parsed, dtype=np.uint8).reshape(-1, 2) if parsed else _NO_MELDS
    counts = np.zeros(_fan.fan_count(rs.code), np.uint16)
    total, non_flower, form = _fan.evaluate(
        rs.code, np.ascontiguousarray(concealed), win, meld_arr, flags, _flower_mask(flowers, rs),
        _wind(seat_wind, "seat_wind"), _wind(round_wind, "round_wind"), mins, opts, counts,
    )
    return Score(rs.name, total, non_flower, mins, form, counts)


_score_checked = score
"""The Python path of :func:`score`: every check and every error message.  The public ``score`` is
the compiled front (``_fan.score``, same signature and documentation), which reads plain arguments
in C and hands every other call to this function."""
# mypy types the wrapper as a functools._Wrapped, not as the def above; the compiled front takes
# the def's parameters exactly (tests/fan/test_score_front.py checks the signature), so the name
# keeps the def's type.
score = functools.update_wrapper(_fan.score, _score_checked)


def score_batch(
    hands: HandsLike,
    win_tiles: np.ndarray,
    *,
    ruleset: "str | Ruleset" = DEFAULT_RULESET,
    melds: np.ndarray | None = None,
    flags: np.ndarray | None = None,
    flowers: np.ndarray | None = None,
    seat_winds: np.ndarray | None = None,
    round_winds: np.ndarray | None = None,
    min_fan: int | None = None,
    threads: int = 1,
    **options: Any,
) -> tuple[np.ndarray, ...]:
    """Score N winning hands at once, in the compiled core without the GIL.

    ``hands``: (N, 34) concealed counts without the winning tile;
    ``win_tiles``: (N,) tile indices (-1 for 天胡); ``melds``: (N, 4, 2) rows
    ``[kind code, first tile]`` (:data:`MELD_KINDS`; kind 255 for no meld); ``flags``:
    (N,) bit sets of :data:`FLAGS`; ``flowers``: (N,) bit sets (bit i = flower 34+i);
    ``seat_winds``/``round_winds``: (N,) 27-30 (default East).  Any integer dtype is
    accepted (lists too); every value is checked before it is narrowed to the compiled
    core's types, so nothing wraps around.

    Returns ``(totals, non_flower_totals, counts)``: int32 (N,), int32 (N,) and the
    uint16 (N, n_fans) count matrix whose columns follow ``fan_table(ruleset)``.
    A row that is invalid or not a winning hand raises the error :func:`score` raises
    for it, its message naming the row (and the column); nothing is returned then.
    Flags are checked per row as in :func:`score` (:class:`~mahjong_core.errors.FlagError`).

    ``threads``: how many threads share the rows (consecutive ranges of at least 512 rows, the
    calling thread taking the first); 1, the default, scores them all in the calling thread, 0
    uses one thread per core this process may run on.  The results, and the row an error names
    (the first invalid one), do not depend on it.

    A ruleset of another family goes to that family's ``score_batch`` (``Family.hand_layer``; the
    long-card game's takes ``(N, 21)`` counts, the winning faces and its options such as
    ``banker=True``, and returns ``(fan, tuo)``); the mahjong keywords must then keep their defaults.
    """

    other = registry.hand_hook(ruleset, FAMILY_NAME, "score_batch", "mj.score_batch")
    if other is not None:
        given = {"melds": melds, "flags": flags, "flowers": flowers, "seat_winds": seat_winds,
                 "round_winds": round_winds, "min_fan": min_fan, "threads": None if threads == 1 else threads}
        named = [k for k, v in given.items() if v is not None]
        if named:
            raise MahjongError(f"{named[0]} is a mahjong option of score_batch; ruleset {ruleset!r} does not take it")
        return tuple(other(hands, win_tiles, ruleset=ruleset, **options))
    if options:
        raise MahjongError(f"mj.score_batch: {sorted(options)[0]} is not an option of a mahjong ruleset")
    rs = get_ruleset(ruleset, "mj.score_batch")
    n_threads = _threads(threads)
    counts = counts_2d(hands)
    n = counts.shape[0]
    # columns already in the compiled core's dtypes, every value in range (one pass in C), go
    # straight in; any other column is converted and checked below, which names a bad value
    columns = (win_tiles, _default(melds, (n, 4, 2), MELD_NONE, np.uint8), _default(flags, n, 0, np.uint32),
               _default(flowers, n, 0, np.uint32), _default(seat_winds, n, 27, np.uint8),
               _default(round_winds, n, 27, np.uint8))
    if _fan.batch_columns_plain(n, *columns, _ALL_FLAGS):
        mins, opts = _options(rs, min_fan, False, False, False, "any")
        return _fan.evaluate_batch(rs.code, counts, *columns, mins, opts, n_threads)
    win = _column(win_tiles, "win_tiles", (n,), -1, 33, np.int16, TileParseError)
    meld_arr = _meld_column(melds, n)
    flag_arr = _column(flags, "flags", (n,), 0, _ALL_FLAGS, np.uint32, FlagError, bits=True)
    flower_arr = _column(flowers, "flowers", (n,), 0, 0xFF, np.uint32, RulesetError, bits=True)
    seat_arr = _column(seat_winds, "seat_winds", (n,), 27, 30, np.uint8, MahjongError, default=27)
    round_arr = _column(round_winds, "round_winds", (n,), 27, 30, np.uint8, MahjongError, default=27)
    mins, opts = _options(rs, min_fan, False, False, False, "any")
    return _fan.evaluate_batch(rs.code, counts, win, meld_arr, flag_arr, flower_arr, seat_arr, round_arr,
                               mins, opts, n_threads)


def _threads(threads: Any) -> int:
    """score_batch's ``threads`` as a count of threads (0: one per core this process may use)."""
    if not is_int(threads) or not 0 <= threads <= 1024:
        raise MahjongError(f"mj.score_batch: threads must be an integer 0-1024, got {_short(threads)}")
    if threads:
        return int(threads)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


def _default(values: Any, shape: "int | tuple[int, ...]", fill: int, dtype: Any) -> Any:
    """A column of score_batch as given, or its default when it is None."""
    return np.full(shape, fill, dtype) if values is None else values


def _as_array(values: Any, name: str) -> np.ndarray:
    try:
        return values if isinstance(values, np.ndarray) else np.asarray(values)
    except (ValueError, TypeError, OverflowError) as exc:   # ragged lists, odd objects
        raise ArrayShapeError(f"{name}: not a rectangular array of integers ({exc})") from None


def _integers(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` if its dtype is an integer type; an object array of Python/NumPy integers as int64
    (a value too large for that is refused); anything else (float, bool, str ...) is refused."""
    if arr.dtype.kind in "iu":
        return arr
    if arr.dtype == object:
        flat = arr.ravel()
        for k, v in enumerate(flat):
            if not is_int(v) or not -2**63 <= v < 2**63:
                where = list(map(int, np.unravel_index(k, arr.shape))) if arr.ndim else [0]
                raise ArrayShapeError(f"row {where[0]}: {name}{where[1:] or ''} {_short(v)} is not an integer "
                                      "in the int64 range")
        return flat.astype(np.int64).reshape(arr.shape)
    if arr.dtype.kind in "fc" and arr.size:
        # name the first value that is not an integer (else the first: 27.0 is refused as well)
        frac = np.flatnonzero(~np.isfinite(arr) | (arr != np.round(arr.real)))
        k = int(frac[0]) if frac.size else 0
        where = list(map(int, np.unravel_index(k, arr.shape)))
        raise ArrayShapeError(f"row {where[0]}: {name}{where[1:] or ''} {arr.ravel()[k].item()!r} is not an integer "
                              f"(got a {arr.dtype} array; pass integers)")
    raise ArrayShapeError(f"{name}: expected an integer array, got dtype {arr.dtype}")


def _column(values: Any, name: str, shape: tuple[int, ...], lo: int, hi: int, dtype: Any,
            error: type[MahjongError], *, default: int = 0, bits: bool = False) -> np.ndarray:
    """A per-hand column of :func:`score_batch`, checked in range before the cast to ``dtype``
    (a cast never wraps a value around); ``bits``: a bit set whose unknown bits are named."""
    if values is None:
        return np.full(shape, default, dtype)
    arr = _integers(_as_array(values, name), name)
    if arr.shape != shape:
        raise ArrayShapeError(f"{name}: expected shape {shape}, got {arr.shape}")
    bad = np.flatnonzero((arr < lo) | (arr > hi))
    if bad.size:
        r = int(bad[0])
        v = int(arr[r])
        if bits and v > hi:
            raise error(f"row {r}: {name} {v:#x} has unknown bits {v & ~hi:#x} (known bits: {hi:#x})")
        raise error(f"row {r}: {name} {v} is out of range ({lo} to {hi})")
    return np.ascontiguousarray(arr, dtype)


def _meld_column(melds: Any, n: int) -> np.ndarray:
    """The (N, 4, 2) meld rows: kind 0-3 with a first tile 0-33, or kind 255 (no meld)."""
    if melds is None:
        return np.full((n, 4, 2), MELD_NONE, np.uint8)
    arr = _integers(_as_array(melds, "melds"), "melds")
    if arr.shape != (n, 4, 2):
        raise ArrayShapeError(f"melds: expected shape {(n, 4, 2)}, got {arr.shape}")
    kinds, firsts = arr[:, :, 0], arr[:, :, 1]
    absent = kinds == MELD_NONE
    bad_kind = ~absent & ((kinds < 0) | (kinds > 3))
    bad_first = np.where(absent, (firsts < 0) | (firsts > 255), (firsts < 0) | (firsts > 33))
    for bad, what in ((bad_kind, "kind"), (bad_first, "first tile")):
        hit = np.argwhere(bad)
        if hit.size:
            r, j = (int(v) for v in hit[0])
            v = int(arr[r, j, 0 if what == "kind" else 1])
            expected = "0-3 (chi, pon, kong, ckong) or 255 (no meld)" if what == "kind" else "a tile 0-33"
            raise TileParseError(f"row {r}: melds[{r}, {j}] {what} {v} is not {expected}")
    return np.ascontiguousarray(arr, np.uint8)
