"""The ``changpai-ydr`` side of ``mahjong-core hand`` and ``mahjong-core score`` (called by
:mod:`mahjong_core.cli` when ``--ruleset changpai-ydr`` is given)."""

from __future__ import annotations

import json
from typing import Any

from ...errors import HandSizeError
from .cards import face_name, format_cards, to_counts
from .counting import counting_summary
from .options import RULESET

__all__ = ["cmd_hand", "cmd_score", "hand_report"]


def hand_report(text: str, banker: bool = False) -> dict[str, Any]:
    """21 concealed cards: complete or not (with the best score); 20: waits with (fan, 陀) and the
    qualification counts (卯, T_max).  No declared groups."""
    from . import is_win, score, wait_scores

    counts = to_counts(text)
    n = int(counts.sum())
    report: dict[str, Any] = {"hand": format_cards(counts, counts=True), "ruleset": RULESET, "cards": n,
                              "banker": banker}
    if n == 21:
        report["complete"] = bool(is_win(counts, banker=banker))
        if report["complete"]:
            s = score(counts, None, banker=banker)
            report["fan"], report["tuo"] = s.total, s.tuo
    elif n == 20:
        report["waits"] = {face_name(f, "pips"): {"fan": fan, "tuo": tuo}
                           for f, (fan, tuo) in wait_scores(counts, banker=banker).items()}
        c = counting_summary(counts, banker=banker)
        report.update(mao=c.mao, t_max=c.t_max, threshold=c.threshold, qualified=c.qualified)
    else:
        raise HandSizeError(f"{n} cards: the changpai-ydr hand command takes 20 concealed cards (waits) "
                            "or 21 (win check)")
    return report


def cmd_hand(tiles: str, banker: bool, as_json: bool) -> int:
    report = hand_report(tiles, banker)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"hand     {report['hand']}  ({report['cards']} cards, ruleset {RULESET}"
          f"{', banker' if banker else ''})")
    if "complete" in report:
        extra = f"  ({report['fan']} fan, {report['tuo']} 陀)" if report["complete"] else ""
        print(f"complete {'yes' if report['complete'] else 'no'}{extra}")
    else:
        print(f"卯 {report['mao']}, T_max {report['t_max']} / {report['threshold']}: "
              f"{'qualified' if report['qualified'] else 'not qualified'}")
        if report["waits"]:
            print("waits    " + ", ".join(f"{k} ({v['fan']} fan, {v['tuo']} 陀)" for k, v in report["waits"].items()))
        else:
            print("waits    none")
    return 0


def cmd_score(tiles: str, win: str | None, declared: Any, banker: bool, jiang: str | None, caishen: int,
              as_json: bool) -> int:
    from . import score

    s = score(tiles, win, declared=declared or (), banker=banker, jiang=jiang, caishen=caishen)
    if as_json:
        print(json.dumps(s.to_dict(), ensure_ascii=False))
        return 0
    print(f"ruleset {RULESET}, {s.tuo} 陀 (threshold {s.threshold})")
    print("groups  " + "  ".join(f"{'(' if i < len(s.declared) else '['}{format_cards(g.cards)}"
                                 f"{')' if i < len(s.declared) else ']'}" for i, g in enumerate(s.groups)))
    print(f"{'fan':>6}  {'×':>2}  source")
    for f in s.fans:
        print(f"{f.total:>6}  {f.count:>2}  {f.name}  {f.name_en}")
    capped = f" (capped from {s.fan})" if s.total != s.fan else ""
    print(f"{s.total:>6}      total{capped}; each other player pays {s.points()} (梯坎番) / "
          f"{s.points('fan_cheng_fan')} (番乘番)")
    return 0

