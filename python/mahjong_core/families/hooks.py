"""What a family hands the shared layers besides its hand and round callables: its simulation
hooks (``Family.simulation``), its side of the command line (``Family.cli``) and of the reference
server's tables (``Family.server``).

Both are plain records of callables; the callables import the family's own modules when they are
called, so registering a family costs no import of its simulation or command-line code (and the
shared layers, which look the hooks up in the registry, never import a family).
"""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence, cast

from .._validate import as_int
from ..errors import MahjongError

__all__ = ["SimulationHooks", "CliHooks", "CliOption", "HandLayer", "int_in", "family_command"]


@dataclass(frozen=True)
class SimulationHooks:
    """``Family.simulation``: what :func:`mahjong_core.simulate` and
    :func:`mahjong_core.simulation.plots.plot_result` run for a ruleset of the family.

    Each field is a callable returning the object (imported on first use)."""

    load_result_type: Callable[[], type]
    """-> the statistics class: ``cls(ruleset, bots, seed=, batch_size=, min_fan=, workers=)``,
    additive (``merge``), with ``to_dict``, ``to_json``, ``to_csv``, ``summary``, ``provenance``."""
    load_play_batch: Callable[[], Callable[..., None]]
    """-> ``play_batch(ruleset, bot_objects, match_seed, rounds, min_fan, record_wins, result)``:
    plays one batch (one match of ``rounds`` rounds) into ``result``."""
    load_plot: Callable[[], Callable[..., Any]]
    """-> ``plot(result, path, top)``: writes the family's charts of a result, returns the path."""

    @property
    def result_type(self) -> type:
        return self.load_result_type()

    @property
    def play_batch(self) -> Callable[..., None]:
        return self.load_play_batch()

    @property
    def plot(self) -> Callable[..., Any]:
        return self.load_plot()


CliOption = tuple[tuple[str, ...], Mapping[str, Any]]
"""One option a family adds to a shared command: argparse's ``(flags, keyword arguments)``."""


@dataclass(frozen=True)
class CliHooks:
    """``Family.cli``: the family's side of ``mahjong-core`` (:mod:`mahjong_core.cli`).

    The shared commands ``hand``, ``score``, ``match`` and ``play`` parse their shared arguments
    (``tiles``, ``--ruleset``, ``--json`` ...) and every family's ``options``; then the command of
    the family of ``--ruleset`` runs: ``commands[name](args, foreign)``, where ``foreign`` lists
    the options of *other* families that were given (as typed, e.g. ``--no-ready-concealed``)
    with, for each, the family's rulesets and all of its options of that command, so that the
    family words its own refusal.  A family without a command refuses with an
    :class:`~mahjong_core.errors.UnsupportedError` naming it."""

    commands: "Mapping[str, Callable[[argparse.Namespace, Sequence[Foreign]], int]]" = field(default_factory=dict)
    """``"hand"``, ``"score"``, ``"match"``, ``"play"`` -> the family's command."""
    options: Mapping[str, "Sequence[CliOption] | Callable[[], Sequence[CliOption]]"] = field(default_factory=dict)
    """Command name -> the options the family adds to it (refused for other families' rulesets), or
    a callable returning them (called when the parser is built)."""
    help: Mapping[str, str] = field(default_factory=dict)
    """Help fragments the shared parser composes (keys: ``hand.tiles``, ``score.tiles``,
    ``score.melds``, ``simulate.rounds``, ``simulate.min_fan``, ``simulate.csv``, ``match.rounds``,
    ``play``, ``play.seat``)."""
    examples: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """Command name -> example command lines shown in its ``--help`` (each must run and exit 0)."""
    extra_commands: "Mapping[str, tuple[str, Callable[[argparse.ArgumentParser], None]]]" = field(default_factory=dict)
    """Commands of the family alone: name -> (help, ``add_arguments(parser)`` which also sets
    ``func``)."""
    play_rulesets: Callable[[], Sequence[str]] = tuple
    """-> the family's rulesets ``play`` offers at the terminal."""
    play_seats: int = 0
    """The seats ``play --seat`` takes for the family (0 .. play_seats - 1)."""
    simulate_min_fan: bool = True
    """Whether ``simulate --min-fan`` applies to the family's rulesets."""


@dataclass(frozen=True)
class Foreign:
    """An option of another family given to a command (see :class:`CliHooks`)."""

    option: str
    """As it would be typed (``--banker``, ``--no-ready-concealed``)."""
    family: str
    rulesets: tuple[str, ...]
    """The rulesets of the family that offers it."""
    family_options: tuple[str, ...]
    """All of that family's options of the command, in their order."""


__all__ += ["Foreign"]


@dataclass(frozen=True)
class ServerHooks:
    """``Family.server``: the family's side of the reference server's tables
    (:mod:`mahjong_core.server`).  Optional: the server plays any family that registers a match,
    bots and a preset room; without these hooks a settled round's record has the common fields only
    and the web table draws the family's views with nothing of its own.

    ``settlement``
        ``(round, result) -> dict``: the fields of a settled round's record (what every seat is
        shown when the round ends) besides the common ones (``round``, ``draw``, ``winner``,
        ``loser``, ``method``, ``total``): e.g. the fans and the winning hand laid down.  It may show
        nothing a seat may not see once the round is over.
    ``glossary``
        ``() -> dict`` (plain JSON data): what the family's web-table script needs to draw its cards
        and name its rules (names, pips, causes ...), sent to a seat in its ``welcome`` frame; None:
        nothing.
    ``web``
        a directory holding the family's web-table files ``table.js`` and ``table.css``, served under
        ``/family/<name>/`` and loaded by the web table before it draws a table of the family; None:
        the web table's own drawing (the default family's)."""

    settlement: "Callable[[Any, Any], dict[str, Any]]"
    glossary: "Callable[[], dict[str, Any]] | None" = None
    web: "str | None" = None


__all__ += ["ServerHooks"]


def int_in(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``[lo, hi]`` (checked as a Python int, so any size of
    input is refused with its range instead of overflowing later); the shared command line's and
    every family's options use this one."""

    def integer(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        try:
            return as_int(value, "the value", lo, hi)
        except MahjongError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return integer


def family_command(package: str, name: str) -> Callable[..., int]:
    """A family's side of the shared command ``name``: ``run_<name>(args, foreign)`` of the
    module ``<package>.cli``, imported when the command runs (not when the family registers)."""

    def run(args: Any, foreign: Any) -> int:
        cli = importlib.import_module(f"{package}.cli")
        return cast("int", getattr(cli, f"run_{name}")(args, foreign))

    return run


@dataclass(frozen=True)
class HandLayer:
    """``Family.hand_layer``: the family's side of the shared hand-level entry points, each called
    with the caller's arguments (the ruleset keyword-only) when the ruleset is the family's; a field
    left None is refused with the :class:`~mahjong_core.errors.UnsupportedError` naming the family
    (:func:`mahjong_core.families.registry.hand_hook`)."""

    advise: "Callable[..., Any] | None" = None
    """``advise(hand, *, ruleset, **options)``: the discard advisor (``mj.advise``)."""
    hand: "Callable[..., Any] | None" = None
    """``hand(cards, *, ruleset, **options)``: a hand object (``mj.Hand``)."""
    is_win_batch: "Callable[..., Any] | None" = None
    """``is_win_batch(counts2d, *, ruleset, **options)`` (``mj.is_win_batch``)."""
    waits_batch: "Callable[..., Any] | None" = None
    """``waits_batch(counts2d, *, ruleset, **options)`` (``mj.waits_batch``)."""
    shanten_batch: "Callable[..., Any] | None" = None
    """``shanten_batch(counts2d, *, ruleset, **options)`` (``mj.shanten_batch``)."""
    score_batch: "Callable[..., Any] | None" = None
    """``score_batch(counts2d, win_cards, *, ruleset, **options)`` (``mj.score_batch``)."""
    advise_round: "Callable[[Any, int], Any] | None" = None
    """``advise_round(round, seat)``: the advisor for the seat to act in a round of the family, from
    what the seat sees; its ``options`` each carry ``discard`` (an action id of the round) and
    ``baozi`` (not None exactly for an action the round penalises); a ``MahjongError`` when the seat
    has no discard to make.  The conformance suite's ``hand`` check holds it to the round's legal
    actions."""
