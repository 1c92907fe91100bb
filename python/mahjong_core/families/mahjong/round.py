"""One round (盘/局) of mahjong: the Python API of the compiled game-flow state machine (spec section 2).

The state and every transition live in :class:`mahjong_core._round.RoundCore` (Cython); this class
checks and decodes actions, explains refusals, builds views, results and the JSON form.  Every
rule that differs between rulesets is a field of :class:`~mahjong_core.families.mahjong.settings.FlowSettings`.
The pure-Python reference of the same machine is :mod:`mahjong_core.families.mahjong._ref.round`.

Phases: ``ready_window`` (the non-dealer's 天听 window, two-player rulesets), ``turn`` (the player
``turn`` acts on his own hand), ``claim`` (the others answer a discard), ``rob`` (the others may rob
an added kong), ``over``.

>>> from mahjong_core import Round
>>> r = Round("two-player", seed=1)
>>> r.seats_to_act()
[1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast, overload

import numpy as np
import numpy.typing as npt

from ..._round import (
    RoundCore, RoundView, round_is_over, round_legal_mask, round_seats_to_act, round_step, round_view,
    round_redact_shared, round_view_json, round_view_snapshot,
)
from ..._types import Int, LongcardRulesetName, MahjongRulesetName, WindLike
from ...game import contract
from ..registry import DEFAULT_RULESET
from .rulesetdef import Ruleset
from .rulesets import get_ruleset
from .constants import MELD_NAMES, PH_OVER, PH_TURN, PHASE_NAMES
from .scoring import FLAGS, Score, score, score_kwargs
from .tiles import SHORT_NAMES as _SHORT, meld_tiles
from .bots import play_out_builtin
from .round_base import SCHEMA_VERSION, MahjongRoundBase
from .settings import READY_NONE, FlowSettings
from .settlement import round_deltas
from .wall import Wall
from .json_types import Event, HeaderEvent, RoundResultDict, RoundState, WinEvent, WinnerRecord

if TYPE_CHECKING:
    from ...game.contract import Round as AnyRound

__all__ = ["Round", "RoundResult", "RoundView", "SCHEMA_VERSION", "PHASE_NAMES"]

SRC_NAMES = ("none", "head", "kong", "flower")
_WHY_MUST_DISCARD, _WHY_BELOW_MIN = 1, 3   # the core's refusal codes (2: not a winning hand)

# the win-record flag bits the score arguments spell out (scoring.FLAGS)
_F_LAST_TILE, _F_KONG_REPL, _F_FLOWER_REPL, _F_ROBBING, _F_LAST_OF_KIND = (FLAGS[k] for k in (
    "last_tile", "kong_replacement", "flower_replacement", "robbing_kong", "last_of_kind"))
_F_READY, _F_READY_CONCEALED, _F_EARTHLY, _F_HUMANLY, _F_HEAVENLY_READY = (FLAGS[k] for k in (
    "ready", "ready_concealed", "earthly", "humanly", "heavenly_ready"))


class _Compiled:
    """Per-settings constants handed to the core (built once per FlowSettings)."""

    __slots__ = ("settings_dict", "code", "special", "kind_mask")

    def __init__(self, s: FlowSettings) -> None:
        rs = get_ruleset(s.ruleset)
        self.settings_dict = s.to_dict()
        self.code = rs.code
        self.special = 1 if rs.special_forms else 0
        self.kind_mask = rs.kind_mask


_COMPILED: dict[FlowSettings, _Compiled] = {}


def _compiled(s: FlowSettings) -> _Compiled:
    c = _COMPILED.get(s)
    if c is None:
        c = _COMPILED[s] = _Compiled(s)
    return c


# the quick properties of a result: (draw, winner, loser, method, total, dealer, next_dealer)
_Quick = tuple[bool, "int | None", "int | None", "str | None", int, int, int]


class RoundResult(contract.Result):
    """The outcome of a finished round: plain data (``to_dict()``) plus convenience properties, a
    :class:`mahjong_core.game.contract.Result` (``end``, ``winners``, ``winner``, ``deltas``,
    ``dealer``, ``next_dealer``, ``to_dict``).

    ``winners``: list of dicts ``{seat, loser, method ("self_drawn" | "discard" | "robbing"),
    win_tile, total, non_flower_total, fans, score (Score.to_dict()), score_args}``; empty on a draw.
    The dict is built on first use; the quick properties (``draw``, ``winner``, ``total``, ...)
    do not need it.

    ``deltas``: the per-seat points of the round in its ruleset's unit room (one point per fan,
    the payment rules of the ruleset record's ``settlement_profile``:
    :func:`~mahjong_core.families.mahjong.settlement.unit_room`), summing to 0 (zeros on a draw).
    A room of the settlement layer pays other amounts (its own value per fan, fees, escapes):
    :func:`mahjong_core.settlement.settle_hand`.  ``ruleset``: the ruleset's name, which a
    round and a match give; a result rebuilt from its dict alone learns it from a winner's
    score, so only a draw's deltas need it (``None`` without it).
    """

    __slots__ = ("_d", "_scores", "_quick", "_build", "_ruleset")

    def __init__(self, d: "RoundResultDict | None", scores: "list[Score] | None" = None, *,
                 quick: "_Quick | None" = None, build: Any = None, ruleset: "str | None" = None) -> None:
        self._d = d
        self._scores = scores
        self._quick = quick
        self._build = build
        self._ruleset = ruleset

    def to_dict(self) -> RoundResultDict:
        if self._d is None:
            self._d = self._build()
            self._build = None
        return self._d

    def _q(self) -> _Quick:
        if self._quick is not None:
            return self._quick
        d = self.to_dict()
        w = d["winners"]
        return (d["draw"], w[0]["seat"] if w else None, w[0]["loser"] if w else None,
                w[0]["method"] if w else None, w[0]["total"] if w else 0, d["dealer"], d["next_dealer"])

    @property
    def draw(self) -> bool:
        """True for an exhaustive draw (荒牌)."""
        return self._q()[0]

    @property
    def end(self) -> str:
        """How the round ended: ``"win"``, or ``"draw"`` for an exhaustive draw (荒牌)."""
        return "draw" if self._q()[0] else "win"

    @property
    def winners(self) -> list[WinnerRecord]:
        return self.to_dict()["winners"]

    @property
    def deltas(self) -> "list[int] | None":
        """Per-seat points of the round in its ruleset's unit room (sums to 0; the class docstring).
        ``None`` only for a draw rebuilt from its dict without the ruleset (its table is unknown)."""
        winners = self.to_dict()["winners"]
        ruleset = self._ruleset if self._ruleset is not None else winners[0]["score"]["ruleset"] if winners else None
        if ruleset is None:
            return None
        return round_deltas(ruleset, winners)

    @property
    def winner(self) -> "int | None":
        return self._q()[1]

    @property
    def loser(self) -> "int | None":
        """The discarder (or the robbed kong's declarer); ``None`` for a self-drawn win or a draw."""
        return self._q()[2]

    @property
    def method(self) -> "str | None":
        return self._q()[3]

    @property
    def dealer(self) -> int:
        return self._q()[5]

    @property
    def next_dealer(self) -> int:
        return self._q()[6]

    @property
    def dealer_continues(self) -> bool:
        return self._q()[6] == self._q()[5]

    @property
    def total(self) -> int:
        """Hand value F of the (first) winner, flowers included; 0 on a draw."""
        return self._q()[4]

    @property
    def fans(self) -> list[dict[str, Any]]:
        w = self.to_dict()["winners"]
        return w[0]["score"]["fans"] if w else []

    @property
    def fan_ids(self) -> list[str]:
        return [f["id"] for f in self.fans]

    @property
    def scores(self) -> list[Score]:
        """The :class:`~mahjong_core.families.mahjong.scoring.Score` of each winner (re-evaluated after a JSON load)."""
        if self._scores is None:
            self._scores = [score(**score_kwargs(w["score_args"])) for w in self.to_dict()["winners"]]
        return self._scores

    @property
    def score(self) -> "Score | None":
        s = self.scores
        return s[0] if s else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundResult) and other.to_dict() == self.to_dict()

    def __reduce__(self) -> tuple[Any, tuple[RoundResultDict, "str | None"]]:
        # as plain data: the lazy form refers to the finished round's compiled state
        return (_rebuilt_result, (self.to_dict(), self._ruleset))

    def __repr__(self) -> str:
        if self.draw:
            return f"RoundResult(draw, next_dealer={self.next_dealer})"
        return (f"RoundResult(winner={self.winner}, loser={self.loser}, method={self.method!r}, "
                f"total={self.total}, next_dealer={self.next_dealer})")



def _rebuilt_result(d: RoundResultDict, ruleset: "str | None") -> RoundResult:
    """A pickled :class:`RoundResult` (its dict and ruleset)."""
    return RoundResult(d, ruleset=ruleset)

class Round(MahjongRoundBase):
    """One round of mahjong under ``ruleset``, from a seed (or a scripted wall), played by the
    compiled engine.  ``Round(ruleset="two-player", seed=1)``; the keyword arguments are those of
    :class:`~mahjong_core.families.mahjong.round_base.MahjongRoundBase` (dealer, round_wind, min_fan,
    options, spawn_key, and for tests wall, dice, kong_dice)."""

    RESULT_TYPE = RoundResult

    # ------------------------------------------------------------------ construction
    # The constructor's type (what mypy checks a call against; MahjongRoundBase.__init__ runs): a
    # mahjong ruleset gives this Round, another family's ruleset a round of the shared contract
    # (game/contract.py; not this class: mypy's [misc] refusal of that is the point), with that
    # family's keyword arguments; a ruleset only known at run time either.
    @overload
    def __new__(cls, ruleset: LongcardRulesetName, seed: Int | None = None,  # type: ignore[misc]
                **kwargs: Any) -> AnyRound: ...
    @overload
    def __new__(cls, ruleset: MahjongRulesetName | Ruleset = ..., seed: Int | None = None, *, dealer: Int = 0,
                round_wind: WindLike = 27, min_fan: Int | None = None, options: Mapping[str, Any] | None = None,
                spawn_key: Sequence[Int] = (), wall: Sequence[Int] | str | None = None,
                dice: Sequence[Int] | None = None, kong_dice: Sequence[Int] | None = None) -> Round: ...
    @overload
    def __new__(cls, ruleset: str, seed: Int | None = None,  # type: ignore[misc]
                **kwargs: Any) -> Round | AnyRound: ...
    def __new__(cls, ruleset: Any = DEFAULT_RULESET, *args: Any, **kwargs: Any) -> Any:  # noqa: PYI034
        # ``mj.Round(ruleset=..., seed=...)`` is the public face of every family (game/contract.py):
        # RoundBase.__new__ hands a ruleset of another family to that family's registered round class
        return super().__new__(cls, ruleset, *args, **kwargs)

    if TYPE_CHECKING:   # RoundBase.from_dict is typed for any family's round; this one gives a Round
        @classmethod
        def from_dict(cls, d: Mapping[str, Any]) -> Round: ...

    def _start(self, s: FlowSettings, header: dict[str, Any], tiles: list[int], dice: list[int],
               kong_dice: list[int]) -> None:
        c = _compiled(s)
        self.settings = s
        self.players = s.players
        self.header = header
        self.seed = header["seed"]
        self.dealer = header["dealer"]
        self.round_wind = header["round_wind"]
        self._c = c
        self._core = RoundCore(c.settings_dict, c.code, c.special, c.kind_mask, self.dealer, self.round_wind,
                               tiles, dice, kong_dice)
        self._log: list[Event] = [cast(HeaderEvent, header)]   # built to header_shape by RoundBase
        self._decoded = 0           # core event records already in _log
        self._result_d: "RoundResultDict | None" = None
        self._result_obj: "RoundResult | None" = None
        self._scores: "list[Score] | None" = None
        self._view_heads: list[dict[str, Any]] | None = None   # built by the first view
        self._view_json_heads: Any = None   # their JSON, for _view_json (built with them, by the first one)

    # ------------------------------------------------------------------ events and result
    def _sync(self) -> None:
        """Append the core's new event records to the log as dicts."""
        core = self._core
        if core.n_events == self._decoded:
            return
        evs = core.events(self._decoded)
        self._decoded = core.n_events
        for e in evs:
            # the core's records are the documented events, a win's completed here
            self._log.append(self._win_event(e["winner_index"]) if e["type"] == "win" else cast(Event, e))

    @property
    def log(self) -> list[Event]:
        """The event log: the header (with the seed), then one dict per event."""
        self._sync()
        return self._log

    def _winner_scores(self) -> list[Score]:
        if self._scores is None:
            core = self._core
            out = []
            info = core.result_info()
            assert info is not None   # the round is over
            for k in range(len(info[1])):
                rec = core.win_record(k)
                out.append(Score(self.settings.ruleset, rec["total"], rec["non_flower_total"], self.settings.min_fan,
                                 rec["form"], np.array(rec["counts"], dtype=np.uint16)))
            self._scores = out
        return self._scores

    def _win_event(self, k: int) -> WinEvent:
        info = self._core.result_info()
        assert info is not None   # the round is over
        rec = self._core.win_record(k)
        sc = self._winner_scores()[k]
        assert info[3] is not None   # a win has its method
        return {"type": "win", "seat": info[1][k], "from": info[2], "method": info[3], "tile": rec["win_tile"],
                "total": rec["total"], "fans": [[f.id, f.points, f.count] for f in sc.fans]}

    def _score_args(self, seat: int, rec: dict[str, Any]) -> dict[str, Any]:
        """The :func:`~mahjong_core.families.mahjong.scoring.score` keywords of a win record (the reference's layout)."""
        s = self.settings
        f = rec["flags"]
        args: dict[str, Any] = {
            "ruleset": s.ruleset,
            "melds": [[MELD_NAMES[m[0]], meld_tiles(m[0], m[1])] for m in self._core.melds_list()[seat]],
            "flowers": self._core.flowers_list()[seat],
            "min_fan": s.min_fan,
        }
        if s.replacement_bloom != "any":
            args["replacement_bloom"] = s.replacement_bloom
        if s.literal_first_turn_exclusions:
            args["literal_first_turn_exclusions"] = True
        if s.seat_winds:
            args["seat_wind"] = self.seat_wind(seat)
            args["round_wind"] = self.round_wind
        if s.ready_mode != READY_NONE and f & _F_READY:
            args["ready"] = True
            args["ready_concealed"] = bool(f & _F_READY_CONCEALED)
        if s.first_turn_fans and f & _F_HEAVENLY_READY:
            args["heavenly_ready"] = True
        args["hand"] = rec["concealed"]
        args["win_tile"] = rec["win_tile"]
        kind = rec["kind"]
        if kind == 0:
            args["heavenly"] = True
            args["self_drawn"] = True
            return args
        order: tuple[tuple[str, int], ...]
        if kind == 3:
            order = (("last_tile", _F_LAST_TILE), ("robbing_kong", _F_ROBBING), ("last_of_kind", _F_LAST_OF_KIND),
                     ("humanly", _F_HUMANLY))
        else:
            args["self_drawn"] = True
            order = (("last_tile", _F_LAST_TILE), ("kong_replacement", _F_KONG_REPL),
                     ("flower_replacement", _F_FLOWER_REPL), ("last_of_kind", _F_LAST_OF_KIND),
                     ("earthly", _F_EARTHLY))
        for name, bit in order:
            if f & bit:
                args[name] = True
        return args

    def _build_result(self) -> RoundResultDict:
        info = self._core.result_info()
        assert info is not None   # the round is over
        draw, winners, loser, method, nd, wall_left = info
        records: list[WinnerRecord] = []
        for k, seat in enumerate(winners):
            assert method is not None   # a win has its method
            rec = self._core.win_record(k)
            sc = self._winner_scores()[k]
            records.append({
                "seat": seat,
                "loser": loser,
                "method": method,
                "win_tile": rec["win_tile"],
                "total": rec["total"],
                "non_flower_total": rec["non_flower_total"],
                "score": sc.to_dict(),
                "score_args": self._score_args(seat, rec),
            })
        return {
            "draw": draw,
            "winners": records,
            "dealer": self.dealer,
            "next_dealer": nd,
            "dealer_continues": nd == self.dealer,
            "wall_remaining": wall_left,
        }

    @property
    def _result(self) -> "RoundResultDict | None":
        """The result as plain data once the round is over (else ``None``)."""
        if self._result_d is None and self._core.phase == PH_OVER:
            result = self.result
            assert result is not None   # the round is over
            self._result_d = result.to_dict()
        return self._result_d

    @property
    def result(self) -> "RoundResult | None":
        """The :class:`RoundResult` once the round is over, else ``None``."""
        if self._result_obj is None:
            if self._result_d is not None:
                self._result_obj = RoundResult(self._result_d, ruleset=self.settings.ruleset)
            elif self._core.phase == PH_OVER:
                info = self._core.result_info()
                assert info is not None   # the round is over
                draw, winners, loser, method, nd, _ = info
                total = self._core.winner_totals()[0][1] if winners else 0
                self._result_obj = RoundResult(
                    None, None if draw else self._winner_scores(),
                    quick=(draw, winners[0] if winners else None, loser, method, total, self.dealer, nd),
                    build=self._build_result, ruleset=self.settings.ruleset)
        return self._result_obj

    # ------------------------------------------------------------------ basic queries
    def _live(self) -> int:
        return self._core.remaining - self._core.reserved

    @property
    def wall_remaining(self) -> int:
        """Tiles still in the wall (1.4)."""
        return self._core.remaining

    @property
    def phase(self) -> int:
        return self._core.phase

    # compiled (mahjong_core._round_api.pxi), like the other calls of the server loop below
    if TYPE_CHECKING:
        @property
        def is_over(self) -> bool: ...
    else:
        is_over = property(round_is_over)

    # read-only state (copies; the core owns the state)
    @property
    def turn(self) -> int:
        """Seat on turn (meaningful in the turn phase)."""
        return self._core.turn

    @property
    def drawn(self) -> int:
        """The tile just drawn by the player on turn, or -1."""
        return self._core.drawn

    @property
    def drawn_src(self) -> int:
        """Where it came from: 0 none, 1 head, 2 kong, 3 flower."""
        return self._core.drawn_src

    @property
    def must_discard(self) -> int:
        """1 after a chi or pon (2.3)."""
        return self._core.must_discard

    @property
    def claim_tile(self) -> int:
        """The discard (or added-kong tile) being answered, or -1."""
        return self._core.claim_tile

    @property
    def claim_from(self) -> int:
        return self._core.claim_from

    @property
    def claim_last(self) -> int:
        return self._core.claim_last

    @property
    def claim_humanly(self) -> int:
        return self._core.claim_humanly

    @property
    def dealer_first(self) -> int:
        return self._core.dealer_first

    @property
    def calls_made(self) -> int:
        return self._core.calls_made

    @property
    def earthly_seat(self) -> int:
        return self._core.earthly_seat

    @property
    def n_steps(self) -> int:
        """Actions applied so far."""
        return self._core.n_steps

    @property
    def n_discards(self) -> int:
        """Discards made so far (claimed ones included): the length of the round."""
        return self._core.n_discards

    @property
    def ready(self) -> list[int]:
        """Per seat: 报听 declared."""
        return self._core.flags_list("ready")

    @property
    def ready_concealed(self) -> list[int]:
        return self._core.flags_list("ready_concealed")

    @property
    def heavenly_ready(self) -> list[int]:
        return self._core.flags_list("heavenly_ready")

    @property
    def drew(self) -> list[int]:
        return self._core.flags_list("drew")

    @property
    def hands(self) -> npt.NDArray[np.uint8]:
        """A copy of the concealed counts, (P, 34) uint8."""
        return self._core.hands_array()

    @property
    def melds(self) -> list[list[list[int]]]:
        """Per seat, meld records [kind (0 chi 1 pon 2 kong 3 ckong), first, from, claimed, added]."""
        return self._core.melds_list()

    @property
    def discards(self) -> list[list[int]]:
        """Per seat, the discard pool in order."""
        return self._core.discards_list()

    @property
    def flowers(self) -> list[list[int]]:
        """Per seat, the flowers set aside."""
        return self._core.flowers_list()

    @property
    def dice(self) -> list[int]:
        return self._core.dice_list()

    @property
    def pending(self) -> list[int]:
        """Seats still to answer the open claim window (or the 天听 window)."""
        return [] if self._core.phase in (PH_TURN, PH_OVER) else self._core.seats_to_act()

    @property
    def wall(self) -> Wall:
        """A snapshot of the logical wall (server side: never shown to players)."""
        return Wall.from_dict(self._core.get_state()["wall"])

    def hand_counts(self, seat: int) -> np.ndarray:
        """A copy of the concealed count array of ``seat``."""
        return self._core.hand_row(self._seat(seat))

    def visible_counts(self) -> list[int]:
        """Counts of the tiles every player can see (D10): all discard pools and all exposed melds
        (concealed kongs are face down and not counted)."""
        return self._core.visible_counts()

    def concealed_size(self, seat: int) -> int:
        """Concealed tiles of ``seat``."""
        return self._core.hand_size(self._seat(seat))

    # Seats that must choose an action now (several during a claim window).  The calls a server makes
    # every step (seats_to_act, legal_mask, step, view, is_over) are compiled functions of the core's
    # module bound as methods: no Python frame between the caller and the C state.
    seats_to_act = round_seats_to_act

    def _pon_of(self, seat: int, t: int) -> int:
        return self._core.pon_of(seat, t)

    def _locked(self, seat: int) -> bool:
        return self._core.locked(seat)

    def _ready_allowed(self, seat: int) -> bool:
        return self._core.ready_allowed(seat)

    def _win_reason(self, seat: int) -> str:
        w = self._core.win_check(seat)
        if w is None or w[0] == 0:
            return "the win is allowed"
        why, nf = w
        if why == _WHY_MUST_DISCARD:
            return "after a chi or pon the claimer must discard (2.3)"
        if why == _WHY_BELOW_MIN:
            return (f"the hand is worth {nf} fan(s) without flowers, below the minimum (起和) of "
                    f"{self.settings.min_fan}")
        if self._core.phase == PH_TURN:
            return "not a winning hand"
        return f"not a winning hand with {_SHORT[self._core.claim_tile]}"

    # ------------------------------------------------------------------ legal options
    def legal_indices(self, seat: int) -> list[int]:
        """Mask indices of the legal actions of ``seat`` (ascending; empty if not to act)."""
        s = self._query_seat(seat)
        return [] if s is None else self._core.legal(s)

    legal_mask = round_legal_mask

    def _legal_mask_checked(self, seat: Any) -> npt.NDArray[np.bool_]:
        """:meth:`legal_mask` of anything but a plain int seat in range (checked by the generic method)."""
        return super().legal_mask(seat)

    # ------------------------------------------------------------------ views
    # a PlayerView TypedDict: the same dict as RoundBase.view's, its keys typed (a TypedDict is not
    # a dict[str, Any] to a type checker, hence the ignore)
    view = round_view  # type: ignore[assignment]
    # the same view frozen as a RoundView (to_dict() == view(seat)): the dict is built only when a
    # server asks for it (docs/guide/round-api.md: The server loop)
    view_snapshot = round_view_snapshot
    # the view as its JSON bytes, ``_view_json(seat, encode) == encode(view(seat))`` for the server's
    # compact UTF-8 encoder (mahjong_core.server.encoding.dumps_utf8): written from the core's state
    # for the server's update frames, the dict built (and given to ``encode``) only for a finished round
    _view_json = round_view_json
    # round_views.redact_shared compiled (the server's streams call it per event and seat of every step)
    _redact_shared = staticmethod(round_redact_shared)

    def _new_view_heads(self) -> list[dict[str, Any]]:
        """Per seat, the template of its views (the values fixed for the round set), for :meth:`view`."""
        return self._core.view_heads(SCHEMA_VERSION, self.settings.ruleset)

    def _action_pairs(self) -> bytes:
        """Every action applied so far, compactly: one ``(seat, mask index)`` byte pair each."""
        return self._core.action_pairs()

    # ------------------------------------------------------------------ step
    step = round_step

    def _step_checked(self, seat: Any, action: Any) -> list[Event]:
        """:meth:`step` of anything but a legal plain-int index: checked, refused with the reason."""
        seat, i = self._checked_action(seat, action)
        self._sync()
        start = len(self._log)
        self._core.step(seat, i)
        self._sync()
        return self._log[start:]

    # ------------------------------------------------------------------ built-in bots
    def builtin_bot_choice(self, seat: int, kind: int, generator: Any = None) -> int:
        """The mask index the engine's built-in bot ``kind`` (0 greedy, 1 random, drawing from
        ``generator``, a numpy BitGenerator) chooses for ``seat`` now; -1 if he is not to act.
        The API :class:`~mahjong_core.families.mahjong.bots.GreedyBot` and ``RandomBot`` play through."""
        if generator is None:
            return self._core.bot_choice(seat, kind)
        return self._core.bot_choice(seat, kind, generator)

    def play_out_builtin(self, kinds: Any, generators: Any, max_steps: int) -> None:
        """Play the round to its end inside the engine, seat ``k`` by built-in bot ``kinds[k]``
        (random bots drawing from ``generators[k]``): :func:`~mahjong_core.game.bots.play_round`."""
        self._core.play_out(kinds, generators, max_steps)

    def _play_out_bots(self, bots: Any, max_steps: int) -> bool:
        """The optional hook of :func:`~mahjong_core.game.bots.play_round`: play to the end in the
        engine when every bot is a built-in one (else False, nothing done)."""
        return play_out_builtin(self, bots, max_steps)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> RoundState:
        """The complete state as plain JSON-able data (``schema_version``)."""
        d: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "header": self.header}
        d.update(self._core.get_state())
        d["result"] = self._result
        d["log"] = self.log
        return cast(RoundState, d)   # the core's state holds the remaining fields
