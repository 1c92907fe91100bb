"""A match: rounds in sequence with the dealer rules of the ruleset (spec 2.10), for any family.

Each round gets its own wall from the match seed: round ``k`` uses
``SeedSequence(seed, spawn_key=(k + 1,))`` (the first dealer is drawn from ``spawn_key=(0,)``), so
the same seed gives the same match on every platform and no two rounds share a wall.

With ``duplicate=True`` (Botzone's duplicate format, 复式赛制) the rounds come in groups of
``players``: the rounds of group ``g`` all deal the wall of ``spawn_key=(g + 1,)`` and round ``k``'s
dealer is ``(first_dealer + k) % players`` whatever the last round's result, so each seat plays each
hand of every wall once (the deal is the same relative to the dealer; a seat's wind follows it).

A match state (:meth:`Match.to_dict`) records the actions of every finished round compactly
(``actions``: per round a list of ``[seat, mask index]``), so that :meth:`Match.from_dict` can
replay the whole match and recompute every result instead of trusting them (see
:mod:`mahjong_core.game.state`).

A family's match is a subclass of :class:`Match` that names its round class (``round_class``, a
:class:`~mahjong_core.game.round_base.RoundBase` subclass, whose ``_settings_and_options``,
``_header_shape``, ``ACTION_SIZE`` and ``RESULT_TYPE`` the match uses) and, if its rounds take
more arguments than a seed, a dealer and the options, the hooks ``_init_family`` (check them),
``_family_args`` (them as the state records them), ``FAMILY_ARGS`` (their shapes),
``_round_kwargs(k)`` (round ``k``'s extra arguments) and ``_round_record(round)`` (what a finished
round's result records besides it).  Mahjong's is
:class:`mahjong_core.families.mahjong.match.Match` (the prevalent wind and its rotation).  The
next dealer is the round's own ``result.next_dealer``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar, cast

import numpy as np
import numpy.typing as npt

from .. import limits
from .._validate import as_flag, as_int, as_seat, counted
from ..errors import IllegalActionError, MahjongError, StateError

from .schema import (
    ANY_OBJ, MAX_SEATS, MAX_SEED, NONE, Bool, Either, Int, List, Obj, Shape, Str, Tuple, check, describe,
    first_difference,
)
from . import contract
from .state import SCHEMA_VERSION, load_json, replay_events

MAX_ROUNDS = limits.MAX_ROUNDS
"""Upper bound of a match's number of rounds (:data:`mahjong_core.limits.MAX_ROUNDS`, as ``match --rounds``)."""
MAX_ACTIONS = 10_000
"""Upper bound of the actions recorded for one round (a round has a few hundred at most)."""

__all__ = ["Match"]

_M = TypeVar("_M", bound="Match")


class _RoundResult(Protocol):
    """What the match reads of a finished round's result object (see :mod:`~mahjong_core.game.round_base`)."""

    @property
    def next_dealer(self) -> int: ...
    def to_dict(self) -> Mapping[str, Any]: ...


_Pending = tuple[_RoundResult, dict[str, Any]]
"""A finished round's result object and the family's record of it, until its dict is asked for."""


class Match(contract.Match):
    """Rounds in sequence (the shared part; a family subclasses it, see the module docstring): a
    :class:`mahjong_core.game.contract.Match`.

    ``rounds``: number of rounds (``None``: unbounded; the match length is not part of the rules,
    OP-53).  ``first_dealer``: seat, or ``None`` for a random one from the seed (2.2, OP-15).
    ``min_fan`` / ``options``: as for the family's round.  ``family_args``: the family's own
    match arguments (``_init_family``).

    Play the current :attr:`round` (``match.round.step(...)``, or :meth:`step` here); when it is
    over, :meth:`next_round` records its result and deals the next one (:meth:`step` does that
    automatically with ``auto_advance=True``).
    """

    round_class: Any
    """The family's round class (a :class:`~mahjong_core.game.round_base.RoundBase` subclass)."""
    round: Any
    """The current round, an instance of ``round_class`` (``Any``: callers use the family's own round API)."""
    FAMILY_ARGS: "dict[str, Shape]" = {}
    """The family's match arguments as the state records them (after ``first_dealer``): their shapes."""

    def __new__(cls: "type[_M]", *args: Any, **kwargs: Any) -> "_M":
        # a public face (mj.Match) hands a ruleset of another family to that family's match class
        other = contract.new_on_face(cls, args, kwargs)
        return cast(_M, other) if other is not None else super().__new__(cls)

    def __init__(self, ruleset: str, seed: "int | None" = None, *, rounds: "int | None" = None,
                 first_dealer: "int | None" = None, min_fan: "int | None" = None,
                 options: "dict[str, Any] | None" = None, auto_advance: bool = False, duplicate: bool = False,
                 **family_args: Any) -> None:
        s, opts = self.round_class._settings_and_options(ruleset, options, min_fan)
        if seed is None:
            seed = as_int(np.random.SeedSequence().entropy, "seed", 0, MAX_SEED)   # fresh entropy
        seed = as_int(seed, "seed", 0, MAX_SEED)
        if rounds is not None:
            rounds = as_int(rounds, "rounds (a positive integer or None)", 1, MAX_ROUNDS)
        if first_dealer is None:
            g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0,))))
            first_dealer = int(g.integers(0, s.players))
        self.ruleset: str = s.ruleset
        self.players: int = s.players
        self.seed = seed
        self.rounds = rounds
        self.first_dealer = as_seat(first_dealer, s.players, "first_dealer (a seat)")
        self._init_family(**family_args)
        self.options = opts
        self.auto_advance = as_flag(auto_advance, "auto_advance")
        self.duplicate: bool = as_flag(duplicate, "duplicate")
        # per finished round: its result as a dict, or (result, record) until first asked for;
        # and its actions as (seat, mask index) byte pairs
        self._results: list[dict[str, Any] | _Pending] = []
        self._actions: list[Sequence[int]] = []
        self.round = self._new_round(0, self.first_dealer)

    # ------------------------------------------------------------------ the family's hooks
    def _init_family(self) -> None:
        """Check and keep the family's own match arguments (none here)."""

    def _family_args(self) -> dict[str, Any]:
        """The family's match arguments as the state records them (keys of ``FAMILY_ARGS``)."""
        return {}

    def _round_kwargs(self, k: int) -> dict[str, Any]:
        """Round ``k``'s arguments besides the ruleset, seed, dealer, options and spawn key."""
        return {}

    def _round_record(self, rnd: Any) -> dict[str, Any]:
        """What a finished round's entry of :attr:`results` records besides its result."""
        return {}

    def _new_round(self, k: int, dealer: int) -> Any:
        wall = k + 1
        if self.duplicate:   # the wall of the group, the dealer rotated through it (module docstring)
            wall, dealer = k // self.players + 1, (self.first_dealer + k) % self.players
        return self.round_class(self.ruleset, self.seed, dealer=dealer, options=self.options, spawn_key=(wall,),
                                **self._round_kwargs(k))

    # ------------------------------------------------------------------ progress
    @property
    def results(self) -> list[dict[str, Any]]:
        """The finished rounds' results as plain data (the result's ``to_dict()`` plus ``round``
        and the family's record, e.g. mahjong's ``round_wind``).  Built on first use, so that a
        simulation that never asks pays nothing."""
        out = self._results
        for k, r in enumerate(out):
            if not isinstance(r, dict):
                res, extra = r
                rec = dict(res.to_dict())
                rec["round"] = k
                rec.update(extra)
                out[k] = rec
        return cast(list[dict[str, Any]], out)  # every entry is a dict now

    @property
    def round_index(self) -> int:
        """0-based index of the current round."""
        return len(self._results)

    @property
    def dealer(self) -> int:
        dealer: int = self.round.dealer
        return dealer

    @property
    def is_over(self) -> bool:
        """True when the configured number of rounds has been played."""
        return self.rounds is not None and len(self._results) >= self.rounds

    def next_round(self) -> Any:
        """Record the finished round's result and deal the next round (the dealer its result names)."""
        if not self.round.is_over:
            raise IllegalActionError("the current round is not over")
        if self.is_over:
            raise IllegalActionError("the match is over")
        res = self.round.result
        assert res is not None
        self._results.append((res, self._round_record(self.round)))
        self._actions.append(self.round._action_pairs())
        if not self.is_over:
            self.round = self._new_round(len(self._results), res.next_dealer)
        return self.round

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over else self.round.seats_to_act()

    def legal_actions(self, seat: int) -> list[Any]:
        # a bad seat is a SeatError whether or not the match is over (one rule, as the round's)
        seat = as_seat(seat, self.round.players)
        return [] if self.is_over else self.round.legal_actions(seat)

    def legal_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        mask = self.round.legal_mask(seat)   # checks the seat
        return mask if not self.is_over else np.zeros_like(mask)

    def view(self, seat: int) -> dict[str, Any]:
        return {**self.round.view(seat),
                "match": {"round": self.round_index, "rounds": self.rounds, "results": self.results}}

    def step(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Step the current round; with ``auto_advance`` a finished round is followed by the next."""
        if self.is_over:
            raise IllegalActionError("the match is over; no action is accepted")
        ev: list[dict[str, Any]] = self.round.step(seat, action)
        if self.round.is_over:
            if self.auto_advance or (self.rounds is not None and len(self._results) == self.rounds - 1):
                self.next_round()
        return ev

    @property
    def round_results(self) -> list[Any]:
        result_type = self.round_class.RESULT_TYPE
        return [result_type(r) for r in self.results]

    def dealer_sequence(self) -> list[int]:
        """Dealers of the recorded rounds, then the current one (if the match is not over)."""
        out = [r["dealer"] for r in self.results]
        if not self.is_over:
            out.append(self.round.dealer)
        return out

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """The match as plain JSON-able data: its arguments, the finished rounds' results and
        actions (``[seat, mask index]`` pairs), and the current round's state."""
        d = {
            "schema_version": SCHEMA_VERSION,
            "type": "match",
            "ruleset": self.ruleset,
            "seed": self.seed,
            "rounds": self.rounds,
            "first_dealer": self.first_dealer,
        }
        d.update(self._family_args())
        d.update({
            "options": self.options,
            "auto_advance": self.auto_advance,
        })
        if self.duplicate:   # only when set: the states of other matches stay as they were
            d["duplicate"] = True
        d.update({
            "results": self.results,
            "actions": [[[a[j], a[j + 1]] for j in range(0, len(a), 2)] for a in self._actions],
            "round": self.round.to_dict(),
        })
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Match":
        """The match a saved state describes, rebuilt: a new match from the recorded arguments,
        every finished round replayed from its recorded actions, the current round from its log;
        the rebuilt :meth:`to_dict` must equal ``d`` (so the results are recomputed, never read).
        Anything else is a :class:`~mahjong_core.errors.StateError` naming the field.  On a public
        face (``mj.Match``) the state of any family's match is loaded by that family's match class."""

        target = contract.face_target(cls, d.get("ruleset") if isinstance(d, dict) else None)
        if target is not None:
            return cast(Match, target.from_dict(d))   # type: ignore[attr-defined]  # a Match too
        return cls._load(d, {})

    @classmethod
    def _load(cls, d: Any, construct: dict[str, Any]) -> "Match":
        """:meth:`from_dict` with ``construct``, keyword arguments of the constructor that the state
        does not record (a family's choice of engine)."""
        if not isinstance(d, dict):
            raise StateError(f"a match state must be an object, got {describe(d)}")
        if d.get("type") != "match" or type(d.get("schema_version")) is not int \
                or d.get("schema_version") != SCHEMA_VERSION:
            raise StateError(f"not a match state of schema version {SCHEMA_VERSION} (type "
                             f"{describe(d.get('type'))}, schema_version {describe(d.get('schema_version'))})")
        check(_match_shape(cls), d)
        m = cls._rebuilt(d, construct)
        diff = first_difference(m.to_dict(), d, against="the match rebuilt from its actions")
        if diff is not None:
            raise StateError(diff)
        m.round._check_invariants()
        return m

    @classmethod
    def _rebuilt(cls, d: dict[str, Any], construct: "dict[str, Any] | None" = None) -> "Match":
        try:
            m = cls(d["ruleset"], d["seed"], rounds=d["rounds"], first_dealer=d["first_dealer"],
                    options=d["options"], auto_advance=d["auto_advance"], duplicate=d.get("duplicate", False),
                    **(construct or {}),
                    **{k: d[k] for k in cls.FAMILY_ARGS})
        except MahjongError as exc:
            raise StateError(f"match arguments: {exc}") from None
        for k, actions in enumerate(d["actions"]):
            if m.is_over:
                raise StateError(f"actions[{k}]: the match is over after {counted(k, 'round')}")
            r = m.round
            for j, (seat, i) in enumerate(actions):
                try:
                    r.step(seat, i)
                except MahjongError as exc:
                    raise StateError(f"actions[{k}][{j}]: {exc}") from None
            if not r.is_over:
                raise StateError(f"actions[{k}]: round {k} is not over after its {counted(len(actions), 'action')}")
            m.next_round()
        if not m.is_over:
            log = d["round"].get("log")
            if not isinstance(log, list) or not log:
                raise StateError(f"round.log: expected the current round's log, got {describe(log)}")
            replay_events(m.round, list(log), "round.log")
        return m

    @classmethod
    def from_json(cls, data: "str | bytes | dict[str, Any]") -> "Match":
        return cls.from_dict(data if isinstance(data, dict) else load_json(data, "the match state"))

    def __reduce__(self) -> tuple[Callable[[type[Match], dict[str, Any]], Match], tuple[type[Match], dict[str, Any]]]:
        # pickle / copy.deepcopy through the verified state
        return (_match_from_state, (type(self), self.to_dict()))

    def __repr__(self) -> str:
        return (f"Match({self.ruleset!r}, seed={self.seed}, round={self.round_index}, "
                f"rounds={self.rounds}, dealer={self.round.dealer})")


def _match_from_state(cls: type[Match], d: dict[str, Any]) -> Match:
    return cls.from_dict(d)


_MATCH_SHAPES: "dict[type, Obj]" = {}


def _match_shape(cls: Any) -> Obj:
    """The shape of a match state of the match class ``cls`` (built once per class)."""
    shape = _MATCH_SHAPES.get(cls)
    if shape is None:
        rc = cls.round_class
        header = rc._header_shape().required
        seat = Int(0, MAX_SEATS - 1)
        fields: dict[str, Shape] = {
            "schema_version": Int(SCHEMA_VERSION, SCHEMA_VERSION), "type": Str(("match",)),
            "ruleset": header["ruleset"], "seed": Int(0, MAX_SEED), "rounds": Either(NONE, Int(1, MAX_ROUNDS)),
            "first_dealer": seat,
        }
        fields.update(cls.FAMILY_ARGS)
        fields.update({
            "options": header["options"], "auto_advance": Bool(), "results": List(ANY_OBJ),
            "actions": List(List(Tuple(seat, Int(0, rc.ACTION_SIZE - 1)), lo=0, hi=MAX_ACTIONS)),
            "round": ANY_OBJ,
        })
        shape = _MATCH_SHAPES[cls] = Obj(fields, {"duplicate": Bool()})
    return shape
