"""The conformance suite: does a ruleset's game family keep the contract of
:mod:`mahjong_core.game.contract`?

Given a registered ruleset, :func:`check_ruleset` plays seeded rounds on every engine the family
registers (:attr:`~mahjong_core.families.registry.Family.engines`; its round class alone
otherwise), by random legal actions and by each of the family's registered bots, and checks the
whole contract (:data:`CHECKS`, in this order):

``round_api``          the round's attributes and queries at every step; ``mj.Round`` builds the
                       family's class on the default engine; no seed draws a fresh one
``legal_mask``         ``legal_mask(seat)`` is the set ``legal_indices(seat)``, every seat, every step
``refused_actions``    illegal, misplaced or malformed actions raise a ``MahjongError`` (a
                       ``ValueError``) and change nothing
``views``              ``view(seat)``: JSON data with the common keys, agreeing with the round
``hidden_information`` a seat's view is the same in two states it cannot tell apart: its round re-dealt
                       where it cannot see by the family's ``hidden_worlds`` hook (the registry), or
                       without the hook two deals showing it the same events
``rounds_end``         every round ends within a step bound; ``play_round`` agrees with the step loop
``engines_agree``      every engine plays the same game from the same seed and actions
``round_trips``        JSON, ``from_dict``, ``replay``, ``load_state``, pickle, deep copy: exact,
                       pickle and deep copy keep the engine, JSON loads on the default one
``hostile_states``     altered saved states are refused with a ``StateError``
``results``            results have the common fields (end, winners, deltas summing to 0 ...)
``match``              a match plays to its end, its results and dealers follow its rounds' results,
                       its state round-trips
``simulate``           ``mj.simulate`` runs a tiny batch, or refuses naming the family
``cli``                every ``mahjong-core`` command works or refuses naming the family
``server``             the reference server hosts the ruleset: each of its preset rooms is joined and
                       its match played to the end by the family's bots, or the family is refused
                       with an ``UnsupportedError`` naming it
``rl``                 the learning environments keep their contract for a family with learning
                       hooks, or refuse its rulesets naming the family
``hand``               every shared hand entry point (``mj.Hand``, the batch calls, ``mj.advise`` ...)
                       works or refuses naming the family; the family's advisor agrees with the
                       round's legal and penalised discards
``bots_blind``         no bot cheats: each registered bot, made fresh from a seed, chooses the same
                       action in a round and in that round re-dealt where the acting seat cannot
                       see (the family's ``hidden_worlds``), and asking it changes nothing

A failure raises :class:`ConformanceError` (an ``AssertionError``) naming the ruleset, the check
and what differed.  The suite names no family: it finds the ruleset's family in the registry, so
a new family's author registers the family and runs it::

    from mahjong_core.testing import check_ruleset

    check_ruleset("my-ruleset")                      # every check, a few seconds
    check_ruleset("my-ruleset", seed=5, rounds=10)   # more rounds per engine

In a pytest suite, one test per check (a failure names the ruleset and the check)::

    import pytest
    from mahjong_core.testing import CHECKS, run_check

    @pytest.mark.parametrize("check", CHECKS)
    def test_my_family_conforms(check):
        run_check("my-ruleset", check)

``engines`` (engine name -> round factory ``(ruleset, seed, *, dealer=)``) replaces the engines the
family registers, e.g. to check an engine under development.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping

from ..families import registry
from .checks_bots import check_bots_blind
from .checks_hand import check_hand
from .checks_layers import check_cli, check_results, check_simulate
from .checks_rl import check_rl
from .checks_round import (
    check_engines_agree, check_hidden_information, check_legal_mask, check_refused_actions, check_round_api,
    check_rounds_end, check_views,
)
from .checks_server import check_server
from .checks_state import check_hostile_states, check_match, check_round_trips
from .subject import MAX_STEPS, ConformanceError, Subject

__all__ = ["CHECKS", "ConformanceError", "Subject", "MAX_STEPS", "check_ruleset", "run_check", "checks", "subject"]

CHECKS: Mapping[str, Callable[[Subject], None]] = {
    "round_api": check_round_api,
    "legal_mask": check_legal_mask,
    "refused_actions": check_refused_actions,
    "views": check_views,
    "hidden_information": check_hidden_information,
    "rounds_end": check_rounds_end,
    "engines_agree": check_engines_agree,
    "round_trips": check_round_trips,
    "hostile_states": check_hostile_states,
    "results": check_results,
    "match": check_match,
    "simulate": check_simulate,
    "cli": check_cli,
    "server": check_server,
    "rl": check_rl,
    "hand": check_hand,
    "bots_blind": check_bots_blind,
}
"""Check name -> check (a callable taking a :class:`Subject`), in the order :func:`check_ruleset`
runs them."""


def subject(ruleset: Any, *, seed: int = 0, rounds: int = 3,
            engines: "Mapping[str, Callable[..., Any]] | None" = None) -> Subject:
    """The :class:`Subject` of ``ruleset`` (a registered name or record): its family from the
    registry, the engines it registers (or ``engines``), ``rounds`` rounds per engine from ``seed``."""
    record = registry.get_ruleset(ruleset)
    family = registry.get_family(record.family)
    if type(seed) is not int or seed < 0 or type(rounds) is not int or rounds < 1:
        raise ValueError(f"seed must be an int >= 0 and rounds an int >= 1, got {seed!r} and {rounds!r}")
    return Subject(record.name, family, dict(engines) if engines is not None else family.round_engines(),
                   seed=seed, rounds=rounds)


def run_check(ruleset: Any, check: str, *, seed: int = 0, rounds: int = 3,
              engines: "Mapping[str, Callable[..., Any]] | None" = None) -> None:
    """Run the one check named ``check`` (a key of :data:`CHECKS`) on ``ruleset``, or on a
    :class:`Subject` made once by :func:`subject` (its played rounds are shared by the checks run
    on it: one subject per ruleset keeps a parametrised test suite fast)."""
    if check not in CHECKS:
        raise ValueError(f"unknown check {check!r}; expected one of {', '.join(CHECKS)}")
    s = ruleset if isinstance(ruleset, Subject) else subject(ruleset, seed=seed, rounds=rounds, engines=engines)
    s.check = check
    CHECKS[check](s)


def checks(ruleset: Any, *, seed: int = 0, rounds: int = 3,
           engines: "Mapping[str, Callable[..., Any]] | None" = None,
           only: "Iterable[str] | None" = None) -> Iterator[tuple[str, Callable[[], None]]]:
    """``(name, run)`` of every check (or those named in ``only``) on one shared subject (the rounds
    several checks read are played once); ``run()`` raises :class:`ConformanceError`."""
    s = subject(ruleset, seed=seed, rounds=rounds, engines=engines)
    names = list(CHECKS) if only is None else list(only)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown checks {unknown}; expected some of {', '.join(CHECKS)}")
    for name in names:
        def run(name: str = name) -> None:
            s.check = name
            CHECKS[name](s)
        yield name, run


def check_ruleset(ruleset: Any, *, seed: int = 0, rounds: int = 3,
                  engines: "Mapping[str, Callable[..., Any]] | None" = None,
                  only: "Iterable[str] | None" = None) -> None:
    """Run every check of :data:`CHECKS` (or those named in ``only``) on ``ruleset``; the first
    failure raises :class:`ConformanceError` naming the ruleset, the check and what differed."""
    for _, run in checks(ruleset, seed=seed, rounds=rounds, engines=engines, only=only):
        run()
