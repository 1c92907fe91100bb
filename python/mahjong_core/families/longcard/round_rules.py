"""Rule queries of the long-card reference hand (spec changpai.md 2.4-2.8, 3.5, 3.7-3.9, 3.11, 4.7).

:class:`RoundRules` is the half of :class:`._ref.round.Round` that answers questions about the current
state without changing it: dead and live copies, qualification Q and F_theo (through the counting
backend of :mod:`.round_counting`), H (through :mod:`.counting`), win and wait checks (through the
compiled ``_lc_hand``), the claims a seat has on the
card on offer, the 起 player's 跳牌 ban and 挡, the two-卯 state, the last card (尾张) and 杵死.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import _lc_hand
from ..._validate import as_seat
from . import _constants as _C
from . import counting
from .cards import COPIES, N_FACES, SEVENS, YDR
from .fans import face_weights
from .groups import Group, is_chi_group
from .round_actions import HU, PENG, SHA, XIANG, chi_id, chi_pair
from .round_counting import CompiledCounting, ReferenceCounting
from .round_settings import RoundSettings

if TYPE_CHECKING:
    from .result import Score

__all__ = ["CHI_RANK", "PLAYERS", "RANKS", "RoundRules", "RoundState"]

PLAYERS = _C.PLAYERS
RANKS = {HU: 6, XIANG: 5, SHA: 4, PENG: 3}
"""Claim priorities of spec 3.5 (S1's 60/50/40/30/10); a 吃 is 1 (3 for three 7s when
``seven_triple_claim = peng``, CP-21)."""
CHI_RANK = 1
_CHI_PAIRS_WITH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((a, b) for a in range(N_FACES) for b in range(a, N_FACES) if is_chi_group(tuple(sorted((a, b, c)))))
    for c in range(N_FACES))
"""``_CHI_PAIRS_WITH[c]``: every pair (a <= b) of faces that forms a 吃 group with the card c."""


class RoundState:
    """The fields of a hand, declared for the type checker (no values, no behaviour): both halves mixed
    into :class:`._ref.round.Round` (:class:`RoundRules`, :class:`.round_record.RoundRecord`) read them,
    and ``Round.__init__``/``Round._deal`` assign them.  Card counts are per face (21 ints)."""

    backend: CompiledCounting | ReferenceCounting
    """The counting backend (:mod:`.round_counting`): compiled, or the reference."""
    settings: RoundSettings
    banker: int
    stock: list[int]                                  # card ids in stock order (spec 8.4)
    pos: int                                          # stock[pos:] is still in the stock
    log: list[list[int]]                              # [seat, action id] of every action taken
    hands: list[list[int]]                            # concealed counts per seat
    caishen: list[int]                                # 财神 laid out per seat
    groups: list[list[Group]]                         # declared groups per seat
    group_from: list[list[int]]                       # provider seat of each declared group, -1 = own
    tangzi: list[list[int]]                           # 堂子 (discard area) per seat
    folded: list[bool]
    asked: list[bool]
    jiang: tuple[int, int] | None                     # 五门将 J1, J2 (None without wumenjiang)
    qi_player: int                                    # -1 = nobody has 起 yet
    qi_faces: list[int]                               # S of 3.8 (hidden)
    dang: list[int]                                   # faces released by 挡 (3.8)
    peng_barred: list[list[int]]                      # 过碰 per seat and face (3.9)
    guohu: list[list[int]]                            # largest passed fan per seat and face (3.9), -1 = none
    chi_faces: list[list[int]]
    events: list[dict[str, Any]]
    seen: list[list[dict[str, Any]]]                  # each seat's events
    result: dict[str, Any] | None
    started: bool
    phase: str
    actor: int
    offer: int                                        # the card on offer, -1 = none
    offer_from: int
    offer_kind: str                                   # "discard", "turn" or ""
    claim_queue: list[int]
    claim_answered: list[int]
    claim_opts: dict[int, dict[int, int]]             # seat -> action id -> priority
    claim_best: tuple[int, int, int, int] | None      # (rank, distance, seat, action id)
    discard_ban: int
    self_win_ok: bool
    drawn: int                                        # the last replacement kept in hand, -1 = none (3.9)
    tou_order: list[int]

    if TYPE_CHECKING:   # defined by Round (_ref/round.py); declared here for the two halves that call them
        def __init__(self, seed: Any = None, *, settings: RoundSettings | None = None, options: Any = None,
                     banker: Any = None, stock: Any = None, impl: Any = "compiled") -> None: ...

        @property
        def stock_left(self) -> int: ...

        def _step_dir(self) -> int: ...

        def next_active(self, p: int) -> int: ...

        def step(self, seat: Any, action: Any) -> None: ...


class RoundRules(RoundState):
    """State queries of a hand (mixed into :class:`._ref.round.Round`, whose fields they read)."""

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
        p = as_seat(p, PLAYERS)           # a public query: the one rule for a bad seat
        dead = self._dead_for(p)
        own = [0] * N_FACES
        for g in self.groups[p]:
            for c in g.cards:
                own[c] += 1
        return [COPIES - self.hands[p][f] - own[f] - dead[f] for f in range(N_FACES)]

    def _counting_opts(self) -> dict[str, Any]:
        s = self.settings
        return {"mao_bonus": s.mao_bonus, "tmax_quad_value": s.tmax_quad_value, "chi_may_use_kan": s.chi_may_use_kan,
                "kan_as_peng": s.kan_as_peng, "xiang_bonus_on_fan_faces": s.xiang_bonus_on_fan_faces,
                "wumenjiang": s.wumenjiang, "wumenjiang_weight": s.wumenjiang_weight,
                "caishen_count": s.caishen_count}

    def qualified(self, p: int) -> bool:
        """Q(p) of spec 2.8: 7 卯 and T_max >= threshold."""
        p = as_seat(p, PLAYERS)           # a public query: the one rule for a bad seat
        return self.backend.plan(self.hands[p], self.groups[p], self._dead_for(p), p == self.banker,
                                  self.settings).qualified

    def f_theo(self, p: int) -> int:
        """F_theo of spec 2.8 (CP-42); with ``qi_fan_measure = s1`` a 幺地人 pair or any 4 of a kind."""
        p = as_seat(p, PLAYERS)           # a public query: the one rule for a bad seat
        if self.settings.qi_fan_measure == "s1":
            h = self.hands[p]
            return int(any(h[f] >= 2 for f in YDR) or any(n >= 4 for n in h))
        return self.backend.theoretical_fan(self.hands[p], self.groups[p], self._dead_for(p), self.jiang,
                                            self.caishen[p], self.settings)

    def held_fan(self, p: int) -> int:
        """H of spec 2.8."""
        p = as_seat(p, PLAYERS)           # a public query: the one rule for a bad seat
        o = self._counting_opts()
        o["held_fan_includes_kan"] = self.settings.held_fan_includes_kan
        return counting.held_fan(np.array(self.hands[p], np.uint8), self.groups[p], jiang=self.jiang,
                                 caishen=self.caishen[p], **o)

    def weights(self) -> list[int]:
        s = self.settings
        return face_weights(self.jiang, wumenjiang=s.wumenjiang, wumenjiang_weight=s.wumenjiang_weight)

    # ------------------------------------------------------------------ win checks (4.1-4.3, 4.7)
    def _hand_kw(self, p: int) -> dict[str, Any]:
        s = self.settings
        return {"declared": self.groups[p], "banker": p == self.banker, "win_split_kan": s.win_split_kan,
                "all_black_waives_tuo": s.all_black_waives_tuo}

    def _score(self, p: int, counts: list[int]) -> Score:
        return _lc_hand.score(bytes(counts), None, declared=self.groups[p], banker=p == self.banker,
                              jiang=self.jiang, caishen=self.caishen[p], **self.settings.score_options())

    def _wins_with(self, p: int, card: int) -> bool:
        h = list(self.hands[p])
        h[card] += 1
        if h[card] > COPIES or not _lc_hand.is_win(bytes(h), **self._hand_kw(p)):
            return False
        passed = self._guohu_bar(p, card)
        return passed < 0 or self._score(p, h).total > passed

    def _guohu_bar(self, p: int, card: int) -> int:
        """Largest fan passed that a win on ``card`` must exceed (3.9, CP-52); -1 = none."""
        return max(self.guohu[p]) if self.settings.guo_hu_scope == "hand" else self.guohu[p][card]

    def _waits(self, p: int, counts: list[int], groups: list[Group]) -> list[int]:
        s = self.settings
        w = _lc_hand.waits(bytes(counts), declared=groups, banker=p == self.banker,
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
        for a, b in _CHI_PAIRS_WITH[card]:
            if h[a] < (2 if a == b else 1) or h[b] < 1:
                continue
            if not s.chi_may_use_kan and (h[a] == 3 or h[b] == 3):     # CP-23
                continue
            out.append((a, b))
        return out

    def _two_mao(self, p: int) -> bool:
        """Two-卯 state of 4.7: 7 - G = 2."""
        return 7 - len(self.groups[p]) - self.backend.group_count(self.hands[p])[0] == 2

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
        if h[c] == 2 and not self.peng_barred[p][c] and not self._last_mao_block(p, (c, c)) \
                and self._keeps_discard(p, (c, c), -1):
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
            if (p in chi_seats or as_peng) and not self._last_mao_block(p, pr) \
                    and self._keeps_discard(p, pr, self.chi_ban(pr, c)):
                opts[chi_id(*pr)] = RANKS[PENG] if as_peng else CHI_RANK
        return opts

    def chi_ban(self, pair: tuple[int, int], card: int) -> int:
        """The face p may not discard after a 吃 of ``card`` with the held ``pair`` (3.5, CP-22), or -1."""
        rule = self.settings.chi_same_face_discard_ban
        three_sevens = len({pair[0], pair[1], card}) == 3 and card in SEVENS
        return card if rule == "all" or (rule == "seven_only" and three_sevens) else -1

    def _keeps_discard(self, p: int, pair: tuple[int, int], ban: int) -> bool:
        """3.5: a 吃 or 碰 is offered only when the claimant keeps a concealed card he may discard after
        it (not of the face ``ban``); otherwise the claim would leave him nothing to discard but a fold."""
        h = self.hands[p]
        return any(h[f] - (f == pair[0]) - (f == pair[1]) > 0 for f in range(N_FACES) if f != ban)

    def _last_mao_block(self, p: int, pair: tuple[int, int]) -> bool:
        """CP-31: loose cards = one 卯 completed by this card -> the claim is a 胡 or nothing."""
        if not self.settings.last_mao_claim_is_hu_only:
            return False
        h = list(self.hands[p])
        h[pair[0]] -= 1
        h[pair[1]] -= 1
        return self.backend.group_count(h)[1]

    def _chusi(self, p: int) -> bool:
        """杵死 (3.11, 必碰 only): loose cards are one pair X X, X is offered, and the completed hand misses 陀."""
        c = self.offer
        if not self.settings.bi_peng or self.folded[p] or self.hands[p][c] != 2:
            return False
        if self.offer_kind == "discard" and p == self.offer_from:
            return False
        h = list(self.hands[p])
        h[c] -= 2
        if not self.backend.group_count(h)[1]:
            return False
        h[c] += 3
        return not _lc_hand.is_win(bytes(h), **self._hand_kw(p))

    def _mandatory(self, opts: dict[int, int]) -> int:
        """The claim that 有杀必杀 / 有吐火必吐火 / 必碰 force (3.7), or -1."""
        for a in (XIANG, SHA):
            if a in opts:
                return a
        if self.settings.bi_peng and PENG in opts:
            return PENG
        return -1
