"""Child-side operations of tests/hostile/test_isolation_harness.py (run by _isolated_runner.py)."""

from __future__ import annotations

import ctypes
import os


def classify(case):
    kind = case["kind"]
    if kind == "ok":
        return case.get("value")
    if kind == "mahjong":
        from mahjong_core.errors import TileParseError
        raise TileParseError("refused on purpose")
    if kind == "other":
        raise KeyError("not a MahjongError")
    if kind == "segfault":
        ctypes.string_at(0)  # reads address 0: SIGSEGV
    if kind == "abort":
        os.abort()
    raise AssertionError(kind)
