"""Child-side operations of tests/hostile/test_hostile_hand.py (run by ``_isolated_runner.py``).

A case is JSON: ``{"op": name, "args": [...], "kw": {...}}``.  Values that JSON cannot carry are
tagged dicts decoded by :func:`decode`: ``{"$str": [code points]}`` (any string, lone surrogates
included), ``{"$float": "nan"}``, ``{"$arr": {...}}`` (a NumPy array of a given dtype, shape,
memory layout and writeability), ``{"$bytes": [...]}``, ``{"$tuple": [...]}``, ``{"$object": 1}``
(a bare ``object()``), ``{"$hostile": 1}`` (an object whose ``__repr__`` raises),
``{"$pow10": n}`` (the integer 10**n).
Each op calls one entry point and returns plain data, which the parent checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import mahjong_core as mj
from mahjong_core import _fan, _hand


class Hostile:
    """An object that cannot be printed: an error message quoting it must not fail.  (An exception
    that a caller's own object raises from ``__iter__`` or ``__index__`` is that object's and
    propagates unchanged, as everywhere in Python; it is not tested here.)"""

    def __repr__(self) -> str:
        raise RuntimeError("hostile __repr__")


def decode(v: Any) -> Any:
    if isinstance(v, list):
        return [decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$str" in v:
        return "".join(map(chr, v["$str"]))
    if "$float" in v:
        return float(v["$float"])
    if "$bytes" in v:
        return bytes(v["$bytes"])
    if "$tuple" in v:
        return tuple(decode(x) for x in v["$tuple"])
    if "$object" in v:
        return object()
    if "$hostile" in v:
        return Hostile()
    if "$pow10" in v:                     # 10**n: Python cannot print (or parse) more than 4300 digits
        return 10 ** v["$pow10"]
    if "$arr" in v:
        return _array(v["$arr"])
    return {k: decode(x) for k, x in v.items()}


def _array(spec: dict) -> np.ndarray:
    values = decode(spec["values"])
    dtype = spec.get("dtype")
    if dtype == "object":
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    else:
        arr = np.array(values, dtype=dtype)
    if "shape" in spec:
        arr = arr.reshape(spec["shape"])
    layout = spec.get("layout", "C")
    if layout == "F":
        arr = np.asfortranarray(arr)
    elif layout == "strided":      # every other element of a twice longer buffer
        big = np.zeros((arr.shape[0] * 2,) + arr.shape[1:], dtype=arr.dtype)
        big[::2] = arr
        arr = big[::2]
    elif layout == "swapped":      # non-native byte order
        arr = arr.astype(arr.dtype.newbyteorder())
    if spec.get("readonly"):
        arr.flags.writeable = False
    return arr


def _plain(x: Any) -> Any:
    """A result as JSON data."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.integer, np.bool_)):
        return x.item()
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    if isinstance(x, dict):
        return {str(k): _plain(y) for k, y in x.items()}
    if isinstance(x, mj.Score):
        return {"total": x.total, "non_flower_total": x.non_flower_total, "fans": x.fan_counts}
    if isinstance(x, mj.Hand):
        return {"hand": x.counts.tolist(), "ruleset": x.ruleset}
    return x


def _hand_session(tiles, ruleset, steps):
    """Hand(tiles) then a list of [method, argument] steps; every refusal leaves the hand as it was."""
    h = mj.Hand(tiles, ruleset=ruleset)
    out = []
    for method, arg in steps:
        before = h.counts.tolist()
        try:
            if method == "getitem":
                out.append(int(h[arg]))
            else:
                getattr(h, method)(arg)
                out.append(h.counts.tolist())
        except mj.MahjongError as exc:
            assert h.counts.tolist() == before, "a refused step changed the hand"
            out.append(type(exc).__name__)
        except IndexError:        # the sequence protocol of h[i] (documented)
            out.append("IndexError")
    for q in ("is_win", "waits", "shanten"):
        try:
            out.append(_plain(getattr(h, q)()))
        except mj.HandSizeError:
            out.append("HandSizeError")
    return out


OPS = {
    "parse_tiles": mj.parse_tiles,
    "parse_hand": mj.parse_hand,
    "to_counts": mj.to_counts,
    "format_counts": mj.format_counts,
    "tile_kind": mj.tiles.tile_kind,
    "is_win": mj.is_win,
    "waits": mj.waits,
    "waits_mask": mj.waits_mask,
    "shanten": mj.shanten,
    "Hand": mj.Hand,
    "hand_session": _hand_session,
    "form_shanten": mj.form_shanten,
    "form_is_win": mj.form_is_win,
    "live_waits": mj.live_waits,
    "mask_to_tiles": mj.mask_to_tiles,
    "is_win_batch": mj.is_win_batch,
    "waits_batch": mj.waits_batch,
    "shanten_batch": mj.shanten_batch,
    "score": mj.score,
    "score_batch": mj.score_batch,
    "parse_meld": mj.families.mahjong.scoring.parse_meld,
    "_hand.is_win_batch": _hand.is_win_batch,
    "_hand.waits_batch": _hand.waits_batch,
    "_hand.shanten_batch": _hand.shanten_batch,
    "_hand.form_shanten": _hand.form_shanten,
    "_hand.form_is_win": _hand.form_is_win,
    "_hand.discard_eval": _hand.discard_eval,
    "_hand.is_win": _hand.is_win,
    "_fan.evaluate": _fan.evaluate,
    "_fan.evaluate_batch": _fan.evaluate_batch,
    "_fan.fan_count": _fan.fan_count,
    "_fan.fan_ids": _fan.fan_ids,
}


def run(case: dict) -> Any:
    fn = OPS[case["op"]]
    args = decode(case.get("args", []))
    kw = decode(case.get("kw", {}))
    return _plain(fn(*args, **kw))
