"""What settlement needs to know about a finished (or aborted) hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .._validate import as_int, counted, is_int
from ..errors import MahjongError, StateError
from ..families.registry import MAX_MIN_FAN, get_ruleset, ruleset_names
from ..families.mahjong.constants import WIN_METHODS
from .ledger import OUTSIDE, SYSTEM
from .profiles import outcome_reader

__all__ = ["HandOutcome", "WIN_METHODS", "MAX_PLAYERS"]

MAX_PLAYERS = max(get_ruleset(n).players for n in ruleset_names())
"""The largest table of any ruleset (an outcome has 2..MAX_PLAYERS players)."""


def _players(value: Any) -> tuple[str, ...]:
    if not isinstance(value, (tuple, list)):
        raise MahjongError(f"players must be a tuple of account names, got {value!r}")
    n = len(value)
    if not 2 <= n <= MAX_PLAYERS:
        raise MahjongError(f"players must name 2-{MAX_PLAYERS} accounts, got {n}")
    for k, name in enumerate(value):
        if not isinstance(name, str) or not name:
            raise MahjongError(f"players[{k}] must be a non-empty account name, got {name!r}")
        if name in (SYSTEM, OUTSIDE):
            raise MahjongError(f"players[{k}]: {name!r} is the ledger's own account, not a player")
    if len(set(value)) != n:
        raise MahjongError(f"players must be distinct account names, got {tuple(value)!r}")
    return tuple(value)


def _seat(value: Any, what: str, n: int) -> "int | None":
    return None if value is None else as_int(value, what, 0, n - 1)


def _non_negative(value: Any, what: str) -> int:
    if not is_int(value) or value < 0:
        raise MahjongError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class HandOutcome:
    """The result of one hand, by seat.

    ``players``: the account names by seat (2 or more distinct non-empty strings).
    ``winner``/``loser`` are seats; ``loser`` is the discarder (or the player whose added kong
    was robbed), None on a self-drawn win.  ``hand_value`` is F, flowers included;
    ``non_flower_total`` is what the minimum (起和) is checked against.  ``min_fan`` is the
    minimum the hand was *played* under (the round's setting): a room that sets its own
    minimum refuses a hand played under another one, and a win under it is refused here.
    None means "not stated": settlement then uses the room's minimum, else the ruleset's.
    :meth:`from_result` fills every field from a finished round.  An escaped hand has
    ``escaped`` set and no winner (spec 5.1: no fan settlement).  ``round``: the hand's
    number, recorded on its transfers.  ``offender``: the seat whose fault ended the hand without
    a winner (e.g. a 包子), who pays the others ``hand_value`` fan by the room's profile (a
    profile without such hands refuses it); None otherwise.
    """

    players: tuple[str, ...]
    winner: int | None = None
    loser: int | None = None
    method: str | None = None
    hand_value: int = 0
    non_flower_total: int = 0
    escaped: int | None = None
    round: int | None = None
    min_fan: int | None = None
    offender: int | None = None

    def __post_init__(self) -> None:
        players = _players(self.players)
        n = len(players)
        # normalised copies (Python ints, a tuple of names) so that equal outcomes compare and hash equal
        fields = {
            "players": players,
            "winner": _seat(self.winner, "winner", n),
            "loser": _seat(self.loser, "loser", n),
            "escaped": _seat(self.escaped, "escaped", n),
            "offender": _seat(self.offender, "offender", n),
            "hand_value": _non_negative(self.hand_value, "hand_value"),
            "non_flower_total": _non_negative(self.non_flower_total, "non_flower_total"),
            "round": None if self.round is None else _non_negative(self.round, "round"),
            "min_fan": None if self.min_fan is None else as_int(self.min_fan, "min_fan", 0, MAX_MIN_FAN),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        if self.method is not None and (not isinstance(self.method, str) or self.method not in WIN_METHODS):
            raise MahjongError(f"method must be one of {', '.join(WIN_METHODS)}, got {self.method!r}")
        if self.offender is not None:
            if self.winner is not None or self.escaped is not None or self.loser is not None \
                    or self.method is not None:
                raise MahjongError("a hand ended by an offender has no winner, loser, method or escape")
            if self.hand_value < self.non_flower_total:
                raise MahjongError(f"hand_value {self.hand_value} must be >= non_flower_total {self.non_flower_total}")
            return
        if self.winner is None:
            kind = "an escaped" if self.escaped is not None else "a drawn"
            if self.loser is not None or self.method is not None or self.hand_value or self.non_flower_total:
                raise MahjongError(f"{kind} hand (no winner) has no loser, method or hand value (no fan settlement)")
            return
        if self.escaped is not None:
            raise MahjongError("an escaped hand has no winner (it is aborted without fan settlement)")
        self._check_win()

    def _check_win(self) -> None:
        if self.method is None:
            raise MahjongError(f"a win needs a method, one of {', '.join(WIN_METHODS)}")
        if self.method == "self_drawn":
            if self.loser is not None:
                raise MahjongError("a self-drawn win has no loser")
        elif self.loser is None or self.loser == self.winner:
            raise MahjongError(f"a {self.method} win needs a loser other than the winner")
        if self.hand_value < self.non_flower_total:
            raise MahjongError(f"hand_value (F, flowers included) {self.hand_value} must be >= "
                               f"non_flower_total {self.non_flower_total}")
        if self.min_fan is not None and self.non_flower_total < self.min_fan:
            raise MahjongError(f"a win of {self.non_flower_total} fan (without flowers) is under the minimum "
                               f"{self.min_fan} it was played under")

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.escaped is None and self.offender is None

    @classmethod
    def from_result(cls, result: Any, players: Sequence[str], round: "int | None" = None) -> "HandOutcome":
        """The outcome of a finished round from its :class:`~mahjong_core.RoundResult`
        (``round.result``): winner, loser, method, F, the non-flower total and the minimum
        the round was played under.  ``players``: account names by seat; ``round``: the
        hand's number for the ledger.  A draw gives a drawn outcome (its minimum is not
        recorded in the result; nothing is paid for fans).  A discard won by several players
        (the ``multiple_winners`` option) is refused: settlement pays one winner.  A result of a
        class a family registered a reader for
        (:func:`~mahjong_core.settlement.profiles.register_outcome_reader`) is read by it."""
        reader = outcome_reader(result)
        if reader is not None:
            outcome = reader(result, players, round)
            if not isinstance(outcome, cls):
                raise MahjongError(f"the outcome reader of {type(result).__name__} gave {type(outcome).__name__}")
            return outcome
        if not _is_round_result(result):
            hint = " (the round is not over: Round.result is None)" if result is None else ""
            raise MahjongError(f"result must be a finished round's RoundResult, got {type(result).__name__}{hint}")
        try:
            fields = _result_fields(result)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            # a RoundResult built from a damaged dict (a reloaded state's result): name it, do not leak
            raise StateError(f"result is damaged: {type(exc).__name__}: {exc}") from None
        if fields is None:
            return cls(_players(players), round=round)
        ruleset = fields.pop("ruleset")
        seats = get_ruleset(ruleset).players
        if isinstance(players, (tuple, list)) and len(players) != seats:
            raise MahjongError(f"a {ruleset} round has {seats} players; got {counted(len(players), 'name')}")
        return cls(_players(players), round=round, **fields)


_RESULT_FIELDS = ("draw", "scores", "winner", "loser", "method", "total")


def _is_round_result(result: Any) -> bool:
    """A round result settlement reads (its fields, whichever family's class holds them)."""
    return result is not None and not isinstance(result, (type, dict)) and all(
        hasattr(type(result), name) or hasattr(result, name) for name in _RESULT_FIELDS)


def _result_fields(result: Any) -> "dict[str, Any] | None":
    """winner, loser, method, hand_value, non_flower_total, min_fan (and ruleset) of a won round,
    None for a draw."""
    draw = result.draw
    if not isinstance(draw, bool):
        raise StateError(f"result.draw must be True or False, got {draw!r}")
    if draw:
        return None
    scores = result.scores
    if len(scores) != 1:
        raise MahjongError(f"the round has {len(scores)} winners; settlement pays exactly one")
    score = scores[0]
    if score.total != result.total:
        raise StateError(f"result.winners[0].total is {result.total!r} but the winning hand scores "
                         f"{score.total}: the result is not this round's")
    return {"winner": result.winner, "loser": result.loser, "method": result.method, "hand_value": score.total,
            "non_flower_total": score.non_flower_total, "min_fan": score.min_fan, "ruleset": score.ruleset}
