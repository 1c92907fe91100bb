"""The race's round (every hook of :class:`mahjong_core.game.round_base.RoundBase`) and its match
(a :class:`mahjong_core.game.match.Match` naming the round)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mahjong_core._validate import as_int, as_seat
from mahjong_core.errors import IllegalActionError, MahjongError, RulesetError, StateError
from mahjong_core.families import registry
from mahjong_core.game.match import Match
from mahjong_core.game.round_base import COMMON_VIEW_KEYS, RoundBase
from mahjong_core.game.schema import MAX_SEED, MAX_SPAWN_KEY, MAX_SPAWN_VALUE, Int, List, Obj, Str
from mahjong_core.game.state import SCHEMA_VERSION

from .result import RaceResult

__all__ = ["FAMILY_NAME", "GOAL", "Move", "RaceRound", "RaceMatch"]

FAMILY_NAME = "toy"
GOAL = 6
"""The position that wins the race."""


@dataclass(frozen=True)
class Settings:
    ruleset: str
    players: int


@dataclass(frozen=True)
class Move:
    """Move ``n`` steps (1 or 2): action index ``n - 1``."""

    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "move", "n": self.n}


class RaceRound(RoundBase):
    ACTION_SIZE = 2
    PHASE_NAMES = ("turn", "over")
    VIEW_KEYS = COMMON_VIEW_KEYS + ("turn", "card", "positions")
    RESULT_TYPE = RaceResult

    def __init__(self, ruleset: Any = "toy-race", seed: "int | None" = None, *, dealer: int = 0,
                 options: "dict[str, Any] | None" = None, spawn_key: Any = ()) -> None:
        self.settings, opts = self._settings_and_options(ruleset, options, None)
        self.players = self.settings.players
        self.dealer = as_seat(dealer, self.players, "dealer (a seat)")
        if seed is None:   # fresh entropy, recorded in the header (the contract's unseeded round)
            seed = int(np.random.SeedSequence().entropy) % (MAX_SEED + 1)
        self.seed = as_int(seed, "seed", 0, MAX_SEED)
        spawn_key = [as_int(k, "spawn_key", 0, MAX_SPAWN_VALUE) for k in list(spawn_key)[:MAX_SPAWN_KEY]]
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=tuple(spawn_key))))
        self.cards = [int(c) for c in g.integers(1, 4, self.players)]
        self.positions = [0] * self.players
        self.turn = self.dealer
        self.phase = 0
        self._result: "dict[str, Any] | None" = None
        self.log: list[dict[str, Any]] = [{"type": "header", "schema_version": SCHEMA_VERSION,
                                           "ruleset": self.settings.ruleset, "seed": self.seed,
                                           "spawn_key": spawn_key, "dealer": self.dealer, "options": opts}]
        self._pairs = bytearray()
        for k in range(self.players):
            self.log.append({"type": "deal", "seat": k, "card": self.cards[k]})

    # ------------------------------------------------------------------ the engine
    @staticmethod
    def _settings_and_options(ruleset: Any, options: Any, min_fan: Any) -> tuple[Settings, dict]:
        rs = registry.get_ruleset(ruleset)
        if rs.family != FAMILY_NAME:
            raise RulesetError(f"{rs.name!r} is not a race ruleset")
        if options:
            raise MahjongError(f"the race has no options, got {options!r}")
        return Settings(rs.name, rs.players), {}

    @property
    def is_over(self) -> bool:
        return self.phase == 1

    @property
    def result(self) -> "RaceResult | None":
        return None if self._result is None else RaceResult(self._result)

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_indices(self, seat: Any) -> list[int]:
        seat = self._query_seat(seat)
        if seat is None or self.is_over or seat != self.turn:
            return []
        return [0] if self.cards[seat] == 1 else [0, 1]

    def step(self, seat: Any, action: Any) -> list[dict[str, Any]]:
        seat, i = self._checked_action(seat, action)
        start = len(self.log)
        self.log.append({"type": "action", "seat": seat, "action": Move(i + 1).to_dict()})
        self._pairs += bytes((seat, i))
        self.positions[seat] += i + 1
        if self.positions[seat] >= GOAL:
            self.phase = 1
            # the winner takes one point from each other seat: the round settles itself
            deltas = [self.players - 1 if k == seat else -1 for k in range(self.players)]
            self._result = {"winner": seat, "dealer": self.dealer, "next_dealer": seat, "deltas": deltas}
            self.log.append({"type": "round_end", "winner": seat})
        else:
            self.turn = (seat + 1) % self.players
        return self.log[start:]

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "header": self.log[0], "positions": list(self.positions),
                "turn": self.turn, "phase": self.phase_name, "result": self._result, "log": self.log}

    def _action_pairs(self) -> bytes:
        return bytes(self._pairs)

    # ------------------------------------------------------------------ the hooks
    def decode_action(self, seat: int, i: int) -> Move:
        return Move(i + 1)

    def _encode_action(self, seat: int, action: Any) -> int:
        if isinstance(action, dict) and action.get("type") == "move":
            action = Move(action.get("n"))
        if isinstance(action, Move) and action.n in (1, 2):
            return action.n - 1
        if type(action) is int and 0 <= action < self.ACTION_SIZE:
            return action
        raise IllegalActionError(f"not a race action: {action!r}")

    def _why_illegal(self, seat: int, i: int) -> str:
        if seat != self.turn:
            return f"seat {seat} is not on turn"
        return "move 2: a seat holding card 1 moves one step at a time"

    def _view_fields(self, seat: int, legal: list[int]) -> dict[str, Any]:
        return {"turn": self.turn, "card": self.cards[seat], "positions": list(self.positions)}

    @staticmethod
    def _redact_event(ev: dict[str, Any], seat: int) -> "dict[str, Any] | None":
        if ev["type"] == "header":
            return {k: v for k, v in ev.items() if k not in ("seed", "spawn_key")}
        if ev["type"] == "deal" and ev["seat"] != seat:
            return {"type": "deal", "seat": ev["seat"]}
        return dict(ev)

    def _check_invariants(self, events: bool = True) -> None:
        moved = [0] * self.players
        for e in self.log:
            if e["type"] == "action":
                moved[e["seat"]] += e["action"]["n"]
        if moved != self.positions:
            raise StateError(f"positions: {self.positions}, but the log moves {moved}")

    @classmethod
    def _header_shape(cls) -> Obj:
        return Obj({"type": Str(("header",)), "schema_version": Int(1, 1), "ruleset": Str(("toy-race",)),
                    "seed": Int(0, MAX_SEED), "spawn_key": List(Int(0, MAX_SPAWN_VALUE), lo=0, hi=MAX_SPAWN_KEY),
                    "dealer": Int(0, 2), "options": Obj({})})

    @classmethod
    def _new_from_header(cls, header: dict[str, Any]) -> "RaceRound":
        return cls(header["ruleset"], header["seed"], dealer=header["dealer"], options=header["options"],
                   spawn_key=header["spawn_key"])


class RaceMatch(Match):
    round_class = RaceRound
