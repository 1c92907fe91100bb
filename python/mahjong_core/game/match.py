"""A match: rounds in sequence with the dealer rules of the ruleset (spec 2.10).

Each round gets its own wall from the match seed: round ``k`` uses
``SeedSequence(seed, spawn_key=(k + 1,))`` (the first dealer is drawn from ``spawn_key=(0,)``), so
the same seed gives the same match on every platform and no two rounds share a wall.

A match state (:meth:`Match.to_dict`) records the actions of every finished round compactly
(``actions``: per round a list of ``[seat, mask index]``), so that :meth:`Match.from_dict` can
replay the whole match and recompute every result instead of trusting them (see
:mod:`mahjong_core.game.state`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .._validate import as_flag, as_int, as_seat
from ..families.registry import DEFAULT_RULESET
from ..errors import IllegalActionError, MahjongError, StateError
from .round import SCHEMA_VERSION, Round, RoundResult
from ..families.mahjong.tiles import parse_wind
from .json_types import Event, MatchState, MatchView, RoundResultDict
from .invariants import check_invariants
from .schema import (
    ANY_OBJ, MAX_SEATS, MAX_SEED, NONE, Bool, Either, Int, List, Obj, Str, Tuple, check, describe,
    first_difference, header_shape,
)
from ..families.mahjong.settings import settings_and_options
from .state import load_json, replay_events

MAX_ROUNDS = 10 ** 9
"""Upper bound of a match's number of rounds."""
MAX_ACTIONS = 10_000
"""Upper bound of the actions recorded for one round (a round has a few hundred at most)."""

__all__ = ["Match"]


class Match:
    """Rounds in sequence.  ``Match("public", seed=5, rounds=8)``.

    ``rounds``: number of rounds (``None``: unbounded; the match length is not part of the rules,
    OP-53).  ``first_dealer``: seat, or ``None`` for a random one from the seed (2.2, OP-15).
    ``round_wind``: prevalent wind (`public`, default East); ``wind_rotation=True`` advances it one
    wind every ``players`` rounds (OP-13 option).  ``min_fan`` / ``options``: as for :class:`Round`.

    Play the current :attr:`round` (``match.round.step(...)``, or :meth:`step` here); when it is
    over, :meth:`next_round` records its result and deals the next one (:meth:`step` does that
    automatically with ``auto_advance=True``).
    """

    def __init__(self, ruleset: str = DEFAULT_RULESET, seed: "int | None" = None, *, rounds: "int | None" = None,
                 first_dealer: "int | None" = None, round_wind: int = 27, wind_rotation: bool = False,
                 min_fan: "int | None" = None, options: "dict[str, Any] | None" = None,
                 auto_advance: bool = False) -> None:
        s, opts = settings_and_options(ruleset, options, min_fan)
        if seed is None:
            seed = as_int(np.random.SeedSequence().entropy, "seed", 0, MAX_SEED)   # fresh entropy
        seed = as_int(seed, "seed", 0, MAX_SEED)
        if rounds is not None:
            rounds = as_int(rounds, "rounds (a positive integer or None)", 1, MAX_ROUNDS)
        if first_dealer is None:
            g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(0,))))
            first_dealer = int(g.integers(0, s.players))
        self.ruleset = s.ruleset
        self.players = s.players
        self.seed = seed
        self.rounds = rounds
        self.first_dealer = as_seat(first_dealer, s.players, "first_dealer (a seat)")
        self.base_round_wind = parse_wind(round_wind, "round_wind")
        self.wind_rotation = as_flag(wind_rotation, "wind_rotation")
        self.options = opts
        self.auto_advance = as_flag(auto_advance, "auto_advance")
        # per finished round: its result as a dict, or (RoundResult, round_wind) until first asked
        # for; and its actions as (seat, mask index) byte pairs
        self._results: list[Any] = []
        self._actions: list[bytes] = []
        self.round = self._new_round(0, self.first_dealer)

    def _wind(self, k: int) -> int:
        if not self.wind_rotation:
            return self.base_round_wind
        return 27 + (self.base_round_wind - 27 + k // self.players) % 4

    def _new_round(self, k: int, dealer: int) -> Round:
        return Round(self.ruleset, self.seed, dealer=dealer, round_wind=self._wind(k), options=self.options,
                     spawn_key=(k + 1,))

    # ------------------------------------------------------------------ progress
    @property
    def results(self) -> list[RoundResultDict]:
        """The finished rounds' results as plain data (``RoundResult.to_dict()`` plus ``round`` and
        ``round_wind``).  Built on first use, so that a simulation that never asks pays nothing."""
        out = self._results
        for k, r in enumerate(out):
            if not isinstance(r, dict):
                res, wind = r
                rec = dict(res.to_dict())
                rec["round"] = k
                rec["round_wind"] = wind
                out[k] = rec
        return out

    @property
    def round_index(self) -> int:
        """0-based index of the current round."""
        return len(self._results)

    @property
    def dealer(self) -> int:
        return self.round.dealer

    @property
    def is_over(self) -> bool:
        """True when the configured number of rounds has been played."""
        return self.rounds is not None and len(self._results) >= self.rounds

    def next_round(self) -> Round:
        """Record the finished round's result and deal the next round (dealer per 2.10)."""
        if not self.round.is_over:
            raise IllegalActionError("the current round is not over")
        if self.is_over:
            raise IllegalActionError("the match is over")
        res = self.round.result
        assert res is not None
        self._results.append((res, self.round.round_wind))
        self._actions.append(self.round._action_pairs())
        if not self.is_over:
            self.round = self._new_round(len(self._results), res.next_dealer)
        return self.round

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over else self.round.seats_to_act()

    def legal_actions(self, seat: int):
        return [] if self.is_over else self.round.legal_actions(seat)

    def legal_mask(self, seat: int):
        return self.round.legal_mask(seat) if not self.is_over else np.zeros_like(self.round.legal_mask(seat))

    def view(self, seat: int) -> MatchView:
        return {**self.round.view(seat),
                "match": {"round": self.round_index, "rounds": self.rounds, "results": self.results}}

    def step(self, seat: int, action: Any) -> list[Event]:
        """Step the current round; with ``auto_advance`` a finished round is followed by the next."""
        if self.is_over:
            raise IllegalActionError("the match is over; no action is accepted")
        ev = self.round.step(seat, action)
        if self.round.is_over:
            if self.auto_advance or (self.rounds is not None and len(self._results) == self.rounds - 1):
                self.next_round()
        return ev

    @property
    def round_results(self) -> list[RoundResult]:
        return [RoundResult(r) for r in self.results]

    def dealer_sequence(self) -> list[int]:
        """Dealers of the recorded rounds, then the current one (if the match is not over)."""
        out = [r["dealer"] for r in self.results]
        if not self.is_over:
            out.append(self.round.dealer)
        return out

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> MatchState:
        """The match as plain JSON-able data: its arguments, the finished rounds' results and
        actions (``[seat, mask index]`` pairs), and the current round's state."""
        return {
            "schema_version": SCHEMA_VERSION,
            "type": "match",
            "ruleset": self.ruleset,
            "seed": self.seed,
            "rounds": self.rounds,
            "first_dealer": self.first_dealer,
            "round_wind": self.base_round_wind,
            "wind_rotation": self.wind_rotation,
            "options": self.options,
            "auto_advance": self.auto_advance,
            "results": self.results,
            "actions": [[[a[j], a[j + 1]] for j in range(0, len(a), 2)] for a in self._actions],
            "round": self.round.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Match":
        """The match a saved state describes, rebuilt: a new match from the recorded arguments,
        every finished round replayed from its recorded actions, the current round from its log;
        the rebuilt :meth:`to_dict` must equal ``d`` (so the results are recomputed, never read).
        Anything else is a :class:`~mahjong_core.errors.StateError` naming the field."""

        if not isinstance(d, dict):
            raise StateError(f"a match state must be an object, got {describe(d)}")
        if d.get("type") != "match" or type(d.get("schema_version")) is not int \
                or d.get("schema_version") != SCHEMA_VERSION:
            raise StateError(f"not a match state of schema version {SCHEMA_VERSION} (type "
                             f"{describe(d.get('type'))}, schema_version {describe(d.get('schema_version'))})")
        check(_MATCH_SHAPE, d)
        m = cls._rebuilt(d)
        diff = first_difference(m.to_dict(), d, against="the match rebuilt from its actions")
        if diff is not None:
            raise StateError(diff)
        check_invariants(m.round)
        return m

    @classmethod
    def _rebuilt(cls, d: dict[str, Any]) -> "Match":
        try:
            m = cls(d["ruleset"], d["seed"], rounds=d["rounds"], first_dealer=d["first_dealer"],
                    round_wind=d["round_wind"], wind_rotation=d["wind_rotation"], options=d["options"],
                    auto_advance=d["auto_advance"])
        except MahjongError as exc:
            raise StateError(f"match arguments: {exc}") from None
        for k, actions in enumerate(d["actions"]):
            if m.is_over:
                raise StateError(f"actions[{k}]: the match is over after {k} rounds")
            r = m.round
            for j, (seat, i) in enumerate(actions):
                try:
                    r.step(seat, i)
                except MahjongError as exc:
                    raise StateError(f"actions[{k}][{j}]: {exc}") from None
            if not r.is_over:
                raise StateError(f"actions[{k}]: round {k} is not over after its {len(actions)} actions")
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

    def __reduce__(self):
        # pickle / copy.deepcopy through the verified state
        return (_match_from_state, (type(self), self.to_dict()))

    def __repr__(self) -> str:
        return (f"Match({self.ruleset!r}, seed={self.seed}, round={self.round_index}, "
                f"rounds={self.rounds}, dealer={self.round.dealer})")


def _match_from_state(cls: type[Match], d: dict[str, Any]) -> Match:
    return cls.from_dict(d)


_MATCH_SHAPE = Obj({
    "schema_version": Int(SCHEMA_VERSION, SCHEMA_VERSION), "type": Str(("match",)),
    "ruleset": header_shape().required["ruleset"], "seed": Int(0, MAX_SEED),
    "rounds": Either(NONE, Int(1, MAX_ROUNDS)), "first_dealer": Int(0, MAX_SEATS - 1), "round_wind": Int(27, 30),
    "wind_rotation": Bool(), "options": header_shape().required["options"], "auto_advance": Bool(),
    "results": List(ANY_OBJ), "actions": List(List(Tuple(Int(0, MAX_SEATS - 1), Int(0, 109)), lo=0, hi=MAX_ACTIONS)),
    "round": ANY_OBJ,
})
