"""The mahjong bots: a uniformly random legal-action bot and a greedy shanten bot, and the
engine-side play-out the family-neutral loop of :mod:`mahjong_core.game.bots` hands a round to
when every seat has one of them.

Both bots run in the compiled engine (:mod:`mahjong_core._round`); :func:`play_out_builtin` plays a
whole round there without returning to Python between steps.  Bots see only what a player may
know: their own concealed tiles, the public tiles (:meth:`Round.visible_counts`) and their legal
actions.  The pure-Python reference of both bots is :mod:`mahjong_core.families.mahjong._ref.bots`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ..._round import greedy_act_index
from ...limits import MAX_SEED
from ..._validate import as_int, as_seat, short_repr
from ...errors import IllegalActionError, MahjongError
from .. import registry
from .constants import FAMILY_NAME

if TYPE_CHECKING:  # annotations only
    from .actions import Action
    from .round import Round

__all__ = ["RandomBot", "GreedyBot", "BUILTIN_BOTS", "play_out_builtin"]

_BOT_GREEDY = 0
_BOT_RANDOM = 1


def _not_to_act(rnd: Round, seat: int) -> IllegalActionError:
    return IllegalActionError(f"seat {seat} is not to act now (to act: {rnd.seats_to_act()})")


def _refuse_round(rnd: Any, bot: str) -> MahjongError:
    """The error of a mahjong bot asked to play something that is not a mahjong round: a round of
    another family (UnsupportedError naming it, through the registry) or no round at all."""
    ruleset = getattr(rnd, "ruleset", None)
    if ruleset is not None:
        registry.require_family(ruleset, FAMILY_NAME, bot)
    return MahjongError(f"{bot} plays a mahjong Round, got {short_repr(rnd)}")


class RandomBot:
    """Chooses uniformly among the legal actions: ``legal[rng.integers(len(legal))]`` with its own
    seeded PCG64 generator (``self.rng``; the compiled bot draws from the same generator)."""

    name = "random"

    def __init__(self, seed: "int | None" = None) -> None:
        # checked as every seed of the API is (NumPy's TypeError for "one", its silent acceptance of
        # True or of any size of integer, are not the library's rule)
        seed = None if seed is None else as_int(seed, "seed", 0, MAX_SEED)
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def act_index(self, rnd: Round, seat: int) -> int:
        choice = getattr(rnd, "builtin_bot_choice", None)
        if choice is None:
            raise _refuse_round(rnd, "mj.RandomBot")
        i: int = choice(as_seat(seat, rnd.players), _BOT_RANDOM, self.rng.bit_generator)
        if i < 0:
            raise _not_to_act(rnd, seat)
        return i

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


class GreedyBot:
    """Wins whenever allowed; discards to the lowest shanten, ties broken by the number of live
    tiles that lower it (for a ready hand: the live waits), then by the highest tile; claims
    (pon first, then chi) only when the claim lowers the shanten; kongs when they do not raise it;
    declares 报听 when ready with live waits."""

    name = "greedy"

    @classmethod
    def from_seed(cls, seed: "int | None" = None) -> "GreedyBot":
        """A greedy bot (it draws no random numbers: the seed is accepted and unused), so that every
        bot can be made from a name and a seed (:data:`mahjong_core.families.registry.Family.bots`)."""
        return cls()

    # compiled (mahjong_core._round_api.pxi): on the compiled round with a plain int seat to act it
    # asks the engine's greedy bot directly; anything else goes to _act_index_checked
    act_index = greedy_act_index

    def _act_index_checked(self, rnd: Round, seat: int) -> int:
        if getattr(rnd, "builtin_bot_choice", None) is None:
            raise _refuse_round(rnd, "mj.GreedyBot")
        if type(seat) is not int or not 0 <= seat < rnd.players:
            seat = as_seat(seat, rnd.players)
        i = rnd.builtin_bot_choice(seat, _BOT_GREEDY)
        if i < 0:
            raise _not_to_act(rnd, seat)
        return i

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def _advisor_bot(seed: "int | None" = None) -> Any:
    """The advisor bot (:class:`~.advise_bot.AdvisorBot`: discards by fan-aware shanten)."""
    from .advise_bot import AdvisorBot     # imported when asked for: it builds on GreedyBot
    return AdvisorBot.from_seed(seed)


def _search_bot(seed: "int | None" = None) -> Any:
    """The search bot (:class:`~.search_bot.SearchBot`: determinized Monte Carlo, default budget)."""
    from .search_bot import SearchBot
    return SearchBot.from_seed(seed)


def _ismcts_bot(seed: "int | None" = None) -> Any:
    """The information-set MCTS bot (:class:`~.ismcts_bot.IsmctsBot`, default budget)."""
    from .ismcts_bot import IsmctsBot
    return IsmctsBot.from_seed(seed)


BUILTIN_BOTS: dict[str, Callable[[Any], Any]] = {"greedy": GreedyBot.from_seed, "random": RandomBot,
                                                 "advisor": _advisor_bot, "search": _search_bot,
                                                 "ismcts": _ismcts_bot}
"""The built-in bots by name (greedy and random first, then the stronger advisor and search, then
information-set MCTS): factories taking a seed (None = fresh entropy, an int = reproducible).
``greedy`` and ``random`` play inside the engine (:func:`play_out_builtin`); ``advisor``,
``search`` and ``ismcts`` decide in Python, step by step."""


def play_out_builtin(rnd: Any, bots: Sequence[Any], max_steps: int) -> bool:
    """Play ``rnd`` (the compiled :class:`Round`) to its end inside the engine when every bot is a
    built-in one (exactly :class:`GreedyBot` or :class:`RandomBot`, random bots drawing from their
    own generators); returns False, having done nothing, when some bot is not."""
    kinds = []
    for b in bots:
        t = type(b)
        if t is GreedyBot:
            kinds.append(_BOT_GREEDY)
        elif t is RandomBot:
            kinds.append(_BOT_RANDOM)
        else:
            return False
    rnd.play_out_builtin(kinds, [b.rng.bit_generator if k == _BOT_RANDOM else None
                                 for b, k in zip(bots, kinds)], max_steps)
    return True
