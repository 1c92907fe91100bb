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
    line: str
    kind: str


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
    held: "tuple[str, int, str] | None" = None    # a claim waiting for its discard: (word, seat, tiles)
    while i < len(events):
        e = events[i]
        t, s = e["type"], e.get("seat")
        mine = s == seat
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
            if held is not None and held[1] == s:
                out.append(Request(f"3 {bid(s)} {held[0]}{held[2]} {tile_code(e['tile'])}", kind))
                held = None
            else:
                out.append(Request(f"3 {bid(s)} PLAY {tile_code(e['tile'])}", kind))
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
