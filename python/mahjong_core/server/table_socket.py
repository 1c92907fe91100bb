"""The server's own WebSocket protocol for ``/ws``: the frames of the ``websockets`` library's
sans-I/O protocol, handled where they arrive.

uvicorn's WebSocket protocols carry a connection through ASGI: every message received is a dict
put on a queue and awaited by the application's task, every frame sent is a dict awaited through
Starlette's wrappers and a writer task.  At a busy table that machinery cost about as much of
the server's CPU as the game itself (issue 26, item 12).  Here, a message is handed to its
:class:`~.session.Session` in ``data_received`` (the tables are synchronous objects on the one
event loop), and a frame a table sends is written to the socket at once: no task, queue or
event per connection or per frame.  Without compression (``serve``'s default), the frames a
client of the tables sends (whole, masked text frames) are read here and the frames the server
sends are written here, a few bytes of header each; the websockets protocol reads the opening
request and every other frame (pings, pongs, the close, fragments), and with compression all
of them.  Its parser (a generator per frame, a frame object per message) and its writer cost
about a tenth of the server's CPU per action.

What it keeps of a WebSocket server: the opening handshake (``/ws`` only, else 404; an invalid
request 400), permessage-deflate when the server is started with compression, the frame limit
(``max_message_bytes``: 1009), text that is not UTF-8 (1007), answers to pings, a keepalive
ping of its own (uvicorn's ``ws_ping_interval`` and ``ws_ping_timeout``: a peer that stops
answering is closed with 1011), the closing handshake (the close frame after the frames already
written, then the socket closed when the peer answers or after ``CLOSE_TIMEOUT_S``), 1012 to
every connection when the server shuts down, and the connection limits of :mod:`.limits` (the
connection counted by the HTTP protocol is released when it ends).  A peer that stops reading
while its frames pile up (more than ``MAX_UNSENT_BYTES`` unsent) is closed: its seat is away,
like any closed connection, and the table goes on.

The application is found through the uvicorn configuration's ``sessions`` attribute (a
:class:`SessionHub`, set by :func:`.app.server_config`); the ASGI route ``/ws`` of the app stays
for any other ASGI server.
"""

from __future__ import annotations

import asyncio
import logging
import os
import struct
from collections.abc import Callable
from typing import Any, cast

from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

try:
    from websockets.speedups import apply_mask
except ImportError:   # pragma: no cover - websockets ships it compiled for CPython
    from websockets.utils import apply_mask

from .._streams import text_frame
from .encoding import dumps
from .lobby import Lobby
from .session import Session
from .settings import ServerSettings

__all__ = ["CLOSE_TIMEOUT_S", "MAX_UNSENT_BYTES", "SessionHub", "TableSocket"]

log = logging.getLogger("mahjong_core.server")

CLOSE_TIMEOUT_S = 5.0
"""How long a closed connection waits for the peer's close frame before it drops the socket."""
MAX_UNSENT_BYTES = 1 << 20
"""A peer that leaves more than this unread is closed (a client that stopped reading)."""
WS_PATH = "/ws"
_HEAD16 = struct.Struct("!BBH")
_HEAD64 = struct.Struct("!BBQ")


class SessionHub:
    """What a connection needs of the application: the settings and the lobby (opened by the
    app's lifespan, so looked up when a connection starts)."""

    def __init__(self, settings: ServerSettings, lobby: Callable[[], Lobby]) -> None:
        self.settings = settings
        self.lobby = lobby


class TableSocket(asyncio.Protocol):
    """One WebSocket connection (a uvicorn WebSocket protocol class: uvicorn's HTTP protocol
    hands the upgraded connection over with the request's bytes)."""

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.config = config
        self.hub: SessionHub = config.sessions
        self.loop = _loop or asyncio.get_running_loop()
        self.connections: set[Any] = server_state.connections
        extensions = [ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                                     compress_settings={"memLevel": 5})] \
            if config.ws_per_message_deflate else []
        self.ws = ServerProtocol(extensions=extensions, max_size=self.hub.settings.max_message_bytes, logger=log)
        self.transport: asyncio.Transport | None = None
        self.session: Session | None = None
        self.closing = False
        """No frame is sent after the close frame (the outbox's flag the tables and session read)."""
        self.code = 1006
        """The close code the session ends with (the peer's, or 1006 without a close frame)."""
        self._parts: list[bytes] = []
        self._text = True
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._ping: bytes | None = None
        self._eof_sent = False
        self._direct = False
        """Frames are read and written here, not by the protocol (see :meth:`_received_direct`)."""
        self._buf = b""
        """Received bytes not yet read: a frame not yet whole (the direct path's), or what followed
        the opening request in its packet."""
        self._fragmented = False
        """A fragmented message is under way (its frames go to the protocol, which joins them)."""
        self._head_tail = b""
        """The last bytes of the opening request read so far (its end may span two packets)."""

    # ---------------------------------------------------------------- the outbox (tables, session)
    def send(self, frame: str) -> None:
        if self.closing or self.ws.state is not State.OPEN:
            return      # nothing after the close frame (the protocol's, queued after an error, too)
        self.send_utf8(frame.encode())

    def send_utf8(self, data: bytes) -> None:
        """:meth:`send` of a text frame given as its UTF-8 bytes (the tables' update frames)."""
        if self.closing or self.ws.state is not State.OPEN:
            return
        if not self._direct:
            self.ws.send_text(data)
            self._flush()
            return
        # the frame written here: a server's text frame is its length and the text, unmasked
        n = len(data)
        head = bytes((0x81, n)) if n < 126 else _HEAD16.pack(0x81, 126, n) if n < 65536 else _HEAD64.pack(0x81, 127, n)
        transport = self.transport
        if transport is None or self._eof_sent or transport.is_closing():
            return
        transport.write(head + data)   # _write's work, inline (two frames per action)
        if transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            self._stopped_reading()

    def error(self, message: str) -> None:
        self.send(dumps({"type": "error", "message": message}))

    def close(self, code: int, reason: str) -> None:
        """Send the close frame after the frames already written; nothing is sent after it."""
        if self.closing:
            return
        self.closing = True
        self.code = code
        try:
            self.ws.send_close(code, reason)
        except InvalidState:     # the peer's close came first: the protocol answered it
            pass
        self._flush()
        self._later("close", CLOSE_TIMEOUT_S, self._drop)
        self._end()   # the seat is away from now on, not when the peer answers

    # ---------------------------------------------------------------- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)    # uvloop's transports are not asyncio's classes
        self.connections.add(self)
        name = transport.get_extra_info("peername")
        self._peer = (transport, str(name[0]) if isinstance(name, (tuple, list)) and name else "")

    def data_received(self, data: bytes) -> None:
        if self._direct and not self.closing:
            session = self.session
            if session is not None and not self._buf and not self._fragmented:
                # nearly every packet: one whole text frame, read by compiled code (_received_direct's
                # own reading of it, which takes every other packet)
                text = text_frame(data, self.hub.settings.max_message_bytes)
                if text is not None:
                    session.received(text, self.loop.time())
                    return
            self._received_direct(data)
        else:
            self._received(data)

    def _received_direct(self, data: bytes) -> None:
        """The bytes of an open connection without extensions: each whole text frame (masked, FIN,
        no reserved bit, within ``max_message_bytes``, outside a fragmented message: every frame
        a client of the tables sends) is unmasked and handed to the session here; any other whole
        frame (a ping, a pong, a close, a fragment, a binary frame) goes to the protocol, which
        is then at a frame's boundary, as it is after each of these; a frame the protocol
        refuses from its head (too large, not masked) and everything after the connection starts
        closing go to it too.  The websockets protocol's parser, a generator per frame and a
        frame object per message, cost about a tenth of the server's CPU per action."""
        buf = self._buf + data if self._buf else data
        self._buf = b""
        end, pos = len(buf), 0
        limit = self.hub.settings.max_message_bytes
        now = self.loop.time()
        while end - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            n, at = b1 & 0x7F, pos + 2
            if n == 126:
                if end - pos < 4:
                    break
                n, at = (buf[pos + 2] << 8) | buf[pos + 3], pos + 4
            elif n == 127:
                if end - pos < 10:
                    break
                n, at = int.from_bytes(buf[pos + 2:pos + 10], "big"), pos + 10
            if n > limit or not b1 & 0x80:
                self._received(buf[pos:])    # refused by the protocol (1009, 1002): the connection ends
                return
            stop = at + 4 + n
            if stop > end:
                break
            if b0 != 0x81 or self._fragmented:
                op = b0 & 0x0F
                if op < 3:        # a data frame: FIN ends a fragmented message, its absence starts one
                    self._fragmented = not b0 & 0x80
                self._received(buf[pos:stop])
            else:
                try:
                    text = apply_mask(buf[at + 4:stop], buf[at:at + 4]).decode()
                except UnicodeDecodeError:
                    self.close(1007, "text frames must be UTF-8")
                    text = None
                if text is not None and self.session is not None:
                    self.session.received(text, now)
            pos = stop
            if self.closing:      # the rest is the protocol's (it reads the peer's close)
                if pos < end:
                    self._received(buf[pos:])
                return
        if pos < end:
            self._buf = buf[pos:]

    def _received(self, data: bytes) -> None:
        """The bytes of a connection read by the protocol (the handshake; compression; closing)."""
        if self._buf:     # the direct path's partial frame: the protocol is at its start
            data, self._buf = self._buf + data, b""
        ws = self.ws
        if ws.state is State.CONNECTING and self.session is None and not self.closing:
            # the protocol reads the opening request and no byte after it (a client sends no frame
            # before the answer, but may): what follows waits in _buf, so that the direct path
            # starts at a frame's start, and the protocol stays at frames' boundaries
            seen = self._head_tail + data
            end = seen.find(b"\r\n\r\n")
            if end < 0:
                self._head_tail = seen[-3:]
            else:
                cut = end + 4 - len(self._head_tail)
                data, self._buf, self._head_tail = data[:cut], data[cut:], b""
        ws.receive_data(data)
        for event in ws.events_received():
            if isinstance(event, Request):
                self._handshake(event)
            elif isinstance(event, Frame):
                self._frame(event)
        if ws.handshake_exc is not None and self.session is None and not self.closing:
            self._refuse_request()
            return
        if ws.close_expected() and not self.closing:   # a protocol error (1002, 1007, 1009): the close is queued
            self.closing = True
            sent = ws.close_sent
            self.code = sent.code if sent is not None else 1006
            self._later("close", CLOSE_TIMEOUT_S, self._drop)
        self._flush()
        if self._buf and ws.state is not State.CONNECTING:   # what followed the opening request
            rest, self._buf = self._buf, b""
            self.data_received(rest)

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None     # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.closing = True
        self.connections.discard(self)
        self.config.limits.guard.release(*self._peer)
        self._end()

    def _end(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            session.ended(self.code)

    def shutdown(self) -> None:
        """The server stops (uvicorn calls this on every connection): 1012, then the socket closed."""
        if self.session is not None and not self.closing:
            self.close(1012, "the server is restarting")
        if self.transport is not None:
            self.transport.close()

    # ---------------------------------------------------------------- what arrives
    def _handshake(self, request: Request) -> None:
        path = request.path.partition("?")[0]
        if path != WS_PATH:
            response = self.ws.reject(404, "not found\n")
        else:
            response = self.ws.accept(request)
        self.ws.send_response(response)
        if response.status_code != 101:
            self.closing = True
            self._flush()
            assert self.transport is not None
            self.transport.close()
            return
        now = self.loop.time()
        self.session = Session(self, self.hub.lobby(), self.hub.settings, now)
        self._direct = not self.ws.extensions     # with compression, the protocol reads and writes
        self._later("hello", max(0.0, self.session.hello_deadline - now), self._hello_late)
        self._schedule_ping()

    def _refuse_request(self) -> None:
        """A request websockets could not read as a WebSocket handshake: its answer, else 400."""
        out = b"".join(self.ws.data_to_send())
        if not out:
            out = self.ws.reject(400, "not a valid WebSocket request\n").serialize()
        self.closing = True
        assert self.transport is not None
        self.transport.write(out)
        self.transport.close()

    def _frame(self, frame: Frame) -> None:
        op = frame.opcode
        if op is Opcode.TEXT or op is Opcode.BINARY:
            self._text = op is Opcode.TEXT
            self._parts = [bytes(frame.data)]
        elif op is Opcode.CONT:
            self._parts.append(bytes(frame.data))
            if sum(map(len, self._parts)) > self.hub.settings.max_message_bytes:
                self._parts = []
                self.close(1009, "message too big")
                return
        elif op is Opcode.CLOSE:
            if not self.closing:    # the peer's close (else its answer to ours: our code stands)
                rcvd = self.ws.close_rcvd
                self.code = rcvd.code if rcvd is not None else 1005
                self.closing = True
            self._flush()       # the protocol's answer to the close, and the end of the TCP stream
            return
        elif op is Opcode.PONG:
            if self._ping is not None and bytes(frame.data) == self._ping:
                self._ping = None
                self._cancel("pong")
                self._schedule_ping()
            return
        else:       # PING: the protocol queued the pong
            return
        if not frame.fin or self.session is None:
            return
        data = self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)
        self._parts = []
        if self._text:
            try:
                text: str | None = data.decode()
            except UnicodeDecodeError:
                self.close(1007, "text frames must be UTF-8")
                return
        else:
            text = None
        self.session.received(text, self.loop.time())

    # ---------------------------------------------------------------- timers and writes
    def _hello_late(self) -> None:
        self._timers.pop("hello", None)
        if self.session is not None:
            self.session.hello_late()

    def _schedule_ping(self) -> None:
        every = self.config.ws_ping_interval
        if every:
            self._later("ping", every, self._send_ping)

    def _send_ping(self) -> None:
        self._timers.pop("ping", None)
        if self.closing:
            return
        self._ping = struct.pack("!I", int.from_bytes(os.urandom(4), "big"))
        self.ws.send_ping(self._ping)
        self._flush()
        if self.config.ws_ping_timeout:
            self._later("pong", self.config.ws_ping_timeout, self._pong_late)
        else:
            self._schedule_ping()

    def _pong_late(self) -> None:
        self._timers.pop("pong", None)
        self.close(1011, "keepalive ping timeout")

    def _drop(self) -> None:
        self._timers.pop("close", None)
        if self.transport is not None:
            self.transport.close()

    def _later(self, name: str, delay: float, callback: Callable[[], None]) -> None:
        self._cancel(name)
        self._timers[name] = self.loop.call_later(delay, callback)

    def _cancel(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def _flush(self) -> None:
        out = self.ws.data_to_send()
        transport = self.transport
        if not out or transport is None or transport.is_closing() or self._eof_sent:
            return
        if out[-1] == b"":      # the protocol ends the TCP stream here (after a closing handshake or an error)
            data = b"".join(out)
            if data:
                transport.write(data)
            # half-close and let the peer close: closing a socket whose peer is still sending
            # answers it with a reset, which can discard the close frame before the peer reads it
            if transport.can_write_eof():
                self._eof_sent = True
                transport.write_eof()
                self._later("close", CLOSE_TIMEOUT_S, self._drop)
            else:
                transport.close()
            return
        self._write(out[0] if len(out) == 1 else b"".join(out))

    def _write(self, data: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing() or self._eof_sent:
            return
        transport.write(data)
        if transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            self._stopped_reading()

    def _stopped_reading(self) -> None:
        if self.closing:
            return
        log.warning("a client stopped reading (over %d bytes unsent): its connection is closed", MAX_UNSENT_BYTES)
        self.closing = True
        assert self.transport is not None
        self.transport.abort()
