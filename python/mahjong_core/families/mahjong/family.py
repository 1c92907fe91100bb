"""Registers the mahjong family (its hand functions, round, match, bots, simulation and command
line) with the registry, like any other family.

Its rulesets register themselves when :mod:`.rulesets` is imported (plain data), its settlement
profiles and preset rooms when :mod:`.settlement` is (imported here and by the round); this module
adds the callables, which need the compiled core and the game engine.  ``import mahjong_core``
imports it.  The simulation and command-line hooks import their modules (:mod:`.simulation`,
:mod:`.cli`, :mod:`.advise_cli`) when they are used.
"""

from __future__ import annotations

from typing import Any, Callable

from .bots import BUILTIN_BOTS
from .match import Match
from .round import Round
from .. import registry
from . import advise_cli
from ..hooks import CliHooks, SimulationHooks, family_command
from .constants import FAMILY_NAME
from .hand import is_win, shanten, waits
from . import settlement  # noqa: F401 - registers the family's settlement profiles and preset rooms
from .hidden_worlds import hidden_world
from .server_table import SERVER
from . import api
from ...game import register_legacy_names

__all__ = ["FAMILY", "SIMULATION", "CLI"]


def _result_type() -> type:
    from ...simulation.stats import SimulationResult
    return SimulationResult


def _play_batch() -> Callable[..., None]:
    from .simulation import play_batch
    return play_batch


def _plot() -> Callable[..., Any]:
    from ...simulation.plots import plot_fan_result
    return plot_fan_result


SIMULATION = SimulationHooks(_result_type, _play_batch, _plot)
"""``Family.simulation``: the fan-table statistics, one batch of :mod:`.simulation`, their charts."""


def _score_options() -> Any:
    """The ``score`` options, built from the generated flags when the parser asks for them."""
    from .cli import score_options
    return score_options()


def _play_rulesets() -> tuple[str, ...]:
    """The two-player rulesets: the terminal game is a round against the greedy bot."""
    return tuple(n for n in registry.ruleset_names(FAMILY_NAME) if registry.get_ruleset(n).players == 2)


_PACKAGE = __name__.rpartition(".")[0]   # the family's package: its cli module is <package>.cli

_BOTZONE_HELP = "run one of our bots as a Botzone bot of Chinese Standard Mahjong (reads standard input)"


def _botzone_arguments(p: Any) -> None:
    """``botzone-bot``'s options (:mod:`.botzone.command`, imported only by the command line)."""
    from .botzone.command import add_arguments
    add_arguments(p)


CLI = CliHooks(
    commands={name: family_command(_PACKAGE, name) for name in ("hand", "score", "match", "play")},
    options={"score": _score_options},
    help={
        "hand.tiles": 'tiles, e.g. "1112345678999m" or "123m456p789sEESS"',
        "score.melds": 'declared groups: "chi 123m", "pon CCC", "kong EEEE", "ckong 9999m"',
        "simulate.min_fan": "8",
        "match.room": "the ruleset's seed room",
        "play": "a two-player round against the greedy bot",
        "play.seat": "0 deals first",
    },
    examples={
        "hand": ['mahjong-core hand "1112345678999m"',
                 'mahjong-core hand "19m19p19sESWNCFP" --ruleset public --json'],
        "score": ['mahjong-core score "123m456m789m11mEE" --win E',
                  'mahjong-core score "PPP999m5m" --win 5m --melds "pon CCC" "pon FFF" --self-drawn --json'],
        "simulate": ["mahjong-core simulate --rounds 200 --bots greedy,random --seed 1"],
        "match": ["mahjong-core match --rounds 2 --bots greedy,random",
                  "mahjong-core match --rounds 2 --json"],
        "advise": advise_cli.EXAMPLES,
        "botzone-bot": ['mahjong-core botzone-bot --bot greedy --requests "0 0 0" '
                        '"1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5" "2 F1"'],
        "play": ["mahjong-core play --seed 7",
                 "mahjong-core play --ruleset two-player-bamboo --seat 1 --glyphs"],
    },
    extra_commands={"advise": (advise_cli.HELP, advise_cli.add_arguments),
                    "botzone-bot": (_BOTZONE_HELP, _botzone_arguments)},
    play_rulesets=_play_rulesets,
    play_seats=2,
)
"""``Family.cli``: the options, help fragments and examples of the shared commands for mahjong."""

def _rl() -> Any:
    """``Family.rl``: the learning environments' hooks (:mod:`.rl`, imported when first asked for)."""
    from .rl import hooks
    return hooks()


def _engines() -> dict[str, Callable[..., Any]]:
    """``Family.engines``: the compiled round and the reference one (imported when asked for)."""
    from ._ref.round import Round as ReferenceRound
    return {"compiled": Round, "reference": ReferenceRound}


FAMILY = registry.Family(
    FAMILY_NAME,
    is_win=is_win,
    waits=waits,
    shanten=shanten,
    new_round=Round,
    new_match=Match,
    bots=BUILTIN_BOTS,
    simulation=SIMULATION,
    cli=CLI,
    engines=_engines,
    hidden_worlds=hidden_world,
    server=SERVER,
    rl=_rl,
)
registry.register_family(FAMILY)
# the names mahjong_core.game offered before it became family-neutral (deprecated there)
register_legacy_names({name: getattr(api, name) for name in api.__all__}, api.__name__)
