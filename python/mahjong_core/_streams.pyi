"""Type stubs of the compiled inner loops of the server's table path ``mahjong_core._streams``
(private: used by :mod:`mahjong_core.server.table`)."""

from collections.abc import Callable
from typing import Any

def append_events(events: list[Any], known: dict[int, tuple[Any, str, bytes]],
                  redact: Callable[[Any, int], Any], seats: list[Any], pending: list[tuple[int, int, str]],
                  dumps: Callable[[Any], str], extend: Callable[[bytes, int], int],
                  round_start: str | None = None,
                  encode_utf8: Callable[[Any], bytes] | None = None) -> None: ...
def update_frame(stream: list[str], start: int, history: int, tail: bytes, players: bytes, view: bytes) -> bytes: ...
def text_frame(data: bytes, limit: int) -> str | None: ...
def log_texts(log: list[Any], start: int, known: dict[int, tuple[Any, str, bytes]], dumps: Callable[[Any], str]) -> list[str]: ...
