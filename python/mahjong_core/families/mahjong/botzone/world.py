"""A round of ours that one Botzone player's history could have come from, for our bots to decide
in (:mod:`.wrapper`).

The player knows its own tiles and everything shown; the world gives every other player the tiles
its actions need (a discard right after a draw is the drawn tile; a pung, chow or kong takes its
tiles from the hand; a concealed kong is of a kind no tile of which was seen) and fills the rest
from the unseen tiles, then scripts the wall (:func:`~..wall.script_wall`: the deal, the head draws,
the flower and kong replacements from the tail) and replays the history's actions on it, the
players who did not act passing.  Botzone's player ``k`` is our seat ``k`` with dealer 0.

A history the world cannot reproduce (an action our ruleset refuses, too many tiles needed) is a
:class:`~mahjong_core.errors.BotzoneHistoryError`; the wrapper then answers safely (PASS, or discard the drawn tile).
"""

from __future__ import annotations

from typing import Any, Sequence

from ....errors import BotzoneHistoryError
from .._constants import A_CHI_HIGH, A_CHI_LOW, A_CHI_MID, A_KONG_CLAIM, A_KONG_SELF, A_PASS, A_PON, N_KONG_DICE
from ..round import Round
from ..settings import settings_and_options
from ..wall import script_wall
from .protocol import BotzoneProtocolError, tile_index

__all__ = ["History", "parse_history", "build_world"]


class History:
    """The parsed history: ``me``, ``quan``, ``hand`` (the 13 dealt tiles), ``flowers`` per player,
    ``events`` (player, word, tiles) from request 2 on, and ``kongs``: the tile of each of my own
    concealed kongs (from my responses)."""

    def __init__(self, me: int, quan: int, hand: list[int], flowers: list[list[int]],
                 events: list[tuple[int, str, tuple[int, ...]]]) -> None:
        self.me, self.quan, self.hand, self.flowers, self.events = me, quan, hand, flowers, events


def parse_history(requests: Sequence[str], responses: Sequence[str]) -> History:
    """The requests (and my responses) as a :class:`History`; a request of no known form is a
    :class:`~.protocol.BotzoneProtocolError`."""
    try:
        w0 = requests[0].split()
        me, quan = int(w0[1]), int(w0[2])
        w1 = requests[1].split()
        counts = [int(x) for x in w1[1:5]]
        hand = [tile_index(x) for x in w1[5:18]]
        rest = [tile_index(x) for x in w1[18:]]
        flowers, k = [], 0
        for c in counts:
            flowers.append(rest[k:k + c])
            k += c
        events: list[tuple[int, str, tuple[int, ...]]] = []
        for i, line in enumerate(requests[2:], 2):
            w = line.split()
            if w[0] == "2":
                events.append((me, "DRAW", (tile_index(w[1]),)))
                continue
            p, word, tiles = int(w[1]), w[2], tuple(tile_index(x) for x in w[3:])
            if word == "GANG" and p == me and events and events[-1][0] == me and events[-1][1] == "DRAW":
                mine = responses[i - 1].split() if i - 1 < len(responses) else []
                tiles = (tile_index(mine[1]),) if len(mine) == 2 else ()
            events.append((p, word, tiles))
    except (IndexError, ValueError) as exc:
        raise BotzoneProtocolError(f"not a history of Chinese Standard Mahjong: {exc}") from None
    return History(me, quan, hand, flowers, events)


def build_world(h: History, ruleset: str) -> "tuple[Any, list[tuple[int, int, int]]]":
    """The round and the actions (seat, mask index) that replay the history on it."""
    s, _ = settings_and_options(ruleset, None, None)
    if s.players != 4:
        raise BotzoneHistoryError(f"the Botzone protocol is for four players; {ruleset!r} has {s.players}")
    me, ev = h.me, h.events
    pool: dict[int, int] = {}
    for t in s.tile_set():
        pool[t] = pool.get(t, 0) + 1
    seen = [0] * 42
    for t in h.hand + [t for f in h.flowers for t in f]:
        seen[t] += 1
    for p, word, tiles in ev:
        for t in tiles:
            seen[t] += 1
        if word == "CHI":   # the chow's other tiles are seen too (its claimed one is a discard, seen there)
            seen[tiles[0] - 1] += 1
            seen[tiles[0] + 1] += 1
    needs: list[list[int]] = [[] for _ in range(4)]
    draws: list[tuple[int, "int | None", bool]] = []    # (player, tile or None: filler, replacement?)
    actions: list[tuple[int, "int | str", int]] = []    # (player, action or "CHI", tile)
    last_discard: "int | None" = None
    for k, (p, word, tiles) in enumerate(ev):
        prev = ev[k - 1] if k else None
        if word in ("DRAW", "BUHUA"):
            repl = prev is not None and prev[0] == p and prev[1] in ("BUHUA", "GANG", "BUGANG")
            tile = tiles[0] if tiles else None
            if tile is None and k + 1 < len(ev) and ev[k + 1][0] == p:
                nw, nt = ev[k + 1][1], ev[k + 1][2]
                if nw in ("PLAY", "BUGANG"):
                    tile = nt[0]
                elif nw == "GANG":
                    free = [t for t in range(34) if seen[t] == 0 and pool.get(t, 0) >= 4]
                    if not free:
                        raise BotzoneHistoryError("no kind is left for another player's concealed kong")
                    tile = free[0]
                    seen[tile] = 4
                    needs[p] += [tile] * 3
                    ev[k + 1] = (p, "GANG", (tile,))
            draws.append((p, tile, repl))
        elif word == "PLAY":
            actions.append((p, tiles[0], 0))
            last_discard = tiles[0]
        elif word in ("PENG", "CHI"):
            if last_discard is None:
                raise BotzoneHistoryError(f"{word} with no discard to claim")
            d = last_discard
            if word == "PENG":
                if p != me:
                    needs[p] += [d, d, tiles[0]]
                actions += [(p, A_PON, 0), (p, tiles[-1], 0)]
            else:
                mid = tiles[0]
                if p != me:
                    needs[p] += [t for t in (mid - 1, mid, mid + 1) if t != d][:2] + [tiles[1]]
                actions += [(p, {mid - 1: A_CHI_LOW, mid: A_CHI_MID, mid + 1: A_CHI_HIGH}.get(d, -1), 0),
                            (p, tiles[1], 0)]
            last_discard = tiles[-1]
        elif word == "GANG":
            if prev is not None and prev[0] == p and prev[1] == "DRAW":   # concealed, after the draw
                if not tiles:
                    raise BotzoneHistoryError("a concealed kong of unknown tile")
                actions.append((p, A_KONG_SELF + tiles[0], 0))
            else:
                if last_discard is None:
                    raise BotzoneHistoryError("GANG with no discard to claim")
                if p != me:
                    needs[p] += [last_discard] * 3
                actions.append((p, A_KONG_CLAIM, 0))
        elif word == "BUGANG":
            actions.append((p, A_KONG_SELF + tiles[0], 0))
    # the dealer's 14th tile is its first draw (and a flower there is replaced at the deal)
    if not draws or draws[0][0] != 0:
        raise BotzoneHistoryError("the history does not start with the dealer's draw")
    # tiles taken from the pool: known ones first, fillers after
    def take(t: int) -> None:
        if pool.get(t, 0) <= 0:
            raise BotzoneHistoryError(f"more copies of tile {t} than the ruleset has")
        pool[t] -= 1
    for t in h.hand + [t for f in h.flowers for t in f]:
        take(t)
    for p in range(4):
        for t in needs[p]:
            take(t)
    for _, drawn, _ in draws:
        if drawn is not None:
            take(drawn)
    filler = [t for t in sorted(pool) if t < 34 for _ in range(pool[t])]
    # spread the fillers (a sorted run would hand a player a kong of fillers)
    filler = filler[::7] + filler[1::7] + filler[2::7] + filler[3::7] + filler[4::7] + filler[5::7] + filler[6::7]

    def fill() -> int:
        if not filler:
            raise BotzoneHistoryError("no unseen tile is left")
        return filler.pop()
    draw_tiles: list[tuple[int, int, bool]] = [(p, t if t is not None else fill(), r) for p, t, r in draws]
    # the dealer's 14th tile is its first draw; if a flower, the replacements that follow it are
    # made at the deal, after the dealer's other flowers
    chain: list[int] = []
    j = 1
    if draw_tiles[0][1] >= 34:
        while j < len(draw_tiles) and draw_tiles[j][0] == 0 and draw_tiles[j][2]:
            chain.append(draw_tiles[j][1])
            j += 1
            if chain[-1] < 34:
                break
    later = draw_tiles[j:]
    hands: list[list[int]] = []
    tail: list[int] = []
    for p in range(4):
        n_real = 13 - len(h.flowers[p])
        if p == me:
            real = list(h.hand)
        else:
            if len(needs[p]) > 13:
                raise BotzoneHistoryError(f"player {p} needs {len(needs[p])} tiles from a hand of 13")
            real = needs[p] + [fill() for _ in range(13 - len(needs[p]))]
        hands.append(real[:n_real] + list(h.flowers[p]) + ([draw_tiles[0][1]] if p == 0 else []))
        tail += real[n_real:]             # the replacements of the dealt flowers, in dealing order
        if p == 0:
            tail += chain
    head = [t for p, t, r in later if not r]
    tail += [t for p, t, r in later if r]
    wall = script_wall(s, hands, head, tail, dealer=0)
    rnd = Round(ruleset, 0, dealer=0, round_wind=27 + h.quan, wall=wall, kong_dice=[1] * N_KONG_DICE)
    return rnd, [(p, int(a), 0) if isinstance(a, int) else (p, -1, 0) for p, a, _ in actions]


def replay(rnd: Any, actions: Sequence[tuple[int, int, int]], me: int, window: bool) -> bool:
    """Play the history's actions on ``rnd``, the others passing; stop when ``me`` is asked after
    the last one, in a claim window if ``window`` else on its turn (True), or when the round goes
    on without asking ``me`` so (False)."""
    k = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        legal = rnd.legal_indices(seat)
        if k < len(actions):
            p, a, _ = actions[k]
            if seat == p and a in legal:
                rnd.step(seat, a)
                k += 1
                continue
            if seat == p and 0 <= a < 34 and a + 34 in legal:   # a discard our ruleset offers as 报听 only
                rnd.step(seat, a + 34)
                k += 1
                continue
            if A_PASS in legal:
                rnd.step(seat, A_PASS)
                continue
            raise BotzoneHistoryError(f"player {p}'s action {a} is not legal in our round (seat {seat} to act)")
        if seat == me and (A_PASS in legal) == window:
            return True
        if A_PASS not in legal:
            return False
        rnd.step(seat, A_PASS)
    return False
