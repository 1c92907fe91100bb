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
from mahjong_core.families.longcard.round_engine import CompiledHand
from mahjong_core.families.longcard.round_match import LongcardRound
from mahjong_core.families.longcard._ref.round import Round
from mahjong_core.families.longcard.round_settings import RoundSettings

from mahjong_core import _lc_hand

OPS = {
    "is_win": lc.is_win, "waits": lc.waits, "wait_scores": lc.wait_scores, "score": lc.score,
    "is_win_batch": lc.is_win_batch, "waits_batch": lc.waits_batch, "score_batch": lc.score_batch,
    "to_counts": lc.to_counts, "parse_cards": lc.parse_cards, "parse_declared": lc.parse_declared,
    "face_weights": lc.face_weights, "settlement_points": lc.settlement_points, "check_options": lc.check_options,
    "counting_summary": counting.counting_summary, "held_fan": counting.held_fan, "baozi_fan": counting.baozi_fan,
    "theoretical_fan": counting.theoretical_fan,
    "c_counting": _lc_hand.counting, "c_theoretical_fan": _lc_hand.theoretical_fan, "c_group_count": _lc_hand.group_count,
    # the replay record of spec 8.4 (both engines) and the round's options and seats (issue 25)
    "replay": lambda rec: Round.from_dict(rec).result, "replay_compiled": lambda rec: CompiledHand.from_dict(rec).result,
    "replay_text": lambda text: Round.from_json(text).result, "round_options": lambda o: RoundSettings.from_options(o),
    "seat": lambda kind, method, seat: _seat_call(kind, method, seat),
}

_HANDS = {"reference": lambda: Round(4, banker=1), "compiled": lambda: CompiledHand(4, banker=1),
          "api": lambda: LongcardRound("changpai-ydr", 4, dealer=1),
          "api-compiled": lambda: LongcardRound("changpai-ydr", 4, dealer=1, engine="compiled"),
          "core": lambda: CompiledHand(4, banker=1).core}


def _seat_call(kind: str, method: str, seat: Any) -> Any:
    """A per-seat method of a fresh hand (seat 1 to act) with a hostile seat; actions are PASS (256)."""
    h = _HANDS[kind]()
    f = getattr(h, method)
    out = f(seat, 256) if method in ("step", "penalty_of", "action_index") else f(seat)
    return None if out is None else len(out) if hasattr(out, "__len__") else out


def _plain(x: Any) -> Any:
    if isinstance(x, RoundSettings):
        return x.to_options()
    if isinstance(x, lc.Score):
        return {"total": x.total, "tuo": x.tuo}
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    if isinstance(x, dict):
        return {str(k): _plain(y) for k, y in x.items()}
    return _mahjong_plain(x)


def run(case: dict) -> Any:
    return _plain(OPS[case["op"]](*decode(case.get("args", [])), **decode(case.get("kw", {}))))
