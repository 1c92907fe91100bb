"""One WebSocket's conversation with the lobby, whatever carries its frames: the hello that
seats it, the flood limit, the refused messages it may send before it is closed, and the
detach when it ends.  Synchronous: the carrier (:mod:`.table_socket`, the server's own
WebSocket protocol, or the ASGI endpoint of :mod:`.app`) calls :meth:`Session.received` with
each message's text as it arrives, and the session answers through the connection's outbox
(``send``, ``error``, ``close``, ``closing``), the same object the tables send their frames to.
"""

from __future__ import annotations

import logging
from typing import Protocol

from .lobby import Lobby
from .protocol import ProtocolError, RateLimit, act_index, parse_message
from .settings import ServerSettings
from .table import Table

__all__ = ["Session", "SessionOutbox"]

log = logging.getLogger("mahjong_core.server")

PONG = '{"type":"pong"}'


class SessionOutbox(Protocol):
    """A connection as the session and the tables see it."""

    closing: bool

    def send(self, frame: str) -> None: ...
    def error(self, message: str) -> None: ...
    def close(self, code: int, reason: str) -> None: ...


class Session:
    """The state of one connection: unauthenticated until a hello with a seat's token, then
    seated at that table (``seated``: the table and the seat index)."""

    __slots__ = ("conn", "lobby", "settings", "limit", "seated", "errors", "hello_deadline")

    def __init__(self, conn: SessionOutbox, lobby: Lobby, settings: ServerSettings, now: float) -> None:
        self.conn = conn
        self.lobby = lobby
        self.settings = settings
        self.limit = RateLimit(settings.rate_per_s, settings.burst, now)
        self.seated: tuple[Table, int] | None = None
        self.errors = 0
        self.hello_deadline = now + settings.hello_timeout_s
        """Loop time by which an unauthenticated connection must have said hello."""

    def received(self, text: str | None, now: float) -> None:
        """One message: its text, or None for a binary frame (refused)."""
        conn = self.conn
        if conn.closing:
            return
        if not self.limit.allow(now):
            conn.error("too many messages: the connection is closed")
            conn.close(1008, "flooding")
            return
        try:
            reply = self._handle(text)
        except Exception:   # a bug: say so on this connection, log it, close it (the tables go on)
            log.exception("a message could not be handled")
            conn.error("the server failed on this message (an internal error, logged): the connection is closed")
            conn.close(1011, "internal error")
            return
        if isinstance(reply, tuple):
            self.seated = reply
        elif reply is not None:
            self.errors += 1
            conn.error(reply)
            if self.errors >= self.settings.max_errors or self.seated is None:
                conn.close(1008, "too many refused messages" if self.seated else "authentication failed")

    def hello_late(self) -> None:
        """The hello deadline passed: close a connection that is still not seated."""
        if self.seated is None and not self.conn.closing:
            self.conn.close(1008, "no hello in time")

    def ended(self, code: int) -> None:
        """The connection closed with ``code`` (1006: without a close frame): its seat is away."""
        if self.seated is not None:
            table, k = self.seated
            self.seated = None
            try:
                table.detach(k, self.conn, code)
            except Exception:
                log.exception("detach failed")

    def _handle(self, text: str | None) -> tuple[Table, int] | str | None:
        """One received frame: the new seat after a hello, an error message, or None."""
        if text is None:
            return "binary frames are not accepted; send JSON text"
        limit = self.settings.max_message_bytes
        n = len(text)   # a character is at most 4 bytes of UTF-8: a short text is not encoded to be measured
        if n > limit or (4 * n > limit and len(text.encode("utf-8", "surrogatepass")) > limit):
            self.conn.close(1009, "message too big")
            return None
        seated = self.seated
        if seated is not None:
            index = act_index(text)    # nearly every message: an act, read without its dict
            if index is not None:
                return seated[0].act(seated[1], index)
        try:
            msg = parse_message(text)
        except ProtocolError as exc:
            return str(exc)
        kind = msg["type"]
        if self.seated is None:
            if kind != "hello":
                return "the first message must be a hello with the seat's token"
            table = self.lobby.tables.get(msg["table"])
            k = msg["seat"]
            seat = None if table is None or k >= len(table.seats) else table.seats[k]
            if seat is None or not seat.accepts(msg["token"]):
                return "unknown table or seat, or a wrong token"
            assert table is not None
            table.attach(k, self.conn, msg.get("last_event_id", 0), msg.get("history"))
            return table, k
        table, k = self.seated
        if kind == "hello":
            return "already authenticated"
        if kind == "ping":
            self.conn.send(PONG)
            return None
        if kind == "quit":
            return table.quit(k)
        return table.act(k, msg["index"])
