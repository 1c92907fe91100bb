"""Pure-Python reference engine of one 长牌 幺地人 hand of play, three players (spec changpai.md section 3).

Readable on purpose: every rule of section 3 is one small method that names its paragraph, the state
is plain lists and ints (so that a compiled engine can port it field by field), and the compiled
hand layer (``_lc_hand``: win check, waits, score) and :mod:`.counting` (卯, 陀, qualification,
held and theoretical fan) are reused, never re-implemented.

Flow (spec 3.3-3.14): deal 20 each from the shuffled stock -> 五门将 J1/J2 revealed -> 财神 laid out and
replaced -> 起 stage (QI / PASS / FOLD, from the banker) -> void redeal if nobody 起 -> banker's extra
card -> 偷牌 stage (STAY decisions for seats not asked, 吐火 declarations, replacement draws) -> play:
DISCARD and TURN, each followed by a claim window resolved by the protocol of 8.2.  One seat decides
at a time; :meth:`Round.seats_to_act` names it.

>>> r = Round(seed=7)
>>> r.phase, r.seats_to_act() == [r.banker]
('qi', True)
>>> a = r.legal_actions(r.banker)[-1]; a.kind
'fold'
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

import numpy as np

from ... import _lc_hand
from ..._validate import as_seat, is_int, short_repr
from ...errors import IllegalActionError, MahjongError, StateError
from . import counting
from .cards import CAISHEN, COPIES, N_FACES, SEVENS, YDR
from .fans import face_weights
from .groups import Group, is_chi_group
from .options import RULESET
from .round_actions import (
    ACTION_SIZE,
    FOLD,
    HU,
    PASS,
    PENG,
    QI,
    SHA,
    XIANG,
    Action,
    chi_id,
    chi_pair,
)
from .round_settings import RoundSettings
from .round_settlement import hand_deltas, hand_payments, next_banker

__all__ = ["RANKS", "VERSION", "Round", "counting_cached"]

PLAYERS = 3
DEAL = 20
VERSION = 2
RANKS = {HU: 6, XIANG: 5, SHA: 4, PENG: 3}
"""Claim priorities of spec 3.5 (S1's 60/50/40/30/10); a 吃 is 1 (3 for three 7s when
``seven_triple_claim = peng``, CP-21)."""
CHI_RANK = 1
BAOZI_CAUSES = {"B1": "陀数不够 / 卯数不够", "B2": "未必进必打", "B3": "未两卯必进", "B4": "未尾张必进",
                "B5": "未保持起牌番", "B6": "杵死未扣牌"}
"""包子 causes of spec 3.13."""

_ALL_TRIPLES = tuple((a, b, c) for a in range(N_FACES) for b in range(a, N_FACES) for c in range(b, N_FACES)
                     if a == c or is_chi_group((a, b, c)))


@lru_cache(maxsize=1 << 16)
def _groups_max(counts: tuple[int, ...]) -> tuple[int, bool]:
    """(largest number of disjoint complete 3-card groups, whether every card is in one) of concealed
    counts (spec 4.7 two-卯 state; 3.5 last-卯 rule)."""
    low = next((f for f in range(N_FACES) if counts[f]), None)
    if low is None:
        return 0, True
    c = list(counts)
    c[low] -= 1
    best, whole = _groups_max(tuple(c))[0], False      # the lowest card left out of every group
    c[low] += 1
    for t in _ALL_TRIPLES:
        if t[0] != low or any(c[f] < t.count(f) for f in set(t)):
            continue
        for f in t:
            c[f] -= 1
        n, w = _groups_max(tuple(c))
        for f in t:
            c[f] += 1
        best, whole = max(best, n + 1), whole or w
    return best, whole


def _fully_grouped(counts: list[int]) -> bool:
    return _groups_max(tuple(counts))[1]


@lru_cache(maxsize=1 << 12)
def counting_cached(hand: tuple[int, ...], groups: tuple[Group, ...], dead: tuple[int, ...], banker: bool,
                    opts: tuple[tuple[str, Any], ...]) -> counting.CountingSummary:
    """:func:`counting.counting_summary` memoised: the engine (qualification at every decision point)
    and the bots ask the same question about the same hand many times."""
    return counting.counting_summary(np.array(hand, np.uint8), groups, list(dead), banker=banker, **dict(opts))


class Round:
    """One hand of 长牌 幺地人 (spec section 3) for three seats.

    ``Round(seed, settings=..., options=..., banker=..., stock=...)``: the stock is shuffled by a NumPy
    ``Generator`` from ``seed`` unless given (105 + ``caishen_count`` card kind ids, spec 8.4); the
    first banker is random (``seed``) unless given (spec 3.1).
    """

    def __init__(self, seed: Any = None, *, settings: RoundSettings | None = None, options: Any = None,
                 banker: Any = None, stock: Any = None) -> None:
        if settings is None:
            settings = RoundSettings.from_options(options)
        elif options:
            raise MahjongError("give settings or options, not both")
        if not isinstance(settings, RoundSettings):
            raise MahjongError(f"settings must be a RoundSettings, got {short_repr(settings)}")
        self.settings = s = settings
        if seed is not None and not (is_int(seed) and 0 <= seed < 2**128):
            raise MahjongError(f"seed must be None or an integer >= 0, got {short_repr(seed)}")
        rng = np.random.default_rng(seed)
        deck = [f for f in range(N_FACES) for _ in range(COPIES)] + [CAISHEN] * s.caishen_count
        if stock is None:
            stock = [int(deck[i]) for i in rng.permutation(len(deck))]
        else:
            stock = _checked_stock(stock, deck)
        self.banker = int(rng.integers(PLAYERS)) if banker is None else as_seat(banker, PLAYERS, "banker")
        self.stock: list[int] = list(stock)
        self.log: list[list[int]] = []
        self._deal()

    # ------------------------------------------------------------------ state (spec 3.0)
    def _deal(self) -> None:
        s = self.settings
        self.pos = 0                                   # stock[pos:] is still in the stock (3.2)
        self.hands = [[0] * N_FACES for _ in range(PLAYERS)]
        self.caishen = [0] * PLAYERS
        self.groups: list[list[Group]] = [[] for _ in range(PLAYERS)]
        self.group_from: list[list[int]] = [[] for _ in range(PLAYERS)]   # provider seat, -1 = own
        self.tangzi: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.folded = [False] * PLAYERS
        self.asked = [False] * PLAYERS                 # asked in the 起 stage or decided in the 偷牌 stage
        self.qi_player = -1
        self.qi_faces = [0] * N_FACES                  # S of 3.8 (hidden)
        self.dang = [0] * N_FACES                      # faces released by 挡 (3.8)
        self.peng_barred = [[0] * N_FACES for _ in range(PLAYERS)]
        self.guohu = [[-1] * N_FACES for _ in range(PLAYERS)]   # largest passed fan per face (3.9)
        self.chi_faces = [[0] * N_FACES for _ in range(PLAYERS)]
        self.events: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.started = False
        self.phase = "deal"
        self.actor = -1
        self.offer, self.offer_from, self.offer_kind = -1, -1, ""
        self.claim_queue: list[int] = []
        self.claim_opts: dict[int, dict[int, int]] = {}
        self.claim_best: tuple[int, int, int, int] | None = None   # (rank, distance, seat, action id)
        self.discard_ban = -1
        self.self_win_ok = False
        self.tou_order: list[int] = []
        order = self._order_from(self.banker)
        for k, p in enumerate(order):                  # 3.2: seat k from the banker takes the next 20
            for c in self.stock[DEAL * k: DEAL * k + DEAL]:
                if c == CAISHEN:
                    self.caishen[p] += 1
                else:
                    self.hands[p][c] += 1
            self._event("deal", p, to=p, hand=list(self.hands[p]), caishen=self.caishen[p])
        self.pos = DEAL * PLAYERS
        self.jiang = (self.stock[self.pos], self.stock[-1]) if s.wumenjiang else None   # 3.2, CP-40
        if self.jiang is not None:
            self._event("jiang", -1, cards=list(self.jiang))
        for p in order:                                # 3.3 step 2: 财神 laid out and replaced
            n = self.caishen[p]
            if n:
                self._event("caishen", p, count=n)
            while n:
                c = self._draw()
                n -= 1
                if c == CAISHEN:
                    self.caishen[p] += 1
                    self._event("caishen", p, count=1)
                    n += 1
                else:
                    self.hands[p][c] += 1
                    self._event("draw", p, to=p, card=c, why="caishen")
        self.phase, self.actor = "qi", self.banker

    def _event(self, etype: str, seat: int, *, to: int | None = None, **data: Any) -> None:
        e = {"type": etype, "seat": seat, "to": to}
        e.update(data)
        self.events.append(e)

    def _draw(self) -> int:
        c = self.stock[self.pos]
        self.pos += 1
        return c

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.pos

    def _step_dir(self) -> int:
        return 1 if self.settings.turn_direction == "ccw" else -1    # CP-2

    def _order_from(self, p: int) -> list[int]:
        d = self._step_dir()
        return [(p + d * k) % PLAYERS for k in range(PLAYERS)]

    def _distance(self, src: int, p: int) -> int:
        return ((p - src) * self._step_dir()) % PLAYERS

    def next_active(self, p: int) -> int:
        """The first seat after ``p`` in turn order that has not folded; ``p`` if all others folded (3.1)."""
        for q in self._order_from(p)[1:]:
            if not self.folded[q]:
                return q
        return p

    def effective(self, p: int) -> int:
        """E(p) of spec 2.3."""
        return sum(self.hands[p]) + 3 * len(self.groups[p])

    def _dead_for(self, p: int) -> list[int]:
        """Copies dead outside p's own declared groups: every 堂子 and the other seats' groups (2.4)."""
        dead = [0] * N_FACES
        for q in range(PLAYERS):
            for c in self.tangzi[q]:
                dead[c] += 1
            if q != p:
                for g in self.groups[q]:
                    for c in g.cards:
                        dead[c] += 1
        return dead

    def live(self, p: int) -> list[int]:
        """live_p of spec 2.4 (the card on offer is not dead)."""
        dead = self._dead_for(p)
        own = [0] * N_FACES
        for g in self.groups[p]:
            for c in g.cards:
                own[c] += 1
        return [COPIES - self.hands[p][f] - own[f] - dead[f] for f in range(N_FACES)]

    def _jiang_arg(self) -> Any:
        return self.jiang

    def _counting_opts(self) -> dict[str, Any]:
        s = self.settings
        return {"mao_bonus": s.mao_bonus, "tmax_quad_value": s.tmax_quad_value, "chi_may_use_kan": s.chi_may_use_kan,
                "kan_as_peng": s.kan_as_peng, "xiang_bonus_on_fan_faces": s.xiang_bonus_on_fan_faces,
                "wumenjiang": s.wumenjiang, "wumenjiang_weight": s.wumenjiang_weight,
                "caishen_count": s.caishen_count}

    def qualified(self, p: int) -> bool:
        """Q(p) of spec 2.8: 7 卯 and T_max >= threshold."""
        return counting_cached(tuple(self.hands[p]), tuple(self.groups[p]), tuple(self._dead_for(p)),
                               p == self.banker, tuple(self._counting_opts().items())).qualified

    def f_theo(self, p: int) -> int:
        """F_theo of spec 2.8 (CP-42); with ``qi_fan_measure = s1`` a 幺地人 pair or any 4 of a kind."""
        if self.settings.qi_fan_measure == "s1":
            h = self.hands[p]
            return int(any(h[f] >= 2 for f in YDR) or any(n >= 4 for n in h))
        return counting.theoretical_fan(np.array(self.hands[p], np.uint8), self.groups[p], self._dead_for(p),
                                        jiang=self._jiang_arg(), caishen=self.caishen[p], **self._counting_opts())

    def held_fan(self, p: int) -> int:
        """H of spec 2.8."""
        o = self._counting_opts()
        o["held_fan_includes_kan"] = self.settings.held_fan_includes_kan
        return counting.held_fan(np.array(self.hands[p], np.uint8), self.groups[p], jiang=self._jiang_arg(),
                                 caishen=self.caishen[p], **o)

    def weights(self) -> list[int]:
        s = self.settings
        return face_weights(self._jiang_arg(), wumenjiang=s.wumenjiang, wumenjiang_weight=s.wumenjiang_weight)

    # ------------------------------------------------------------------ win checks (4.1-4.3, 4.7)
    def _hand_kw(self, p: int) -> dict[str, Any]:
        s = self.settings
        return {"declared": self.groups[p], "banker": p == self.banker, "win_split_kan": s.win_split_kan,
                "all_black_waives_tuo": s.all_black_waives_tuo}

    def _score(self, p: int, counts: list[int]):
        return _lc_hand.score(np.array(counts, np.uint8), None, declared=self.groups[p], banker=p == self.banker,
                              jiang=self._jiang_arg(), caishen=self.caishen[p], **self.settings.score_options())

    def _wins_with(self, p: int, card: int) -> bool:
        h = list(self.hands[p])
        h[card] += 1
        if h[card] > COPIES or not _lc_hand.is_win(np.array(h, np.uint8), **self._hand_kw(p)):
            return False
        passed = self._guohu_bar(p, card)
        return passed < 0 or self._score(p, h).total > passed

    def _guohu_bar(self, p: int, card: int) -> int:
        """Largest fan passed that a win on ``card`` must exceed (3.9, CP-52); -1 = none."""
        return max(self.guohu[p]) if self.settings.guo_hu_scope == "hand" else self.guohu[p][card]

    def _waits(self, p: int, counts: list[int], groups: list[Group]) -> list[int]:
        s = self.settings
        w = _lc_hand.waits(np.array(counts, np.uint8), declared=groups, banker=p == self.banker,
                           win_split_kan=s.win_split_kan, all_black_waives_tuo=s.all_black_waives_tuo)
        if s.ready_requires_live:       # CP-29 alternative
            live = self.live(p)
            w = [x for x in w if live[x] >= 1]
        return w

    def _ready_after_claim(self, p: int, pair: tuple[int, int], card: int) -> bool:
        """After claiming ``card`` with the held ``pair`` (and a suitable discard), is p ready (3.7)?"""
        h = list(self.hands[p])
        h[pair[0]] -= 1
        h[pair[1]] -= 1
        cards = tuple(sorted((pair[0], pair[1], card)))
        g = Group("peng" if cards[0] == cards[2] else "chi", cards)
        groups = self.groups[p] + [g]
        for d in range(N_FACES):
            if h[d]:
                h[d] -= 1
                ok = bool(self._waits(p, h, groups))
                h[d] += 1
                if ok:
                    return True
        return False

    def _claim_pairs(self, p: int, card: int) -> list[tuple[int, int]]:
        """Every held pair with which p could 碰 or 吃 ``card`` (eligibility aside)."""
        h = self.hands[p]
        out = [(card, card)] if h[card] == 2 and not self.peng_barred[p][card] else []
        return out + [pr for pr in self._chi_pairs(p, card)]

    def _chi_pairs(self, p: int, card: int) -> list[tuple[int, int]]:
        h, s = self.hands[p], self.settings
        out = []
        for a in range(N_FACES):
            for b in range(a, N_FACES):
                if h[a] < (2 if a == b else 1) or h[b] < 1:
                    continue
                if not is_chi_group(tuple(sorted((a, b, card)))):
                    continue
                if not s.chi_may_use_kan and (h[a] == 3 or h[b] == 3):     # CP-23
                    continue
                out.append((a, b))
        return out

    def _two_mao(self, p: int) -> bool:
        """Two-卯 state of 4.7: 7 - G = 2."""
        return 7 - len(self.groups[p]) - _groups_max(tuple(self.hands[p]))[0] == 2

    def _last_card(self, p: int, card: int) -> bool:
        """尾张 of 4.7 (CP-30): no other live copy of any face whose claim makes p ready."""
        live = self.live(p)
        live[card] -= 1                   # the offered card itself is not counted
        for x in range(N_FACES):
            if live[x] > 0 and any(self._ready_after_claim(p, pr, x) for pr in self._claim_pairs(p, x)):
                return False
        return True

    # ------------------------------------------------------------------ the 起 player (3.8)
    def _tiao_free(self, f: int) -> bool:
        s = self.settings
        p = self.qi_player
        if not self.qi_faces[f]:
            return True
        if any(g.kind != "chi" and g.face == f for g in self.groups[p]):
            return True       # his own 碰/杀/吐火 of the face secured its fan (3.15 "his 地 fan is secured")
        if s.liang_fan_ke_tiao:
            fan = self.f_theo(p) if s.liang_fan_measure == "theoretical" else self.held_fan(p)
            if fan >= 2:
                return True
        live = self.live(p)

        def released(x: int) -> bool:
            return bool(self.dang[x]) or (s.dang_rule != "taken_only" and live[x] == 0)

        if s.dang_rule == "any_face_releases_all":
            return any(released(x) for x in range(N_FACES) if self.qi_faces[x])
        return released(f)

    def _is_tiao(self, p: int, action_id: int) -> bool:
        """Would the action break a 起 fan face (跳牌, CP-24)?"""
        if p != self.qi_player:
            return False
        if action_id < N_FACES:
            return self.settings.tiao_definition == "discard_or_chi" and not self._tiao_free(action_id)
        a, b = chi_pair(action_id)
        c = self.offer
        for f in {a, b}:
            if not self._tiao_free(f):
                return True
        return self.hands[p][c] >= 2 and not self._tiao_free(c)

    # ------------------------------------------------------------------ claim options (3.5, 3.7)
    def _claim_options(self, p: int) -> dict[int, int]:
        """action id -> priority of every claim p has on the card on offer (before mandatory filtering)."""
        s, c, src = self.settings, self.offer, self.offer_from
        if self.folded[p] or (self.offer_kind == "discard" and p == src):
            return {}
        h = self.hands[p]
        opts: dict[int, int] = {}
        if self._wins_with(p, c):
            opts[HU] = RANKS[HU]
        if any(g.kind == "tuhuo_weixiang" and g.face == c for g in self.groups[p]):
            opts[XIANG] = RANKS[XIANG]
        if h[c] == 3:
            opts[SHA] = RANKS[SHA]
        if h[c] == 2 and not self.peng_barred[p][c] and not self._last_mao_block(p, (c, c)):
            opts[PENG] = RANKS[PENG]
        if self.offer_kind == "turn":           # T first, then next_active(T) (CP-20)
            chi_seats = {src, self.next_active(src)}
        elif s.discard_chi_skips_folded:
            chi_seats = {self.next_active(src)}
        else:
            chi_seats = {(src + self._step_dir()) % PLAYERS}
        for pr in self._chi_pairs(p, c):
            three_sevens = len({pr[0], pr[1], c}) == 3 and c in SEVENS
            as_peng = three_sevens and s.seven_triple_claim == "peng"          # CP-21
            if (p in chi_seats or as_peng) and not self._last_mao_block(p, pr):
                opts[chi_id(*pr)] = RANKS[PENG] if as_peng else CHI_RANK
        return opts

    def _last_mao_block(self, p: int, pair: tuple[int, int]) -> bool:
        """CP-31: loose cards = one 卯 completed by this card -> the claim is a 胡 or nothing."""
        if not self.settings.last_mao_claim_is_hu_only:
            return False
        h = list(self.hands[p])
        h[pair[0]] -= 1
        h[pair[1]] -= 1
        return _fully_grouped(h)

    def _chusi(self, p: int) -> bool:
        """杵死 (3.11, 必碰 only): loose cards are one pair X X, X is offered, and the completed hand misses 陀."""
        c = self.offer
        if not self.settings.bi_peng or self.folded[p] or self.hands[p][c] != 2:
            return False
        if self.offer_kind == "discard" and p == self.offer_from:
            return False
        h = list(self.hands[p])
        h[c] -= 2
        if not _fully_grouped(h):
            return False
        h[c] += 3
        return not _lc_hand.is_win(np.array(h, np.uint8), **self._hand_kw(p))

    def _mandatory(self, opts: dict[int, int]) -> int:
        """The claim that 有杀必杀 / 有吐火必吐火 / 必碰 force (3.7), or -1."""
        for a in (XIANG, SHA):
            if a in opts:
                return a
        if self.settings.bi_peng and PENG in opts:
            return PENG
        return -1

    # ------------------------------------------------------------------ decisions and 包子 flags
    def seats_to_act(self) -> list[int]:
        """The seat that decides now (one at a time, spec 8.2), or [] when the hand is over."""
        return [] if self.phase == "end" else [self.actor]

    def _decision(self, p: int) -> dict[int, str | None]:
        """action id -> 包子 cause (None = not penalised) of every action available to p now,
        before ``baozi_actions_allowed`` filtering."""
        if self.phase == "end" or p != self.actor:
            return {}
        s = self.settings
        out: dict[int, str | None] = {}
        if self.phase == "qi":
            q = self.qualified(p)
            if q and self.f_theo(p) >= 1:
                out[QI] = None
            if s.qi_stage_pass or not q:
                out[PASS] = None if q else "B1"
            out[FOLD] = None                           # free in the 起 stage (必进必打)
            return out
        if self.phase == "stay":
            q = self.qualified(p)
            out[PASS] = None if q else "B1"
            out[FOLD] = None
            return out
        q = self.qualified(p)
        b1 = None if q else "B1"
        fold_cause = "B2" if q and s.bi_jin_bi_da else None
        if self.phase == "turn":
            return {PASS: b1, FOLD: fold_cause}
        if self.phase == "discard":
            h = self.hands[p]
            for f in range(N_FACES):
                if h[f] and f != self.discard_ban:
                    out[f] = "B5" if self._is_tiao(p, f) else None
            if self.self_win_ok and _lc_hand.is_win(np.array(h, np.uint8), **self._hand_kw(p)):
                out[HU] = None
            out[FOLD] = fold_cause
            return out
        # claim window
        opts = self.claim_opts[p]
        mand = self._mandatory(opts)
        for a in opts:
            if mand >= 0 and a not in (mand, HU):
                continue
            if a == HU and mand >= 0 and not s.hu_overrides_mandatory:
                continue
            out[a] = b1
            if a >= 21 and a < PENG and b1 is None and self._is_tiao(p, a):
                out[a] = "B5"
        if mand < 0:
            cause = b1
            if cause is None and self._chusi(p):
                cause = "B6"
                fold_cause = None        # 杵死 MUST fold (3.11): 必进必打 cannot forbid it
            # a claim that would be a forbidden 跳牌 is no way to become ready: 两卯必进 / 尾张必进 do not
            # demand it (our reading where 3.7 and 3.8 collide; otherwise every choice would be 包子)
            pairs = [chi_pair(a) for a in opts if 21 <= a < PENG and out.get(a) is None]
            pairs += [(self.offer,) * 2] if PENG in opts else []
            if cause is None and pairs and (s.liang_mao_bi_jin or s.wei_zhang_bi_jin):
                ready = any(self._ready_after_claim(p, pr, self.offer) for pr in pairs)
                if ready and s.liang_mao_bi_jin and self._two_mao(p):
                    cause = "B3"
                elif ready and s.wei_zhang_bi_jin and self._last_card(p, self.offer):
                    cause = "B4"
            out[PASS] = cause
        out[FOLD] = fold_cause
        return out

    def _offered(self, p: int) -> dict[int, str | None]:
        d = self._decision(p)
        if not self.settings.baozi_actions_allowed:     # CP-49: a fully enforced table
            d = {a: c for a, c in d.items() if c is None}
        return d

    def legal_actions(self, seat: Any) -> list[Action]:
        """Typed legal actions of ``seat`` (empty when it is not to act), by id."""
        p = as_seat(seat, PLAYERS)
        return [Action.from_id(a) for a in sorted(self._offered(p))]

    def legal_mask(self, seat: Any) -> np.ndarray:
        """bool[259] of spec 8.2."""
        p = as_seat(seat, PLAYERS)
        m = np.zeros(ACTION_SIZE, np.bool_)
        for a in self._offered(p):
            m[a] = True
        return m

    def penalised_mask(self, seat: Any) -> np.ndarray:
        """bool[259]: the offered actions that incur 包子 (3.13)."""
        p = as_seat(seat, PLAYERS)
        m = np.zeros(ACTION_SIZE, np.bool_)
        for a, cause in self._offered(p).items():
            m[a] = cause is not None
        return m

    def penalty_of(self, seat: Any, action: Any) -> str | None:
        """The 包子 cause the action would incur (None if none); the action must be legal."""
        p = as_seat(seat, PLAYERS)
        a = Action.coerce(action).id
        offered = self._offered(p)
        if a not in offered:
            raise IllegalActionError(f"{Action.from_id(a)} is not legal for seat {p} now")
        return offered[a]

    # ------------------------------------------------------------------ stepping
    def step(self, seat: Any, action: Any) -> None:
        """Apply one decision; an illegal one raises :class:`IllegalActionError` and changes nothing."""
        if self.phase == "end":
            raise IllegalActionError("the hand is over")
        p = as_seat(seat, PLAYERS)
        a = Action.coerce(action).id
        if p != self.actor:
            raise IllegalActionError(f"seat {p} is not to act (seat {self.actor} is)")
        offered = self._offered(p)
        if a not in offered:
            raise IllegalActionError(f"{Action.from_id(a)} is not legal for seat {p} in phase {self.phase}")
        self.log.append([p, a])
        self._event("action", p, action=a, phase=self.phase, to=p if self._private_action(a) else None)
        cause = offered[a]
        if cause is not None:
            self._end_baozi(p, cause)
            return
        getattr(self, f"_do_{self.phase}")(p, a)

    def _private_action(self, a: int) -> bool:
        """A claim-window answer is not shown to the others: a pass would reveal an option and a claim
        that loses would reveal held cards (8.3); the executed claim is public (``claim`` event)."""
        return self.phase == "claim" and a != FOLD

    def _fold(self, p: int) -> bool:
        """Fold p (3.11); True when the hand ended because every seat folded (CP-44)."""
        self.folded[p] = True
        if all(self.folded) and self.phase != "qi" and self.settings.all_folded_ends:
            self._end("huangzhuang", why="all_folded")
            return True
        return False

    # 起 stage (3.3 step 3-4)
    def _do_qi(self, p: int, a: int) -> None:
        self.asked[p] = True
        if a == QI:
            self.qi_player = p
            w = self.weights()
            h = self.hands[p]
            self.qi_faces = [int((w[f] >= 1 and h[f] >= 2) or h[f] >= 4) for f in range(N_FACES)]   # CP-24
            self._start_tou()
            return
        if a == FOLD:
            self.folded[p] = True
        nxt = self._order_from(self.banker)
        k = nxt.index(p)
        if k == PLAYERS - 1:
            self._end("void", why="no_qi")             # 3.3 step 4
            return
        self.actor = nxt[k + 1]

    def _start_tou(self) -> None:
        """3.3 steps 5-6: banker's extra card, then the 偷牌 stage from the banker."""
        s, b = self.settings, self.banker
        if s.banker_extra_card and not self.folded[b]:
            while True:
                c = self._draw()
                if c != CAISHEN:
                    break
                self.caishen[b] += 1
                self._event("caishen", b, count=1)
            self.hands[b][c] += 1
            self._event("draw", b, to=b, card=c, why="extra")
        self.tou_order = self._order_from(b)
        self._advance_tou()

    def _advance_tou(self) -> None:
        while self.tou_order:
            p = self.tou_order[0]
            if self.folded[p]:
                self.tou_order.pop(0)
                continue
            if not self.asked[p]:
                self.phase, self.actor = "stay", p
                return
            self.tou_order.pop(0)
            owed = 0
            for f in range(N_FACES):                   # 有吐火必吐火 (3.3 step 6)
                if self.hands[p][f] == 5:
                    self._lay(p, "tuhuo_xiang", f, 5)
                    owed += 2
                elif self.hands[p][f] == 4:
                    self._lay(p, "tuhuo_weixiang", f, 4)
                    owed += 1
            if owed and not self._replacements(p, owed, -1):
                return
        self._start_play()

    def _do_stay(self, p: int, a: int) -> None:
        self.asked[p] = True
        if a == FOLD and self._fold(p):
            return
        self._advance_tou()

    def _lay(self, p: int, kind: str, f: int, n: int) -> None:
        self.hands[p][f] -= n
        self.groups[p].append(Group(kind, (f,) * (5 if kind == "tuhuo_xiang" else 4)))
        self.group_from[p].append(-1)
        self._event("declare", p, kind=kind, face=f)

    def _start_play(self) -> None:
        """3.3 step 7 (CP-5)."""
        self.started = True
        b = self.banker
        if self.folded[b]:
            self._turn_due(self.next_active(b))
        elif self.settings.banker_extra_card:
            self._discard_due(b, self_win=True, ban=-1)   # 天胡 allowed (CP-45)
        else:
            self._turn_due(b)

    def _turn_due(self, p: int) -> None:
        self.offer, self.offer_from, self.offer_kind = -1, -1, ""
        if self.stock_left == 0:                   # 3.4: a TURN due with an empty stock -> 黄庄
            self.phase = "turn"
            self._end("huangzhuang", why="stock_empty")
            return
        self.phase, self.actor = "turn", p

    def _discard_due(self, p: int, *, self_win: bool, ban: int) -> None:
        self.phase, self.actor = "discard", p
        self.self_win_ok, self.discard_ban = self_win, ban
        self.offer, self.offer_from, self.offer_kind = -1, -1, ""

    # the turn cycle (3.4)
    def _do_turn(self, p: int, a: int) -> None:
        if a == FOLD:
            if not self._fold(p):
                self._turn_due(self.next_active(p))
            return
        while True:
            if self.stock_left == 0:
                self._end("huangzhuang", why="stock_empty")
                return
            c = self._draw()
            if c != CAISHEN:
                break
            self.caishen[p] += 1
            self._event("caishen", p, count=1)
        self._event("turn", p, card=c)
        self._open_window(c, p, "turn")

    def _do_discard(self, p: int, a: int) -> None:
        if a == FOLD:
            if not self._fold(p):
                self._turn_due(self.next_active(p))
            return
        if a == HU:
            self._end_win(p, None)
            return
        self.hands[p][a] -= 1
        self._event("discard", p, card=a)
        self._open_window(a, p, "discard")

    # claim windows (3.5, 8.2 protocol)
    def _open_window(self, c: int, src: int, kind: str) -> None:
        self.offer, self.offer_from, self.offer_kind = c, src, kind
        self.claim_opts = {p: self._claim_options(p) for p in range(PLAYERS)}
        chusi = [p for p in range(PLAYERS) if self._chusi(p) and not self.claim_opts[p]]
        seats = [p for p in range(PLAYERS) if self.claim_opts[p]]
        seats.sort(key=lambda p: (-max(self.claim_opts[p].values()), self._distance(src, p)))
        self.claim_queue = chusi + seats
        self.claim_best = None
        self.phase = "claim"
        self._advance_claim()

    def _best_rank(self, p: int) -> int:
        return max(self.claim_opts[p].values(), default=0)

    def _advance_claim(self) -> None:
        while True:
            best = self.claim_best
            if best is not None:
                r, d, _, _ = best
                if all(self._best_rank(q) < r or (self._best_rank(q) == r and self._distance(self.offer_from, q) > d)
                       for q in self.claim_queue):
                    self._execute_claim(best[2], best[3])
                    return
            if not self.claim_queue:
                self._no_claim()
                return
            q = self.claim_queue[0]
            if self.folded[q]:
                self.claim_queue.pop(0)
                continue
            self.actor = q
            return

    def _do_claim(self, p: int, a: int) -> None:
        opts = self.claim_opts[p]
        self.claim_queue.pop(0)
        if a == FOLD:
            if self._fold(p):
                return
        else:
            if HU in opts and a != HU:                 # 过胡 (3.9)
                h = list(self.hands[p])
                h[self.offer] += 1
                self.guohu[p][self.offer] = max(self.guohu[p][self.offer], self._score(p, h).total)
            if PENG in opts and a != PENG and self.settings.peng_bar_on_pass:   # 过碰 (3.9, CP-53)
                self.peng_barred[p][self.offer] = 1
            if a != PASS:
                r, d = opts[a], self._distance(self.offer_from, p)
                best = self.claim_best
                if best is None or r > best[0] or (r == best[0] and d < best[1]):
                    self.claim_best = (r, d, p, a)
        self._advance_claim()

    def _no_claim(self) -> None:
        src = self.offer_from
        self.tangzi[src].append(self.offer)
        self._event("tangzi", src, card=self.offer)
        self._turn_due(self.next_active(src))

    def _execute_claim(self, q: int, a: int) -> None:
        c = self.offer
        self._event("claim", q, action=a, card=c, source=self.offer_from)
        if self.qi_player >= 0 and q != self.qi_player:
            self.dang[c] = 1                           # 挡 (3.8, CP-25)
        if a in (HU,) or 21 <= a < PENG:
            self._announce_gen(q, c)
        if a == HU:
            h = self.hands[q]
            h[c] += 1
            self._end_win(q, c)
            return
        h = self.hands[q]
        if a == PENG:
            h[c] -= 2
            self._take(q, Group("peng", (c, c, c)))
            self._discard_due(q, self_win=False, ban=-1)
        elif a == SHA:
            h[c] -= 3
            self._take(q, Group("sha", (c,) * 4))
            if self._replacements(q, 1, c):
                self._discard_due(q, self_win=True, ban=-1)
        elif a == XIANG:
            k = next(i for i, g in enumerate(self.groups[q]) if g.kind == "tuhuo_weixiang" and g.face == c)
            self.groups[q][k] = Group("tuhuo_xiang", (c,) * 5)
            self.group_from[q][k] = self.offer_from
            if self._replacements(q, 1, -1):
                self._discard_due(q, self_win=True, ban=-1)
        else:
            x, y = chi_pair(a)
            h[x] -= 1
            h[y] -= 1
            self._take(q, Group("chi", tuple(sorted((x, y, c)))))
            self.chi_faces[q][c] = 1
            rule = self.settings.chi_same_face_discard_ban        # 3.5, CP-22
            three_sevens = len({x, y, c}) == 3 and c in SEVENS
            ban = c if rule == "all" or (rule == "seven_only" and three_sevens) else -1
            self._discard_due(q, self_win=False, ban=ban)

    def _take(self, q: int, g: Group) -> None:
        self.groups[q].append(g)
        self.group_from[q].append(self.offer_from)

    # replacement draws (3.6)
    def _replacements(self, p: int, owed: int, sha_face: int) -> bool:
        """Draw ``owed`` replacement cards for p with the chain rules of 3.6; False when the hand ended."""
        s = self.settings
        while owed:
            if self.stock_left == 0:
                self._end("huangzhuang", why="stock_empty")        # CP-43
                return False
            c = self._draw()
            owed -= 1
            self._event("replacement", p, card=c, to=None if s.show_replacement_draws else p)
            if c == CAISHEN:                                            # 1
                self.caishen[p] += 1
                self._event("caishen", p, count=1)
                owed += 1
                continue
            k = next((i for i, g in enumerate(self.groups[p])
                      if g.face == c and (g.kind == "tuhuo_weixiang" or (g.kind == "sha" and c == sha_face))), -1)
            if k >= 0:                                                  # 2 拖牌, 3 吐火到自己补到
                self.groups[p][k] = Group("tuhuo_xiang", (c,) * 5)
                self._event("declare", p, kind="tuhuo_xiang", face=c)
                owed += 1
                continue
            self.hands[p][c] += 1
            if self.hands[p][c] == 4:                                   # 4 多打 (CP-16)
                self._lay(p, "tuhuo_weixiang", c, 4)
                owed += 1
                continue
            self._announce_draw(p, c, sha_face >= 0)                    # 5
        return True

    # announcements (3.12)
    def _announce(self, p: int, name: str, face: int) -> None:
        if self.settings.announcements == "auto":
            self._event("announce", p, name=name, face=face)

    def _own_kinds(self, p: int, f: int) -> set[str]:
        return {g.kind for g in self.groups[p] if g.kind != "chi" and g.face == f}

    def _announce_gen(self, p: int, c: int) -> None:
        kinds = self._own_kinds(p, c)
        if "peng" in kinds:
            self._announce(p, "四根", c)
        if "sha" in kinds:
            self._announce(p, "五根", c)

    def _announce_draw(self, p: int, c: int, after_sha: bool) -> None:
        kinds = self._own_kinds(p, c)
        bi_peng = self.settings.bi_peng
        if after_sha and "peng" in kinds:
            self._announce(p, "四根上手", c)
        if after_sha and "sha" in kinds:
            self._announce(p, "五根上手", c)
        if after_sha and bi_peng and self.chi_faces[p][c]:
            self._announce(p, "现过", c)
        n = self.hands[p][c]
        if bi_peng and n in (2, 3) and self._dead_for(p)[c] + sum(g.cards.count(c) for g in self.groups[p]) >= 1:
            self._announce(p, "二根" if n == 2 else "三根", c)
        if n == 3 and self.peng_barred[p][c]:
            self._announce(p, "未碰成坎", c)

    # ------------------------------------------------------------------ the end (3.13, 3.14)
    def _end_win(self, q: int, card: int | None) -> None:
        sc = self._score(q, self.hands[q])
        self._end("win", winner=q, card=card, fan=int(sc.total), score=sc.to_dict())

    def _end_baozi(self, p: int, cause: str) -> None:
        self._end("baozi", offender=p, cause=cause, fan=self._baozi_fan(p))

    def _baozi_fan(self, p: int) -> int:
        """N_b of 5.3: max(3, best_win) when ready, else max(3, H); capped.  A seat holding 21 (about to
        discard) is judged after his best discard (our reading: the spec defines 'ready' at 20)."""
        o = self._counting_opts()
        o.update(fan_cap=self.settings.fan_cap, held_fan_includes_kan=self.settings.held_fan_includes_kan,
                 win_split_kan=self.settings.win_split_kan, all_black_waives_tuo=self.settings.all_black_waives_tuo)
        kw = {"banker": p == self.banker, "jiang": self._jiang_arg(), "caishen": self.caishen[p], **o}
        h = list(self.hands[p])
        if self.effective(p) == 20:
            return counting.baozi_fan(np.array(h, np.uint8), self.groups[p], **kw)
        best = 0
        for d in range(N_FACES):
            if h[d]:
                h[d] -= 1
                best = max(best, counting.baozi_fan(np.array(h, np.uint8), self.groups[p], **kw))
                h[d] += 1
        return best

    def _end(self, kind: str, **data: Any) -> None:
        s = self.settings
        if self.phase == "claim" and kind != "win":      # the card on offer was never claimed
            self.tangzi[self.offer_from].append(self.offer)
        res: dict[str, Any] = {"end": kind, **data}
        res["payments"] = [list(x) for x in hand_payments(res, s, self.folded)]
        res["deltas"] = hand_deltas(res, s, self.folded)
        res["next_banker"] = next_banker(res, s, self.banker)
        res["counts"] = kind != "void" and (kind != "baozi" or s.baozi_hand_counts)      # CP-8, CP-57
        self.result = json.loads(json.dumps(res))
        self.phase, self.actor = "end", -1
        self._event("end", -1, result=self.result)

    # ------------------------------------------------------------------ views (8.3)
    def events_for(self, seat: Any) -> list[dict[str, Any]]:
        """The events ``seat`` may see, in order."""
        p = as_seat(seat, PLAYERS)
        return [{k: v for k, v in e.items() if k != "to"} for e in self.events if e["to"] is None or e["to"] == p]

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` may see (spec 8.3); nothing of the others' concealed cards or the stock order."""
        p = as_seat(seat, PLAYERS)
        offer = None if self.offer < 0 else {"card": self.offer, "from": self.offer_from, "kind": self.offer_kind}
        return {
            # who decides in a claim window is shown only to himself: being asked reveals an option (8.3)
            "seat": p, "phase": self.phase, "actor": self.actor if self.phase != "claim" or self.actor == p else None,
            "banker": self.banker, "qi_player": self.qi_player,
            "jiang": None if self.jiang is None else list(self.jiang), "stock_left": self.stock_left,
            "offer": offer, "hand": list(self.hands[p]), "discard_ban": self.discard_ban if p == self.actor else -1,
            "players": [{
                "declared": [{"kind": g.kind, "cards": list(g.cards), "from": None if src < 0 else src}
                             for g, src in zip(self.groups[q], self.group_from[q])],
                "tangzi": list(self.tangzi[q]), "caishen": self.caishen[q], "folded": self.folded[q],
                "concealed": sum(self.hands[q]),
            } for q in range(PLAYERS)],
            "events": self.events_for(p),
            "result": self.result,
        }

    # ------------------------------------------------------------------ replay and JSON (8.4)
    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": RULESET, "version": VERSION, "options": self.settings.to_options(), "banker": self.banker,
                "stock": list(self.stock), "actions": [list(x) for x in self.log], "result": self.result}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Any) -> Round:
        """Rebuild a hand from its replay record, every field checked (``StateError`` names it)."""
        if not isinstance(d, dict):
            raise StateError(f"a long-card round record is a JSON object, got {short_repr(d)}")
        expected = {"ruleset", "version", "options", "banker", "stock", "actions", "result"}
        if set(d) != expected:
            raise StateError(f"record keys must be {sorted(expected)}, got {short_repr(sorted(map(str, d)))}")
        if d["ruleset"] != RULESET:
            raise StateError(f"ruleset: expected {RULESET!r}, got {short_repr(d['ruleset'])}")
        if d["version"] != VERSION or not is_int(d["version"]):
            raise StateError(f"version: expected {VERSION}, got {short_repr(d['version'])}")
        if not isinstance(d["options"], dict):
            raise StateError(f"options: expected an object, got {short_repr(d['options'])}")
        try:
            settings = RoundSettings.from_options(d["options"])
            if not is_int(d["banker"]) or not 0 <= d["banker"] < PLAYERS:
                raise StateError(f"banker: expected a seat 0-2, got {short_repr(d['banker'])}")
            r = cls(settings=settings, banker=d["banker"], stock=d["stock"])
        except StateError:
            raise
        except MahjongError as e:
            raise StateError(f"options/stock: {e}") from None
        actions = d["actions"]
        if not isinstance(actions, list):
            raise StateError(f"actions: expected a list, got {short_repr(actions)}")
        for k, item in enumerate(actions):
            if not (isinstance(item, list) and len(item) == 2 and all(is_int(v) for v in item)):
                raise StateError(f"actions[{k}]: expected [seat, action id], got {short_repr(item)}")
            try:
                r.step(item[0], item[1])
            except MahjongError as e:
                raise StateError(f"actions[{k}]: {e}") from None
        if d["result"] != r.result:
            raise StateError(f"result: the replay gives {short_repr(r.result)}, the record says {short_repr(d['result'])}")
        return r

    @classmethod
    def from_json(cls, data: Any) -> Round:
        if isinstance(data, (str, bytes, bytearray)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as e:
                raise StateError(f"not valid JSON: {short_repr(str(e))}") from None
        return cls.from_dict(data)

    @classmethod
    def replay(cls, record: Any) -> Round:
        """The hand reproduced from a replay record (``to_dict``/``to_json`` output)."""
        return cls.from_json(record) if not isinstance(record, dict) else cls.from_dict(record)

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state (for equality checks in tests)."""
        d = {k: copy.deepcopy(v) for k, v in vars(self).items() if k != "settings"}
        d["groups"] = [[(g.kind, g.cards) for g in gs] for gs in self.groups]
        return d

    def __repr__(self) -> str:
        return f"<longcard Round phase={self.phase} actor={self.actor} banker={self.banker} stock_left={self.stock_left}>"


def _checked_stock(stock: Any, deck: list[int]) -> list[int]:
    if isinstance(stock, (str, bytes)) or not hasattr(stock, "__len__"):
        raise StateError(f"stock: expected a list of {len(deck)} card ids, got {short_repr(stock)}")
    out = list(stock)
    if len(out) != len(deck):
        raise StateError(f"stock: expected {len(deck)} cards (105 + caishen_count), got {len(out)}")
    for k, c in enumerate(out):
        if not is_int(c) or not 0 <= c <= CAISHEN:
            raise StateError(f"stock[{k}]: expected a card id 0-21, got {short_repr(c)}")
    if sorted(int(c) for c in out) != sorted(deck):
        raise StateError("stock: not the deck (each face 5 times, caishen_count 财神)")
    return [int(c) for c in out]
