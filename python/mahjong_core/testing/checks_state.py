"""Checks of the state boundary: JSON, pickle, deep copy, log replay and ``from_dict`` round trips
of rounds and matches (exact, and keeping the engine where the contract says so), and hostile
states (a saved state altered in type, range, length, keys or actions) refused with a
:class:`~mahjong_core.errors.StateError`, never loaded as something else."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any, Callable, Iterator

from .. import Match, Round
from ..errors import MahjongError, StateError
from ..game.state import load_state
from .subject import RandomLegal, Subject, canonical, default_engine, play_to_end

_Face: Any = Round
"""The public face ``mj.Round`` (typed as any family's round: the suite checks every family)."""
_MatchFace: Any = Match
"""The public face ``mj.Match``."""

__all__ = ["check_round_trips", "check_hostile_states", "check_match", "mutations", "play_match"]


def _half_played(s: Subject, engine: str, seed: int) -> Any:
    """A round of ``engine`` stopped about halfway (random legal actions)."""
    full = s.new_round(engine, seed)
    steps = play_to_end(s, full, [RandomLegal(seed + p) for p in range(s.players)])
    r = s.new_round(engine, seed)
    bots = [RandomLegal(seed + p) for p in range(s.players)]
    for _ in range(steps // 2):
        seat = r.seats_to_act()[0]
        r.step(seat, bots[seat].act_index(r, seat))
    return r


def _states(s: Subject, engine: str) -> Iterator[Any]:
    """The states round-tripped: a fresh round, one stopped halfway, the finished ones."""
    yield s.new_round(engine, s.seed + 1, 1 % s.players)
    yield _half_played(s, engine, s.seed)
    yield from s.finished_rounds(engine)


def check_round_trips(s: Subject) -> None:
    """On every engine, for a fresh, a half-played and the finished rounds: ``to_dict`` is JSON;
    ``from_json``, ``from_dict``, ``replay`` (of the log and of its JSON lines) and ``load_state``
    rebuild the same state on the default engine, in the family's round class; ``pickle`` and
    ``copy.deepcopy`` rebuild it on the round's own engine; a copy plays on as the original does."""
    cls: Any = s.family.round_type()
    for engine in s.engines:
        for r in _states(s, engine):
            at = f"{engine} engine, seed {r.seed}, {len(r.log)} events"
            text = r.to_json()
            s.expect(json.loads(text) == r.to_dict() and json.loads(json.dumps(r.to_dict())) == r.to_dict(),
                     f"{at}: to_dict() is not plain JSON data equal to to_json()")
            loaders: dict[str, Callable[[], Any]] = {
                "Round.from_json": lambda: _Face.from_json(text),
                "Round.from_dict": lambda: _Face.from_dict(json.loads(text)),
                "Round.replay(log)": lambda: _Face.replay(copy.deepcopy(list(r.log))),
                "Round.replay(log_lines)": lambda: _Face.replay(iter(r.log_lines())),
                "load_state": lambda: load_state(text),
                "the family's from_json": lambda: cls.from_json(text),
            }
            for name, load in loaders.items():
                back = load()
                s.expect(type(back) is cls, f"{at}: {name} gave a {type(back).__name__}, not a {cls.__name__}")
                s.expect(back.engine == default_engine(s),
                         f"{at}: {name} loads on {back.engine!r}, not the default engine {default_engine(s)!r}")
                s.expect(back.to_json() == text, f"{at}: {name} does not give back the same state")
            copies = {"pickle": pickle.loads(pickle.dumps(r)), "deepcopy": copy.deepcopy(r)}
            for name, back in copies.items():
                s.expect(type(back) is type(r) and back.engine == r.engine,
                         f"{at}: {name} gave a {type(back).__name__} on {back.engine!r}, not a "
                         f"{type(r).__name__} on {r.engine!r}: the engine is lost")
                s.expect(back.to_json() == text and back.seed == r.seed, f"{at}: {name} changed the state")
            fresh = _Face.from_header(r.log[0])
            s.expect(type(fresh) is cls and fresh.log[0] == r.log[0],
                     f"{at}: Round.from_header(log[0]) is not a fresh round of the same header")
            if not r.is_over:   # the copy and the original play on alike
                twin = copies["pickle"]
                for rr in (r, twin):
                    play_to_end(s, rr, [RandomLegal(r.seed + 7 + p) for p in range(s.players)])
                s.expect(twin.to_json() == r.to_json(), f"{at}: a pickled copy plays on differently")


def mutations(d: dict[str, Any], players: int) -> Iterator[tuple[str, Any]]:
    """``(what, document)``: hostile variants of a saved round state ``d`` (a copy each)."""
    text = json.dumps(d)   # copied through JSON: several times faster than copy.deepcopy

    def variant(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
        """A copy of ``d`` whose item at ``path`` is ``value`` (deleted for :data:`_DELETE`)."""
        m: dict[str, Any] = json.loads(text)
        target: Any = m
        for step in path[:-1]:
            target = target[step]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return m

    for key in d:
        yield f"{key} deleted", variant((key,), _DELETE)
        for bad in ("x", None, -1):
            if d[key] != bad:
                yield f"{key} = {bad!r}", variant((key,), bad)
    yield "an unknown key", variant(("zz_unknown",), 1)
    yield "schema_version 99", variant(("schema_version",), 99)
    log = d["log"]
    for key in log[0]:
        yield f"log[0].{key} deleted", variant(("log", 0, key), _DELETE)
    header_values: tuple[tuple[str, Any], ...] = (
        ("seed", -1), ("seed", 2 ** 300), ("seed", "7"), ("dealer", players), ("dealer", -1), ("dealer", True),
        ("ruleset", "zz-no-such-ruleset"), ("schema_version", 0), ("zz_unknown", 1))
    for key, bad in header_values:
        yield f"log[0].{key} = {bad!r}", variant(("log", 0, key), bad)
    yield "the log truncated to its header", variant(("log",), log[:1])
    yield "the last event dropped", variant(("log",), log[:-1])
    yield "an empty log", variant(("log",), [])
    yield "an event duplicated", variant(("log",), [*log, log[-1]])
    yield "an event not an object", variant(("log", len(log) - 1), 5)
    yield "an unknown key in the last event", variant(("log", len(log) - 1, "zz_unknown"), 1)
    actions = [i for i, e in enumerate(log) if isinstance(e, dict) and e.get("type") == "action"]
    for i in actions[-2:]:
        yield f"log[{i}] (an action) dropped", variant(("log",), log[:i] + log[i + 1:])
        yield f"log[{i}].seat moved", variant(("log", i, "seat"), (log[i]["seat"] + 1) % players)
        yield f"log[{i}].seat out of range", variant(("log", i, "seat"), players)
        yield f"log[{i}].action malformed", variant(("log", i, "action"), {"type": "zz"})
        for j in actions:   # another action of the round in its place
            if log[j]["action"] != log[i]["action"]:
                yield f"log[{i}].action replaced by log[{j}]'s", variant(("log", i, "action"), log[j]["action"])
                break


_DELETE = object()
"""The value of a :func:`mutations` variant that deletes the item."""


def _refused_or_exact(s: Subject, load: Callable[[Any], Any], doc: Any, what: str) -> None:
    """Loading ``doc`` raises a StateError, or gives back exactly ``doc`` (never something else)."""
    try:
        back = load(doc)
    except StateError:
        return
    except MahjongError as exc:
        s.fail(f"{what}: refused with {type(exc).__name__}, not a StateError: {exc}")
    except Exception as exc:   # noqa: BLE001 - any other exception is the finding
        s.fail(f"{what}: raised {type(exc).__name__}: {exc}, not a StateError")
    s.expect(canonical(back.to_dict()) == canonical(doc), f"{what}: accepted as another state")


def check_hostile_states(s: Subject) -> None:
    """Saved states altered (a key deleted or of the wrong type, an integer out of range, the log
    truncated or extended, unknown keys, an action event moved, malformed or replaced, invalid
    JSON) are refused by ``Round.from_dict``/``load_state`` with a StateError, or load as exactly
    the altered document (never silently as something else); likewise a match's state."""
    finished = s.finished_rounds(default_engine(s))[0]
    for r in (_half_played(s, default_engine(s), s.seed), finished):
        d = json.loads(r.to_json())
        for k, (what, doc) in enumerate(mutations(d, s.players)):
            _refused_or_exact(s, _Face.from_dict, doc, f"Round.from_dict of a state with {what}")
            if k % 4 == 0:   # load_state takes the same path after its dispatch: a sample of them
                _refused_or_exact(s, load_state, doc, f"load_state of a state with {what}")
    d = json.loads(finished.to_json())
    for key in list(d["result"] or ())[:6]:   # a forged result: the result is recomputed, never read
        forged = json.loads(finished.to_json())
        forged["result"][key] = [forged["result"][key]]
        _refused_or_exact(s, _Face.from_dict, forged, f"Round.from_dict of a state whose result.{key} is forged")
        text = r.to_json()
        for what, bad in (("truncated JSON", text[: len(text) // 2]), ("not JSON", "{x"), ("a JSON list", "[]"),
                          ("nested too deeply", "[" * 100_000)):
            _refused_or_exact(s, _Face.from_json, bad, f"Round.from_json of {what}")
    m = play_match(s, rounds=2, stop_after=1)
    text = m.to_json()
    d = json.loads(text)
    for key in ("seed", "rounds", "first_dealer", "results", "actions", "round"):
        for bad in ("x", None, -1, [[[0, 10 ** 6]]]):
            doc = {**json.loads(text), key: bad}
            if doc != d:
                _refused_or_exact(s, _MatchFace.from_dict, doc, f"Match.from_dict with {key} = {bad!r}")
    if d["results"]:
        forged = json.loads(text)
        forged["results"][0]["zz_forged"] = 1
        _refused_or_exact(s, _MatchFace.from_dict, forged, "Match.from_dict with a forged result")
    if d["actions"] and d["actions"][0]:
        cut = json.loads(text)
        cut["actions"][0].pop()
        _refused_or_exact(s, _MatchFace.from_dict, cut, "Match.from_dict with a finished round's action dropped")


def play_match(s: Subject, rounds: int, stop_after: "int | None" = None) -> Any:
    """A match of ``rounds`` rounds played by random legal actions through the match API (stopped
    a few steps into round ``stop_after`` if given)."""
    m = _MatchFace(s.ruleset, s.seed, rounds=rounds)
    bots = [RandomLegal(s.seed + p) for p in range(s.players)]
    steps = 0
    while not m.is_over:
        if stop_after is not None and m.round_index == stop_after:
            steps += 1
            if steps > 3 or m.round.is_over:
                break
        seat = m.seats_to_act()[0]
        m.step(seat, bots[seat].act_index(m.round, seat))
        if m.round.is_over and not m.is_over:
            m.next_round()
    return m


def check_match(s: Subject) -> None:
    """A match plays to its end through the match API; its results are those of its rounds (the
    common fields of :class:`~mahjong_core.game.contract.Result`), each round's dealer is the
    previous result's ``next_dealer``; the state round-trips (JSON, ``load_state``, pickle, deep
    copy) mid-match and at the end, in the family's match class."""
    rounds = max(2, s.rounds)
    cls: Any = s.family.match_type()
    for m in (play_match(s, rounds, stop_after=1), play_match(s, rounds)):
        s.expect(type(m) is cls, f"mj.Match({s.ruleset!r}) built a {type(m).__name__}, not {cls.__name__}")
        text = m.to_json()
        backs: list[tuple[str, Any]] = [
            ("Match.from_json", _MatchFace.from_json(text)), ("load_state", load_state(text)),
            ("pickle", pickle.loads(pickle.dumps(m))), ("deepcopy", copy.deepcopy(m))]
        for name, back in backs:
            s.expect(type(back) is cls and back.to_json() == text,
                     f"after {m.round_index} rounds: {name} does not give back the same match")
    s.expect(m.is_over and len(m.results) == rounds and m.seats_to_act() == [],
             f"a match of {rounds} rounds is over={m.is_over} after {len(m.results)} results")
    for k, (rec, res) in enumerate(zip(m.results, m.round_results)):
        d = res.to_dict()
        s.expect(all(rec[key] == value for key, value in d.items()),
                 f"match.results[{k}] is not its round's result.to_dict()")
        s.expect(rec["dealer"] == res.dealer, f"match.results[{k}]: dealer {rec['dealer']} but result.dealer {res.dealer}")
        if k + 1 < len(m.results):
            s.expect(m.results[k + 1]["dealer"] == res.next_dealer,
                     f"round {k + 1} is dealt by {m.results[k + 1]['dealer']}, but round {k}'s result names "
                     f"next_dealer {res.next_dealer}")
    s.expect(m.dealer_sequence() == [rec["dealer"] for rec in m.results], "dealer_sequence() is not the results' dealers")
