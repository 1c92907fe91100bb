"""``mahjong-core serve``: its options (read into :class:`~.settings.ServerSettings`) and the run.

Imports no web framework until :func:`run`, so the command line works without the ``server``
extra installed (``serve`` then exits 2 naming the extra).  The database is opened and checked
before the server listens: a missing, empty or damaged database is refused with one line naming
its path and exit status 2 (``--init`` creates a new one where there is none).
"""

from __future__ import annotations

import argparse

from ..errors import MahjongError
from .difficulty import DIFFICULTIES
from .settings import DEFAULT_HOST, DEFAULT_PORT, ServerSettings

__all__ = ["add_arguments", "run", "settings_from"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = ServerSettings()
    p.add_argument("--host", default=DEFAULT_HOST,
                   help="address to listen on (the loopback by default; 0.0.0.0 opens it to the network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (0: any free port)")
    p.add_argument("--db", default=d.db, help='SQLite database file (":memory:" stores nothing across restarts)')
    p.add_argument("--init", action="store_true",
                   help="create a new database at --db if there is none (no file, or an empty one); without it "
                        "a missing, empty or damaged database is refused (exit status 2, the path named)")
    p.add_argument("--wal-limit-mib", type=int, default=d.wal_limit_bytes >> 20,
                   help="MiB the SQLite WAL file is kept near (checkpointed and truncated past it)")
    p.add_argument("--checkpoint-every", type=float, default=d.checkpoint_s,
                   help="seconds between two checkpoints of the WAL")
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
    p.add_argument("--claim-pause", type=float, default=d.claim_pause_s,
                   help="at a table of two or more humans, seconds before the other seats see a turn action, "
                        "so that a seat not asked cannot tell a claim window by its frames or their timing (0: off)")
    p.add_argument("--header-timeout", type=float, default=d.header_timeout_s,
                   help="seconds a connection has to send a complete request head (idle and slow sockets are closed)")
    p.add_argument("--body-timeout", type=float, default=d.body_timeout_s,
                   help="seconds a request body has to arrive (else 408)")
    p.add_argument("--max-connections", type=int, default=d.max_connections,
                   help="open connections in total (more are answered 503); keep it under `ulimit -n`")
    p.add_argument("--max-connections-per-address", type=int, default=d.max_connections_per_address,
                   help="open connections from one client address (more are answered 429); 0: no cap, for a "
                        "server behind a reverse proxy")
    p.add_argument("--allow-origin", dest="allowed_origins", action="append", default=[], metavar="ORIGIN",
                   help="an origin (https://example.org) besides the server's own whose pages may POST /api/join "
                        "(repeat for more; default: the server's own only)")
    p.add_argument("--join-rate", type=float, default=d.join_rate_per_min,
                   help="joins a client address may make per minute (more are answered 429)")
    p.add_argument("--join-burst", type=int, default=d.join_burst, help="joins a client address may make at once")
    p.add_argument("--max-tables", type=int, default=d.max_tables,
                   help="open tables in total (a join needing another is answered 429)")
    p.add_argument("--max-seats-per-address", type=int, default=d.max_seats_per_address,
                   help="seats at open tables one client address may hold (more joins are answered 429)")
    p.add_argument("--seed", type=int, default=None, help="seed of the tables' matches (default: random)")
    p.add_argument("--difficulty", default=d.difficulty,
                   help=f"level of the bots that fill a room's seats: {', '.join(DIFFICULTIES)} (random, greedy, "
                        "advisor, search bot; a family without that bot plays the nearest easier one it has)")
    p.add_argument("--room-difficulty", dest="room_difficulty", action="append", default=[], metavar="ROOM=LEVEL",
                   help="a room's own bot level (repeat for more rooms; default: --difficulty for every room)")


def settings_from(args: argparse.Namespace) -> ServerSettings:
    """The settings the parsed options describe (a bad value is a MahjongError naming it)."""
    return ServerSettings(host=args.host, port=args.port, db=args.db, bots=args.bots, rounds=args.rounds,
                          opening_balance=args.opening_balance, act_timeout_s=args.act_timeout,
                          away_limit_s=args.away_limit, disconnect_limit=args.disconnect_limit,
                          reconnect_grace_s=args.reconnect_grace,
                          tick_s=args.tick, rate_per_s=args.rate, burst=args.burst, compression=args.compression,
                          seed=args.seed, init=args.init, wal_limit_bytes=_mib(args.wal_limit_mib),
                          checkpoint_s=args.checkpoint_every, claim_pause_s=args.claim_pause,
                          header_timeout_s=args.header_timeout, body_timeout_s=args.body_timeout,
                          max_connections=args.max_connections,
                          max_connections_per_address=args.max_connections_per_address,
                          allowed_origins=tuple(args.allowed_origins), join_rate_per_min=args.join_rate,
                          join_burst=args.join_burst, max_tables=args.max_tables,
                          max_seats_per_address=args.max_seats_per_address,
                          difficulty=args.difficulty, room_difficulty=_room_levels(args.room_difficulty))


def _room_levels(items: list[str]) -> tuple[tuple[str, str], ...]:
    """--room-difficulty ROOM=LEVEL options as (room, level) pairs (checked by the settings)."""
    out = []
    for item in items:
        room, sep, level = item.partition("=")
        if not sep or not room or not level:
            raise MahjongError(f"--room-difficulty must be ROOM=LEVEL, got {item!r}")
        out.append((room, level))
    return tuple(out)


def _mib(n: int) -> int:
    """--wal-limit-mib as bytes."""
    if not 1 <= n <= 1 << 20:
        raise MahjongError(f"--wal-limit-mib must be an integer 1-{1 << 20}, got {n}")
    return n << 20


GC_THRESHOLD = (20_000, 20, 20)
"""The serving process's cyclic garbage collector thresholds (Python's default: 700, 10, 10).
An action allocates a few hundred objects (events, views, frames, rows) that reference counting
frees at once; with the default the collector ran after every few actions and walked the young
survivors each time, its older generations the tables' whole state (bench/bench_table_path.py,
30 000 actions, timed with gc callbacks on a loaded machine: 0.32 s of collection with the
default thresholds, 0.07 s with a first threshold of 20 000).  A larger first threshold lets
most of those objects die before a collection looks at them."""


def _tune_gc() -> None:
    """For the server's own process (not an application that embeds :func:`create_app`): the
    objects alive after the start (modules, the restored tables) are moved out of the
    collector's reach (``gc.freeze``: reference counting still frees them, but a cycle among
    them is never collected, so a restored table that later ends may stay in memory: bounded by
    what the start loaded), and the thresholds are :data:`GC_THRESHOLD`."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def run(settings: ServerSettings) -> int:
    """Serve until interrupted (uvicorn handles Ctrl-C and SIGTERM: it closes the connections,
    the lobby closes the database).  The socket is bound first, so the line printed names the port
    actually listened on (``--port 0``: the one the system chose).  Ctrl-C is the normal way to stop
    the server: after the shutdown one line says so on standard error and the status is 130 (the
    command line's status of an interrupt), not an error report."""
    import socket
    import sys

    import uvicorn

    from .app import server_config
    from .lobby import Lobby

    lobby = Lobby(settings)   # the database checked first: a StoreError (exit 2) names its path
    _tune_gc()
    try:
        config = server_config(settings, lobby)
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
    finally:
        lobby.close()
    return 0
