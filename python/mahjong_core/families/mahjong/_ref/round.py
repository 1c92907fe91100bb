"""Reference (oracle) round engine: the pure-Python state machine of spec section 2.

The shipped engine is the compiled :mod:`mahjong_core._round` behind :class:`mahjong_core.Round`;
this slow, plain implementation is what the parity tests hold it against (same seed, same
actions -> same events, legal actions and state).

The state is plain data (ints, short lists, one ``(players, 34)`` uint8 count array), field by
field the compiled core's; every rule that differs between rulesets is a
field of :class:`~mahjong_core.families.mahjong.settings.FlowSettings`.

Phases: ``ready_window`` (the non-dealer's 天听 window, two-player rulesets), ``turn`` (the player
``turn`` acts on his own hand), ``claim`` (the others answer a discard), ``rob`` (the others may rob
an added kong), ``over``.

>>> from mahjong_core.families.mahjong._ref.round import Round
>>> r = Round("two-player", seed=1)
>>> r.seats_to_act()
[1]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..hand import is_win, waits_mask
from ..scoring import Score, score
from ..constants import MELD_NAMES, PH_CLAIM, PH_OVER, PH_READY_WINDOW, PH_ROB, PH_TURN, PHASE_NAMES
from ..scoring import score_kwargs
from ..tiles import SHORT_NAMES as _SHORT, meld_tiles
from ..json_types import RoundResultDict, WinnerRecord
from ..round import RoundResult
from ..round_base import SCHEMA_VERSION, MahjongRoundBase
from ..actions import (
    CHI_HIGH, CHI_LOW, CHI_MID, DECLARE_READY, DISCARD, DISCARD_READY, KONG_CLAIM,
    KONG_SELF, PASS, PON, WIN,
)
from ..settings import READY_HEAVENLY_ONLY, READY_NONE, FlowSettings
from ..wall import Wall, deal_order, physical_position

__all__ = ["Round", "RoundResult", "SCHEMA_VERSION", "PHASE_NAMES"]

SRC_NONE, SRC_HEAD, SRC_KONG, SRC_FLOWER = range(4)
SRC_NAMES = ("none", "head", "kong", "flower")
M_CHI, M_PON, M_KONG, M_CKONG = range(4)


class Round(MahjongRoundBase):
    """The reference engine's round (same construction arguments as
    :class:`mahjong_core.Round`, see :class:`~mahjong_core.game.round_base.RoundBase`)."""

    engine = "reference"
    RESULT_TYPE = RoundResult   # the contract's class hook (RoundBase), as the compiled engine's

    # state this engine assigns, which the bases declare read-only (the compiled engine computes it)
    phase: int
    claim_tile: int

    # ------------------------------------------------------------------ construction
    def _start(self, s: FlowSettings, header: dict[str, Any], tiles: list[int], dice: list[int],
               kong_dice: list[int]) -> None:
        self._init_fields(s, header, Wall(tiles), dice, kong_dice)
        self._setup()

    def _init_fields(self, s: FlowSettings, header: dict[str, Any], wall: Wall, dice: list[int],
                     kong_dice: list[int]) -> None:
        P = s.players
        self.settings = s
        self.players = P
        self.header = header
        self.seed = header["seed"]
        self.dealer = header["dealer"]
        self.round_wind = header["round_wind"]
        self.wall = wall
        self.dice = dice
        self.kong_dice = kong_dice
        self.kong_dice_used = 0
        self.hands = np.zeros((P, 34), dtype=np.uint8)
        self.melds: list[list[list[int]]] = [[] for _ in range(P)]
        self.discards: list[list[int]] = [[] for _ in range(P)]
        self.flowers: list[list[int]] = [[] for _ in range(P)]
        self.phase = PH_TURN
        self.turn = self.dealer
        self.drawn = -1
        self.drawn_src = SRC_NONE
        self.must_discard = 0
        self.ready = [0] * P
        self.ready_concealed = [0] * P
        self.heavenly_ready = [0] * P
        self.dealer_first = 1
        self.calls_made = 0
        self.drew = [0] * P
        self.earthly_seat = -1
        self.claim_tile = -1
        self.claim_from = -1
        self.claim_last = 0
        self.claim_humanly = 0
        self.pending: list[int] = []
        self.responses = [-1] * P
        self.n_steps = 0
        self._result: "RoundResultDict | None" = None
        self._result_obj: "RoundResult | None" = None
        self.log: list[dict[str, Any]] = [header]
        self._touch()

    def _touch(self) -> None:
        """Drop the caches of legal options and win evaluations (the state changed)."""
        self._opts: dict[int, list[int]] = {}
        self._wins: dict[int, tuple["Score | None", str, "dict | None"]] = {}

    # ------------------------------------------------------------------ basic queries
    def _live(self) -> int:
        return self.wall.remaining - self.settings.reserved_tail_tiles

    @property
    def wall_remaining(self) -> int:
        """Tiles still in the wall (1.4)."""
        return self.wall.remaining

    @property
    def is_over(self) -> bool:
        return self.phase == PH_OVER

    @property
    def result(self) -> "RoundResult | None":
        """The :class:`RoundResult` once the round is over, else ``None``."""
        if self._result is None:
            return None
        if self._result_obj is None:
            self._result_obj = RoundResult(self._result, ruleset=self.settings.ruleset)
        return self._result_obj

    def hand_counts(self, seat: int) -> np.ndarray:
        """A copy of the concealed count array of ``seat``."""
        return self.hands[self._seat(seat)].copy()

    def visible_counts(self) -> list[int]:
        """Counts of the tiles every player can see (D10): all discard pools and all exposed melds
        (concealed kongs are face down and not counted)."""
        v = [0] * 34
        for pool in self.discards:
            for t in pool:
                v[t] += 1
        for ms in self.melds:
            for m in ms:
                if m[0] == M_CKONG:
                    continue
                for t in meld_tiles(m[0], m[1]):
                    v[t] += 1
        return v

    def concealed_size(self, seat: int) -> int:
        """Concealed tiles of ``seat``."""
        return int(self.hands[self._seat(seat)].sum())

    def seats_to_act(self) -> list[int]:
        """Seats that must choose an action now (several during a claim window)."""
        ph = self.phase
        if ph == PH_TURN:
            return [self.turn]
        if ph == PH_OVER:
            return []
        return list(self.pending)

    # ------------------------------------------------------------------ start of the hand
    def _setup(self) -> None:
        s = self.settings
        P = self.players
        ev = self.log
        dsum = self.dice[0] + self.dice[1]
        # display only (2.2 step 3): the S-th player's wall is opened after its S-th stack
        owner, stack = physical_position(P, self.dealer, dsum, 0, s.stacks // P)
        ev.append({"type": "dice", "dice": list(self.dice), "sum": dsum, "opened_wall": owner,
                   "first_stack": stack})
        dealt: list[list[int]] = [[] for _ in range(P)]
        pending_fl: list[list[int]] = [[] for _ in range(P)]
        for seat in deal_order(P, self.dealer):
            t = self.wall.draw_head()
            dealt[seat].append(t)
            if t >= 34:
                pending_fl[seat].append(t)
            else:
                self.hands[seat, t] += 1
        for k in range(P):
            seat = (self.dealer + k) % P
            ev.append({"type": "deal", "seat": seat, "tiles": dealt[seat]})
        # 2.2 step 5: initial flower replacement, dealer first, repeated while replacements are flowers
        for k in range(P):
            seat = (self.dealer + k) % P
            todo = pending_fl[seat]
            while todo:
                nxt = []
                for f in todo:
                    self.flowers[seat].append(f)
                    ev.append({"type": "flower", "seat": seat, "tile": f})
                for _ in todo:
                    t = self.wall.draw_tail()
                    ev.append({"type": "draw", "seat": seat, "tile": t, "from": "tail"})
                    if t >= 34:
                        nxt.append(t)
                    else:
                        self.hands[seat, t] += 1
                todo = nxt
        if s.ready_window:
            self.phase = PH_READY_WINDOW
            self.pending = [(self.dealer + k) % P for k in range(1, P)]
        else:
            self.phase = PH_TURN
            self.turn = self.dealer

    # ------------------------------------------------------------------ score arguments
    def _base_args(self, seat: int) -> dict[str, Any]:
        s = self.settings
        args: dict[str, Any] = {
            "ruleset": s.ruleset,
            "melds": [[MELD_NAMES[m[0]], meld_tiles(m[0], m[1])] for m in self.melds[seat]],
            "flowers": list(self.flowers[seat]),
            "min_fan": s.min_fan,
        }
        if s.replacement_bloom != "any":
            args["replacement_bloom"] = s.replacement_bloom
        if s.literal_first_turn_exclusions:
            args["literal_first_turn_exclusions"] = True
        if s.seat_winds:
            args["seat_wind"] = self.seat_wind(seat)
            args["round_wind"] = self.round_wind
        if s.ready_mode != READY_NONE and self.ready[seat]:
            args["ready"] = True
            args["ready_concealed"] = bool(self.ready_concealed[seat])
        if s.first_turn_fans and self.heavenly_ready[seat]:
            args["heavenly_ready"] = True
        return args

    def _evaluate(self, args: dict[str, Any]) -> tuple["Score | None", str, dict]:
        sc = score(**score_kwargs(args))
        if not sc.meets_minimum:
            return (None, f"the hand is worth {sc.non_flower_total} fan(s) without flowers, below the "
                          f"minimum (起和) of {sc.min_fan}", args)
        return sc, "", args

    def _self_win(self, seat: int) -> tuple["Score | None", str, "dict | None"]:
        """Self-drawn win of the player on turn: (Score or None, reason if not, score args)."""
        c = self._wins.get(seat)
        if c is not None:
            return c
        s = self.settings
        h = self.hands[seat]
        res: tuple
        if self.must_discard:
            res = (None, "after a chi or pon the claimer must discard (2.3)", None)
        elif not is_win(h, ruleset=s.ruleset):
            res = (None, "not a winning hand", None)
        else:
            base = self._base_args(seat)
            vis = self.visible_counts()
            if s.first_turn_fans and seat == self.dealer and self.dealer_first:
                args = dict(base, hand=h.tolist(), win_tile=None, heavenly=True, self_drawn=True)
                res = self._evaluate(args)
            elif self.drawn < 0:
                # the dealer's initial 14 tiles without first-turn fans: no tile was drawn, the
                # best reading over every choice of the winning tile is taken
                best = None
                for t in range(34):
                    if h[t]:
                        hh = h.copy()
                        hh[t] -= 1
                        args = dict(base, hand=hh.tolist(), win_tile=t, self_drawn=True)
                        if vis[t] == 3:
                            args["last_of_kind"] = True
                        sc = score(**score_kwargs(args))
                        key = (sc.non_flower_total, sc.total)
                        if best is None or key > best[0]:
                            best = (key, args)
                res = self._evaluate(best[1])  # type: ignore[index]
            else:
                t = self.drawn
                hh = h.copy()
                hh[t] -= 1
                src = self.drawn_src
                args = dict(base, hand=hh.tolist(), win_tile=t, self_drawn=True)
                if self._live() == 0:
                    args["last_tile"] = True
                if src == SRC_KONG:
                    args["kong_replacement"] = True
                elif src == SRC_FLOWER:
                    args["flower_replacement"] = True
                if vis[t] == 3:
                    args["last_of_kind"] = True
                if self.earthly_seat == seat:
                    args["earthly"] = True
                res = self._evaluate(args)
        self._wins[seat] = res
        return res

    def _claim_win(self, seat: int) -> tuple["Score | None", str, "dict | None"]:
        """Win on the claimed tile (discard or robbed added kong)."""
        c = self._wins.get(seat)
        if c is not None:
            return c
        s = self.settings
        t = self.claim_tile
        h = self.hands[seat]
        h[t] += 1
        try:
            ok = is_win(h, ruleset=s.ruleset)
        finally:
            h[t] -= 1
        if not ok:
            res: tuple = (None, f"not a winning hand with {_SHORT[t]}", None)
        else:
            robbing = self.phase == PH_ROB
            vis = self.visible_counts()[t] - (0 if robbing else 1)
            args = dict(self._base_args(seat), hand=h.tolist(), win_tile=t)
            if self.claim_last:
                args["last_tile"] = True
            if robbing:
                args["robbing_kong"] = True
            if vis == 3:
                args["last_of_kind"] = True
            if self.claim_humanly and seat != self.dealer:
                args["humanly"] = True
            res = self._evaluate(args)
        self._wins[seat] = res
        return res

    # ------------------------------------------------------------------ legal options
    def _ready_allowed(self, seat: int) -> bool:
        s = self.settings
        if s.ready_mode == READY_NONE or self.ready[seat]:
            return False
        if s.ready_mode == READY_HEAVENLY_ONLY:
            return seat == self.dealer and bool(self.dealer_first)
        return True

    def _pon_of(self, seat: int, t: int) -> int:
        for i, m in enumerate(self.melds[seat]):
            if m[0] == M_PON and m[1] == t:
                return i
        return -1

    def _locked(self, seat: int) -> bool:
        return bool(self.ready[seat]) and self.settings.ready_locks_hand

    def _turn_options(self, seat: int) -> list[int]:
        h = self.hands[seat]
        out: list[int] = []
        tiles = np.flatnonzero(h).tolist()
        live = self._live()
        if not self.must_discard:
            if self._self_win(seat)[0] is not None:
                out.append(WIN)
            if self._locked(seat) and self.drawn >= 0:
                d = self.drawn
                if live > 0 and self._pon_of(seat, d) >= 0:
                    out.append(KONG_SELF + d)
                out.append(DISCARD + d)
                out.sort()
                return out
            if live > 0:
                for t in tiles:
                    if h[t] == 4 or (self._pon_of(seat, t) >= 0):
                        out.append(KONG_SELF + t)
        out.extend(tiles)
        if self._ready_allowed(seat):
            name = self.settings.ruleset
            for t in tiles:
                h[t] -= 1
                try:
                    if waits_mask(h, ruleset=name):
                        out.append(DISCARD_READY + t)
                finally:
                    h[t] += 1
        out.sort()
        return out

    def _claim_options(self, seat: int) -> list[int]:
        out: list[int] = []
        if self._claim_win(seat)[0] is not None:
            out.append(WIN)
        if self.phase == PH_CLAIM and not self.claim_last and not self._locked(seat):
            t = self.claim_tile
            h = self.hands[seat]
            n = h[t]
            if n >= 2:
                out.append(PON)
                if n >= 3:
                    out.append(KONG_CLAIM)
            if t < 27 and (not self.settings.chi_from_previous_only
                           or seat == (self.claim_from + 1) % self.players):
                r = t % 9
                if r <= 6 and h[t + 1] and h[t + 2]:
                    out.append(CHI_LOW)
                if 1 <= r <= 7 and h[t - 1] and h[t + 1]:
                    out.append(CHI_MID)
                if r >= 2 and h[t - 2] and h[t - 1]:
                    out.append(CHI_HIGH)
        if out:
            out.append(PASS)
            out.sort()
        return out

    def _legal(self, seat: int) -> list[int]:
        ph = self.phase
        if ph == PH_OVER:
            return []
        if ph == PH_TURN:
            if seat != self.turn:
                return []
        elif seat not in self.pending:
            return []
        o = self._opts.get(seat)
        if o is None:
            if ph == PH_TURN:
                o = self._turn_options(seat)
            elif ph == PH_READY_WINDOW:
                o = [PASS]
                if not self.ready[seat] and waits_mask(self.hands[seat], ruleset=self.settings.ruleset):
                    o = [DECLARE_READY, PASS]
            else:
                o = self._claim_options(seat)
            self._opts[seat] = o
        return o

    def legal_indices(self, seat: int) -> list[int]:
        """Mask indices of the legal actions of ``seat`` (ascending; empty if not to act)."""
        s = self._query_seat(seat)
        return [] if s is None else list(self._legal(s))

    # ------------------------------------------------------------------ encoding
    def _win_reason(self, seat: int) -> str:
        return (self._self_win(seat) if self.phase == PH_TURN else self._claim_win(seat))[1]

    # ------------------------------------------------------------------ step
    def step(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Apply one action of ``seat`` and return the events it caused (the action first).

        ``action``: an action object (:class:`Discard`, :class:`Chi`, ...), its dict, or a mask
        index.  An illegal action raises :class:`~mahjong_core.errors.IllegalActionError` with the
        reason and leaves the state exactly as it was.
        """
        seat, i = self._checked_action(seat, action)
        act = self.decode_action(seat, i)
        start = len(self.log)
        ev = self.log
        ev.append({"type": "action", "seat": seat, "action": act.to_dict()})
        self.n_steps += 1
        ph = self.phase
        if ph == PH_CLAIM or ph == PH_ROB:
            self.responses[seat] = i
            self.pending.remove(seat)
            if not self.pending:
                self._resolve(ev)
        elif ph == PH_TURN:
            if i == WIN:
                self._finish_win([seat], None, "self_drawn", self.drawn, ev)
            else:
                self._touch()
                if i < DISCARD_READY:
                    self._discard(seat, i, False, ev)
                elif i < KONG_SELF:
                    self._discard(seat, i - DISCARD_READY, True, ev)
                else:
                    self._self_kong(seat, i - KONG_SELF, ev)
        else:  # ready window
            self._touch()
            if i == DECLARE_READY:
                self.ready[seat] = 1
                self.ready_concealed[seat] = 1
                if self.settings.first_turn_fans:
                    self.heavenly_ready[seat] = 1
                ev.append({"type": "ready", "seat": seat, "heavenly": bool(self.heavenly_ready[seat])})
            self.pending.remove(seat)
            if not self.pending:
                self.phase = PH_TURN
                self.turn = self.dealer
        return ev[start:]

    # ------------------------------------------------------------------ transitions
    def _discard(self, seat: int, t: int, ready: bool, ev: list) -> None:
        s = self.settings
        self.hands[seat, t] -= 1
        self.discards[seat].append(t)
        humanly = 0
        if seat == self.dealer:
            humanly = 1 if (s.first_turn_fans and self.dealer_first) else 0
        if ready:
            self.ready[seat] = 1
            self.ready_concealed[seat] = 1 if all(m[0] == M_CKONG for m in self.melds[seat]) else 0
            if s.first_turn_fans and seat == self.dealer and self.dealer_first:
                self.heavenly_ready[seat] = 1
        if seat == self.dealer:
            self.dealer_first = 0
        if self.earthly_seat == seat:
            self.earthly_seat = -1
        self.drawn = -1
        self.drawn_src = SRC_NONE
        self.must_discard = 0
        e: dict[str, Any] = {"type": "discard", "seat": seat, "tile": t}
        if ready:
            e["ready"] = True
            e["heavenly"] = bool(self.heavenly_ready[seat])
        ev.append(e)
        self._open_window(seat, t, humanly, False, ev)

    def _self_kong(self, seat: int, t: int, ev: list) -> None:
        self.calls_made = 1
        if seat == self.dealer:
            self.dealer_first = 0
        if self.earthly_seat == seat:
            self.earthly_seat = -1
        self.drawn = -1
        self.drawn_src = SRC_NONE
        if self._pon_of(seat, t) >= 0:
            self.hands[seat, t] -= 1
            ev.append({"type": "kong", "seat": seat, "kind": "added", "tile": t})
            if self.settings.rob_kong:
                self._open_window(seat, t, 0, True, ev)
            else:
                self._complete_added_kong(seat, t, ev)
        else:
            self.hands[seat, t] -= 4
            self.melds[seat].append([M_CKONG, t, -1, -1, 0])
            ev.append({"type": "kong", "seat": seat, "kind": "concealed", "tile": t})
            self._replacement(seat, ev)

    def _complete_added_kong(self, seat: int, t: int, ev: list) -> None:
        m = self.melds[seat][self._pon_of(seat, t)]
        m[0] = M_KONG
        m[4] = 1
        self._replacement(seat, ev)

    def _open_window(self, seat: int, t: int, humanly: int, rob: bool, ev: list) -> None:
        P = self.players
        self.claim_tile = t
        self.claim_from = seat
        self.claim_last = 0 if rob else (1 if self._live() == 0 else 0)
        self.claim_humanly = humanly
        self.phase = PH_ROB if rob else PH_CLAIM
        self.responses = [-1] * P
        pending = []
        for k in range(1, P):
            c = (seat + k) % P
            o = self._claim_options(c)
            self._opts[c] = o
            if o:
                pending.append(c)
        self.pending = pending
        if not pending:
            self._close_window_unclaimed(ev)

    def _clear_claim(self) -> None:
        self.claim_tile = -1
        self.claim_from = -1
        self.claim_last = 0
        self.claim_humanly = 0
        self.pending = []
        self.responses = [-1] * self.players

    def _close_window_unclaimed(self, ev: list) -> None:
        seat, t, last = self.claim_from, self.claim_tile, self.claim_last
        rob = self.phase == PH_ROB
        self._clear_claim()
        self._touch()
        if rob:
            self._complete_added_kong(seat, t, ev)
        elif last:
            self._exhaustive(ev)
        else:
            self._start_turn((seat + 1) % self.players, ev)

    def _resolve(self, ev: list) -> None:
        P = self.players
        s = self.claim_from
        t = self.claim_tile
        order = [(s + k) % P for k in range(1, P)]
        resp = self.responses
        winners = [c for c in order if resp[c] == WIN]
        if winners:
            if not self.settings.multiple_winners:
                winners = winners[:1]
            self._finish_win(winners, s, "robbing" if self.phase == PH_ROB else "discard", t, ev)
            return
        if self.phase == PH_CLAIM:
            for c in order:
                r = resp[c]
                if r == PON or r == KONG_CLAIM:
                    self._clear_claim()
                    self._touch()
                    self._claim_group(c, s, t, r, ev)
                    return
            for c in order:
                r = resp[c]
                if CHI_LOW <= r <= CHI_HIGH:
                    self._clear_claim()
                    self._touch()
                    self._claim_group(c, s, t, r, ev)
                    return
        self._close_window_unclaimed(ev)

    def _claim_group(self, c: int, s: int, t: int, r: int, ev: list) -> None:
        pool = self.discards[s]
        pool.pop()  # the claimed discard is the discarder's last one
        h = self.hands[c]
        self.calls_made = 1
        self.earthly_seat = -1
        self.turn = c
        self.phase = PH_TURN
        self.drawn = -1
        self.drawn_src = SRC_NONE
        if r == KONG_CLAIM:
            h[t] -= 3
            self.melds[c].append([M_KONG, t, s, t, 0])
            ev.append({"type": "kong", "seat": c, "kind": "exposed", "tile": t, "from": s})
            self._replacement(c, ev)
            return
        if r == PON:
            h[t] -= 2
            self.melds[c].append([M_PON, t, s, t, 0])
            ev.append({"type": "pon", "seat": c, "tile": t, "from": s})
        else:
            low = t - (r - CHI_LOW)
            for x in (low, low + 1, low + 2):
                if x != t:
                    h[x] -= 1
            self.melds[c].append([M_CHI, low, s, t, 0])
            ev.append({"type": "chi", "seat": c, "tiles": [low, low + 1, low + 2], "tile": t, "from": s})
        self.must_discard = 1

    def _start_turn(self, seat: int, ev: list) -> None:
        t = self.wall.draw_head()
        if self.settings.first_turn_fans and not self.calls_made and seat != self.dealer and not self.drew[seat]:
            self.earthly_seat = seat
        self.drew[seat] = 1
        ev.append({"type": "draw", "seat": seat, "tile": t, "from": "head"})
        self._receive(seat, t, SRC_HEAD, ev)

    def _replacement(self, seat: int, ev: list) -> None:
        if self.settings.kong_replacement == "die":
            d = self.kong_dice[self.kong_dice_used]
            self.kong_dice_used += 1
            t = self.wall.draw_die(d)
            ev.append({"type": "draw", "seat": seat, "tile": t, "from": "die", "die": d})
        else:
            t = self.wall.draw_tail()
            ev.append({"type": "draw", "seat": seat, "tile": t, "from": "tail"})
        self._receive(seat, t, SRC_KONG, ev)

    def _receive(self, seat: int, t: int, src: int, ev: list) -> None:
        while t >= 34:
            self.flowers[seat].append(t)
            ev.append({"type": "flower", "seat": seat, "tile": t})
            if self._live() <= 0:
                self.turn = seat
                self._exhaustive(ev)
                return
            t = self.wall.draw_tail()
            src = SRC_FLOWER
            ev.append({"type": "draw", "seat": seat, "tile": t, "from": "tail"})
        self.hands[seat, t] += 1
        self.drawn = t
        self.drawn_src = src
        self.turn = seat
        self.phase = PH_TURN
        self.must_discard = 0

    def _next_dealer(self, winners: list[int]) -> int:
        if not winners:
            return self.dealer if self.settings.dealer_on_draw == "stay" else (self.dealer + 1) % self.players
        if self.settings.dealer_on_win == "next":
            return (self.dealer + 1) % self.players
        return self.dealer if self.dealer in winners else winners[0]

    def _exhaustive(self, ev: list) -> None:
        self._clear_claim()
        self._touch()
        self.phase = PH_OVER
        nd = self._next_dealer([])
        self._result = {
            "draw": True,
            "winners": [],
            "dealer": self.dealer,
            "next_dealer": nd,
            "dealer_continues": nd == self.dealer,
            "wall_remaining": self.wall.remaining,
        }
        ev.append({"type": "exhaustive_draw", "wall_remaining": self.wall.remaining})
        ev.append({"type": "round_end", "draw": True, "winners": [], "next_dealer": nd})

    def _finish_win(self, winners: list[int], loser: "int | None", method: str, t: int, ev: list) -> None:
        records: list[WinnerRecord] = []
        scores = []
        for c in winners:
            sc, _, args = (self._self_win(c) if method == "self_drawn" else self._claim_win(c))
            assert sc is not None and args is not None
            scores.append(sc)
            d = sc.to_dict()
            records.append({
                "seat": c,
                "loser": loser,
                "method": method,
                "win_tile": args["win_tile"],
                "total": d["total"],
                "non_flower_total": d["non_flower_total"],
                "score": d,
                "score_args": args,
            })
        self._touch()
        if method == "discard":
            self.discards[loser].pop()  # type: ignore[index]
        if method != "self_drawn":
            self.hands[winners[0], t] += 1
        self._clear_claim()
        self.phase = PH_OVER
        nd = self._next_dealer(winners)
        self._result = {
            "draw": False,
            "winners": records,
            "dealer": self.dealer,
            "next_dealer": nd,
            "dealer_continues": nd == self.dealer,
            "wall_remaining": self.wall.remaining,
        }
        self._result_obj = RoundResult(self._result, scores, ruleset=self.settings.ruleset)
        for r in records:
            ev.append({"type": "win", "seat": r["seat"], "from": r["loser"], "method": method,
                       "tile": r["win_tile"], "total": r["total"],
                       "fans": [[f["id"], f["points"], f["count"]] for f in r["score"]["fans"]]})
        ev.append({"type": "round_end", "draw": False, "winners": list(winners), "next_dealer": nd})

    # ------------------------------------------------------------------ views
    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """The complete state as plain JSON-able data (``schema_version``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "header": self.header,
            "wall": self.wall.to_dict(),
            "dice": list(self.dice),
            "kong_dice": list(self.kong_dice),
            "kong_dice_used": self.kong_dice_used,
            "hands": self.hands.tolist(),
            "melds": [[list(m) for m in ms] for ms in self.melds],
            "discards": [list(p) for p in self.discards],
            "flowers": [list(p) for p in self.flowers],
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "drawn": self.drawn,
            "drawn_src": SRC_NAMES[self.drawn_src],
            "must_discard": self.must_discard,
            "ready": list(self.ready),
            "ready_concealed": list(self.ready_concealed),
            "heavenly_ready": list(self.heavenly_ready),
            "dealer_first": self.dealer_first,
            "calls_made": self.calls_made,
            "drew": list(self.drew),
            "earthly_seat": self.earthly_seat,
            "claim": {
                "tile": self.claim_tile,
                "from": self.claim_from,
                "last": self.claim_last,
                "humanly": self.claim_humanly,
                "pending": list(self.pending),
                "responses": list(self.responses),
            },
            "n_steps": self.n_steps,
            "result": self._result,
            "log": self.log,
        }
