"""The mahjong family's side of the reference server's tables (``Family.server``): what every seat
is shown of a settled round besides the common fields.  The web table's own drawing is mahjong's,
so the family adds no glossary and no files."""

from __future__ import annotations

from typing import Any

from ..hooks import ServerHooks

__all__ = ["SERVER", "settlement_fields"]


def settlement_fields(rnd: Any, res: Any) -> dict[str, Any]:
    """The fans of the win and the winning hands, which every seat is shown when the round is
    settled (a hand that has won is laid down): each winner's concealed tiles without the winning
    tile, melds and flowers, from the winner's own final view.  No other seat's concealed tiles."""
    fans = [] if res.score is None else [
        {"id": f.id, "zh": f.zh, "en": f.en, "points": f.points, "count": f.count} for f in res.score.fans]
    revealed = []
    for w in res.winners:
        seat, tile = w["seat"], w.get("win_tile")
        view = rnd.view(seat)
        concealed = list(view["hand"])
        if tile in concealed:
            concealed.remove(tile)
        revealed.append({"seat": seat, "concealed": concealed, "win_tile": tile, "melds": view["melds"][seat],
                         "flowers": view["flowers"][seat]})
    return {"fans": fans, "revealed": revealed}


SERVER = ServerHooks(settlement_fields)
"""``Family.server``."""
