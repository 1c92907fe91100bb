"""Registers the long-card family's callables with the registry, so that the shared entry points
(``mj.is_win``, ``mj.waits``, ``mj.score`` with ``ruleset="changpai-ydr"``) reach this family.

The hand functions are the compiled ones; the round engine (``new_round``, ``new_match``, bots) and
shanten are not built yet (part 2 of the long-card work) and refuse with a ``RulesetError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from ... import _lc_hand  # bound lazily: _lc_hand may itself be importing this package
from ...errors import RulesetError
from .. import registry
from .ruleset import FAMILY_NAME

if TYPE_CHECKING:
    from .result import Score

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


def _not_built(what: str) -> Callable[..., NoReturn]:
    def refuse(*_args: Any, **_kw: Any) -> NoReturn:
        raise RulesetError(f"changpai-ydr: {what} is not built yet (the long-card round engine is part 2)")
    return refuse


FAMILY = registry.Family(
    FAMILY_NAME, is_win=is_win, waits=waits, shanten=_not_built("shanten"), new_round=_not_built("the round"),
    new_match=_not_built("the match"), bots={}, score=score,
)
registry.register_family(FAMILY)
