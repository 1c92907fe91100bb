"""The family-neutral bot protocol and the loops that let bots play rounds and matches.

A bot is any object with ``act_index(round, seat)`` and ``act(round, seat)`` (:class:`Bot`).
Bots given by name are made by the factories of the round's family
(:attr:`mahjong_core.families.registry.Family.bots`; the mahjong bots live in
:mod:`mahjong_core.families.mahjong.bots`).  A round may play itself out faster than the
step-by-step loop when it knows every bot (its optional ``_play_out_bots(bots, max_steps)`` hook,
see :class:`~mahjong_core.game.round_base.RoundBase`): the compiled mahjong round runs its built-in
bots without returning to Python between steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from ..errors import MahjongError

if TYPE_CHECKING:
    from .match import Match

__all__ = ["Bot", "make_bots", "play_round", "play_steps", "play_match"]


@runtime_checkable
class Bot(Protocol):
    """What a bot implements: given a round and a seat to act, the index of its chosen action
    in the seat's legal mask (:meth:`Round.legal_indices`), and the action itself.  Bots see only
    what a player may know (the round's public API and their own seat's tiles)."""

    def act_index(self, rnd: Any, seat: int) -> int: ...

    def act(self, rnd: Any, seat: int) -> Any: ...


def _factories(ruleset: Any) -> Mapping[str, Any]:
    """The bot factories of the family of ``ruleset`` (the default ruleset's for ``None``)."""
    from ..families.registry import DEFAULT_RULESET, family_of
    return family_of(DEFAULT_RULESET if ruleset is None else ruleset).bots


def make_bots(bots: "Sequence[Bot | str]", seed: "int | None" = None, *, ruleset: Any = None) -> "list[Bot]":
    """Bot objects from bots given as objects or names (for mahjong ``"greedy"``, ``"random"``;
    the names are those of the family of ``ruleset``, the default ruleset's when ``None``):
    objects are kept, a name at seat ``k`` is made with a seed spawned from ``seed`` for that seat
    (``None``: fresh entropy).  An unknown name or a non-bot is a :class:`MahjongError`."""
    if isinstance(bots, (str, Bot)) or not isinstance(bots, (list, tuple)):
        raise MahjongError(f"bots must be a list of bots or bot names, one per seat, got {bots!r}")
    factories = _factories(ruleset) if any(isinstance(b, str) for b in bots) else {}
    root = np.random.SeedSequence(seed)
    out: list[Bot] = []
    for seat, b in enumerate(bots):
        if isinstance(b, str):
            if b not in factories:
                raise MahjongError(f"unknown bot {b!r}; expected one of {', '.join(factories)} or a Bot object")
            out.append(factories[b](int(root.spawn(1)[0].generate_state(1, np.uint64)[0])))
        elif isinstance(b, Bot):
            out.append(b)
        else:
            raise MahjongError(f"bots[{seat}] is neither a bot (act_index, act) nor a bot name: {b!r}")
    return out


def play_round(rnd: Any, bots: "Sequence[Bot | str]", *, max_steps: int = 10_000) -> Any:
    """Let ``bots[seat]`` play ``rnd`` to the end; returns its result.  Bots are objects or names
    (:func:`make_bots`; a named random bot is seeded from the round's seed, so the game is
    reproducible).  When the round can play its bots itself (the compiled mahjong round with only
    built-in bots) the whole round runs in the engine."""
    if not isinstance(bots, (list, tuple)) or len(bots) != rnd.players:
        n = len(bots) if isinstance(bots, (list, tuple)) else type(bots).__name__
        raise MahjongError(f"{rnd.players} bots needed, got {n}")
    if any(isinstance(b, str) for b in bots):
        bots = make_bots(bots, rnd.seed, ruleset=rnd.ruleset)
    fast = getattr(rnd, "_play_out_bots", None)
    if fast is None or not fast(bots, max_steps):
        play_steps(rnd, bots, max_steps)
    res = rnd.result
    assert res is not None
    return res


def play_steps(rnd: Any, bots: Sequence[Any], max_steps: int = 10_000) -> int:
    """The step-by-step loop through the public API (any bot with ``act_index``; the first seat
    to act moves); returns the number of steps."""
    n = 0
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        rnd.step(seat, bots[seat].act_index(rnd, seat))
        n += 1
        if n > max_steps:  # pragma: no cover - a flow bug
            raise RuntimeError("round did not finish")
    return n


def play_match(match: Match, bots: "Sequence[Bot | str]") -> list[Any]:
    """Play a :class:`Match` with a fixed number of rounds to its end (bots as objects or names,
    named bots seeded from the match's seed)."""
    if match.rounds is None:
        raise MahjongError("play_match needs a match with a fixed number of rounds")
    if any(isinstance(b, str) for b in bots):
        bots = make_bots(bots, match.seed, ruleset=match.ruleset)
    while not match.is_over:
        play_round(match.round, bots)
        match.next_round()
    return match.round_results
