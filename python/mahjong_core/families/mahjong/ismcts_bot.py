"""An information-set MCTS bot: single-observer ISMCTS on the compiled engine.

The other search bot of the family (:mod:`.search_bot`) is flat determinized Monte Carlo: it
weighs a few candidate actions, each played out by greedy bots in the same sampled worlds.  This
one grows a tree of its seat's own decisions (Cowling, Powley and Whitehouse 2012, "Information
Set Monte Carlo Tree Search"): each iteration samples a world of the seat (the round as the seat
sees it, every tile it cannot see dealt again: the search bot's sampler), walks down the tree
choosing among the actions legal in that world by UCB (counting an action's chances by how often
it was legal, not by its node's visits), tries one new action, lets every seat play the greedy bot
to the end, and adds the outcome to the actions of its path.  The other seats play the greedy bot
inside the tree too.  A node is the seat's path of actions, the phase and the tile in question
(drawn, or offered in a claim window); the rest of what happened in between is not told apart.
All of it runs in C (:func:`mahjong_core._round.ismcts_search`), the walk and the play-outs
without the GIL.

At the root the bot weighs, by default (``root="advisor"``), the flat search bot's kind of
candidates: every legal action but the discards, and of the discards the fan-aware advisor's best
and the greedy bot's; with ``root="all"`` every legal action.  With ``widen`` k > 0 (by default
8), a node below the root first tries the greedy bot's action and one more only when it has k
visits per action tried (progressive widening: a node seen a few times plays like the play-out's
policy instead of trying its actions at random; ``widen=0`` tries every action legal there
first).  Without these two (``root="all", widen=0``) the bot is plain ISMCTS, which the
measurements found weaker (docs/guide/search-bots.md).  A win is always taken and a decision with
one legal action is not searched.  The bot plays the root's most visited action (ties: the better
mean, then the lower action index).
Outcome of a play-out, for the seat (``objective``): ``"net"``, +1 when it wins, -1 when it pays
(an opponent wins from its discard or kong, or by self-draw), 0 otherwise; or ``"win"``, 1 when it
wins.

The bot never reads what its seat cannot see: the worlds are built from the seat's view only and
drawn from the bot's own generator (tests/bots/test_ismcts_bot.py swaps the hidden tiles and
checks the decision stays; the conformance check ``bots_blind`` does the same for ``"ismcts"``).
docs/guide/search-bots.md ("Information-set MCTS") has the figures against greedy and against the
flat search bot.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._round import ismcts_search
from ..._validate import as_cap_ms, as_choice, as_int, short_repr
from ...errors import MahjongError
from ...limits import MAX_SEED
from ._constants import A_DISCARD_READY, A_KONG_SELF, A_WIN
from .advise_bot import AdvisorBot
from .bots import GreedyBot, _refuse_round
from .search_bot import OBJECTIVES

if TYPE_CHECKING:  # annotations only
    from .actions import Action
    from .round import Round

__all__ = ["IsmctsBot", "ISMCTS_DEFAULT_STEPS", "ISMCTS_DEFAULT_ITERATIONS", "ISMCTS_OPPONENT_MODELS", "ROOTS"]

ROOTS = ("all", "advisor")
"""The actions an ISMCTS bot weighs at the root (see :class:`IsmctsBot`)."""

ISMCTS_OPPONENT_MODELS = ("history", "uniform")
"""How an ISMCTS bot samples an opponent's hidden hand: the sampler's two models that
:func:`~mahjong_core._round.ismcts_search` takes (its ``history`` flag)."""

ISMCTS_DEFAULT_STEPS = {2: 32_000, 3: 14_000, 4: 9_000}
"""The default budget in steps per decision, by the number of players: the engine steps of the walks
and play-outs, and one step per greedy turn the sampling of a world replays for an opponent's hand
(their CPU time is in proportion; the advisor's ranking adds to it): about the CPU time of the flat
search bot's default budget, or a little less (docs/guide/search-bots.md)."""

ISMCTS_DEFAULT_ITERATIONS = 20_000
"""The default cap of iterations per decision (the step budget is reached first but near a
round's end, where a play-out is a few steps and the sampling of worlds dominates)."""

MAX_ITERATIONS = 1_000_000
"""Largest ``iterations`` budget a bot accepts."""

MAX_STEPS = 100_000_000
"""Largest ``steps`` budget a bot accepts."""


class IsmctsBot:
    """Single-observer information-set MCTS (module docstring).

    ``seed``: the bot's generator (None: fresh entropy); the same seed and the same view give the
    same decision when ``max_ms`` is None.  The budget per decision: ``iterations`` (one sampled
    world, one walk down the tree, one play-out) and ``steps`` (engine steps of the walks and
    play-outs and the greedy turns replayed by the sampling of the worlds; None:
    :data:`ISMCTS_DEFAULT_STEPS` for the round's number of players); the search
    stops at the first iteration that reaches either.  ``max_ms``: an optional cap of CPU
    milliseconds per decision (the decision then depends on the machine's speed, so it is not
    reproducible).  ``c``: the UCB exploration constant (outcomes lie in -1..1).  ``widen``: 0, every
    action legal at a node is tried once before UCB chooses among them; k > 0, below the root the
    greedy bot's action is tried first and one more only when the node's visits reach k per action
    it has tried (progressive widening; the root always tries every action it weighs).  ``root``:
    the actions weighed at the root, ``"all"`` (every legal action) or ``"advisor"`` (every legal
    action but the discards, and of the discards the fan-aware advisor's best ``candidates`` tiles
    and the greedy bot's: the flat search bot's kind of candidates, so that the two searches can be
    compared on the same choices).  ``objective``:
    ``"net"`` or ``"win"``; ``opponents``: ``"history"`` or ``"uniform"``, how an opponent's hidden
    hand is sampled (as :class:`~.search_bot.SearchBot`'s models of those names)."""

    name = "ismcts"

    def __init__(self, seed: "int | None" = None, *, iterations: int = ISMCTS_DEFAULT_ITERATIONS,
                 steps: "int | None" = None, c: float = 0.7, widen: int = 8, root: str = "advisor",
                 candidates: int = 3, objective: str = "net", opponents: str = "history",
                 max_ms: "float | None" = None) -> None:
        seed = None if seed is None else as_int(seed, "seed", 0, MAX_SEED)
        self.iterations = as_int(iterations, "iterations", 1, MAX_ITERATIONS)
        self.steps = None if steps is None else as_int(steps, "steps", 1, MAX_STEPS)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or math.isnan(c) or not 0 <= c <= 100:
            raise MahjongError(f"c must be a number 0-100, got {short_repr(c)}")
        self.c = float(c)
        self.widen = as_int(widen, "widen", 0, 1_000_000)
        self.root = as_choice(root, "root", ROOTS)
        self.candidates = as_int(candidates, "candidates", 1, 34)
        self.objective = as_choice(objective, "objective", OBJECTIVES)
        self.opponents = as_choice(opponents, "opponents", ISMCTS_OPPONENT_MODELS)
        self.max_ms = as_cap_ms(max_ms)
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self._greedy = GreedyBot()
        self._advisor = AdvisorBot()
        self.last: dict[str, Any] = {}
        """What the last decision cost: ``iterations`` (also as ``playouts``), ``steps``, ``nodes``,
        ``cpu_ms``, and the root's ``actions``, ``visits`` and ``means``."""

    @classmethod
    def from_seed(cls, seed: "int | None" = None) -> "IsmctsBot":
        """An ISMCTS bot with the default budget (the registered factory of ``"ismcts"``)."""
        return cls(seed)

    def act_index(self, rnd: Round, seat: int) -> int:
        core = getattr(rnd, "_core", None)
        if getattr(rnd, "builtin_bot_choice", None) is None or core is None:
            raise _refuse_round(rnd, "mj.IsmctsBot")
        greedy = self._greedy.act_index(rnd, seat)      # the seat checked, and to act
        t0 = time.process_time()
        legal = rnd.legal_indices(seat)
        self.last = {"iterations": 0, "playouts": 0, "steps": 0, "nodes": 0, "cpu_ms": 0.0,
                     "actions": list(legal), "visits": [], "means": []}
        if len(legal) == 1 or A_WIN in legal:
            return A_WIN if A_WIN in legal else int(legal[0])
        root = self._root(rnd, seat, legal, greedy) if self.root == "advisor" else None
        if root is not None and len(root) == 1:
            return root[0]
        budget = self.steps if self.steps is not None else ISMCTS_DEFAULT_STEPS[core.P]
        actions, visits, means, its, steps, nodes, _ = ismcts_search(
            core, seat, self.iterations, budget, self.c, self.rng.bit_generator, self.opponents == "history",
            self.objective, self.max_ms or 0.0, self.widen, root)
        # the most visited action; ties: the better mean, then the lower index (actions ascend)
        best = max(range(len(actions)), key=lambda k: (visits[k], means[k], -k))
        self.last = {"iterations": its, "playouts": its, "steps": steps, "nodes": nodes,
                     "cpu_ms": (time.process_time() - t0) * 1000, "actions": actions, "visits": visits,
                     "means": means}
        return int(actions[best])

    def _root(self, rnd: Round, seat: int, legal: list[int], greedy: int) -> list[int]:
        """The root's actions with ``root="advisor"``: every legal action but the discards, and of
        the discards the advisor's best ``self.candidates`` tiles and the greedy bot's, each with and
        without 报听 where both are legal."""
        discards = [i for i in legal if i < A_KONG_SELF]
        if not discards:
            return list(legal)
        tiles = {i % A_DISCARD_READY for i in discards}
        advice = self._advisor.advice(rnd.view(seat), rnd.ruleset)
        keep = {greedy % A_DISCARD_READY} if greedy < A_KONG_SELF else set()
        keep.update([o.discard for o in advice.options if o.discard in tiles][:self.candidates])
        return [i for i in legal if i >= A_KONG_SELF or i % A_DISCARD_READY in keep]

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))
