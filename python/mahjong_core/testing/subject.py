"""What every check of the conformance suite is given (:class:`Subject`: a ruleset, its family
found through the registry, the engines to check, the seeds) and how it fails
(:class:`ConformanceError`), with the play helpers the checks share: rounds played to their end by
the family's registered bots or by random legal actions.

Nothing here names a family: a family is reached through :mod:`mahjong_core.families.registry`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, NoReturn

import numpy as np

from ..families import registry
from ..game import contract

__all__ = ["ConformanceError", "Subject", "MAX_STEPS", "canonical", "RandomLegal", "play_to_end",
           "default_engine"]

MAX_STEPS = 20_000
"""The step bound within which every round of the suite must end (the shared bot loop's is 10 000
per round; a family's round that needs more than this is refused as never ending)."""


class ConformanceError(AssertionError):
    """A ruleset breaks the contract of :mod:`mahjong_core.game.contract`: the message names the
    ruleset, the check (:data:`mahjong_core.testing.CHECKS`) and what differed.  An
    :class:`AssertionError`, so that pytest shows it as a test failure."""

    def __init__(self, ruleset: str, check: str, what: str) -> None:
        super().__init__(f"{ruleset}: {check}: {what}")
        self.ruleset = ruleset
        self.check = check
        self.what = what


@dataclass
class Subject:
    """One ruleset under test: its record and family (from the registry), the engines checked
    (engine name -> round factory ``(ruleset, seed, *, dealer=)``), the first seed and the number of
    rounds played per engine, and the name of the check running (set by the runner)."""

    ruleset: str
    family: registry.Family
    engines: Mapping[str, Callable[..., Any]]
    seed: int = 0
    rounds: int = 3
    check: str = ""
    _played: "dict[str, list[Any]]" = field(default_factory=dict, repr=False)

    @property
    def record(self) -> registry.RulesetRecord:
        return registry.get_ruleset(self.ruleset)

    @property
    def players(self) -> int:
        return int(self.record.players)

    def fail(self, what: str) -> NoReturn:
        """Raise the :class:`ConformanceError` of the running check."""
        raise ConformanceError(self.ruleset, self.check or "check", what)

    def expect(self, ok: object, what: str) -> None:
        if not ok:
            self.fail(what)

    def new_round(self, engine: str, seed: int, dealer: int = 0) -> Any:
        """A fresh round of the ruleset on ``engine``."""
        return self.engines[engine](self.ruleset, seed, dealer=dealer)

    def bot_names(self) -> tuple[str, ...]:
        """The family's registered bot names, in registration order."""
        return tuple(self.family.bots)

    def players_for(self, k: int, seed: int, engine: "str | None" = None) -> list[Any]:
        """The bots of the ``k``-th round of an engine: random legal actions for ``k`` = 0, then
        each registered bot of the family in turn (every seat the same bot).  The registered bots
        play the default engine; another engine (a reference one, which a family's bots may
        refuse, as a compiled bot refuses the reference round) is played by random legal actions."""
        names = self.bot_names()
        if k == 0 or not names or engine not in (None, default_engine(self)):
            return [RandomLegal(seed + seat) for seat in range(self.players)]
        factory = self.family.bots[names[(k - 1) % len(names)]]
        return [factory(seed + seat) for seat in range(self.players)]

    def seeds(self) -> Iterator[tuple[int, int]]:
        """``(k, seed)`` of the rounds played per engine."""
        for k in range(self.rounds):
            yield k, self.seed + k

    def finished_rounds(self, engine: str) -> list[Any]:
        """The rounds of ``engine`` played to their end (cached per subject: several checks read
        them, none changes them)."""
        done = self._played.get(engine)
        if done is None:
            done = []
            for k, seed in self.seeds():
                r = self.new_round(engine, seed, dealer=k % self.players)
                play_to_end(self, r, self.players_for(k, seed, engine))
                done.append(r)
            self._played[engine] = done
        return done


def canonical(data: Any) -> str:
    """JSON text with sorted keys (what two states or views are compared by; key order aside)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class RandomLegal:
    """A bot (:class:`~mahjong_core.game.contract.Bot`) choosing uniformly among the legal actions:
    the suite's own player, which needs nothing of the family but the round API."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def act_index(self, rnd: Any, seat: int) -> int:
        legal = rnd.legal_indices(seat)
        return int(legal[int(self._rng.integers(len(legal)))])

    def act(self, rnd: Any, seat: int) -> Any:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


def play_to_end(subject: Subject, r: Any, bots: list[Any],
                each_step: "Callable[[Any, int], None] | None" = None) -> int:
    """Play ``r`` to its end through the public API (the first seat to act moves), calling
    ``each_step(r, n)`` before each step ``n`` and once at the end; the number of steps.  A round
    still going after :data:`MAX_STEPS` steps fails the check."""
    n = 0
    while not r.is_over:
        if each_step is not None:
            each_step(r, n)
        to_act = r.seats_to_act()
        subject.expect(to_act, f"step {n}: the round is not over but no seat is to act (phase {r.phase_name})")
        seat = to_act[0]
        r.step(seat, bots[seat].act_index(r, seat))
        n += 1
        if n > MAX_STEPS:
            subject.fail(f"the round of seed {r.seed} did not end within {MAX_STEPS} steps")
    if each_step is not None:
        each_step(r, n)
    return n


def default_engine(subject: Subject) -> str:
    """The engine a loaded state deals on: the first of :data:`~mahjong_core.game.contract.ENGINES`."""
    return contract.ENGINES[0]
