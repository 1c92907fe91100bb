"""The text the learning environments render: a table of what one seat may see.

``"ansi"`` returns it, ``"human"`` prints it (and returns None).  The table is made from the
seat's view (:meth:`~mahjong_core.Round.view`) and nothing else, so it holds exactly what
that seat may know: its own concealed tiles and drawn tile, every seat's concealed-hand size,
melds (another seat's concealed kong face down), flowers and discards, the winds, the dealer,
the wall count, the tile being claimed, and the result once the round is over.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..families.mahjong.tiles import format_tiles, tile_short

__all__ = ["RENDER_MODES", "view_table"]

RENDER_MODES = ("human", "ansi")
"""``render_mode`` values of both environments (None: no rendering)."""


def _melds(melds: list[dict[str, Any]]) -> str:
    return " ".join(f"{m['kind']} {format_tiles(m['tiles'], sort=False)}" if m["tiles"] is not None
                    else f"{m['kind']} (face down)" for m in melds) or "-"


def _result(result: dict[str, Any]) -> str:
    winners = result.get("winners") or []
    if not winners:
        return "result: drawn (no winner)"
    return "result: " + "; ".join(
        f"player_{w['seat']} wins on {tile_short(w['win_tile'])} "
        + ("self-drawn" if w["method"] == "self_drawn" else f"from player_{w['loser']}")
        + f", {w['total']} fans" for w in winners)


def view_table(view: Mapping[str, Any]) -> str:
    """The table of one seat's view (see the module docstring), one line per seat."""
    me = view["seat"]
    winds = view["seat_winds"]
    ready = view["ready"]
    head = f"{view['ruleset']}: player_{me}'s view, phase {view['phase']}, wall {view['wall_remaining']}"
    if view["round_wind"] is not None:
        head += f", round wind {tile_short(view['round_wind'])}"
    if view["to_act"]:
        head += f", to act ({len(view['legal_indices'])} legal actions)"
    rows = [("seat", "wind", "hand", "melds", "flowers", "discards")]
    for k in range(view["players"]):
        name = f"player_{k}" + (" (you)" if k == me else "") + (" dealer" if k == view["dealer"] else "") \
            + (" ready" if ready is not None and ready[k] else "")
        if k == me:
            hand = format_tiles(view["hand"])
            if view["drawn"] is not None:
                hand += f" + {tile_short(view['drawn'])}"
        else:
            hand = f"{view['hand_sizes'][k]} tiles"
        rows.append((name, tile_short(winds[k]) if winds is not None else "-", hand, _melds(view["melds"][k]),
                     format_tiles(view["flowers"][k]) or "-",
                     " ".join(tile_short(t) for t in view["discards"][k]) or "-"))   # in order
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = [head] + ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]
    claim = view["claim"]
    if claim is not None:
        lines.append(f"claim: {tile_short(claim['tile'])} from player_{claim['from']} "
                     f"({'a discard' if claim['kind'] == 'discard' else 'an added kong'})")
    if view["result"] is not None:
        lines.append(_result(view["result"]))
    return "\n".join(lines)
