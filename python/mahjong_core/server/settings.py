"""The server's settings: where it listens, where it stores, and every clock of the escape rules.

Every limit is a setting so that tests can shorten the clocks (seconds, floats) and an operator
can tune them; the defaults are the seeds' (away 90 s, 3 disconnects) or the room's own.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

from ..errors import MahjongError
from ..settlement import Room, get_room
from .difficulty import DEFAULT_DIFFICULTY, check_difficulty

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "ServerSettings"]

DEFAULT_HOST = "127.0.0.1"
"""Loopback only: the server is reachable from other machines only when told (``--host``)."""
DEFAULT_PORT = 8765
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]{1,253}")
"""An origin as a browser sends it: scheme, host and an optional port (no path)."""


def _seconds(value: object, what: str, lo: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not lo <= value <= 86_400:
        raise MahjongError(f"{what} must be a number of seconds {lo:g}-86400, got {value!r}")
    return float(value)


def _count(value: object, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise MahjongError(f"{what} must be an integer {lo}-{hi}, got {value!r}")
    return value


@dataclass(frozen=True)
class ServerSettings:
    """What ``mahjong-core serve`` runs with (each field is also a command-line option)."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    db: str = "mahjong-server.sqlite3"
    """SQLite database path (``":memory:"`` keeps nothing across a restart)."""
    bots: bool = True
    """Fill the empty seats of a new table with bots at once (False: wait for other players)."""
    rounds: int = 8
    """Rounds (hands) of a match; each is settled when it ends."""
    opening_balance: int = 10_000
    """What a new account (player or bot) is given, as a deposit into the ledger."""
    act_timeout_s: float = 20.0
    """A seat that does not act within this time has the greedy bot act for it (托管), so a
    table never stalls; the web table shows it as the countdown of a turn or claim window."""
    away_limit_s: float | None = None
    """Away (no connection) longer than this is an escape where the room counts it; None = the
    room's own limit (90 s in the seeds)."""
    disconnect_limit: int | None = None
    """Disconnects in one hand that make an escape where the room counts them; None = the room's (3)."""
    reconnect_grace_s: float = 30.0
    """A client closed during a hand (close code 1000/1001: a closed tab, but also a page reload)
    is an escape where the room counts closed clients only if its seat has not connected again
    within this time; a reload resumes the seat.  Each lost connection still counts toward the
    disconnect limit, and the away limit still runs from the moment the connection was lost.
    A finished table is kept this long after its last player left, so a reload shows its end."""
    hello_timeout_s: float = 10.0
    """A new connection must authenticate (its first message) within this time."""
    tick_s: float = 0.25
    """How often the clocks are checked."""
    max_message_bytes: int = 4096
    """A larger client message closes the connection (code 1009)."""
    rate_per_s: float = 20.0
    """Messages a connection may send per second on average ..."""
    burst: int = 40
    """... with this many at once; more is flooding and closes the connection (code 1008)."""
    max_errors: int = 20
    """Refused messages (malformed, illegal) a connection may send before it is closed."""
    compression: bool = False
    """permessage-deflate on the WebSockets: less than half the bytes, for some CPU per frame.
    Off by default: an update frame is about 1.2 KB (3 KB at most) and a player gets a few per
    second, which any link carries, while deflating them cost about an eighth of the server's
    CPU per action in bench/bench_server_load.py (which measures both)."""
    seed: int | None = None
    """Seed of the first table's match (table n uses seed + n); None = fresh entropy per table."""
    init: bool = False
    """Create a new database at ``db`` when there is none (no file, or an empty one).  Without it
    the server refuses to start on a missing or empty file: a wrong path or a truncated file must
    not start a silently empty server whose accounts and tables are gone."""
    wal_limit_bytes: int = 64 << 20
    """The SQLite WAL file stays under this size: past half of it, the writer runs a RESTART
    checkpoint between two commits (a short pause: the checkpoint thread has copied most of the
    WAL already) so that the next commit writes the WAL from its start again, and SQLite
    truncates the file back to half of it."""
    checkpoint_s: float = 1.0
    """Seconds between two checkpoints of the WAL (by a thread of their own)."""
    claim_pause_s: float = 0.8
    """At a table with two or more human players, the other seats see a turn action (a discard, a
    kong ...) no sooner than this many seconds after it, and the bots play their next turn no
    sooner: a seat that is not asked to claim then gets the same frames at the same time whether
    or not another seat was asked (unless that seat takes longer than this to answer).  0: off."""
    header_timeout_s: float = 10.0
    """A connection must send a complete request head within this time of opening (and of the
    end of its previous response); else it is closed (an idle socket, a slow sender)."""
    body_timeout_s: float = 10.0
    """A request body must arrive within this time; else the answer is 408."""
    max_connections: int = 1000
    """Open connections (HTTP and WebSocket) in total; more are answered 503 and closed.  Keep it
    under the process's file-descriptor limit (``ulimit -n``)."""
    max_connections_per_address: int = 32
    """Open connections from one client address; more are answered 429 and closed.  0: no cap
    (behind a reverse proxy, where every client has the proxy's address)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) besides the server's own whose pages may ``POST
    /api/join``; a request with any other ``Origin`` header is refused (403)."""
    join_rate_per_min: float = 20.0
    """Joins one client address may make per minute on average ..."""
    join_burst: int = 10
    """... with this many at once; more are answered 429."""
    max_tables: int = 1000
    """Open tables (waiting or playing) in total; a join that needs a new table beyond it is
    answered 429."""
    max_seats_per_address: int = 8
    """Seats at open tables that one client address may hold (a player holds one seat at a time;
    names cost nothing, so the cap is per address); more joins are answered 429."""
    difficulty: str = DEFAULT_DIFFICULTY
    """The level of the bots that fill the seats of a room's tables (:mod:`.difficulty`: beginner,
    normal, hard, expert), for every room ``room_difficulty`` does not name."""
    room_difficulty: tuple[tuple[str, str], ...] = ()
    """``(room, level)`` pairs (or a mapping room -> level): a room's own level.  A room that is not
    registered, or a level that is not one of :data:`~.difficulty.DIFFICULTIES`, is refused here."""

    def __post_init__(self) -> None:
        if not isinstance(self.host, str) or not self.host:
            raise MahjongError(f"host must be a non-empty string, got {self.host!r}")
        _count(self.port, "port", 0, 65_535)
        if not isinstance(self.db, str) or not self.db:
            raise MahjongError(f"db must be a path, got {self.db!r}")
        for flag in ("bots", "compression", "init"):
            if not isinstance(getattr(self, flag), bool):
                raise MahjongError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        _count(self.rounds, "rounds", 1, 1_000_000)
        _count(self.opening_balance, "opening_balance", 0, 10 ** 15)
        for name, lo in (("act_timeout_s", 0.01), ("hello_timeout_s", 0.01), ("tick_s", 0.001),
                         ("rate_per_s", 0.01), ("reconnect_grace_s", 0.0), ("checkpoint_s", 0.001),
                         ("claim_pause_s", 0.0), ("header_timeout_s", 0.01), ("body_timeout_s", 0.01),
                         ("join_rate_per_min", 0.01)):
            object.__setattr__(self, name, _seconds(getattr(self, name), name, lo))
        if self.away_limit_s is not None:
            object.__setattr__(self, "away_limit_s", _seconds(self.away_limit_s, "away_limit_s"))
        if self.disconnect_limit is not None:
            _count(self.disconnect_limit, "disconnect_limit", 1, 1000)
        _count(self.max_message_bytes, "max_message_bytes", 64, 1 << 20)
        _count(self.burst, "burst", 1, 10_000)
        _count(self.max_errors, "max_errors", 1, 10_000)
        if self.seed is not None:
            _count(self.seed, "seed", 0, 2 ** 63 - 1)
        _count(self.wal_limit_bytes, "wal_limit_bytes", 1 << 16, 1 << 40)
        _count(self.max_connections, "max_connections", 1, 1_000_000)
        _count(self.max_connections_per_address, "max_connections_per_address", 0, 1_000_000)
        _count(self.join_burst, "join_burst", 1, 10_000)
        _count(self.max_tables, "max_tables", 1, 10_000_000)
        _count(self.max_seats_per_address, "max_seats_per_address", 1, 1_000_000)
        origins = self.allowed_origins
        if isinstance(origins, str) or not isinstance(origins, (tuple, list)) \
                or not all(isinstance(o, str) and _ORIGIN.fullmatch(o) for o in origins):
            raise MahjongError(f"allowed_origins must be origins like 'https://example.org:8443', got {origins!r}")
        object.__setattr__(self, "allowed_origins", tuple(o.lower() for o in origins))
        check_difficulty(self.difficulty)
        pairs = self.room_difficulty
        if isinstance(pairs, dict):
            pairs = tuple(pairs.items())
        if isinstance(pairs, str) or not isinstance(pairs, (tuple, list)) \
                or not all(isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs):
            raise MahjongError(f"room_difficulty must be (room, level) pairs or a mapping, got {pairs!r}")
        for room, level in pairs:
            get_room(room)   # an unknown room: a MahjongError naming the rooms
            check_difficulty(level, f"the difficulty of room {room!r}")
        object.__setattr__(self, "room_difficulty", tuple((str(r), str(v)) for r, v in pairs))

    def difficulty_of(self, room: str) -> str:
        """The level of the bots that fill the seats of ``room``'s tables (its own, else ``difficulty``)."""
        return dict(self.room_difficulty).get(room, self.difficulty)

    def room(self, name: str | Room) -> Room:
        """The room with this server's clock overrides (away limit, disconnect count)."""
        room = get_room(name)
        changes: dict[str, object] = {}
        if self.away_limit_s is not None:
            changes["away_limit_s"] = self.away_limit_s
        if self.disconnect_limit is not None:
            changes["escape_disconnects"] = self.disconnect_limit
        return dataclasses.replace(room, **changes) if changes else room  # type: ignore[arg-type]
