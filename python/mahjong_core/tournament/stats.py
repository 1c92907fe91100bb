"""The result of a tournament of duplicate deals: per bot its rounds, win rate, points per round and
rating, each with a 95 % confidence interval, and the pairwise differences with theirs.

How each interval is computed (the deal is the unit: its rounds share a wall, so they are not
independent, while two deals are):

- **win rate, points per round** and their **pairwise differences**: the per-deal values (a bot's
  wins and points over the deal's rotations, divided by the rotations; a difference is taken within
  each deal, i.e. paired) averaged over the deals, with the normal-approximation interval
  ``mean ± 1.96 · s / √n`` (``s`` the sample standard deviation of the per-deal values, ``n`` the
  deals).  With one deal there is no interval (``None``).
- **rating**: OpenSkill's Plackett-Luce model (the ``openskill`` package, a maintained library),
  one rated match per deal in deal order, the bots ranked by their points over the deal (equal
  points share a rank).  The rating is the ``mu`` after the last deal (``sigma`` beside it); its
  interval, and that of a pairwise rating difference, is the 2.5-97.5 percentile range of the same
  computation over ``bootstrap`` resamples of the deals drawn with replacement (seeded from the
  tournament's seed, so it is reproducible).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .._extras import missing_extra
from ..errors import SimulationError
from ..simulation.stats import _package_version, csv_table

__all__ = ["TournamentResult", "Z95", "mean_interval", "openskill_mu"]

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


def mean_interval(values: np.ndarray) -> tuple[float, "float | None", "float | None"]:
    """(mean, low, high): the mean of per-deal values and its normal-approximation 95 % interval
    (``None`` bounds for fewer than two deals)."""
    n = len(values)
    mean = float(values.mean()) if n else 0.0
    if n < 2:
        return mean, None, None
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise missing_extra("openskill", "the tournament's rating", "rating") from None
    return PlackettLuce()


def _ranks(points: np.ndarray) -> list[int]:
    """Rank of each bot in one deal, 0 the best: the number of bots with strictly more points."""
    return [int((points > p).sum()) for p in points]


def openskill_mu(points: np.ndarray, order: "Sequence[int] | np.ndarray | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """(mu, sigma) per bot after rating the deals ``order`` (default: all, in order) of ``points``
    (deals x bots: each bot's points over the deal) with OpenSkill's Plackett-Luce model."""
    model = _model()
    k = points.shape[1]
    teams = [[model.rating()] for _ in range(k)]
    for d in range(points.shape[0]) if order is None else order:
        teams = model.rate(teams, ranks=_ranks(points[d]))
    return (np.array([t[0].mu for t in teams]), np.array([t[0].sigma for t in teams]))


def _interval(samples: np.ndarray) -> tuple["float | None", "float | None"]:
    if len(samples) == 0:
        return None, None
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return float(lo), float(hi)


def _r(x: "float | None") -> "float | None":
    return None if x is None else float(x)


@dataclass
class TournamentResult:
    """What :func:`mahjong_core.tournament` measured (the module docstring says how).

    ``points`` and ``wins`` are the raw per-deal figures (deals x bots: a bot's net points, and the
    rounds it won, over the deal's ``rotations`` rounds); ``games`` one record per round played
    (``deal``, ``dealer``, ``end``, ``winners`` (seats), ``deltas`` (points per seat)) when the
    tournament was asked to record them (``record_games=True``), else empty;
    ``seating`` the bot (an index into ``bots``) at each seat."""

    ruleset: str
    bots: tuple[str, ...]
    seating: tuple[int, ...]
    points: np.ndarray
    wins: np.ndarray
    games: list[dict[str, Any]] = field(default_factory=list)
    seed: "int | None" = None
    batch_size: "int | None" = None
    workers: "int | None" = None
    bootstrap: int = 200
    version: str = field(default_factory=_package_version)

    def __post_init__(self) -> None:
        self._rating: "dict[str, Any] | None" = None

    # -------------------------------------------------------------- figures
    @property
    def deals(self) -> int:
        return int(self.points.shape[0])

    @property
    def rotations(self) -> int:
        """Rounds per deal: one per seating, the dealer rotated through every seat."""
        return len(self.seating)

    @property
    def rounds(self) -> int:
        """Rounds played (each bot plays every one of them)."""
        return self.deals * self.rotations

    def _per_round(self, a: np.ndarray) -> np.ndarray:
        return a.astype(np.float64) / self.rotations

    def ratings(self) -> dict[str, Any]:
        """``mu``, ``sigma`` per bot and the bootstrap samples of ``mu`` (``samples``: bootstrap x
        bots), computed once."""
        if self._rating is None:
            mu, sigma = openskill_mu(self.points)
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed or 0, spawn_key=(2**32,))))
            samples = np.array([openskill_mu(self.points, rng.integers(0, self.deals, self.deals))[0]
                                for _ in range(self.bootstrap)]).reshape(self.bootstrap, len(self.bots))
            self._rating = {"mu": mu, "sigma": sigma, "samples": samples}
        return self._rating

    def bot_rows(self) -> list[dict[str, Any]]:
        """One row per bot: rounds, win rate, points per round and rating, each with its 95 % interval."""
        rating = self.ratings()
        rows = []
        for e, name in enumerate(self.bots):
            w, wlo, whi = mean_interval(self._per_round(self.wins[:, e]))
            p, plo, phi = mean_interval(self._per_round(self.points[:, e]))
            rlo, rhi = _interval(rating["samples"][:, e])
            rows.append({"bot": name, "seats": [s for s, b in enumerate(self.seating) if b == e],
                         "rounds": self.rounds, "win_rate": w, "win_rate_low": _r(wlo), "win_rate_high": _r(whi),
                         "points_per_round": p, "points_per_round_low": _r(plo), "points_per_round_high": _r(phi),
                         "rating": float(rating["mu"][e]), "rating_low": rlo, "rating_high": rhi,
                         "rating_sigma": float(rating["sigma"][e])})
        return rows

    def pair_rows(self) -> list[dict[str, Any]]:
        """One row per pair of bots (``a`` before ``b`` in ``bots``): ``a``'s lead over ``b`` in win
        rate, points per round (paired per-deal differences) and rating (bootstrap), with 95 % intervals."""
        rating = self.ratings()
        rows = []
        k = len(self.bots)
        for i in range(k):
            for j in range(i + 1, k):
                w, wlo, whi = mean_interval(self._per_round(self.wins[:, i] - self.wins[:, j]))
                p, plo, phi = mean_interval(self._per_round(self.points[:, i] - self.points[:, j]))
                rlo, rhi = _interval(rating["samples"][:, i] - rating["samples"][:, j])
                rows.append({"a": self.bots[i], "b": self.bots[j], "deals": self.deals,
                             "win_rate_diff": w, "win_rate_diff_low": _r(wlo), "win_rate_diff_high": _r(whi),
                             "points_diff": p, "points_diff_low": _r(plo), "points_diff_high": _r(phi),
                             "rating_diff": float(rating["mu"][i] - rating["mu"][j]),
                             "rating_diff_low": rlo, "rating_diff_high": rhi})
        return rows

    # -------------------------------------------------------------- merging (the batches of a run)
    def merge(self, other: TournamentResult) -> TournamentResult:
        """Append another batch's deals (same ruleset, bots and seating) after this one's."""
        if (other.ruleset, other.bots, other.seating) != (self.ruleset, self.bots, self.seating):
            raise SimulationError("cannot merge tournament results of different rulesets, bots or seatings")
        self.points = np.concatenate([self.points, other.points])
        self.wins = np.concatenate([self.wins, other.wins])
        self.games.extend(other.games)
        self._rating = None
        return self

    # -------------------------------------------------------------- output
    @property
    def provenance(self) -> dict[str, Any]:
        """How the result was made: package version, seed, deals, batch size, ruleset, bots, seating,
        workers, bootstrap resamples and the methods of the intervals."""
        return {"version": self.version, "seed": self.seed, "deals": self.deals, "rounds": self.rounds,
                "batch_size": self.batch_size, "ruleset": self.ruleset, "bots": list(self.bots),
                "seating": [self.bots[e] for e in self.seating], "workers": self.workers,
                "bootstrap": self.bootstrap,
                "intervals": {"win_rate, points_per_round, differences":
                              "95 %: mean of per-deal values +- 1.96 s/sqrt(deals) (paired per deal)",
                              "rating": f"95 %: percentiles 2.5-97.5 of {self.bootstrap} bootstrap resamples "
                                        "of the deals (OpenSkill Plackett-Luce, one match per deal)"}}

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """The bots' and pairs' rows and the provenance as plain data (``games=True``: every round too)."""
        d: dict[str, Any] = {"ruleset": self.ruleset, "deals": self.deals, "rounds": self.rounds,
                             "bots": self.bot_rows(), "pairs": self.pair_rows(), "provenance": self.provenance}
        if games:
            d["games"] = self.games
        return d

    def to_json(self, games: bool = False) -> str:
        return json.dumps(self.to_dict(games), ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        """One row per bot (the columns of :meth:`bot_rows`; ``seats`` space-separated)."""
        return csv_table([{**r, "seats": " ".join(map(str, r["seats"]))} for r in self.bot_rows()])

    def pairs_csv(self) -> str:
        """One row per pair of bots (the columns of :meth:`pair_rows`)."""
        return csv_table(self.pair_rows())

    def summary(self) -> str:
        def ci(lo: "float | None", hi: "float | None", fmt: str) -> str:
            return "" if lo is None or hi is None else f" [{lo:{fmt}}, {hi:{fmt}}]"

        lines = [f"{self.deals:,} duplicate deal{'' if self.deals == 1 else 's'} of {self.ruleset} "
                 f"({self.rotations} rotations each, {self.rounds:,} rounds); 95 % intervals"]
        for r in self.bot_rows():
            lines.append(f"{r['bot']:>12}: win rate {r['win_rate']:.3f}{ci(r['win_rate_low'], r['win_rate_high'], '.3f')}"
                         f", points/round {r['points_per_round']:+.2f}"
                         f"{ci(r['points_per_round_low'], r['points_per_round_high'], '+.2f')}"
                         f", rating {r['rating']:.1f}{ci(r['rating_low'], r['rating_high'], '.1f')}")
        for r in self.pair_rows():
            lines.append(f"{r['a']} - {r['b']}: win rate {r['win_rate_diff']:+.3f}"
                         f"{ci(r['win_rate_diff_low'], r['win_rate_diff_high'], '+.3f')}"
                         f", points/round {r['points_diff']:+.2f}{ci(r['points_diff_low'], r['points_diff_high'], '+.2f')}"
                         f", rating {r['rating_diff']:+.1f}{ci(r['rating_diff_low'], r['rating_diff_high'], '+.1f')}")
        return "\n".join(lines)
