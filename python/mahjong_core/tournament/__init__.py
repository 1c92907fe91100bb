"""Tournaments of duplicate deals between bots, with confidence intervals (:func:`tournament`).

:mod:`.runner` plays the deals (on any executor, as :func:`mahjong_core.simulate`), :mod:`.stats`
keeps the result and computes the figures and their intervals, :mod:`.plots` draws the chart and
:mod:`.cli` is the ``mahjong-core tournament`` command.
"""

from __future__ import annotations

from .runner import MAX_DEALS, play_deals, seating, tournament
from .stats import TournamentResult

__all__ = ["tournament", "TournamentResult", "play_deals", "seating", "MAX_DEALS"]
