"""Pure-Python reference engine of one 长牌 幺地人 hand of play, three players (spec changpai.md section 3).

Readable on purpose: every rule of section 3 is one small method that names its paragraph, the state
is plain lists and ints (so that a compiled engine can port it field by field), and the compiled
hand layer (``_lc_hand``: win check, waits, score) and :mod:`.counting` (卯, 陀, qualification,
held and theoretical fan) are reused, never re-implemented.  The state queries (live copies,
qualification, claim options, 跳牌, 尾张, 杵死) are in :mod:`.round_rules`; views and the replay record
in :mod:`.round_record`; this module holds the state, the decisions and the flow.

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
from typing import Any

import numpy as np

from .... import _lc_hand
from ...._validate import as_seat, is_int, short_repr
from ....errors import IllegalActionError, MahjongError
from .. import _constants as _C
from .. import counting
from ..cards import CAISHEN, COPIES, N_FACES
from ..groups import Group
from ..round_actions import (
    ACTION_SIZE,
    FOLD,
    HU,
    PASS,
    PENG,
    QI,
    SHA,
    XIANG,
    Action,
    chi_pair,
)
from ..round_counting import counting_backend
from ..round_record import VERSION, RoundRecord, checked_stock
from ..round_rules import PLAYERS, RANKS, RoundRules
from ..round_settings import RoundSettings
from ..round_settlement import hand_deltas, hand_payments, next_banker

__all__ = ["RANKS", "VERSION", "Round"]

DEAL = _C.DEAL
BAOZI_CAUSES = {"B1": "陀数不够 / 卯数不够", "B2": "未必进必打", "B3": "未两卯必进", "B4": "未尾张必进",
                "B5": "未保持起牌番", "B6": "杵死未扣牌"}
"""包子 causes of spec 3.13."""


def _masks(offered: dict[int, str | None]) -> tuple[np.ndarray, np.ndarray]:
    """(legal, penalised) bool[259] masks of the offered actions (spec 8.2, 3.13)."""
    legal = np.zeros(ACTION_SIZE, np.bool_)
    penalised = np.zeros(ACTION_SIZE, np.bool_)
    for a, cause in offered.items():
        legal[a] = True
        penalised[a] = cause is not None
    return legal, penalised


class Round(RoundRules, RoundRecord):
    """One hand of 长牌 幺地人 (spec section 3) for three seats.

    ``Round(seed, settings=..., options=..., banker=..., stock=..., impl=...)``: the stock is shuffled
    by a NumPy ``Generator`` from ``seed`` unless given (105 + ``caishen_count`` card kind ids, spec
    8.4); the first banker is random (``seed``) unless given (spec 3.1).  ``impl`` chooses the counting
    backend (:mod:`.round_counting`): ``"compiled"`` (default) or ``"reference"`` (the oracle); both
    play the same hand.
    """

    def __init__(self, seed: Any = None, *, settings: RoundSettings | None = None, options: Any = None,
                 banker: Any = None, stock: Any = None, impl: Any = "compiled") -> None:
        self.backend = counting_backend(impl)
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
            stock = checked_stock(stock, deck)
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
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(PLAYERS)]   # each seat's events, "to" dropped
        self.result: dict[str, Any] | None = None
        self.started = False
        self.phase = "deal"
        self.actor = -1
        self.offer, self.offer_from, self.offer_kind = -1, -1, ""
        self.claim_queue: list[int] = []
        self.claim_answered: list[int] = []
        self.claim_opts: dict[int, dict[int, int]] = {}
        self.claim_best: tuple[int, int, int, int] | None = None   # (rank, distance, seat, action id)
        self.discard_ban = -1
        self.self_win_ok = False
        self.drawn = -1                                # the last replacement kept in hand: X of a self-drawn win
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
        shown = {k: v for k, v in e.items() if k != "to"}
        for p in range(PLAYERS) if to is None else (to,):
            self.seen[p].append(shown)

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
        p = as_seat(p, PLAYERS)
        for q in self._order_from(p)[1:]:
            if not self.folded[q]:
                return q
        return p

    def card_census(self) -> list[int]:
        """Copies of each card kind (21 faces, then 财神) found in hands, 财神 laid out, 堂子, declared
        groups, the stock and on offer: ``[5] * 21 + [caishen_count]`` when every card is in one place."""
        where = [0] * (N_FACES + 1)
        for p in range(PLAYERS):
            for f in range(N_FACES):
                where[f] += self.hands[p][f]
            where[CAISHEN] += self.caishen[p]
            for c in self.tangzi[p] + [c for g in self.groups[p] for c in g.cards]:
                where[c] += 1
        for c in self.stock[self.pos:] + ([self.offer] if self.phase == "claim" else []):
            where[c] += 1
        return where

    def effective(self, p: int) -> int:
        """E(p) of spec 2.3."""
        p = as_seat(p, PLAYERS)
        return sum(self.hands[p]) + 3 * len(self.groups[p])

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
            faces = [f for f in range(N_FACES) if h[f] and f != self.discard_ban]
            tiao = [f for f in faces if self._is_tiao(p, f)]
            # gap (g): when every card he could discard is a forbidden 跳牌, the restriction yields and
            # discarding one is no 包子 (otherwise every choice would be: a fold is B2 under 必进必打)
            b5 = "B5" if len(tiao) < len(faces) else None
            for f in faces:
                out[f] = b5 if f in tiao else None
            if self._self_win(p):
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
        if b1 is None and self._chusi(p):
            # 杵死 (3.11, 3.13 B6): p MUST fold now, so every other choice (a 吃, the 必碰 碰, a pass) is
            # a B6 包子 and the fold is free (必进必打 cannot forbid it)
            out = dict.fromkeys(out, "B6")
            if mand < 0:
                out[PASS] = "B6"
            out[FOLD] = None
            return out
        if mand < 0:
            cause = b1
            # a claim that would be a forbidden 跳牌 is no way to become ready: 两卯必进 / 尾张必进 do not
            # demand it (our reading where 3.7 and 3.8 collide; otherwise every choice would be 包子)
            claims = {a: chi_pair(a) for a in opts if 21 <= a < PENG and out.get(a) is None}
            if PENG in opts:
                claims[PENG] = (self.offer, self.offer)
            if cause is None and claims and (s.liang_mao_bi_jin or s.wei_zhang_bi_jin):
                ready = {a: self._ready_after_claim(p, pr, self.offer) for a, pr in claims.items()}
                if any(ready.values()) and s.liang_mao_bi_jin and self._two_mao(p):
                    cause = "B3"
                elif any(ready.values()) and s.wei_zhang_bi_jin and self._last_card(p, self.offer):
                    cause = "B4"
                if cause is not None:              # "MUST take such a claim": the others miss it too
                    for a, ok in ready.items():
                        if not ok:
                            out[a] = cause
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
        return _masks(self._offered(as_seat(seat, PLAYERS)))[0]

    def penalised_mask(self, seat: Any) -> np.ndarray:
        """bool[259]: the offered actions that incur 包子 (3.13)."""
        return _masks(self._offered(as_seat(seat, PLAYERS)))[1]

    def play_decision(self, bot: Any) -> None:
        """Let ``bot`` (``choose(view, legal_mask, penalised_mask)``, or ``choose_in(hand, view, ...)``
        for a bot that reads the hand's settings: :mod:`.round_bots`) decide for the seat to act and
        apply it: :meth:`step` with the legal actions worked out once (a bot loop's hot path)."""
        if self.phase == "end":
            raise IllegalActionError("the hand is over")
        p = self.actor
        offered = self._offered(p)
        legal, penalised = _masks(offered)
        choose_in = getattr(bot, "choose_in", None)
        a = choose_in(self, self.view(p), legal, penalised) if choose_in else bot.choose(self.view(p), legal, penalised)
        if a not in offered:
            raise IllegalActionError(f"{Action.from_id(a)} is not legal for seat {p} in phase {self.phase}")
        self._apply(p, int(a), offered[a])

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
        self._apply(p, a, offered[a])

    def _apply(self, p: int, a: int, cause: str | None) -> None:
        """Apply the decision ``a`` of the seat to act, legal with 包子 ``cause`` (checked by the caller)."""
        self.log.append([p, a])
        self._event("action", p, action=a, phase=self.phase, to=p if self._private_action(a) else None)
        if cause is not None:
            self._end_baozi(p, cause, a)
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
            self.drawn = -1                                # 天胡 is not a win on a drawn card
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
        if not self_win:
            self.drawn = -1
        self.offer, self.offer_from, self.offer_kind = -1, -1, ""

    def _self_win(self, p: int) -> bool:
        """May p win on his own cards now (4.2: 天胡, or after his replacement draws)?  A self-drawn win
        on the drawn face X is subject to 过胡 (3.9) like a claimed one; 天胡 has no drawn card."""
        if not self.self_win_ok or not _lc_hand.is_win(bytes(self.hands[p]), **self._hand_kw(p)):
            return False
        if self.drawn < 0:
            return True
        passed = self._guohu_bar(p, self.drawn)
        return passed < 0 or self._score(p, self.hands[p]).total > passed

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
        if self.drawn >= 0 and self._self_win(p):      # 过胡 (3.9) of a self-drawn win on the drawn face
            x = self.drawn
            self.guohu[p][x] = max(self.guohu[p][x], self._score(p, self.hands[p]).total)
        self.hands[p][a] -= 1
        self._event("discard", p, card=a)
        self._open_window(a, p, "discard")

    # claim windows (3.5, 8.2 protocol)
    def _open_window(self, c: int, src: int, kind: str) -> None:
        self.offer, self.offer_from, self.offer_kind = c, src, kind
        self.claim_answered = []
        self.claim_best = None
        self.phase = "claim"
        self._queue_claimants()
        self._advance_claim()

    def _queue_claimants(self) -> None:
        """Every seat not yet asked with a claim (or a 杵死 fold) on the card, in the order of 8.2: 杵死
        seats first, then by best rank and nearness to the source.  Run again when a seat folds in the
        window, since the 吃 seat is next_active(source) (CP-20: "如B已经跳牌，则C能吃")."""
        todo = [p for p in range(PLAYERS) if p not in self.claim_answered and not self.folded[p]]
        self.claim_opts = {p: self._claim_options(p) if p in todo else self.claim_opts.get(p, {})
                           for p in range(PLAYERS)}
        chusi = [p for p in todo if self._chusi(p) and not self.claim_opts[p]]
        seats = [p for p in todo if self.claim_opts[p]]
        seats.sort(key=lambda p: (-max(self.claim_opts[p].values()), self._distance(self.offer_from, p)))
        self.claim_queue = chusi + seats

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
        self.claim_answered.append(p)
        if a == FOLD:
            if self._fold(p):
                return
            self._queue_claimants()
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
        self.phase = "execute"            # the card is taken: no longer on offer if the hand ends here
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
            self._discard_due(q, self_win=False, ban=self.chi_ban((x, y), c))     # 3.5, CP-22

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
            self.drawn = c
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

    def _end_baozi(self, p: int, cause: str, action: int) -> None:
        fan = self._baozi_fan(p, action if action < N_FACES else -1)
        self._end("baozi", offender=p, cause=cause, cause_name=BAOZI_CAUSES[cause], fan=fan)

    def _baozi_fan(self, p: int, discard: int = -1) -> int:
        """N_b of 5.3: max(3, best_win) when ready, else max(3, H); capped.  An offender holding 21 cards
        is counted on 20 of them (5.3, CP-63): after the ``discard`` he made (B5), the 20 he keeps;
        after any other offending act, the best of his possible discards (every face he holds but the
        one banned after his 吃, 3.5)."""
        o = self._counting_opts()
        o.update(fan_cap=self.settings.fan_cap, held_fan_includes_kan=self.settings.held_fan_includes_kan,
                 win_split_kan=self.settings.win_split_kan, all_black_waives_tuo=self.settings.all_black_waives_tuo)
        kw = {"banker": p == self.banker, "jiang": self.jiang, "caishen": self.caishen[p], **o}
        h = list(self.hands[p])
        if self.effective(p) == 20:
            return counting.baozi_fan(np.array(h, np.uint8), self.groups[p], **kw)
        if discard >= 0:
            h[discard] -= 1
            return counting.baozi_fan(np.array(h, np.uint8), self.groups[p], **kw)
        faces = [d for d in range(N_FACES) if h[d] and d != self.discard_ban] or [d for d in range(N_FACES) if h[d]]
        best = 0
        for d in faces:
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

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state (for equality checks in tests)."""
        d = {k: copy.deepcopy(v) for k, v in vars(self).items() if k not in ("settings", "backend")}
        d["groups"] = [[(g.kind, g.cards) for g in gs] for gs in self.groups]
        return d

    def __repr__(self) -> str:
        return f"<longcard Round phase={self.phase} actor={self.actor} banker={self.banker} stock_left={self.stock_left}>"
