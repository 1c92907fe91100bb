"""PNG charts of a simulation result (matplotlib, headless Agg backend)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._validate import as_int
from ..errors import SimulationError
from .stats import SimulationResult, check_output

if TYPE_CHECKING:
    from ..families.longcard.simulation import LongcardSimulationResult

__all__ = ["plot_result", "require_matplotlib"]


def require_matplotlib() -> None:
    """Raise :class:`SimulationError` when matplotlib is missing (call it before a long run)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SimulationError("plotting needs matplotlib: pip install 'mahjong-core[plot]'") from None


def plot_result(result: SimulationResult | LongcardSimulationResult, path: str | Path, top: int = 25) -> Path:
    """Write one PNG with three panels: fan frequency (top ``top`` fans per win), the fan-total
    histogram and the win rate by seat.  Returns the path written.  A long-card result gets its own
    four panels (:func:`~mahjong_core.families.longcard.simulation_plots.plot_longcard_result`)."""
    from ..families.longcard.simulation import LongcardSimulationResult

    if isinstance(result, LongcardSimulationResult):
        from ..families.longcard.simulation_plots import plot_longcard_result

        return plot_longcard_result(result, path)
    if not isinstance(result, SimulationResult):
        raise SimulationError(f"result must be a SimulationResult or LongcardSimulationResult, "
                              f"got {type(result).__name__}")
    top = as_int(top, "top", 1, error=SimulationError)
    path = check_output(path, "plot")
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted((r for r in result.fan_table_rows() if r["rounds"]), key=lambda r: -r["per_win"])[:top]
    fig, axes = plt.subplots(1, 3, figsize=(18, 6), gridspec_kw={"width_ratios": [2.2, 1.4, 1]})
    ax = axes[0]
    ax.barh([r["name_en"] for r in rows][::-1], [r["per_win"] for r in rows][::-1], color="#3a7")
    ax.set_xlabel("share of wins in which the fan counts")
    ax.set_title(f"fan frequency (top {len(rows)})")
    ax = axes[1]
    hist = result.total_hist
    last = int(np.flatnonzero(hist).max()) + 1 if hist.any() else 1
    ax.bar(np.arange(last), hist[:last], width=1.0, color="#37a")
    ax.set_xlabel("fan total of the winning hand (flowers included)")
    ax.set_ylabel("wins")
    ax.set_title(f"fan totals (mean {result.mean_total:.1f})")
    ax = axes[2]
    seats = np.arange(len(result.wins_by_seat))
    ax.bar(seats, result.win_rate_by_seat, color="#a73")
    ax.set_xticks(seats, [f"seat {s}\n{b}" for s, b in zip(seats, result.bots)])
    ax.set_ylabel("wins per round")
    ax.set_title(f"win rate by seat (draws {result.draw_rate:.2f})")
    fig.suptitle(f"{result.rounds:,} round{'' if result.rounds == 1 else 's'} of {result.ruleset}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
