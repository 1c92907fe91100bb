"""The logical wall of spec 1.4 (normative), the seeded shuffle, dealing order and test helpers.

The wall is a sequence of ``K`` stacks in drawing order; stack ``j`` holds ``tiles[2j]`` (top) and
``tiles[2j+1]`` (bottom).  Head draws take the first non-empty stack (top, then bottom); tail draws
take the last non-empty stack (top, then bottom); the `public` kong die takes the d-th non-empty
stack counted from the tail (1 = last), or the one nearest the head if fewer remain (OP-17).

State is plain data (a tile list, a 0/1 "taken" list, two stack pointers and a count).  The
compiled engine (:mod:`mahjong_core._round`) keeps the same fields in C; :class:`Wall` here is the
reference engine's wall and the read-only snapshot ``Round.wall`` returns.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from ...errors import MahjongError, TileCountError
from .tiles import parse_tiles
from ..._round import shuffle_tiles
from .settings import FlowSettings
from ._constants import N_KONG_DICE

__all__ = [
    "Wall",
    "shuffle_wall",
    "deal_order",
    "physical_position",
    "script_wall",
    "N_KONG_DICE",
]

# N_KONG_DICE: kong dice pre-rolled per round, at most one kong per tile kind (the generated constants)


class Wall:
    """The logical wall: draws from the head, the tail, or by the kong die (1.4)."""

    __slots__ = ("tiles", "taken", "head", "tail", "remaining")

    def __init__(self, tiles: Sequence[int]) -> None:
        self.tiles: list[int] = [int(t) for t in tiles]
        if len(self.tiles) % 2:
            raise MahjongError(f"a wall has an even number of tiles (stacks of two), got {len(self.tiles)}")
        self.taken: list[int] = [0] * len(self.tiles)
        self.head = 0
        self.tail = len(self.tiles) // 2 - 1
        self.remaining = len(self.tiles)

    # -------------------------------------------------------------- draws
    def _stack_empty(self, j: int) -> bool:
        return self.taken[2 * j + 1] == 1 and self.taken[2 * j] == 1

    def _take(self, j: int) -> int:
        taken = self.taken
        i = 2 * j if not taken[2 * j] else 2 * j + 1
        taken[i] = 1
        self.remaining -= 1
        if taken[2 * j] and taken[2 * j + 1]:
            h, t = self.head, self.tail
            while h <= t and taken[2 * h] and taken[2 * h + 1]:
                h += 1
            while t >= h and taken[2 * t] and taken[2 * t + 1]:
                t -= 1
            self.head, self.tail = h, t
        return self.tiles[i]

    def draw_head(self) -> int:
        if self.remaining <= 0:
            raise MahjongError("the wall is empty")
        return self._take(self.head)

    def draw_tail(self) -> int:
        if self.remaining <= 0:
            raise MahjongError("the wall is empty")
        return self._take(self.tail)

    def die_stack(self, d: int) -> int:
        """Index of the stack the die ``d`` (1-6) points at (OP-17)."""
        j = self.tail
        c = 1
        while c < d:
            k = j - 1
            while k >= self.head and self._stack_empty(k):
                k -= 1
            if k < self.head:
                break
            j = k
            c += 1
        return j

    def draw_die(self, d: int) -> int:
        if self.remaining <= 0:
            raise MahjongError("the wall is empty")
        return self._take(self.die_stack(d))

    # -------------------------------------------------------------- data
    def to_dict(self) -> dict[str, Any]:
        return {"tiles": list(self.tiles), "taken": "".join("1" if x else "0" for x in self.taken)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Wall":
        w = cls(d["tiles"])
        taken = d["taken"]
        w.taken = [1 if c == "1" else 0 for c in taken]
        if len(w.taken) != len(w.tiles):
            raise MahjongError("wall: 'taken' and 'tiles' differ in length")
        w.remaining = len(w.tiles) - sum(w.taken)
        k = len(w.tiles) // 2
        h, t = 0, k - 1
        while h <= t and w._stack_empty(h):
            h += 1
        while t >= h and w._stack_empty(t):
            t -= 1
        w.head, w.tail = h, t
        return w

    def remaining_tiles(self) -> list[int]:
        """The tiles still in the wall (for conservation checks; never shown to players)."""
        return [t for t, x in zip(self.tiles, self.taken) if not x]


def shuffle_wall(settings: FlowSettings, seed: int, spawn_key: Sequence[int] = ()) -> tuple[list[int], list[int], list[int]]:
    """``(tiles in drawing order, [die1, die2], kong dice)`` from a seed, platform independent:
    numpy ``SeedSequence(seed, spawn_key)`` -> ``PCG64`` -> ``Generator.permutation`` of the
    sorted tile set, then ``integers(1, 7, size=2)`` and ``integers(1, 7, size=34)``.  The draws
    run in the compiled core on the generator's bit stream, with NumPy's own algorithms (the tests
    compare them with the ``Generator`` calls)."""
    ss = np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in spawn_key) if spawn_key else ())
    return shuffle_tiles(settings.tile_set(), np.random.PCG64(ss), N_KONG_DICE)


def deal_order(players: int, dealer: int) -> list[int]:
    """The seat receiving each dealt tile, in head-draw order (2.2 step 4): three rounds of four
    tiles each (dealer first, then turn order), then two more for the dealer and one for each other."""
    out: list[int] = []
    for _ in range(3):
        for k in range(players):
            out.extend([(dealer + k) % players] * 4)
    out.extend([dealer] * 2)
    for k in range(1, players):
        out.append((dealer + k) % players)
    return out


def physical_position(players: int, dealer: int, dice_sum: int, stack: int, stacks_per_wall: int = 18) -> tuple[int, int]:
    """Display only (2.2 step 3, OP-40): ``(owner seat, stack counted from the owner's right end,
    0-based)`` of logical stack ``stack``.  The S-th player's wall is opened; dealing starts at its
    stack S+1 and runs on into the next wall; the tail is its S-th stack."""
    opened = (dealer + dice_sum - 1) % players
    g = dice_sum + stack
    w = (g // stacks_per_wall) % players
    return (opened - w) % players, g % stacks_per_wall


def _tiles(x: "str | Iterable[int]") -> list[int]:
    if isinstance(x, str):
        return parse_tiles(x)
    return [int(t) for t in x]


def script_wall(
    settings: FlowSettings,
    hands: Sequence["str | Iterable[int]"],
    draws: "str | Iterable[int]" = (),
    tail: "str | Iterable[int]" = (),
    *,
    dealer: int = 0,
    fill_seed: int = 0,
) -> list[int]:
    """A wall (drawing order) that deals ``hands[seat]`` (dealer 14, others 13 tiles, flowers
    allowed), then gives ``draws`` as the next head draws and ``tail`` as the tail draws in the
    order they are taken (plain tail draws, or kong dice of 1).  The remaining tiles are shuffled
    into the middle with ``fill_seed``.  For tests and tutorials."""
    p = settings.players
    if len(hands) != p:
        raise MahjongError(f"{p} hands needed, got {len(hands)}")
    hand_lists = [_tiles(h) for h in hands]
    for s, h in enumerate(hand_lists):
        want = 14 if s == dealer else 13
        if len(h) != want:
            raise MahjongError(f"seat {s} must be dealt {want} tiles, got {len(h)}")
    order = deal_order(p, dealer)
    pos = [0] * p
    head: list[int] = []
    for s in order:
        head.append(hand_lists[s][pos[s]])
        pos[s] += 1
    head.extend(_tiles(draws))
    tail_list = _tiles(tail)
    n = settings.n_tiles
    pool: dict[int, int] = {}
    for t in settings.tile_set():
        pool[t] = pool.get(t, 0) + 1
    for t in head + tail_list:
        if pool.get(t, 0) <= 0:
            raise TileCountError(f"script_wall: too many copies of tile {t}")
        pool[t] -= 1
    rest = [t for t, c in sorted(pool.items()) for _ in range(c)]
    rng = np.random.Generator(np.random.PCG64(fill_seed))
    rest = [int(t) for t in rng.permutation(np.array(rest, dtype=np.int64))] if rest else []
    if len(head) + len(tail_list) > n:
        raise MahjongError("script_wall: more scripted tiles than the wall holds")
    # tail draws in order take positions n-2, n-1, n-4, n-3, ...
    tail_pos: list[int] = []
    k = n // 2 - 1
    while len(tail_pos) < len(tail_list):
        tail_pos.append(2 * k)
        if len(tail_pos) < len(tail_list):
            tail_pos.append(2 * k + 1)
        k -= 1
    wall: list[int | None] = [None] * n
    for p_, t in zip(tail_pos, tail_list):
        wall[p_] = t
    # head draws take the positions in order, skipping those the tail draws took first
    free = (i for i in range(n) if wall[i] is None)
    for t in head:
        wall[next(free)] = t
    it = iter(rest)
    for i in range(n):
        if wall[i] is None:
            wall[i] = next(it)
    return [int(t) for t in wall]  # type: ignore[arg-type]
