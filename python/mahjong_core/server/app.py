"""The ASGI application (Starlette): the web table's files, a small JSON API and one WebSocket
per player.  Everything runs on the one event loop; the tables are plain synchronous objects
(:mod:`.table`) that the handlers below call between two awaits, so no lock is needed.

Routes: ``GET /`` the web table; ``GET /static/...`` its files; ``GET /api/rooms``;
``POST /api/join`` (``{"name", "room"}`` → ``{"table", "seat", "token", ...}``);
``GET /api/accounts/{name}``; ``WS /ws`` (the protocol of :mod:`.protocol`); ``GET /family/<name>/...``
the web-table files of a family that has its own (:func:`.games.web_dirs`).

``POST /api/join`` is what a hostile page or client would use to fill the server: it takes a
JSON body only (``Content-Type: application/json``, else 415: a cross-site form cannot send
one without the CORS preflight this server never grants), refuses another site's ``Origin``
(403), a body that stalls (408) or is too large (413), and more joins than ``join_rate_per_min``
from one address (429); the lobby's caps answer 429 too (seats per address, open tables), and a
database that cannot store the join 503.

:func:`server_config` is the uvicorn configuration of the app (the command and the tests use
it): uvicorn's HTTP protocol with the connection limits of :mod:`.limits` (caps per address and
in total) and a deadline for each request head (``header_timeout_s``: an idle socket or a slow
sender is closed), and the server's own WebSocket protocol (:class:`.table_socket.TableSocket`:
a message goes straight to its session and a frame straight to the socket, no ASGI in between).
The app's ASGI route ``/ws`` serves the same sessions under any other ASGI server, and under
uvicorn with ``server_config(..., ws=GuardedWS)`` (uvicorn's own WebSocket protocol).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketState
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from .encoding import dumps
from .games import web_dirs
from .limits import AddressBuckets, ConnectionGuard, http_refusal
from .lobby import JoinError, JoinLimit, JoinUnavailable, Lobby
from .session import Session
from .table_socket import SessionHub, TableSocket
from .settings import ServerSettings

__all__ = ["STATIC", "ConnectionLimits", "GuardedHTTP", "GuardedWS", "ServerConfig", "create_app", "server_config"]

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("mahjong_core.server")


class Connection:
    """One WebSocket's outbox: frames are queued by the (synchronous) tables and written by a
    task, which writes everything queued at each wake-up (one wake-up per action, not per frame)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.frames: deque[str] = deque()
        self.close_with: tuple[int, str] | None = None
        self.closing = False
        self._queued = asyncio.Event()
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: str) -> None:
        if not self.closing:
            self.frames.append(frame)
            self._queued.set()

    def close(self, code: int, reason: str) -> None:
        """Write a close frame after the frames already queued; nothing is queued after it."""
        if not self.closing:
            self.closing = True
            self.close_with = (code, reason)
            self._queued.set()

    def error(self, message: str) -> None:
        self.send(dumps({"type": "error", "message": message}))

    async def _write(self) -> None:
        frames, send = self.frames, self.ws.send
        try:
            while True:
                await self._queued.wait()
                self._queued.clear()
                while frames:
                    await send({"type": "websocket.send", "text": frames.popleft()})
                if self.close_with is not None:
                    await self.ws.close(*self.close_with)
                    return
        except Exception:  # noqa: BLE001 - the peer is gone (any transport error): the reader sees the disconnect
            self.closing = True

    async def drain(self) -> None:
        """End the writer when the reader ends: let it write a queued close frame (briefly), else stop it."""
        queued_close = self.closing and not self.writer.done()
        self.closing = True
        if queued_close:
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), 1.0)
        if not self.writer.done():
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer


def create_app(settings: ServerSettings | None = None, lobby: Lobby | None = None) -> Starlette:
    """The server's ASGI app; its lobby (tables, ledger, store) is opened at startup and
    closed at shutdown, unless one is given (tests share theirs)."""
    settings = settings or ServerSettings()
    state: dict[str, Lobby] = {}

    def get_lobby() -> Lobby:
        return state["lobby"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        own = lobby is None
        state["lobby"] = Lobby(settings) if lobby is None else lobby
        state["lobby"].grouping = True      # the steps of one loop turn: one transaction (Lobby.stage)
        ticker = asyncio.create_task(_tick(state["lobby"], settings.tick_s))
        try:
            yield
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            try:
                state["lobby"].write_staged()
            finally:
                state["lobby"].grouping = False
                if own:
                    state["lobby"].close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def rooms(request: Request) -> Response:
        return JSONResponse({"rooms": get_lobby().rooms()})

    joins = AddressBuckets(settings.join_rate_per_min / 60.0, settings.join_burst)

    async def join(request: Request) -> Response:
        refused = _foreign_origin(request, settings.allowed_origins) or _not_json(request)
        if refused is not None:
            return refused
        address = request.client.host if request.client is not None else ""
        if not joins.allow(address, asyncio.get_running_loop().time()):
            wait = joins.retry_after(address)
            return JSONResponse({"error": f"too many joins from your address (at most {settings.join_burst} at "
                                          f"once, {settings.join_rate_per_min:g} a minute); try again in {wait} s"},
                                status_code=429, headers={"retry-after": str(wait)})
        body = await _json_body(request, settings.max_message_bytes, settings.body_timeout_s)
        if isinstance(body, Response):
            return body
        try:
            return JSONResponse(get_lobby().join(body.get("name"), body.get("room"), address))
        except JoinLimit as exc:
            return JSONResponse({"error": str(exc)}, status_code=429, headers={"retry-after": "60"})
        except JoinUnavailable as exc:
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"retry-after": "60"})
        except JoinError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    async def account(request: Request) -> Response:
        try:
            return JSONResponse(get_lobby().account(request.path_params["name"]))
        except JoinError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        await _serve_connection(ws, get_lobby(), settings)

    routes = [
        Route("/", index),
        Route("/api/rooms", rooms),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/accounts/{name}", account),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        # each hosted family's own web-table files (Family.server.web), if it has any
        *(Mount(path, StaticFiles(directory=directory)) for path, directory in web_dirs().items()),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.sessions = SessionHub(settings, get_lobby)    # what the server's own WebSocket protocol serves
    return app


def _foreign_origin(request: Request, allowed: tuple[str, ...]) -> Response | None:
    """403 for a browser request from another site: its ``Origin`` is neither this server's
    (the host it was asked for) nor one of ``allowed``.  No ``Origin`` (not a browser's
    request, or an old one's same-origin request) passes: a cross-site page cannot omit it."""
    origin = request.headers.get("origin")
    if origin is None:
        return None
    origin = origin.strip().lower()
    host = request.headers.get("host", "").strip().lower()
    if origin in allowed or (host and origin.split("://", 1)[-1] == host):
        return None
    return JSONResponse({"error": "this page's origin may not join here (a cross-site request); the server "
                                  "accepts its own pages and the origins it is configured with"}, status_code=403)


def _not_json(request: Request) -> Response | None:
    """415 unless the body is declared JSON (a cross-site form can only send text/plain,
    form-urlencoded or multipart without a CORS preflight)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind == "application/json":
        return None
    return JSONResponse({"error": "the body must be JSON, sent with Content-Type: application/json"},
                        status_code=415)


async def _json_body(request: Request, limit: int, timeout_s: float = 10.0) -> dict[str, Any] | Response:
    size = request.headers.get("content-length")
    if size is None or not size.isdigit() or int(size) > limit:
        return JSONResponse({"error": f"a JSON body of at most {limit} bytes is required"}, status_code=413)
    try:
        raw = await asyncio.wait_for(request.body(), timeout_s)
    except asyncio.TimeoutError:
        return JSONResponse({"error": f"the body did not arrive within {timeout_s:g} s"}, status_code=408,
                            headers={"connection": "close"})
    if len(raw) > limit:
        return JSONResponse({"error": f"a JSON body of at most {limit} bytes is required"}, status_code=413)
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return JSONResponse({"error": "the body is not valid JSON"}, status_code=400)
    if not isinstance(body, dict):
        return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
    return body


async def _tick(lobby: Lobby, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            lobby.tick()
        except Exception:   # a bug in one table must not stop every clock
            log.exception("clock tick failed")


async def _serve_connection(ws: WebSocket, lobby: Lobby, settings: ServerSettings) -> None:
    """Read one connection's messages until it closes (the ASGI carrier of a :class:`.session.Session`)."""
    conn = Connection(ws)
    loop = asyncio.get_running_loop()
    session = Session(conn, lobby, settings, loop.time())
    code = 1006
    try:
        while True:
            if session.seated is not None:
                message = await ws.receive()
            else:
                try:
                    message = await asyncio.wait_for(ws.receive(), max(0.0, session.hello_deadline - loop.time()))
                except asyncio.TimeoutError:
                    session.hello_late()
                    break
            if message["type"] == "websocket.disconnect":
                code = int(message.get("code", 1006))
                break
            session.received(message.get("text"), loop.time())
    except Exception:   # never let one connection take the server down
        log.exception("connection failed")
        code = 1011
    finally:
        session.ended(code)
        await conn.drain()
        if ws.application_state != WebSocketState.DISCONNECTED and not conn.closing:
            with contextlib.suppress(Exception):
                await ws.close(1011)


class ConnectionLimits:
    """What the guarded protocols share for one server: the connection counts (a
    :class:`~.limits.ConnectionGuard`), the request-head deadline, and the refused connections
    still open."""

    def __init__(self, settings: ServerSettings) -> None:
        self.guard = ConnectionGuard(settings.max_connections, settings.max_connections_per_address)
        self.head_timeout = settings.header_timeout_s
        self.refused = 0


class ServerConfig(uvicorn.Config):
    """``uvicorn.Config`` with the server's :class:`ConnectionLimits` (read by its protocols) and
    the :class:`~.table_socket.SessionHub` its WebSocket protocol serves (``sessions``)."""

    def __init__(self, app: Any, limits: ConnectionLimits, **kw: Any) -> None:
        super().__init__(app, **kw)
        self.limits = limits
        self.sessions: SessionHub = app.state.sessions


def server_config(settings: ServerSettings, lobby: Lobby | None = None, **options: Any) -> ServerConfig:
    """The uvicorn configuration serving :func:`create_app` with these settings: its address,
    the WebSocket frame limit and compression, and uvicorn's own HTTP and WebSocket protocols
    with the connection limits (``max_connections``, ``max_connections_per_address``) and the
    request-head deadline (``header_timeout_s``).  ``options``: more ``uvicorn.Config`` arguments."""
    kw: dict[str, Any] = {"host": settings.host, "port": settings.port, "ws_max_size": settings.max_message_bytes,
                          "ws_per_message_deflate": settings.compression, "http": GuardedHTTP, "log_level": "info"}
    kw["ws"] = TableSocket
    kw.update(options)
    return ServerConfig(create_app(settings, lobby), ConnectionLimits(settings), **kw)


_REFUSED_IN_FLIGHT = 64
"""Refused connections kept open (for at most a second) so that their client reads the answer;
past this many at once, a refused connection is closed without one."""


def _peer(transport: Any) -> str:
    name = transport.get_extra_info("peername")
    return str(name[0]) if isinstance(name, (tuple, list)) and name else ""


def _limits(protocol: Any) -> ConnectionLimits:
    limits: ConnectionLimits = protocol.config.limits
    return limits


class GuardedHTTP(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (the one it picks by default) with the connection limits: the
    connection counted from its first byte to its end (also after it became a WebSocket: the
    WebSocket protocol takes it over and releases it, :class:`.table_socket.TableSocket` or :class:`GuardedWS`), refused with 429 or
    503 past a cap, and closed (408) when a request head is not complete ``header_timeout_s``
    after the connection opened or its previous response ended."""

    _guarded: Any = None
    _counted = False
    _head_timer: asyncio.TimerHandle | None = None
    _head_cycle: Any = None

    def connection_made(self, transport: Any) -> None:
        address = _peer(transport)
        refusal = _limits(self).guard.admit(transport, address)
        if refusal is not None:
            self._refuse(transport, refusal)
            return
        self._guarded = (transport, address)
        super().connection_made(transport)
        self._arm_head_timer()

    def _refuse(self, transport: Any, answer: bytes) -> None:
        """Answer and end: write the answer, half-close, and close within a second (the client
        reads the answer before the end: an abrupt close with its request unread could reset
        the connection and lose the answer)."""
        limits = _limits(self)
        if limits.refused >= _REFUSED_IN_FLIGHT:
            transport.abort()
            return
        limits.refused += 1
        self._counted = True
        transport.write(answer)
        with contextlib.suppress(Exception):
            if transport.can_write_eof():
                transport.write_eof()
        asyncio.get_running_loop().call_later(1.0, transport.abort)

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_cycle = getattr(self, "cycle", None)
        self._head_timer = asyncio.get_running_loop().call_later(_limits(self).head_timeout, self._head_late)

    def _head_late(self) -> None:
        """No complete request head since the timer was armed: a silent or slow client."""
        self._head_timer = None
        transport = self._guarded[0] if self._guarded else None
        if transport is None or transport.is_closing() or transport.get_protocol() is not self:
            return      # closed, or now a WebSocket
        if getattr(self, "cycle", None) is not self._head_cycle:
            return      # a request arrived (its body has its own deadline in the app)
        transport.write(http_refusal(408, f"no complete request within {_limits(self).head_timeout:g} s"))
        transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._guarded is not None and not self._guarded[0].is_closing():
            self._arm_head_timer()     # the next request's head has the same deadline

    def data_received(self, data: bytes) -> None:
        if self._guarded is not None:
            super().data_received(data)

    def eof_received(self) -> bool | None:
        if self._guarded is None:
            return None                # refused: the client read the answer and closed
        result: bool | None = super().eof_received()
        return result

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guarded is None:
            _limits(self).refused -= self._counted
            return
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self._guarded[0].get_protocol() is self:    # not handed over to a WebSocket
            _limits(self).guard.release(*self._guarded)
        super().connection_lost(exc)


GuardedWS: Any = None
if AutoWebSocketsProtocol is not None:      # uvicorn found a WebSocket library (the server extra's)
    class _GuardedWS(AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
        """uvicorn's WebSocket protocol: it releases the connection :class:`GuardedHTTP` counted."""

        _guarded: Any = None

        def connection_made(self, transport: Any) -> None:
            self._guarded = (transport, _peer(transport))
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._guarded is not None:
                _limits(self).guard.release(*self._guarded)
            super().connection_lost(exc)

    GuardedWS = _GuardedWS
