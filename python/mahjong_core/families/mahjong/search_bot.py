"""A search bot: flat determinized Monte Carlo on the compiled engine.

At each decision with more than one sensible choice the bot samples worlds of its seat -- the
round as the seat sees it, with every tile it cannot see (the opponents' concealed hands and
concealed kongs, the untaken wall) dealt again at random from the tiles it has not seen -- and
plays each candidate action in each world, then every seat by the greedy bot to the end of the
round, all inside the engine (:func:`mahjong_core._round.search_outcomes`).  It keeps its
anchor (by default the greedy bot's action, or the advisor's discard where the greedy bot's is
further from a win with the minimum fan) unless the candidate with the best mean outcome is
``z`` standard errors ahead of it.  The same worlds serve every candidate (common random
numbers: the differences between candidates are measured on the same deals, which cancels most of
the luck), and candidates that fall clearly behind the leader are dropped as the worlds come in,
so the budget goes to the close ones.

Candidates: a win is always taken (nothing scores more); on its turn the bot weighs the
advisor's best discards (:meth:`~.advise_bot.AdvisorBot.ranked_discards`, fan-aware shanten) and
the greedy bot's, each with and without 报听 where both are legal, and every kong; in a claim
window every claim and the pass.

Outcome of a play-out, for the seat (``objective``): ``"net"`` (the default) is +1 when it wins,
-1 when it pays (an opponent wins from its discard or kong, or by self-draw), 0 otherwise; ``"win"``
is 1 when it wins, else 0.  ``"net"`` is the default because a play-out that only counts wins
cannot tell a safe discard from one that deals in: both are 0, while the opponent's win is also
the seat's loss (in a two-player game exactly so).  See docs/guide/search-bots.md for the figures.

The bot never reads what its seat cannot see: the worlds are built from the seat's own tiles,
the shown tiles, the hand sizes, the 报听 declared and the wall's shape only, and seeded by the
bot's own generator (tests/bots/test_mj_search_bot.py swaps the hidden tiles and checks the decision stays).
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._round import search_outcomes
from ..._validate import as_cap_ms, as_choice, as_int, short_repr
from ...errors import MahjongError
from ...limits import MAX_SEED
from ._constants import A_DISCARD_READY, A_KONG_SELF, A_WIN
from .advise_bot import AdvisorBot
from .bots import GreedyBot, _refuse_round
from .fan_shanten import Work
from .opponent_model import RULESETS as LEARNED_RULESETS
from .opponent_model import load_model, resample_pool, sample_pool

if TYPE_CHECKING:  # annotations only
    from .actions import Action
    from .round import Round

__all__ = ["SearchBot", "ANCHORS", "DEFAULT_OPPONENTS", "DEFAULT_STEPS", "OBJECTIVES", "OPPONENT_MODELS"]

OBJECTIVES = ("net", "win")
"""The outcomes a search bot may maximise (see the module docstring)."""

ANCHORS = ("auto", "advisor", "greedy", "none")
"""The action a search bot keeps unless the search finds a better one (see :class:`SearchBot`)."""

OPPONENT_MODELS = ("history", "uniform", "discards", "learned")
"""How a search bot samples an opponent's hidden hand (see :class:`SearchBot`)."""

DEFAULT_OPPONENTS = {2: "history", 3: "history", 4: "history"}
"""The opponent model of a search bot made with ``opponents=None``, by the number of players
(docs/guide/search-bots.md has the figures that chose them)."""

MAX_PLAYOUTS = 1_000_000
"""Largest ``playouts`` budget a bot accepts (a minute or more of one core per decision)."""

MAX_STEPS = 100_000_000
"""Largest ``steps`` budget a bot accepts."""

DEFAULT_STEPS = {2: 20_000, 3: 10_000, 4: 8_000}
"""The default budget in engine steps per decision, by the number of players: a two-player
round is short and its play-outs cheap, a four-player decision also pays for the advisor's
ranking; each is meant to keep a decision under 50 ms of one core, reproducibly (no clock read).
The advisor's fan search counts against it beyond :data:`ADVISOR_FREE_WORK` and is bounded
(bench/bench_decision_time.py measures the longest decisions; docs/guide/search-bots.md has the
figures)."""

ADVISOR_SHARE = 0.5
"""The share of ``max_ms`` after which the advisor's fan search (which ranks the candidate
discards) stops raising its search limit, leaving the rest to the play-outs; and the share of
the budget of steps that its work may take beyond :data:`ADVISOR_FREE_WORK`."""

WORK_STEPS = 0.5
"""Engine steps counted per unit of the advisor's fan-search work
(:class:`~.fan_shanten.Work`: a complete hand enumerated, ten checks of one against a candidate
hand, or a quarter of a (hand, winning tile) pair scored): their CPU times are about in that
ratio (0.6-0.7 µs a unit against 1.2 µs a step of a two-player play-out, fitted over the
decisions of 40 seeded rounds on a loaded machine)."""

ADVISOR_FREE_WORK = 20_000
"""The fan-search work a decision does within its budget of steps, not counted: the default
budgets were set with the advisor's usual cost included (most decisions do less than this).
Work beyond it is taken off the play-outs' steps, at :data:`WORK_STEPS` each, and the fan search
may do at most this plus :data:`ADVISOR_SHARE` of the budget in work: on a rare hand whose
first search limit has more completions than that, the advisor ranks the discards by plain
shanten and live tiles instead (:func:`~.advise.advise_problem`), so a decision's cost is
bounded without a clock."""

DISCARD_WEIGHTS = (0.5, 0.7, 0.85, 0.1)
"""The weights of ``opponents="discards"``: a tile of the kind of one of the opponent's discards,
one next to it in its suit, one two apart, and the least weight of a kind
(:func:`mahjong_core._round.search_outcomes`)."""

READY_WEIGHT = 0.1
"""How likely a sampled opponent hand that is ready, and was not declared where 报听 may go with any
discard (``two-player-bamboo``), is kept (else dealt again): a player who declares as soon as he
can, as the greedy bot does, is seldom ready before he declares; not 0, for one who waits
(:func:`mahjong_core._round.search_outcomes`; a declared hand is always dealt ready).  Used by the
opponent models ``"history"`` and ``"discards"``."""

LAST_WEIGHT = 0.1
"""How likely a sampled opponent hand is kept (else dealt again) in a two-player round when the
discard he has just made was not one of his best with it (the tile would have brought that hand
nearer a win: the greedy bot keeps such a tile) (:func:`mahjong_core._round.search_outcomes`).
Used by the opponent models ``"history"`` and ``"discards"``."""

PAST_WEIGHT = 1.0
"""How likely a sampled opponent hand is kept (else dealt again) in a two-player round, per
earlier discard of his (all but the last) that would lower its shanten: a greedy player throws
what he does not need (:func:`mahjong_core._round.search_outcomes`).  1: no such weight."""

PASS_WEIGHT = 1.0
"""How likely a sampled opponent hand is kept in a two-player round, per one of the seat's last
:data:`PASS_DEPTH` discards (each of which he passed on) that the hand waits on: a greedy player
wins whenever he may, and a ready greedy hand seldom changes.  1: no such weight."""

PASS_DEPTH = 0
"""How many of the seat's latest discards :data:`PASS_WEIGHT` looks at."""

WORLD_STEPS = 5
"""What sampling one world costs, in engine steps, per opponent (his hand dealt and improved, the
wall shuffled): counted in the budget, so that a decision near the end of the round, whose
play-outs are a few steps long, does not sample thousands of worlds."""

TURN_STEPS = 1
"""What each greedy turn replayed in an opponent's sampled hand costs, in engine steps (the
``"history"`` and ``"discards"`` models improve his hand by as many greedy turns as he has taken,
up to 40, each a greedy decision as in a play-out): counted for every world on top of
:data:`WORLD_STEPS`, so that a decision late in a four-player round, where each world replays
some sixty turns, samples fewer worlds rather than taking two or three times its budget's time."""

LEARNED_POOL = 128
"""With ``opponents="learned"``: the opponent hands dealt by ``"history"`` once per decision, then
weighted toward the learned model's prediction (:func:`.opponent_model.resample_pool`); each world
deals him one of them by those weights.  Each counts in the budget as a world of ``"history"``."""

MAX_HISTORY = 40
"""The most greedy turns the engine replays per opponent hand (``_round_search.pxi``)."""

MIN_WORLDS = 16
"""Worlds before a standard error is trusted (a few worlds may all agree by chance: an error of 0)."""

# value of each outcome code of search_outcomes (0 draw, 1 won, 2 paid, 3 another won) per objective
_VALUES = {"net": np.array([0, 1, -1, 0], dtype=np.float64), "win": np.array([0, 1, 0, 0], dtype=np.float64)}


def _paired(total: np.ndarray, cross: np.ndarray, n: int, a: int, b: int) -> tuple[float, float]:
    """Mean and standard error of the per-world difference ``a - b`` over ``n`` worlds, from the
    running sums of the values (``total``) and of their products (``cross``)."""
    s = total[a] - total[b]
    ss = cross[a, a] - 2 * cross[a, b] + cross[b, b]
    var = max(ss - s * s / n, 0.0) / (n - 1) if n > 1 else 0.0
    return s / n, math.sqrt(var / n)


class SearchBot:
    """Flat determinized Monte Carlo over the advisor's candidate actions (module docstring).

    ``seed``: the bot's generator (None: fresh entropy); the same seed and the same view give the
    same decision when ``max_ms`` is None.  The budget per decision: ``steps``, engine steps of
    the play-outs (what their CPU time is in proportion to, whatever the moment of the round;
    None: :data:`DEFAULT_STEPS` for the round's number of players), and ``playouts`` (one
    candidate played to the end in one world); the search stops at the first batch of worlds
    that reaches either; the advisor's fan search (which ranks the discards) counts against
    ``steps`` beyond :data:`ADVISOR_FREE_WORK` units of its work, at :data:`WORK_STEPS` a unit,
    and may do at most that plus :data:`ADVISOR_SHARE` of ``steps`` (a hand whose search would do
    more is ranked by plain shanten).  ``candidates``: how many of the advisor's best discards are weighed
    (the greedy bot's discard is always among them).  ``objective``: ``"net"`` or ``"win"``.
    ``opponents``: how an opponent's hidden hand is sampled, ``"history"`` (a uniform hand
    improved by as many greedy turns as he has taken: a player who has played a while has kept
    his useful tiles), ``"discards"`` (the same, each tile drawn away from the kinds he discarded
    and their neighbours, :data:`DISCARD_WEIGHTS`), ``"learned"`` (two players, where a learned
    model is shipped, else ``"history"``: :data:`LEARNED_POOL` hands of ``"history"`` weighted toward
    the prediction of :mod:`.opponent_model` from the seat's view, each world dealing him one of
    them) or ``"uniform"`` (any unseen tiles); None:
    :data:`DEFAULT_OPPONENTS` for the round's number of players.  ``anchor``: the action played unless
    the search shows another ``z`` standard errors better, ``"advisor"`` (the advisor bot's),
    ``"greedy"`` (the greedy bot's), ``"auto"`` (the advisor's discard where the greedy bot's is
    further from a win with the minimum fan, in fan-aware shanten, else the greedy bot's action)
    or ``"none"`` (the best mean wins outright).  ``batch``: worlds sampled between two looks at
    the figures (from 16 worlds on, a candidate ``z`` standard errors behind the leader is
    dropped; the search stops when one is left).  ``max_ms``: an optional cap of CPU
    milliseconds per decision (None, the default: none): the search stops at the first batch that
    would start past it, and the advisor's ranking of the discards stops deepening past half of it
    (its first search limit is always searched); a decision the cap cuts depends on the machine's
    speed (``last["capped"]`` says so), any other is reproducible."""

    name = "search"

    def __init__(self, seed: "int | None" = None, *, steps: "int | None" = None, playouts: int = 4000,
                 candidates: int = 3, objective: str = "net", opponents: "str | None" = None, anchor: str = "auto",
                 batch: int = 8, z: float = 2.0, max_ms: "float | None" = None) -> None:
        seed = None if seed is None else as_int(seed, "seed", 0, MAX_SEED)
        self.steps = None if steps is None else as_int(steps, "steps", 1, MAX_STEPS)
        self.playouts = as_int(playouts, "playouts", 1, MAX_PLAYOUTS)
        self.candidates = as_int(candidates, "candidates", 1, 34)
        self.batch = as_int(batch, "batch", 1, 10_000)
        self.opponents = as_choice(opponents, "opponents", OPPONENT_MODELS, none=True)
        self.anchor = as_choice(anchor, "anchor", ANCHORS)
        self.objective = as_choice(objective, "objective", OBJECTIVES)
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not 0 <= z <= 10 or math.isnan(z):
            raise MahjongError(f"z must be a number 0-10, got {short_repr(z)}")
        self.z = float(z)
        self.max_ms = as_cap_ms(max_ms)
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.discard_weights = DISCARD_WEIGHTS
        self.ready_weight = READY_WEIGHT
        self.last_weight = LAST_WEIGHT
        self.past_weight = PAST_WEIGHT
        self.pass_weight = PASS_WEIGHT
        self.pass_depth = PASS_DEPTH
        self._greedy = GreedyBot()
        self._advisor = AdvisorBot()
        self.last: dict[str, Any] = {}
        """What the last decision cost: ``candidates``, ``worlds``, ``playouts``, ``steps``, ``cpu_ms``,
        ``capped``: whether the cap of CPU time was reached (the search, or the advisor's ranking,
        cut short), and ``advisor_work``: the advisor's fan-search work
        (:class:`~.fan_shanten.Work`; what passes :data:`ADVISOR_FREE_WORK` came off ``steps``)."""

    @classmethod
    def from_seed(cls, seed: "int | None" = None) -> "SearchBot":
        """A search bot with the default budget (the registered factory of ``"search"``)."""
        return cls(seed)

    def _candidates(self, rnd: Round, seat: int, legal: list[int], greedy: int,
                    deadline: "float | None", work: "Work | None" = None) -> tuple[list[int], int]:
        """(the actions weighed, ascending; the anchor among them): everything but discards, and
        of the discards the advisor's best ``self.candidates`` tiles, the greedy bot's and the
        anchor's, each with and without 报听 where both are legal.  ``deadline``: the advisor's
        (``time.process_time()``), None for none; ``work``: the count and allowance of its fan
        search's work."""
        advised, advice = self._advisor.choose(rnd, seat, greedy, deadline=deadline, breakdown=False, work=work)
        anchor = greedy if self.anchor in ("greedy", "none") else advised
        if self.anchor == "auto" and advice is not None and greedy < A_KONG_SELF:
            # the advisor's discard only where the greedy bot's is slower to a win with the fans
            fan = {o.discard: (o.fan_shanten, not o.fan_exact) for o in advice.options}
            if fan.get(greedy % A_DISCARD_READY) == fan.get(advised % A_DISCARD_READY):
                anchor = greedy
        discards = [i for i in legal if i < A_KONG_SELF]
        if not discards:
            return legal, anchor
        if advice is None:          # the greedy bot kongs: the discards still need the advisor's rank
            advice = self._advisor.advice(rnd.view(seat), rnd.ruleset, deadline=deadline, breakdown=False, work=work)
        keep = {a % A_DISCARD_READY for a in (greedy, anchor) if a < A_KONG_SELF}
        tiles = {i % A_DISCARD_READY for i in discards}
        keep.update([o.discard for o in advice.options if o.discard in tiles][:self.candidates])
        return [i for i in legal if i >= A_KONG_SELF or i % A_DISCARD_READY in keep], anchor

    def act_index(self, rnd: Round, seat: int) -> int:
        core = getattr(rnd, "_core", None)
        if getattr(rnd, "builtin_bot_choice", None) is None or core is None:
            raise _refuse_round(rnd, "mj.SearchBot")
        t0 = time.process_time()
        greedy = self._greedy.act_index(rnd, seat)      # the seat checked, and to act
        legal = rnd.legal_indices(seat)
        self.last = {"candidates": 1, "worlds": 0, "playouts": 0, "steps": 0, "cpu_ms": 0.0, "capped": False,
                     "advisor_work": 0}
        if len(legal) == 1 or A_WIN in legal:
            return A_WIN if A_WIN in legal else legal[0]
        deadline = None if self.max_ms is None else t0 + self.max_ms / 1000
        advisor_deadline = None if self.max_ms is None else t0 + ADVISOR_SHARE * self.max_ms / 1000
        budget = self.steps if self.steps is not None else DEFAULT_STEPS[core.P]
        work = Work(ADVISOR_FREE_WORK + int(ADVISOR_SHARE * budget / WORK_STEPS))
        cands, anchor = self._candidates(rnd, seat, legal, greedy, advisor_deadline, work)
        capped = advisor_deadline is not None and time.process_time() >= advisor_deadline
        self.last["advisor_work"] = work.done
        if len(cands) == 1:
            self.last["capped"] = capped
            return cands[0]
        budget -= math.ceil(max(0, work.done - ADVISOR_FREE_WORK) * WORK_STEPS)
        model = self._model(rnd, seat, core.P)   # decided once: the pool, a world's cost, the search
        pool = self._learned_pool(rnd, core, seat) if model == "learned" else None
        choice, worlds, played, steps, cut = self._search(core, seat, cands, anchor, deadline, budget,
                                                          self._world_steps(rnd, seat, core.P, model),
                                                          model, pool)
        self.last = {"candidates": len(cands), "worlds": worlds, "playouts": played, "steps": steps,
                     "cpu_ms": (time.process_time() - t0) * 1000, "capped": capped or cut,
                     "advisor_work": work.done}
        return choice

    def _model(self, rnd: Round, seat: int, players: int) -> str:
        """The opponent model of this decision: ``"learned"`` falls back to ``"history"`` where no
        learned model is shipped (a round of more than two players, a ruleset without one) or
        where his hand is not one that waits (14 tiles: the 天听 window of the deal)."""
        model = self.opponents if self.opponents is not None else DEFAULT_OPPONENTS[players]
        if model == "learned" and (players != 2 or rnd.ruleset not in LEARNED_RULESETS
                                   or rnd.concealed_size(1 - seat) % 3 != 1):
            return "history"
        return model

    def _learned_pool(self, rnd: Round, core: Any, seat: int) -> "tuple[np.ndarray, np.ndarray, int]":
        """For a decision whose model is ``"learned"``: (:data:`LEARNED_POOL` hands of his dealt by
        ``"history"``, their weights toward the learned model's prediction from the seat's view,
        what dealing them cost in steps)."""
        pool = sample_pool(core, seat, LEARNED_POOL, self.rng.bit_generator)
        weights = resample_pool(load_model(rnd.ruleset), rnd.view(seat), rnd.ruleset, pool)
        return pool, weights, LEARNED_POOL * self._world_steps(rnd, seat, core.P, "history")

    def _world_steps(self, rnd: Round, seat: int, players: int, model: "str | None" = None) -> int:
        """What sampling one world counts in engine steps: :data:`WORLD_STEPS` per opponent, and
        with an opponent model that replays his turns, :data:`TURN_STEPS` per turn replayed (the
        discards he has made, public: those in his pool and those claimed from it); with
        ``"learned"`` a world deals him a hand of the pool, dealt and counted before."""
        model = model or self._model(rnd, seat, players)
        cost = WORLD_STEPS * (players - 1)
        if model in ("uniform", "learned"):
            return cost
        view = rnd.view(seat)
        for s in range(players):
            if s != seat:
                claimed = sum(1 for k, melds in enumerate(view["melds"]) if k != s
                              for m in melds if m.get("from") == s and m["kind"] != "ckong")
                cost += TURN_STEPS * min(len(view["discards"][s]) + claimed, MAX_HISTORY)
        return cost

    def _search(self, core: Any, seat: int, cands: list[int], anchor: int,
                deadline: "float | None", budget: int, world_steps: int, model: str,
                pool: "tuple[np.ndarray, np.ndarray, int] | None" = None) -> tuple[int, int, int, int, bool]:
        """(the chosen candidate, worlds sampled, play-outs played, engine steps taken, whether
        the CPU clock passed ``deadline`` before the budget was spent), within ``budget`` engine
        steps, a world counting ``world_steps``: worlds
        in batches, every candidate still in the race played in each; a candidate whose paired
        difference to the leader is ``z`` standard errors below zero leaves the race.  The anchor
        is chosen unless the leader is ``z`` standard errors ahead of it (or it left the race).
        ``model``: the decision's opponent model (:meth:`_model`); ``pool``: with ``"learned"``, :meth:`_learned_pool` (each world deals him one of
        its hands by its weights; its cost is the first of the steps taken)."""
        values = _VALUES[self.objective]
        live = list(range(len(cands)))
        # running sums over the worlds of each candidate's value and of the products of two
        # candidates' values: the paired differences' means and variances without keeping the
        # worlds (a live candidate has been played in every world so far)
        total = np.zeros(len(cands))
        cross = np.zeros((len(cands), len(cands)))
        played = worlds = steps = 0
        cut = False
        weights = self.discard_weights if model == "discards" else None
        if pool is not None:
            steps = pool[2]
        while True:
            n = self.batch
            if worlds >= 4 * self.batch:
                # later looks every quarter of the worlds so far (fewer calls, the same worlds),
                # but no more worlds than the steps left are likely to pay for
                n = max(n, min(worlds // 4, math.ceil((budget - steps) * worlds / max(steps, 1))))
            n = min(n, (self.playouts - played) // len(live))
            if n <= 0 or steps >= budget:
                break
            if deadline is not None and time.process_time() >= deadline:
                cut = True
                break
            out, _, used = search_outcomes(core, seat, [cands[c] for c in live], n, self.rng.bit_generator,
                                           model != "uniform", discard_weights=weights,
                                           ready_weight=1.0 if model == "uniform" else self.ready_weight,
                                           last_weight=1.0 if model == "uniform" else self.last_weight,
                                           past_weight=1.0 if model == "uniform" else self.past_weight,
                                           pass_weight=1.0 if model == "uniform" else self.pass_weight,
                                           pass_depth=0 if model == "uniform" else self.pass_depth,
                                           opponent_hands=None if pool is None else
                                           pool[0][self.rng.choice(len(pool[0]), n, p=pool[1])])
            block = np.zeros((len(cands), n))
            block[live] = values[out]
            total += block.sum(axis=1)
            cross += block @ block.T
            played += n * len(live)
            steps += used + n * world_steps
            worlds += n
            if worlds >= max(2 * self.batch, MIN_WORLDS):
                live = self._race(total, cross, worlds, live)
            if len(live) == 1:
                break
        if worlds == 0:
            return anchor, worlds, played, steps, cut
        lead = max(live, key=lambda c: (total[c], -c))       # the first of the best: the lowest index
        a = cands.index(anchor)
        if a not in live or self.anchor == "none":
            return cands[lead], worlds, played, steps, cut
        mean, se = _paired(total, cross, worlds, lead, a)
        ahead = worlds >= MIN_WORLDS and mean > self.z * se
        return (cands[lead] if ahead else anchor), worlds, played, steps, cut

    def _race(self, total: np.ndarray, cross: np.ndarray, n: int, live: list[int]) -> list[int]:
        """The candidates still in the race after ``n`` worlds (``total``, ``cross``: the running
        sums of :meth:`_search`); a dropped candidate is never looked at again."""
        lead = max(live, key=lambda c: (total[c], -c))
        keep = []
        for c in live:
            mean, se = _paired(total, cross, n, lead, c)
            if c == lead or not mean > self.z * se:
                keep.append(c)
        return keep

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))
