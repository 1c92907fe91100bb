"""Child-side operations of tests/longcard/test_lc_hostile.py (run by ``_isolated_runner.py``).

A case is ``{"op": name, "args": [...], "kw": {...}}`` with values encoded as in
``hostile_ops_hand.decode`` (arrays of any dtype, shape and layout, odd strings, bare objects ...).
"""

from __future__ import annotations

from typing import Any

from hostile_ops_hand import _plain as _mahjong_plain
from hostile_ops_hand import decode
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard import counting

from mahjong_core import _lc_hand

OPS = {
    "is_win": lc.is_win, "waits": lc.waits, "wait_scores": lc.wait_scores, "score": lc.score,
    "is_win_batch": lc.is_win_batch, "waits_batch": lc.waits_batch, "score_batch": lc.score_batch,
    "to_counts": lc.to_counts, "parse_cards": lc.parse_cards, "parse_declared": lc.parse_declared,
    "face_weights": lc.face_weights, "settlement_points": lc.settlement_points, "check_options": lc.check_options,
    "counting_summary": counting.counting_summary, "held_fan": counting.held_fan, "baozi_fan": counting.baozi_fan,
    "theoretical_fan": counting.theoretical_fan,
    "c_counting": _lc_hand.counting, "c_theoretical_fan": _lc_hand.theoretical_fan, "c_group_count": _lc_hand.group_count,
}


def _plain(x: Any) -> Any:
    if isinstance(x, lc.Score):
        return {"total": x.total, "tuo": x.tuo}
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    if isinstance(x, dict):
        return {str(k): _plain(y) for k, y in x.items()}
    return _mahjong_plain(x)


def run(case: dict) -> Any:
    return _plain(OPS[case["op"]](*decode(case.get("args", [])), **decode(case.get("kw", {}))))
