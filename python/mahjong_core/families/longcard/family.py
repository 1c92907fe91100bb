"""Registers the long-card family's callables with the registry, so that the shared entry points
(``mj.is_win``, ``mj.waits``, ``mj.score`` with ``ruleset="changpai-ydr"``) reach this family.

The hand functions are the compiled ones; ``new_round`` is the hand engine (:mod:`._ref.round`, its
counting compiled) and ``bots`` its bots (:mod:`.round_bots`: ``random``, ``greedy`` the RuleBot;
:mod:`.advise_bot`: ``advisor``; :mod:`.search_bot`: ``search``); ``new_match`` the match of hands under
the shared round API (:mod:`.round_match`); ``round_class`` and ``match_class`` the hand and the match under
the shared API (:class:`.round_match.LongcardRound`, :class:`.round_match.LongcardMatch`: what ``mj.Round``,
``mj.Match`` and ``load_state`` build for a long-card ruleset); ``shanten`` is the "cards to a win"
distance minus one (:mod:`.distance`).  Importing it registers the family's settlement profiles and preset room
(:mod:`.settlement`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ... import _lc_hand  # bound lazily: _lc_hand may itself be importing this package
from ...errors import RulesetError, TileCountError
from .. import registry
from ..hooks import CliHooks, SimulationHooks, family_command, int_in
from .hand_layer import HAND_LAYER
from .options import RULESET
from .ruleset import FAMILY_NAME
from . import settlement  # noqa: F401 - registers the family's settlement profiles and preset room
from .server_table import SERVER

if TYPE_CHECKING:
    from .result import Score
    from .advise_bot import AdvisorBot
    from .round_bots import RandomBot, RuleBot
    from .search_bot import SearchBot
    from .round_match import LongcardMatch, LongcardRound
    from ._ref.round import Round

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


def shanten(hand: Any, *, ruleset: Any = "changpai-ydr", **options: Any) -> int:
    """:func:`.distance.shanten`: the "cards to a win" distance minus one (-1 a win, 0 ready);
    ``declared=``, ``dead=``, ``banker=`` and the win options pass through.  A hand whose win is out
    of reach (possible only with declared groups or dead copies) is ``None`` in :mod:`.distance`;
    here, where the shared convention is an int, a :class:`~mahjong_core.errors.TileCountError`."""
    _check(ruleset)
    from .distance import shanten as distance_shanten
    value = distance_shanten(hand, **options)
    if value is None:
        raise TileCountError("shanten: no winning hand can be reached with the copies left (declared and dead)")
    return value


def new_round(*, ruleset: Any = "changpai-ydr", seed: Any = None, **options: Any) -> Round:
    """A fresh hand of the reference engine (:class:`._ref.round.Round`); ``options`` are the keys of
    spec section 6 (``banker=``, ``stock=`` and ``settings=`` pass through)."""
    _check(ruleset)
    from ._ref.round import Round

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


def _advisor_bot(seed: Any = None) -> AdvisorBot:
    """The advisor bot (:mod:`.advise_bot`: discards by the advisor, else the RuleBot; deterministic:
    the seed is accepted and unused)."""
    from .advise_bot import AdvisorBot

    return AdvisorBot()


def _search_bot(seed: Any = None) -> SearchBot:
    """The search bot (:mod:`.search_bot`: determinized Monte Carlo) with its default budget."""
    from .search_bot import SearchBot

    return SearchBot(seed)


def _result_type() -> type:
    from .simulation import LongcardSimulationResult
    return LongcardSimulationResult


def _play_batch() -> Callable[..., None]:
    from .simulation import play_batch
    return play_batch


def _plot() -> Callable[..., Any]:
    from .simulation_plots import plot_longcard_result

    def plot(result: Any, path: Any, top: int = 25) -> Any:   # the fan sources are few: all shown
        return plot_longcard_result(result, path)
    return plot


# ``Family.simulation``: the hooks of .simulation and .simulation_plots, imported when a run asks
SIMULATION = SimulationHooks(_result_type, _play_batch, _plot)


def _advise_options() -> Any:
    """The ``advise`` options of the family (imported when the parser is built)."""
    from .advise_cli import OPTIONS
    return OPTIONS


# ``Family.cli``: the options, help fragments and examples of the shared commands for changpai-ydr
_PACKAGE = __name__.rpartition(".")[0]   # the family's package: its cli module is <package>.cli

CLI = CliHooks(
    commands={name: family_command(_PACKAGE, name) for name in ("hand", "score", "match", "play", "advise")},
    options={
        "hand": [(("--banker",), {"action": "store_true", "help": f"{RULESET}: the player is the banker (34 陀)"})],
        "score": [(("--banker",), {"action": "store_true", "help": f"{RULESET}: the winner is the banker (34 陀)"}),
                  (("--jiang",), {"default": None, "help": f'{RULESET}: the two 五门将 cards J1 J2, e.g. "36 25"'}),
                  (("--caishen",), {"type": int_in(0, 10), "default": 0,
                                    "help": f"{RULESET}: 财神 laid out by the winner"})],
        "advise": _advise_options,
    },
    help={
        "hand.tiles": f'{RULESET}: 20 or 21 cards "11 66 44 16 ..."',
        "score.melds": f'{RULESET}: "peng 66 66 66", "sha 44×4", "chi 46 46 13", "tuhuo_xiang 56×5" ...',
        "simulate.rounds": f"hands of {RULESET}",
        "simulate.min_fan": f"{RULESET} has none",
        "simulate.csv": f"{RULESET}: fan sources",
        "match.rounds": f"hands of {RULESET}",
        "match.room": "changpai for 长牌",
        "play": f"a {RULESET} hand against two",
        "play.seat": f"2 only in {RULESET}, whose banker the seed draws",
    },
    examples={
        "score": ['mahjong-core score "46 46 13 16 34 25 14 14 55 55 55" --win 36 --melds "peng 11×3" "sha 44×4" '
                  f'"sha 66×4" --ruleset {RULESET} --jiang "36 25"'],
        "simulate": [f"mahjong-core simulate --ruleset {RULESET} -n 200 --bots greedy,random,random --seed 1"],
        "match": [f"mahjong-core match --ruleset {RULESET} --rounds 3 --bots greedy,random,random --seed 1"],
        "tournament": [f"mahjong-core tournament --ruleset {RULESET} --bots greedy,random,random --deals 4 --json"],
        "play": [f"mahjong-core play --ruleset {RULESET} --seed 7 --seat 2"],
        "advise": ['mahjong-core advise "46 46 13 16 34 25 14 14 55 55 55 22" --melds "peng 11×3" "sha 44×4" '
                   f'"sha 66×4" --jiang "36 25" --ruleset {RULESET}'],
    },
    play_rulesets=lambda: registry.ruleset_names(FAMILY_NAME),
    play_seats=3,
    simulate_min_fan=False,   # qualification is by 卯 and 陀 (spec 2.8)
)


def _round_class() -> type[LongcardRound]:
    from .round_match import LongcardRound
    return LongcardRound


def _match_class() -> type[LongcardMatch]:
    from .round_match import LongcardMatch
    return LongcardMatch


def _engines() -> dict[str, Callable[..., Any]]:
    """``Family.engines``: a hand on the compiled engine and on the reference one."""
    from .round_match import LongcardRound
    return {engine: partial(LongcardRound, engine=engine) for engine in ("compiled", "reference")}


def _hidden_worlds(r: Any, seat: int, rng: Any) -> Any:
    """``Family.hidden_worlds``: :func:`.hidden_worlds.hidden_world` (imported with the engines, when asked for)."""
    from .hidden_worlds import hidden_world
    return hidden_world(r, seat, rng)


def _rl() -> Any:
    """``Family.rl``: the learning environments' hooks (:mod:`.rl`, imported when first asked for)."""
    from .rl import hooks
    return hooks()


FAMILY = registry.Family(
    FAMILY_NAME, is_win=is_win, waits=waits, shanten=shanten, new_round=new_round,
    new_match=new_match, bots={"random": _random_bot, "greedy": _greedy_bot, "advisor": _advisor_bot,
                                       "search": _search_bot}, score=score,
    simulation=SIMULATION, cli=CLI, round_class=_round_class, match_class=_match_class,
    engines=_engines, hidden_worlds=_hidden_worlds, server=SERVER, rl=_rl,
    hand_layer=HAND_LAYER,
)
registry.register_family(FAMILY)
