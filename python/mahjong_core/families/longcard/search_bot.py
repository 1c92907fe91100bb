"""The long-card search bot (issue 30): determinized Monte Carlo on the compiled engine.

At a decision with two candidates or more (spec 8.2: a DISCARD, a CLAIM window, the 起 decision;
the candidates are the legal actions that incur no 包子, a win and a fold aside) the bot samples
*worlds*: the cards its seat cannot see (the other seats' concealed cards and the undrawn stock)
dealt again at random from what the seat's view (spec 8.3) says is unseen (:func:`determinize`).
In each world it plays every candidate to the end of the hand with the RuleBot of spec 8.5 at every
seat (:meth:`RoundCore.playout`: the compiled engine's built-in bot, a few µs an action), and it
keeps the candidate with the best mean outcome over the worlds (ties: the RuleBot's choice, then
the lowest action id).  Every
candidate is played in the same worlds (common random numbers): the differences between candidates
are measured with far less noise than their values.  A win, a fold (the RuleBot folds a hand that is
not qualified) and the decisions with one candidate (the 偷牌 stage, a turn) are the RuleBot's.

The outcome is whether the seat wins the hand (``objective="wins"``, the default): a playout's win
is 0 or 1 where its points swing with the fan (spec 5), so with the few tens of worlds a decision
affords, the ranking of the candidates by wins is far less noisy, and it scores better on both
measures: over the same 150 duplicate deals at 240 playouts a decision (the default then) it won
+20.0 points of win rate and +1.84 points per hand over the RuleBot, against +14.4 and +1.61 when
ranking by points (``objective="points"``, the seat's points of the hand).

What the bot reads: its view, its legal and penalised actions, the rules (``hand.settings``), and the
engine's copy of the hand (``RoundCore.world``), in which every card its seat cannot see is replaced
by the sampled world and what only the other seats know (their 碰 bars, 过胡 marks, the 起 faces of
another 起 player) is reset.  Its decisions are a function of the view, the seed and the budget: the
no-peeking test (tests/bots/test_lc_search_bot.py) swaps the other seats' cards and the stock order
and finds the same decision.

Budget: ``steps`` of engine work per decision (default :data:`DEFAULT_STEPS`): every action a
playout applies counts one (:meth:`RoundCore.playout` reports them), each playout
:data:`PLAYOUT_STEPS` more and each world :data:`WORLD_STEPS` (sampling and building it); the
search plays whole worlds (every candidate once in each) until the count reaches ``steps``, at
least one world.  A playout from the start of a hand is some 45 actions, one near its end a few:
counted in playouts, the first decisions of a hand cost several times the last ones; counted in
steps, every decision costs about the same.  ``playouts``, optional (None by default), caps the
playouts too: ``playouts // candidates`` worlds at most, at least one.  And ``max_ms``, a cap on
the CPU time (``time.process_time``) of one decision: the search stops after the world in which
the cap is reached.  With ``max_ms`` the decision depends on the machine's speed; without it (the
default) it is reproducible: the same seed and the same view give the same decision.
``bench/bench_lc_search_bot.py`` measures the bot against the RuleBot on duplicate deals.

>>> from .round_engine import CompiledHand
>>> from .round_bots import play_hand
>>> h = CompiledHand(seed=3)
>>> end = play_hand(h, [SearchBot(seed=1, playouts=40), RuleBot(), RuleBot()])
>>> sum(end["deltas"])
0
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..._validate import as_cap_ms, as_choice, is_int, short_repr
from ...errors import MahjongError
from . import _constants as _C
from .cards import CAISHEN, COPIES, N_FACES
from .round_actions import FOLD, HU
from .round_bots import RuleBot, _Protocol
from .round_engine import CompiledHand, new_core
from .round_rules import PLAYERS
from .round_settings import RoundSettings

__all__ = ["DEFAULT_STEPS", "MAX_STEPS", "OBJECTIVES", "PLAYOUT_STEPS", "SEARCHED_PHASES", "WORLD_STEPS", "SearchBot",
           "determinize", "unseen_counts"]

DEFAULT_STEPS = 8_000
"""Engine steps per decision by default (see the module docstring for what counts): the longest
decisions, the first of a hand (the dearest per step), measured 21 ms of one core at best and 33 ms
at worst on the shared machine; the mean is about 18 ms (docs/guide/longcard-bots.md has the
figures; the issue asks for at most 50 ms)."""

MAX_STEPS = 10_000_000
"""The largest ``steps`` a bot accepts (minutes of one core per decision)."""

WORLD_STEPS = 30
"""What sampling and building one world counts, in engine steps: :func:`determinize` and
:meth:`RoundCore.world` take about 75 µs, some 30 steps of a playout (2-4 µs each)."""

PLAYOUT_STEPS = 1
"""What a playout counts beyond its actions, in engine steps: the copy of the world and the call."""

SEARCHED_PHASES = ("qi", "claim", "discard")
"""The decisions the bot may search (spec 8.2; the others offer one action besides a fold)."""

OBJECTIVES = ("wins", "points")
"""What a playout scores for the seat: 1 for a win (the default), or its points of the hand."""


def _deck_size(caishen_count: int) -> int:
    return N_FACES * COPIES + caishen_count


def unseen_counts(view: dict[str, Any], caishen_count: int) -> list[int]:
    """The copies of each card kind (21 faces, then 财神) that the seat of ``view`` (a hand's view,
    spec 8.3) cannot locate: the deck less its own concealed cards, every declared group, every 堂子,
    every 财神 laid out and the card on offer.  They are in the other seats' concealed hands or in the
    undrawn stock."""
    u = [COPIES] * N_FACES + [caishen_count]
    for f, n in enumerate(view["hand"]):
        u[f] -= n
    for pl in view["players"]:
        for g in pl["declared"]:
            for c in g["cards"]:
                u[c] -= 1
        for c in pl["tangzi"]:
            u[c] -= 1
        u[CAISHEN] -= pl["caishen"]
    if view["offer"] is not None:
        u[view["offer"]["card"]] -= 1
    return u


def determinize(view: dict[str, Any], caishen_count: int, rng: np.random.Generator) -> tuple[list[list[int]], list[int]] | None:
    """One world of the seat of ``view``: ``(hands, tail)``, the other seats' concealed cards (21 counts
    per seat; the seat's own row is its hand) and the undrawn stock (front first), dealt from the
    unseen cards (:func:`unseen_counts`) by ``rng``.  The 五门将 cards still in the stock stay where
    every seat saw them (J1 right after the deal, J2 last, spec 4.5); a 财神 is never in a concealed
    hand (it is laid out when received).  None when the view's counts do not add up (no world)."""
    seat = view["seat"]
    u = unseen_counts(view, caishen_count)
    left = int(view["stock_left"])
    pos = _deck_size(caishen_count) - left
    tail: list[int | None] = [None] * left
    jiang = view["jiang"]
    if jiang is not None:
        fixed = []
        if pos <= _C.DEAL * PLAYERS and _C.DEAL * PLAYERS - pos < left:
            fixed.append((_C.DEAL * PLAYERS - pos, int(jiang[0])))
        if left:
            fixed.append((left - 1, int(jiang[1])))
        for i, c in fixed:
            tail[i] = c
            u[c] -= 1
    if min(u) < 0:
        return None
    sizes = [0 if q == seat else int(view["players"][q]["concealed"]) for q in range(PLAYERS)]
    faces = np.repeat(np.arange(N_FACES), u[:N_FACES])
    free = [i for i, c in enumerate(tail) if c is None]
    if len(faces) < sum(sizes) or len(faces) + u[CAISHEN] - sum(sizes) != len(free):
        return None
    faces = rng.permutation(faces)
    hands = []
    k = 0
    for q in range(PLAYERS):
        if q == seat:
            hands.append(list(view["hand"]))
            continue
        hands.append(np.bincount(faces[k:k + sizes[q]], minlength=N_FACES).tolist())
        k += sizes[q]
    rest = rng.permutation(np.concatenate([faces[k:], np.full(u[CAISHEN], CAISHEN, dtype=faces.dtype)]))
    for i, c in zip(free, rest.tolist()):
        tail[i] = c
    return hands, tail  # type: ignore[return-value]  # every position filled


def _core_of(hand: Any) -> Any:
    """The compiled engine's state of ``hand``: its own core, or (a reference hand) a core dealt the
    same stock and stepped through the same actions.  The search reads only the public part of it:
    :meth:`RoundCore.world` replaces every card the seat cannot see."""
    if isinstance(hand, CompiledHand):
        return hand.core
    core = new_core(settings=hand.settings, banker=hand.banker, stock=list(hand.stock))
    for p, a in hand.log:
        core.step(p, a)
    return core


class SearchBot(_Protocol):
    """Determinized Monte Carlo over the candidates of a decision (module docstring).

    ``seed``: an int >= 0 (None: fresh entropy); ``steps``: engine steps per decision, 1 to
    :data:`MAX_STEPS`; ``playouts``: None (no cap) or the most playouts per decision, 1 to 100 000;
    ``max_ms``: None or a CPU-time cap per decision in ms (> 0); ``objective``: one of
    :data:`OBJECTIVES`; ``phases``: None (every one) or the decisions searched, out of
    :data:`SEARCHED_PHASES`; ``settings``: the rules of a bare :meth:`choose` call (as the RuleBot's).
    Bad values raise :class:`~mahjong_core.errors.MahjongError` naming the parameter.

    ``last_playouts``, ``last_steps`` and ``last_ms`` are the playouts, the engine steps counted
    against ``steps`` and the CPU milliseconds of the last decision (0 when it was not searched)."""

    # no ``name`` attribute: simulate() turns a bot object that carries a registered name into that
    # name (the default bot), which would drop this object's budget

    def __init__(self, seed: Any = None, *, steps: Any = DEFAULT_STEPS, playouts: Any = None, max_ms: Any = None,
                 objective: Any = "wins", phases: Any = None, settings: RoundSettings | None = None) -> None:
        if seed is not None and not (is_int(seed) and 0 <= seed < 2**128):
            raise MahjongError(f"seed must be None or an integer 0 to 2**128 - 1, got {short_repr(seed)}")
        if not (is_int(steps) and 1 <= steps <= MAX_STEPS):
            raise MahjongError(f"steps must be an integer 1-{MAX_STEPS}, got {short_repr(steps)}")
        if playouts is not None and not (is_int(playouts) and 1 <= playouts <= 100_000):
            raise MahjongError(f"playouts must be None or an integer 1-100000, got {short_repr(playouts)}")
        max_ms = as_cap_ms(max_ms, hi=600_000)
        as_choice(objective, "objective", OBJECTIVES)
        if phases is not None:
            if isinstance(phases, str) or not isinstance(phases, (list, tuple, set, frozenset)) \
                    or not phases or any(not isinstance(p, str) or p not in SEARCHED_PHASES for p in phases):
                raise MahjongError(f"phases must be None or a non-empty collection of {', '.join(SEARCHED_PHASES)}, "
                                   f"got {short_repr(phases)}")
            phases = frozenset(phases)
        self.phases: frozenset[str] | None = phases
        self._rule = RuleBot(settings)
        self.seed: int = int(seed) if seed is not None else int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]  # an int entropy when none is given
        self.steps = int(steps)
        self.playouts: int | None = None if playouts is None else int(playouts)
        self.max_ms = max_ms
        self.objective = objective
        self.last_playouts = 0
        self.last_steps = 0
        self.last_ms = 0.0

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        """Without a hand there is no engine to play out on: the RuleBot's choice."""
        self.last_playouts, self.last_steps, self.last_ms = 0, 0, 0.0
        return self._rule.choose(view, legal, penalised)

    def choose_in(self, hand: Any, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        self.last_playouts, self.last_steps, self.last_ms = 0, 0, 0.0
        choice = self._rule.choose_in(hand, view, legal, penalised)
        if choice in (HU, FOLD) or (self.phases is not None and view["phase"] not in self.phases):
            return choice                     # a win, a fold: the RuleBot's
        candidates = [int(a) for a in np.flatnonzero(legal & ~penalised) if a not in (HU, FOLD)]
        if len(candidates) < 2 or choice not in candidates:
            return choice
        return self._search(hand, view, candidates, choice)

    def _generator(self, view: dict[str, Any]) -> np.random.Generator:
        """This decision's generator: from the seed and the point of the hand the view shows (the seat,
        the events it saw, the stock left), so a decision does not depend on the bot's earlier ones."""
        key = (int(view["seat"]), len(view["events"]), int(view["stock_left"]))
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=key)))

    def _search(self, hand: Any, view: dict[str, Any], candidates: list[int], fallback: int) -> int:
        start = time.process_time()
        seat = int(view["seat"])
        core = _core_of(hand)
        caishen_count = hand.settings.caishen_count
        rng = self._generator(view)
        wins = self.objective == "wins"
        most = None if self.playouts is None else max(1, self.playouts // len(candidates))
        totals = np.zeros(len(candidates))
        worlds = steps = 0
        while True:
            sample = determinize(view, caishen_count, rng)
            if sample is None:             # pragma: no cover - the view always adds up (tested over many hands)
                break
            world = core.world(seat, *sample)
            steps += WORLD_STEPS
            values = []
            for a in candidates:
                played, winner, deltas = world.copy().playout(seat, a)
                steps += played + PLAYOUT_STEPS
                values.append(winner == seat if wins else deltas[seat])
            totals += values
            worlds += 1
            # the budget is checked between worlds: every candidate is played in the same worlds
            if steps >= self.steps or worlds == most:
                break
            if self.max_ms is not None and (time.process_time() - start) * 1000.0 >= self.max_ms:
                break
        self.last_playouts = worlds * len(candidates)
        self.last_steps = steps
        self.last_ms = (time.process_time() - start) * 1000.0
        if not worlds:                     # pragma: no cover - see above
            return fallback
        best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == fallback, -candidates[i]))
        return candidates[best]
