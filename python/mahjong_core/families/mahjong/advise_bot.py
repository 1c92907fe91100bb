"""A bot that discards by the advisor (:func:`~.advise.advise`) and otherwise plays as the greedy bot.

On its turn it asks the greedy bot first: a win, a kong or anything but a discard is kept (the
greedy bot wins whenever allowed); a discard is replaced by the advisor's best discard, computed
from what the seat sees (its view: own hand and melds, every discard, the other players' melds).
Claims are the greedy bot's.  ``bench/bench_advisor_bot.py`` measures it against the greedy bot.
"""

from __future__ import annotations

from typing import Any, Mapping

from ._constants import MELD_KINDS
from .advise import Advice, advise, advise_problem
from .bots import GreedyBot
from .tiles import meld_tiles
from .fan_shanten import Work, _check_max_draws, prepare

__all__ = ["AdvisorBot", "visible_tiles"]


def visible_tiles(view: Mapping[str, Any]) -> list[int]:
    """The tiles a seat sees outside its hand and its own melds, as 34 counts: every discard
    still in a pool (a claimed discard leaves its pool for the meld), and the other players' melds
    (a concealed kong of another player shows no tiles)."""
    seen = [0] * 34
    for pool in view["discards"]:
        for t in pool:
            seen[t] += 1
    for seat, melds in enumerate(view["melds"]):
        for m in melds:
            if seat != view["seat"]:
                for t in m.get("tiles") or ():
                    if isinstance(t, int) and 0 <= t < 34:
                        seen[t] += 1
    return seen


def _own_melds(view: Mapping[str, Any]) -> list[tuple[str, list[int]]]:
    """The seat's own melds (its concealed kongs' tiles included: a seat sees its own)."""
    return [(m["kind"], meld_tiles(MELD_KINDS[m["kind"]], min(m["tiles"]))) for m in view["melds"][view["seat"]]]


class AdvisorBot:
    """Discards by fan-aware shanten (the advisor); every other decision is the greedy bot's."""

    name = "advisor"

    def __init__(self, max_draws: int = 4) -> None:
        self._greedy = GreedyBot()
        self._max_draws = _check_max_draws(max_draws)   # refused here, not at the first discard

    @classmethod
    def from_seed(cls, seed: "int | None" = None) -> "AdvisorBot":
        """An advisor bot (it draws no random numbers: the seed is accepted and unused), so that it
        can be made from a name and a seed like every registered bot (:data:`.bots.BUILTIN_BOTS`)."""
        return cls()

    def advice(self, view: Mapping[str, Any], ruleset: str, *, deadline: "float | None" = None,
               breakdown: bool = True, work: "Work | None" = None) -> Advice:
        """The advisor's answer (:func:`~.advise.advise`: every discard, best first by fan-aware
        shanten, then live effective tiles ...) for the seat of ``view``, on its turn to discard,
        computed from the view alone.  ``deadline`` (a ``time.process_time()`` value),
        ``breakdown`` and ``work``: those of :func:`~.advise.advise_problem` (a search bot's cap
        of CPU time, its count and allowance of the fan search's work; the search bot only ranks
        the discards)."""
        seat = view["seat"]
        counts = [0] * 34
        for t in view["hand"]:           # the drawn tile included
            counts[t] += 1
        winds = {}
        if view.get("seat_winds"):
            winds = {"seat_wind": view["seat_winds"][seat], "round_wind": view["round_wind"]}
        if deadline is None and breakdown and work is None:
            answer: Advice = advise(counts, ruleset=ruleset, melds=_own_melds(view), visible=visible_tiles(view),
                                    min_fan=view["min_fan"], max_draws=self._max_draws, **winds)
            return answer
        prob = prepare(counts, ruleset=ruleset, melds=_own_melds(view), visible=visible_tiles(view),
                       min_fan=view["min_fan"], tiles=14, **winds)
        return advise_problem(prob, self._max_draws, deadline=deadline, breakdown=breakdown, work=work)

    def ranked_discards(self, view: Mapping[str, Any], ruleset: str) -> list[int]:
        """The tiles the seat of ``view`` may discard, best first by the advisor (:meth:`advice`)."""
        return [o.discard for o in self.advice(view, ruleset).options]

    def act_index(self, rnd: Any, seat: int) -> int:
        return self.choose(rnd, seat, self._greedy.act_index(rnd, seat))[0]

    def choose(self, rnd: Any, seat: int, choice: int, *, deadline: "float | None" = None,
               breakdown: bool = True, work: "Work | None" = None) -> "tuple[int, Advice | None]":
        """(the advisor bot's action index, the advice it followed or None when it does not
        discard) given the greedy bot's choice ``choice``: a discard of the greedy bot is replaced
        by the advisor's best legal discard (报听 as the greedy bot chose, when both are legal).
        ``deadline``, ``breakdown``, ``work``: those of :meth:`advice`."""
        action = rnd.decode_action(seat, choice)
        if type(action).__name__ != "Discard":
            return choice, None
        view = rnd.view(seat)
        advice = self.advice(view, rnd.ruleset, deadline=deadline, breakdown=breakdown, work=work)
        ready = getattr(action, "ready", False)
        options: dict[int, dict[bool, int]] = {}
        for i in view["legal_indices"]:
            a = rnd.decode_action(seat, i)
            if type(a).__name__ == "Discard":
                options.setdefault(a.tile, {})[bool(getattr(a, "ready", False))] = i
        for o in advice.options:
            if o.discard in options:
                by_ready = options[o.discard]
                return int(by_ready.get(ready, next(iter(by_ready.values())))), advice
        return choice, advice

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))
