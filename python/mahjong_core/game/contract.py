"""The contract every game family fulfils: what a round, a match, a result, a view, a bot and a
ruleset record are, declared once and named by no family.

A family's classes derive from these (every round engine through
:class:`~mahjong_core.game.round_base.RoundBase`, every match through
:class:`~mahjong_core.game.match.Match`), and the family registers them with
:func:`mahjong_core.families.registry.register_family` (its ``round_class`` and ``match_class``).
The shared layers, and users, program against these names; ``isinstance(x, contract.Round)`` holds
for a round of any family.

``Round``
    One round (a hand) of play under a ruleset: ``ruleset``, ``players``, ``dealer``, ``seed``,
    ``engine`` (``"compiled"`` or ``"reference"``), ``phase``/``phase_name``, ``is_over``,
    ``seats_to_act()``, ``legal_indices(seat)``, ``legal_mask(seat)``, ``legal_actions(seat)``,
    ``step(seat, action)`` (the events it caused), ``view(seat)`` (a :class:`View`),
    ``log``/``log_for(seat)``, ``result`` (a :class:`Result` once over, else ``None``), and the state
    boundary: ``to_dict``/``to_json``, the class methods ``from_dict``/``from_json``/``replay``/
    ``from_header``, pickling and ``copy.deepcopy``.  The JSON state is the game alone, the same
    whatever engine played it: loading it deals on the family's default engine (the compiled one);
    pickling and deep copying keep the engine.  A round made without a seed draws a fresh one
    from the operating system (recorded in its header, so its state reproduces it).
``Match``
    Rounds in sequence with the dealer rules: ``ruleset``, ``seed``, ``round``, ``results``,
    ``round_results`` (:class:`Result` objects), ``is_over``, ``step``, ``next_round``, and the same
    state boundary as a round.
``Result``
    A finished round.  Common fields, the same names in every family: ``end`` (how it ended:
    ``"win"``, ``"draw"``, or a family's own end such as long-card's ``"baozi"``), ``winners`` (one
    record per winner, each a mapping with at least ``seat`` and ``total``), ``winner`` (the first
    winner's seat or ``None``), ``deltas`` (the per-seat points of the round, summing to 0: what
    the round's own rules pay, or, for a family whose payments depend on the room, what its
    ruleset's unit room pays, one point per fan under the record's ``settlement_profile``; a
    room of :mod:`mahjong_core.settlement` may pay other amounts),
    ``dealer``, ``next_dealer`` and ``to_dict()`` (plain JSON-able data).  A family's extras stand
    beside them (mahjong's ``scores``, ``fans``; long-card's ``payments``, ``counts``).
``View``
    What one seat may know of a round, as plain JSON-able data: the keys of
    :data:`COMMON_VIEW_KEYS` in every family, the family's own keys beside them.
``Bot``
    Any object with ``act_index(round, seat)`` and ``act(round, seat)``.
``RulesetRecord``
    A family's immutable ruleset record (see :mod:`mahjong_core.families.registry`).

Vocabulary
----------
One set of words for every family's public face; a family's own records may keep its rules' words
beside them, mapped here:

``round``
    one deal played to its end (what the rules call a hand: 一局/一盘); the class is a ``Round``, the
    compiled state machine a ``RoundCore`` in every family.  ``hand`` is a player's cards or tiles.
``dealer``
    the seat that deals first and acts first (庄家).  A family whose rules name it otherwise (e.g.
    "banker") may keep that word in its own records and views, beside the common ``dealer``.
``engine``
    ``"compiled"`` (the Cython state machine, every family's default) or ``"reference"`` (the slow,
    plain pure-Python oracle the compiled one is held to): :data:`ENGINES`.
references
    every family keeps its pure-Python references in ``<family>/_ref/<concern>.py``, one module per
    concern it is the oracle of (``_ref/hand.py``, ``_ref/round.py``, ``_ref/fan.py`` ...).

The public faces
----------------
``mahjong_core.Round`` and ``mahjong_core.Match`` are the default family's classes acting as the
public face of every family (:func:`public_face`): constructing one with a ruleset of another
family builds that family's round or match (``mj.Round(ruleset=<its ruleset>)``); their
``from_dict``/``from_json``/``replay``/``from_header`` load the state of any family, found through the
registry from the ruleset the state names; and ``isinstance(r, mj.Round)`` holds for a round of any
family (a type checker still reads ``mj.Round`` as the default family's class: use
:class:`Round` in annotations meant for every family).
"""

from __future__ import annotations

import json
from abc import ABCMeta
from typing import Any, Callable, TypedDict, cast

from ..errors import MahjongError
from ..families import registry
from ..families.registry import RulesetRecord
from .bots import Bot
from .views import COMMON_VIEW_KEYS

__all__ = ["Round", "Match", "Result", "View", "Bot", "RulesetRecord", "COMMON_VIEW_KEYS", "ENGINES",
           "public_face", "face_target", "header_ruleset", "new_on_face"]

ENGINES = ("compiled", "reference")
"""The engines a round can run on, the default first (``Round.engine``)."""


class _ContractMeta(ABCMeta):
    """The metaclass of the contract classes.  A class marked a public face (:func:`public_face`)
    answers ``isinstance`` and ``issubclass`` for every class of its concept, not only its own
    subclasses (the face is the entry point of every family)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        concept = cls.__dict__.get("_face_of")
        if concept is not None and concept in type(obj).__mro__:
            return True
        return super().__instancecheck__(obj)

    def __subclasscheck__(cls, sub: Any) -> bool:
        concept = cls.__dict__.get("_face_of")
        if concept is not None and concept in getattr(sub, "__mro__", ()):
            return True
        return super().__subclasscheck__(sub)


class Round(metaclass=_ContractMeta):
    """A round of any family (the module docstring lists its API).  Every family's round engine
    derives from it through :class:`~mahjong_core.game.round_base.RoundBase`."""

    __slots__ = ()

    @classmethod
    def _create(cls, ruleset: Any, *args: Any, **kwargs: Any) -> Any:
        """A new round from the arguments a user gave the public face (``mj.Round(ruleset, ...)``):
        a family whose rounds take other arguments than its constructor's checks them here."""
        return cast(Any, cls)(ruleset, *args, **kwargs)   # a concrete family class: its own constructor


class Match(metaclass=_ContractMeta):
    """A match of any family (the module docstring lists its API); every family's match derives
    from it through :class:`~mahjong_core.game.match.Match`."""

    __slots__ = ()

    @classmethod
    def _create(cls, ruleset: Any, *args: Any, **kwargs: Any) -> Any:
        """A new match from the arguments given to the public face (``mj.Match(ruleset, ...)``)."""
        return cast(Any, cls)(ruleset, *args, **kwargs)   # a concrete family class: its own constructor


class Result(metaclass=_ContractMeta):
    """A finished round of any family: the common fields of the module docstring, which every
    family's result class defines, with its extras beside them."""

    __slots__ = ()

    @property
    def end(self) -> str:
        raise NotImplementedError

    @property
    def winners(self) -> Any:
        raise NotImplementedError

    @property
    def winner(self) -> "int | None":
        w = self.winners
        return int(w[0]["seat"]) if w else None

    @property
    def deltas(self) -> "list[Any] | None":
        raise NotImplementedError

    @property
    def dealer(self) -> int:
        raise NotImplementedError

    @property
    def next_dealer(self) -> int:
        raise NotImplementedError

    def to_dict(self) -> Any:
        raise NotImplementedError


class View(TypedDict):
    """The keys every family's view has (:data:`COMMON_VIEW_KEYS`); a family's view has its own
    keys beside them (mahjong's is :class:`~mahjong_core.families.mahjong.json_types.PlayerView`)."""

    schema_version: int
    ruleset: str
    seat: int
    players: int
    dealer: int
    phase: str
    to_act: list[int]
    legal_actions: list[Any]
    legal_indices: list[int]
    result: Any


def public_face(concept: type) -> Callable[[type], type]:
    """Class decorator: the decorated class (a subclass of ``concept``, :class:`Round` or
    :class:`Match`) is the public face of every family's ``concept`` (the module docstring)."""
    def mark(cls: type) -> type:
        if concept not in cls.__mro__:
            raise TypeError(f"{cls.__name__} is not a {concept.__name__}")
        cls._face_of = concept  # type: ignore[attr-defined]  # read by _ContractMeta
        return cls
    return mark


def _registered_class(concept: type, ruleset: Any) -> "type | None":
    """The class a family registered for ``concept`` under ``ruleset`` (None if the ruleset is not
    registered: the caller's own checks name the error)."""
    try:
        family = registry.family_of(ruleset)
    except MahjongError:
        return None
    return family.round_type() if concept is Round else family.match_type()


def face_target(cls: type, ruleset: Any) -> "type | None":
    """The class a public face ``cls`` hands ``ruleset`` to: the registered class of the ruleset's
    family when ``cls`` is a face and that class is another one; else ``None`` (``cls`` itself
    handles the ruleset, or names the error if it is not one of its own)."""
    concept = cls.__dict__.get("_face_of")
    if concept is None or ruleset is None:
        return None
    target = _registered_class(concept, ruleset)
    return None if target is None or target is cls else target


def new_on_face(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What ``cls(*args, **kwargs)`` builds when ``cls`` is a public face and the ruleset (the first
    argument) belongs to another family's class: that class's new round or match; else ``None``
    (``cls`` builds it itself)."""
    target = face_target(cls, args[0] if args else kwargs.get("ruleset"))
    return None if target is None else target._create(*args, **kwargs)  # type: ignore[attr-defined]


def header_ruleset(log: Any) -> Any:
    """The ruleset named by the first event of a log (a dict or a JSON line), or ``None``: a peek
    for the public face; the state boundary checks the log itself."""
    if not isinstance(log, (list, tuple)) or not log:
        return None
    first = log[0]
    if isinstance(first, (str, bytes, bytearray)):
        try:
            first = json.loads(first)
        except (ValueError, RecursionError):
            return None
    return first.get("ruleset") if isinstance(first, dict) else None
