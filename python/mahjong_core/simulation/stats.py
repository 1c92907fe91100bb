"""Simulation statistics: additive counters, so batches merge in any order.

Every field is a sum (or a histogram) over rounds, so the result of a run is
the same whatever the number of workers: batches are merged by addition.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SimulationError
from ..families.mahjong.constants import WIN_METHODS
from ..families.registry import get_ruleset

__all__ = ["SimulationResult", "RunSummary", "METHODS", "MAX_TOTAL", "MAX_LENGTH", "check_output", "csv_table"]

METHODS = ("draw",) + WIN_METHODS
MAX_TOTAL = 400
"""Fan totals above this go into the last histogram bin."""
MAX_LENGTH = 200
"""Round lengths (turns) above this go into the last histogram bin."""


def _package_version() -> str:
    from .. import __version__   # the package imports this module: read the version at call time
    return __version__


def check_output(path: Any, what: str = "output") -> Path:
    """``path`` as a :class:`~pathlib.Path` a file can be written to, checked *before* a long run:
    its directory exists and is writable, the path itself is not a directory and, if it exists,
    is writable.  :class:`SimulationError` naming ``what`` and the path otherwise."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise SimulationError(f"{what} must be a file path, got {path!r}")
    p = Path(path)
    parent = p.parent
    if p.is_dir():
        raise SimulationError(f"{what} {str(p)!r} is a directory, not a file")
    if not parent.is_dir():
        raise SimulationError(f"{what} {str(p)!r}: the directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise SimulationError(f"{what} {str(p)!r} is not writable")
    return p


def csv_table(rows: list[dict[str, Any]]) -> str:
    """``rows`` (dicts with the same keys, at least one) as CSV text with a header line."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def _unset() -> np.ndarray:
    """An array field not given to the constructor: __post_init__ sizes it."""
    return np.zeros(0, np.int64)


class RunSummary:
    """What the simulation results of every family share (mixed into each family's dataclass, which
    declares these fields): who played, how the run was made, the wins per seat."""

    ruleset: str
    bots: tuple[str, ...]
    rounds: int
    wins_by_seat: np.ndarray
    dealer_rounds: np.ndarray
    seed: "int | None"
    batch_size: "int | None"
    min_fan: "int | None"
    workers: "int | None"
    version: str

    @property
    def provenance(self) -> dict[str, Any]:
        """How the result was made: package version, seed, batch size, minimum fan, ruleset,
        bots, workers; with the same version, seed, batch size, minimum fan, ruleset and bots a
        run repeats this result (the number of workers does not change it)."""
        return {"version": self.version, "seed": self.seed, "batch_size": self.batch_size,
                "min_fan": self.min_fan, "ruleset": self.ruleset, "bots": list(self.bots),
                "workers": self.workers}

    @property
    def wins(self) -> int:
        return int(self.wins_by_seat.sum())

    @property
    def win_rate_by_seat(self) -> list[float]:
        return [float(w) / self.rounds if self.rounds else 0.0 for w in self.wins_by_seat]

    # what every family's result offers (the simulation hooks' ``result_type``, see
    # mahjong_core.families.registry): the runner merges batches, the command line writes these
    def merge(self, other: Any) -> Any:
        """Add another batch's counters (same ruleset and bots) into this result; returns it."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self) -> str:
        raise NotImplementedError

    def to_csv(self) -> str:
        raise NotImplementedError

    def summary(self) -> str:
        raise NotImplementedError

    def _head(self) -> dict[str, Any]:
        """The first keys of ``to_dict()`` (``provenance`` is its last)."""
        return {
            "ruleset": self.ruleset,
            "bots": list(self.bots),
            "rounds": self.rounds,
            "wins": self.wins,
            "win_rate_by_seat": self.win_rate_by_seat,
            "wins_by_seat": self.wins_by_seat.tolist(),
            "dealer_rounds": self.dealer_rounds.tolist(),
        }


@dataclass
class SimulationResult(RunSummary):
    """Counters of a simulation run (or of one batch of it)."""

    ruleset: str
    bots: tuple[str, ...]
    rounds: int = 0
    wins_by_seat: np.ndarray = field(default_factory=_unset)        # (players,)
    dealer_rounds: np.ndarray = field(default_factory=_unset)       # (players,) rounds each seat dealt
    dealer_wins: int = 0
    non_dealer_wins: int = 0
    by_method: np.ndarray = field(default_factory=_unset)           # (4,) METHODS
    total_hist: np.ndarray = field(default_factory=_unset)          # (MAX_TOTAL + 1,)
    fan_frequency: np.ndarray = field(default_factory=_unset)       # (n_fans,) rounds in which each fan counted
    fan_instances: np.ndarray = field(default_factory=_unset)       # (n_fans,) summed counts
    length_hist: np.ndarray = field(default_factory=_unset)         # (MAX_LENGTH + 1,)
    points_by_seat: np.ndarray = field(default_factory=_unset)      # (players,) net points won (1 point per fan)
    winning_hands: list[dict[str, Any]] = field(default_factory=list)
    """With ``record_wins=True``: the score arguments of every winning hand, in round order."""
    seed: "int | None" = None
    """The run's root seed (given, or drawn from fresh entropy): passing it again repeats the run."""
    batch_size: "int | None" = None
    """Rounds per batch (with the seed, it fixes the result)."""
    min_fan: "int | None" = None
    """The minimum fan to win the run was played under (None: the ruleset's own)."""
    workers: "int | None" = None
    """The ``workers`` the run was asked for (None: in-process or the executor's own)."""
    version: str = field(default_factory=lambda: _package_version())
    """The mahjong-core version that made the result."""

    def __post_init__(self) -> None:
        players = get_ruleset(self.ruleset).players
        n_fans = len(get_ruleset(self.ruleset).fans)

        def z(n: int) -> np.ndarray:
            return np.zeros(n, np.int64)

        if self.wins_by_seat is None or self.wins_by_seat.size == 0:   # not given: zeros
            self.wins_by_seat = z(players)
            self.dealer_rounds = z(players)
            self.by_method = z(len(METHODS))
            self.total_hist = z(MAX_TOTAL + 1)
            self.fan_frequency = z(n_fans)
            self.fan_instances = z(n_fans)
            self.length_hist = z(MAX_LENGTH + 1)
            self.points_by_seat = z(players)

    # -------------------------------------------------------------- building
    def add_round(self, *, winner: int | None, dealer: int, method: str, total: int,
                  fan_counts: np.ndarray | None, length: int, points: np.ndarray) -> None:
        """Record one round (``winner`` None for a draw)."""
        self.rounds += 1
        self.dealer_rounds[dealer] += 1
        self.by_method[METHODS.index(method)] += 1
        self.length_hist[min(length, MAX_LENGTH)] += 1
        self.points_by_seat += points
        if winner is None:
            return
        self.wins_by_seat[winner] += 1
        if winner == dealer:
            self.dealer_wins += 1
        else:
            self.non_dealer_wins += 1
        self.total_hist[min(total, MAX_TOTAL)] += 1
        if fan_counts is None:
            raise SimulationError("a won round needs its fan counts")
        self.fan_frequency += fan_counts > 0
        self.fan_instances += fan_counts

    def merge(self, other: "SimulationResult") -> "SimulationResult":
        """Add another result's counters to this one (same ruleset and bots)."""
        if (other.ruleset, other.bots) != (self.ruleset, self.bots):
            raise SimulationError("cannot merge results of different rulesets or bots")
        self.rounds += other.rounds
        self.dealer_wins += other.dealer_wins
        self.non_dealer_wins += other.non_dealer_wins
        self.winning_hands.extend(other.winning_hands)
        for name in ("wins_by_seat", "dealer_rounds", "by_method", "total_hist", "fan_frequency",
                     "fan_instances", "length_hist", "points_by_seat"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    # -------------------------------------------------------------- derived
    @property
    def dealer_win_rate(self) -> float:
        """Wins of the dealer per round."""
        return self.dealer_wins / self.rounds if self.rounds else 0.0

    @property
    def non_dealer_win_rate(self) -> float:
        """Wins of a non-dealer seat per round and per non-dealer seat."""
        seats = get_ruleset(self.ruleset).players - 1
        return self.non_dealer_wins / (self.rounds * seats) if self.rounds else 0.0

    @property
    def draw_rate(self) -> float:
        return float(self.by_method[0]) / self.rounds if self.rounds else 0.0

    @property
    def self_drawn_share(self) -> float:
        """Share of wins that were self-drawn."""
        return float(self.by_method[1]) / self.wins if self.wins else 0.0

    @property
    def discard_share(self) -> float:
        """Share of wins on a discard (robbing a kong included)."""
        return float(self.by_method[2] + self.by_method[3]) / self.wins if self.wins else 0.0

    @property
    def mean_total(self) -> float:
        w = self.wins
        return float((self.total_hist * np.arange(MAX_TOTAL + 1)).sum()) / w if w else 0.0

    @property
    def mean_length(self) -> float:
        return float((self.length_hist * np.arange(MAX_LENGTH + 1)).sum()) / self.rounds if self.rounds else 0.0

    def fan_table_rows(self) -> list[dict[str, Any]]:
        """Per fan: id, names, points, rounds in which it counted, frequency per win."""
        out = []
        for f, rounds, inst in zip(get_ruleset(self.ruleset).fans, self.fan_frequency, self.fan_instances):
            out.append({"id": f.id, "name": f.zh, "name_en": f.en, "points": f.points,
                        "rounds": int(rounds), "instances": int(inst),
                        "per_win": float(rounds) / self.wins if self.wins else 0.0})
        return out

    # -------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        last_total = int(np.flatnonzero(self.total_hist).max()) if self.total_hist.any() else 0
        last_len = int(np.flatnonzero(self.length_hist).max()) if self.length_hist.any() else 0
        return {
            **self._head(),
            "dealer_win_rate": self.dealer_win_rate,
            "non_dealer_win_rate": self.non_dealer_win_rate,
            "draw_rate": self.draw_rate,
            "self_drawn_share": self.self_drawn_share,
            "discard_share": self.discard_share,
            "by_method": dict(zip(METHODS, self.by_method.tolist())),
            "mean_total": self.mean_total,
            "total_histogram": self.total_hist[: last_total + 1].tolist(),
            "mean_length": self.mean_length,
            "length_histogram": self.length_hist[: last_len + 1].tolist(),
            "points_by_seat": self.points_by_seat.tolist(),
            "fans": self.fan_table_rows(),
            "provenance": self.provenance,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        """One row per fan: id, names, points, rounds, instances, per_win."""
        return csv_table(self.fan_table_rows())

    def summary(self) -> str:
        lines = [
            f"{self.rounds:,} round{'' if self.rounds == 1 else 's'} of {self.ruleset} ({', '.join(self.bots)})",
            f"win rate by seat: {', '.join(f'{r:.3f}' for r in self.win_rate_by_seat)}",
            f"dealer win rate {self.dealer_win_rate:.3f}, non-dealer (per seat) {self.non_dealer_win_rate:.3f}",
            f"draws {self.draw_rate:.3f}; of the wins self-drawn {self.self_drawn_share:.3f}, "
            f"on a discard {self.discard_share:.3f}",
            f"mean fan total {self.mean_total:.2f}; mean round length {self.mean_length:.1f} turns",
            f"points by seat: {', '.join(str(p) for p in self.points_by_seat.tolist())}",
        ]
        top = sorted(self.fan_table_rows(), key=lambda r: -r["rounds"])[:10]
        lines.append("most frequent fans: " + ", ".join(f"{r['name']} {r['per_win']:.2f}" for r in top if r["rounds"]))
        return "\n".join(lines)
