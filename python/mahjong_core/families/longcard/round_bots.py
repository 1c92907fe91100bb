"""Reference bots of the long-card hand (spec changpai.md 8.5, CP-62): ``RandomBot`` and ``RuleBot``.

A bot sees only its seat's view (8.3) and the two masks of 8.2, and returns an action id:
``bot.choose(view, legal_mask, penalised_mask)``; a bot that also reads the room's rules (spec 6,
public to every seat) plays under the settings of the hand it decides for:
``bot.choose_in(hand, view, legal_mask, penalised_mask)``, what :meth:`._ref.round.Round.play_decision`
and ``act`` / ``act_index`` call.  ``act(rnd, seat)`` (the typed action) and
``act_index(rnd, seat)`` (its position among the legal ids) are the shared bot protocol of
:mod:`mahjong_core.game.bots`, built on ``choose`` from the round's public per-seat API.  Both are deterministic given their inputs (and the
random bot's seed); ties go to the lowest action id.

- :class:`RandomBot`: uniform over the legal actions that incur no 包子.
- :class:`RuleBot`: FOLD iff not qualified; QI whenever legal; HU whenever legal; a mandatory claim
  when PASS is not offered; otherwise the claim or discard that maximises (ready, 卯, T_max, F_theo);
  PASS when no claim is offered.  It never takes a penalised action while an
  unpenalised one exists.

>>> from ._ref.round import Round
>>> r = Round(seed=3)
>>> end = play_hand(r, [RuleBot(r.settings) for _ in range(3)])
>>> sum(end["deltas"])
0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _lc_hand
from ..._validate import short_repr
from ...errors import IllegalActionError, MahjongError
from .cards import N_FACES
from .groups import Group
from .round_actions import CHI_BASE, FOLD, HU, PASS, PENG, QI, Action, chi_pair
from .round_counting import counting_backend
from ._ref.round import Round
from .round_rules import RANKS
from .round_settings import RoundSettings

__all__ = ["RandomBot", "RuleBot", "play_hand"]


class _Protocol:
    """``act`` / ``act_index`` of the shared bot protocol, from :meth:`choose` and the seat's view."""

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        raise NotImplementedError

    def choose_in(self, hand: Any, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        """:meth:`choose` for a seat of ``hand`` (a reference or compiled hand): a bot that reads the
        rules reads ``hand.settings``, whatever it was built with."""
        return self.choose(view, legal, penalised)

    def _choice(self, rnd: Any, seat: int) -> int:
        hand = _hand_of(rnd)
        if seat not in hand.seats_to_act():
            raise IllegalActionError(f"seat {seat} is not to act now (to act: {hand.seats_to_act()})")
        return self.choose_in(hand, hand.view(seat), hand.legal_mask(seat), hand.penalised_mask(seat))

    def act(self, rnd: Any, seat: int) -> Action:
        return Action.from_id(self._choice(rnd, seat))

    def act_index(self, rnd: Any, seat: int) -> int:
        """On a hand (:class:`._ref.round.Round`): the position of the action among the legal ids; on
        the shared round API (:class:`.round_match.LongcardRound`, whose mask index is the action id,
        what ``mahjong_core.game.bots.play_steps`` passes to ``step``): the action id."""
        a = self._choice(rnd, seat)
        if _hand_of(rnd) is not rnd:
            return a
        return int(np.searchsorted(np.flatnonzero(rnd.legal_mask(seat)), a))


def _hand_of(rnd: Any) -> Round:
    """The hand engine of ``rnd``: itself, or the hand a :class:`.round_match.LongcardRound` wraps
    (a reference :class:`._ref.round.Round` or a :class:`.round_engine.CompiledHand`)."""
    from .round_engine import CompiledHand

    hand = getattr(rnd, "hand", None)
    return hand if isinstance(hand, (Round, CompiledHand)) else rnd  # type: ignore[return-value]  # the same step API


class RandomBot(_Protocol):
    """Uniform over the legal, non-penalised actions (``seed``: NumPy ``Generator`` seed)."""

    def __init__(self, seed: Any = None) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        ok = np.flatnonzero(legal & ~penalised)
        if len(ok) == 0:
            ok = np.flatnonzero(legal)
        return int(self.rng.choice(ok))


def _groups(view: dict[str, Any], seat: int) -> tuple[Group, ...]:
    return tuple(Group(g["kind"], tuple(g["cards"])) for g in view["players"][seat]["declared"])


def _dead(view: dict[str, Any], seat: int) -> list[int]:
    dead = [0] * N_FACES
    for q, pl in enumerate(view["players"]):
        for c in pl["tangzi"]:
            dead[c] += 1
        if q != seat:
            for g in pl["declared"]:
                for c in g["cards"]:
                    dead[c] += 1
    return dead


class RuleBot(_Protocol):
    """The greedy reference bot of spec 8.5 (``impl``: the counting backend, as for the round).

    It plays under the settings of the hand it decides for (``act``, ``act_index``,
    ``Round.play_decision``): the options change what it counts (卯, T_max, F_theo, the 财神 of a
    ``caishen_count = 10`` deck).  ``settings`` is used only by a bare :meth:`choose` call, which
    has a view and no hand."""

    def __init__(self, settings: RoundSettings | None = None, impl: Any = "compiled") -> None:
        if settings is not None and not isinstance(settings, RoundSettings):
            raise MahjongError(f"settings must be a RoundSettings or None, got {short_repr(settings)}")
        self.s = settings or RoundSettings()
        self.impl = impl
        self.backend = counting_backend(impl)
        self._bound: dict[RoundSettings, RuleBot] = {self.s: self}

    def for_settings(self, settings: RoundSettings) -> RuleBot:
        """This bot under ``settings`` (itself when they are its own)."""
        bot = self._bound.get(settings)
        if bot is None:
            bot = self._bound[settings] = RuleBot(settings, self.impl)
        return bot

    def choose_in(self, hand: Any, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        return self.for_settings(hand.settings).choose(view, legal, penalised)

    def _ready(self, hand: list[int], groups: tuple[Group, ...], banker: bool) -> bool:
        kw: dict[str, Any] = {"declared": groups, "banker": banker, "win_split_kan": self.s.win_split_kan,
              "all_black_waives_tuo": self.s.all_black_waives_tuo}
        if (sum(hand) + 3 * len(groups)) % 3 == 2:      # 20 effective: ready now
            return bool(_lc_hand.waits(bytes(hand), **kw))
        for d in range(N_FACES):                         # 21: ready after some discard
            if hand[d]:
                hand[d] -= 1
                ok = bool(_lc_hand.waits(bytes(hand), **kw))
                hand[d] += 1
                if ok:
                    return True
        return False

    def _key(self, view: dict[str, Any], hand: list[int], groups: tuple[Group, ...]) -> tuple[int, int, int, int]:
        seat = view["seat"]
        banker = seat == view["banker"]
        dead = _dead(view, seat)
        summ = self.backend.plan(hand, groups, dead, banker, self.s)
        jiang = None if view["jiang"] is None else tuple(view["jiang"])
        ft = self.backend.theoretical_fan(hand, groups, dead, jiang, view["players"][seat]["caishen"], self.s)
        return int(self._ready(list(hand), groups, banker)), summ.mao, summ.t_max, ft

    def choose(self, view: dict[str, Any], legal: np.ndarray, penalised: np.ndarray) -> int:
        ok = [int(a) for a in np.flatnonzero(legal & ~penalised)]
        if not ok:
            return int(np.flatnonzero(legal)[0])
        seat = view["seat"]
        hand = list(view["hand"])
        groups = _groups(view, seat)
        summ = self.backend.plan(hand, groups, _dead(view, seat), seat == view["banker"], self.s)
        if FOLD in ok and not summ.qualified:
            return FOLD
        for a in (QI, HU):
            if a in ok:
                return a
        if view["phase"] == "discard":
            discards = [a for a in ok if a < N_FACES]
            if not discards:
                return ok[0]
            keys = []
            for d in discards:
                hand[d] -= 1
                keys.append((self._key(view, hand, groups), -d))
                hand[d] += 1
            return -max(keys)[1]          # the best key; ties: the lowest id
        claims = [a for a in ok if (a in RANKS and a != HU) or CHI_BASE <= a < PENG]   # 吐火响 杀 碰 吃
        if PASS not in ok:
            return claims[0] if claims else ok[0]       # a mandatory claim (3.7), else the first left
        if not claims:
            return PASS
        card = view["offer"]["card"]
        best_key, best_a = None, PASS      # spec 8.5: the best claim; PASS only when there is none
        for a in claims:
            pair = (card, card) if a == PENG else chi_pair(a)
            h = list(hand)
            h[pair[0]] -= 1
            h[pair[1]] -= 1
            cards = tuple(sorted((pair[0], pair[1], card)))
            g = Group("peng" if cards[0] == cards[2] else "chi", cards)
            k = self._key(view, h, groups + (g,))
            if best_key is None or k > best_key:
                best_key, best_a = k, a
        return best_a


def play_hand(r: Round, bots: list[Any], max_steps: int = 10_000) -> dict[str, Any]:
    """Play ``r`` to its end with one bot per seat; returns the result."""
    for _ in range(max_steps):
        seats = r.seats_to_act()
        if not seats:
            return r.result  # type: ignore[return-value]
        r.play_decision(bots[seats[0]])
    raise RuntimeError(f"hand not finished after {max_steps} steps")
