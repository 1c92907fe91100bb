"""Discard advisor of the long-card game (issue 28, item 3): which card to let go.

:func:`advise` takes a hand that must discard (21 effective cards: ``21 - 3 D`` concealed with ``D``
declared groups) and answers, for every distinct card it may discard, about the 20 it keeps:

``waits``
    each winning card (spec 4.7: 7 groups and 陀 >= the threshold) with the fan and 陀 of the best
    win on it and its ``live`` copies: ``5 - kept - own declared - visible - the discarded card``
    (what the seat has seen, spec 2.4); a wait with no live copy is listed with ``live = 0``;
``live_total``, ``live_fan``, ``best_fan``
    the live copies of all waits, the sum over the waits of live copies x fan, and the largest fan
    over the waits with a live copy (None: none);
``cards_to_win``
    the "cards to a win" distance of the kept cards (:mod:`.distance`) with the copies the seat has
    not seen: 1 = ready with a live wait, None = no win reachable;
``effective``, ``effective_total``
    the faces with a live copy whose arrival lowers that distance, with their live copies (for a
    ready hand: its live waits), and their sum;
``mao``, ``t_max``, ``f_theo``, ``qualified``
    卯, the theoretical maximum 陀, the theoretical fan and the qualification ``mao >= 7`` and
    ``t_max >= threshold`` (spec 2.6-2.8) of the kept cards with the discarded card dead;
``baozi``
    the 包子 the discard itself incurs (spec 3.13): ``"B5"`` for a forbidden 跳牌 (a face of
    ``qi_faces``), else None; ``must_fold``: the kept hand is not qualified, so the seat must fold at
    its next decision point (any other choice there is 包子 B1, 3.11); ``baozi_fan`` and
    ``baozi_points``: what a 包子 with the kept cards would cost, per other player (spec 5.3: the
    best win's fan if ready, else the held fan, at least 3; converted by ``settlement_mode``).

Ranking, best first: a discard that incurs no 包子; then a qualified kept hand (an unqualified one
must fold); then the smaller ``cards_to_win`` (None last); more ``effective_total`` (for a ready
hand, the live waits); the larger ``live_fan``; the larger ``best_fan``; the larger ``t_max``; the larger ``f_theo``; the
lower face index.  (The reference RuleBot of spec 8.5 ranks by ready, 卯, T_max, F_theo; the
advisor puts the distance and the live cards first, as mahjong's advisor does.)

:func:`advise_round` asks the same of a seat that must discard in a round, from what that seat
sees (its view) and the round's own legal and penalised discards.

>>> a = advise("46 46 13 16 34 25 14 14 55 55 55 22", declared=["peng 11×3", "sha 44×4", "sha 66×4"],
...            jiang="36 25")
>>> b = a.best
>>> b.discard_card, b.cards_to_win, [(w.card, w.fan, w.tuo, w.live) for w in b.waits]
('22', 1, [('14', 5, 49, 3), ('36', 4, 43, 5), ('45', 4, 44, 5)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ..._validate import as_flag, short_repr
from ...errors import HandSizeError, MahjongError
from .cards import N_FACES, face_name, format_cards, parse_card
from .counting import (
    CountingSummary,
    _dead_counts,
    _hand_data,
    _options,
    baozi_fan,
    live_counts,
    theoretical_fan,
)
from .distance import hand_sizes, improving_faces
from .fans import settlement_points, threshold
from .groups import Group
from .options import RULESET, check_value

__all__ = ["Advice", "DiscardOption", "Wait", "LiveCard", "advise", "advise_round", "advise_seen", "RANKING"]

RANKING = ("no 包子", "qualified", "cards_to_win", "effective_total", "live_fan", "best_fan", "t_max", "f_theo", "face")
"""The ranking keys in order (the module docstring)."""

_WAIT_KEYS = ("wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces", "fan_cap", "kan_as_peng",
              "win_split_kan", "all_black_waives_tuo", "caishen_count")


def _card(f: int) -> str:
    return face_name(f, "pips")


@dataclass(frozen=True)
class Wait:
    """A winning card of the kept hand: the best win's fan and 陀, and its live copies."""

    face: int
    fan: int
    tuo: int
    live: int

    @property
    def card(self) -> str:
        return _card(self.face)

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "fan": self.fan, "tuo": self.tuo, "live": self.live}


@dataclass(frozen=True)
class LiveCard:
    """An effective card (its arrival lowers the distance) and its live copies."""

    face: int
    live: int

    @property
    def card(self) -> str:
        return _card(self.face)

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "live": self.live}


@dataclass(frozen=True)
class DiscardOption:
    """What one discard leaves (field meanings in the module docstring)."""

    discard: int
    waits: tuple[Wait, ...]
    live_total: int
    live_fan: int
    best_fan: int | None
    cards_to_win: int | None
    effective: tuple[LiveCard, ...]
    effective_total: int
    mao: int
    t_max: int
    f_theo: int
    qualified: bool
    baozi: str | None
    must_fold: bool
    baozi_fan: int
    baozi_points: int | float

    @property
    def discard_card(self) -> str:
        return _card(self.discard)

    def rank_key(self) -> tuple[Any, ...]:
        """The sort key of the ranking (:data:`RANKING`)."""
        return (self.baozi is not None, not self.qualified,
                self.cards_to_win if self.cards_to_win is not None else 99, -self.effective_total,
                -self.live_fan, -(self.best_fan if self.best_fan is not None else -1), -self.t_max, -self.f_theo, self.discard)

    def to_json(self) -> dict[str, Any]:
        return {"discard": self.discard_card, "waits": [w.to_json() for w in self.waits],
                "live_total": self.live_total, "live_fan": self.live_fan, "best_fan": self.best_fan, "cards_to_win": self.cards_to_win,
                "effective": [e.to_json() for e in self.effective], "effective_total": self.effective_total,
                "mao": self.mao, "t_max": self.t_max, "f_theo": self.f_theo, "qualified": self.qualified,
                "baozi": self.baozi, "must_fold": self.must_fold, "baozi_fan": self.baozi_fan,
                "baozi_points": self.baozi_points}


@dataclass(frozen=True)
class Advice:
    """The result of :func:`advise`: every distinct discard, best first."""

    ruleset: str
    hand: tuple[int, ...]
    declared: tuple[Group, ...]
    banker: bool
    threshold: int
    options: tuple[DiscardOption, ...]

    @property
    def best(self) -> DiscardOption:
        return self.options[0]

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "hand": format_cards(self.hand, counts=True),
                "declared": [f"{g.kind} {format_cards(g.cards)}" for g in self.declared],
                "banker": self.banker, "threshold": self.threshold, "ranking": list(RANKING),
                "options": [o.to_json() for o in self.options]}


def _faces(cards: Any, what: str) -> frozenset[int]:
    if cards is None:
        return frozenset()
    if isinstance(cards, str):
        from .cards import parse_cards
        return frozenset(parse_cards(cards))
    try:
        items = list(cards)
    except TypeError:
        raise MahjongError(f"{what} must be cards (a card string or faces), got {short_repr(cards)}") from None
    if len(items) > N_FACES:
        raise MahjongError(f"{what}: at most {N_FACES} faces, got {len(items)}")
    return frozenset(parse_card(c, what) for c in items)


def advise(hand: Any, *, declared: Any = None, visible: Any = None, banker: bool = False, jiang: Any = None,
           caishen: int = 0, qi_faces: Any = None, allowed: Any = None, **options: Any) -> Advice:
    """Rank every distinct discard of a long-card hand that must discard (the module docstring).

    ``hand``: the concealed cards (21 - 3 x declared); ``declared``: the player's declared groups;
    ``visible``: the copies seen outside the hand and the player's own groups (every 堂子, the other
    players' declared groups: a card string or 21 counts); ``banker``: the 34-陀 threshold;
    ``jiang``: the 五门将 cards J1 J2; ``caishen``: 财神 laid out; ``qi_faces``: the faces whose discard
    is a forbidden 跳牌 (the 起 player's 起 fan faces not yet released by 挡, spec 3.8: 包子 B5);
    ``allowed``: the faces the seat may discard (default every held face; e.g. without the banned
    face after a three-7s 吃, 3.5); ``options``: keys of spec 6 (counting, fan and settlement).

    Raises :class:`~mahjong_core.errors.HandSizeError` (not 21 effective cards),
    :class:`~mahjong_core.errors.TileCountError` (more than 5 copies across hand, groups and
    visible), and the card, group and option errors."""
    counts, groups, _ = _hand_data(hand, declared, visible)
    dead0 = [0] * N_FACES if visible is None else _dead_counts(visible)
    banker = as_flag(banker, "banker")
    o = _options(dict(options))
    mode = check_value("settlement_mode", options.get("settlement_mode", "tikan"))
    sizes = hand_sizes(groups)
    if sum(counts) != sizes[1]:
        raise HandSizeError(f"{sum(counts)} concealed cards with {len(groups)} declared groups: a hand that must "
                            f"discard holds {sizes[1]}")
    penal = _faces(qi_faces, "qi_faces")
    may = _faces(allowed, "allowed") if allowed is not None else None
    wait_kw = {k: o[k] for k in _WAIT_KEYS}
    count_kw = {k: o[k] for k in ("mao_bonus", "tmax_quad_value", "chi_may_use_kan")}
    keep_kans, waive = not o["win_split_kan"], o["all_black_waives_tuo"]
    from ... import _lc_hand

    out = []
    for d in range(N_FACES):
        if not counts[d] or (may is not None and d not in may):
            continue
        kept = np.array(counts, np.uint8)   # counts, not a list of faces
        kept[d] -= 1
        dead = np.array(dead0, np.int64)
        dead[d] += 1
        # the compiled counting (the same answers as counting_summary: test_lc_counting_parity)
        live = live_counts(kept, groups, dead)
        mao, t_max = _lc_hand.counting(kept, groups, dead.astype(np.uint8), **count_kw)
        summary = CountingSummary(mao, t_max, threshold(banker), mao >= 7 and t_max >= threshold(banker), tuple(live))
        scores = _lc_hand.wait_scores(kept, declared=groups, banker=banker, jiang=jiang, caishen=caishen, **wait_kw)
        waits = tuple(Wait(f, fan, tuo, live[f]) for f, (fan, tuo) in sorted(scores.items()))
        distance, better = improving_faces(kept.tolist(), groups, live, banker, keep_kans, waive)
        effective = tuple(LiveCard(f, live[f]) for f in better)
        live_fans = [w.fan for w in waits if w.live]
        bz_fan = baozi_fan(kept, groups, banker=banker, jiang=jiang, caishen=caishen,
                           **{k: o[k] for k in (*_WAIT_KEYS, "held_fan_includes_kan")})
        out.append(DiscardOption(
            d, waits, sum(w.live for w in waits), sum(w.live * w.fan for w in waits), max(live_fans) if live_fans else None, distance, effective,
            sum(e.live for e in effective), summary.mao, summary.t_max,
            theoretical_fan(kept, groups, dead, jiang=jiang, caishen=caishen,
                            **{k: o[k] for k in ("wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces",
                                                 "kan_as_peng", "caishen_count")}),
            summary.qualified, "B5" if d in penal else None, not summary.qualified, bz_fan,
            settlement_points(bz_fan, mode)))
    if not out:
        raise MahjongError("no card of the hand may be discarded (allowed names none of the held faces)")
    out.sort(key=DiscardOption.rank_key)
    return Advice(RULESET, tuple(counts), groups, banker, threshold(banker), tuple(out))


def advise_round(rnd: Any, seat: int) -> Advice:
    """:func:`advise` for ``seat`` of a long-card round (:class:`.round_match.LongcardRound`) at its
    DISCARD decision, from the seat's view (spec 8.3): its concealed cards and groups, the 堂子 and
    the other seats' groups as seen, the 将 cards, its 财神; the discards are the round's legal ones
    and ``baozi`` its penalised ones."""
    view: Mapping[str, Any] = rnd.view(seat)
    legal = [i for i in rnd.legal_indices(seat) if i < N_FACES]
    if view.get("phase") != "discard" or not legal:
        raise MahjongError(f"seat {seat} has no discard to make now")
    return advise_seen(view, view["table"], legal, rnd.penalised_mask(seat), rnd.settings.hand.to_options())


def advise_seen(view: Mapping[str, Any], table: Any, legal: Any, penalised: Any, settings: Mapping[str, Any]) -> Advice:
    """:func:`advise` from what a seat that must discard sees: its ``view`` (a hand's or a round's),
    ``table`` the per-seat part of it (a hand's view calls it ``players``, a round's ``table``),
    ``legal`` its legal discards (faces), ``penalised`` its penalised mask (spec 8.2) and
    ``settings`` the hand's options (spec 6).  :func:`advise_round` and the advisor bot
    (:mod:`.advisor_bot`) ask it."""
    p = view["seat"]
    dead = [0] * N_FACES
    for q, player in enumerate(table):
        for c in player["tangzi"]:
            dead[c] += 1
        if q != p:
            for g in player["declared"]:
                for c in g["cards"]:
                    dead[c] += 1
    options = {k: v for k, v in settings.items() if k in _ADVISE_KEYS}
    return advise(np.array(view["hand"], np.uint8), declared=[(g["kind"], g["cards"]) for g in table[p]["declared"]],
                  visible=dead, banker=view["banker"] == p, jiang=view["jiang"], caishen=table[p]["caishen"],
                  qi_faces=[i for i in legal if penalised[i]], allowed=legal, **options)


_ADVISE_KEYS = frozenset(_WAIT_KEYS) | {"mao_bonus", "tmax_quad_value", "chi_may_use_kan", "held_fan_includes_kan",
                                        "settlement_mode"}

