"""The conformance check that no bot cheats (``bots_blind``): a seeded bot decides the same in two
rounds its seat cannot tell apart, so its decision reads nothing the seat may not know.

The rounds it cannot tell apart are made by the family's ``hidden_worlds`` hook
(:mod:`mahjong_core.families.registry`: the round re-dealt where the seat cannot see, the other
seats' concealed cards and the unseen wall permuted, the seat's history the same), the one
implementation of that swap; a family without the hook is checked on states of different seeds
that show the seat the same events (as the ``hidden_information`` check does).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .subject import RandomLegal, Subject, canonical, default_engine, play_to_end

__all__ = ["check_bots_blind", "BOT_WORLDS_MIN"]

BOT_WORLDS_MIN = 8
"""The fewest decisions of each bot that the check must compare in a re-dealt world where another
seat's view differs (its concealed cards do), lest it pass vacuously."""
BOT_WORLDS_ENOUGH = 20
"""Decisions compared in such worlds after which the check of a bot stops: a strong bot may spend
tens of milliseconds per decision, and the check asks it twice per world."""

_BOT_SEED = 7_777
"""The seed of the fresh bot asked in both worlds (any fixed seed: the two bots must be twins)."""


def _sampled(n: int) -> bool:
    """The steps at which the bots' decisions are compared: the first ones and every seventh."""
    return n < 6 or n % 7 == 3


def check_bots_blind(s: Subject) -> None:
    """For every bot the family registers (``Family.bots``), in seeded rounds on the default engine
    (the engine the bots play, :meth:`Subject.players_for`) played by random legal actions, at
    sampled steps and for each seat to act: a bot made fresh from a fixed seed chooses an action in
    the round, and its twin (the same factory, the same seed) in the same round re-dealt where the
    seat cannot see (``Family.hidden_worlds``); the two choices must be the same, and asking must
    leave the round as it was.  The check fails unless, for each bot, at least
    :data:`BOT_WORLDS_MIN` of the worlds compared hid other cards than the round did; it stops
    asking a bot after :data:`BOT_WORLDS_ENOUGH` such worlds.  Without the hook, the choices of twin
    bots in states of different seeds that show the seat the same events (and the same turn) must
    agree.  A bot whose decision depends on the clock (a budget in milliseconds) is not a seeded
    bot: give it a budget in playouts here."""
    engine = default_engine(s)
    for name in s.bot_names():
        factory = s.family.bots[name]
        if s.family.hidden_worlds is not None:
            _check_worlds(s, engine, name, factory, s.family.hidden_worlds)
        else:
            _check_same_events(s, engine, name, factory)


def _decide(s: Subject, factory: Callable[[Any], Any], r: Any, seat: int, name: str, where: str) -> int:
    """The choice of a fresh bot at ``seat`` of ``r``; asking it must not change the round."""
    before = r.to_json()
    choice = int(factory(_BOT_SEED + seat).act_index(r, seat))
    s.expect(r.to_json() == before, f"{where}: the bot {name!r} changed the round it was asked about (seat {seat})")
    return choice


def _check_worlds(s: Subject, engine: str, name: str, factory: Callable[[Any], Any],
                  hidden_worlds: Callable[[Any, int, Any], Any]) -> None:
    rng = np.random.default_rng([s.seed, 30])
    compared = changed = 0

    def each(r: Any, n: int) -> None:
        nonlocal compared, changed
        if r.is_over or not _sampled(n) or changed >= BOT_WORLDS_ENOUGH:
            return
        for seat in r.seats_to_act():
            where = f"seed {r.seed} ({engine} engine) at step {n}"
            mine = _decide(s, factory, r, seat, name, where)
            other = hidden_worlds(r, seat, rng)
            if other is None:
                continue
            theirs = _decide(s, factory, other, seat, name, where + " (re-dealt)")
            if mine != theirs:
                s.fail(f"the bot {name!r} at seat {seat} chose action {mine} in the round of {where} and action "
                       f"{theirs} in that round re-dealt where the seat cannot see (hidden_worlds: the other seats' "
                       f"concealed cards and the wall): its decision reads what the seat may not know")
            compared += 1
            changed += any(canonical(r.view(o)) != canonical(other.view(o)) for o in range(r.players) if o != seat)

    for k in range(max(3 * s.rounds, 8)):
        if changed >= BOT_WORLDS_ENOUGH:
            break
        seed = s.seed + k
        play_to_end(s, s.new_round(engine, seed, k % s.players), [RandomLegal(seed + p) for p in range(s.players)],
                    each)
    s.expect(changed >= BOT_WORLDS_MIN,
             f"the bot {name!r}: hidden_worlds gave {compared} worlds to compare its decisions in, {changed} of "
             f"them with other hidden cards: too few to test that it does not read them (at least {BOT_WORLDS_MIN})")


def _check_same_events(s: Subject, engine: str, name: str, factory: Callable[[Any], Any]) -> None:
    seen: dict[tuple[int, str], tuple[int, str]] = {}

    def each(r: Any, n: int) -> None:
        if r.is_over or not _sampled(n):
            return
        turn = canonical([r.phase_name, r.seats_to_act()])
        for seat in r.seats_to_act():
            where = f"seed {r.seed} ({engine} engine) at step {n}"
            choice = _decide(s, factory, r, seat, name, where)
            first = seen.setdefault((seat, turn + canonical(r.log_for(seat))), (choice, where))
            if first[0] != choice:
                s.fail(f"the bot {name!r} at seat {seat} sees the same events in the round of {first[1]} and the "
                       f"round of {where} but chose action {first[0]} there and {choice} here: its decision "
                       f"reads what the seat may not know")

    for k in range(max(3 * s.rounds, 8)):
        seed = s.seed + k
        play_to_end(s, s.new_round(engine, seed, 0), [RandomLegal(seed + p) for p in range(s.players)], each)
