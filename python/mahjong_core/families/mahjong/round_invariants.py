"""The invariants every round state satisfies, checked explicitly: :func:`check_invariants`.

Play maintains these; a state that breaks one cannot come from play.  The checker works on the
state as plain data (the layout of ``Round.to_dict()``), independently of both engines, and raises
:class:`~mahjong_core.errors.StateError` whose message starts with the path of the offending field.
It runs on every loaded state (after the replay comparison of :mod:`~mahjong_core.game.state`, as a
second line of defence) and, in the property tests, after every step of thousands of rounds of
every ruleset, which holds the checker and the engines to each other.

What is checked:

* **shape**: every key present with its JSON type, integers in range, list lengths bounded
  (:func:`~mahjong_core.families.mahjong.round_schema.state_shape`);
* **the wall**: exactly the ruleset's tiles (the scripted wall of the header, if any), a 0/1
  ``taken`` string as long as the wall, the dealt tiles are the first tiles of the wall;
* **tile conservation**: every tile of the ruleset in exactly one place (the wall, a concealed
  hand, a meld, a discard pool, the flowers set aside, or the added kong's tile during a robbing
  window);
* **hand sizes per phase**: concealed tiles + 3 per meld = 14 for the seat to discard (the seat on
  turn, the dealer during the 天听 window, the first winner of a finished round), 13 otherwise;
* **melds**: a chow is three consecutive tiles of one suit (no honours) claimed from the claimer's
  上家 (when the ruleset says so), a pung or kong three or four identical tiles; a claimed meld
  names a valid other seat and its claimed tile is one of its tiles; a concealed kong names none;
* **the turn**: the drawn tile is in the hand of the seat on turn, ``must_discard`` only right
  after a chow or pung;
* **claim windows**: the claimed tile is the last discard of ``claim.from`` (the added-kong tile of
  an exposed pung in a robbing window), pending seats are distinct other seats in turn order, the
  window is empty outside the claim, rob and 天听 phases;
* **phase fields**: ``earthly_seat``, ``dealer_first``, ``calls_made``, ``kong_dice_used`` (one
  die per completed kong under the die rule), the 报听 flags, ``n_steps`` against the log;
* **a finished round's result**: present exactly when the round is over; the winners, loser,
  method, next dealer and remaining wall agree with the state; each winner's recorded score
  arguments describe his hand, melds, flowers and winds, and re-scoring them gives the recorded
  score, total and fans, at least the minimum;
* **the log**: its header is the state's header, every event has its documented shape, the deal
  events come right after the dice, one per seat in dealing order, and the log ends with the
  round's end exactly when it is over.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from ..._validate import counted
from ...errors import MahjongError, StateError
from ...game.schema import check, first_difference
from .json_types import Event, HeaderEvent, RoundResultDict, RoundState, WinnerRecord
from .constants import MELD_NAMES, PHASE_NAMES, READY_NONE
from .round_schema import event_shape, header_shape, state_shape
from .scoring import score, score_kwargs
from .tiles import SHORT_NAMES as _SHORT, meld_tiles
from .settings import FlowSettings, flow_settings

__all__ = ["check_invariants"]

_CHI, _PON, _KONG, _CKONG = range(4)
_CLAIM_ANSWERS = frozenset((102, 103, 104, 105, 106, 107, 109))


def check_invariants(round_or_state: Any, *, events: bool = True) -> None:
    """Raise :class:`StateError` (naming the field path) unless the round (a ``Round`` of either
    engine) or state (the dict of ``Round.to_dict()``) satisfies every invariant of play listed in
    the module docstring.  ``events=False`` checks the shape of the dice and deal events only, not
    of every later event (the rest of the log checks still run): for a round checked after every
    step, whose events are checked once at its end, and for a loaded round, whose events were
    just compared one by one with those its actions produce."""
    d = round_or_state if isinstance(round_or_state, dict) else _state_of(round_or_state)
    _State(d).check_all(events)


def _state_of(r: Any) -> dict[str, Any]:
    to_dict = getattr(r, "to_dict", None)
    if to_dict is None:
        raise StateError(f"check_invariants needs a round or a state dict, got {type(r).__name__}")
    state: dict[str, Any] = to_dict()
    return state


@lru_cache(maxsize=None)
def _tile_counts(kinds: tuple[int, ...]) -> list[int]:
    want = [0] * 42
    for k in kinds:
        want[k] = 4
    for f in range(34, 42):
        want[f] = 1
    return want


def _bad(path: str, message: str) -> StateError:
    return StateError(f"{path}: {message}")


class _State:
    """One state dict under check: its settings and the derived counts the checks share."""

    def __init__(self, d: Any) -> None:
        if not isinstance(d, dict):
            raise StateError(f"a round state must be an object, got {type(d).__name__}")
        if "header" not in d:
            raise StateError("header: missing")
        check(header_shape(), d["header"], "header")
        h = d["header"]
        try:
            self.s: FlowSettings = flow_settings(h["ruleset"], h["options"])
        except MahjongError as exc:
            raise StateError(f"header.options: {exc}") from None
        self.P = self.s.players
        if h["dealer"] >= self.P:
            raise _bad("header.dealer", f"seat {h['dealer']} in a game of {self.P}")
        check(state_shape(self.P, self.s.n_tiles), d)
        self.d = cast(RoundState, d)  # the shape state_shape checked just above
        self.h: HeaderEvent = h
        self.dealer = h["dealer"]
        self.phase = PHASE_NAMES.index(d["phase"])
        self.phase_name = d["phase"]
        self.remaining = d["wall"]["taken"].count("0")
        self.live = self.remaining - self.s.reserved_tail_tiles
        self.sizes = [sum(d["hands"][s]) + 3 * len(d["melds"][s]) for s in range(self.P)]

    def check_all(self, events: bool = True) -> None:
        self.check_wall()
        self.check_melds()
        self.check_conservation()
        self.check_result()
        self.check_hand_sizes()
        self.check_turn()
        self.check_claim()
        self.check_phase_fields()
        self.check_log(events)

    # ------------------------------------------------------------------ wall and tiles
    def check_wall(self) -> None:
        w = self.d["wall"]
        taken = w["taken"]
        if len(taken) != self.s.n_tiles or taken.strip("01"):
            raise _bad("wall.taken", f"must be a string of {self.s.n_tiles} characters 0 and 1")
        if sorted(w["tiles"]) != self.s.tile_set():
            raise _bad("wall.tiles", f"must hold exactly the {self.s.n_tiles} tiles of {self.s.ruleset!r}")
        scripted = self.h.get("wall")
        if scripted is not None and scripted != w["tiles"]:
            raise _bad("wall.tiles", "differ from the scripted wall of the header")
        if self.live < 0:
            raise _bad("wall.taken", f"{counted(self.remaining, 'tile')} left, fewer than the "
                                     f"{self.s.reserved_tail_tiles} reserved (the round would have ended)")

    def check_conservation(self) -> None:
        count = self._places()
        total = list(map(sum, zip(*count.values())))
        want = _tile_counts(self.s.kinds)
        if total == want:
            return
        t = next(t for t in range(42) if total[t] != want[t])
        places = ", ".join(f"{k} {c[t]}" for k, c in count.items() if c[t])
        raise _bad("tiles", f"{_SHORT[t]} is in {total[t]} places ({places or 'none'}); the ruleset has "
                            f"{want[t]} (every tile must be in exactly one place)")

    def _places(self) -> dict[str, list[int]]:
        """Per place (wall, hands, melds, discards, flowers, table), how many of each tile it holds."""
        d = self.d
        wall = [0] * 42
        for t, x in zip(d["wall"]["tiles"], d["wall"]["taken"]):
            if x == "0":
                wall[t] += 1
        hands = list(map(sum, zip(*d["hands"]))) + [0] * 8
        melds, discards, flowers, table = [0] * 42, [0] * 42, [0] * 42, [0] * 42
        for s in range(self.P):
            for m in d["melds"][s]:
                for t in meld_tiles(m[0], m[1]):
                    melds[t] += 1
            for t in d["discards"][s]:
                discards[t] += 1
            for t in d["flowers"][s]:
                flowers[t] += 1
        if d["phase"] == "rob" and d["claim"]["tile"] >= 0:
            table[d["claim"]["tile"]] += 1  # the added kong's tile, on the table until the window closes
        return {"wall": wall, "hands": hands, "melds": melds, "discards": discards, "flowers": flowers,
                "robbing window": table}

    # ------------------------------------------------------------------ melds and hands
    def check_melds(self) -> None:
        P, kinds = self.P, set(self.s.kinds)
        for s in range(P):
            for i, m in enumerate(self.d["melds"][s]):
                self._check_meld(s, m, f"melds[{s}][{i}]", kinds)

    def _check_meld(self, s: int, m: list[int], path: str, kinds: set[int]) -> None:
        kind, first, frm, claimed, added = m
        P = self.P
        if not 0 <= kind <= 3:
            raise _bad(path, f"meld kind {kind} (0 chi, 1 pon, 2 kong, 3 concealed kong)")
        if not 0 <= first <= 33:
            raise _bad(path, f"first tile {first} is not a tile 0-33")
        if kind == _CHI and (first >= 27 or first % 9 > 6):
            raise _bad(path, f"a chow starting at {_SHORT[first]} is not three consecutive tiles of one suit")
        tiles = meld_tiles(m[0], m[1])
        if any(t not in kinds for t in tiles):
            raise _bad(path, f"tiles {''.join(_SHORT[t] for t in tiles)} are not all in play in {self.s.ruleset!r}")
        if kind == _CKONG:
            if (frm, claimed, added) != (-1, -1, 0):
                raise _bad(path, "a concealed kong is claimed from nobody: [3, tile, -1, -1, 0]")
            return
        if not 0 <= frm < P or frm == s:
            raise _bad(path, f"a claimed meld must name another seat 0-{P - 1} it came from, got {frm}")
        if claimed not in tiles:
            raise _bad(path, f"the claimed tile {claimed} is not one of the meld's tiles")
        if added not in (0, 1) or (added and kind != _KONG):
            raise _bad(path, "only an exposed kong can be an added kong (added 0 or 1)")
        if kind == _CHI and self.s.chi_from_previous_only and frm != (s - 1) % P:
            raise _bad(path, f"a chow is claimed from the 上家 (seat {(s - 1) % P}), not seat {frm}")

    def holder(self) -> "int | None":
        """The seat that holds 14 tiles (concealed + 3 per meld) now, if any."""
        d = self.d
        if self.phase_name in ("turn", "ready_window"):
            return d["turn"]
        res = d["result"]
        if self.phase_name == "over" and isinstance(res, dict) and not res["draw"] and res["winners"]:
            return res["winners"][0]["seat"]
        return None

    def check_hand_sizes(self) -> None:
        holder = self.holder()
        for s in range(self.P):
            want = 14 if s == holder else 13
            if self.sizes[s] != want:
                raise _bad(f"hands[{s}]", f"{sum(self.d['hands'][s])} concealed tiles and {len(self.d['melds'][s])} "
                                          f"melds make {self.sizes[s]}; in phase {self.phase_name} seat {s} must "
                                          f"hold {want} (concealed + 3 per meld)")

    # ------------------------------------------------------------------ turn and claim
    def check_turn(self) -> None:
        d = self.d
        drawn, src, turn = d["drawn"], d["drawn_src"], d["turn"]
        if (drawn < 0) != (src == "none"):
            raise _bad("drawn_src", f"{src!r} with drawn tile {drawn} (none exactly when no tile was drawn)")
        if drawn >= 0:
            if self.phase_name not in ("turn", "over"):
                raise _bad("drawn", f"a drawn tile in phase {self.phase_name}")
            if d["hands"][turn][drawn] < 1:
                raise _bad("drawn", f"the drawn tile {_SHORT[drawn]} is not in the hand of seat {turn}")
        if d["must_discard"]:
            melds = d["melds"][turn]
            if self.phase_name != "turn" or drawn >= 0 or not melds or melds[-1][0] not in (_CHI, _PON) \
                    or melds[-1][2] == turn:
                raise _bad("must_discard", "set only on the turn right after claiming a chow or pung")
        if self.phase_name == "ready_window" and turn != self.dealer:
            raise _bad("turn", f"the dealer (seat {self.dealer}) is on turn during the 天听 window")

    def check_claim(self) -> None:
        d = self.d
        c = d["claim"]
        ph = self.phase_name
        if ph in ("claim", "rob"):
            self._check_window(c, ph)
            return
        if (c["tile"], c["from"], c["last"], c["humanly"]) != (-1, -1, 0, 0):
            raise _bad("claim", f"no discard is open to claims in phase {ph} (tile -1, from -1, last 0, humanly 0)")
        if any(x != -1 for x in c["responses"]):
            raise _bad("claim.responses", f"no claim answers in phase {ph}")
        if ph == "ready_window":
            if not self.s.ready_window:
                raise _bad("phase", f"ruleset {self.s.ruleset!r} (with these options) has no 天听 window")
            self._check_pending(c["pending"], self.dealer, allow_empty=False)
        elif c["pending"]:
            raise _bad("claim.pending", f"nobody answers a claim in phase {ph}")

    def _check_window(self, c: dict[str, Any], ph: str) -> None:
        d = self.d
        frm, t = c["from"], c["tile"]
        if not 0 <= frm < self.P or not 0 <= t <= 33:
            raise _bad("claim", f"an open {ph} window needs a tile and the seat it came from")
        if d["turn"] != frm:
            raise _bad("turn", f"during a claim window the turn stays with seat {frm}")
        if ph == "claim":
            pool = d["discards"][frm]
            if not pool or pool[-1] != t:
                raise _bad("claim.tile", f"{_SHORT[t]} is not the last discard of seat {frm}")
            if c["last"] != (1 if self.live == 0 else 0):
                raise _bad("claim.last", f"must be 1 exactly when no live tile is left ({self.live} are)")
            if c["humanly"] and (frm != self.dealer or not self.s.first_turn_fans or len(pool) != 1):
                raise _bad("claim.humanly", "only the dealer's first discard (with first-turn fans)")
        else:
            if not self.s.rob_kong:
                raise _bad("phase", "robbing a kong is switched off in these options")
            if not any(m[0] == _PON and m[1] == t for m in d["melds"][frm]):
                raise _bad("claim.tile", f"seat {frm} has no exposed pung of {_SHORT[t]} to add a kong to")
            if c["last"] or c["humanly"]:
                raise _bad("claim", "a robbing window has last 0 and humanly 0")
        self._check_pending(c["pending"], frm, allow_empty=False)
        for k in c["pending"] + [frm]:
            if c["responses"][k] != -1:
                raise _bad(f"claim.responses[{k}]", "a seat that has not answered (or the discarder) has -1")
        for k, r in enumerate(c["responses"]):
            if r != -1 and r not in _CLAIM_ANSWERS:
                raise _bad(f"claim.responses[{k}]", f"{r} is no answer to a claim window")

    def _check_pending(self, pending: list[int], first: int, allow_empty: bool) -> None:
        P = self.P
        order = [(pending_seat - first) % P for pending_seat in pending]
        if (not pending and not allow_empty) or 0 in order or order != sorted(set(order)):
            raise _bad("claim.pending", f"{pending}: distinct seats other than {first}, in turn order after it")

    # ------------------------------------------------------------------ phase fields
    def check_phase_fields(self) -> None:
        d, s, P = self.d, self.s, self.P
        melds_total = sum(len(ms) for ms in d["melds"])
        if d["calls_made"] != (1 if melds_total else 0):
            raise _bad("calls_made", f"{d['calls_made']} with {counted(melds_total, 'meld')} on the table (1 exactly "
                                     "when someone has claimed or declared a kong)")
        kongs = sum(1 for ms in d["melds"] for m in ms if m[0] in (_KONG, _CKONG))
        want_dice = kongs if s.kong_replacement == "die" else 0
        if d["kong_dice_used"] != want_dice:
            raise _bad("kong_dice_used", f"{d['kong_dice_used']}, but {want_dice} kong dice were thrown "
                                         f"({kongs} kongs, {s.kong_replacement} replacement)")
        any_discard = any(d["discards"][k] for k in range(P))
        if d["dealer_first"]:
            if any_discard or melds_total or self.phase_name in ("claim", "rob"):
                raise _bad("dealer_first", "the dealer's first turn is over once anything was discarded or melded")
        elif not (any_discard or melds_total or self.phase_name == "over"):
            raise _bad("dealer_first", "0 before the dealer discarded or declared a kong")
        e = d["earthly_seat"]
        if e >= 0:
            if not s.first_turn_fans or e == self.dealer or d["calls_made"] or not d["drew"][e]:
                raise _bad("earthly_seat", f"seat {e}: only a non-dealer's first draw before any call "
                                           "(with first-turn fans)")
            if self.phase_name != "over" and (self.phase_name != "turn" or d["turn"] != e):
                raise _bad("earthly_seat", f"seat {e} is not on his first turn")
        for k in range(P):
            r, rc, hr = d["ready"][k], d["ready_concealed"][k], d["heavenly_ready"][k]
            if r and s.ready_mode == READY_NONE:
                raise _bad(f"ready[{k}]", f"ruleset {s.ruleset!r} has no 报听")
            if (rc or hr) and not r:
                raise _bad(f"ready[{k}]", "ready_concealed / heavenly_ready without 报听")
            if hr and not s.first_turn_fans:
                raise _bad(f"heavenly_ready[{k}]", "天听 needs first-turn fans")
            if rc and s.ready_locks_hand and any(m[0] != _CKONG for m in d["melds"][k]):
                raise _bad(f"ready_concealed[{k}]", "a concealed 报听 locks the hand: no exposed meld after it")
        if d["drew"][self.dealer] and not any_discard and not melds_total and self.phase_name != "over":
            raise _bad(f"drew[{self.dealer}]", "the dealer has not drawn from the wall before his first discard")

    # ------------------------------------------------------------------ result
    def check_result(self) -> None:
        d = self.d
        res = d["result"]
        over = self.phase_name == "over"
        if over != (res is not None):
            raise _bad("result", "present exactly when the round is over")
        if res is None:
            return
        if res["dealer"] != self.dealer:
            raise _bad("result.dealer", f"{res['dealer']}, the dealer is seat {self.dealer}")
        if res["wall_remaining"] != self.remaining:
            raise _bad("result.wall_remaining", f"{res['wall_remaining']}, the wall holds {self.remaining}")
        if res["dealer_continues"] != (res["next_dealer"] == self.dealer):
            raise _bad("result.dealer_continues", "must say whether next_dealer is the dealer")
        winners = res["winners"]
        if res["draw"]:
            if winners:
                raise _bad("result.winners", "a drawn round has no winner")
            want = (self.dealer + 1) % self.P if self.s.dealer_on_draw == "next" else self.dealer
            if res["next_dealer"] != want:
                raise _bad("result.next_dealer", f"after a draw seat {want} deals ({self.s.dealer_on_draw})")
            return
        self._check_winners(res, winners)

    def _check_winners(self, res: RoundResultDict, winners: list[WinnerRecord]) -> None:
        P = self.P
        if not winners:
            raise _bad("result.winners", "a round that is not drawn has a winner")
        if len(winners) > 1 and not self.s.multiple_winners:
            raise _bad("result.winners", "several winners need the multiple_winners option")
        method, loser = winners[0]["method"], winners[0]["loser"]
        seats = [w["seat"] for w in winners]
        for k, w in enumerate(winners):
            if w["method"] != method or w["loser"] != loser:
                raise _bad(f"result.winners[{k}]", "all winners share the method and the loser")
        if method == "self_drawn":
            if loser is not None or len(winners) != 1 or seats[0] != self.d["turn"]:
                raise _bad("result.winners[0]", "a self-drawn win has no loser and is the seat on turn")
        else:
            order = [(x - loser) % P for x in seats] if loser is not None else []
            if loser is None or 0 in order or order != sorted(set(order)):
                raise _bad("result.winners", f"winners {seats} on a claim: other seats than the loser, in turn order")
        if self.s.dealer_on_win == "next":
            want_nd = (self.dealer + 1) % P
        else:
            want_nd = self.dealer if self.dealer in seats else seats[0]
        if res["next_dealer"] != want_nd:
            raise _bad("result.next_dealer", f"{res['next_dealer']}, but seat {want_nd} deals next (2.10)")
        for k, w in enumerate(winners):
            self._check_winner(k, w, method, loser)

    def _check_winner(self, k: int, w: WinnerRecord, method: str, loser: "int | None") -> None:
        d, s = self.d, self.s
        path = f"result.winners[{k}]"
        seat = w["seat"]
        args = w["score_args"]
        if args["ruleset"] != s.ruleset or args["min_fan"] != s.min_fan:
            raise _bad(f"{path}.score_args", f"ruleset / min_fan differ from the round's ({s.ruleset}, {s.min_fan})")
        if args["melds"] != [[MELD_NAMES[m[0]], meld_tiles(m[0], m[1])] for m in d["melds"][seat]]:
            raise _bad(f"{path}.score_args.melds", f"are not the melds of seat {seat}")
        if args["flowers"] != d["flowers"][seat]:
            raise _bad(f"{path}.score_args.flowers", f"are not the flowers of seat {seat}")
        if args.get("win_tile") != w["win_tile"]:
            raise _bad(f"{path}.win_tile", "differs from the score arguments")
        hand = list(args["hand"])
        if k == 0 and w["win_tile"] is not None:
            hand[w["win_tile"]] += 1  # the first winner's hand holds the winning tile
        if hand != d["hands"][seat]:
            raise _bad(f"{path}.score_args.hand", f"is not the concealed hand of seat {seat}")
        self._check_win_flags(path, args, seat, method, loser)
        try:
            sc = score(**score_kwargs(args))
        except MahjongError as exc:
            raise _bad(f"{path}.score_args", f"not a scorable win: {exc}") from None
        diff = first_difference(sc.to_dict(), w["score"], f"{path}.score", against="the score of its arguments")
        if diff is not None:
            raise StateError(diff)
        if w["total"] != sc.total or w["non_flower_total"] != sc.non_flower_total:
            raise _bad(f"{path}.total", f"{w['total']} / {w['non_flower_total']}, but the hand scores "
                                        f"{sc.total} / {sc.non_flower_total}")
        if not sc.meets_minimum:
            raise _bad(f"{path}.score", f"{sc.non_flower_total} fan(s) without flowers, below the minimum {s.min_fan}")

    def _check_win_flags(self, path: str, args: dict[str, Any], seat: int, method: str, loser: "int | None") -> None:
        d, s = self.d, self.s
        a = f"{path}.score_args"
        if bool(args.get("self_drawn")) != (method == "self_drawn"):
            raise _bad(f"{a}.self_drawn", f"must say whether the win ({method}) was self-drawn")
        if bool(args.get("robbing_kong")) != (method == "robbing"):
            raise _bad(f"{a}.robbing_kong", f"must say whether the win ({method}) robbed a kong")
        if s.seat_winds:
            if args.get("seat_wind") != 27 + (seat - self.dealer) % self.P or \
                    args.get("round_wind") != self.h["round_wind"]:
                raise _bad(a, "seat_wind / round_wind are not the winner's")
        elif "seat_wind" in args or "round_wind" in args:
            raise _bad(a, f"ruleset {s.ruleset!r} plays without seat winds")
        ready = bool(d["ready"][seat]) and s.ready_mode != READY_NONE
        if bool(args.get("ready")) != ready or (ready and args.get("ready_concealed") != bool(d["ready_concealed"][seat])):
            raise _bad(f"{a}.ready", f"must match the 报听 of seat {seat}")
        if bool(args.get("heavenly_ready")) != bool(s.first_turn_fans and d["heavenly_ready"][seat]):
            raise _bad(f"{a}.heavenly_ready", f"must match the 天听 of seat {seat}")
        first_turn = ("heavenly", "earthly", "humanly")
        if any(args.get(f) for f in first_turn) and not s.first_turn_fans:
            raise _bad(a, f"ruleset {s.ruleset!r} has no first-turn fans")
        if args.get("heavenly") and (seat != self.dealer or args.get("win_tile") is not None):
            raise _bad(f"{a}.heavenly", "天胡 is the dealer's win on his dealt hand")
        if args.get("earthly") and (seat == self.dealer or method != "self_drawn"):
            raise _bad(f"{a}.earthly", "地胡 is a non-dealer's self-drawn win on his first draw")
        if args.get("humanly") and (method != "discard" or loser != self.dealer):
            raise _bad(f"{a}.humanly", "人胡 is a win on the dealer's first discard")
        if args.get("replacement_bloom", "any") != s.replacement_bloom or \
                bool(args.get("literal_first_turn_exclusions")) != s.literal_first_turn_exclusions:
            raise _bad(a, "evaluator options differ from the round's settings")

    # ------------------------------------------------------------------ log
    def check_log(self, events: bool) -> None:
        d, P = self.d, self.P
        log = d["log"]
        if log[0] is not self.h:  # a round's to_dict shares the header object with its log
            diff = first_difference(self.h, log[0], "log[0]", against="the state's header")
            if diff is not None:
                raise StateError(diff)
        shape = event_shape(P)
        # every event's shape (or, without ``events``, those of the dice and the deal only)
        for i in range(1, len(log) if events else min(len(log), 2 + P)):
            shape.check(log[i], f"log[{i}]")
            if log[i]["type"] == "header":
                raise _bad(f"log[{i}]", "a log has one header, its first event")
        self._check_deal(log)
        actions = sum(1 for e in log if e.get("type") == "action")
        if actions != d["n_steps"]:
            raise _bad("n_steps", f"{d['n_steps']}, but the log holds {counted(actions, 'action')}")
        end = log[-1]
        if (end["type"] == "round_end") != (self.phase_name == "over"):
            raise _bad(f"log[{len(log) - 1}]", "the log ends with round_end exactly when the round is over")
        if end["type"] == "round_end":
            res = d["result"]
            assert res is not None  # check_result: an over round has its result
            if (end["draw"], end["winners"], end["next_dealer"]) != (
                    res["draw"], [w["seat"] for w in res["winners"]], res["next_dealer"]):
                raise _bad(f"log[{len(log) - 1}]", "round_end does not match the result")

    def _check_deal(self, log: list[Event]) -> None:
        P, dealer = self.P, self.dealer
        if len(log) < 2 + P or log[1]["type"] != "dice":
            raise _bad("log[1]", "the dice come right after the header")
        dice = log[1]["dice"]
        if dice != self.d["dice"] or log[1]["sum"] != sum(dice):
            raise _bad("log[1].dice", "are not the round's dice")
        wall = self.d["wall"]["tiles"]
        dealt: list[list[int]] = [[] for _ in range(P)]
        pos = 0
        for _ in range(3):
            for k in range(P):
                dealt[(dealer + k) % P].extend(wall[pos:pos + 4])
                pos += 4
        dealt[dealer].extend(wall[pos:pos + 2])
        pos += 2
        for k in range(1, P):
            dealt[(dealer + k) % P].append(wall[pos])
            pos += 1
        for k in range(P):
            e = log[2 + k]
            seat = (dealer + k) % P
            path = f"log[{2 + k}]"
            if e["type"] != "deal" or e["seat"] != seat:
                raise _bad(path, f"the deal to seat {seat} (deals follow the dice, dealer first)")
            if e["tiles"] != dealt[seat]:
                raise _bad(f"{path}.tiles", f"are not the tiles the wall deals to seat {seat}")
