"""The compiled long-card hand engine behind a checked entry: whole hands played in C by the built-in bots.

:class:`mahjong_core._lc_round.HandCore` is the state machine of :mod:`._ref.round` ported to Cython
with the RandomBot and RuleBot of :mod:`.round_bots`; the parity tests hold it to the reference, event
for event.  Everything entering it is checked here (settings, seed, stock, banker, bots), since the
compiled code runs without bounds checks.

- :func:`new_core`: a fresh hand, dealt exactly as ``Round(seed, settings=..., banker=..., stock=...)``.
- :func:`play_hand`: a whole hand played by the built-in bots; the same result as the reference with
  the same bots (``RandomBot(bot_seeds[k])``, ``RuleBot(settings)``).
- :func:`compiled_bots`: the built-in bot objects of a simulation as the compiled engine's bot kinds.
- :class:`CompiledHand`: a compiled hand with the reference hand's step API (what
  ``LongcardRound(engine="compiled")`` steps).
- :func:`play_match`: the hands of a :class:`.round_match.LongcardMatch` (same stocks, same bankers)
  played in C, for the simulator.

>>> play_hand(3)["end"] == play_hand(3, engine="reference")["end"]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._lc_round import BOT_KINDS, HandCore
from ..._validate import as_seat, is_int, short_repr
from ...errors import MahjongError
from .cards import CAISHEN, COPIES, N_FACES
from .groups import Group
from .round_actions import Action
from .round_record import RoundRecord, checked_stock
from ._ref.round import Round
from .round_rules import PLAYERS
from .round_settings import RoundSettings

if TYPE_CHECKING:
    from .round_match import LongcardMatch

__all__ = ["BOT_KINDS", "ENGINES", "CompiledHand", "compiled_bots", "new_core", "play_hand", "play_match"]

ENGINES = ("compiled", "reference")
"""Engines of a hand of play, the default first."""


_DEFAULT = RoundSettings()
_DECKS = {n: tuple([f for f in range(N_FACES) for _ in range(COPIES)] + [CAISHEN] * n) for n in (0, 5, 10)}
"""The deck of each ``caishen_count`` (the options allow 0, 5, 10)."""


def _settings(settings: Any, options: Any) -> RoundSettings:
    if settings is None:
        return _DEFAULT if options is None else RoundSettings.from_options(options)
    if options:
        raise MahjongError("give settings or options, not both")
    if not isinstance(settings, RoundSettings):
        raise MahjongError(f"settings must be a RoundSettings, got {short_repr(settings)}")
    return settings


def new_core(seed: Any = None, *, settings: RoundSettings | None = None, options: Any = None, banker: Any = None,
             stock: Any = None) -> HandCore:
    """A fresh compiled hand, dealt as :class:`._ref.round.Round` deals it: the stock shuffled by a NumPy
    ``Generator`` from ``seed`` unless given (checked), the banker drawn from it unless given."""
    s = _settings(settings, options)
    if seed is not None and not (is_int(seed) and 0 <= seed < 2**128):
        raise MahjongError(f"seed must be None or an integer >= 0, got {short_repr(seed)}")
    rng = np.random.default_rng(seed)
    deck = _DECKS[s.caishen_count]
    cards = [deck[i] for i in rng.permutation(len(deck)).tolist()] if stock is None else checked_stock(stock, list(deck))
    seat = int(rng.integers(PLAYERS)) if banker is None else as_seat(banker, PLAYERS, "banker")
    return HandCore(s, cards, seat)


def _bot_names(bots: Any) -> tuple[str, str, str]:
    names = (bots,) * PLAYERS if isinstance(bots, str) else tuple(bots) if isinstance(bots, (list, tuple)) else None
    if names is None or len(names) != PLAYERS or any(b not in BOT_KINDS for b in names):
        raise MahjongError(f"bots: one of {', '.join(BOT_KINDS)} or three of them, got {short_repr(bots)}")
    return names  # type: ignore[return-value]  # three names, checked


def play_hand(seed: Any = None, settings: RoundSettings | None = None, *, options: Any = None,
              bots: str | Sequence[str] = "rule", bot_seeds: Sequence[Any] | None = None, banker: Any = None,
              stock: Any = None, engine: str = "compiled") -> dict[str, Any]:
    """Play one hand to its end with the built-in bots and return its result (``_ref.round.Round.result``).

    ``bots``: ``"rule"`` (spec 8.5's greedy bot) or ``"random"``, or one per seat; ``bot_seeds``: the
    seed of each random bot (its NumPy ``Generator``).  ``engine="reference"`` plays the same hand on
    :mod:`._ref.round` with :class:`.round_bots.RandomBot` / :class:`.round_bots.RuleBot`."""
    names = _bot_names(bots)
    seeds = [None] * PLAYERS if bot_seeds is None else list(bot_seeds)
    if len(seeds) != PLAYERS:
        raise MahjongError(f"bot_seeds: one seed per seat, got {short_repr(bot_seeds)}")
    if engine == "compiled":
        core = new_core(seed, settings=settings, options=options, banker=banker, stock=stock)
        rngs = [np.random.default_rng(x) if n == "random" else None for n, x in zip(names, seeds)]
        return core.play(names, rngs)
    if engine != "reference":
        raise MahjongError(f"engine must be one of {', '.join(ENGINES)}, got {short_repr(engine)}")
    from .round_bots import RandomBot, RuleBot
    from .round_bots import play_hand as play_reference

    r = Round(seed, settings=_settings(settings, options), banker=banker, stock=stock)
    objs = [RandomBot(x) if n == "random" else RuleBot(r.settings) for n, x in zip(names, seeds)]
    return play_reference(r, objs)


def compiled_bots(bots: Sequence[Any], settings: RoundSettings) -> tuple[tuple[str, ...], list[Any]] | None:
    """The compiled engine's bot kinds and random generators for ``bots`` (one object per seat), or None
    when one of them is not a built-in bot it plays (another bot).  A RuleBot plays under the hand's
    settings whatever it was built with, as the compiled rule bot does."""
    from .round_bots import RandomBot, RuleBot

    kinds: list[str] = []
    rngs: list[Any] = []
    for b in bots:
        if type(b) is RandomBot:
            kinds.append("random")
            rngs.append(b.rng)          # the same generator: the bot's later choices go on from it
        elif type(b) is RuleBot:
            kinds.append("rule")
            rngs.append(None)
        else:
            return None
    return tuple(kinds), rngs


def play_match(match: LongcardMatch, kinds: Sequence[str], rngs: Sequence[Any]) -> Iterator[tuple[dict[str, Any], int]]:
    """Play the hands of a fresh ``match`` in C: hand ``k`` deals the stock of the match's hand ``k``
    (:func:`.round_match.hand_stock`) with the banker the previous hand named (spec 3.14), as
    :class:`.round_match.LongcardMatch` does, until ``match.rounds`` hands count
    (:func:`.round_match.count_hand`: a void hand is dealt again).  Yields each hand's result with its
    ``dealer`` (the banker) and the number of actions taken.  ``match`` itself is not advanced."""
    if match.round_index != 0 or not match.rounds:
        raise MahjongError("play_match needs a fresh match with a number of rounds")
    from .round_match import count_hand, hand_stock

    names = tuple(kinds)
    settings = match.round.settings.hand
    banker = match.first_dealer
    k = counted = void_run = 0
    while counted < match.rounds:          # the hands that count (a void hand is dealt again, 3.3 step 4)
        core = HandCore(settings, hand_stock(match.seed, (k + 1,), settings.caishen_count), banker)
        res = core.play(names, list(rngs))
        yield {**res, "dealer": banker}, core.n_actions
        banker = res["next_banker"]
        c, void_run = count_hand(res, void_run)
        counted += c
        k += 1


class CompiledHand(RoundRecord):
    """A compiled hand (:class:`HandCore`) with the step API of :class:`._ref.round.Round` that
    :class:`.round_match.LongcardRound` and the bots use: ``seats_to_act``, ``legal_actions``,
    ``legal_mask`` / ``penalised_mask``, ``step``, ``view`` / ``events_for`` (the reference's
    :class:`.round_record.RoundRecord`, read from the core's fields), ``events``, ``log``,
    ``result``, ``card_census``.  Built like ``Round(seed, settings=..., banker=..., stock=...)``."""

    # the reference's own methods over this class's fields: one implementation of the step checks
    if TYPE_CHECKING:
        def card_census(self) -> list[int]: ...
        def effective(self, p: int) -> int: ...
        def legal_actions(self, seat: Any) -> list[Action]: ...
        def legal_mask(self, seat: Any) -> np.ndarray: ...
        def penalised_mask(self, seat: Any) -> np.ndarray: ...
        def penalty_of(self, seat: Any, action: Any) -> str | None: ...
        def play_decision(self, bot: Any) -> None: ...
        def step(self, seat: Any, action: Any) -> None: ...
    else:
        card_census = Round.card_census
        effective = Round.effective
        legal_actions = Round.legal_actions
        legal_mask = Round.legal_mask
        penalised_mask = Round.penalised_mask
        penalty_of = Round.penalty_of
        play_decision = Round.play_decision
        step = Round.step

    def __init__(self, seed: Any = None, *, settings: RoundSettings | None = None, options: Any = None,
                 banker: Any = None, stock: Any = None, impl: Any = "compiled") -> None:
        if impl != "compiled":     # the replay record's rebuild passes it: the compiled engine counts in C
            raise MahjongError(f"a compiled hand counts with impl='compiled', got {short_repr(impl)}")
        self.core = new_core(seed, settings=settings, options=options, banker=banker, stock=stock)
        self.settings = self.core.settings
        self.banker = self.core.banker
        self.jiang = self.core.jiang
        self.stock = self.core.stock
        self.log = []
        self.events = []
        self.seen = [[] for _ in range(PLAYERS)]
        self._sync()

    def _sync(self) -> None:
        """Read the core after a step: the plain fields, and the new events (each seat's too, as
        ``_ref.round.Round._event`` files them)."""
        self.phase = str(self.core.phase)
        self.actor = int(self.core.actor)
        self.result = self.core.result
        self._state: dict[str, Any] | None = None
        for e in self.core.events(len(self.events)):
            self.events.append(e)
            shown = {k: v for k, v in e.items() if k != "to"}
            for p in range(PLAYERS) if e["to"] is None else (e["to"],):
                self.seen[p].append(shown)

    def _snap(self) -> dict[str, Any]:
        if self._state is None:
            self._state = self.core.snapshot()
        return self._state

    def __getattr__(self, name: str) -> Any:
        # the other state fields RoundRecord.view and card_census read (hands, groups, tangzi, offer, ...),
        # from one snapshot of the core per step
        if name in _SNAPSHOT_FIELDS:
            value = self._snap()[name]
            return [[Group(k, c) for k, c in gs] for gs in value] if name == "groups" else value
        raise AttributeError(name)

    @property
    def stock_left(self) -> int:
        return int(self.core.stock_left)

    # ------------------------------------------------------------------ decisions
    def seats_to_act(self) -> list[int]:
        return self.core.seats_to_act()

    def _offered(self, p: int) -> dict[int, str | None]:
        return self.core.offered(p)

    def _apply(self, p: int, a: int, cause: str | None) -> None:
        """Apply an offered action (checked by the caller: ``step``; the core knows its 包子 cause)."""
        self.core.step(p, a)
        self.log.append([p, a])
        self._sync()

    def __repr__(self) -> str:
        return (f"<longcard CompiledHand phase={self.phase} actor={self.actor} banker={self.banker} "
                f"stock_left={self.stock_left}>")


_SNAPSHOT_FIELDS = frozenset({"pos", "hands", "caishen", "folded", "asked", "groups", "group_from", "tangzi",
                              "qi_player", "qi_faces", "dang", "peng_barred", "guohu", "chi_faces", "offer",
                              "offer_from", "offer_kind", "discard_ban", "self_win_ok", "started", "drawn"})
