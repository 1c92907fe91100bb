"""PNG charts of a simulation result (matplotlib, headless Agg backend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._validate import as_int
from ..errors import SimulationError
from ..families.registry import families
from .stats import RunSummary, SimulationResult, check_output

__all__ = ["plot_result", "plot_fan_result", "require_matplotlib"]


def require_matplotlib() -> None:
    """Raise :class:`SimulationError` when matplotlib is missing (call it before a long run)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SimulationError("plotting needs matplotlib: pip install 'mahjong-core[plot]'") from None


def plot_result(result: RunSummary, path: str | Path, top: int = 25) -> Path:
    """Write the charts of a simulation result as one image (PNG, or the format of the extension)
    and return the path written: the charts of the family that made it (its simulation hooks'
    ``plot``; for mahjong :func:`plot_fan_result`).  ``top``: how many fans a fan-frequency panel
    shows."""
    for family in families():
        hooks = family.simulation
        if hooks is not None and isinstance(result, hooks.result_type):
            return Path(hooks.plot(result, path, top))
    kinds = ", ".join(f.simulation.result_type.__name__ for f in families() if f.simulation is not None)
    raise SimulationError(f"result must be a simulation result ({kinds}), got {type(result).__name__}")


def plot_fan_result(result: SimulationResult, path: str | Path, top: int = 25) -> Path:
    """Write one PNG with three panels: fan frequency (top ``top`` fans per win), the fan-total
    histogram and the win rate by seat.  Returns the path written."""
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
