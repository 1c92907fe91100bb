"""Registers the long-card family's callables with the registry, so that the shared entry points
(``mj.is_win``, ``mj.waits``, ``mj.score`` with ``ruleset="changpai-ydr"``) reach this family.

The hand functions are the compiled ones; ``new_round`` is the hand engine (:mod:`.round_ref`, its
counting compiled) and ``bots`` its bots (:mod:`.round_bots`); ``new_match`` the match of hands under
the shared round API (:mod:`.round_match`); ``round_class`` and ``match_class`` the hand and the match under
the shared API (:class:`.round_match.LongcardRound`, :class:`.round_match.LongcardMatch`: what ``mj.Round``,
``mj.Match`` and ``load_state`` build for a long-card ruleset); shanten is not offered and refuses with an
``UnsupportedError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from ... import _lc_hand  # bound lazily: _lc_hand may itself be importing this package
from ...errors import RulesetError, UnsupportedError
from .. import registry
from .ruleset import FAMILY_NAME

if TYPE_CHECKING:
    from .result import Score
    from .round_bots import RandomBot, RuleBot
    from .round_match import LongcardMatch, LongcardRound
    from .round_ref import Round

__all__ = ["FAMILY"]


def _check(ruleset: Any) -> None:
    if registry.get_ruleset(ruleset).family != FAMILY_NAME:
        raise RulesetError(f"{ruleset!r} is not a long-card ruleset")


def is_win(hand: Any, *, ruleset: Any = "changpai-ydr", **options: Any) -> bool:
    """:func:`mahjong_core.families.longcard.is_win` under the registry's calling convention."""
    _check(ruleset)
    return _lc_hand.is_win(hand, **options)


def waits(hand: Any, *, ruleset: Any = "changpai-ydr", **options: Any) -> list[int]:
    """:func:`mahjong_core.families.longcard.waits` under the registry's calling convention."""
    _check(ruleset)
    return _lc_hand.waits(hand, **options)


def score(hand: Any, win_card: Any = None, *, ruleset: Any = "changpai-ydr", melds: Any = (), **options: Any) -> Score:
    """:func:`mahjong_core.families.longcard.score`; ``melds`` are the declared groups."""
    _check(ruleset)
    return _lc_hand.score(hand, win_card, declared=melds, **options)


def new_round(*, ruleset: Any = "changpai-ydr", seed: Any = None, **options: Any) -> Round:
    """A fresh hand of the reference engine (:class:`.round_ref.Round`); ``options`` are the keys of
    spec section 6 (``banker=``, ``stock=`` and ``settings=`` pass through)."""
    _check(ruleset)
    from .round_ref import Round

    passthrough = {k: options.pop(k) for k in ("banker", "stock", "settings") if k in options}
    return Round(seed, options=options or None, **passthrough)


def new_match(*, ruleset: Any = "changpai-ydr", seed: Any = None, **kw: Any) -> LongcardMatch:
    """A match of hands with the banker rules (:class:`.round_match.LongcardMatch`, the shared match):
    ``rounds``, ``first_dealer``, ``options``, ``auto_advance`` as for the shared match."""
    _check(ruleset)
    from .round_match import LongcardMatch
    return LongcardMatch(ruleset, seed, **kw)


def _random_bot(seed: Any = None) -> RandomBot:
    from .round_bots import RandomBot

    return RandomBot(seed)


def _greedy_bot(seed: Any = None) -> RuleBot:
    """The RuleBot of spec 8.5 (deterministic: the seed is accepted and unused)."""
    from .round_bots import RuleBot

    return RuleBot()


def _not_offered(what: str) -> Callable[..., NoReturn]:
    """An entry point the family does not offer: the one documented error of the registry."""
    def refuse(*_args: Any, **_kw: Any) -> NoReturn:
        raise UnsupportedError(f"{what}: the {FAMILY_NAME} family ({', '.join(registry.ruleset_names(FAMILY_NAME))}) "
                               f"does not offer {what} (it offers is_win, waits, score, rounds, matches and simulate)")
    return refuse


class _Simulation:
    """``Family.simulation``: the hooks of :mod:`.simulation`, imported when a run asks for them."""

    @property
    def result_type(self) -> Any:
        from .simulation import LongcardSimulationResult
        return LongcardSimulationResult

    @property
    def play_batch(self) -> Any:
        from .simulation import play_batch
        return play_batch


def _round_class() -> type[LongcardRound]:
    from .round_match import LongcardRound
    return LongcardRound


def _match_class() -> type[LongcardMatch]:
    from .round_match import LongcardMatch
    return LongcardMatch


FAMILY = registry.Family(
    FAMILY_NAME, is_win=is_win, waits=waits, shanten=_not_offered("shanten"), new_round=new_round,
    new_match=new_match, bots={"random": _random_bot, "greedy": _greedy_bot}, score=score,
    simulation=_Simulation(), round_class=_round_class, match_class=_match_class,
)
registry.register_family(FAMILY)
