"""The long-card family's side of the reference server's tables (``Family.server``, spec changpai.md
5 and 8.3): what every seat is shown of a settled hand, the glossary the family's web-table script
draws the cards and names the rules with, and that script's directory (:file:`web/`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..hooks import ServerHooks
from .cards import CAISHEN, FACE_NAMES, IS_RED, N_FACES, PIPS, POINTS, face_glyph

__all__ = ["SERVER", "glossary", "settlement_fields"]

WEB = Path(__file__).resolve().parent / "web"
"""The family's web-table files (``table.js``, ``table.css``)."""

_KIND_ZH = {"peng": "碰", "kan": "坎", "chi": "吃", "sha": "杀", "tuhuo_weixiang": "吐火未响", "tuhuo_xiang": "吐火响"}
"""The Chinese names of the group kinds (``groups.KINDS``, spec 8.1)."""

# the decisions of spec 8.2 by the phase they are taken in, and the stage of the hand it belongs to
_PHASES = {
    "deal": ("发牌", "the deal"),
    "qi": ("起牌", "起 stage: 起 (declare), 过 (stay in) or 扣 (fold)"),
    "stay": ("偷牌", "偷牌 stage: play on or fold"),
    "turn": ("翻牌", "turn the next card"),
    "discard": ("出牌", "discard a card"),
    "claim": ("叫牌", "claim window"),
    "execute": ("", "executing a claim"),
    "end": ("结束", "the hand is over"),
}


def settlement_fields(rnd: Any, res: Any) -> dict[str, Any]:
    """What every seat is shown when a hand is settled: how it ended (``end``: win, 包子, 黄庄 or a
    void hand, with ``why``), the fan basis, for a win the winning card, the winner's groups with
    their 陀 and the fan sources (``fans``, as the mahjong records name them: ``id``, ``zh``, ``en``,
    ``points``, ``count``), for a 包子 the offender and its cause (spec 3.13), and whether the hand
    counts toward the match (3.14).  All of it is the hand's public result (every seat's view holds it
    once the hand is over)."""
    d = res.to_dict()
    out: dict[str, Any] = {"end": d["end"], "fan": d.get("fan"), "counts": d["counts"], "fans": []}
    if d["end"] == "win":
        score = d["score"]
        out["fans"] = [{"id": f["id"], "zh": f["name"], "en": f["name_en"], "points": f["points"], "count": f["count"]}
                       for f in score["fans"]]
        out["revealed"] = [{"seat": d["winner"], "win_card": d["card"], "groups": score["groups"], "tuo": score["tuo"],
                            "threshold": score["threshold"], "caishen": score["caishen"]}]
    elif d["end"] == "baozi":
        out.update(offender=d["offender"], cause=d["cause"], cause_name=d["cause_name"])
    else:
        out["why"] = d.get("why")
    return out


def glossary() -> dict[str, Any]:
    """The names and faces the web table draws the long cards with (plain JSON data): every face's
    pips, points, colour, Chinese names and domino glyph (spec 1.1), 财神, the group kinds, the
    包子 causes (3.13) and the phases of a hand (8.2)."""
    from ._ref.round import BAOZI_CAUSES   # the hand engine's module: imported when a table asks

    return {
        "faces": [{"id": f, "pips": list(PIPS[f]), "points": POINTS[f], "red": bool(IS_RED[f]),
                   "zh": FACE_NAMES[f][0], "names": list(FACE_NAMES[f]), "glyph": face_glyph(f)}
                  for f in range(N_FACES)],
        "caishen": {"id": CAISHEN, "zh": "财神"},
        "kinds": dict(_KIND_ZH),
        "causes": dict(BAOZI_CAUSES),
        "phases": {name: {"zh": zh, "en": en} for name, (zh, en) in _PHASES.items()},
    }


SERVER = ServerHooks(settlement_fields, glossary=glossary, web=str(WEB))
"""``Family.server``."""
