"""Discard advisor (何切 / 牌效) that knows the minimum fan.

:func:`advise` takes a hand that must discard (3k+2 concealed tiles, 14 with the melds, kongs
counted as 3) and answers, for every distinct tile it may discard:

``fan_shanten``
    the fan-aware shanten of the 13 tiles left (:mod:`.fan_shanten`: the fewest draws, minus
    one, to a win that reaches the minimum fan, 起和), with the discarded tile counted as seen;
``shanten``
    the plain shanten of the same 13 tiles (any complete hand);
``effective``
    the effective tiles (进张): every kind whose draw lowers the fan-aware shanten (with the best
    discard after it; for a ready hand, the kinds that win with enough fans), each with its live
    count ``4 - in hand (the 14 tiles) - in the melds - visible``; a kind with no live copy is
    left out (it cannot be drawn).  A tile that finishes a qualifying win only as the winning
    tile (the 嵌张 that carries the last fans only when won on) is effective only for a ready hand;
``live_total``
    the sum of those live counts;
``ways`` and ``probability``
    the second-order figure: with ``n = fan_shanten + 1``, ``ways`` is the number of orders of
    ``n`` unseen tiles (each physical copy counted apart) that, drawn in that order with the
    spare tiles discarded on the way, let the hand win with enough fans on the last one, and
    ``probability = ways / (unseen (unseen - 1) ... (unseen - n + 1))`` is the chance that the
    next ``n`` draws do it.  For a ready hand (n = 1) ``ways`` is ``live_total`` and
    ``probability`` the chance that the next tile wins.

Options are ranked best first by: fan-aware shanten (an exact value before a lower bound of the
same value), then ``live_total`` (more first), ``ways`` (more first), plain shanten, and the tile
index.  A discard whose fan-aware shanten the search does not reach (``max_draws`` drawn tiles,
or the first budget, the best discard's plain shanten + 1, when that is larger: see
:mod:`.fan_shanten`) has ``fan_exact`` False, its value a lower bound, and no effective tiles.

>>> a = advise("123m456p789s11pEEN", ruleset="public")     # 花龙 (8) whatever the pair
>>> o = a.best
>>> o.discard_tile, o.fan_shanten, [e.to_json() for e in o.effective], o.live_total, o.ways
('N', 0, [{'tile': '1p', 'live': 2}, {'tile': 'E', 'live': 2}], 4, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, factorial, perm
from typing import Any, Iterable, overload

import numpy as np

from ..._types import HandLike, MahjongRulesetName, MeldLike, TileLike, WindLike
from ...errors import MahjongError
from .. import registry
from .constants import FAMILY_NAME
from ._constants import MELD_NAMES
from .fan_shanten import (
    DEFAULT_MAX_DRAWS,
    Found,
    Problem,
    TargetShanten,
    Work,
    _check_max_draws,
    prepare,
    row_keys,
    search,
    standard_shape,
    target_shanten,
)
from .hand import shanten as _plain_shanten, shanten_batch as _plain_shanten_batch
from .rulesets import DEFAULT_RULESET, Ruleset
from .tiles import format_counts, format_tiles, meld_tiles, tile_short

__all__ = ["Advice", "DiscardOption", "LiveTile", "advise"]


@dataclass(frozen=True)
class LiveTile:
    """An effective tile kind and its live (unseen) copies."""

    tile: int
    live: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": tile_short(self.tile), "live": self.live}


@dataclass(frozen=True)
class DiscardOption:
    """What one discard leaves (field meanings in the module docstring)."""

    discard: int
    fan_shanten: int
    fan_exact: bool
    shanten: int
    effective: tuple[LiveTile, ...]
    live_total: int
    ways: int
    probability: float

    @property
    def discard_tile(self) -> str:
        return tile_short(self.discard)

    def to_json(self) -> dict[str, Any]:
        return {"discard": self.discard_tile, "fan_shanten": self.fan_shanten, "fan_exact": self.fan_exact,
                "shanten": self.shanten, "effective": [e.to_json() for e in self.effective],
                "live_total": self.live_total, "ways": self.ways, "probability": self.probability}


@dataclass(frozen=True)
class Advice:
    """The result of :func:`advise`: every distinct discard, best first."""

    ruleset: str
    hand: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]
    min_fan: int
    unseen: int
    """Tiles not seen by the player (the pool the draws come from)."""
    options: tuple[DiscardOption, ...]
    targets: tuple[TargetShanten, ...]
    """The breakdown by target fan of the hand after the best discard."""

    @property
    def best(self) -> DiscardOption:
        return self.options[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "hand": format_counts(np.array(self.hand, np.uint8)),
            "melds": [f"{MELD_NAMES[k]} {format_tiles(meld_tiles(k, f))}" for k, f in self.melds],
            "min_fan": self.min_fan,
            "unseen": self.unseen,
            "options": [o.to_json() for o in self.options],
            "targets": [t.to_json() for t in self.targets],
        }


_MAHJONG_ONLY = {"seat_wind": None, "round_wind": None, "win": "any", "min_fan": None, "max_draws": DEFAULT_MAX_DRAWS}
"""The mahjong keywords of :func:`advise` and their defaults: a call for another family's ruleset
must leave them alone."""

_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(5)], np.int64)
"""C(n, k) for the counts a tile kind can have (0-4)."""


def _option(d: int, found: Found, budget: int, plain: int, live: tuple[int, ...], unseen: int) -> DiscardOption:
    if found.n is None:   # more than `budget` draws: shanten >= budget, and never below plain shanten
        return DiscardOption(d, max(budget, plain), False, plain, (), 0, 0, 0.0)
    n = found.n
    # Each row: a drawn multiset A (the fewest draws, every tile of it needed) and a winning
    # tile w.  The hand's spare tiles are all among the 13 held (a spare drawn tile would make
    # a smaller A), so A's draws may come in any order that ends on a copy of a winning tile of
    # A.  The rows sorted by (A, w) give the distinct A and the distinct (A, w) pairs.
    k1, k2 = row_keys(found.need)
    k2w = k2 * 34 + found.wins                # 5**17 * 34 < 2**63
    order = np.lexsort((k2w, k1))
    k1, k2w = k1[order], k2w[order]
    step = k1[1:] != k1[:-1]
    pair = np.ones(len(order), bool)          # the first row of each (A, w)
    pair[1:] = step | (k2w[1:] != k2w[:-1])
    first = pair.copy()                       # the first row of each A
    first[1:] &= step | (k2w[1:] // 34 != k2w[:-1] // 34)
    a = found.need[order[first]]              # the distinct A
    of = np.cumsum(first)[pair] - 1           # each pair's A
    w = found.wins[order[pair]]               # each pair's winning tile
    copies = a[of, w]                         # A[w]: the copies of the winning tile drawn
    # effective: a kind drawn first in such an order (a tile of A other than the last one), so
    # not the winning tile of an A with only one unless A holds it twice; for a ready hand
    # (n = 1) the one tile drawn is the win
    lowers = a > 0
    if n > 1:
        only = np.flatnonzero(np.bincount(of, minlength=len(a)) == 1)   # A with one winning tile
        at = np.flatnonzero(first[pair])[only]                           # ... its pair
        lowers[only, w[at]] = copies[at] >= 2
    effective = tuple(LiveTile(int(t), live[t]) for t in np.flatnonzero(lowers.any(axis=0)))
    # ordered draws: C(live[t], A[t]) physical sets per kind, n! orders of a set, of which
    # A[w] (n-1)! end on a copy of w
    sets = _COMB[np.asarray(live)[None, :], a].prod(axis=1)
    ways = int((sets[of] * copies).sum()) * factorial(n - 1)
    total = perm(unseen, n)
    return DiscardOption(d, n - 1, True, plain, effective, sum(e.live for e in effective), ways,
                         ways / total if total else 0.0)


def _plain_lowering(prob: Problem, after: list[tuple[int, ...]], plains: list[int],
                    live: tuple[int, ...]) -> dict[int, int]:
    """For each discard (the tile taken out of ``prob.hand`` to leave the ``after`` hand of plain
    shanten ``plains``): the live copies of the kinds whose draw lowers the plain shanten."""
    kinds = [t for t in range(34) if live[t]]
    drawn = np.array([h for h in after for _ in kinds], np.uint8).reshape(-1, 34)
    drawn[np.arange(len(drawn)), kinds * len(after)] += 1
    sh = _plain_shanten_batch(drawn, ruleset=prob.rs).reshape(len(after), len(kinds))
    lower = sh < np.array(plains)[:, None]
    weights = np.array([live[t] for t in kinds], np.int64)
    out = {}
    for h, row in zip(after, lower):
        d = next(t for t in range(34) if h[t] < prob.hand[t])
        out[d] = int(weights[row].sum())
    return out


@overload
def advise(hand: HandLike, *, ruleset: "MahjongRulesetName | Ruleset" = ..., melds: Iterable[MeldLike] = (),
           visible: "HandLike | Iterable[TileLike] | None" = None, seat_wind: WindLike | None = None,
           round_wind: WindLike | None = None, win: str = "any", min_fan: int | None = None,
           max_draws: int = DEFAULT_MAX_DRAWS) -> Advice: ...
@overload
def advise(hand: Any, *, ruleset: str, melds: Iterable[Any] = (), visible: Any = None, **options: Any) -> Any: ...
def advise(
    hand: Any,
    *,
    ruleset: str | Ruleset = DEFAULT_RULESET,
    melds: Iterable[Any] = (),
    visible: Any = None,
    seat_wind: WindLike | None = None,
    round_wind: WindLike | None = None,
    win: str = "any",
    min_fan: int | None = None,
    max_draws: int = DEFAULT_MAX_DRAWS,
    **options: Any,
) -> Any:
    """Rank every distinct discard of a hand that must discard (see the module docstring).

    ``hand``: the concealed tiles (3k+2, a tile string or 34 counts); ``melds``: the declared
    groups (``"chi 123m"``, ``"pon CCC"``, ``"kong EEEE"``, ``"ckong 9999m"``); ``visible``: the
    tiles seen outside the hand and the player's own melds (discards of every player, the other
    players' melds), flowers ignored; ``seat_wind``/``round_wind``: E S W N (default E);
    ``win``: how a completed hand is scored, ``"any"`` (discard or self-draw, whichever reaches
    the minimum), ``"discard"`` or ``"self_drawn"``; ``min_fan``: the ruleset's by default;
    ``max_draws``: the search limit of the fan-aware shanten (1-14).

    A ruleset of another family goes to that family's advisor (``Family.hand_layer``; the long-card
    family's :func:`mahjong_core.families.longcard.advise.advise`, whose keywords -- ``banker``,
    ``jiang``, ``qi_faces`` ... -- pass through ``options``; ``melds`` are its declared groups); the
    mahjong keywords must then keep their defaults.

    Raises :class:`~mahjong_core.errors.HandSizeError` (not 14 tiles with the melds),
    :class:`~mahjong_core.errors.TileCountError` (a fifth copy across hand, melds and visible),
    :class:`~mahjong_core.errors.RulesetError` (a tile the ruleset does not play) and the tile
    and meld parse errors.
    """
    other = registry.hand_hook(ruleset, FAMILY_NAME, "advise", "mj.advise")
    if other is not None:   # another family's ruleset: its advisor, with its own options
        given = {"seat_wind": seat_wind, "round_wind": round_wind, "win": win, "min_fan": min_fan,
                 "max_draws": max_draws}
        for key, default in _MAHJONG_ONLY.items():
            if given[key] != default:
                raise MahjongError(f"{key} is a mahjong option of advise; ruleset {ruleset!r} does not take it")
        return other(hand, ruleset=ruleset, melds=melds, visible=visible, **options)
    if options:
        raise MahjongError(f"advise: {sorted(options)[0]} is not an option of a mahjong ruleset "
                           "(another family's rulesets take it)")
    limit = _check_max_draws(max_draws)
    prob = prepare(hand, ruleset=ruleset, melds=melds, visible=visible, seat_wind=seat_wind,
                   round_wind=round_wind, win=win, min_fan=min_fan, tiles=14)
    return advise_problem(prob, limit)


def advise_problem(prob: Problem, limit: int, compiled: bool = True, *, deadline: float | None = None,
                   breakdown: bool = True, work: Work | None = None) -> Advice:
    """:func:`advise` of a validated 14-tile problem (``compiled``, ``deadline``, ``work``: see
    :func:`.fan_shanten.search`; with a deadline passed or the work's allowance reached the
    options are those of the last budget searched, a discard not found being more than that many
    draws away).  ``breakdown=False``: no breakdown by target fan (``targets`` empty; the options
    are the same), for a caller that only ranks the discards.

    When the allowance stops the search before its first budget, no discard is found and all are
    ranked by plain shanten, then by the live tiles that lower it (more first), then the tile: the
    greedy bot's order, the best guess without the fans (such a hand is far from any win: its
    first budget, plain shanten + 1 draws, is the one with thousands of completions)."""
    live = prob.live
    unseen = sum(live)
    discards = [t for t in range(34) if prob.hand[t]]
    after = []
    for d in discards:
        h = list(prob.hand)
        h[d] -= 1
        after.append(tuple(h))
    plains = [_plain_shanten(np.array(h, np.uint8), ruleset=prob.rs) for h in after]
    found, budget = search(prob, prob.hand, after, live, [standard_shape(prob.rs)], min(plains) + 1, limit,
                           compiled=compiled, deadline=deadline, work=work)
    options = [_option(d, f, budget, p, live, unseen) for d, f, p in zip(discards, found, plains)]
    if budget < min(plains) + 1:        # not even the first budget searched: the plain order
        lowering = _plain_lowering(prob, after, plains, live)
        options.sort(key=lambda o: (o.shanten, -lowering[o.discard], o.discard))
    else:
        options.sort(key=lambda o: (o.fan_shanten, not o.fan_exact, -o.live_total, -o.ways, o.shanten, o.discard))
    best = options[0]
    best_hand = after[discards.index(best.discard)]
    tgt = (target_shanten(prob, best_hand, live, plains[discards.index(best.discard)] + 1, limit, compiled)
           if breakdown else ())
    return Advice(prob.rs.name, prob.hand, prob.melds, prob.min_fan, unseen, tuple(options), tgt)
