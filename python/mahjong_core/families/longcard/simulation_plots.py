"""Charts of a long-card simulation result (matplotlib, headless Agg backend): what
:func:`mahjong_core.simulation.plots.plot_result` draws for a :class:`.simulation.LongcardSimulationResult`."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ...simulation.stats import check_output
from .simulation import BAOZI, LongcardSimulationResult

__all__ = ["plot_longcard_result"]


def _latin(text: str) -> str:
    """A label without CJK characters (the default fonts have no glyph for them): a parenthesised
    Chinese name is left out, 陀 and 吃 are written tuo and chi."""
    text = re.sub(r"\s*\([^)]*[^\x00-\x7f][^)]*\)", "", text).replace("陀", "tuo").replace("吃", "chi")
    return "".join(ch for ch in text if ch.isascii())


def _last(hist: np.ndarray) -> int:
    """One past the last non-empty bin (1 for an empty histogram)."""
    return int(np.flatnonzero(hist).max()) + 1 if hist.any() else 1


def plot_longcard_result(result: LongcardSimulationResult, path: str | Path) -> Path:
    """Write one figure with four panels: the share of wins in which each fan source (spec 4.4)
    counts, the fan and the 陀 of the winning hands, and the win and 包子 rates by seat.  ``path``
    is checked like :func:`~mahjong_core.simulation.plots.plot_result`'s; returns it.  The labels are
    English (the default fonts have no CJK glyphs): tuo = 陀, baozi = 包子, exhausted stock = 黄庄."""
    from ...simulation.plots import require_matplotlib

    path = check_output(path, "plot")
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.fan_table_rows()
    fig, axes = plt.subplots(1, 4, figsize=(22, 6), gridspec_kw={"width_ratios": [1.8, 1.3, 1.3, 1.1]})
    ax = axes[0]
    ax.barh([_latin(r["name_en"]) for r in rows][::-1], [r["per_win"] for r in rows][::-1],
            color="#3a7")
    ax.set_xlabel("share of wins in which the source counts")
    ax.set_title("fan sources")
    ax = axes[1]
    last = _last(result.fan_hist)
    ax.bar(np.arange(last), result.fan_hist[:last], width=1.0, color="#37a")
    ax.set_xlabel("fan of the winning hand (after the cap)")
    ax.set_ylabel("wins")
    ax.set_title(f"fan (mean {result.mean_fan:.2f})")
    ax = axes[2]
    last = _last(result.tuo_hist)
    first = int(np.flatnonzero(result.tuo_hist).min()) if result.tuo_hist.any() else 0
    ax.bar(np.arange(first, last), result.tuo_hist[first:last], width=1.0, color="#a37")
    ax.set_xlabel("tuo of the winning hand")
    ax.set_ylabel("wins")
    ax.set_title(f"tuo (mean {result.mean_tuo:.1f})")
    ax = axes[3]
    seats = np.arange(len(result.wins_by_seat))
    ax.bar(seats - 0.2, result.win_rate_by_seat, width=0.4, color="#a73", label="wins")
    ax.bar(seats + 0.2, result.baozi_rate_by_seat, width=0.4, color="#555", label="baozi")
    ax.set_xticks(seats, [f"seat {s}\n{b}" for s, b in zip(seats, result.bots)])
    ax.set_ylabel("per hand")
    causes = ", ".join(f"{c} {n}" for c, n in zip(BAOZI, result.baozi_by_cause.tolist()) if n)
    ax.set_title(f"win and baozi rate by seat (baozi {result.baozi_rate:.3f}{'; ' + causes if causes else ''})",
                 fontsize=9)
    ax.legend()
    fig.suptitle(f"{result.rounds:,} hands of {result.ruleset} "
                 f"(exhausted stock {result.huangzhuang_rate:.2f}, void {result.void_rate:.2f})")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
