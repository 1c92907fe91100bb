"""The server's one JSON encoding: compact, UTF-8 text as it is (what the engine's ``to_json`` writes).

One encoder is built once and reused: ``json.dumps`` with arguments builds a new
``JSONEncoder`` at every call, a cost the server would pay a dozen times per action.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps"]

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, the same text."""
    return _ENCODER.encode(value)
