"""One table of the server: its seats, its match, each seat's event stream and the escape clocks.

The table is plain synchronous code: the web layer (:mod:`.app`) calls :meth:`Table.act`,
:meth:`Table.attach`, :meth:`Table.detach`, :meth:`Table.quit` and :meth:`Table.tick` from the
one event-loop thread and gives each connection an :class:`Outbox`.  Every engine step is
committed to the store (:mod:`.store`) before any frame about it is sent, so a restart never
shows a player an event he had not been sent, nor loses one he had.  While the server's loop
runs (the lobby's ``grouping``), the steps of every table that acted during one turn of the loop
are committed together at the loop's next turn, then sent (:meth:`.Lobby.stage`: one transaction
instead of one per action); without it (a table driven directly), each step is committed at once.
A commit that fails (a full disk) puts the table back to its last stored state (the match, the
streams, the balances), so that nothing a client was sent differs from the database: the acting
seat gets an error frame and may try again; a bot's move is tried again by the clock
(:meth:`Table.tick`).

No frame tells a seat whether another seat was asked to claim: at a table with two or more
human players, the seats that are not asked see each turn action (a discard, a kong) only
``claim_pause_s`` seconds after it or when the claim window closes, whichever is later, in one
update whose events and state are the same whether a window opened or not (the asked seats'
answers are redacted from the others' streams by the engine).

A seat's stream is what that seat may see: the round's events through the round's own redaction
(its ``log_for``, event by event: the round contract of :mod:`mahjong_core.game.contract`) and the table's own events (``match_start``,
``round_start``, ``settlement``, ``escape``, ``match_end``), numbered 1, 2, 3 ... per seat for
the whole match, which is what a reconnecting client resumes from.

A table plays any family the server can host (:mod:`.games`: found through the registry): the
family's match, its bot for the bot seats and for a seat whose time is up, and its side of a settled
round's record (``Family.server``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .._streams import append_events, log_texts, update_frame
from ..errors import IllegalActionError
from ..settlement import (
    EscapeTracker,
    HandOutcome,
    Room,
    Transfer,
    level_of,
    settle_hand,
    update_score,
)
from .encoding import dumps, dumps_utf8, fast_utf8
from .games import new_match, settlement_fields, table_bot, web_table
from .store import Commit, StoreError, TableRow
from .stream_digest import digest_text, extend_digest, running_digest, same_history

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["TABLE_EVENTS", "Outbox", "Seat", "Table", "token_hash"]

log = logging.getLogger("mahjong_core.server")

TABLE_EVENTS = ("match_start", "round_start", "settlement", "escape", "match_end")
"""The table's own event types in a seat's stream (the engine's events keep their own types)."""

# close codes of a connection (RFC 6455): a close frame with 1000 (normal) or 1001 (going away:
# the tab or the app was closed) is the player closing the client; anything else, or no close
# frame at all (1006), is a lost connection
CLIENT_CLOSED = (1000, 1001)
SERVER_RESTART = 1012
"""The server closes every connection with this code when it stops: not the player's doing."""

ASKED_PHASES = frozenset({"claim", "rob"})
"""The engine's phases in which seats answer another seat's discard or kong: whether such a
window opens at all depends on the answering seats' concealed tiles, so only they may see it."""
RETRY_S = 1.0
"""After a failed commit, the clock tries a bot's move again this many seconds later."""
STORE_FAILED = ("the server could not store this action (its database is failing): nothing was played; "
                "try again in a moment")


_DEADLINE_TEXTS: dict[float, str] = {}
_DEADLINE_TEXTS_MAX = 4096


def _deadline_text(left: float) -> str:
    """``,"deadline_s":`` and the JSON of ``round(max(0.0, left), 3)`` (what :meth:`Table._state_fields`
    gives), kept per ``left``: a deadline restarted at the update's own clock reading leaves the
    whole act timeout but for the float's rounding (a handful of values), and ``round`` with
    digits formats the float in decimal (several µs, once per update)."""
    text = _DEADLINE_TEXTS.get(left)
    if text is None:
        if len(_DEADLINE_TEXTS) >= _DEADLINE_TEXTS_MAX:   # the other readings (a clock's tick): seldom the same
            _DEADLINE_TEXTS.clear()
        text = _DEADLINE_TEXTS[left] = ',"deadline_s":' + dumps(round(max(0.0, left), 3))
    return text


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()



class Outbox(Protocol):
    """Where a table sends a connection's frames (the web layer queues them)."""

    def send(self, frame: str) -> None:
        """Queue one text frame: a JSON object already encoded (each frame is encoded once, by the table).
        A connection that also has ``send_utf8(data: bytes)`` (the server's own WebSocket
        protocol) is given its update frames as their UTF-8 bytes there instead: the same text,
        built as bytes (the engine's view as orjson writes it, no str frame encoded again)."""
    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Seat:
    name: str
    token_hash: str
    """SHA-256 of the seat's token (empty for a bot: a bot seat accepts no connection)."""
    bot: bool
    stream: list[str] = field(default_factory=list)
    """The seat's stream events, each encoded once as JSON: the text stored and the text sent."""
    conn: Outbox | None = None
    away_since: float | None = None
    """When the seat's connection was lost (monotonic clock); None while connected (or a bot)."""
    closed_at: float | None = None
    """When the player closed the client during a hand (close 1000/1001, as a reload also does):
    a closed client only if the seat is still away ``reconnect_grace_s`` later; None else."""
    history: int = 0
    """The running digest of ``stream`` (:mod:`.stream_digest`: CRC-32, formatted only in a frame)."""
    address: str | None = None
    """The client address that joined (in memory only: for the server's per-address limits)."""

    def accepts(self, token: str) -> bool:
        return not self.bot and hmac.compare_digest(self.token_hash, token_hash(token))

    def row(self) -> dict[str, Any]:
        return {"name": self.name, "token_hash": self.token_hash, "bot": self.bot}


class Table:
    """A table of ``room``: ``players`` seats, filled by :meth:`seat_player`; the match starts
    when the last seat is taken."""

    def __init__(self, lobby: Lobby, table_id: str, room: Room, seed: int) -> None:
        self.lobby = lobby
        self.id = table_id
        self.room = room
        self.seed = seed
        self.seats: list[Seat | None] = [None] * room.players
        self.status = "waiting"
        self.end_reason: str | None = None
        self.match: Any = None            # the family's match (a mahjong_core.game.contract.Match)
        self.tracker = EscapeTracker(room)
        self.deadline: float | None = None
        # the bot seats play at the room's difficulty; a seat whose time is up gets the table's bot (托管)
        self._bot = table_bot(room.ruleset, difficulty=lobby.settings.difficulty_of(room.name))
        self._stand_in = table_bot(room.ruleset)
        self._pending = Commit()
        self._sent = [0] * room.players   # stream events sent to the current connection, per seat
        self._head_stored = False         # the match's arguments are stored (its rounds go one by one)
        self._log_of: Any = None          # the round whose log is stored (its first _log_stored events)
        self._log_stored = 0
        self._log_texts: dict[int, tuple[Any, str, bytes]] = {}   # id -> (log event, its JSON, UTF-8), until stored
        self._row_stored: tuple[Any, ...] | None = None   # the row's own fields as last stored
        self._shown = [0] * room.players  # the stream length each seat may know of (see _flush)
        self._hold_until: float | None = None   # the seats not asked see nothing before (claim_pause_s)
        self._retry_at = 0.0              # a bot's move that could not be stored is tried again after
        self._actors: list[int] = []      # seats whose actions wait for the lobby's group write
        self._players_text: str | None = None   # _players()'s JSON until a seat, balance or connection changes
        self._players_utf8 = b""          # _players_text's UTF-8 (set with it)
        self._seat_rows: tuple[list[Seat | None], list[Any]] = ([], [])   # the seats and their row()s
        self._tail_key: tuple[Any, ...] | None = None   # _state_tail's members before the deadline, and their JSON
        self._tail_head = ""
        self._bots = False                # a seat is a bot's (else no bot is ever due: see _after_steps)

    @classmethod
    def restore(cls, lobby: Lobby, row: TableRow) -> Table:
        """A stored table, its match replayed through the validated ``Match.from_json``; a bot
        whose move is next plays at the first tick of the clock."""
        t = cls(lobby, row.id, lobby.settings.room(row.room), row.seed)
        t._load(row, lobby.now())
        return t

    def _load(self, row: TableRow, now: float) -> None:
        """Set the table to its stored ``row``; a seat of the same player keeps its connection
        and away clock (a rollback), any other starts away now (a restart)."""
        old = self.seats
        seats: list[Seat | None] = [None] * len(old)
        for k, d in enumerate(row.seats):
            if d is not None:
                seat = Seat(d["name"], d["token_hash"], bool(d["bot"]), away_since=None if d["bot"] else now)
                prev = old[k]
                if prev is not None and prev.name == seat.name:
                    seat.conn, seat.away_since, seat.address = prev.conn, prev.away_since, prev.address
                    seat.closed_at = prev.closed_at
                seat.stream = list(row.streams[k])
                seat.history = running_digest(seat.stream)
                seats[k] = seat
                # a rollback keeps what the seat was shown (never more than is stored); a restart
                # takes the stored stream as shown (its client may hold all of it)
                self._shown[k] = min(self._shown[k], len(seat.stream)) if prev is not None else len(seat.stream)
        match: Any = row.match()
        self.seats = seats
        self._bots = any(s is not None and s.bot for s in seats)
        self._players_text = None
        self.status = row.status
        self.end_reason = row.end_reason
        self.match = match
        self._head_stored, self._log_of, self._log_stored = match is not None, None, 0
        if match is not None:
            self._log_of, self._log_stored = match.round, len(row.log)
        self._log_texts.clear()
        self._pending = Commit()
        self.tracker.disconnects = list(row.escape)
        self._row_stored = (row.status, row.end_reason, tuple(row.escape), row.seats)
        self.deadline = now + self.lobby.settings.act_timeout_s if self._in_hand() else None

    # ------------------------------------------------------------------ seats
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s is not None)

    def free_seat(self) -> int | None:
        for k, s in enumerate(self.seats):
            if s is None:
                return k
        return None

    def seat_player(self, name: str, token: str, bot: bool = False) -> int:
        """Put a player (or a bot) in the first free seat; start the match when the table is full."""
        return self.seat_players([(name, token, bot)])[0]

    def seat_players(self, players: list[tuple[str, str, bool]]) -> list[int]:
        """Seat ``(name, token, bot)`` players in the first free seats, in one commit (the match
        starts when the table is full); StoreError: none is seated (the table as stored)."""
        assert self.status == "waiting"
        seats = []
        for name, token, bot in players:
            k = self.free_seat()
            assert k is not None
            self.seats[k] = Seat(name, "" if bot else token_hash(token), bot,
                                 away_since=None if bot else self.lobby.now())
            seats.append(k)
        self._players_text = None
        self._bots = any(s is not None and s.bot for s in self.seats)
        if self.free_seat() is None:
            self._start()
        else:
            self._commit()
        return seats

    def _seat(self, k: int) -> Seat:
        s = self.seats[k]
        assert s is not None
        return s

    # ------------------------------------------------------------------ connections
    def attach(self, k: int, conn: Outbox, last_id: int, history: str | None = None) -> None:
        """Connect ``conn`` to seat ``k`` (authenticated by the caller), replacing an older
        connection, and send it the stream after ``last_id`` and the current state; a client
        whose history is not the server's (``last_id`` beyond the stream, or ``history`` not its
        digest) gets the whole stream again (the welcome says ``reset``)."""
        if self in self.lobby.staged:
            self.lobby.write_staged()   # this table's steps not yet stored (nor sent): stored and sent first
        seat = self._seat(k)
        # the new connection first, then the old one closed: a connection whose close ends its
        # session at once (detach) then finds itself replaced, not the seat's (no disconnect)
        old, seat.conn = seat.conn, conn
        seat.away_since = seat.closed_at = None
        if old is not None and old is not conn:
            old.close(4000, "replaced by a newer connection of this seat")
        self._players_text = None     # connected
        held = self._held()
        shown, start, reset = self._resume_point(k, last_id, history, held)
        conn.send(dumps({"type": "welcome", "table": self.id, "seat": k, "room": self.room.name,
                   "ruleset": self.room.ruleset, "players": list(self.names) if self.free_seat() is None else None,
                   "last_id": shown, "resume_from": start, "reset": reset,
                   "disconnects": self.tracker.disconnects[k], **web_table(self.room.ruleset)}))
        self._sent[k] = start
        if k not in held:
            self._send_update(k)

    def detach(self, k: int, conn: Outbox, code: int) -> None:
        """The connection of seat ``k`` ended with close code ``code``: start its away clock and,
        during a hand, count a disconnect and, for a client closed by the player (1000/1001),
        start the grace period after which :meth:`tick` reports it as a closed client.  A page
        reload closes the client too: that it connects again within the grace tells the two apart."""
        seat = self._seat(k)
        if seat.conn is not conn:
            return   # an older connection, already replaced
        seat.conn = None
        self._players_text = None     # not connected
        now = self.lobby.now()
        seat.away_since = now
        if not self._in_hand() or code == SERVER_RESTART:
            return
        if code in CLIENT_CLOSED:
            seat.closed_at = now
        if self.tracker.report("disconnect", k):
            self._escape(k, "disconnects")
        else:
            self._try_commit()   # the disconnect count is part of the table's row
        self._flush()

    def unwatched(self, now: float) -> bool:
        """No player connected, nor one gone for less than the grace period (who may be reloading)."""
        grace = self.lobby.settings.reconnect_grace_s
        return not any(s is not None and (s.conn is not None or (s.away_since is not None and now - s.away_since < grace))
                       for s in self.seats)

    def _resume_point(self, k: int, last_id: int, history: str | None,
                      held: frozenset[int]) -> tuple[int, int, bool]:
        """``(shown, start, reset)`` for a connecting seat: the stream length it may know of now,
        the id after which its update starts, and whether its history must be dropped."""
        stream = self._seat(k).stream
        shown = self._shown[k] if k in held else len(stream)
        if last_id > shown:
            return shown, 0, True
        # not a secret: the digest of what the seat was sent
        if history is not None and last_id > 0 and not same_history(stream, last_id, self._seat(k).history, history):
            return shown, 0, True
        return shown, max(last_id, 0), False

    def _in_hand(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.match.is_over

    # ------------------------------------------------------------------ actions
    def act(self, k: int, index: int) -> str | None:
        """Seat ``k`` plays the action of mask index ``index``; the refusal's reason, or None.
        With the lobby's group writes, an action whose write then fails is refused by an error
        frame (:data:`STORE_FAILED`) at the group write instead."""
        match = self.match
        if self.status != "playing" or match is None or match.is_over:   # _in_hand(), inline (every action)
            return f"the table is {self.status}; no action is accepted"
        rnd = match.round
        if not rnd.legal_indices(k) or (self._hold_until is not None and k in self._held()):
            return f"seat {k} is not to act now"   # a held seat has not been shown its turn yet
        try:
            self._step(k, index)
        except IllegalActionError as exc:
            return str(exc)
        except StoreError:
            return STORE_FAILED                     # rolled back: the seat's last update still holds
        if self.lobby.grouping:
            self._actors.append(k)                  # told STORE_FAILED if the group's write fails
        self._after_steps()
        return None

    def quit(self, k: int) -> str | None:
        """Seat ``k`` leaves during a hand: a forced quit (强退), an escape in every room."""
        if not self._in_hand():
            return f"the table is {self.status}; there is no hand to quit"
        if self.tracker.report("forced_quit", k):
            if not self._escape(k, "forced_quit"):
                return STORE_FAILED
            self._flush()
            return None
        return "this room does not let a player quit a hand"

    def tick(self, now: float) -> None:
        """The clocks: the end of a claim pause shows the held seats what happened; a client closed
        and not back within the grace period, or away longer than the room's limit, is an escape
        (where the room counts it); a seat that let its deadline pass gets the greedy bot's action
        (托管); a bot whose move is due (after a restart, or a failed commit) plays."""
        if self._hold_until is not None and now >= self._hold_until and not self._asked():
            self._after_steps()          # releases the hold: the bots play on, the deadline restarts
        if not self._in_hand():
            return
        grace = self.lobby.settings.reconnect_grace_s
        for k, seat in enumerate(self.seats):
            if seat is None or seat.away_since is None:
                continue
            reason, closed_at = None, seat.closed_at
            if closed_at is not None and now - closed_at >= grace:
                seat.closed_at = None   # judged once: where the room does not count it, it is only away
                if self.tracker.report("closed_client", k):
                    reason = "closed_client"
            if reason is None and self.tracker.report("away", k, now - seat.away_since):
                reason = "away"
            if reason is not None:
                if self._escape(k, reason):
                    self._flush()
                elif reason == "closed_client":
                    kept = self.seats[k]
                    if kept is not None:
                        kept.closed_at = closed_at   # not stored: judged again at the next tick
                return
        if now >= self._retry_at and self._bot_due():
            self._after_steps()
        elif self.deadline is not None and now >= self.deadline:
            assert self.match is not None
            rnd = self.match.round
            try:
                for k in self.match.seats_to_act():
                    # only the seats whose time is up: not a seat of the next round, if this one ended
                    if self.match.round is rnd and not rnd.is_over and rnd.legal_indices(k):
                        bot = self._bot if self._seat(k).bot else self._stand_in
                        self._step(k, bot.act_index(rnd, k))
            except StoreError:
                return                   # rolled back (the deadline restarted): tried again when it passes
            self._after_steps()

    # ------------------------------------------------------------------ who may see what, when
    def _asked(self) -> bool:
        """Whether seats are answering another seat's discard or kong now (see ASKED_PHASES)."""
        m = self.match
        return m is not None and not m.is_over and not m.round.is_over and m.round.phase_name in ASKED_PHASES

    def _held(self) -> frozenset[int]:
        """The seats that may be sent nothing now: during a claim pause, every seat but those
        asked to claim."""
        if self._hold_until is None:
            return frozenset()
        asked = self.match.round.seats_to_act() if self._asked() else ()
        return frozenset(k for k in range(len(self.seats)) if k not in asked)

    def _pauses(self) -> bool:
        """Whether turn actions start a claim pause here: two or more humans (a seat alone with
        bots sees the bots' answers in the same update either way) and a pause set."""
        return self.lobby.settings.claim_pause_s > 0 and sum(s is not None and not s.bot for s in self.seats) >= 2

    def _bot_due(self) -> bool:
        """A bot is to act and may (not during a claim pause, unless it is asked to claim)."""
        m = self.match
        if m is None or (self._hold_until is not None and not self._asked()):
            return False
        seats = self.seats
        for k in m.seats_to_act():
            seat = seats[k]
            if seat is not None and seat.bot:
                return True
        return False

    # ------------------------------------------------------------------ the match
    def _start(self) -> None:
        self.match = new_match(self.room.ruleset, self.seed, self.lobby.settings.rounds, self.room.min_fan)
        self.status = "playing"
        now = self.lobby.now()
        for seat in self.seats:      # the away clock of a seat not yet connected starts with the match
            if seat is not None and seat.away_since is not None:
                seat.away_since = now
        names = list(self.names)
        for k in range(len(self.seats)):
            self._emit(k, {"type": "match_start", "players": names, "seat": k, "room": self.room.name,
                           "ruleset": self.room.ruleset, "rounds": self.match.rounds})
        self._round_start()
        self._commit()
        self._after_steps()

    def _round_start(self) -> None:
        assert self.match is not None
        rnd = self.match.round
        self.tracker.new_hand()
        # each seat's round_start, then the round's log so far (the header, the deal) as the seat may
        # see it: each log event encoded once, as a step's events are
        start = dumps({"type": "round_start", "round": self.match.round_index + 1, "dealer": rnd.dealer})
        self._append_events(rnd, rnd.log, start)

    def _step(self, k: int, index: int) -> None:
        """Play seat ``k``'s action and commit it (IllegalActionError: nothing changed;
        StoreError: the table is back at its last stored state)."""
        assert self.match is not None
        rnd = self.match.round
        # a turn action starts a claim pause (the phase read only where pauses apply: not per action)
        pause = self._hold_until is None and self._pauses() and rnd.phase_name not in ASKED_PHASES
        self._append_events(rnd, rnd.step(k, index))   # IllegalActionError: nothing changed
        if self.match.round.is_over:
            self._settle()
        if not self.lobby.grouping:   # else written with the other tables of this loop turn (_after_steps)
            self._commit()
        if pause:
            self._hold_until = self.lobby.now() + self.lobby.settings.claim_pause_s

    def _append_events(self, rnd: Any, events: list[dict[str, Any]], round_start: str | None = None) -> None:
        """The round's new log ``events`` appended to every seat's stream as the seat may see them;
        at a round's start, after the table's ``round_start`` event (its JSON) in each stream."""
        # each new log event is encoded once: for the stored log (row) and for every seat that sees
        # it as it is (a step's events: or sees a copy equal to it, the same JSON value, so the same
        # text is stored and sent; a round's first events: a copy is encoded, in its own key order,
        # as these streams always were)
        # the engine's own redaction of its own events (as redacted() does); the family's variant that
        # gives back an event seen as it is itself, when it has one: no copy to make and compare
        redact = getattr(rnd, "_redact_shared", None) or rnd._redact_event
        # compiled (_streams): the per-seat, per-event loop was a dozen interpreter calls an event
        append_events(events if type(events) is list else list(events), self._log_texts, redact,
                      self.seats, self._pending.events, dumps, extend_digest, round_start, fast_utf8)

    def _after_steps(self) -> None:
        """End a claim pause that is due, let the bots act while they are the ones to act (and
        may), reset the deadline, send."""
        now = self.lobby.now()
        if self._hold_until is not None and now >= self._hold_until and not self._asked():
            self._hold_until = None
        try:
            while self._bots and self._in_hand() and self._bot_due():
                assert self.match is not None
                k = next(k for k in self.match.seats_to_act() if self._seat(k).bot)
                self._step(k, self._bot.act_index(self.match.round, k))
        except StoreError:
            self._retry_at = now + RETRY_S   # rolled back to the last stored step; the clock tries again
        self.deadline = now + self.lobby.settings.act_timeout_s if self._in_hand() else None
        if self.lobby.grouping:
            self.lobby.stage(self, now)   # written with the loop turn's other tables, then sent
        else:
            self._flush(now)   # built at the deadline's "now": a fresh turn shows the whole act timeout

    def _settle(self) -> None:
        """Settle the finished round in the ledger and deal the next one (or end the match); the
        caller's commit writes it all in one transaction."""
        assert self.match is not None
        res = self.match.round.result
        k = self.match.round_index + 1
        outcome = HandOutcome.from_result(res, self.names, round=k)
        transfers = settle_hand(self.lobby.ledger, self.room, outcome)
        if outcome.winner is not None:
            payers = {t.payer for t in transfers if t.reason == "win"}
            for name in self.names:
                won = name == self.names[outcome.winner]
                if won or name in payers:
                    self.lobby.points[name] = update_score(self.lobby.points[name], outcome.hand_value, won)
        record = {"round": k, "draw": outcome.is_draw, "winner": outcome.winner, "loser": outcome.loser,
                  "method": outcome.method, "total": outcome.hand_value}
        record.update(settlement_fields(self.match.round, res))   # the family's: fans, the hands laid down ...
        self._record_settlement(k, record, transfers)
        actions = self.match.round._action_pairs()    # the round's actions as Match records them
        self.match.next_round()
        self._pending.rounds.append((k - 1, dumps(self.match.results[-1]),
                                     dumps([[actions[j], actions[j + 1]] for j in range(0, len(actions), 2)])))
        if self.match.is_over:
            self._end("the match is complete")
        else:
            self._round_start()

    def _escape(self, k: int, reason: str) -> bool:
        """Seat ``k`` escaped: the hand is aborted and settled with the room's penalty, the match
        ends; False if that could not be stored (the table is as it was)."""
        assert self.match is not None
        r = self.match.round_index + 1
        outcome = HandOutcome(self.names, escaped=k, round=r)
        transfers = settle_hand(self.lobby.ledger, self.room, outcome)
        for s in range(len(self.seats)):
            self._emit(s, {"type": "escape", "seat": k, "reason": reason})
        self._record_settlement(r, {"round": r, "escaped": k, "reason": reason}, transfers)
        self._end(f"seat {k} escaped ({reason})")
        return self._try_commit()

    def _record_settlement(self, k: int, record: dict[str, Any], transfers: list[Transfer]) -> None:
        ledger, points = self.lobby.ledger, self.lobby.points
        self.lobby.unstored_history += len(transfers)
        self._players_text = None     # balances and levels
        touched = set(self.names) | {t.payee for t in transfers}
        self._pending.accounts.update({name: (ledger.balance(name), points.get(name, 0)) for name in touched})
        self._pending.transfers.extend(transfers)
        record = dict(record, transfers=[t.to_dict() for t in transfers])
        self._pending.hand = (k, record)
        event = dict(record, type="settlement", balances={n: ledger.balance(n) for n in self.names},
                     levels={n: self.level(n) for n in self.names})
        for s in range(len(self.seats)):
            self._emit(s, event)

    def _end(self, reason: str) -> None:
        self.status = "over"
        self.end_reason = reason
        self.deadline = None
        for s in range(len(self.seats)):
            self._emit(s, {"type": "match_end", "reason": reason})

    def level(self, name: str) -> dict[str, Any]:
        points = self.lobby.points.get(name, 0)
        lv = level_of(points)
        return {"points": points, "level": lv.number, "zh": lv.zh, "en": lv.en}

    # ------------------------------------------------------------------ streams, store, frames
    def _emit(self, k: int, event: dict[str, Any], text: str | None = None) -> None:
        """Append ``event`` (whose JSON is ``text`` when the caller has it) to seat ``k``'s stream."""
        seat = self._seat(k)
        if text is None:
            text = dumps(event)   # encoded once: stored, and sent as it is in the update frames
        seat.stream.append(text)
        seat.history = extend_digest(text.encode("utf-8", "surrogatepass"), seat.history)
        self._pending.events.append((k, len(seat.stream), text))

    def row(self) -> TableRow:
        """The table as stored: the match's arguments once (its head: the finished rounds are
        stored one by one when they end, see _settle), and the current round's log events not
        yet stored (the log only grows: a step writes its new events, not the whole log again;
        the round's state is the log replayed); the row's own fields marked unchanged when they
        are as last stored."""
        head = None
        log: list[str] = []
        log_start = 0
        if self.match is not None:
            if not self._head_stored:              # at the match's start: no round in it yet
                d = self.match.to_dict()
                for key in ("results", "actions", "round"):   # TableRow.match puts them back
                    del d[key]
                head = dumps(d)
            r = self.match.round
            log_start = self._log_stored if self._log_of is r else 0
            events = r.log
            # compiled (_streams): every step
            log = log_texts(events if type(events) is list else list(events), log_start, self._log_texts, dumps)
        seats = self._seats_row()
        own = (self.status, self.end_reason, tuple(self.tracker.disconnects), seats)
        return TableRow(self.id, self.room.name, self.status, self.seed, seats, list(self.tracker.disconnects),
                        head, self.end_reason, log, log_start, changed=own != self._row_stored)

    def _seats_row(self) -> list[Any]:
        """The seats as stored (:meth:`Seat.row`), built again only when a seat changed."""
        known, rows = self._seat_rows
        if known != self.seats:   # the same Seat objects (compared by identity first), or equal ones
            rows = [None if s is None else s.row() for s in self.seats]
            self._seat_rows = (list(self.seats), rows)
        return rows

    def _commit(self) -> None:
        """Write the table and everything pending in one transaction (with the tables the lobby
        holds for its group write: :meth:`Lobby.write_staged`).  If the write fails, the table
        goes back to its last stored state (:meth:`_rollback`) and the StoreError goes to the
        caller: no frame about what was not stored is ever sent."""
        self.lobby.write_staged(also=self)

    def _prepare(self) -> tuple[TableRow, Commit]:
        """What the next commit writes: the row and the pending changes (no longer pending)."""
        row = self.row()
        change, self._pending = self._pending, Commit()
        return row, change

    def _stored(self, row: TableRow) -> None:
        """``row`` (of :meth:`_prepare`) is committed: what is stored now."""
        if self.match is not None:
            self._head_stored = True
            self._log_of, self._log_stored = self.match.round, row.log_start + len(row.log)
        self._log_texts.clear()
        if row.changed:   # else the row's own fields are those last stored (see row)
            self._row_stored = (row.status, row.end_reason, tuple(row.escape), row.seats)
        self._actors.clear()

    def _try_commit(self) -> bool:
        """:meth:`_commit`; False if it failed (and the table was put back)."""
        try:
            self._commit()
        except StoreError:
            return False
        return True

    def _rollback(self, exc: BaseException) -> None:
        """After a failed commit: the table, its streams and the balances as last stored, so
        that what was not stored is never shown.  If even that cannot be read, the table is
        closed (its connections too) until the server restarts from the database."""
        log.error("table %s: a commit failed (%s); the table goes back to its last stored state", self.id, exc)
        now = self.lobby.now()
        try:
            self.lobby.reload_accounts()
            row = self.lobby.store.table(self.id)
            if row is None:          # never stored: a table the failed join was opening
                self.lobby.tables.pop(self.id, None)
                self.status = "over"
                self.seats = [None] * len(self.seats)
                return
            self._load(row, now)
            for k in self._actors:   # their actions were not stored: told so (the table is as they saw it)
                seat = self.seats[k]
                if seat is not None and seat.conn is not None:
                    seat.conn.send(dumps({"type": "error", "message": STORE_FAILED}))
        except Exception:            # nothing left to show safely
            log.exception("table %s: its stored state cannot be read; it is closed until a restart", self.id)
            self.lobby.tables.pop(self.id, None)
            self.status = "over"
            for seat in self.seats:
                if seat is not None and seat.conn is not None:
                    # the seat let go first: the connection's close ends its session at once, whose
                    # detach must find no seat to mark away (nor a hand to count a disconnect in)
                    conn, seat.conn = seat.conn, None
                    conn.close(1011, "the table's storage failed; it resumes when the server restarts")
            self._players_text = None
            return
        finally:
            self._actors.clear()
        self._retry_at = now + RETRY_S

    def _flush(self, now: float | None = None) -> None:
        held = self._held() if self._hold_until is not None else ()
        tail = None
        tail_utf8 = b""
        for k, seat in enumerate(self.seats):
            if seat is not None and k not in held:
                if seat.conn is not None:
                    if tail is None:
                        tail = self._state_tail(now)   # the same for every seat: encoded once
                        tail_utf8 = tail.encode()
                    self._send_update(k, now, tail, tail_utf8)
                else:
                    self._shown[k] = len(seat.stream)

    def _send_update(self, k: int, now: float | None = None, tail: str | None = None, tail_utf8: bytes = b"") -> None:
        """One ``update`` frame: the stream's events not yet sent (their stored JSON, not encoded
        again) and the seat's state (:meth:`state`'s JSON; the players' JSON is kept from one
        update to the next until a seat, a balance, a level or a connection changes; ``tail``:
        :meth:`_state_tail`'s, when the caller has it, and ``tail_utf8`` its UTF-8)."""
        seat = self.seats[k]
        assert seat is not None
        conn = seat.conn
        assert conn is not None
        start, stream = self._sent[k], seat.stream
        self._sent[k] = self._shown[k] = len(stream)
        if tail is None:
            tail_utf8 = self._state_tail(now).encode()
        if self._players_text is None:
            self._players_text = dumps(self._players())
            self._players_utf8 = self._players_text.encode()
        match = self.match
        if match is None:
            view_utf8 = b"null"
        else:   # _view_utf8's work, inline (two frames per action)
            view_json = getattr(match.round, "_view_json", None)
            view_utf8 = view_json(k, dumps_utf8) if view_json is not None else self._view_utf8(k)
        # the state: the seat's own fields, then the table's (tail), as _state_fields lists them; written
        # in one buffer of the frame's size by compiled code (the history in digest_text's form)
        frame = update_frame(stream, start, seat.history, tail_utf8, self._players_utf8, view_utf8)
        send_utf8 = getattr(conn, "send_utf8", None)
        if send_utf8 is not None:   # the same text as bytes: a frame with CJK names is not a wide str encoded again
            send_utf8(frame)
        else:
            conn.send(frame.decode())

    def _view_utf8(self, k: int) -> bytes:
        """The JSON of the engine's view of seat ``k`` (:func:`dumps_utf8`'s bytes): written by the
        engine from its state when it can (a compiled mahjong round's ``_view_json``: no dict built
        and encoded, twice per step), else the view encoded."""
        assert self.match is not None
        rnd = self.match.round
        view_json = getattr(rnd, "_view_json", None)
        if view_json is not None:
            data: bytes = view_json(k, dumps_utf8)
            return data
        return dumps_utf8(rnd.view(k))

    def _players(self) -> list[dict[str, Any] | None]:
        ledger = self.lobby.ledger
        return [None if s is None else dict(
            {"name": s.name, "bot": s.bot, "connected": s.bot or s.conn is not None,
             "balance": ledger.balance(s.name)}, **self.level(s.name)) for s in self.seats]

    def state(self, k: int, players: list[dict[str, Any] | None] | None = None,
              now: float | None = None) -> dict[str, Any]:
        """What the web table draws for seat ``k``: the engine's view of the seat (nothing the
        seat may not see), the deadline, the players with their balances and levels (``players``:
        that list when the caller has it already; ``now``: the clock reading the deadline is
        counted from, default the clock's)."""
        view = None
        if self.match is not None:
            view = self.match.round.view(k)
        if players is None:
            players = self._players()
        return dict(self._state_fields(k, now), players=players, view=view)

    def _state_fields(self, k: int, now: float | None) -> dict[str, Any]:
        """:meth:`state` but its players and view (the update frame encodes those apart)."""
        if now is None:
            now = self.lobby.now()
        seat = self._seat(k)
        return {"last_id": len(seat.stream), "history": digest_text(seat.history), "status": self.status,
                "end_reason": self.end_reason,
                "round": None if self.match is None else min(self.match.round_index + 1, self.match.rounds or 0),
                "rounds": self.lobby.settings.rounds,
                "deadline_s": None if self.deadline is None else round(max(0.0, self.deadline - now), 3)}

    def _state_tail(self, now: float | None) -> str:
        """The fields of :meth:`_state_fields` after ``last_id`` and ``history`` (the same for
        every seat), as JSON members without the braces: the members before ``deadline_s``
        kept from one update to the next until one of them changes, the deadline's text taken
        from :func:`_deadline_text`."""
        if now is None:
            now = self.lobby.now()
        m = self.match
        key = (self.status, self.end_reason, None if m is None else min(m.round_index + 1, m.rounds or 0),
               self.lobby.settings.rounds)
        if key != self._tail_key:
            status, end_reason, rnd, rounds = key
            self._tail_key = key
            self._tail_head = dumps({"status": status, "end_reason": end_reason, "round": rnd, "rounds": rounds})[1:-1]
        return self._tail_head + (',"deadline_s":null' if self.deadline is None else _deadline_text(self.deadline - now))
