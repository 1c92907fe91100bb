"""Pure-Python reference fan (番) evaluator: spec section 4.2, literally, by brute force.

This module is the test oracle for the compiled evaluator.  It favours clarity
over speed and uses no lookup tables: every winning form, every decomposition
and every placement of the winning tile is enumerated (D3, D4), every fan is
detected as *instances* (tied to the groups that form it), every valid selection
of meld-combination instances is tried (4.2 step 3), the exclusions are applied
by the single generic pass of 4.3, and the best reading wins (P4, 4.2 step 5).

Everything that is a property of a fan (points, exclusions, multiplicity,
membership of the combination set C, flower-derived) is read from
:mod:`mahjong_core.fan_tables`; only the *detectors* (what a fan's definition
says about a hand) are code.  Each detector cites its spec clause.

Tile indices (spec 1.1): 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-30 = E S W N,
31-33 = C F P (中 发 白), 34-41 = flowers 春夏秋冬梅兰竹菊.

Typical use::

    >>> r = evaluate("two-player", [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 8], 8)
    >>> r.form, r.non_flower_total >= 8
    ('standard', True)

Options (``options=`` dict; every key optional, unknown keys are an error):

``min_fan`` (int, default 8)
    起和 threshold on the non-flower total (2.12, OP-1).
``caishen_enabled`` (bool, default False)
    ``public`` only: the 财神 option (OP-18).  When False 无财神 is never scored.
``caishen_used_as_wild`` (bool, default False)
    With ``caishen_enabled``: True when the winning hand uses a 财神 as a wild
    tile; 无财神 is scored when this is False (G003-10).
``literal_first_turn_exclusions`` (bool, default False)
    OP-23: when True, 天胡 excludes only the seed list (单钓将, 边张, 坎张) and
    地胡/人胡 exclude nothing; by default the ``+[resolved]`` ids of the tables apply.
``replacement_bloom`` (str, default ``"any"``)
    ``two-player-bamboo`` only, OP-28: which flower-replacement wins count
    杠上开花: ``"any"`` (every win on a flower replacement), ``"last_tile"`` (only
    when it is also the last wall tile) or ``"kongs_only"`` (as the other rulesets).
``check_flags`` (bool, default False)
    Refuse flags that contradict each other or the hand with
    :class:`~mahjong_core.errors.FlagError` (:func:`_check_flags`; the D7 contradictions
    are then FlagError too).  :func:`mahjong_core.score` and ``score_batch`` always set it
    (``OPT_CHECK_FLAGS`` of the compiled evaluator); off, the flags are evaluated as given.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence, TypeVar

from ....errors import FlagError, HandSizeError, MahjongError, NotWinningHandError, RulesetError, TileCountError
from ..fan_tables import fan_table
from ..fandef import FanDef
from ..rulesets import get_ruleset

__all__ = [
    "Meld",
    "Group",
    "Result",
    "NotWinningHandError",
    "DEFAULT_OPTIONS",
    "evaluate",
    "wait_set",
    "winning_forms",
    "DETECTABLE_FANS",
]


# ---------------------------------------------------------------------------
# Tiles (spec 1.1)
# ---------------------------------------------------------------------------

N_KINDS = 34
FLOWERS = tuple(range(34, 42))
SEASONS = (34, 35, 36, 37)  # 春夏秋冬
PLANTS = (38, 39, 40, 41)  # 梅兰竹菊
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
GREEN_TILES = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s F
REVERSIBLE_TILES = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

KINDS_IN_PLAY: dict[str, tuple[int, ...]] = {
    "two-player": tuple(range(0, 9)) + tuple(range(27, 34)),
    "two-player-bamboo": tuple(range(18, 27)) + tuple(range(27, 34)),
    "public": tuple(range(0, 34)),
    "mcr": tuple(range(0, 34)),
}
SPECIAL_FORMS = {"two-player": False, "two-player-bamboo": False, "public": True, "mcr": True}


def is_number(t: int) -> bool:
    return 0 <= t <= 26


def suit(t: int) -> int:
    return t // 9


def rank(t: int) -> int:
    return t % 9 + 1


def is_honor(t: int) -> bool:
    return 27 <= t <= 33


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return 31 <= t <= 33


def is_terminal(t: int) -> bool:
    return is_number(t) and rank(t) in (1, 9)


def is_terminal_or_honor(t: int) -> bool:
    return is_terminal(t) or is_honor(t)


def knitted_patterns() -> list[tuple[int, ...]]:
    """The 6 knitted patterns (1.1): ranks 147 of suit a, 258 of suit b, 369 of suit c."""
    out = []
    for a, b, c in itertools.permutations(range(3)):
        tiles = [a * 9 + r - 1 for r in (1, 4, 7)]
        tiles += [b * 9 + r - 1 for r in (2, 5, 8)]
        tiles += [c * 9 + r - 1 for r in (3, 6, 9)]
        out.append(tuple(sorted(tiles)))
    return out


KNITTED_PATTERNS = tuple(knitted_patterns())


def _counts(tiles: Iterable[int]) -> list[int]:
    c = [0] * N_KINDS
    for t in tiles:
        c[t] += 1
    return c


# ---------------------------------------------------------------------------
# Input and output records
# ---------------------------------------------------------------------------


class Meld(NamedTuple):
    """A declared group: ``kind`` is ``"chi"``, ``"pon"``, ``"kong"`` (exposed, incl. added) or
    ``"ckong"`` (concealed kong); ``tiles`` are its tiles (3 for chi/pon, 4 for kongs)."""

    kind: str
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class Group:
    """One group of a candidate reading of the hand.

    ``shape`` is ``"chow"``, ``"pung"``, ``"kong"``, ``"pair"``, ``"knitted"`` (the 9 tiles
    of a knitted pattern) or ``"singles"`` (thirteen orphans / 全不靠 tiles).
    """

    shape: str
    tiles: tuple[int, ...]
    declared: bool = False
    """From a :class:`Meld` (chi, pon, kong or concealed kong)."""
    exposed: bool = False
    """Exposed per D6: a chi/pon/exposed kong, or a pung completed by a discard (or robbed) tile."""
    has_win_tile: bool = False
    """The winning tile is placed in this group (D4)."""

    @property
    def first(self) -> int:
        return self.tiles[0]

    @property
    def is_chow(self) -> bool:
        return self.shape == "chow"

    @property
    def is_pung(self) -> bool:
        """Pung or kong (D2: "pung" means "pung or kong")."""
        return self.shape in ("pung", "kong")

    @property
    def is_concealed_pung(self) -> bool:
        """D6: a pung of concealed tiles or a concealed kong."""
        return self.is_pung and not self.exposed


@dataclass(frozen=True)
class Result:
    """Outcome of :func:`evaluate` (spec 4.2 step 9)."""

    ruleset: str
    fans: list
    """``[(fan_id, count, points_each), ...]``, non-zero only, sorted by points then table order."""
    total: int
    """Hand value F: every counted fan, flower-derived fans included."""
    non_flower_total: int
    """Total without flower-derived fans (D16); compared with ``min_fan``."""
    meets_minimum: bool
    form: str
    """``"standard"``, ``"seven_pairs"``, ``"thirteen_orphans"``, ``"honors_knitted"``, ``"knitted_straight"``."""
    groups: tuple
    """Groups of the chosen reading (declared groups first, pair last); the placement is marked."""
    waits: tuple
    """Wait set (D8) of the 13 tiles before the winning tile; empty for 天胡."""

    def fan_counts(self) -> dict:
        """``{fan_id: count}`` of the counted fans."""
        return {fid: n for fid, n, _ in self.fans}

    def points_of(self, fan_id: str) -> int:
        """Points contributed by ``fan_id`` (count x points each), 0 if not counted."""
        return sum(n * p for fid, n, p in self.fans if fid == fan_id)


DEFAULT_OPTIONS: dict = {
    "min_fan": 8,
    "caishen_enabled": False,
    "caishen_used_as_wild": False,
    "literal_first_turn_exclusions": False,
    "replacement_bloom": "any",
    "check_flags": False,
}

# OP-23 literal reading: the seed exclusion lists of the first-turn fans.
LITERAL_FIRST_TURN_EXCLUDES: dict[str, tuple[str, ...]] = {
    "heavenly_hand": ("single_wait", "edge_wait", "closed_wait"),
    "earthly_hand": (),
    "humanly_hand": (),
}


# ---------------------------------------------------------------------------
# Winning forms and candidates (D3, D4)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One (form, decomposition, placement) reading of the hand.

    For the standard form ``groups`` holds the 4 groups followed by the pair; for the
    knitted form the knitted 9 tiles, the one real group, then the pair.
    """

    form: str
    groups: tuple
    pair: "int | None"  # index of the pair in ``groups`` (None for special forms without a pair)
    win: "int | None"  # index of the group holding the winning tile (None: 天胡, or the knitted tiles)


def _split_groups(c: list[int]) -> Iterator[list[tuple[str, int]]]:
    """Every way to split counts ``c`` into pungs and chows, lowest tile first (no duplicates)."""
    i = next((k for k in range(N_KINDS) if c[k]), None)
    if i is None:
        yield []
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _split_groups(c):
            yield [("pung", i)] + rest
        c[i] += 3
    if is_number(i) and rank(i) <= 7 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        for rest in _split_groups(c):
            yield [("chow", i)] + rest
        for k in (i, i + 1, i + 2):
            c[k] += 1


def _group_tiles(shape: str, first: int) -> tuple[int, ...]:
    if shape == "chow":
        return (first, first + 1, first + 2)
    if shape == "pung":
        return (first,) * 3
    return (first,) * 2  # pair


def standard_decompositions(c: list[int]) -> list[tuple[list[tuple[str, int]], int]]:
    """D4: every split of concealed counts ``c`` (winning tile included) into groups + one pair."""
    out = []
    for p in range(N_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            for groups in _split_groups(c):
                out.append((groups, p))
            c[p] += 2
    return out


def _meld_group(m: Meld) -> Group:
    if m.kind == "chi":
        return Group("chow", tuple(sorted(m.tiles)), declared=True, exposed=True)
    if m.kind == "pon":
        return Group("pung", tuple(m.tiles), declared=True, exposed=True)
    if m.kind == "kong":
        return Group("kong", tuple(m.tiles), declared=True, exposed=True)
    return Group("kong", tuple(m.tiles), declared=True, exposed=False)  # ckong


def _placements(
    fixed: list[Group], shapes: list[tuple[str, int]], pair: int, win: "int | None", discard_win: bool
) -> Iterator[tuple[tuple[Group, ...], "int | None"]]:
    """D4 + D6: the concealed groups (plus pair) with the winning tile placed in each group
    containing its kind; a pung completed by a discard (or robbed) tile is exposed."""
    concealed = [(s, f) for s, f in shapes] + [("pair", pair)]
    if win is None:
        groups = tuple(fixed) + tuple(Group(s, _group_tiles(s, f)) for s, f in concealed)
        yield groups, None
        return
    seen = set()
    for j, (s, f) in enumerate(concealed):
        if win not in _group_tiles(s, f) or (s, f) in seen:
            continue
        seen.add((s, f))
        placed = []
        for k, (s2, f2) in enumerate(concealed):
            here = k == j
            exposed = here and discard_win and s2 == "pung"
            placed.append(Group(s2, _group_tiles(s2, f2), exposed=exposed, has_win_tile=here))
        yield tuple(fixed) + tuple(placed), len(fixed) + j


def winning_forms(
    ruleset: str, concealed_counts: list[int], melds: Sequence[Meld], win: "int | None", discard_win: bool
) -> list[Candidate]:
    """Every candidate reading (D3, D4) of a hand; ``concealed_counts`` include the winning tile."""
    c = list(concealed_counts)
    fixed = [_meld_group(m) for m in melds]
    out: list[Candidate] = []
    n_groups = 4 - len(melds)
    # Standard form (all rulesets): 4 groups + 1 pair.
    for shapes, pair in standard_decompositions(c):
        if len(shapes) != n_groups:
            continue
        for groups, w in _placements(fixed, shapes, pair, win, discard_win):
            out.append(Candidate("standard", groups, len(groups) - 1, w))
    if not melds and sum(c) == 14:
        # Seven pairs (all rulesets): 7 pairs, four identical tiles are two pairs (D3, OP-34).
        if all(n % 2 == 0 for n in c):
            pairs: list[Group] = []
            w_idx = None
            for k in range(N_KINDS):
                for _ in range(c[k] // 2):
                    here = k == win and w_idx is None
                    if here:
                        w_idx = len(pairs)
                    pairs.append(Group("pair", (k, k), has_win_tile=here))
            out.append(Candidate("seven_pairs", tuple(pairs), None, w_idx))
        if SPECIAL_FORMS[ruleset]:
            tiles = tuple(k for k in range(N_KINDS) for _ in range(c[k]))
            # 十三幺: one of each orphan + one duplicate (3.3).
            if all(c[k] >= 1 for k in ORPHANS) and sum(c[k] for k in ORPHANS) == 14:
                out.append(Candidate("thirteen_orphans", (Group("singles", tiles),), None, None))
            # 全不靠 / 七星不靠: 14 distinct tiles, number tiles within one knitted pattern (3.3).
            if all(n <= 1 for n in c) and any(
                all(c[k] == 0 or k in p for k in range(27)) for p in KNITTED_PATTERNS
            ):
                out.append(Candidate("honors_knitted", (Group("singles", tiles),), None, None))
    if SPECIAL_FORMS[ruleset] and len(melds) <= 1:
        # Knitted-straight form (D3, OP-52): 9 knitted tiles + 1 group + 1 pair; the group may be declared.
        for p in KNITTED_PATTERNS:
            if not all(c[k] >= 1 for k in p):
                continue
            rest = list(c)
            for k in p:
                rest[k] -= 1
            knit = Group("knitted", p)
            for shapes, pair in standard_decompositions(rest):
                if len(shapes) != n_groups - 3:
                    continue
                if win is not None and win in p:
                    # winning tile among the knitted tiles: no wait fan (D9)
                    groups = (knit,) + tuple(fixed) + tuple(
                        Group(s, _group_tiles(s, f)) for s, f in shapes + [("pair", pair)]
                    )
                    out.append(Candidate("knitted_straight", groups, len(groups) - 1, None))
                for groups, w in _placements(fixed, shapes, pair, win, discard_win):
                    if w is None and win is not None:
                        continue
                    groups = (knit,) + groups
                    out.append(
                        Candidate("knitted_straight", groups, len(groups) - 1, None if w is None else w + 1)
                    )
    return out


def wait_set(ruleset: str, concealed13: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[int, ...]:
    """D8: the tile kinds that complete the 13 tiles (kongs counted as 3) to a winning form of
    ``ruleset``, by shape only: how many copies of a kind remain is ignored, so a kind
    whose four copies the player already holds (say in an exposed pung) is still a wait."""
    c = _counts(concealed13)
    out = []
    for t in KINDS_IN_PLAY[ruleset]:
        c[t] += 1
        if winning_forms(ruleset, c, melds, t, discard_win=False):
            out.append(t)
        c[t] -= 1
    return tuple(out)


# ---------------------------------------------------------------------------
# Fan instances
# ---------------------------------------------------------------------------


class Instance(NamedTuple):
    """A detected fan, tied to ``members`` (indices of the candidate's groups, pair included)."""

    fan: str
    members: frozenset = frozenset()
    tag: object = None  # distinguishes instances of per-kind fans (四归一)


@dataclass
class Context:
    """Everything about the win that is not the candidate reading."""

    ruleset: str
    table: dict
    order: dict
    hand: list  # counts of every tile of H (D1), kongs as 4
    concealed13: list[int] | None  # counts before the winning tile (None for 天胡)
    melds: tuple
    win: "int | None"
    waits: tuple
    self_drawn: bool
    robbing_kong: bool
    kong_replacement: bool
    flower_replacement: bool
    last_tile: bool
    last_of_kind: bool
    ready_concealed: bool
    heavenly: bool
    earthly: bool
    humanly: bool
    heavenly_ready: bool
    seat_wind: int
    round_wind: int
    options: dict

    @property
    def concealed_hand(self) -> bool:
        """D5: no exposed group (concealed kongs allowed)."""
        return all(m.kind == "ckong" for m in self.melds)

    @property
    def unique_wait(self) -> bool:
        """D8/D9: the wait set has exactly one kind."""
        return len(self.waits) == 1


Detector = Callable[[Candidate, Context], Iterable[Instance]]
_D = TypeVar("_D", bound=Detector)   # a decorated detector keeps its own signature
DETECTORS: list[tuple[Detector, tuple[str, ...]]] = []


def detector(*fan_ids: str) -> Callable[[_D], _D]:
    """Register a detector and the fan ids it can produce (the tests check every row is covered)."""

    def register(fn: _D) -> _D:
        DETECTORS.append((fn, fan_ids))
        return fn

    return register


def _all_tiles(ctx: Context) -> list[int]:
    return [k for k in range(N_KINDS) for _ in range(ctx.hand[k])]


def _real_groups(cand: Candidate) -> list[tuple[int, Group]]:
    """Groups that are chows, pungs or kongs (standard and knitted forms)."""
    return [(i, g) for i, g in enumerate(cand.groups) if g.shape in ("chow", "pung", "kong")]


# --- tile-content fans (D12: every form unless "standard form only") -------------------


@detector(
    "full_flush", "half_flush", "all_simples", "no_honors", "all_types", "one_voided_suit",
    "upper_four", "lower_four", "upper_tiles", "middle_tiles", "lower_tiles",
    "reversible_tiles", "all_green",
)
def detect_tile_content(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """3.1-3.3 tile-content rows, tested on every tile of H (D1, D12)."""
    tiles = _all_tiles(ctx)
    suits = {suit(t) for t in tiles if is_number(t)}
    honors = [t for t in tiles if is_honor(t)]
    numbers_only = not honors
    ranks = {rank(t) for t in tiles if is_number(t)}
    if numbers_only and len(suits) == 1:
        yield Instance("full_flush")  # 清一色
    if honors and len(suits) == 1:
        yield Instance("half_flush")  # 混一色: one suit + at least one honor
    if not any(is_terminal_or_honor(t) for t in tiles):
        yield Instance("all_simples")  # 断幺
    if numbers_only:
        yield Instance("no_honors")  # 无字
    if len(suits) == 3 and any(is_wind(t) for t in tiles) and any(is_dragon(t) for t in tiles):
        yield Instance("all_types")  # 五门齐
    if len(suits) == 2:
        yield Instance("one_voided_suit")  # 缺一门: exactly two number suits
    if numbers_only:
        for fid, allowed in (
            ("upper_four", range(6, 10)),  # 大于5
            ("lower_four", range(1, 5)),  # 小于5
            ("upper_tiles", range(7, 10)),  # 全大
            ("middle_tiles", range(4, 7)),  # 全中
            ("lower_tiles", range(1, 4)),  # 全小
        ):
            if ranks <= set(allowed):
                yield Instance(fid)
    if all(t in REVERSIBLE_TILES for t in tiles):
        yield Instance("reversible_tiles")  # 推不倒 (1.1)
    if all(t in GREEN_TILES for t in tiles) and cand.form in ("standard", "seven_pairs"):
        yield Instance("all_green")  # 绿一色: standard form or seven pairs


@detector("all_honors", "all_terminals", "all_terminals_and_honors")
def detect_terminal_honor_hands(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """字一色, 清幺九, 混幺九: standard form or seven pairs (D12, OP-35); bamboo 字一色 standard only."""
    seven = get_ruleset(ctx.ruleset).terminal_honor_hands_in_seven_pairs
    forms = ("standard", "seven_pairs") if seven else ("standard",)
    if cand.form not in forms:
        return
    tiles = _all_tiles(ctx)
    if all(is_honor(t) for t in tiles):
        yield Instance("all_honors")
    if all(is_terminal(t) for t in tiles):
        yield Instance("all_terminals")
    if (
        all(is_terminal_or_honor(t) for t in tiles)
        and any(is_terminal(t) for t in tiles)
        and any(is_honor(t) for t in tiles)
    ):
        yield Instance("all_terminals_and_honors")


@detector("tile_hog")
def detect_tile_hog(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """四归一: per kind, all four copies in H without being a declared kong (3.1)."""
    kong_kinds = {m.tiles[0] for m in ctx.melds if m.kind in ("kong", "ckong")}
    for k in range(N_KINDS):
        if ctx.hand[k] == 4 and k not in kong_kinds:
            yield Instance("tile_hog", tag=k)


# --- forms ---------------------------------------------------------------------------------


@detector("seven_pairs", "seven_pairs_all_honors", "seven_shifted_pairs")
def detect_seven_pairs(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """七对 (D3); bamboo 七小对(全字牌) replaces it when all honors (OP-29); 连七对."""
    if cand.form != "seven_pairs":
        return
    kinds = sorted({g.first for g in cand.groups})
    all_honor = all(is_honor(k) for k in kinds)
    if get_ruleset(ctx.ruleset).seven_pairs_all_honors and all_honor:
        yield Instance("seven_pairs_all_honors")
    else:
        yield Instance("seven_pairs")
    if (
        len(kinds) == 7
        and all(is_number(k) for k in kinds)
        and len({suit(k) for k in kinds}) == 1
        and kinds[-1] - kinds[0] == 6
    ):
        yield Instance("seven_shifted_pairs")


@detector("thirteen_orphans", "lesser_honors_and_knitted_tiles", "greater_honors_and_knitted_tiles",
          "knitted_straight")
def detect_special_forms(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """public special forms (3.3): 十三幺, 全不靠, 七星不靠, 组合龙."""
    if cand.form == "thirteen_orphans":
        yield Instance("thirteen_orphans")
    elif cand.form == "honors_knitted":
        yield Instance("lesser_honors_and_knitted_tiles")
        if all(ctx.hand[k] == 1 for k in range(27, 34)):
            yield Instance("greater_honors_and_knitted_tiles")
        # 组合龙 also counts if all 9 tiles of the pattern are present [MCR]
        if any(all(ctx.hand[k] for k in p) for p in KNITTED_PATTERNS):
            yield Instance("knitted_straight")
    elif cand.form == "knitted_straight":
        yield Instance("knitted_straight")


@detector("nine_gates")
def detect_nine_gates(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """九莲宝灯: no declared group, the 13 tiles before the winning tile are 1112345678999 of one
    suit, winning tile of that suit; 天胡: some tile of the 14 can be removed (OP-24)."""
    if cand.form != "standard" or ctx.melds:
        return
    if ctx.concealed13 is not None:
        options = [(ctx.concealed13, ctx.win)]
    else:
        options = []
        for t in range(N_KINDS):
            if ctx.hand[t]:
                c = list(ctx.hand)
                c[t] -= 1
                options.append((c, t))
    for c13, w in options:
        for s in range(3):
            base = s * 9
            if w is not None and is_number(w) and suit(w) == s and c13[base:base + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3] \
                    and sum(c13) == 13:
                yield Instance("nine_gates")
                return


# --- structure fans (standard form; some also the knitted form) ---------------------------


@detector("all_pungs", "all_chows", "outside_hand", "all_fives", "all_even_pungs", "melded_hand",
          "pair_258", "pair_terminal")
def detect_structure(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """Whole-hand structure fans (D12: standard form only; 平和 also the knitted form)."""
    if cand.form == "knitted_straight":
        # 组合龙 row: the 9 knitted tiles count as three chows for 平和 only.
        real = [g for _, g in _real_groups(cand)]
        assert cand.pair is not None   # the knitted form has its pair
        pair = cand.groups[cand.pair]
        if all(g.is_chow for g in real) and is_number(pair.first):
            yield Instance("all_chows")
        return
    if cand.form != "standard":
        return
    assert cand.pair is not None   # the standard form has its pair
    groups = cand.groups[: cand.pair]
    pair = cand.groups[cand.pair]
    every = list(groups) + [pair]
    if all(g.is_pung for g in groups):
        yield Instance("all_pungs")  # 碰碰和
    if all(g.is_chow for g in groups) and is_number(pair.first):
        yield Instance("all_chows")  # 平和: wait shape does not matter
    if all(any(is_terminal(t) for t in g.tiles) or all(is_honor(t) for t in g.tiles) for g in every):
        yield Instance("outside_hand")  # 全带幺
    if all(any(is_number(t) and rank(t) == 5 for t in g.tiles) for g in every):
        yield Instance("all_fives")  # 全带五
    if all(g.is_pung for g in groups) and all(
        is_number(t) and rank(t) in (2, 4, 6, 8) for g in every for t in g.tiles
    ):
        yield Instance("all_even_pungs")  # 全双刻
    # 全求人: four exposed groups (no concealed kong), discard or robbed win, tile completes the pair
    if (
        len(ctx.melds) == 4
        and all(m.kind != "ckong" for m in ctx.melds)
        and not ctx.self_drawn
        and cand.win == cand.pair
    ):
        yield Instance("melded_hand")
    if is_number(pair.first) and rank(pair.first) in (2, 5, 8):
        yield Instance("pair_258")  # 二五八将 (bamboo; standard form only, OP-45)
    if is_number(pair.first) and rank(pair.first) in (1, 9):
        yield Instance("pair_terminal")  # 幺九头


@detector("dragon_pung", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors")
def detect_pung_fans(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """Per-group fans (4.2 step 2): 箭刻, 圈风刻, 门风刻 and 幺九刻 (one instance per terminal or
    wind pung; D14: a dragon pung never scores 幺九刻 - the other D14 cases are exclusions)."""
    for i, g in _real_groups(cand):
        if not g.is_pung:
            continue
        k = g.first
        if is_dragon(k):
            yield Instance("dragon_pung", frozenset((i,)))
        if k == ctx.round_wind:
            yield Instance("prevalent_wind", frozenset((i,)))
        if k == ctx.seat_wind:
            yield Instance("seat_wind", frozenset((i,)))
        if is_terminal(k) or is_wind(k):
            yield Instance("pung_of_terminals_or_honors", frozenset((i,)))


@detector("melded_kong", "concealed_kong", "two_melded_kongs", "two_concealed_kongs", "three_kongs",
          "four_kongs", "concealed_kong_and_melded_kong", "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
def detect_kongs_and_concealed_pungs(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """D13 kong family and concealed-pung family (with D6 for the winning tile)."""
    real = [g for _, g in _real_groups(cand)]
    k_e = sum(1 for g in real if g.shape == "kong" and g.exposed)
    k_c = sum(1 for g in real if g.shape == "kong" and not g.exposed)
    total = k_e + k_c
    if total == 4:
        yield Instance("four_kongs")
    elif total == 3:
        yield Instance("three_kongs")
    else:
        if k_e == 1:
            yield Instance("melded_kong")
        if k_e == 2:
            yield Instance("two_melded_kongs")
        if k_c == 1:
            yield Instance("concealed_kong")
        if k_c == 2:
            yield Instance("two_concealed_kongs")
        if k_e == 1 and k_c == 1 and "concealed_kong_and_melded_kong" in ctx.table:
            yield Instance("concealed_kong_and_melded_kong")   # 明暗杠 (`mcr`); excludes 明杠 and 暗杠
    n = sum(1 for g in real if g.is_concealed_pung)
    family = {2: "two_concealed_pungs", 3: "three_concealed_pungs", 4: "four_concealed_pungs"}
    if n in family:
        yield Instance(family[n])


# --- win-condition, wait, first-turn and option fans ---------------------------------------


@detector("self_drawn", "fully_concealed_hand", "concealed_hand", "last_tile", "last_tile_draw",
          "last_tile_claim", "out_with_replacement_tile", "robbing_the_kong")
def detect_win_conditions(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """Win-condition fans (D7, D10, D11; every form)."""
    if ctx.self_drawn:
        yield Instance("self_drawn")  # 自摸 (天胡/地胡 count as self-drawn, D7)
        if ctx.concealed_hand:
            yield Instance("fully_concealed_hand")  # 不求人
    elif ctx.concealed_hand:
        yield Instance("concealed_hand")  # 门前清 (discard or robbed kong)
    if ctx.last_of_kind and ctx.win is not None:
        yield Instance("last_tile")  # 和绝张 (D10); not evaluated for 天胡
    if ctx.last_tile:
        yield Instance("last_tile_draw" if ctx.self_drawn else "last_tile_claim")  # D11
    if ctx.self_drawn and _replacement_bloom(ctx):
        yield Instance("out_with_replacement_tile")  # 杠上开花
    if ctx.robbing_kong:
        yield Instance("robbing_the_kong")


def _replacement_bloom(ctx: Context) -> bool:
    """杠上开花: a kong replacement, never a flower replacement (2.6) - except in
    `two-player-bamboo`, where a flower replacement also counts (OP-28, option ``replacement_bloom``)."""
    if not get_ruleset(ctx.ruleset).flower_replacement_bloom:
        return ctx.kong_replacement and not ctx.flower_replacement
    mode = ctx.options["replacement_bloom"]
    if ctx.kong_replacement and not ctx.flower_replacement:
        return True
    if ctx.flower_replacement:
        return mode == "any" or (mode == "last_tile" and ctx.last_tile)
    return False


@detector("edge_wait", "closed_wait", "single_wait")
def detect_wait(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """D9: 边张 / 坎张 / 单钓将 from the chosen placement, only with a unique wait (D8)."""
    if cand.win is None or not ctx.unique_wait:
        return
    g = cand.groups[cand.win]
    w = ctx.win
    if g.shape == "pair":
        yield Instance("single_wait")
    elif g.is_chow and cand.form in ("standard", "knitted_straight"):
        if w == g.first + 1:
            yield Instance("closed_wait")
        elif (rank(g.first) == 1 and w == g.first + 2) or (rank(g.first) == 7 and w == g.first):
            yield Instance("edge_wait")


@detector("heavenly_hand", "earthly_hand", "humanly_hand", "heavenly_ready", "riichi")
def detect_first_turn(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """2.11 first-turn fans and 2.7 立直, from the caller's flags."""
    if ctx.heavenly:
        yield Instance("heavenly_hand")
    if ctx.earthly:
        yield Instance("earthly_hand")
    if ctx.humanly:
        yield Instance("humanly_hand")
    if ctx.heavenly_ready:
        yield Instance("heavenly_ready")
    if ctx.ready_concealed:
        yield Instance("riichi")


@detector("no_caishen")
def detect_no_caishen(cand: Candidate, ctx: Context) -> Iterator[Instance]:
    """无财神: only with the 财神 option (OP-18, G003-10)."""
    if ctx.options["caishen_enabled"] and not ctx.options["caishen_used_as_wild"]:
        yield Instance("no_caishen")


# --- meld-combination fans (set C, D15) -------------------------------------------------------


def _chows(gs) -> bool:
    return all(g.is_chow for g in gs)


def _number_pungs(gs) -> bool:
    return all(g.is_pung and is_number(g.first) for g in gs)


def _one_suit(gs) -> bool:
    return len({suit(g.first) for g in gs}) == 1


def _distinct_suits(gs) -> bool:
    return len({suit(g.first) for g in gs}) == len(gs)


def _starts(gs) -> list[int]:
    return sorted(rank(g.first) for g in gs)


def _steps(values: list[int], allowed: tuple[int, ...]) -> bool:
    d = values[1] - values[0]
    return d in allowed and all(b - a == d for a, b in zip(values, values[1:]))


def _identical(gs) -> bool:
    return len({g.first for g in gs}) == 1


# fan id -> (number of groups, uses the pair, predicate over the groups (pair last))
COMBINATION_PREDICATES: dict[str, tuple[int, bool, Callable[..., bool]]] = {
    # 一般高: two identical chows
    "pure_double_chow": (2, False, lambda *g: _chows(g) and _identical(g)),
    # 喜相逢: same ranks, two suits
    "mixed_double_chow": (2, False, lambda *g: _chows(g) and _distinct_suits(g) and len(set(_starts(g))) == 1),
    # 连六: one suit, lowest ranks n and n+3
    "short_straight": (2, False, lambda *g: _chows(g) and _one_suit(g) and _steps(_starts(g), (3,))),
    # 老少副: 123 + 789 of one suit
    "two_terminal_chows": (2, False, lambda *g: _chows(g) and _one_suit(g) and _starts(g) == [1, 7]),
    # 双同刻: two pungs of the same rank in two suits
    "double_pung": (2, False, lambda *g: _number_pungs(g) and _distinct_suits(g) and len(set(_starts(g))) == 1),
    # 双箭刻
    "two_dragon_pungs": (2, False, lambda *g: all(x.is_pung and is_dragon(x.first) for x in g)),
    # 一色三同顺
    "pure_triple_chow": (3, False, lambda *g: _chows(g) and _identical(g)),
    # 三色三同顺
    "mixed_triple_chow": (3, False, lambda *g: _chows(g) and _distinct_suits(g) and len(set(_starts(g))) == 1),
    # 一色三步高: steps of 1 or of 2
    "pure_shifted_chows": (3, False, lambda *g: _chows(g) and _one_suit(g) and _steps(_starts(g), (1, 2))),
    # 三色三步高: one chow per suit, n, n+1, n+2 in any suit order
    "mixed_shifted_chows": (3, False, lambda *g: _chows(g) and _distinct_suits(g) and _steps(_starts(g), (1,))),
    # 清龙: 123 456 789 of one suit
    "pure_straight": (3, False, lambda *g: _chows(g) and _one_suit(g) and _starts(g) == [1, 4, 7]),
    # 花龙: 123 456 789 in three suits
    "mixed_straight": (3, False, lambda *g: _chows(g) and _distinct_suits(g) and _starts(g) == [1, 4, 7]),
    # 三同刻
    "triple_pung": (3, False, lambda *g: _number_pungs(g) and _distinct_suits(g) and len(set(_starts(g))) == 1),
    # 一色三节高
    "pure_shifted_pungs": (3, False, lambda *g: _number_pungs(g) and _one_suit(g) and _steps(_starts(g), (1,))),
    # 三色三节高
    "mixed_shifted_pungs": (3, False, lambda *g: _number_pungs(g) and _distinct_suits(g) and _steps(_starts(g), (1,))),
    # 大三元
    "big_three_dragons": (3, False, lambda *g: all(x.is_pung and is_dragon(x.first) for x in g)),
    # 三风刻
    "big_three_winds": (3, False, lambda *g: all(x.is_pung and is_wind(x.first) for x in g)),
    # 小三元: two dragon pungs + pair of the third dragon
    "little_three_dragons": (2, True, lambda a, b, p: all(x.is_pung and is_dragon(x.first) for x in (a, b))
                             and is_dragon(p.first) and p.first not in (a.first, b.first)),
    # 一色四同顺
    "quadruple_chow": (4, False, lambda *g: _chows(g) and _identical(g)),
    # 一色四步高
    "four_pure_shifted_chows": (4, False, lambda *g: _chows(g) and _one_suit(g) and _steps(_starts(g), (1, 2))),
    # 一色四节高
    "four_pure_shifted_pungs": (4, False, lambda *g: _number_pungs(g) and _one_suit(g) and _steps(_starts(g), (1,))),
    # 大四喜
    "big_four_winds": (4, False, lambda *g: all(x.is_pung and is_wind(x.first) for x in g)),
    # 小四喜: three wind pungs + pair of the fourth wind
    "little_four_winds": (3, True, lambda a, b, c, p: all(x.is_pung and is_wind(x.first) for x in (a, b, c))
                          and is_wind(p.first) and p.first not in (a.first, b.first, c.first)),
    # 一色双龙会: 123 123 789 789 + 55, one suit
    "pure_terminal_chows": (4, True, lambda a, b, c, d, p: _chows((a, b, c, d)) and _one_suit((a, b, c, d, p))
                            and is_number(p.first) and _starts((a, b, c, d)) == [1, 1, 7, 7] and rank(p.first) == 5),
    # 三色双龙会: 123+789 of two suits, 55 of the third
    "three_suited_terminal_chows": (4, True, lambda a, b, c, d, p: _chows((a, b, c, d)) and is_number(p.first)
                                    and rank(p.first) == 5 and _three_suited_terminal((a, b, c, d), p)),
}


def _three_suited_terminal(chows, pair) -> bool:
    by_suit: dict[int, list[int]] = {}
    for g in chows:
        by_suit.setdefault(suit(g.first), []).append(rank(g.first))
    return (
        len(by_suit) == 2
        and all(sorted(v) == [1, 7] for v in by_suit.values())
        and suit(pair.first) not in by_suit
    )


def detect_combinations(cand: Candidate, ctx: Context) -> list[Instance]:
    """D15 / 4.2 step 2: every instance of every set-C fan of the ruleset, for every set of 2, 3
    or 4 groups (and the pair where the fan needs it).  Standard form only (D12)."""
    if cand.form != "standard":
        return []
    n = cand.pair
    assert n is not None   # the standard form has its pair
    pair = cand.groups[n]
    out = []
    for fid, fdef in ctx.table.items():
        if not fdef.combination:
            continue
        arity, uses_pair, pred = COMBINATION_PREDICATES[fid]
        for idx in itertools.combinations(range(n), arity):
            gs = [cand.groups[i] for i in idx]
            if uses_pair:
                if pred(*gs, pair):
                    out.append(Instance(fid, frozenset(idx + (n,))))
            elif pred(*gs):
                out.append(Instance(fid, frozenset(idx)))
    return out


DETECTABLE_FANS: frozenset = frozenset(
    [fid for _, ids in DETECTORS for fid in ids]
    + list(COMBINATION_PREDICATES)
    + ["chicken_hand", "flower_tiles", "eight_immortals", "four_plants", "four_seasons"]
)
"""Every fan id some part of this module can score (the tests check it covers every table row)."""


# ---------------------------------------------------------------------------
# Selections of combination instances (4.2 step 3: NI, NS, AO, MAX)
# ---------------------------------------------------------------------------


def _ao_ok(sel: Sequence[Instance], table: dict) -> bool:
    """(AO, P5) some order in which each instance contains a group no earlier one contains.

    The order is one in which the fans are "counted one after another" from the
    highest (P4): points must not increase along it (ties in any order).  Without
    this, 123m 456m 789m + 123m would allow 一般高, 连六, then 清龙 (each adding a
    group), contradicting the spec's own P5 example (清龙 + exactly one more)."""
    for order in itertools.permutations(sel):
        pts = [table[i.fan].points for i in order]
        if any(b > a for a, b in zip(pts, pts[1:])):
            continue
        used: set = set()
        ok = True
        for k, inst in enumerate(order):
            if k and inst.members <= used:
                ok = False
                break
            used |= inst.members
        if ok:
            return True
    return False


def _selection_valid(sel: Sequence[Instance], table: dict) -> bool:
    for a, b in itertools.combinations(sel, 2):
        if a.fan == b.fan:
            # (NI, P3) instances of one fan share no group; D17: a fan that is not
            # repeatable counts once, so it is selected at most once.
            if a.members & b.members or table[a.fan].per is None:
                return False
        # (NS, P2) no instance's groups (pair included) within another's
        if a.members <= b.members or b.members <= a.members:
            return False
    return _ao_ok(sel, table)


def selections(instances: Sequence[Instance], table: dict) -> list[tuple[Instance, ...]]:
    """Every maximal valid selection Σ (MAX) of the combination instances (4.2 step 3).

    The three rules are hereditary (a subset of a valid selection is valid), so a
    depth-first search over growing selections reaches every valid one."""
    inst = list(dict.fromkeys(instances))
    valid: list[tuple[int, ...]] = []

    def grow(chosen: tuple[int, ...], start: int) -> None:
        valid.append(chosen)
        for k in range(start, len(inst)):
            cand = chosen + (k,)
            if _selection_valid([inst[i] for i in cand], table):
                grow(cand, k + 1)

    grow((), 0)
    valid_sets = {frozenset(v) for v in valid}
    out = []
    for v in valid:
        s = frozenset(v)
        if any(s | {k} in valid_sets for k in range(len(inst)) if k not in s):
            continue  # not maximal: a compatible instance was left out
        out.append(tuple(inst[i] for i in v))
    return out


# ---------------------------------------------------------------------------
# Exclusions (4.3, single generic pass)
# ---------------------------------------------------------------------------

PUNG_OF_TERMINALS = "pung_of_terminals_or_honors"
# D14: fans whose own pungs never score 幺九刻 (whether or not the row lists it).
D14_OWN_PUNG_FANS = frozenset((
    "big_three_winds", "little_four_winds", "big_four_winds", "big_three_dragons",
    "little_three_dragons", "two_dragon_pungs", "dragon_pung", "prevalent_wind", "seat_wind",
))
# D14 / 4.3: whole-hand fans that clear every 幺九刻.
D14_ALL_INSTANCES = frozenset(("all_honors", "all_terminals", "all_terminals_and_honors"))


def _excludes(fdef: FanDef, ctx: Context) -> tuple[str, ...]:
    if ctx.options["literal_first_turn_exclusions"] and fdef.id in LITERAL_FIRST_TURN_EXCLUDES:
        return LITERAL_FIRST_TURN_EXCLUDES[fdef.id]
    return fdef.excludes


def apply_exclusions(instances: Sequence[Instance], ctx: Context) -> list[tuple[str, int, int]]:
    """4.3: walk the fans by points descending then table order; a cleared fan is skipped
    and its own list is NOT applied; set C vs set C is left to NS; 幺九刻 is scoped per D14.

    Returns ``[(fan_id, count, points_each)]`` of the fans kept."""
    table = ctx.table
    by_fan: dict[str, list[Instance]] = {}
    for inst in instances:
        by_fan.setdefault(inst.fan, []).append(inst)
    removed: set = set()  # ids of removed Instance objects
    order = sorted(by_fan, key=lambda f: (-table[f].points, ctx.order[f]))
    kept: list[tuple[str, int, int]] = []

    def alive(fid: str) -> list[Instance]:
        return [i for i in by_fan.get(fid, ()) if id(i) not in removed]

    def clear_pungs(groups: frozenset) -> None:
        for i in alive(PUNG_OF_TERMINALS):
            if i.members <= groups:
                removed.add(id(i))

    for fid in order:
        mine = alive(fid)
        if not mine:
            continue  # cleared: skip, do not apply its exclusions
        fdef = table[fid]
        own_groups = frozenset().union(*(i.members for i in mine))
        if fid in D14_OWN_PUNG_FANS:
            clear_pungs(own_groups)
        for x in _excludes(fdef, ctx):
            if x not in by_fan:
                continue
            if fdef.combination and table[x].combination:
                continue  # handled by (NS) in 4.2 step 3
            if x == PUNG_OF_TERMINALS:
                if fid in D14_ALL_INSTANCES or (
                        fid == "nine_gates" and get_ruleset(ctx.ruleset).nine_gates_clears_terminal_pungs):
                    clear_pungs(frozenset(range(64)))
                elif fid == "nine_gates":
                    rest = alive(x)
                    if rest:
                        removed.add(id(rest[0]))  # exactly one instance (D14)
                else:
                    clear_pungs(own_groups)
                continue
            for i in by_fan[x]:
                removed.add(id(i))
    for fid in order:
        n = len(alive(fid))
        if n:
            fdef = table[fid]
            kept.append((fid, n if fdef.per else 1, fdef.points))
    return kept


# ---------------------------------------------------------------------------
# Evaluation (4.2)
# ---------------------------------------------------------------------------


def _check_tile(t: object, ruleset: str, what: str) -> int:
    if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= 41:
        raise TileCountError(f"{what}: {t!r} is not a tile index 0-41")
    if t >= 34:
        raise RulesetError(f"{what}: flower {t} cannot be part of the hand")
    if t not in KINDS_IN_PLAY[ruleset]:
        raise RulesetError(f"{what}: tile {t} is not played in ruleset {ruleset!r}")
    return t


def _check_meld(m: object, ruleset: str) -> Meld:
    if not isinstance(m, tuple) or len(m) != 2:
        raise MahjongError(f"meld {m!r} is not a (kind, tiles) pair")
    kind, tiles = m
    tiles = tuple(_check_tile(t, ruleset, "meld") for t in tiles)
    s = sorted(tiles)
    ok = {
        "chi": len(s) == 3 and is_number(s[0]) and s[2] - s[0] == 2 and s[1] - s[0] == 1
        and suit(s[0]) == suit(s[2]),
        "pon": len(s) == 3 and len(set(s)) == 1,
        "kong": len(s) == 4 and len(set(s)) == 1,
        "ckong": len(s) == 4 and len(set(s)) == 1,
    }.get(kind)
    if not ok:
        raise MahjongError(f"invalid meld {kind!r} {tiles}")
    return Meld(kind, tuple(s))


def _own_copies(melds: Sequence[Meld], t: int, exposed_only: bool) -> int:
    """Copies of kind ``t`` in the winner's declared groups (a concealed kong is face down, OP-50)."""
    return sum(m.tiles.count(t) for m in melds if not (exposed_only and m.kind == "ckong"))


_FIRST_TURN_NAMES = (("heavenly", "heavenly (天胡)"), ("earthly", "earthly (地胡)"), ("humanly", "humanly (人胡)"))


def _check_flags(melds: Sequence[Meld], concealed: "list[int] | None", win: "int | None", flowers: list[int],
                 **f: bool) -> None:
    """Flags that contradict each other or the hand (FlagError); only what no game can produce.

    2.11: a first-turn win (天胡/地胡/人胡) has no declared group (any claim or kong before it, a
    concealed kong included, cancels it), 天胡 is the dealer's before his first discard (no 地胡, no
    报听 or 天听 yet), and at most one tile is visible then (no 和绝张).  2.5: 杠上开花 follows a
    kong, and no kong is declared once the wall is empty, so none is robbed on the last tile.  2.6: a
    win on a flower replacement follows a flower, which the winner exposed.  2.8:
    the robbed tile's three other copies are the robbed pung.  D10: with 和绝张 the three other
    copies are visible, so the concealed hand holds none."""
    first = [name for key, name in _FIRST_TURN_NAMES if f[key]]
    if first and melds:
        raise FlagError(f"{' and '.join(first)} with a declared group: any chi, pon or kong before a "
                        "first-turn win, a concealed kong included, cancels it (2.11)")
    if f["heavenly"]:
        other = [name for key, name in (("earthly", "earthly (地胡)"), ("ready_declared", "ready_declared"),
                                        ("heavenly_ready", "heavenly_ready (天听)")) if f[key]]
        if other:
            raise FlagError(f"heavenly (天胡, the dealer's initial 14 tiles) cannot go with {' and '.join(other)} (2.11)")
    if f["kong_replacement"] and not any(m.kind in ("kong", "ckong") for m in melds):
        raise FlagError("kong_replacement (杠上开花) without a kong among the melds: a kong replacement follows a kong (2.5)")
    if f["flower_replacement"] and not flowers:
        raise FlagError("flower_replacement without a flower: the flower drawn before the replacement is exposed (2.6)")
    if f["ready_concealed"] and not f["ready_declared"]:
        raise FlagError("ready_concealed needs ready (报听 declared)")
    if f["robbing_kong"]:
        if f["last_tile"]:
            raise FlagError("robbing_kong with last_tile: no kong can be declared once the wall is empty (2.5, 2.8)")
        assert concealed is not None and win is not None   # not a first-turn win: it has its winning tile
        if concealed.count(win) + _own_copies(melds, win, exposed_only=False):
            raise FlagError(f"robbing_kong on {win}: the other three copies are the robbed pung, so the winner holds none (2.8)")
    if f["last_of_kind"]:
        if first:
            raise FlagError(f"last_of_kind (和绝张) with {' and '.join(first)}: on a first-turn win at most one "
                            "tile is visible, never the three other copies (D10, 2.11)")
        assert concealed is not None and win is not None   # not a first-turn win (refused above)
        if concealed.count(win):
            raise FlagError(f"last_of_kind (和绝张) on {win}: the concealed hand holds another copy, so the three "
                            "other copies cannot all be visible (D10)")


def _score_key(fans: list[tuple[str, int, int]], prefer: tuple[str, ...] = (), last: tuple[str, ...] = ()) -> tuple:
    """4.2 step 5 tie rule: the fan list sorted by (points desc, id asc), one entry per count;
    the lexicographically first list is preferred.  ``prefer`` (the ruleset's
    ``tie_preference``) puts its ids, in its order, before the other fans of equal points;
    ``last`` (its ``tie_last``) puts its ids after every other fan."""
    rank = {fid: k for k, fid in enumerate(prefer)}
    return tuple(sorted((fid in last, -p, rank.get(fid, len(prefer)), fid) for fid, n, p in fans for _ in range(n)))


def evaluate(
    ruleset: str,
    concealed: Sequence[int],
    win_tile: "int | None",
    melds: Sequence = (),
    *,
    self_drawn: bool = False,
    last_tile: bool = False,
    kong_replacement: bool = False,
    flower_replacement: bool = False,
    robbing_kong: bool = False,
    last_of_kind: bool = False,
    ready_declared: bool = False,
    ready_concealed: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    humanly: bool = False,
    heavenly_ready: bool = False,
    flowers: Sequence[int] = (),
    seat_wind: int = 27,
    round_wind: int = 27,
    options: "dict | None" = None,
) -> Result:
    """Evaluate a winning hand (spec 4.2) and return the best reading.

    ``concealed``: tile indices of the concealed hand *without* the winning tile
    (for 天胡, pass all 14 tiles and ``win_tile=None``).  ``melds``: declared groups
    as :class:`Meld` / ``(kind, tiles)``.  Flags: ``self_drawn`` (自摸; implied by
    ``heavenly`` and ``earthly``), ``robbing_kong`` (抢杠, a discard-type win),
    ``kong_replacement`` / ``flower_replacement`` (the winning tile is that replacement),
    ``last_tile`` (D11: the last wall tile when self-drawn, else the discard after it),
    ``last_of_kind`` (D10, computed by the caller; it also holds, whatever the flag says, when
    the three other copies are in the winner's own exposed groups), ``ready_declared`` /
    ``ready_concealed`` (报听; concealed gives 立直 in `two-player-bamboo`),
    first-turn flags (2.11), ``flowers`` (indices 34-41), ``seat_wind`` /
    ``round_wind`` (27-30, `public`), ``options`` (see the module docstring).

    Raises :class:`~mahjong_core.errors.HandSizeError` for a wrong tile count,
    :class:`~mahjong_core.errors.TileCountError` for a fifth copy,
    :class:`~mahjong_core.errors.RulesetError` for a tile or flag the ruleset does
    not know and :class:`NotWinningHandError` when no winning form exists.
    """
    table_rows = fan_table(ruleset)  # RulesetError for an unknown name
    table = {f.id: f for f in table_rows}
    order = {f.id: k for k, f in enumerate(table_rows)}
    opts = dict(DEFAULT_OPTIONS)
    if options:
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise MahjongError(f"unknown option(s) {sorted(unknown)}; known: {sorted(DEFAULT_OPTIONS)}")
        opts.update(options)
    if opts["replacement_bloom"] not in ("any", "last_tile", "kongs_only"):
        raise MahjongError("replacement_bloom must be 'any', 'last_tile' or 'kongs_only'")

    # --- validation -------------------------------------------------------------------------
    concealed = [_check_tile(t, ruleset, "concealed") for t in concealed]
    melds = tuple(_check_meld(tuple(m), ruleset) for m in melds)
    if win_tile is not None:
        _check_tile(win_tile, ruleset, "win_tile")
    if not get_ruleset(ruleset).first_turn_and_ready and (
            heavenly or earthly or humanly or heavenly_ready or ready_declared or ready_concealed):
        raise RulesetError(f"ruleset {ruleset!r} has no first-turn fans and no 报听 (2.7, 2.11)")
    if heavenly:
        # 天胡: no winning tile (3.1); a passed last tile is simply part of the 14.
        if win_tile is not None:
            concealed = concealed + [win_tile]
            win_tile = None
    elif win_tile is None:
        raise HandSizeError("win_tile is required (only 天胡 has no winning tile)")
    if heavenly or earthly:
        self_drawn = True  # D7
    flag_error = FlagError if opts["check_flags"] else MahjongError  # the class only; same message
    if robbing_kong and self_drawn:
        raise flag_error("robbing_kong with a self-drawn win: a robbing win is on another player's kong tile (D7)")
    if (kong_replacement or flower_replacement) and not self_drawn:
        raise flag_error("kong_replacement / flower_replacement need a self-drawn win: a replacement tile is drawn (D7)")
    if humanly and self_drawn:
        raise flag_error("humanly (人胡) is a win on the dealer's first discard, not a self-drawn win (2.11)")
    if len(melds) > 4:
        raise HandSizeError(f"{len(melds)} declared groups; at most 4")
    n_tiles = len(concealed) + (win_tile is not None) + 3 * len(melds)
    if n_tiles != 14:
        raise HandSizeError(f"the hand has {n_tiles} tiles (kongs counted as 3); a win needs 14")
    hand = _counts(concealed + ([win_tile] if win_tile is not None else []))
    concealed_counts = list(hand)
    for m in melds:
        for t in m.tiles:
            hand[t] += 1
    for k, n in enumerate(hand):
        if n > 4:
            raise TileCountError(f"tile {k} appears {n} times; at most 4 copies exist")
    flowers = list(flowers)
    for f in flowers:
        if not isinstance(f, int) or not 34 <= f <= 41:
            raise RulesetError(f"flower {f!r} is not a flower index 34-41")
    if len(set(flowers)) != len(flowers):
        raise TileCountError("each flower exists once")
    for w, name in ((seat_wind, "seat_wind"), (round_wind, "round_wind")):
        if w not in WINDS:
            raise MahjongError(f"{name} must be a wind index 27-30, not {w!r}")
    if opts["check_flags"]:
        _check_flags(
            melds, concealed if win_tile is not None else None, win_tile, flowers, last_tile=last_tile,
            kong_replacement=kong_replacement, flower_replacement=flower_replacement, robbing_kong=robbing_kong, last_of_kind=last_of_kind,
            ready_declared=ready_declared, ready_concealed=ready_concealed, heavenly=heavenly, earthly=earthly,
            humanly=humanly, heavenly_ready=heavenly_ready,
        )
    if win_tile is not None and _own_copies(melds, win_tile, exposed_only=True) == 3:
        last_of_kind = True  # D10: the three other copies are in the winner's own exposed groups

    # --- candidates (4.2 step 1) --------------------------------------------------------------
    discard_win = not self_drawn
    candidates = winning_forms(ruleset, concealed_counts, melds, win_tile, discard_win)
    if not candidates:
        raise NotWinningHandError(f"no winning form of {ruleset!r} for this hand")
    concealed13 = _counts(concealed) if win_tile is not None else None
    waits = wait_set(ruleset, concealed, melds) if win_tile is not None else ()
    ctx = Context(
        ruleset=ruleset, table=table, order=order, hand=hand, concealed13=concealed13, melds=melds,
        win=win_tile, waits=waits, self_drawn=self_drawn, robbing_kong=robbing_kong,
        kong_replacement=kong_replacement, flower_replacement=flower_replacement, last_tile=last_tile,
        last_of_kind=last_of_kind, ready_concealed=ready_concealed,
        heavenly=heavenly, earthly=earthly, humanly=humanly, heavenly_ready=heavenly_ready,
        seat_wind=seat_wind, round_wind=round_wind, options=opts,
    )

    # --- detect, select, exclude, compare (4.2 steps 2-5) ---------------------------------
    best = None
    rs = get_ruleset(ruleset)
    prefer, last, by_division, favoured = rs.tie_preference, rs.tie_last, rs.tie_division_order, \
        set(rs.tie_division_favoured)
    for cand in candidates:
        plain: list[Instance] = []
        for fn, _ids in DETECTORS:
            plain.extend(i for i in fn(cand, ctx) if i.fan in table)
        combos = detect_combinations(cand, ctx)
        for sigma in selections(combos, table):
            fans = apply_exclusions(plain + list(sigma), ctx)
            total = sum(n * p for _, n, p in fans)
            if best is None:
                better = True
            elif by_division and total == best[0] and cand.form == best[2].form == "standard" \
                    and (key := division_key(cand)) != (best_key := division_key(best[2])):
                better = _division_better(key, fans, best_key, best[1], favoured)
            else:
                better = _better(total, fans, best[0], best[1], prefer, last)
            if better:
                best = (total, fans, cand)
    assert best is not None   # candidates is not empty (checked above)
    total, fans, cand = best

    # --- 无番和 (step 6), minimum (step 7), flowers (step 8) ----------------------------------
    if "chicken_hand" in table and total == 0:
        fans = [("chicken_hand", 1, table["chicken_hand"].points)]
        total = table["chicken_hand"].points
    flower_fans = _flower_fans(flowers, ctx)
    all_fans = sorted(fans + flower_fans, key=lambda f: (-f[2], order[f[0]]))
    return Result(
        ruleset=ruleset,
        fans=all_fans,
        total=total + sum(n * p for _, n, p in flower_fans),
        non_flower_total=total,
        meets_minimum=total >= opts["min_fan"],
        form=cand.form,
        groups=cand.groups,
        waits=waits,
    )


def _division_rank(t: int) -> int:
    """A tile's place in PyMahjongGB's tile order: 万, then 条, then 饼, then the honours."""
    return t + 9 if 9 <= t < 18 else t - 9 if 18 <= t < 27 else t


def division_key(cand: Candidate) -> tuple:
    """The concealed groups of a standard reading in the order PyMahjongGB's division search
    meets them (lowest tile first in its tile order, a pung before a chow on the same tile): of two
    readings, the one with the smaller key is the one that search finds first (``tie_division_order``)."""
    return tuple(sorted((_division_rank(min(g.tiles)), g.shape == "chow")
                        for g in cand.groups if not g.declared and g.shape in ("chow", "pung")))


def _division_better(key: tuple, fans: list, best_key: tuple, best_fans: list, favoured: set) -> bool:
    """Two standard readings of equal total from different divisions (their ``division_key``s,
    ``tie_division_order``): one with a favoured fan beats one without; of two with, the later
    division wins; of two without, the earlier (the order PyMahjongGB's search keeps)."""
    fav, best_fav = any(f in favoured for f, _, _ in fans), any(f in favoured for f, _, _ in best_fans)
    if fav != best_fav:
        return fav
    return key > best_key if fav else key < best_key


def _better(total: int, fans: list, best_total: int, best_fans: list, prefer: tuple[str, ...] = (),
            last: tuple[str, ...] = ()) -> bool:
    """P4 highest total; ties by the 4.2 step 5 rule."""
    if total != best_total:
        return total > best_total
    return _score_key(fans, prefer, last) < _score_key(best_fans, prefer, last)


def _flower_fans(flowers: list[int], ctx: Context) -> list[tuple[str, int, int]]:
    """D16 / 4.2 step 8: flower-derived fans, after the choice, with their own exclusions
    (八仙过海 excludes 梅兰竹菊 and 春夏秋冬 but not 花牌, OP-31)."""
    table = ctx.table
    inst = []
    if flowers:
        inst += [Instance("flower_tiles", tag=f) for f in flowers]
    have = set(flowers)
    if have >= set(FLOWERS):
        inst.append(Instance("eight_immortals"))
    if have >= set(SEASONS):
        inst.append(Instance("four_seasons"))
    if have >= set(PLANTS):
        inst.append(Instance("four_plants"))
    inst = [i for i in inst if i.fan in table]
    return apply_exclusions(inst, ctx) if inst else []


# ---------------------------------------------------------------------------
# The compiled evaluator's calling convention, on top of the reference
# ---------------------------------------------------------------------------
_RULESET_BY_CODE = ("two-player", "two-player-bamboo", "public", "mcr")
_FLAG_NAMES = (
    "self_drawn", "last_tile", "kong_replacement", "flower_replacement", "robbing_kong",
    "last_of_kind", "ready_declared", "ready_concealed", "heavenly", "earthly", "humanly",
    "heavenly_ready",
)
_MELD_NAMES = ("chi", "pon", "kong", "ckong")
_FORM_CODES = {"standard": 0, "seven_pairs": 1, "thirteen_orphans": 2, "honors_knitted": 3,
               "knitted_straight": 4}


def evaluate_codes(ruleset_code, concealed, win_tile, melds, flags, flowers, seat_wind,
                   round_wind, min_fan, options, out_counts):
    """:func:`evaluate` with the argument encoding of the compiled ``_fan.evaluate``
    (counts, meld rows ``[kind, first tile]``, flag and option bit sets), so both
    can be called with identical arguments.  Fills ``out_counts`` (table order)
    and returns ``(total, non_flower_total, form code)``."""
    ruleset = _RULESET_BY_CODE[ruleset_code]
    tiles = [k for k in range(34) for _ in range(int(concealed[k]))]
    meld_list = []
    for kind, first in melds:
        kind, first = int(kind), int(first)
        if kind == 255:
            continue
        shape = (first, first + 1, first + 2) if kind == 0 else (first,) * (3 if kind == 1 else 4)
        meld_list.append(Meld(_MELD_NAMES[kind], shape))
    kw = {name: bool(flags >> bit & 1) for bit, name in enumerate(_FLAG_NAMES)}
    bloom = "last_tile" if options & 8 else "kongs_only" if options & 16 else "any"
    opts = {
        "min_fan": min_fan,
        "caishen_enabled": bool(options & 1),
        "caishen_used_as_wild": bool(options & 2),
        "literal_first_turn_exclusions": bool(options & 4),
        "replacement_bloom": bloom,
        "check_flags": bool(options & 32),
    }
    r = evaluate(
        ruleset, tiles, None if win_tile < 0 else int(win_tile), meld_list,
        flowers=[34 + i for i in range(8) if flowers >> i & 1],
        seat_wind=int(seat_wind), round_wind=int(round_wind), options=opts, **kw,
    )
    index = {f.id: k for k, f in enumerate(fan_table(ruleset))}
    for k in range(len(out_counts)):
        out_counts[k] = 0
    for fid, n, _ in r.fans:
        out_counts[index[fid]] = n
    return r.total, r.non_flower_total, _FORM_CODES[r.form]
