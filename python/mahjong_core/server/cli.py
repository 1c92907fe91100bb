"""``mahjong-core serve``: its options (read into :class:`~.settings.ServerSettings`) and the run.

Imports no web framework until :func:`run`, so the command line works without the ``server``
extra installed (``serve`` then exits 2 naming the extra).
"""

from __future__ import annotations

import argparse

from .settings import DEFAULT_HOST, DEFAULT_PORT, ServerSettings

__all__ = ["add_arguments", "run", "settings_from"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = ServerSettings()
    p.add_argument("--host", default=DEFAULT_HOST,
                   help="address to listen on (the loopback by default; 0.0.0.0 opens it to the network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (0: any free port)")
    p.add_argument("--db", default=d.db, help='SQLite database file (":memory:" stores nothing across restarts)')
    p.add_argument("--no-bots", dest="bots", action="store_false",
                   help="do not fill empty seats with bots: a table waits for its players")
    p.add_argument("--rounds", type=int, default=d.rounds, help="rounds of a match")
    p.add_argument("--opening-balance", type=int, default=d.opening_balance, help="balance of a new account")
    p.add_argument("--act-timeout", type=float, default=d.act_timeout_s,
                   help="seconds a seat has to act before the bot acts for it (托管)")
    p.add_argument("--away-limit", type=float, default=None,
                   help="seconds away that make an escape where the room counts it (default: the room's, 90)")
    p.add_argument("--disconnect-limit", type=int, default=None,
                   help="disconnects in a hand that make an escape where the room counts them (default: 3)")
    p.add_argument("--reconnect-grace", type=float, default=d.reconnect_grace_s,
                   help="seconds a player who closed the client (or reloaded the page) has to come back "
                        "before it counts as an escape where the room counts closed clients")
    p.add_argument("--tick", type=float, default=d.tick_s, help="seconds between two checks of the clocks")
    p.add_argument("--rate", type=float, default=d.rate_per_s,
                   help="messages per second a connection may send on average (more is flooding)")
    p.add_argument("--burst", type=int, default=d.burst, help="messages a connection may send at once")
    p.add_argument("--compression", dest="compression", action="store_true", default=d.compression,
                   help="permessage-deflate on the WebSockets (fewer bytes, more CPU per frame)")
    p.add_argument("--no-compression", dest="compression", action="store_false",
                   help="no permessage-deflate on the WebSockets (the default)")
    p.add_argument("--seed", type=int, default=None, help="seed of the tables' matches (default: random)")


def settings_from(args: argparse.Namespace) -> ServerSettings:
    """The settings the parsed options describe (a bad value is a MahjongError naming it)."""
    return ServerSettings(host=args.host, port=args.port, db=args.db, bots=args.bots, rounds=args.rounds,
                          opening_balance=args.opening_balance, act_timeout_s=args.act_timeout,
                          away_limit_s=args.away_limit, disconnect_limit=args.disconnect_limit,
                          reconnect_grace_s=args.reconnect_grace,
                          tick_s=args.tick, rate_per_s=args.rate, burst=args.burst, compression=args.compression,
                          seed=args.seed)


def run(settings: ServerSettings) -> int:
    """Serve until interrupted (uvicorn handles Ctrl-C and SIGTERM: it closes the connections,
    the lobby closes the database).  The socket is bound first, so the line printed names the port
    actually listened on (``--port 0``: the one the system chose).  Ctrl-C is the normal way to stop
    the server: after the shutdown one line says so on standard error and the status is 130 (the
    command line's status of an interrupt), not an error report."""
    import socket
    import sys

    import uvicorn

    from .app import create_app

    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port,
                            ws_max_size=settings.max_message_bytes, ws_per_message_deflate=settings.compression,
                            log_level="info")
    sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((settings.host, settings.port))   # an OSError (address in use ...): exit 1, its reason
    except BaseException:
        sock.close()
        raise
    port = sock.getsockname()[1]
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(f"mahjong-core serve: http://{host}:{port}/  (database {settings.db})", flush=True)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:   # uvicorn shut down cleanly, then raised the SIGINT it captured
        print("mahjong-core serve: stopped (interrupted)", file=sys.stderr, flush=True)
        return 130
    finally:
        sock.close()
    return 0
