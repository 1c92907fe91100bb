"""The round API every game family's engines share, and the hooks a family implements for it.

A round engine derives from :class:`RoundBase` and keeps its own state and transitions; the base
turns them into the public API: typed legal actions and the legal mask, checked ``step``
arguments with the reason for a refusal, per-seat views and event streams, the JSON state
(``to_json`` / ``from_json``, pickling) and log replay through the validated boundary of
:mod:`mahjong_core.game.state`, and a :class:`~mahjong_core.game.match.Match` of rounds.
The mahjong engines (:class:`mahjong_core.families.mahjong.round.Round`, compiled, and the
reference :class:`mahjong_core.families.mahjong._ref.round.Round`) derive from it through
:class:`mahjong_core.families.mahjong.round_base.MahjongRoundBase`.

What a family's round class supplies
------------------------------------
Class attributes:

``ACTION_SIZE: int``       length of the legal mask (action indices are ``0 .. ACTION_SIZE-1``)
``PHASE_NAMES: tuple``     phase code -> name (``phase_name``, views)
``VIEW_KEYS: tuple``       the keys of a view, in order (see :meth:`view`)
``RESULT_TYPE``            the finished-round result class, rebuilt from its dict as
                           ``RESULT_TYPE(d)`` (:attr:`Match.round_results`)

State the engine keeps (attributes or properties): ``settings`` (with ``ruleset``, ``players``),
``players``, ``dealer``, ``seed``, ``phase``, ``is_over``, ``log`` (the event list, header first),
``result`` (the result object once over, else ``None``) and ``_result`` (its dict, else ``None``).

Methods of the engine:

``legal_indices(seat)``        mask indices of the legal actions of ``seat`` (ascending; empty if
                               he is not to act; a bad seat is a SeatError, see ``_query_seat``)
``seats_to_act()``             the seats that may act now
``step(seat, action)``         apply one action (check it first with :meth:`_checked_action`);
                               returns the events it caused, the ``action`` event first
``to_dict()``                  the whole state as JSON-able data: ``schema_version``, ``header``
                               (the log's first event), the family's fields, ``result``, ``log``
``_action_pairs()``            every action applied so far as flat ``seat, mask index`` pairs (bytes
                               when every index fits a byte)
``decode_action(seat, i)``     the action object of legal mask index ``i``
``_encode_action(seat, a)``    the mask index of an action object, its dict or an index, else
                               :class:`~mahjong_core.errors.IllegalActionError`
``_why_illegal(seat, i)``      why index ``i`` (not legal) is refused, as a sentence
``_view_fields(seat, legal)``  the family's part of a view (every ``VIEW_KEYS`` key that is not
                               one of :data:`COMMON_VIEW_KEYS`)
``_redact_event(ev, seat)``    (static) an event of the log as ``seat`` may see it, ``None`` if hidden
``_check_invariants(events)``  raise :class:`~mahjong_core.errors.StateError` unless the state
                               satisfies the family's invariants of play
``_play_out_bots(bots, max_steps)``
                               optional: play the round to its end itself when it knows every
                               bot (e.g. inside a compiled engine) and return True, else return
                               False having done nothing (:func:`~mahjong_core.game.bots.play_round`)

A fast engine may also override ``view``, ``legal_mask`` or ``step`` (the compiled mahjong round
does) as long as the answers stay those of the generic methods here.

Class methods for the state boundary (:mod:`mahjong_core.game.state`) and the match:

``_settings_and_options(ruleset, options, min_fan)``
                               ``(settings, options)``: the checked settings (``ruleset``, the
                               canonical name, and ``players``) and the options as the log
                               header records them

``_header_shape()``            the :mod:`~mahjong_core.game.schema` shape of a log header
``_new_from_header(header)``   a freshly dealt round from a header that has that shape (the
                               constructor's own checks raise ``MahjongError``)

The constructor takes ``(ruleset, seed, *, dealer, options, spawn_key, **family_arguments)``
(:class:`~mahjong_core.game.match.Match` deals round ``k`` with ``spawn_key=(k + 1,)``), a ``seed`` of
``None`` draws fresh entropy (recorded in the header), and a result object is a
:class:`~mahjong_core.game.contract.Result` (``end``, ``winners``, ``deltas``, ``next_dealer`` (the dealer
of the next round of a match), ``to_dict()``...).  ``engine`` names the engine (``"compiled"`` or
``"reference"``); a class whose constructor chooses it keeps it through pickling (``__reduce__``).

A family registers the class as its ``new_round`` or ``round_class`` (and its
:class:`~mahjong_core.game.match.Match` subclass as ``new_match`` or ``match_class``) with
:func:`mahjong_core.families.registry.register_family`; ``mj.Round``/``mj.Match`` (the public faces of
:mod:`mahjong_core.game.contract`) and :func:`mahjong_core.game.state.load_state` then build and load
its rounds and matches.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Protocol, Sequence, TypeVar, cast

import numpy as np
import numpy.typing as npt

from .._validate import as_flag, as_seat
from ..errors import IllegalActionError
from . import contract
from .state import load_json, load_round, replay_log, round_from_header
from .views import COMMON_VIEW_KEYS, make_view, redacted

__all__ = ["RoundBase", "COMMON_VIEW_KEYS"]

_R = TypeVar("_R", bound="RoundBase")
"""The round class a loader is called on (``mj.Round.from_json`` gives a ``mj.Round``)."""


class RoundSettings(Protocol):
    """What the API reads of a round's settings (each family's settings class has more)."""

    @property
    def ruleset(self) -> str: ...
    @property
    def players(self) -> int: ...


class RoundBase(contract.Round):
    """API methods common to every family's round engines (see the module docstring for the
    hooks a subclass provides): a :class:`mahjong_core.game.contract.Round`."""

    def __new__(cls: type[_R], *args: Any, **kwargs: Any) -> _R:
        # a public face (mj.Round) hands a ruleset of another family to that family's round class
        other = contract.new_on_face(cls, args, kwargs)
        return cast(_R, other) if other is not None else super().__new__(cls)

    engine: str = "compiled"
    """The engine playing the round (:data:`~mahjong_core.game.contract.ENGINES`); a reference
    engine's class says ``"reference"``."""

    ACTION_SIZE: int
    PHASE_NAMES: tuple[str, ...]
    VIEW_KEYS: tuple[str, ...]
    RESULT_TYPE: Any

    # The state the family's round class keeps (module docstring), declared for the type checker
    # only: an engine assigns some of it as plain attributes (which a property here would forbid)
    # and computes the rest in properties of its own.
    settings: RoundSettings
    players: int
    dealer: int
    seed: int

    if TYPE_CHECKING:   # read-only here; stubtest_allowlist.txt names them (absent at run time)
        @property
        def phase(self) -> int: ...
        @property
        def is_over(self) -> bool: ...
        @property
        def log(self) -> Sequence[Mapping[str, Any]]: ...
        @property
        def result(self) -> object: ...
        @property
        def _result(self) -> Mapping[str, Any] | None: ...

    # The engine's methods and hooks (module docstring): every family's round class defines them,
    # and its own definitions come first in its MRO.  ``_play_out_bots`` is optional and looked up
    # with getattr (game/bots.py), so it is not declared here.
    def legal_indices(self, seat: int) -> list[int]:
        raise NotImplementedError

    def seats_to_act(self) -> list[int]:
        raise NotImplementedError

    def step(self, seat: int, action: Any) -> Sequence[Mapping[str, Any]]:
        raise NotImplementedError

    def to_dict(self) -> Mapping[str, Any]:
        raise NotImplementedError

    def _action_pairs(self) -> Sequence[int]:
        raise NotImplementedError

    def _follow(self, pairs: Sequence[int]) -> bool:
        """Play ``pairs`` here in order (flat ``seat, index`` pairs, as another round's
        :meth:`_action_pairs` gives them): True if every one was legal here, False at the first
        that is not (the ones before it stay played).  The families' re-deals of hidden cards
        (``Family.hidden_worlds``) replay a round's actions on another deal with it."""
        for k in range(0, len(pairs), 2):
            seat, i = pairs[k], pairs[k + 1]
            if i not in self.legal_indices(seat):
                return False
            self.step(seat, i)
        return True

    def decode_action(self, seat: int, i: int) -> object:
        raise NotImplementedError

    def _encode_action(self, seat: int, action: Any) -> int:
        raise NotImplementedError

    def _why_illegal(self, seat: int, i: int) -> str:
        raise NotImplementedError

    def _view_fields(self, seat: int, legal: list[int]) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def _redact_event(ev: dict[str, Any], seat: int) -> dict[str, Any] | None:
        raise NotImplementedError

    def _check_invariants(self, events: bool = True) -> None:
        raise NotImplementedError

    @property
    def ruleset(self) -> str:
        return self.settings.ruleset

    @property
    def phase_name(self) -> str:
        return self.PHASE_NAMES[self.phase]

    def _seat(self, seat: Any) -> int:
        """``seat`` as an int 0..P-1, else :class:`SeatError`."""
        return as_seat(seat, self.players)

    def _query_seat(self, seat: Any) -> "int | None":
        """For ``legal_indices``: ``seat`` as an int 0..P-1, else :class:`SeatError` (an integer out
        of range too: one rule for a bad seat in every per-seat method)."""
        return as_seat(seat, self.players)

    def legal_actions(self, seat: int) -> list[object]:
        """The legal actions of ``seat`` as typed action objects (empty if he is not to act)."""
        return [self.decode_action(seat, i) for i in self.legal_indices(seat)]

    def legal_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """Boolean mask of size ``ACTION_SIZE`` (the family's action layout)."""
        m = np.zeros(self.ACTION_SIZE, dtype=bool)
        idx = self.legal_indices(seat)
        if idx:
            m[idx] = True
        return m

    def action_index(self, seat: int, action: Any) -> int:
        """Mask index of ``action`` (an action object, its dict, or an index) for ``seat`` now."""
        return self._encode_action(self._seat(seat), action)

    def _checked_action(self, seat: Any, action: Any) -> tuple[int, int]:
        """``(seat, mask index)`` of an action ``step`` may apply; else
        :class:`IllegalActionError` with the reason (nothing is changed)."""
        if self.is_over:
            raise IllegalActionError("the round is over; no action is accepted")
        seat = as_seat(seat, self.players)
        i = self._encode_action(seat, action)
        legal = self.legal_indices(seat)
        if not legal:
            raise IllegalActionError(
                f"seat {seat} is not to act now (phase {self.phase_name}; to act: {self.seats_to_act()})")
        if i not in legal:
            raise IllegalActionError(self._why_illegal(seat, i))
        return seat, i

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as plain JSON-able data (never what the rules hide from him); a
        family may type it more closely (the mahjong round's is a ``PlayerView``)."""
        return make_view(self, seat)

    def __reduce__(self) -> tuple[Any, tuple[type[RoundBase], Mapping[str, Any]]]:
        # pickle / copy.deepcopy through the JSON-able state (a compiled core holds C data)
        return (_from_state, (type(self), self.to_dict()))

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string; ``Round.from_json(r.to_json())`` restores it exactly."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "RoundBase":
        """The round a saved state (:meth:`to_dict`) describes.  The state is not copied into the
        engine: the round is dealt again from the log's header, every action of the log is
        replayed through :meth:`step`, and the result must equal ``d`` field by field (see
        :mod:`mahjong_core.game.state`); otherwise :class:`~mahjong_core.errors.StateError` names
        the first offending field.  A finished round's result is recomputed, never read.
        On a public face (``mj.Round``) the state of any family's round is loaded by that family's
        round class (:mod:`mahjong_core.game.contract`)."""
        target = contract.face_target(cls, _state_ruleset(d))
        if target is not None:
            return cast(RoundBase, target.from_dict(d))   # type: ignore[attr-defined]  # a RoundBase too
        return load_round(cls, d)

    @classmethod
    def from_json(cls: type[_R], data: "str | bytes | Mapping[str, Any]") -> _R:
        """Inverse of :meth:`to_json` (also accepts the dict of :meth:`to_dict`); any damage,
        including invalid or too deeply nested JSON, is a :class:`~mahjong_core.errors.StateError`."""
        return cast(_R, cls.from_dict(data if isinstance(data, dict) else load_json(data, "the round state")))

    def log_lines(self) -> list[str]:
        """The event log, one JSON object per event (the first is the header with the seed)."""
        return [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in self.log]

    def log_for(self, seat: int) -> list[dict[str, Any]]:
        """The event log as ``seat`` may see it: every event through the family's
        ``_redact_event``, the hidden ones left out (for mahjong: no wall, no other player's
        concealed or drawn tiles, no claim answers of others)."""
        return redacted(self.log, self._seat(seat), self._redact_event)

    @classmethod
    def from_header(cls: type[_R], header: Mapping[str, Any]) -> _R:
        """A fresh round from a log header (seed, options and any scripted deal); a damaged
        header is a :class:`~mahjong_core.errors.StateError` naming the field."""
        target = contract.face_target(cls, header.get("ruleset") if isinstance(header, dict) else None)
        if target is not None:
            return cast(_R, target.from_header(header))   # type: ignore[attr-defined]  # a RoundBase too
        return round_from_header(cls, header, "header")

    @classmethod
    def replay(cls: type[_R], log: "Iterable[Mapping[str, Any] | str]", *, verify: bool = True) -> _R:
        """Rebuild a round from its event log (dicts or JSON lines) by re-applying every action.
        With ``verify`` every event must be the one the actions produce (else
        :class:`~mahjong_core.errors.StateError` naming ``log[i]``); without it only the header
        and the actions are read.  An illegal action is a ``StateError`` naming its event."""
        if cls.__dict__.get("_face_of") is not None and not isinstance(log, (str, bytes, bytearray, dict, list, tuple)):
            try:   # an iterator is read once: the face peeks at its header first
                log = list(log)
            except TypeError:
                pass    # not a log at all: the state boundary names it
        target = contract.face_target(cls, contract.header_ruleset(log))
        if target is not None:
            return cast(_R, target.replay(log, verify=verify))   # type: ignore[attr-defined]  # a RoundBase too
        return replay_log(cls, log, verify=as_flag(verify, "verify"))


def _from_state(cls: type[RoundBase], d: dict[str, Any]) -> RoundBase:
    return cls.from_dict(d)


def _state_ruleset(d: Any) -> Any:
    """The ruleset a saved round state names (its header's), or ``None``: a peek for the public face."""
    header = d.get("header") if isinstance(d, dict) else None
    return header.get("ruleset") if isinstance(header, dict) else None
