"""The long-card advisor bot (issue 30): it discards by the family's advisor and otherwise plays as the
RuleBot of spec 8.5.

On its turn it asks the RuleBot first: a 起, a win, a fold or any claim decision is kept; a discard is
replaced by the advisor's best discard (:func:`.advise.advise_seen`: the "cards to a win" distance
and the live copies first, then the live fan, T_max and F_theo), worked out from what the seat sees
(its view, spec 8.3) and its legal and penalised discards (a discard that is 包子 ranks last).
``bench/bench_lc_search_bot.py`` measures it against the RuleBot with ``--bot advisor``.

>>> from ._ref.round import Round
>>> from .round_bots import play_hand
>>> r = Round(seed=3)
>>> end = play_hand(r, [AdvisorBot(), AdvisorBot(), AdvisorBot()])
>>> sum(end["deltas"])
0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .advise import advise_seen
from .cards import N_FACES
from .round_bots import RuleBot, _Protocol
from .round_settings import RoundSettings

__all__ = ["AdvisorBot"]


class AdvisorBot(_Protocol):
    """Discards by the advisor; every other decision is the RuleBot's (``settings``: as the RuleBot's,
    read only by a bare :meth:`choose`, which has no hand to take the rules from)."""

    name = "advisor"

    def __init__(self, settings: RoundSettings | None = None) -> None:
        self._rule = RuleBot(settings)

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        return self._advised(self._rule.s, view, legal, penalised, self._rule.choose(view, legal, penalised))

    def choose_in(self, hand: Any, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        choice = self._rule.choose_in(hand, view, legal, penalised)
        return self._advised(hand.settings, view, legal, penalised, choice)

    @staticmethod
    def _advised(settings: RoundSettings, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray,
                 choice: int) -> int:
        """The advisor's best discard when the RuleBot's ``choice`` is a discard, else ``choice``."""
        if view["phase"] != "discard" or choice >= N_FACES:
            return choice
        discards = [int(a) for a in np.flatnonzero(legal) if a < N_FACES]
        advice = advise_seen(view, view["players"], discards, penalised, settings.to_options())
        return advice.best.discard
