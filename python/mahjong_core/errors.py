"""Exception hierarchy of mahjong-core.

Every error caused by bad input is a :class:`MahjongError`, which is a
:class:`ValueError`, so ``except ValueError`` keeps working for callers that
do not care which problem it was.  The subclasses say what kind of input was
wrong; the message names the offending tile, row or value.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "MahjongError",
    "TileParseError",
    "TileCountError",
    "HandSizeError",
    "RulesetError",
    "UnsupportedError",
    "SeatError",
    "ArrayShapeError",
    "NotWinningHandError",
    "IllegalActionError",
    "StateError",
    "FlagError",
    "LedgerError",
    "RoomEntryError",
    "SimulationError",
    "JoinError",
    "JoinLimit",
    "JoinUnavailable",
    "StoreError",
    "BotzoneProtocolError",
    "BotzoneHistoryError",
    "BotzoneForfeit",
]


class MahjongError(ValueError):
    """Base class of every input error raised by mahjong-core."""


class TileParseError(MahjongError):
    """A tile string could not be parsed (unknown letter, dangling digits, ...)."""


class TileCountError(MahjongError):
    """Impossible tile counts: a fifth copy of a tile, a negative count, a count > 4."""


class HandSizeError(MahjongError):
    """The number of tiles does not fit the question (e.g. 13 tiles for a win check)."""


class RulesetError(MahjongError):
    """Unknown ruleset name, or a tile that the ruleset does not play with."""


class UnsupportedError(RulesetError):
    """A registered ruleset whose game family does not offer what was asked: ``mj.Scorer``,
    ``mj.waits_mask`` or ``mj.fan_shanten`` of the long-card ruleset ``changpai-ydr`` (mahjong
    features).  The message names the ruleset, its family and the missing capability; a name no
    family registered is a plain :class:`RulesetError` ("unknown ruleset").  Raised through
    :func:`mahjong_core.families.registry.require_family` (or ``hand_hook``), which asks the
    registry."""


class ArrayShapeError(MahjongError):
    """A count array has the wrong shape or a non-integer dtype."""


class NotWinningHandError(MahjongError):
    """The tiles do not form a winning hand in any form of the ruleset."""


class IllegalActionError(MahjongError):
    """A game action that the rules do not allow in the current state (the state is unchanged)."""


class SeatError(IllegalActionError):
    """A seat that is not a seat of the table (not an integer 0 to players - 1), wherever a seat
    is given: round and match queries and steps, views, event redaction, bots.  (A valid seat
    that is not to act is an :class:`IllegalActionError`, of which this is a subclass.)"""


class StateError(MahjongError):
    """A saved round state, event log or replay that is damaged, forged or inconsistent.

    The message names the field path (``hands[1]``, ``log[12].action``, ``result.winners[0].total``)
    and what is wrong with it.  Nothing is loaded when it is raised.
    """


class FlagError(MahjongError):
    """Situational flags of a score call that contradict each other or the hand
    (``kong_replacement`` without a kong, ``heavenly`` with an exposed meld, ...)."""


class LedgerError(MahjongError):
    """A ledger operation that cannot be carried out (unknown account, negative amount ...).
    The ledger is unchanged when it is raised."""


class RoomEntryError(MahjongError):
    """A player's balance is outside the room's entry limits."""


class SimulationError(MahjongError):
    """Bad simulation arguments (rounds, bots, workers, batch size, seed, outputs)."""


class JoinError(MahjongError):
    """A join the reference server's lobby refuses (bad name, unknown room, entry limits, already
    seated)."""


class JoinLimit(JoinError):
    """A join the reference server refuses by one of its limits (seats per client address, open
    tables): try again later (HTTP 429)."""


class JoinUnavailable(JoinError):
    """A join the reference server could not store (its database is failing): nobody was seated
    (HTTP 503)."""


class StoreError(MahjongError):
    """The reference server's database cannot be used: a missing, empty, damaged or foreign file
    at start, or a failed read or write while serving.  The message names the database's path."""


class BotzoneProtocolError(MahjongError):
    """A line that is not of Botzone's Chinese Standard Mahjong protocol (a tile code, a response,
    an input envelope): the message quotes the offending text."""


class BotzoneHistoryError(MahjongError):
    """A Botzone history that no round of the ruleset can reproduce (an action the ruleset refuses,
    more copies of a tile than it has): the wrapper of our bots then answers safely."""


class BotzoneForfeit(MahjongError):
    """A Botzone bot's fault (a time-out, a crash, a wrong answer, a false win), which ends the game
    as Botzone's judge ends it: ``scores`` per seat (``seat`` loses 30, each other player gains 10);
    ``decision`` is the faulty one (a :class:`~mahjong_core.families.mahjong.botzone.Decision`)."""

    def __init__(self, seat: int, scores: "list[int]", decision: "Any", message: str) -> None:
        self.seat = seat
        self.scores = scores
        self.decision = decision
        super().__init__(message)
