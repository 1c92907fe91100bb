"""A connection's outbox for server tests that attach a seat without a socket: it keeps each frame's
text as the table sent it and ignores the close."""

from __future__ import annotations


class TextOutbox:
    def __init__(self) -> None:
        self.frames: list[str] = []

    def send(self, frame: str) -> None:
        self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        pass
