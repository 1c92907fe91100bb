"""The Botzone requests one seat of our round receives: its events (``Round.log_for(seat)``) in
the protocol's turns (:mod:`.protocol`).

Botzone's player ids are seat winds (0 is the dealer, East); our seat ``s`` is id
``(s - dealer) % 4``.  The deal and its flower replacements are the requests ``0`` and ``1``
(our dealer is dealt 14 tiles; Botzone deals 13 and lets the dealer draw: the 14th is the dealer's
first ``2 T``).  A draw that brings a flower is ``BUHUA``; a claim is announced with the discard
that follows it (``PENG T``, ``CHI M T``), so a claim whose discard is not made yet is held back.

Each request has a *kind*, the responses it allows: ``"draw"`` (the seat's own draw: PLAY, GANG,
BUGANG, HU), ``"claim"`` (another player's discard: PASS, HU, PENG, CHI, GANG), ``"rob"``
(another player's added kong: PASS, HU) and ``"pass"`` (PASS only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .protocol import tile_code

__all__ = ["Request", "requests_for", "botzone_id"]


@dataclass(frozen=True)
class Request:
    """One request: its ``line``, its ``kind``; for a ``"claim"``: the seat's concealed tiles then
    (``hand``, 34 counts), the claimed tile, the discarder's Botzone id, and what the round did
    with the tile (``taken``: the word PENG, CHI or GANG and the taker's id; None when nobody
    claimed it, or when it is not known yet)."""

    line: str
    kind: str
    hand: "tuple[int, ...]" = ()
    tile: int = -1
    discarder: int = -1
    taken: "tuple[str, int] | None" = None


def botzone_id(seat: int, dealer: int, players: int = 4) -> int:
    """Our seat as a Botzone player id (seat wind, 0 = the dealer)."""
    return (seat - dealer) % players


_DEAL = ("deal", "flower")


def requests_for(log: Sequence[Any], seat: int) -> list[Request]:
    """The requests ``seat`` has received by the end of ``log`` (its own view of the round)."""
    header = log[0]
    dealer, players = header["dealer"], 4
    quan = header["round_wind"] - 27

    def bid(s: int) -> int:
        return botzone_id(s, dealer, players)

    out = [Request(f"0 {bid(seat)} {quan}", "pass")]
    events = [e for e in log[1:] if e["type"] not in ("dice", "action", "ready", "header")]
    # the deal: deal events, flowers and their replacement draws
    i = 0
    own: list[int] = []
    flowers: list[list[int]] = [[] for _ in range(players)]
    while i < len(events):
        e = events[i]
        if e["type"] == "deal":
            if e["seat"] == seat:
                own += [t for t in e["tiles"] if t < 34]
            flowers[e["seat"]] += list(e.get("flowers") or [t for t in e.get("tiles", ()) if t >= 34])
        elif e["type"] == "flower":
            if e["tile"] not in flowers[e["seat"]]:
                flowers[e["seat"]].append(e["tile"])
        elif e["type"] == "draw" and e["from"] != "head":
            if e["seat"] == seat and "tile" in e and e["tile"] < 34:
                own.append(e["tile"])
        else:
            break
        i += 1
    by_id = [flowers[(dealer + b) % players] for b in range(players)]
    out.append(Request(" ".join(["1", *(str(len(f)) for f in by_id), *(tile_code(t) for t in own[:13]),
                                 *(tile_code(t) for f in by_id for t in f)]), "pass"))
    out.append(Request(f"2 {tile_code(own[13])}", "draw") if seat == dealer else Request("3 0 DRAW", "pass"))
    hand = [0] * 34          # the seat's concealed tiles, as the judge holds them
    for x in own:
        hand[x] += 1
    held: "tuple[str, int, str] | None" = None    # a claim waiting for its discard: (word, seat, tiles)
    while i < len(events):
        e = events[i]
        t, s = e["type"], e.get("seat")
        mine = s == seat
        if mine:
            _take_own(hand, e)
        if t == "draw":
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is not None and nxt["type"] == "flower" and nxt["seat"] == s:
                out.append(Request(f"3 {bid(s)} BUHUA {tile_code(nxt['tile'])}", "pass"))
                i += 1
            elif mine:
                out.append(Request(f"2 {tile_code(e['tile'])}", "draw"))
            else:
                out.append(Request(f"3 {bid(s)} DRAW", "pass"))
        elif t == "discard":
            kind = "pass" if mine else "claim"
            nxt = events[i + 1] if i + 1 < len(events) else None
            taken = None
            if nxt is not None and nxt["type"] in ("pon", "chi", "kong") and nxt.get("from") == s:
                taken = ({"pon": "PENG", "chi": "CHI", "kong": "GANG"}[nxt["type"]], bid(nxt["seat"]))
            extra = dict(hand=tuple(hand), tile=e["tile"], discarder=bid(s), taken=taken) if kind == "claim" else {}
            if held is not None and held[1] == s:
                out.append(Request(f"3 {bid(s)} {held[0]}{held[2]} {tile_code(e['tile'])}", kind, **extra))
                held = None
            else:
                out.append(Request(f"3 {bid(s)} PLAY {tile_code(e['tile'])}", kind, **extra))
        elif t == "pon":
            held = ("PENG", s, "")
        elif t == "chi":
            held = ("CHI", s, " " + tile_code(sorted(e["tiles"])[1]))
        elif t == "kong":
            if e["kind"] == "added":
                out.append(Request(f"3 {bid(s)} BUGANG {tile_code(e['tile'])}", "pass" if mine else "rob"))
            else:
                out.append(Request(f"3 {bid(s)} GANG", "pass"))
        elif t in ("win", "exhaustive_draw", "round_end"):
            break
        i += 1
    return out


def _take_own(hand: list[int], e: Any) -> None:
    """The seat's own event on its concealed tiles."""
    t, tile = e["type"], e.get("tile")
    if t == "draw" and isinstance(tile, int) and tile < 34:
        hand[tile] += 1
    elif t == "discard":
        hand[tile] -= 1
    elif t == "pon":
        hand[tile] -= 2
    elif t == "chi":
        for x in e["tiles"]:
            if x != tile:
                hand[x] -= 1
    elif t == "kong" and isinstance(tile, int):
        hand[tile] -= {"exposed": 3, "concealed": 4, "added": 1}[e["kind"]]
