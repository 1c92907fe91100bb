"""Monte Carlo statistics of long-card hands (spec changpai.md 3.13, 3.14, 5): the family's
simulation hooks that :func:`mahjong_core.simulate` drives (``Family.simulation``).

:func:`play_batch` plays one batch as one :class:`.round_match.LongcardMatch` (the banker rules of
3.14) and adds every hand to a :class:`LongcardSimulationResult`: ends (win, 包子, void, 黄庄), wins
and 包子 per seat, the fan of each win, the points each seat won or paid (the hand's ``deltas``,
spec 5, so they sum to zero).  Every field is a sum or a histogram, so batches merge by addition in
any order and the result does not depend on the number of workers (see
:mod:`mahjong_core.simulation.runner`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import SimulationError
from ...game.bots import play_steps
from ...simulation.stats import RunSummary, _package_version, csv_table
from .fans import FAN_SOURCES
from .round_bots import _Protocol
from ._ref.round import BAOZI_CAUSES
from .round_rules import PLAYERS

__all__ = ["BAOZI", "ENDS", "MAX_FAN", "MAX_TUO", "LongcardSimulationResult", "play_batch", "record_hand"]

ENDS = ("win", "baozi", "void", "huangzhuang")
"""How a hand ends (spec 3.13, 3.14; ``result["end"]``)."""
MAX_FAN = 100
"""Fans of a win above this go into the last histogram bin."""
MAX_TUO = 200
"""陀 of a win above this go into the last histogram bin."""
BAOZI = tuple(BAOZI_CAUSES)
"""包子 causes B1-B6 (spec 3.13; ``result["cause"]``)."""


_SOURCE_INDEX = {src.id: k for k, src in enumerate(FAN_SOURCES)}


def _z(n: int) -> np.ndarray:
    return np.zeros(n, np.int64)


@dataclass
class LongcardSimulationResult(RunSummary):
    """Counters of a long-card simulation run (or of one batch of it); ``rounds`` counts the hands
    played, ``void_hands`` the void ones (nobody 起, spec 3.3 step 4) apart: a match does not count a
    void hand and deals again, so a run of N hands plays N hands and ``void_hands`` more, and every
    per-hand figure is per hand played (``void_rate``: void hands per hand dealt).
    ``provenance``, ``wins`` and ``win_rate_by_seat`` are those of every family's result."""

    ruleset: str
    bots: tuple[str, ...]
    rounds: int = 0
    void_hands: int = 0                                                       # void hands, not in rounds
    by_end: np.ndarray = field(default_factory=lambda: _z(len(ENDS)))         # hands per end, ENDS order
    wins_by_seat: np.ndarray = field(default_factory=lambda: _z(PLAYERS))
    baozi_by_seat: np.ndarray = field(default_factory=lambda: _z(PLAYERS))    # 包子 per offending seat
    dealer_rounds: np.ndarray = field(default_factory=lambda: _z(PLAYERS))    # hands each seat was banker
    dealer_wins: int = 0
    fan_hist: np.ndarray = field(default_factory=lambda: _z(MAX_FAN + 1))     # wins per fan
    win_points: int = 0                                                       # points the winners received
    points_by_seat: np.ndarray = field(default_factory=lambda: _z(PLAYERS))   # net points (sum of deltas)
    actions: int = 0                                                          # actions taken, all hands
    source_wins: np.ndarray = field(default_factory=lambda: _z(len(FAN_SOURCES)))   # wins each source counted in
    source_count: np.ndarray = field(default_factory=lambda: _z(len(FAN_SOURCES)))  # instances (groups, steps ...)
    source_fan: np.ndarray = field(default_factory=lambda: _z(len(FAN_SOURCES)))    # fan each source gave
    tuo_hist: np.ndarray = field(default_factory=lambda: _z(MAX_TUO + 1))     # wins per 陀 of the winning hand
    baozi_by_cause: np.ndarray = field(default_factory=lambda: _z(len(BAOZI)))
    winning_hands: list[dict[str, Any]] = field(default_factory=list)
    """With ``record_wins=True``: the score of every winning hand, in hand order."""
    seed: int | None = None
    batch_size: int | None = None
    min_fan: int | None = None
    workers: int | None = None
    version: str = field(default_factory=lambda: _package_version())

    # -------------------------------------------------------------- building
    def add_hand(self, result: dict[str, Any], n_actions: int) -> None:
        """Record one finished hand from its result (its ``end``, ``dealer`` (banker), ``deltas``)."""
        end = result["end"]
        self.by_end[ENDS.index(end)] += 1
        if end == "void":              # no play, no payment: counted apart (3.3 step 4)
            self.void_hands += 1
            return
        self.rounds += 1
        self.actions += n_actions
        self.dealer_rounds[result["dealer"]] += 1
        deltas = np.asarray(result["deltas"], np.int64)
        if deltas.shape != (PLAYERS,) or deltas.sum() != 0:   # pragma: no cover - settlement guarantees it
            raise SimulationError(f"hand {self.rounds}: payments do not sum to zero: {result['deltas']}")
        self.points_by_seat += deltas
        if end == "win":
            w = result["winner"]
            self.wins_by_seat[w] += 1
            self.dealer_wins += w == result["dealer"]
            self.fan_hist[min(int(result["fan"]), MAX_FAN)] += 1
            self.win_points += int(deltas[w])
            self._add_score(result["score"])
        elif end == "baozi":
            self.baozi_by_seat[result["offender"]] += 1
            self.baozi_by_cause[BAOZI.index(result["cause"])] += 1

    def _add_score(self, score: dict[str, Any]) -> None:
        """The fan sources (spec 4.4) and the 陀 of one win, from its score (``Score.to_dict()``)."""
        self.tuo_hist[min(int(score["tuo"]), MAX_TUO)] += 1
        counted = np.zeros(len(FAN_SOURCES), np.bool_)
        for f in score["fans"]:
            k = _SOURCE_INDEX[f["id"]]
            counted[k] = True
            self.source_count[k] += f["count"]
            self.source_fan[k] += f["points"] * f["count"]
        self.source_wins += counted

    def merge(self, other: LongcardSimulationResult) -> LongcardSimulationResult:
        """Add another result's counters to this one (same ruleset and bots)."""
        if (other.ruleset, other.bots) != (self.ruleset, self.bots):
            raise SimulationError("cannot merge results of different rulesets or bots")
        self.rounds += other.rounds
        self.void_hands += other.void_hands
        self.dealer_wins += other.dealer_wins
        self.win_points += other.win_points
        self.actions += other.actions
        self.winning_hands.extend(other.winning_hands)
        for name in ("by_end", "wins_by_seat", "baozi_by_seat", "dealer_rounds", "fan_hist", "points_by_seat",
                     "source_wins", "source_count", "source_fan", "tuo_hist", "baozi_by_cause"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    # -------------------------------------------------------------- derived
    def _per_hand(self, n: Any) -> float:
        return float(n) / self.rounds if self.rounds else 0.0

    @property
    def huangzhuang_rate(self) -> float:
        """黄庄 (the stock ran out) per hand."""
        return self._per_hand(self.by_end[ENDS.index("huangzhuang")])

    @property
    def void_rate(self) -> float:
        """Void hands (nobody 起) per hand dealt (the hands played and the void ones)."""
        dealt = self.rounds + self.void_hands
        return self.void_hands / dealt if dealt else 0.0

    @property
    def baozi(self) -> int:
        return int(self.by_end[ENDS.index("baozi")])

    @property
    def mean_fan(self) -> float:
        """Mean fan of a win."""
        return float((self.fan_hist * np.arange(MAX_FAN + 1)).sum()) / self.wins if self.wins else 0.0

    @property
    def baozi_rate(self) -> float:
        """包子 hands per hand."""
        return self._per_hand(self.baozi)

    @property
    def baozi_rate_by_seat(self) -> list[float]:
        """包子 of each seat (the offender) per hand."""
        return [self._per_hand(n) for n in self.baozi_by_seat]

    @property
    def mean_tuo(self) -> float:
        """Mean 陀 of a winning hand."""
        return float((self.tuo_hist * np.arange(MAX_TUO + 1)).sum()) / self.wins if self.wins else 0.0

    def fan_table_rows(self) -> list[dict[str, Any]]:
        """Per fan source (spec 4.4): id, names, what one instance is, the wins in which it counted
        (``rounds``, as in the mahjong table), its instances and fan summed over them, its share of
        the wins (``per_win``) and of all the fan won (``fan_share``)."""
        fan = int(self.source_fan.sum())
        return [{"id": src.id, "name": src.zh, "name_en": src.en, "per": src.per, "rounds": int(n),
                 "instances": int(k), "fan": int(f), "per_win": float(n) / self.wins if self.wins else 0.0,
                 "fan_share": float(f) / fan if fan else 0.0}
                for src, n, k, f in zip(FAN_SOURCES, self.source_wins, self.source_count, self.source_fan)]

    @property
    def mean_win_points(self) -> float:
        """Mean points a winner received (spec 5.2)."""
        return self.win_points / self.wins if self.wins else 0.0

    # -------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        last_fan = int(np.flatnonzero(self.fan_hist).max()) if self.fan_hist.any() else 0
        last_tuo = int(np.flatnonzero(self.tuo_hist).max()) if self.tuo_hist.any() else 0
        return {
            **self._head(),
            "dealer_wins": self.dealer_wins,
            "by_end": dict(zip(ENDS, self.by_end.tolist())),
            "huangzhuang_rate": self.huangzhuang_rate,
            "void_hands": self.void_hands,
            "void_rate": self.void_rate,
            "baozi": self.baozi,
            "baozi_by_seat": self.baozi_by_seat.tolist(),
            "baozi_rate": self.baozi_rate,
            "baozi_rate_by_seat": self.baozi_rate_by_seat,
            "baozi_by_cause": dict(zip(BAOZI, self.baozi_by_cause.tolist())),
            "mean_fan": self.mean_fan,
            "fan_histogram": self.fan_hist[: last_fan + 1].tolist(),
            "fan_sources": self.fan_table_rows(),
            "mean_tuo": self.mean_tuo,
            "tuo_histogram": self.tuo_hist[: last_tuo + 1].tolist(),
            "mean_win_points": self.mean_win_points,
            "points_by_seat": self.points_by_seat.tolist(),
            "mean_actions": self._per_hand(self.actions),
            "provenance": self.provenance,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        """One row per fan source (the columns of :meth:`fan_table_rows`), like the mahjong fan table."""
        return csv_table(self.fan_table_rows())

    def summary(self) -> str:
        return "\n".join([
            f"{self.rounds:,} hands of {self.ruleset} ({', '.join(self.bots)}) and {self.void_hands:,} void (redealt)",
            f"win rate by seat: {', '.join(f'{r:.3f}' for r in self.win_rate_by_seat)}",
            (f"黄庄 {self.huangzhuang_rate:.3f}, void hands per deal {self.void_rate:.3f}, 包子 {self.baozi:,} "
             f"(by seat {', '.join(map(str, self.baozi_by_seat.tolist()))})"),
            (f"mean fan of a win {self.mean_fan:.2f}, mean 陀 {self.mean_tuo:.1f}, mean points won "
             f"{self.mean_win_points:.2f}; mean hand length {self._per_hand(self.actions):.1f} actions"),
            f"points by seat: {', '.join(str(p) for p in self.points_by_seat.tolist())}",
        ])


def record_hand(out: LongcardSimulationResult, result: dict[str, Any], n_actions: int, record_wins: bool) -> None:
    """Add one finished hand (its result with ``dealer``) to ``out``."""
    out.add_hand(result, n_actions)
    if record_wins and result["end"] == "win":
        out.winning_hands.append(result["score"])


def play_batch(ruleset: str, bots: Sequence[Any], match_seed: int, rounds: int, min_fan: int | None,
               record_wins: bool, out: LongcardSimulationResult, *, engine: str = "compiled") -> None:
    """Play ``rounds`` hands as one match from ``match_seed`` between ``bots`` (one object per seat)
    into ``out``.  ``engine="compiled"`` (the default, what :func:`mahjong_core.simulate` runs) plays
    the hands of built-in bots in C (:func:`.round_engine.play_match`: the same hands, results and
    bot random streams as the reference); ``engine="reference"``, or any other bot, plays on the
    reference engine: a built-in bot decides on the hand directly
    (:meth:`._ref.round.Round.play_decision`), any other bot through the shared round API."""
    from .family import new_match
    from .round_engine import ENGINES, compiled_bots, play_match

    if min_fan is not None:
        raise SimulationError(f"{ruleset}: a long-card hand has no minimum fan (qualification is spec 2.8); "
                              f"leave min_fan None, got {min_fan!r}")
    if engine not in ENGINES:
        raise SimulationError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    match = new_match(ruleset=ruleset, seed=match_seed, rounds=rounds, engine=engine)
    fast = compiled_bots(bots, match.round.settings.hand) if engine == "compiled" else None
    if fast is not None:
        for result, n_actions in play_match(match, *fast):
            record_hand(out, result, n_actions, record_wins)
        return
    direct = all(isinstance(b, _Protocol) for b in bots)
    while not match.is_over:
        rnd = match.round
        hand = rnd.hand
        if direct:
            while hand.phase != "end":
                hand.play_decision(bots[hand.actor])
        else:
            play_steps(rnd, bots)
        result = rnd._result
        assert result is not None   # the hand is over
        record_hand(out, result, len(hand.log), record_wins)
        match.next_round()
