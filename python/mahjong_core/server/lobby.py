"""The lobby: accounts, rooms, tables and the clocks, over one ledger and one store.

A player joins a room by name: a new name gets an account with the opening balance (a deposit
into the ledger); the room's entry limits are checked against the balance; the player is seated
at the room's table that waits for players (a new one if none) and receives that seat's token,
the only thing that lets a connection act for the seat.  With ``bots`` on, the other seats of a
new table are filled with bots at once and the match starts.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..errors import JoinError, RoomEntryError
from ..settlement import OUTSIDE, ROOMS, SYSTEM, Ledger, Transfer
from .settings import ServerSettings
from .store import Store
from .table import Table

__all__ = ["JoinError", "Lobby"]

NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
"""Player names: letters, digits, ``_ . -``, at most 32 characters."""
RESERVED = (SYSTEM, OUTSIDE)


class Lobby:
    """Everything the server holds; used from one thread (the event loop's)."""

    def __init__(self, settings: ServerSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.now = clock
        self.store = Store(settings.db)
        self.store.ensure_system(SYSTEM)
        accounts = self.store.accounts()
        self.ledger = Ledger({name: balance for name, (balance, _) in accounts.items()})
        self.points = {name: points for name, (_, points) in accounts.items()}
        self.tables: dict[str, Table] = {}
        for row in self.store.open_tables():
            self.tables[row.id] = Table.restore(self, row)
        self._created = self.store.table_count()

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ rooms and accounts
    def rooms(self) -> list[dict[str, Any]]:
        out = []
        for name in ROOMS:
            room = self.settings.room(name)
            out.append({"name": room.name, "ruleset": room.ruleset, "players": room.players,
                        "value_per_fan": room.value_per_fan, "entry_min": room.entry_min,
                        "entry_max": room.entry_max, "escape_rules": list(room.escape_rules),
                        "away_limit_s": room.away_limit_s, "escape_disconnects": room.escape_disconnects})
        return out

    def _account(self, name: str, balance: int) -> None:
        if name in self.points:
            return
        self.ledger.open(name, balance)
        self.store.open_account(name, balance, Transfer(OUTSIDE, name, balance, "deposit"))
        self.points[name] = 0

    def account(self, name: str) -> dict[str, Any]:
        if name not in self.points:
            raise JoinError(f"unknown player {name!r}")
        return {"name": name, "balance": self.ledger.balance(name), "points": self.points[name]}

    # ------------------------------------------------------------------ joining
    def join(self, name: object, room_name: object) -> dict[str, Any]:
        """Seat ``name`` in ``room_name``: ``{"table", "seat", "token"}``; :class:`JoinError` else."""
        if not isinstance(name, str) or not NAME.fullmatch(name) or name in RESERVED or name.startswith("bot-"):
            raise JoinError("name must be 1-32 letters, digits, '_', '.' or '-' (not 'system', 'outside', "
                            "or starting with 'bot-')")
        if not isinstance(room_name, str) or room_name not in ROOMS:
            raise JoinError(f"unknown room; expected one of {', '.join(ROOMS)}")
        for t in self.tables.values():
            if t.status != "over" and name in t.names:
                raise JoinError(f"{name!r} is already seated at table {t.id}")
        room = self.settings.room(room_name)
        self._account(name, self.settings.opening_balance)
        try:
            room.check_entry(self.ledger.balance(name))
        except RoomEntryError as exc:
            raise JoinError(str(exc)) from None
        table = self._waiting_table(room_name)
        token = secrets.token_urlsafe(24)
        bots = self.settings.bots and table.free_seat() == 0
        seat = table.seat_player(name, token)
        if bots:
            while table.free_seat() is not None:
                bot = f"bot-{table.id}-{table.free_seat()}"
                self._account(bot, max(self.settings.opening_balance, room.entry_min))
                table.seat_player(bot, "", bot=True)
        return {"table": table.id, "seat": seat, "token": token, "room": room.name, "ruleset": room.ruleset}

    def _waiting_table(self, room_name: str) -> Table:
        if not self.settings.bots:
            for t in self.tables.values():
                if t.room.name == room_name and t.status == "waiting":
                    return t
        self._created += 1
        n = self._created
        seed = secrets.randbits(63) if self.settings.seed is None else self.settings.seed + n
        t = Table(self, f"t{n}", self.settings.room(room_name), seed)
        self.tables[t.id] = t
        return t

    # ------------------------------------------------------------------ clocks
    def tick(self) -> None:
        now = self.now()
        for t in list(self.tables.values()):
            t.tick(now)
            if t.status == "over" and t.unwatched(now):
                del self.tables[t.id]   # finished and nobody watching: it stays in the store only
