"""A long-card hand under the shared round API, and the long-card match (spec changpai.md 3.1, 3.14, 5).

:class:`LongcardRound` is a :class:`~mahjong_core.game.round_base.RoundBase` around one
:class:`._ref.round.Round` (the hand engine): the shared API (legal indices = action ids 0-258, checked
``step``, per-seat views and event streams, JSON state rebuilt from the log, log replay) comes from
the base, the rules from the hand.  Its stock is shuffled from ``SeedSequence(seed, spawn_key)``, so
:class:`LongcardMatch` (the shared :class:`~mahjong_core.game.match.Match`) deals hand ``k`` from the
match seed with ``spawn_key=(k + 1,)``, the first banker drawn from the seed (3.1); the next banker is
the result's ``next_dealer`` (3.14: the winner, else the banker stays).  A hand runs on the compiled
engine (:class:`.round_engine.CompiledHand`) unless ``engine="reference"`` (:class:`._ref.round.Round`);
pickling and deep copying keep it, a JSON state loads on the engine its loader names (the compiled one
by default).  The result, :class:`HandResult`, has the common fields of
:class:`mahjong_core.game.contract.Result`.  A void hand (nobody 起) says
``counts: false`` and the match deals again without counting it (3.3 step 4).
:meth:`LongcardMatch.ledger` settles every finished hand's payments (5) through the shared
:class:`~mahjong_core.settlement.Ledger`.

>>> from mahjong_core.families.longcard.round_bots import RuleBot
>>> m = LongcardMatch("changpai-ydr", 7, rounds=3, auto_advance=True)
>>> bot = RuleBot()
>>> while not m.is_over:
...     p = m.seats_to_act()[0]
...     _ = m.step(p, bot.act(m.round.hand, p))
>>> len(m.results), m.ledger({"A": 100, "B": 100, "C": 100}).total
(3, 300)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, cast

import numpy as np

from ..._validate import as_flag, as_int, as_seat, short_repr
from ...errors import IllegalActionError, RulesetError, StateError
from ...game import contract
from ...game.match import Match
from ...game.round_base import COMMON_VIEW_KEYS, RoundBase
from ...game.schema import (
    ANY_OBJ,
    MAX_SEED,
    MAX_SPAWN_KEY,
    MAX_SPAWN_VALUE,
    Int,
    List,
    Obj,
    Str,
)
from ...game.state import SCHEMA_VERSION, load_json, load_round, replay_log, round_from_header
from ...settlement import Ledger, register_outcome_reader
from .. import registry
from ._constants import PHASE_NAMES as _PHASES
from .cards import CAISHEN, COPIES, N_FACES
from .round_actions import ACTION_SIZE, Action
from ._ref.round import Round
from .round_rules import PLAYERS
from .round_settings import RoundSettings
from .round_settlement import ledger_requests
from .ruleset import FAMILY_NAME
from .settlement import outcome_of

if TYPE_CHECKING:
    from .round_engine import CompiledHand

__all__ = ["MAX_VOID_RUN", "HandResult", "LongcardMatch", "LongcardRound", "count_hand", "hand_stock",
           "longcard_match", "longcard_round"]

_HAND_VIEW_KEYS = ("actor", "banker", "qi_player", "jiang", "stock_left", "offer", "hand", "discard_ban", "table",
                   "events", "baozi")


def _logged(ev: dict[str, Any]) -> dict[str, Any]:
    """A hand event as the shared log records it.  An action event is ``{type, seat, action}`` with the
    action as its object (``Action.to_dict`` and the ``phase`` it was taken in, which says whether the
    others see it, spec 8.3); the log replay passes that object back to ``step``."""
    if ev["type"] != "action":
        return ev
    return {"type": "action", "seat": ev["seat"],
            "action": {**Action.from_id(ev["action"]).to_dict(), "phase": ev["phase"]}}


def hand_stock(seed: int, spawn_key: Any, caishen_count: int) -> list[int]:
    """The stock of a hand of a match: the deck shuffled by ``SeedSequence(seed, spawn_key)`` (the
    compiled engine's matches deal from here too)."""
    g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=tuple(spawn_key))))
    deck = [f for f in range(N_FACES) for _ in range(COPIES)] + [CAISHEN] * caishen_count
    return [deck[i] for i in g.permutation(len(deck)).tolist()]


@dataclass(frozen=True)
class MatchSettings:
    """What the shared round API reads (``ruleset``, ``players``) and the hand's settings."""
    ruleset: str
    players: int
    hand: Any


class HandResult(contract.Result):
    """A finished hand, a :class:`mahjong_core.game.contract.Result`: the common fields (``end``,
    ``winners``, ``winner``, ``deltas``, ``dealer`` the banker, ``next_dealer`` the next banker of
    spec 3.14, ``to_dict()``) and the hand's own (``payments``, ``counts``, ``fan``, ``offender``).

    ``to_dict()`` is the hand's result as its log records it (keys ``end``, ``winner``, ``card``,
    ``fan``, ``score`` / ``offender``, ``cause``; ``payments``, ``deltas``, ``next_banker``,
    ``counts``, ``dealer``).  ``end`` is ``"win"``, ``"baozi"`` (包子), ``"huangzhuang"`` (黄庄, the
    stock ran out) or ``"void"`` (nobody 起).  A winner record is ``{seat, total (the fan after the
    cap), card, score (Score.to_dict())}``."""

    __slots__ = ("_d",)

    def __init__(self, d: dict[str, Any]) -> None:
        self._d = d

    def to_dict(self) -> dict[str, Any]:
        return self._d

    @property
    def end(self) -> str:
        end: str = self._d["end"]
        return end

    @property
    def winners(self) -> list[dict[str, Any]]:
        d = self._d
        if d["end"] != "win":
            return []
        return [{"seat": d["winner"], "total": d["fan"], "card": d["card"], "score": d["score"]}]

    @property
    def deltas(self) -> list[Any]:
        """Per-seat points of the hand (spec 5, sums to 0)."""
        return list(self._d["deltas"])

    @property
    def payments(self) -> list[tuple[int, int, Any]]:
        """``(payer seat, payee seat, points)`` of every payment of the hand (spec 5)."""
        return [(p, q, a) for p, q, a in self._d["payments"]]

    @property
    def counts(self) -> bool:
        """Does the hand count toward a match (spec 3.14: not a void hand, nor a 包子 hand unless
        ``baozi_hand_counts``)."""
        return bool(self._d["counts"])

    @property
    def fan(self) -> "int | None":
        """The fan basis of a win or a 包子 (None for the other ends)."""
        fan: int | None = self._d.get("fan")
        return fan

    @property
    def offender(self) -> "int | None":
        """The seat that made 包子 (None for the other ends)."""
        seat: int | None = self._d.get("offender")
        return seat

    @property
    def dealer(self) -> int:
        """The banker of the hand."""
        banker: int = self._d["dealer"]
        return banker

    @property
    def next_dealer(self) -> int:
        """The banker of the next hand (spec 3.14)."""
        banker: int = self._d["next_banker"]
        return banker

    @property
    def next_banker(self) -> int:
        """Deprecated: :attr:`next_dealer` (the common name of every family's result)."""
        warnings.warn("HandResult.next_banker is deprecated; use HandResult.next_dealer", DeprecationWarning,
                      stacklevel=2)
        return self.next_dealer

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandResult) and other._d == self._d

    __hash__ = None  # type: ignore[assignment]  # equal by value, mutable data

    def __reduce__(self) -> tuple[type[HandResult], tuple[dict[str, Any]]]:
        return (HandResult, (self._d,))

    def __repr__(self) -> str:
        return (f"HandResult(end={self.end!r}, winner={self.winner}, deltas={self.deltas}, "
                f"next_dealer={self.next_dealer})")


# ``HandOutcome.from_result`` reads a hand's result with the family's reader (a room settles it)
register_outcome_reader(HandResult, outcome_of)


class _OnEngine:
    """:class:`LongcardRound`'s class hooks of the state boundary, dealing on a chosen engine: a
    saved state is the game alone (the same whatever engine played it), so the loader says which
    engine rebuilds it."""

    def __init__(self, cls: type[LongcardRound], engine: Any, impl: Any) -> None:
        self.cls, self.engine, self.impl = cls, _engine(engine, impl), impl

    def _header_shape(self) -> Obj:
        return self.cls._header_shape()

    def _new_from_header(self, header: dict[str, Any]) -> LongcardRound:
        return self.cls._new_from_header(header, engine=self.engine, impl=self.impl)


def _engine(engine: Any, impl: Any) -> str:
    """The engine a round plays on: ``engine`` if given (checked), else the compiled one unless the
    reference counting is asked for (``impl``), which only the reference engine has."""
    if engine is None:
        return "reference" if isinstance(impl, str) and impl != "compiled" else "compiled"
    if not isinstance(engine, str) or engine not in contract.ENGINES:
        raise RulesetError(f"engine must be 'reference' or 'compiled', got {short_repr(engine)}")
    return engine


class LongcardRound(RoundBase):
    """One hand of 长牌 幺地人 under the shared round API (see the module docstring)."""

    ACTION_SIZE = ACTION_SIZE
    PHASE_NAMES = _PHASES
    VIEW_KEYS = COMMON_VIEW_KEYS + _HAND_VIEW_KEYS
    RESULT_TYPE = HandResult

    def __init__(self, ruleset: Any = "changpai-ydr", seed: Any = None, *, dealer: Any = 0, options: Any = None,
                 spawn_key: Any = (), impl: Any = "compiled", engine: Any = None) -> None:
        self.settings, opts = self._settings_and_options(ruleset, options, None)
        self.players = PLAYERS
        engine = _engine(engine, impl)
        if seed is None:      # fresh entropy, recorded in the header (so the state reproduces the hand)
            seed = int(cast(int, np.random.SeedSequence().entropy))
        self.seed = as_int(seed, "seed", 0, MAX_SEED)
        spawn_key = [as_int(k, "spawn_key", 0, MAX_SPAWN_VALUE) for k in list(spawn_key)[:MAX_SPAWN_KEY]]
        banker = as_seat(dealer, PLAYERS, "dealer (a seat)")
        s = self.settings.hand
        stock = hand_stock(self.seed, spawn_key, s.caishen_count)
        if engine == "compiled":        # the compiled hand engine (round_engine), the same hand in C
            from .round_engine import CompiledHand

            self.hand: Round | CompiledHand = CompiledHand(settings=s, banker=banker, stock=stock, impl=impl)
        else:
            self.hand = Round(settings=s, banker=banker, stock=stock, impl=impl)
        self.engine: str = engine
        self.impl: Any = impl
        self.log: list[dict[str, Any]] = [{"type": "header", "schema_version": SCHEMA_VERSION,
                                           "ruleset": self.settings.ruleset, "seed": self.seed,
                                           "spawn_key": spawn_key, "dealer": banker, "options": opts}]
        self.log += map(_logged, self.hand.events)
        self._offers: tuple[int, int, dict[int, str | None]] = (-1, -1, {})

    @staticmethod
    def _settings_and_options(ruleset: Any, options: Any, min_fan: Any) -> tuple[MatchSettings, dict[str, Any]]:
        rs = registry.get_ruleset(ruleset)
        if rs.family != FAMILY_NAME:
            raise RulesetError(f"{rs.name!r} is not a long-card ruleset")
        if min_fan is not None and min_fan != rs.min_fan:
            raise RulesetError(f"a long-card hand has no minimum fan (qualification is spec 2.8), got min_fan={min_fan!r}")
        hand = RoundSettings.from_options(options)
        # the header records the options given, as the checked settings hold them (NumPy scalars
        # normalised to plain ints, bools and strings: the state stays JSON-able)
        checked = hand.to_options()
        return MatchSettings(rs.name, PLAYERS, hand), {k: checked[k] for k in (options or {})}

    # ------------------------------------------------------------------ state read by the base
    # RoundBase declares ``dealer`` a plain attribute (the mahjong round assigns it); here it is the
    # hand's banker, read-only.
    @property
    def dealer(self) -> int:  # type: ignore[override]
        return self.hand.banker

    @property
    def phase(self) -> int:
        return _PHASES.index(self.hand.phase)

    @property
    def is_over(self) -> bool:
        return self.hand.phase == "end"

    @property
    def _result(self) -> dict[str, Any] | None:
        r = self.hand.result
        return None if r is None else {**r, "dealer": self.hand.banker}

    @property
    def result(self) -> HandResult | None:
        d = self._result
        return None if d is None else HandResult(d)

    def seats_to_act(self) -> list[int]:
        return self.hand.seats_to_act()

    def _offered(self, p: int) -> dict[int, str | None]:
        """The hand's offered actions of p, worked out once per decision (this wrapper alone steps it)."""
        n, q, offered = self._offers
        if n != len(self.hand.log) or q != p:
            offered = self.hand._offered(p)
            self._offers = (len(self.hand.log), p, offered)
        return offered

    def legal_indices(self, seat: Any) -> list[int]:
        # one rule for a bad seat (out of range, a bool, not an int): SeatError, as every other
        # per-seat method of the hand answers it
        p = self._seat(seat)
        if p != self.hand.actor:
            return []
        return sorted(self._offered(p))

    def penalised_mask(self, seat: Any) -> np.ndarray:
        """bool[259]: the legal actions that incur 包子 (3.13)."""
        return self.hand.penalised_mask(seat)

    def step(self, seat: Any, action: Any) -> list[dict[str, Any]]:
        p, i = self._checked_action(seat, action)
        start = len(self.hand.events)
        self.hand._apply(p, i, self._offered(p)[i])
        new = [_logged(e) for e in self.hand.events[start:]]
        self.log += new
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "header": self.log[0], "phase": self.phase_name,
                "banker": self.hand.banker, "result": self._result, "log": self.log}

    def _action_pairs(self) -> tuple[int, ...]:
        """Every action as ``seat, id`` (flat: ids reach 258, so not bytes)."""
        return tuple(x for pair in self.hand.log for x in pair)

    # ------------------------------------------------------------------ the hooks of RoundBase
    def decode_action(self, seat: int, i: int) -> Action:
        return Action.from_id(i)

    def _encode_action(self, seat: int, action: Any) -> int:
        if isinstance(action, dict) and "phase" in action:      # a logged action: taken in this phase
            action = dict(action)
            if action.pop("phase") != self.phase_name:
                raise IllegalActionError(f"an action of another phase than {self.phase_name}: {short_repr(action)}")
        return Action.coerce(action).id

    def _why_illegal(self, seat: int, i: int) -> str:
        return f"{Action.from_id(i)} is not legal for seat {seat} in phase {self.phase_name}"

    def _view_fields(self, seat: int, legal: list[int]) -> dict[str, Any]:
        v = self.hand.view(seat)
        v["table"] = v.pop("players")
        # the 包子 cause (spec 3.13: B1-B6) each legal action incurs, or None, in the order of
        # legal_indices: a player sees a penalised choice as such before he takes it (8.2)
        offered = self._offered(seat) if legal else {}
        v["baozi"] = [offered[i] for i in legal]
        return {k: v[k] for k in _HAND_VIEW_KEYS}

    @staticmethod
    def _redact_event(ev: dict[str, Any], seat: int) -> dict[str, Any] | None:
        if ev["type"] == "header":
            return {k: v for k, v in ev.items() if k not in ("seed", "spawn_key")}
        if ev["type"] == "action":          # a claim-window answer is the answering seat's alone (8.3)
            a = ev["action"]
            return dict(ev) if a["phase"] != "claim" or a["type"] == "fold" or ev["seat"] == seat else None
        if ev.get("to") is None or ev["to"] == seat:
            return {k: v for k, v in ev.items() if k != "to"}
        return None

    def _check_invariants(self, events: bool = True) -> None:
        h = self.hand
        where = h.card_census()
        if where != [COPIES] * N_FACES + [h.settings.caishen_count]:
            raise StateError(f"cards: every face 5 times and caishen_count 财神 expected, got {where}")

    @classmethod
    def _header_shape(cls) -> Obj:
        return Obj({"type": Str(("header",)), "schema_version": Int(SCHEMA_VERSION, SCHEMA_VERSION),
                    "ruleset": Str(tuple(registry.ruleset_names(FAMILY_NAME))), "seed": Int(0, MAX_SEED),
                    "spawn_key": List(Int(0, MAX_SPAWN_VALUE), lo=0, hi=MAX_SPAWN_KEY),
                    "dealer": Int(0, PLAYERS - 1), "options": ANY_OBJ})

    @classmethod
    def _new_from_header(cls, header: dict[str, Any], *, engine: Any = None, impl: Any = "compiled") -> LongcardRound:
        return cls(header["ruleset"], header["seed"], dealer=header["dealer"], options=header["options"],
                   spawn_key=header["spawn_key"], engine=engine, impl=impl)

    # ------------------------------------------------------------------ the state boundary on an engine
    # The saved state and the log are the game alone, equal whatever engine played it; a loader deals
    # on the engine it is asked for, the compiled one by default.  Pickling and deep copying keep the
    # round's own engine.
    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, engine: Any = None, impl: Any = "compiled") -> LongcardRound:
        """The round a saved state describes (:meth:`RoundBase.from_dict`), dealt on ``engine``
        (``"compiled"``, the default, or ``"reference"``; ``impl`` its counting)."""
        return load_round(cast("type[LongcardRound]", _OnEngine(cls, engine, impl)), d)

    @classmethod
    def from_json(cls, data: "str | bytes | Mapping[str, Any]", *, engine: Any = None,
                  impl: Any = "compiled") -> LongcardRound:
        """Inverse of :meth:`to_json` on ``engine`` (as :meth:`from_dict`)."""
        return cls.from_dict(data if isinstance(data, dict) else load_json(data, "the round state"),
                             engine=engine, impl=impl)

    @classmethod
    def replay(cls, log: "Iterable[Mapping[str, Any] | str]", *, verify: bool = True, engine: Any = None,
               impl: Any = "compiled") -> LongcardRound:
        """The round rebuilt from its event log (:meth:`RoundBase.replay`) on ``engine``."""
        return replay_log(cast("type[LongcardRound]", _OnEngine(cls, engine, impl)), log,
                          verify=as_flag(verify, "verify"))

    @classmethod
    def from_header(cls, header: Mapping[str, Any], *, engine: Any = None, impl: Any = "compiled") -> LongcardRound:
        """A fresh round from a log header (:meth:`RoundBase.from_header`) on ``engine``."""
        return round_from_header(cast("type[LongcardRound]", _OnEngine(cls, engine, impl)), header, "header")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # through the JSON-able state, as every round, and on this round's own engine
        return (_from_state_on, (type(self), self.to_dict(), self.engine, self.impl))

    @classmethod
    def _create(cls, ruleset: Any, *args: Any, **kwargs: Any) -> LongcardRound:
        """``mj.Round(ruleset, ...)`` of a long-card ruleset (:func:`longcard_round`)."""
        return longcard_round(ruleset, *args, **kwargs)


def _from_state_on(cls: type[LongcardRound], d: dict[str, Any], engine: str, impl: Any) -> LongcardRound:
    return cls.from_dict(d, engine=engine, impl=impl)


MAX_VOID_RUN = 100
"""Void hands in a row after which the next void hand counts toward a match (see :class:`LongcardMatch`)."""


def count_hand(result: dict[str, Any], void_run: int) -> tuple[bool, int]:
    """Does a finished hand (its result) count toward a match after ``void_run`` uncounted void hands
    in a row, and the run after it: its ``counts`` (3.14), except that the void hand ending a run of
    :data:`MAX_VOID_RUN` counts."""
    if result["end"] != "void":
        return bool(result["counts"]), 0
    counted = bool(result["counts"]) or void_run + 1 >= MAX_VOID_RUN
    return counted, 0 if counted else void_run + 1


class LongcardMatch(Match):
    """Hands of 长牌 in sequence with the banker rules (spec 3.1, 3.14): the shared match.

    ``rounds`` is the number of hands that count (3.14): a void hand (nobody 起, 3.3 step 4) and, with
    ``baozi_hand_counts`` false, a 包子 hand are dealt again without counting, so a match of N hands
    plays N counted hands and :attr:`results` may hold more.  Each entry of :attr:`results` says
    whether the match counted it (``counted``).  So that no table (a bot that never 起s, players who
    all fold in the 起 stage) can make a match endless, the void hand that ends a run of
    :data:`MAX_VOID_RUN` void hands in a row counts (it is still a void hand: no payments, the banker
    stays)."""

    round_class = LongcardRound

    @classmethod
    def _create(cls, ruleset: Any, *args: Any, **kwargs: Any) -> LongcardMatch:
        """``mj.Match(ruleset, ...)`` of a long-card ruleset (:func:`longcard_match`)."""
        return longcard_match(ruleset, *args, **kwargs)

    def __init__(self, *args: Any, engine: Any = None, **kwargs: Any) -> None:
        self.engine: str = _engine(engine, "compiled")   # every hand's engine (the compiled one by default)
        self.hands_counted = 0          # finished hands that count toward ``rounds``
        self._void_run = 0              # void hands in a row at the end of the results
        super().__init__(*args, **kwargs)

    def _round_kwargs(self, k: int) -> dict[str, Any]:
        return {"engine": self.engine}

    # the state is the game alone, as a hand's: a loader names the engine, pickling keeps it
    @classmethod
    def from_dict(cls, d: dict[str, Any], *, engine: Any = None) -> LongcardMatch:
        """The match a saved state describes (:meth:`Match.from_dict`), its hands on ``engine``."""
        return cast(LongcardMatch, cls._load(d, {"engine": _engine(engine, "compiled")}))

    @classmethod
    def from_json(cls, data: "str | bytes | dict[str, Any]", *, engine: Any = None) -> LongcardMatch:
        return cls.from_dict(data if isinstance(data, dict) else load_json(data, "the match state"), engine=engine)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_match_on, (type(self), self.to_dict(), self.engine))

    def _round_record(self, rnd: Any) -> dict[str, Any]:
        # called once per finished hand, as the shared match records it (before it asks is_over)
        counted, self._void_run = count_hand(rnd._result, self._void_run)
        self.hands_counted += counted
        return {"counted": counted}

    @property
    def is_over(self) -> bool:
        """True when ``rounds`` hands that count have been played."""
        return self.rounds is not None and self.hands_counted >= self.rounds

    def step(self, seat: Any, action: Any) -> list[dict[str, Any]]:
        """Step the current hand; a finished hand is recorded at once with ``auto_advance`` or when it
        completes the match (the shared rule, with the last hand the last one that counts)."""
        if self.is_over:
            raise IllegalActionError("the match is over; no action is accepted")
        ev: list[dict[str, Any]] = self.round.step(seat, action)
        if self.round.is_over and (self.auto_advance or self.rounds is not None and (
                self.hands_counted + count_hand(self.round._result, self._void_run)[0] == self.rounds)):
            self.next_round()
        return ev

    def ledger(self, balances: dict[str, int], *, names: Any = None) -> Any:
        """A shared :class:`~mahjong_core.settlement.Ledger` from ``balances`` (player name -> chips,
        seat order unless ``names`` gives it) with every finished hand's payments applied (spec 5)."""
        names = list(balances) if names is None else list(names)
        led = Ledger(dict(balances))
        for k, res in enumerate(self.results):
            led.apply(ledger_requests(res, names), round=k)
        return led



_ROUND_ARGUMENTS = ("seed", "dealer", "options", "spawn_key", "impl", "engine")
_MATCH_ARGUMENTS = ("seed", "rounds", "first_dealer", "min_fan", "options", "auto_advance", "engine")


def _match_on(cls: type[LongcardMatch], d: dict[str, Any], engine: str) -> LongcardMatch:
    return cls.from_dict(d, engine=engine)


def _checked_arguments(ruleset: Any, what: str, names: tuple[str, ...], args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> None:
    other = sorted(k for k in kwargs if k not in names)
    if other or len(args) > 1:
        got = ", ".join(other) if other else f"{len(args) + 1} positional arguments"
        raise RulesetError(f"{short_repr(ruleset)} {what} take ruleset, seed and the keywords "
                           f"{', '.join(names[1:])}; got {got}")


def longcard_round(ruleset: Any = "changpai-ydr", *args: Any, **kwargs: Any) -> LongcardRound:
    """A :class:`LongcardRound` from the arguments of ``mj.Round(ruleset, seed, ...)``; a keyword of the
    mahjong round only (``min_fan``, ``round_wind``, ``wall`` ...) is a :class:`RulesetError`."""
    _checked_arguments(ruleset, "rounds", _ROUND_ARGUMENTS, args, kwargs)
    return LongcardRound(ruleset, *args, **kwargs)


def longcard_match(ruleset: Any = "changpai-ydr", *args: Any, **kwargs: Any) -> LongcardMatch:
    """A :class:`LongcardMatch` from the arguments of ``mj.Match(ruleset, seed, ...)``; a keyword of the
    mahjong match only (``round_wind``, ``wind_rotation``) is a :class:`RulesetError`."""
    _checked_arguments(ruleset, "matches", _MATCH_ARGUMENTS, args, kwargs)
    return LongcardMatch(ruleset, *args, **kwargs)
