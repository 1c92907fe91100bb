"""The lobby: accounts, rooms, tables and the clocks, over one ledger and one store.

A player joins a room by name: a new name gets an account with the opening balance (a deposit
into the ledger); the room's entry limits are checked against the balance; the player is seated
at the room's table that waits for players (a new one if none) and receives that seat's token,
the only thing that lets a connection act for the seat.  With ``bots`` on, the other seats of a
new table are filled with bots at once and the match starts.

Limits (settings): a player holds one seat at a time; a client address at most
``max_seats_per_address`` seats at open tables; the server at most ``max_tables`` open tables
(:class:`JoinLimit`).  A join whose writes fail (a full disk) seats nobody (:class:`JoinUnavailable`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..errors import (
    JoinError,
    JoinLimit,
    JoinUnavailable,
    MahjongError,
    RoomEntryError,
    StoreError,
)
from ..families.registry import family_of
from ..settlement import OUTSIDE, SYSTEM, Ledger, Transfer
from .games import hosted_rooms, web_url
from .settings import ServerSettings
from .store import Commit, Store, TableRow
from .table import Table

__all__ = ["JoinError", "JoinLimit", "JoinUnavailable", "Lobby", "hosted_rooms"]

log = logging.getLogger("mahjong_core.server")

NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
"""Player names: letters, digits, ``_ . -``, at most 32 characters."""
RESERVED = (SYSTEM, OUTSIDE)
LEDGER_HISTORY = 10_000
"""Transfers the in-memory ledger keeps before it is started again from its balances: the
transfers are in the database; in memory they only grew, by a few per hand, for as long as
the server ran."""


class Lobby:
    """Everything the server holds; used from one thread (the event loop's)."""

    def __init__(self, settings: ServerSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.now = clock
        self.grouping = False
        """Group writes (:meth:`stage`): on while the server's event loop runs (:func:`.app.create_app`);
        off, each step is its own transaction and its frames are sent at once."""
        self.staged: dict[Table, float] = {}
        """The tables whose steps wait for the group write, with the clock reading of their frames."""
        self._write_due = False
        self.store = Store(settings.db, settings.checkpoint_s, create=settings.init,
                           wal_limit_bytes=settings.wal_limit_bytes)
        try:
            self.store.ensure_system(SYSTEM)
            self.reload_accounts()
            self.tables: dict[str, Table] = {}
            for row in self.store.open_tables():
                try:
                    self.tables[row.id] = Table.restore(self, row)
                except MahjongError as exc:   # a damaged row: StateError of the replay, StoreError
                    raise StoreError(f"database {settings.db}: table {row.id} cannot be resumed: {exc}") from None
            self._created = self.store.last_table_number()
        except BaseException:
            self.store.close()
            raise

    def close(self) -> None:
        try:
            self.write_staged()
        finally:
            self.store.close()

    # ------------------------------------------------------------------ group writes
    def stage(self, table: Table, now: float) -> None:
        """``table`` has steps to write and send (its frames built at ``now``): written with every
        table staged during this turn of the event loop, in one transaction, at the loop's next
        turn (one ``BEGIN`` ... ``COMMIT`` for all the actions the loop handled in a turn, the cost
        that dominated each action's), then sent."""
        self.staged[table] = now
        if not self._write_due:
            self._write_due = True
            asyncio.get_running_loop().call_soon(self._write_turn)

    def _write_turn(self) -> None:
        self._write_due = False
        try:
            self.write_staged()
        except Exception:   # a bug (a failed write is handled there): the clocks and the next turn go on
            log.exception("the group write failed")

    def write_staged(self, also: Table | None = None) -> None:
        """Write the staged tables (and ``also``, a table committing now) in one transaction, then
        send the staged tables' frames; ``also`` sends its own.  If the write fails, every one of
        them goes back to its last stored state (``Table._rollback``: nothing about the group is
        sent; the seats whose actions were in it get an error frame) and, with ``also``, the
        StoreError is raised (for ``also``'s caller)."""
        staged, self.staged = self.staged, {}
        tables = list(staged)
        if also is not None:
            staged.pop(also, None)   # written here, sent by its caller
            tables = [*staged, also]
        if not tables:
            return
        try:
            group: list[tuple[TableRow, Commit]] = [t._prepare() for t in tables]
            self.store.commit_group([(row, change) for row, change in group if not _nothing(row, change)])
        except Exception as exc:
            for t in tables:
                t._rollback(exc)
            if also is None:
                return
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"table {also.id}: {type(exc).__name__}: {exc}") from exc
        for t, (row, _) in zip(tables, group):
            t._stored(row)
        for t, now in staged.items():
            try:
                t._flush(now)
            except Exception:   # a bug in one table: the others are still sent theirs
                log.exception("table %s: its frames could not be sent", t.id)

    def reload_accounts(self) -> None:
        """The balances and 积分 as stored (at start, and after a commit that failed)."""
        accounts = self.store.accounts()
        self.ledger = Ledger({name: balance for name, (balance, _) in accounts.items()})
        self.points = {name: points for name, (_, points) in accounts.items()}
        self.unstored_history = 0
        """Transfers the ledger holds in memory (see LEDGER_HISTORY)."""

    # ------------------------------------------------------------------ rooms and accounts
    def rooms(self) -> list[dict[str, Any]]:
        out = []
        for name in hosted_rooms():
            room = self.settings.room(name)
            family = family_of(room.ruleset)
            out.append({"name": room.name, "ruleset": room.ruleset, "players": room.players,
                        "value_per_fan": room.value_per_fan, "entry_min": room.entry_min,
                        "entry_max": room.entry_max, "escape_rules": list(room.escape_rules),
                        "away_limit_s": room.away_limit_s, "escape_disconnects": room.escape_disconnects,
                        "family": family.name, "profile": room.profile, "web": web_url(family)})
        return out

    def _account(self, name: str, balance: int) -> None:
        if name in self.points:
            return
        # stored first: a failed write leaves no account in memory that the database lacks
        self.store.open_account(name, balance, Transfer(OUTSIDE, name, balance, "deposit"))
        self.ledger.open(name, balance)
        self.points[name] = 0

    def account(self, name: str) -> dict[str, Any]:
        if name not in self.points:
            raise JoinError(f"unknown player {name!r}")
        return {"name": name, "balance": self.ledger.balance(name), "points": self.points[name]}

    # ------------------------------------------------------------------ joining
    def join(self, name: object, room_name: object, address: str | None = None) -> dict[str, Any]:
        """Seat ``name`` in ``room_name``: ``{"table", "seat", "token"}``; :class:`JoinError` else
        (:class:`JoinLimit` for a limit, :class:`JoinUnavailable` when it cannot be stored).
        ``address``: the client's, for ``max_seats_per_address`` (None: not counted)."""
        if not isinstance(name, str) or not NAME.fullmatch(name) or name in RESERVED or name.startswith("bot-"):
            raise JoinError("name must be 1-32 letters, digits, '_', '.' or '-' (not 'system', 'outside', "
                            "or starting with 'bot-')")
        rooms = hosted_rooms()
        if not isinstance(room_name, str) or room_name not in rooms:
            raise JoinError(f"unknown room; expected one of {', '.join(rooms)}")
        from_address = 0
        for t in self.tables.values():
            if t.status != "over":
                if name in t.names:
                    raise JoinError(f"{name!r} is already seated at table {t.id}")
                if address is not None:
                    from_address += sum(s is not None and s.address == address for s in t.seats)
        if address is not None and from_address >= self.settings.max_seats_per_address:
            raise JoinLimit(f"this address already holds {from_address} seats at open tables, the server's "
                            f"limit; finish or quit a match first")
        room = self.settings.room(room_name)
        if self._waiting(room_name) is None:
            self._check_capacity()      # before anything is stored for this join
        try:
            self._account(name, self.settings.opening_balance)
        except StoreError:
            raise JoinUnavailable("the server cannot store new players now; try again later") from None
        try:
            room.check_entry(self.ledger.balance(name))
        except RoomEntryError as exc:
            raise JoinError(str(exc)) from None
        table = self._waiting_table(room_name)
        token = secrets.token_urlsafe(24)
        players = [(name, token, False)]
        try:
            if self.settings.bots and table.free_seat() == 0:
                for k in range(1, len(table.seats)):   # their accounts first: then one commit seats all
                    bot = f"bot-{table.id}-{k}"
                    self._account(bot, max(self.settings.opening_balance, room.entry_min))
                    players.append((bot, "", True))
            seat = table.seat_players(players)[0]
        except StoreError:
            if table.status == "waiting" and not any(table.seats):
                self.tables.pop(table.id, None)          # a new table nothing was stored of
            raise JoinUnavailable("the server cannot store new tables now; try again later") from None
        table.seats[seat].address = address              # type: ignore[union-attr]
        return {"table": table.id, "seat": seat, "token": token, "room": room.name, "ruleset": room.ruleset,
                "family": family_of(room.ruleset).name}

    def _waiting(self, room_name: str) -> Table | None:
        """The room's table that waits for players (never one with bots on: each join opens one)."""
        if not self.settings.bots:
            for t in self.tables.values():
                if t.room.name == room_name and t.status == "waiting":
                    return t
        return None

    def _check_capacity(self) -> None:
        if sum(t.status != "over" for t in self.tables.values()) >= self.settings.max_tables:
            raise JoinLimit(f"the server has {self.settings.max_tables} open tables, its limit; try again later")

    def _waiting_table(self, room_name: str) -> Table:
        waiting = self._waiting(room_name)
        if waiting is not None:
            return waiting
        self._check_capacity()
        self._created += 1
        n = self._created
        seed = secrets.randbits(63) if self.settings.seed is None else self.settings.seed + n
        t = Table(self, f"t{n}", self.settings.room(room_name), seed)
        self.tables[t.id] = t
        return t

    # ------------------------------------------------------------------ clocks
    def tick(self) -> None:
        self.write_staged()   # the clocks judge the tables as stored and sent
        if self.unstored_history > LEDGER_HISTORY:    # between two steps: every balance is stored
            self.ledger = Ledger(self.ledger.balances)
            self.unstored_history = 0
        now = self.now()
        for t in list(self.tables.values()):
            t.tick(now)
            if t.status == "over" and t.unwatched(now):
                del self.tables[t.id]   # finished and nobody watching: it stays in the store only


def _nothing(row: TableRow, change: Commit) -> bool:
    """A commit that writes nothing (a table staged without a step: its frames only)."""
    return not (row.changed or row.head is not None or row.log or change.events or change.accounts
                or change.transfers or change.hand is not None or change.rounds)
