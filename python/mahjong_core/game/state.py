"""The validated state boundary of the round engines: loading a saved round (``from_dict``,
``from_json``, unpickling, ``copy.deepcopy``) and replaying an event log.

A round is deterministic given its log header (ruleset, seed, spawn key, options, dealer, round
wind and any scripted wall or dice) and the actions in its log.  So a saved state is never copied
into an engine: it is **rebuilt** —

1. the header (the log's first event) is checked field by field and a fresh round is dealt from it
   through the checked constructor;
2. every ``action`` event of the log is applied in order through the normal checked ``step``, and
   the events each action causes must be exactly the next events of the log;
3. the rebuilt round's :meth:`to_dict` must equal the document, key by key and with strict JSON
   types (a finished round's result is therefore recomputed, never taken from the document);
4. the family's invariants of play (the round's ``_check_invariants``; mahjong's are
   :func:`~mahjong_core.families.mahjong.round_invariants.check_invariants`) run on the rebuilt
   round as a second line of defence.

Anything else raises :class:`~mahjong_core.errors.StateError` whose message starts with the
path of the first offending field (``hands[1][5]``, ``log[12].action``, ``header.ruleset``):
invalid or too deeply nested JSON, huge integers, wrong types, missing or unknown keys, an
illegal action, a forged result.  Nothing of the document reaches the compiled core except
through the constructor's and ``step``'s own checks.

The family's round class supplies the header's shape and the deal from a header (the hooks
``_header_shape`` and ``_new_from_header`` of :class:`~mahjong_core.game.round_base.RoundBase`).
:func:`load_state` takes any saved round or match: the ruleset it names (``header.ruleset``, or
``ruleset`` of a match) picks the family through the registry, whose round or match class then
loads it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Protocol, TypeVar, cast

from .._validate import counted
from ..errors import MahjongError, StateError
from ..families import registry
from .schema import ANY_OBJ, MAX_SEATS, Int, Obj, Shape, Str, check, describe, first_difference, join

__all__ = ["load_json", "round_from_header", "replay_events", "replay_log", "load_round", "load_state",
           "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
_REBUILT = "the round rebuilt from its log"
_PRODUCED = "the event its actions produce"

Event = dict[str, Any]
"""One event of a round's log (family-neutral here: each family's events have their own keys)."""

_R = TypeVar("_R")
_R_co = TypeVar("_R_co", covariant=True)


class _ReplayedRound(Protocol):
    """What the state boundary calls on a round (hooks of :class:`~mahjong_core.game.round_base.RoundBase`)."""

    @property
    def players(self) -> int: ...
    @property
    def log(self) -> list[Event]: ...
    def step(self, seat: int, action: Any) -> list[Event]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def _check_invariants(self, events: bool = True) -> None: ...


class _RoundClass(Protocol[_R_co]):
    """The class methods of a round class that the state boundary calls."""

    def _header_shape(self) -> Shape: ...
    def _new_from_header(self, header: dict[str, Any]) -> _R_co: ...


def _hooks(cls: type[_R]) -> _RoundClass[_R]:
    # RoundBase documents these class hooks rather than declaring them (each family's round class
    # defines them), so a round class is only known to have them here
    return cast(_RoundClass[_R], cls)


def _replayed(r: object) -> _ReplayedRound:
    # as _hooks: the instance hooks RoundBase documents, which the family's round class defines
    return cast(_ReplayedRound, r)


def load_json(data: Any, what: str = "the document") -> Any:
    """``json.loads`` whose every failure (invalid JSON, bytes that are not UTF-8, nesting that
    exhausts the parser's stack, an integer beyond Python's digit limit) is a :class:`StateError`."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateError(f"{what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(data, str):
        raise StateError(f"{what}: expected JSON text, got {describe(data)}")
    try:
        return json.loads(data)
    except RecursionError:
        raise StateError(f"{what}: JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer literal beyond the digit limit
        raise StateError(f"{what}: not valid JSON ({exc})") from None


def _events(log: Any, path: str) -> list[Any]:
    """The log as a list (each entry a dict or a JSON line, decoded on use by :func:`_event`)."""
    if isinstance(log, (str, bytes, bytearray, dict)) or log is None:
        raise StateError(f"{path}: expected a list of events, got {describe(log)}")
    try:
        events = list(log)
    except TypeError:
        raise StateError(f"{path}: expected a list of events, got {describe(log)}") from None
    if not events:
        raise StateError(f"{path}: an empty log has no header")
    return events


def _event(events: list[Any], i: int, path: str) -> Event:
    """Event ``i``: a dict, or a JSON line decoded to one (stored back so it is decoded once)."""
    e = events[i]
    if isinstance(e, (str, bytes, bytearray)):
        e = events[i] = load_json(e, f"{path}[{i}]")
    if not isinstance(e, dict):
        raise StateError(f"{path}[{i}]: an event must be an object, got {describe(e)}")
    return e


def round_from_header(cls: type[_R], header: Any, path: str) -> _R:
    """A freshly dealt round of the engine ``cls`` from a log header (checked field by field; the
    constructor's own refusals are reported as :class:`StateError` under ``path``)."""
    if isinstance(header, dict) and header.get("type") != "header" and "type" in header:
        raise StateError(f"{join(path, 'type')}: the first event of a log must be its header, "
                         f"got {describe(header.get('type'))}")
    hooks = _hooks(cls)
    check(hooks._header_shape(), header, path)
    try:
        return hooks._new_from_header(header)
    except StateError:
        raise
    except MahjongError as exc:
        raise StateError(f"{path}: {exc}") from None


_ACTION_EVENT = {P: Obj({"type": Str(), "seat": Int(0, P - 1), "action": ANY_OBJ}) for P in range(1, MAX_SEATS + 1)}


def _action_of(e: Event, players: int, path: str) -> tuple[int, dict[str, Any]]:
    if e.get("type") != "action":
        raise StateError(f"{path}: expected an action event here (the events before it are complete), "
                         f"got {describe(e.get('type'))}")
    check(_ACTION_EVENT[players], e, path)
    seat: int = e["seat"]
    action: dict[str, Any] = e["action"]
    return seat, action


def _step(r: _ReplayedRound, seat: int, action: dict[str, Any], path: str) -> list[Event]:
    try:
        return r.step(seat, action)
    except MahjongError as exc:  # IllegalActionError: the action is not legal in the rebuilt round
        raise StateError(f"{path}: {exc}") from None


def replay_events(r: object, events: list[Any], path: str = "log", verify: bool = True) -> None:
    """Apply the ``action`` events of ``events`` to the freshly dealt round ``r`` (whose header is
    ``events[0]``).  With ``verify`` the log must be exactly what the round produces: every event
    equal (strict JSON types) and nothing missing or extra; without it only the actions are used."""
    r = _replayed(r)  # the same object, seen through the hooks it has
    P = r.players
    if not verify:
        for i in range(1, len(events)):
            e = _event(events, i, path)
            if e.get("type") == "action":
                seat, action = _action_of(e, P, f"{path}[{i}]")
                _step(r, seat, action, f"{path}[{i}]")
        return
    produced = list(r.log)
    _compare_events(produced, events, 0, path, f"the deal ({len(produced)} events)")
    i = len(produced)
    while i < len(events):
        e = _event(events, i, path)
        seat, action = _action_of(e, P, f"{path}[{i}]")
        new = _step(r, seat, action, f"{path}[{i}]")
        _compare_events(new, events, i, path, f"the action at {path}[{i}]")
        i += len(new)
    # the events were compared with ==, which takes true for 1: the whole log once more, strictly
    diff = first_difference(r.log, events, path, against=_PRODUCED)
    if diff is not None:
        raise StateError(diff)


def _compare_events(produced: list[Event], events: list[Any], start: int, path: str, cause: str) -> None:
    """The events an action produced must be the next events of the log (compared with ``==``
    here, strictly at the end of :func:`replay_events`)."""
    end = start + len(produced)
    if end > len(events):
        nxt = produced[len(events) - start] if len(events) > start else produced[0]
        raise StateError(f"{path}: ends after {counted(len(events), 'event')}, before all the events of {cause} "
                         f"(next: a {nxt['type']!r} event)")
    for k in range(start, end):
        _event(events, k, path)
    if produced != events[start:end]:
        for j, ev in enumerate(produced):
            d = first_difference(ev, events[start + j], f"{path}[{start + j}]", against=_PRODUCED)
            if d is not None:
                raise StateError(d)


def replay_log(cls: type[_R], log: Iterable[Any], *, verify: bool = True, path: str = "log") -> _R:
    """A round of engine ``cls`` rebuilt from its event log (dicts or JSON lines)."""
    events = _events(log, path)
    r = round_from_header(cls, _event(events, 0, path), f"{path}[0]")
    replay_events(r, events, path, verify)
    return r


def load_round(cls: type[_R], d: Any) -> _R:
    """The round a saved state (the dict of ``to_dict``) describes, rebuilt and compared (see the
    module docstring); :class:`StateError` naming the first offending field otherwise."""
    if not isinstance(d, dict):
        raise StateError(f"a round state must be an object, got {describe(d)}")
    v = d.get("schema_version")
    if type(v) is not int or v != SCHEMA_VERSION:
        raise StateError(f"schema_version: unsupported {describe(v)} (this library reads and writes "
                         f"{SCHEMA_VERSION})")
    if "log" not in d:
        raise StateError("log: missing")
    if not isinstance(d["log"], list):
        raise StateError(f"log: expected a list of events, got {describe(d['log'])}")
    for i, e in enumerate(d["log"]):  # a state holds its events as objects (JSON lines are for replay)
        if not isinstance(e, dict):
            raise StateError(f"log[{i}]: an event must be an object, got {describe(e)}")
    if "header" in d and d["log"]:  # the round is rebuilt from log[0]: the state's header must be it
        diff = first_difference(d["log"][0], d["header"], "header", against="the log's header, log[0]")
        if diff is not None:
            raise StateError(diff)
    r = replay_log(cls, d["log"], path="log")
    rr = _replayed(r)
    diff = first_difference(rr.to_dict(), d, skip=("log",), against=_REBUILT)
    if diff is not None:
        raise StateError(diff)
    rr._check_invariants(events=False)  # the events were compared with the engine's own above
    return r


def load_state(data: Any) -> Any:
    """The round or match a saved state describes (a dict, JSON text or UTF-8 bytes), of any
    registered family: a match state (``"type": "match"``) is loaded by the family's match class
    (:meth:`~mahjong_core.families.registry.Family.match_type`), a round state by its round class
    (:meth:`~mahjong_core.families.registry.Family.round_type`), both found through the registry
    from the ruleset the state names; a round is dealt on the family's default (compiled) engine.  Every failure is a :class:`StateError`."""
    if isinstance(data, (str, bytes, bytearray)):
        data = load_json(data, "the state")
    if not isinstance(data, dict):   # e.g. valid JSON whose top level is a list, null, a number, a string
        raise StateError(f"the state: expected a JSON object (a saved round or match), got {describe(data)}")
    if data.get("type") == "match":
        ruleset, path = data.get("ruleset"), "ruleset"
    else:
        header = data.get("header")
        ruleset, path = (header.get("ruleset") if isinstance(header, dict) else None), "header.ruleset"
    if not isinstance(ruleset, str):
        raise StateError(f"{path}: expected a ruleset name, got {describe(ruleset)}")
    try:
        family = registry.family_of(ruleset)
    except MahjongError as exc:
        raise StateError(f"{path}: {exc}") from None
    match = data.get("type") == "match"
    try:
        cls: Any = family.match_type() if match else family.round_type()
    except MahjongError:   # no class registered: a loader the family hangs on its factory, if any
        cls = family.new_match if match else family.new_round
    if not hasattr(cls, "from_dict"):
        raise StateError(f"{path}: the {family.name} family cannot load saved states yet")
    return cls.from_dict(data)
