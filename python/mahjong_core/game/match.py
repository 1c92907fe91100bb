"""A match: rounds in sequence with the dealer rules of the ruleset (spec 2.10).

Each round gets its own wall from the match seed: round ``k`` uses
``SeedSequence(seed, spawn_key=(k + 1,))`` (the first dealer is drawn from ``spawn_key=(0,)``), so
the same seed gives the same match on every platform and no two rounds share a wall.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..errors import IllegalActionError, MahjongError
from .round import SCHEMA_VERSION, Round, RoundResult
from .settings import flow_settings

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

    def __init__(self, ruleset: str = "two-player", seed: "int | None" = None, *, rounds: "int | None" = None,
                 first_dealer: "int | None" = None, round_wind: int = 27, wind_rotation: bool = False,
                 min_fan: "int | None" = None, options: "dict[str, Any] | None" = None,
                 auto_advance: bool = False) -> None:
        opts = dict(options or {})
        if min_fan is not None:
            opts["min_fan"] = min_fan
        s = flow_settings(ruleset, opts)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise MahjongError(f"seed must be a non-negative integer, got {seed!r}")
        if rounds is not None and (not isinstance(rounds, int) or rounds < 1):
            raise MahjongError(f"rounds must be a positive integer or None, got {rounds!r}")
        if first_dealer is None:
            g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=(0,))))
            first_dealer = int(g.integers(0, s.players))
        if not 0 <= first_dealer < s.players:
            raise MahjongError(f"first_dealer must be a seat 0-{s.players - 1}")
        self.ruleset = s.ruleset
        self.players = s.players
        self.seed = int(seed)
        self.rounds = rounds
        self.first_dealer = int(first_dealer)
        self.base_round_wind = int(round_wind)
        self.wind_rotation = bool(wind_rotation)
        self.options = opts
        self.auto_advance = bool(auto_advance)
        self._results: list[Any] = []   # dicts, or (RoundResult, round_wind) until first asked for
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
    def results(self) -> list[dict[str, Any]]:
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
        if not self.is_over:
            self.round = self._new_round(len(self._results), res.next_dealer)
        return self.round

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over else self.round.seats_to_act()

    def legal_actions(self, seat: int):
        return [] if self.is_over else self.round.legal_actions(seat)

    def legal_mask(self, seat: int):
        return self.round.legal_mask(seat) if not self.is_over else np.zeros_like(self.round.legal_mask(seat))

    def view(self, seat: int) -> dict[str, Any]:
        v = self.round.view(seat)
        v["match"] = {"round": self.round_index, "rounds": self.rounds, "results": self.results}
        return v

    def step(self, seat: int, action: Any) -> list[dict[str, Any]]:
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
    def to_dict(self) -> dict[str, Any]:
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
            "round": self.round.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Match":
        if d.get("schema_version") != SCHEMA_VERSION or d.get("type") != "match":
            raise MahjongError("not a match state of this schema version")
        d = json.loads(json.dumps(d))
        m = cls.__new__(cls)
        m.ruleset = d["ruleset"]
        m.players = flow_settings(d["ruleset"], d["options"]).players
        m.seed = d["seed"]
        m.rounds = d["rounds"]
        m.first_dealer = d["first_dealer"]
        m.base_round_wind = d["round_wind"]
        m.wind_rotation = d["wind_rotation"]
        m.options = d["options"]
        m.auto_advance = d["auto_advance"]
        m._results = d["results"]
        m.round = Round.from_dict(d["round"])
        return m

    @classmethod
    def from_json(cls, data: "str | dict[str, Any]") -> "Match":
        if isinstance(data, (str, bytes)):
            data = json.loads(data)
        return cls.from_dict(data)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return (f"Match({self.ruleset!r}, seed={self.seed}, round={self.round_index}, "
                f"rounds={self.rounds}, dealer={self.round.dealer})")
