"""One table of the server: its seats, its match, each seat's event stream and the escape clocks.

The table is plain synchronous code: the web layer (:mod:`.app`) calls :meth:`Table.act`,
:meth:`Table.attach`, :meth:`Table.detach`, :meth:`Table.quit` and :meth:`Table.tick` from the
one event-loop thread and gives each connection an :class:`Outbox`.  Every engine step is
committed to the store (:mod:`.store`) before any frame about it is sent, so a restart never
shows a player an event he had not been sent, nor loses one he had.

A seat's stream is what that seat may see: the round's events through the engine's redaction
(``mahjong_core.game.redact_events``) and the table's own events (``match_start``,
``round_start``, ``settlement``, ``escape``, ``match_end``), numbered 1, 2, 3 ... per seat for
the whole match, which is what a reconnecting client resumes from.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import IllegalActionError
from ..game import GreedyBot, Match
from ..settlement import (
    EscapeTracker,
    HandOutcome,
    Room,
    Transfer,
    level_of,
    settle_hand,
    update_score,
)
from .encoding import dumps
from .store import Commit, TableRow

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["TABLE_EVENTS", "Outbox", "Seat", "Table", "token_hash"]

TABLE_EVENTS = ("match_start", "round_start", "settlement", "escape", "match_end")
"""The table's own event types in a seat's stream (the engine's events keep their own types)."""

# close codes of a connection (RFC 6455): a close frame with 1000 (normal) or 1001 (going away:
# the tab or the app was closed) is the player closing the client; anything else, or no close
# frame at all (1006), is a lost connection
CLIENT_CLOSED = (1000, 1001)
SERVER_RESTART = 1012
"""The server closes every connection with this code when it stops: not the player's doing."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()



class Outbox(Protocol):
    """Where a table sends a connection's frames (the web layer queues them)."""

    def send(self, frame: str) -> None:
        """Queue one text frame: a JSON object already encoded (each frame is encoded once, by the table)."""
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
        self.match: Match | None = None
        self.tracker = EscapeTracker(room)
        self.deadline: float | None = None
        self._bot = GreedyBot()
        self._pending = Commit()
        self._sent = [0] * room.players   # stream events sent to the current connection, per seat
        self._head_round = -1             # the round index when the match's head was last stored
        self._log_of: Any = None          # the round whose log is stored (its first _log_stored events)
        self._log_stored = 0
        self._log_texts: dict[int, tuple[Any, str]] = {}   # id -> (log event, its JSON), until stored

    @classmethod
    def restore(cls, lobby: Lobby, row: TableRow) -> Table:
        """A stored table, its match replayed through the validated ``Match.from_json``."""
        t = cls(lobby, row.id, lobby.settings.room(row.room), row.seed)
        t.status = row.status
        t.end_reason = row.end_reason
        now = lobby.now()
        for k, d in enumerate(row.seats):
            if d is not None:
                seat = Seat(d["name"], d["token_hash"], bool(d["bot"]), away_since=None if d["bot"] else now)
                seat.stream = lobby.store.events(row.id, k)
                t.seats[k] = seat
        saved = row.match_json()
        if saved is not None:
            match = Match.from_json(saved)
            assert isinstance(match, Match)
            t.match = match
            t._head_round = match.round_index
            t._log_of, t._log_stored = match.round, len(row.log)
        t.tracker.disconnects = list(row.escape)
        if t._in_hand():
            t.deadline = now + lobby.settings.act_timeout_s
        return t

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
        k = self.free_seat()
        assert k is not None and self.status == "waiting"
        self.seats[k] = Seat(name, "" if bot else token_hash(token), bot,
                             away_since=None if bot else self.lobby.now())
        if self.free_seat() is None:
            self._start()
        else:
            self._commit()
        return k

    def _seat(self, k: int) -> Seat:
        s = self.seats[k]
        assert s is not None
        return s

    # ------------------------------------------------------------------ connections
    def attach(self, k: int, conn: Outbox, last_id: int) -> None:
        """Connect ``conn`` to seat ``k`` (authenticated by the caller), replacing an older
        connection, and send it the stream after ``last_id`` and the current state."""
        seat = self._seat(k)
        if seat.conn is not None and seat.conn is not conn:
            seat.conn.close(4000, "replaced by a newer connection of this seat")
        seat.conn = conn
        seat.away_since = seat.closed_at = None
        conn.send(dumps({"type": "welcome", "table": self.id, "seat": k, "room": self.room.name,
                   "ruleset": self.room.ruleset, "players": list(self.names) if self.free_seat() is None else None,
                   "last_id": len(seat.stream), "disconnects": self.tracker.disconnects[k]}))
        self._sent[k] = min(max(last_id, 0), len(seat.stream))
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
        now = self.lobby.now()
        seat.away_since = now
        if not self._in_hand() or code == SERVER_RESTART:
            return
        if code in CLIENT_CLOSED:
            seat.closed_at = now
        if self.tracker.report("disconnect", k):
            self._escape(k, "disconnects")
        else:
            self._commit()   # the disconnect count is part of the table's row
        self._flush()

    def unwatched(self, now: float) -> bool:
        """No player connected, nor one gone for less than the grace period (who may be reloading)."""
        grace = self.lobby.settings.reconnect_grace_s
        return not any(s is not None and (s.conn is not None or (s.away_since is not None and now - s.away_since < grace))
                       for s in self.seats)

    def _in_hand(self) -> bool:
        return self.status == "playing" and self.match is not None and not self.match.is_over

    # ------------------------------------------------------------------ actions
    def act(self, k: int, index: int) -> str | None:
        """Seat ``k`` plays the action of mask index ``index``; the refusal's reason, or None."""
        if not self._in_hand():
            return f"the table is {self.status}; no action is accepted"
        assert self.match is not None
        rnd = self.match.round
        if not rnd.legal_indices(k):
            return f"seat {k} is not to act now"
        try:
            self._step(k, index)
        except IllegalActionError as exc:
            return str(exc)
        self._after_steps()
        return None

    def quit(self, k: int) -> str | None:
        """Seat ``k`` leaves during a hand: a forced quit (强退), an escape in every room."""
        if not self._in_hand():
            return f"the table is {self.status}; there is no hand to quit"
        if self.tracker.report("forced_quit", k):
            self._escape(k, "forced_quit")
            self._flush()
            return None
        return "this room does not let a player quit a hand"

    def tick(self, now: float) -> None:
        """The clocks: a client closed and not back within the grace period, or away longer than
        the room's limit, is an escape (where the room counts it); a seat that let its deadline
        pass gets the greedy bot's action (托管)."""
        if not self._in_hand():
            return
        grace = self.lobby.settings.reconnect_grace_s
        for k, seat in enumerate(self.seats):
            if seat is None or seat.away_since is None:
                continue
            reason = None
            if seat.closed_at is not None and now - seat.closed_at >= grace:
                seat.closed_at = None   # judged once: where the room does not count it, it is only away
                if self.tracker.report("closed_client", k):
                    reason = "closed_client"
            if reason is None and self.tracker.report("away", k, now - seat.away_since):
                reason = "away"
            if reason is not None:
                self._escape(k, reason)
                self._flush()
                return
        if self.deadline is not None and now >= self.deadline:
            assert self.match is not None
            rnd = self.match.round
            for k in self.match.seats_to_act():
                # only the seats whose time is up: not a seat of the next round, if this one ended
                if self.match.round is rnd and not rnd.is_over and rnd.legal_indices(k):
                    self._step(k, self._bot.act_index(rnd, k))
            self._after_steps()

    # ------------------------------------------------------------------ the match
    def _start(self) -> None:
        self.match = Match(self.room.ruleset, self.seed, rounds=self.lobby.settings.rounds,
                           min_fan=self.room.min_fan)
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
        for k in range(len(self.seats)):
            self._emit(k, {"type": "round_start", "round": self.match.round_index + 1, "dealer": rnd.dealer})
            for ev in rnd.log_for(k):
                self._emit(k, ev)

    def _step(self, k: int, index: int) -> None:
        assert self.match is not None
        rnd = self.match.round
        events = rnd.step(k, index)   # IllegalActionError: nothing changed
        # each new log event is encoded once: for the stored log (row) and for every seat whose
        # redacted copy is equal to it (the same JSON value, so the same text is stored and sent)
        texts = [dumps(ev) for ev in events]
        self._log_texts.update({id(ev): (ev, text) for ev, text in zip(events, texts)})
        redact = rnd._redact_event   # the engine's own redaction of its own events (as redacted() does)
        for s in range(len(self.seats)):
            for ev, text in zip(events, texts):
                seen = redact(ev, s)
                if seen is not None:
                    self._emit(s, seen, text if seen == ev else None)
        if self.match.round.is_over:
            self._settle()
        self._commit()

    def _after_steps(self) -> None:
        """Let the bots act while they are the ones to act, reset the deadline, send."""
        while self._in_hand():
            assert self.match is not None
            bots = [k for k in self.match.seats_to_act() if self._seat(k).bot]
            if not bots:
                break
            self._step(bots[0], self._bot.act_index(self.match.round, bots[0]))
        self.deadline = self.lobby.now() + self.lobby.settings.act_timeout_s if self._in_hand() else None
        self._flush()

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
        fans = [] if res.score is None else [
            {"id": f.id, "zh": f.zh, "en": f.en, "points": f.points, "count": f.count} for f in res.score.fans]
        record = {"round": k, "draw": outcome.is_draw, "winner": outcome.winner, "loser": outcome.loser,
                  "method": outcome.method, "total": outcome.hand_value, "fans": fans,
                  "revealed": self._revealed(res)}
        self._record_settlement(k, record, transfers)
        self.match.next_round()
        if self.match.is_over:
            self._end("the match is complete")
        else:
            self._round_start()

    def _revealed(self, res: Any) -> list[dict[str, Any]]:
        """The winning hands, which every seat is shown when the round is settled (a hand that
        has won is laid down): each winner's concealed tiles without the winning tile, melds and
        flowers, from the winner's own final view.  No other seat's concealed tiles."""
        assert self.match is not None
        rnd = self.match.round
        out = []
        for w in res.winners:
            seat, tile = w["seat"], w.get("win_tile")
            view = rnd.view(seat)
            concealed = list(view["hand"])
            if tile in concealed:
                concealed.remove(tile)
            out.append({"seat": seat, "concealed": concealed, "win_tile": tile, "melds": view["melds"][seat],
                        "flowers": view["flowers"][seat]})
        return out

    def _escape(self, k: int, reason: str) -> None:
        """Seat ``k`` escaped: the hand is aborted and settled with the room's penalty, the match ends."""
        assert self.match is not None
        r = self.match.round_index + 1
        outcome = HandOutcome(self.names, escaped=k, round=r)
        transfers = settle_hand(self.lobby.ledger, self.room, outcome)
        for s in range(len(self.seats)):
            self._emit(s, {"type": "escape", "seat": k, "reason": reason})
        self._record_settlement(r, {"round": r, "escaped": k, "reason": reason}, transfers)
        self._end(f"seat {k} escaped ({reason})")
        self._commit()

    def _record_settlement(self, k: int, record: dict[str, Any], transfers: list[Transfer]) -> None:
        ledger, points = self.lobby.ledger, self.lobby.points
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
        self._pending.events.append((k, len(seat.stream), text))

    def row(self) -> TableRow:
        """The table as stored: the match's head only when a round started since it was last
        stored; the current round's state without its log, and the log's events not yet stored
        (the log only grows: a step writes its new events, not the whole log again)."""
        head = rnd = None
        log: list[str] = []
        log_start = 0
        if self.match is not None:
            if self._head_round != self.match.round_index:
                d = self.match.to_dict()
                del d["round"]                       # the last key: TableRow.match_json puts it back
                head = dumps(d)
            r = self.match.round
            log_start = self._log_stored if self._log_of is r else 0
            known = self._log_texts
            log = [known[id(ev)][1] if id(ev) in known and known[id(ev)][0] is ev else dumps(ev)
                   for ev in r.log[log_start:]]
            state = dict(r.to_dict())
            del state["log"]                         # the last key: TableRow.round_json puts it back
            rnd = dumps(state)
        return TableRow(self.id, self.room.name, self.status, self.seed,
                        [None if s is None else s.row() for s in self.seats], list(self.tracker.disconnects),
                        head, rnd, self.end_reason, log, log_start)

    def _commit(self) -> None:
        """Write the table and everything pending in one transaction.  If the write fails, what
        was pending stays pending (the next commit writes it) and the error goes to the caller,
        before any frame about it is sent."""
        row = self.row()
        change, self._pending = self._pending, Commit()
        try:
            self.lobby.store.commit(row, change)
        except BaseException:
            change.events += self._pending.events
            change.accounts.update(self._pending.accounts)
            change.transfers += self._pending.transfers
            change.hand = self._pending.hand or change.hand
            self._pending = change
            raise
        if self.match is not None:
            if row.head is not None:
                self._head_round = self.match.round_index
            self._log_of, self._log_stored = self.match.round, row.log_start + len(row.log)
        self._log_texts.clear()

    def _flush(self) -> None:
        players = self._players()
        for k, seat in enumerate(self.seats):
            if seat is not None and seat.conn is not None:
                self._send_update(k, players)

    def _send_update(self, k: int, players: list[dict[str, Any] | None] | None = None) -> None:
        """One ``update`` frame: the stream's events not yet sent (their stored JSON, not encoded
        again) and the seat's state."""
        seat = self._seat(k)
        assert seat.conn is not None
        start, stream = self._sent[k], seat.stream
        events = ",".join([f'{{"id":{i + 1},"event":{stream[i]}}}' for i in range(start, len(stream))])
        self._sent[k] = len(stream)
        seat.conn.send(f'{{"type":"update","events":[{events}],"state":{dumps(self.state(k, players))}}}')

    def _players(self) -> list[dict[str, Any] | None]:
        ledger = self.lobby.ledger
        return [None if s is None else dict(
            {"name": s.name, "bot": s.bot, "connected": s.bot or s.conn is not None,
             "balance": ledger.balance(s.name)}, **self.level(s.name)) for s in self.seats]

    def state(self, k: int, players: list[dict[str, Any] | None] | None = None) -> dict[str, Any]:
        """What the web table draws for seat ``k``: the engine's view of the seat (nothing the
        seat may not see), the deadline, the players with their balances and levels (``players``:
        that list when the caller has it already)."""
        view = None
        if self.match is not None:
            view = self.match.round.view(k)
        now = self.lobby.now()
        if players is None:
            players = self._players()
        return {"last_id": len(self._seat(k).stream), "status": self.status, "end_reason": self.end_reason,
                "round": None if self.match is None else min(self.match.round_index + 1, self.match.rounds or 0),
                "rounds": self.lobby.settings.rounds,
                "deadline_s": None if self.deadline is None else round(max(0.0, self.deadline - now), 3),
                "players": players, "view": view}
