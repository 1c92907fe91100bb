"""The chart of a tournament result (matplotlib, headless Agg backend, as the simulation's charts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..simulation.plots import require_matplotlib
from ..simulation.stats import check_output
from .stats import TournamentResult

__all__ = ["plot_tournament"]


def _errors(rows: list[dict[str, Any]], key: str) -> np.ndarray:
    """The asymmetric error bars of ``key`` (zero where a row has no interval)."""
    low = [r[key] - r[f"{key}_low"] if r[f"{key}_low"] is not None else 0.0 for r in rows]
    high = [r[f"{key}_high"] - r[key] if r[f"{key}_high"] is not None else 0.0 for r in rows]
    return np.array([low, high])


def plot_tournament(result: TournamentResult, path: "str | Path") -> Path:
    """Write one image (PNG, or the format of the extension) with three panels, each bot's win rate,
    points per round and rating with their 95 % intervals as error bars; returns the path written."""
    path = check_output(path, "plot")
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.bot_rows()
    names = [r["bot"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(4 + 2.2 * len(rows), 4.5))
    for ax, key, title, color in ((axes[0], "win_rate", "win rate per round", "#3a7"),
                                  (axes[1], "points_per_round", "points per round", "#37a"),
                                  (axes[2], "rating", "OpenSkill rating (mu)", "#a73")):
        ax.bar(names, [r[key] for r in rows], yerr=_errors(rows, key), capsize=6, color=color)
        ax.set_title(title)
        if key == "points_per_round":
            ax.axhline(0, color="#444", linewidth=0.8)
    fig.suptitle(f"{result.deals:,} duplicate deal{'' if result.deals == 1 else 's'} of {result.ruleset} "
                 f"({result.rounds:,} rounds), 95 % intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
