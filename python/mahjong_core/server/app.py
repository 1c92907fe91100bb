"""The ASGI application (Starlette): the web table's files, a small JSON API and one WebSocket
per player.  Everything runs on the one event loop; the tables are plain synchronous objects
(:mod:`.table`) that the handlers below call between two awaits, so no lock is needed.

Routes: ``GET /`` the web table; ``GET /static/...`` its files; ``GET /api/rooms``;
``POST /api/join`` (``{"name", "room"}`` → ``{"table", "seat", "token", ...}``);
``GET /api/accounts/{name}``; ``WS /ws`` (the protocol of :mod:`.protocol`).
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

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketState

from .encoding import dumps
from .lobby import JoinError, Lobby
from .protocol import ProtocolError, RateLimit, parse_message
from .settings import ServerSettings
from .table import Table

__all__ = ["STATIC", "create_app"]

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
        ticker = asyncio.create_task(_tick(state["lobby"], settings.tick_s))
        try:
            yield
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            if own:
                state["lobby"].close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def rooms(request: Request) -> Response:
        return JSONResponse({"rooms": get_lobby().rooms()})

    async def join(request: Request) -> Response:
        body = await _json_body(request, settings.max_message_bytes)
        if isinstance(body, Response):
            return body
        try:
            return JSONResponse(get_lobby().join(body.get("name"), body.get("room")))
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
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _json_body(request: Request, limit: int) -> dict[str, Any] | Response:
    size = request.headers.get("content-length")
    if size is None or not size.isdigit() or int(size) > limit:
        return JSONResponse({"error": f"a JSON body of at most {limit} bytes is required"}, status_code=413)
    raw = await request.body()
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
    """Read one connection's messages until it closes: authenticate, then act."""
    conn = Connection(ws)
    loop = asyncio.get_running_loop()
    limit = RateLimit(settings.rate_per_s, settings.burst, loop.time())
    seated: tuple[Table, int] | None = None
    errors = 0
    code = 1006
    deadline = loop.time() + settings.hello_timeout_s
    try:
        while True:
            if seated is not None:
                message = await ws.receive()
            else:
                try:
                    message = await asyncio.wait_for(ws.receive(), max(0.0, deadline - loop.time()))
                except asyncio.TimeoutError:
                    conn.close(1008, "no hello in time")
                    break
            if message["type"] == "websocket.disconnect":
                code = int(message.get("code", 1006))
                break
            if conn.closing:
                continue
            if not limit.allow(loop.time()):
                conn.error("too many messages: the connection is closed")
                conn.close(1008, "flooding")
                continue
            reply = _handle(message, conn, lobby, settings, seated)
            if isinstance(reply, tuple):
                seated = reply
            elif reply is not None:
                errors += 1
                conn.error(reply)
                if errors >= settings.max_errors or seated is None:
                    conn.close(1008, "too many refused messages" if seated else "authentication failed")
    except Exception:   # never let one connection take the server down
        log.exception("connection failed")
        code = 1011
    finally:
        if seated is not None:
            table, k = seated
            try:
                table.detach(k, conn, code)
            except Exception:
                log.exception("detach failed")
        await conn.drain()
        if ws.application_state != WebSocketState.DISCONNECTED and not conn.closing:
            with contextlib.suppress(Exception):
                await ws.close(1011)


def _handle(message: Any, conn: Connection, lobby: Lobby, settings: ServerSettings,
            seated: tuple[Table, int] | None) -> tuple[Table, int] | str | None:
    """One received frame: the new seat after a hello, an error message, or None."""
    text = message.get("text")
    if text is None:
        return "binary frames are not accepted; send JSON text"
    if len(text) > settings.max_message_bytes or len(text.encode("utf-8", "surrogatepass")) > settings.max_message_bytes:
        conn.close(1009, "message too big")
        return None
    try:
        msg = parse_message(text)
    except ProtocolError as exc:
        return str(exc)
    kind = msg["type"]
    if seated is None:
        if kind != "hello":
            return "the first message must be a hello with the seat's token"
        table = lobby.tables.get(msg["table"])
        k = msg["seat"]
        seat = None if table is None or k >= len(table.seats) else table.seats[k]
        if seat is None or not seat.accepts(msg["token"]):
            return "unknown table or seat, or a wrong token"
        assert table is not None
        table.attach(k, conn, msg.get("last_event_id", 0))
        return table, k
    table, k = seated
    if kind == "hello":
        return "already authenticated"
    if kind == "ping":
        conn.send('{"type":"pong"}')
        return None
    if kind == "quit":
        return table.quit(k)
    return table.act(k, msg["index"])
