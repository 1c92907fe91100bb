"""``mahjong-core advise --ruleset changpai-ydr``: the long-card advisor (:mod:`.advise`) on the
command line.  The ``advise`` command's parser is the shared one (its ``tiles``, ``--melds`` = the
declared groups, ``--visible`` = the 堂子 and the other players' groups, ``--top``, ``--lang``,
``--json``); this family adds ``--banker``, ``--jiang``, ``--caishen`` and ``--qi-faces``
(:data:`OPTIONS`, registered in :mod:`.family`) and runs :func:`run` (``cli.run_advise``)."""

from __future__ import annotations

import json
from typing import Any

from ..hooks import int_in
from .advise import Advice, advise
from .cards import face_name, format_cards
from .options import RULESET

__all__ = ["OPTIONS", "render", "run"]

OPTIONS = [
    (("--banker",), {"action": "store_true", "help": f"{RULESET}: the player is the banker (34 陀)"}),
    (("--jiang",), {"default": None, "help": f'{RULESET}: the two 五门将 cards J1 J2, e.g. "36 25"'}),
    (("--caishen",), {"type": int_in(0, 10), "default": 0, "help": f"{RULESET}: 财神 laid out by the player"}),
    (("--qi-faces",), {"default": None, "help": f"{RULESET}: faces whose discard is a forbidden 跳牌 "
                                                "(包子 B5), e.g. \"11 44\""}),
]

_TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "head": "hand {hand}{declared}  ({ruleset}{banker}, threshold {thr} 陀)",
        "banker": ", banker",
        "columns": ("discard", "to-win", "effective", "waits live", "卯", "T_max", "F_theo", "包子", "waits (fan/陀 ×live)"),
        "none": "none",
        "fold": "must fold",
        "note": "ranked by: no 包子, qualified, cards to a win (to-win), live effective cards, live fan of the "
                "waits, best fan, T_max, F_theo",
    },
    "zh": {
        "head": "手牌 {hand}{declared}  （{ruleset}{banker}，{thr} 陀）",
        "banker": "，庄家",
        "columns": ("打出", "距胡", "进张", "叫牌余", "卯", "理论陀", "理论番", "包子", "叫牌（番/陀 ×余）"),
        "none": "无",
        "fold": "须扣牌",
        "note": "排序：不吃包子、够卯够陀、距胡张数、有效进张余数、叫牌余数×番、最大番、理论陀、理论番",
    },
}


def render(advice: Advice, lang: str = "en", top: int | None = None) -> str:
    """The text output: one row per discard, best first."""
    text = _TEXT[lang]
    style = "zh" if lang == "zh" else "pips"
    declared = "".join(f" ({format_cards(g.cards, style)})" for g in advice.declared)
    lines = [text["head"].format(hand=format_cards(advice.hand, style, counts=True), declared=declared,
                                 ruleset=advice.ruleset, banker=text["banker"] if advice.banker else "",
                                 thr=advice.threshold)]
    rows: list[tuple[str, ...]] = [text["columns"]]
    for o in advice.options[:top]:
        waits = " ".join(f"{face_name(w.face, style)} {w.fan}/{w.tuo}×{w.live}" for w in o.waits) or text["none"]
        penalty = o.baozi or (text["fold"] if o.must_fold else "-")
        rows.append((face_name(o.discard, style), "-" if o.cards_to_win is None else str(o.cards_to_win),
                     str(o.effective_total), str(o.live_total), str(o.mao), f"{o.t_max}", str(o.f_theo),
                     penalty, waits))
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        lines.append("  ".join(c + " " * (w - _width(c)) for c, w in zip(r, widths)) + "  " + r[-1])
    lines.append(text["note"])
    return "\n".join(lines)


def _width(s: str) -> int:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)


def run(args: Any) -> int:
    """Run the command for the parsed ``args`` (the shared ``advise`` options and this family's)."""
    a = advise(args.tiles, declared=args.melds or None, visible=args.visible or None, banker=args.banker,
               jiang=args.jiang, caishen=args.caishen, qi_faces=args.qi_faces)
    if args.json:
        data = a.to_json()
        if args.top is not None:
            data["options"] = data["options"][: args.top]
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(render(a, args.lang, args.top))
    return 0
