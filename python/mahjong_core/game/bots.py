"""Bots: a uniformly random legal-action bot and a greedy shanten bot, plus play helpers.

Both bots run in the compiled engine (:mod:`mahjong_core._round`); :func:`play_round` plays a whole
round there without returning to Python between steps when every seat has a built-in bot.  Bots
see only what a player may know: their own concealed tiles, the public tiles
(:meth:`Round.visible_counts`) and their legal actions.  The pure-Python reference of both bots is
:mod:`mahjong_core.families.mahjong._ref.bots_py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence, runtime_checkable

import numpy as np

from .._validate import as_seat
from ..errors import IllegalActionError, MahjongError

if TYPE_CHECKING:  # the built-in bots play the mahjong round; annotations only
    from ..families.mahjong.actions import Action
    from ..families.mahjong.round import Round, RoundResult

__all__ = ["Bot", "RandomBot", "GreedyBot", "BUILTIN_BOTS", "make_bots", "play_round", "play_match"]

_BOT_GREEDY = 0
_BOT_RANDOM = 1


@runtime_checkable
class Bot(Protocol):
    """What a bot implements: given a round and a seat to act, the index of its chosen action
    in the seat's legal mask (:meth:`Round.legal_indices`), and the action itself.  Bots see only
    what a player may know (the round's public API and their own seat's tiles)."""

    def act_index(self, rnd: Any, seat: int) -> int: ...

    def act(self, rnd: Any, seat: int) -> Action: ...


def _not_to_act(rnd: Round, seat: int) -> IllegalActionError:
    return IllegalActionError(f"seat {seat} is not to act now (to act: {rnd.seats_to_act()})")


class RandomBot:
    """Chooses uniformly among the legal actions: ``legal[rng.integers(len(legal))]`` with its own
    seeded PCG64 generator (``self.rng``; the compiled bot draws from the same generator)."""

    name = "random"

    def __init__(self, seed: "int | None" = None) -> None:
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def act_index(self, rnd: Round, seat: int) -> int:
        i = rnd.builtin_bot_choice(as_seat(seat, rnd.players), _BOT_RANDOM, self.rng.bit_generator)
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

    def act_index(self, rnd: Round, seat: int) -> int:
        i = rnd.builtin_bot_choice(as_seat(seat, rnd.players), _BOT_GREEDY)
        if i < 0:
            raise _not_to_act(rnd, seat)
        return i

    def act(self, rnd: Round, seat: int) -> Action:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


BUILTIN_BOTS = {"greedy": GreedyBot.from_seed, "random": RandomBot}
"""The built-in bots by name: factories taking a seed (None = fresh entropy, an int = reproducible)."""


def make_bots(bots: "Sequence[Bot | str]", seed: "int | None" = None) -> "list[Bot]":
    """Bot objects from bots given as objects or names (``"greedy"``, ``"random"``): objects are
    kept, a name at seat ``k`` is made with a seed spawned from ``seed`` for that seat (``None``:
    fresh entropy).  An unknown name or a non-bot is a :class:`MahjongError`."""
    if isinstance(bots, (str, Bot)) or not isinstance(bots, (list, tuple)):
        raise MahjongError(f"bots must be a list of bots or bot names, one per seat, got {bots!r}")
    root = np.random.SeedSequence(seed)
    out: list = []
    for seat, b in enumerate(bots):
        if isinstance(b, str):
            if b not in BUILTIN_BOTS:
                raise MahjongError(f"unknown bot {b!r}; expected one of {', '.join(BUILTIN_BOTS)} or a Bot object")
            out.append(BUILTIN_BOTS[b](int(root.spawn(1)[0].generate_state(1, np.uint64)[0])))
        elif isinstance(b, Bot):
            out.append(b)
        else:
            raise MahjongError(f"bots[{seat}] is neither a bot (act_index, act) nor a bot name: {b!r}")
    return out


def play_round(rnd: Round, bots: "Sequence[Bot | str]", *, max_steps: int = 10_000) -> RoundResult:
    """Let ``bots[seat]`` play ``rnd`` to the end; returns its result.  Bots are objects or names
    (:func:`make_bots`; a named random bot is seeded from the round's seed, so the game is
    reproducible).  With only the built-in bots the whole round runs in the compiled engine."""
    if not isinstance(bots, (list, tuple)) or len(bots) != rnd.players:
        n = len(bots) if isinstance(bots, (list, tuple)) else type(bots).__name__
        raise MahjongError(f"{rnd.players} bots needed, got {n}")
    if any(isinstance(b, str) for b in bots):
        bots = make_bots(bots, rnd.seed)
    kinds = []
    for b in bots:
        t = type(b)
        kinds.append(_BOT_GREEDY if t is GreedyBot else _BOT_RANDOM if t is RandomBot else -1)
    if -1 not in kinds:
        rnd.play_out_builtin(kinds, [b.rng.bit_generator if k == _BOT_RANDOM else None
                                   for b, k in zip(bots, kinds)], max_steps)
    else:
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


def play_match(match: Any, bots: "Sequence[Bot | str]") -> list[RoundResult]:
    """Play a :class:`Match` with a fixed number of rounds to its end (bots as objects or names,
    named bots seeded from the match's seed)."""
    if match.rounds is None:
        raise MahjongError("play_match needs a match with a fixed number of rounds")
    if any(isinstance(b, str) for b in bots):
        bots = make_bots(bots, match.seed)
    while not match.is_over:
        play_round(match.round, bots)
        match.next_round()
    return match.round_results
