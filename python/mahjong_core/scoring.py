"""Scoring a winning hand: the fan (番) evaluator's public API.

>>> import mahjong_core as mj
>>> s = mj.score("123m456m789m11mEE", "E", ruleset="two-player", self_drawn=True)
>>> s.total, s.meets_minimum
(25, True)
>>> [(f.name, f.points, f.count) for f in s.fans][:2]
[('清龙', 16, 1), ('混一色', 6, 1)]

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

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable

import numpy as np

from . import _fan
from .errors import MahjongError, TileCountError, TileParseError
from .fan_tables import fan_table
from .rulesets import Ruleset, get_ruleset
from .tiles import parse_flowers, parse_tiles, tile_short, to_counts

__all__ = ["Fan", "Score", "MELD_KINDS", "FLAGS", "parse_meld", "score", "score_batch", "FORM_NAMES"]

MELD_KINDS: dict[str, int] = {"chi": 0, "pon": 1, "kong": 2, "ckong": 3}
"""Meld kinds and the code the compiled evaluator uses."""
MELD_NONE = 255
FORM_NAMES = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")

FLAGS: dict[str, int] = {
    "self_drawn": 1,
    "last_tile": 2,
    "kong_replacement": 4,
    "flower_replacement": 8,
    "robbing_kong": 16,
    "last_of_kind": 32,
    "ready": 64,
    "ready_concealed": 128,
    "heavenly": 256,
    "earthly": 512,
    "humanly": 1024,
    "heavenly_ready": 2048,
}
"""Situational keyword flags of :func:`score` and their bit in the compiled call."""

_OPT_CAISHEN_ENABLED = 1
_OPT_CAISHEN_USED_AS_WILD = 2
_OPT_LITERAL_FIRST_TURN = 4
_OPT_BLOOM = {"any": 0, "last_tile": 8, "kongs_only": 16}

_NO_MELDS = np.zeros((0, 2), np.uint8)
_NO_MELDS.flags.writeable = False

_WINDS = {"E": 27, "S": 28, "W": 29, "N": 30, "东": 27, "南": 28, "西": 29, "北": 30}


@dataclass(frozen=True)
class Fan:
    """One counted fan of a :class:`Score`."""

    id: str
    """The spec's snake_case id, e.g. ``"pure_straight"``."""
    name: str
    """Chinese name, e.g. ``"清龙"``."""
    name_en: str
    points: int
    """Points of one instance."""
    count: int
    """How many times it counts (``per`` fans: 幺九刻, 四归一, 花牌, 一般高 ...)."""

    @property
    def total(self) -> int:
        return self.points * self.count


class Score:
    """The best reading of a winning hand (spec 4.2).  Fields are computed lazily from the
    compiled evaluator's per-fan counts."""

    __slots__ = ("ruleset", "total", "non_flower_total", "min_fan", "form_code", "_counts", "__dict__")

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

    def to_dict(self) -> dict:
        """Plain JSON-able data."""
        return {
            "ruleset": self.ruleset,
            "total": self.total,
            "non_flower_total": self.non_flower_total,
            "min_fan": self.min_fan,
            "meets_minimum": self.meets_minimum,
            "form": self.form,
            "fans": [
                {"id": f.id, "name": f.name, "name_en": f.name_en, "points": f.points, "count": f.count}
                for f in self.fans
            ],
        }

    def __repr__(self) -> str:
        fans = ", ".join(f"{f.name}{'×' + str(f.count) if f.count > 1 else ''} {f.total}" for f in self.fans)
        return f"Score(total={self.total}, ruleset={self.ruleset!r}, fans=[{fans}])"


# ------------------------------------------------------------------ input parsing
def _tile(t: Any, what: str) -> int:
    if isinstance(t, str):
        tiles = parse_tiles(t)
        if len(tiles) != 1:
            raise TileParseError(f"{what} must be one tile, got {t!r} ({len(tiles)} tiles)")
        t = tiles[0]
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
        raise TileParseError(f"{what} must be a tile string or index, got {t!r}")
    t = int(t)
    if not 0 <= t <= 33:
        raise TileParseError(f"{what} {t} is not a tile of a hand (0-33)")
    return t


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
            raise TileParseError(f"a meld is a string like 'pon CCC' or a (kind, tiles) pair, got {meld!r}") from None
        tiles = parse_tiles(tiles) if isinstance(tiles, str) else [_tile(t, "meld tile") for t in tiles]
    kind = str(kind).lower()
    if kind not in MELD_KINDS:
        raise TileParseError(f"unknown meld kind {kind!r} in {meld!r}; expected chi, pon, kong or ckong")
    tiles = sorted(tiles)
    if any(t > 33 for t in tiles):
        raise TileParseError(f"meld {meld!r} contains a flower")
    if kind == "chi":
        ok = (len(tiles) == 3 and tiles[0] < 27 and tiles[0] % 9 <= 6
              and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2)
        if not ok:
            raise TileParseError(f"chi {meld!r} must be three consecutive tiles of one suit")
    else:
        size = 3 if kind == "pon" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise TileParseError(f"{kind} {meld!r} must be {size} identical tiles")
    return MELD_KINDS[kind], tiles[0]


def _meld_tiles(kind: int, first: int) -> list[int]:
    if kind == 0:
        return [first, first + 1, first + 2]
    return [first] * (3 if kind == 1 else 4)


def _flower_mask(flowers: Any, rs: Ruleset) -> int:
    if isinstance(flowers, (bool, np.bool_)):
        raise MahjongError(f"flowers must be a count or flower tiles, got {flowers!r}")
    if isinstance(flowers, (int, np.integer)):
        n = int(flowers)
        if not 0 <= n <= 8:
            raise TileCountError(f"flowers={n}: there are 8 flowers")
        if rs.name == "two-player-bamboo" and 4 <= n <= 7:
            raise MahjongError(
                f"flowers={n} is ambiguous in two-player-bamboo (梅兰竹菊 / 春夏秋冬 score which ones): "
                "pass the flower tiles, e.g. flowers='梅兰竹菊' or [38, 39, 40, 41]"
            )
        return (1 << n) - 1
    mask = 0
    for f in parse_flowers(flowers):
        mask |= 1 << (f - 34)
    return mask


def _wind(w: Any, what: str) -> int:
    if w is None:
        return 27
    if isinstance(w, str) and w in _WINDS:
        return _WINDS[w]
    if isinstance(w, (int, np.integer)) and 27 <= int(w) <= 30:
        return int(w)
    raise MahjongError(f"{what} must be E, S, W or N (or 27-30), got {w!r}")


def _options(rs: Ruleset, min_fan: Any, caishen_enabled: bool, caishen_used_as_wild: bool,
             literal_first_turn_exclusions: bool, replacement_bloom: str) -> tuple[int, int]:
    if min_fan is None:
        min_fan = rs.min_fan
    if isinstance(min_fan, bool) or not isinstance(min_fan, (int, np.integer)) or min_fan < 0:
        raise MahjongError(f"min_fan must be a non-negative integer, got {min_fan!r}")
    if replacement_bloom not in _OPT_BLOOM:
        raise MahjongError(f"replacement_bloom must be one of {', '.join(_OPT_BLOOM)}, got {replacement_bloom!r}")
    opts = _OPT_BLOOM[replacement_bloom]
    if caishen_enabled:
        opts |= _OPT_CAISHEN_ENABLED
    if caishen_used_as_wild:
        opts |= _OPT_CAISHEN_USED_AS_WILD
    if literal_first_turn_exclusions:
        opts |= _OPT_LITERAL_FIRST_TURN
    return int(min_fan), opts


def _check_totals(concealed: np.ndarray, win_tile: int, melds: list[tuple[int, int]]) -> None:
    # plain lists: for 34 small ints they beat numpy's per-call overhead
    total = concealed.tolist()
    if win_tile >= 0:
        total[win_tile] += 1
    for kind, first in melds:
        for t in _meld_tiles(kind, first):
            total[t] += 1
    if max(total) > 4:
        k = next(i for i, v in enumerate(total) if v > 4)
        raise TileCountError(
            f"{int(total[k])} copies of {tile_short(k)} across the hand, the melds and the winning tile; a tile has only 4"
        )


def score(
    hand: Any,
    win_tile: Any = None,
    *,
    ruleset: "str | Ruleset" = "two-player",
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
    min_fan: int | None = None,
    caishen_enabled: bool = False,
    caishen_used_as_wild: bool = False,
    literal_first_turn_exclusions: bool = False,
    replacement_bloom: str = "any",
) -> Score:
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

    Raises :class:`~mahjong_core.errors.NotWinningHandError` if the tiles form no
    winning hand, :class:`~mahjong_core.errors.TileCountError` for a fifth copy
    across hand, melds and winning tile, :class:`~mahjong_core.errors.HandSizeError`
    for a wrong tile count and :class:`~mahjong_core.errors.RulesetError` for a
    tile or a flag the ruleset does not have.
    """
    rs = get_ruleset(ruleset)
    concealed = to_counts(hand)
    win = -1 if win_tile is None else _tile(win_tile, "winning tile")
    if win < 0 and not heavenly:
        raise MahjongError("win_tile is required (None only for heavenly=True, 天胡)")
    parsed = [parse_meld(m) for m in melds]
    if len(parsed) > 4:
        raise MahjongError(f"{len(parsed)} melds: a hand has at most 4 declared groups")
    _check_totals(concealed, win, parsed)
    if ready_concealed is None:
        ready_concealed = ready and all(kind == 3 for kind, _ in parsed)
    elif ready_concealed and not ready:
        raise MahjongError("ready_concealed=True needs ready=True (报听 declared)")
    values = {
        "self_drawn": self_drawn or heavenly or earthly,
        "last_tile": last_tile,
        "kong_replacement": kong_replacement,
        "flower_replacement": flower_replacement,
        "robbing_kong": robbing_kong,
        "last_of_kind": last_of_kind,
        "ready": ready,
        "ready_concealed": ready and ready_concealed,
        "heavenly": heavenly,
        "earthly": earthly,
        "humanly": humanly,
        "heavenly_ready": heavenly_ready,
    }
    flags = 0
    for name, bit in FLAGS.items():
        if values[name]:
            flags |= bit
    mins, opts = _options(rs, min_fan, caishen_enabled, caishen_used_as_wild,
                          literal_first_turn_exclusions, replacement_bloom)
    meld_arr = np.array(parsed, dtype=np.uint8).reshape(-1, 2) if parsed else _NO_MELDS
    counts = np.zeros(_fan.fan_count(rs.code), np.uint16)
    total, non_flower, form = _fan.evaluate(
        rs.code, np.ascontiguousarray(concealed), win, meld_arr, flags, _flower_mask(flowers, rs),
        _wind(seat_wind, "seat_wind"), _wind(round_wind, "round_wind"), mins, opts, counts,
    )
    return Score(rs.name, total, non_flower, mins, form, counts)


def score_batch(
    hands: np.ndarray,
    win_tiles: np.ndarray,
    *,
    ruleset: "str | Ruleset" = "two-player",
    melds: np.ndarray | None = None,
    flags: np.ndarray | None = None,
    flowers: np.ndarray | None = None,
    seat_winds: np.ndarray | None = None,
    round_winds: np.ndarray | None = None,
    min_fan: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Score N winning hands at once, in the compiled core without the GIL.

    ``hands``: (N, 34) uint8 concealed counts without the winning tile;
    ``win_tiles``: (N,) tile indices (-1 for 天胡); ``melds``: (N, 4, 2) uint8 rows
    ``[kind code, first tile]`` (:data:`MELD_KINDS`; 255 for no meld); ``flags``:
    (N,) uint32 bit sets of :data:`FLAGS`; ``flowers``: (N,) uint32 bit sets (bit i =
    flower 34+i); ``seat_winds``/``round_winds``: (N,) uint8 (27-30, default East).

    Returns ``(totals, non_flower_totals, counts)``: int32 (N,), int32 (N,) and the
    uint16 (N, n_fans) count matrix whose columns follow ``fan_table(ruleset)``.
    A row that is invalid or not a winning hand raises an error naming the row.
    """
    from .hand import _counts2d

    rs = get_ruleset(ruleset)

    hands = _counts2d(hands)
    n = hands.shape[0]

    def col(a, dtype, default, shape=(n,)):
        if a is None:
            return np.full(shape, default, dtype)
        arr = np.ascontiguousarray(np.asarray(a), dtype=dtype)
        if arr.shape != shape:
            raise MahjongError(f"expected shape {shape}, got {arr.shape}")
        return arr

    win = col(win_tiles, np.int16, 0)
    meld_arr = col(melds, np.uint8, MELD_NONE, (n, 4, 2))
    mins, opts = _options(rs, min_fan, False, False, False, "any")
    return _fan.evaluate_batch(
        rs.code, hands, win, meld_arr, col(flags, np.uint32, 0), col(flowers, np.uint32, 0),
        col(seat_winds, np.uint8, 27), col(round_winds, np.uint8, 27), mins, opts,
    )
