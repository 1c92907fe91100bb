"""Checks of one round's API on every engine: the attributes and queries, the legal mask against
the legal set, refused actions that change nothing, views (the common keys, and nothing a seat
may not know), rounds that end, and engines that play the same game."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .. import Round
from ..errors import MahjongError
from ..game import contract
from ..game.bots import make_bots, play_round, play_steps
from ..game.views import COMMON_VIEW_KEYS
from .subject import MAX_STEPS, RandomLegal, Subject, canonical, default_engine, play_to_end

_Face: Any = Round
"""The public face ``mj.Round`` (typed as any family's round: the suite checks every family)."""

__all__ = ["check_round_api", "check_legal_mask", "check_refused_actions", "check_views", "check_hidden_information",
           "check_rounds_end", "check_engines_agree"]


def _check_queries(s: Subject, r: Any, n: int) -> None:
    """The round's attributes and queries at step ``n`` agree with each other."""
    at = f"seed {r.seed}, {r.engine} engine, step {n}"
    s.expect(isinstance(r.is_over, bool), f"{at}: is_over is {type(r.is_over).__name__}, not a bool")
    s.expect(r.phase_name in r.PHASE_NAMES, f"{at}: phase_name {r.phase_name!r} not in PHASE_NAMES")
    to_act = r.seats_to_act()
    s.expect(isinstance(to_act, list) and all(type(p) is int and 0 <= p < r.players for p in to_act),
             f"{at}: seats_to_act() = {to_act!r}, not a list of seats")
    s.expect(bool(to_act) != r.is_over, f"{at}: seats_to_act() = {to_act!r} while is_over is {r.is_over}")
    s.expect((r.result is None) != r.is_over, f"{at}: result is {r.result!r} while is_over is {r.is_over}")
    acting = [p for p in range(r.players) if r.legal_indices(p)]
    s.expect(sorted(to_act) == acting,
             f"{at}: seats_to_act() = {to_act} but the seats with legal actions are {acting}")
    s.expect(r.ruleset == s.ruleset and r.players == s.players,
             f"{at}: ruleset/players {r.ruleset!r}/{r.players}, expected {s.ruleset!r}/{s.players}")


def check_round_api(s: Subject) -> None:
    """The round API: ``ruleset``, ``players``, ``dealer``, ``seed``, ``engine``, ``phase``, ``is_over``,
    ``seats_to_act``, ``result`` on every engine and at every step; the public face builds the
    family's round class on the default engine; a seed reproduces a round, no seed draws a fresh one."""
    record = s.record
    s.expect(record.name == s.ruleset and record.family == s.family.name,
             f"the registry's record is {record.name!r} of family {record.family!r}")
    for engine in s.engines:
        dealer = 1 % s.players
        r = s.new_round(engine, s.seed, dealer)
        s.expect(isinstance(r, contract.Round) and isinstance(r, _Face),
                 f"a {engine} round ({type(r).__name__}) is not a contract.Round")
        s.expect(r.engine == engine, f"the {engine} engine's round says engine={r.engine!r}")
        s.expect(r.seed == s.seed and r.dealer == dealer,
                 f"{engine}: Round(seed={s.seed}, dealer={dealer}) has seed={r.seed}, dealer={r.dealer}")
        s.expect(s.new_round(engine, s.seed, dealer).to_json() == r.to_json(),
                 f"{engine}: two rounds of seed {s.seed} differ")
        play_to_end(s, r, s.players_for(0, s.seed, engine), lambda rr, n: _check_queries(s, rr, n))
    face: Any = _Face(s.ruleset, s.seed)
    s.expect(type(face) is s.family.round_type(),
             f"mj.Round({s.ruleset!r}) built a {type(face).__name__}, not the family's {s.family.round_type().__name__}")
    s.expect(face.engine == default_engine(s), f"mj.Round({s.ruleset!r}) plays on {face.engine!r}, "
             f"not the default engine {default_engine(s)!r}")
    seeds = {_Face(s.ruleset).seed for _ in range(3)}
    s.expect(len(seeds) == 3, f"three rounds made without a seed have the seeds {sorted(seeds)}: not fresh randomness")


def check_legal_mask(s: Subject) -> None:
    """``legal_mask(seat)`` is the set ``legal_indices(seat)`` for every seat at every step, and
    each legal action object maps back to its index."""
    def each(r: Any, n: int) -> None:
        for seat in range(r.players):
            legal = r.legal_indices(seat)
            mask = r.legal_mask(seat)
            at = f"seed {r.seed}, {r.engine} engine, step {n}, seat {seat}"
            s.expect(isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (r.ACTION_SIZE,),
                     f"{at}: legal_mask is not a bool array of ACTION_SIZE={r.ACTION_SIZE}")
            s.expect(list(legal) == sorted(set(legal)) and all(type(i) is int for i in legal),
                     f"{at}: legal_indices {legal!r} are not ascending ints")
            s.expect(np.flatnonzero(mask).tolist() == list(legal),
                     f"{at}: legal_mask marks {np.flatnonzero(mask).tolist()} but legal_indices is {legal}")
            actions = r.legal_actions(seat)
            s.expect(len(actions) == len(legal), f"{at}: {len(actions)} legal actions for {len(legal)} indices")
            for i, a in zip(legal, actions):
                s.expect(r.action_index(seat, a) == i, f"{at}: the legal action {a!r} maps to "
                         f"{r.action_index(seat, a)}, not to its index {i}")

    for engine in s.engines:
        for k, seed in s.seeds():
            play_to_end(s, s.new_round(engine, seed, k % s.players), s.players_for(k, seed, engine), each)


def _bad_calls(r: Any) -> list[tuple[Any, Any, str]]:
    """``(seat, action, what)`` that ``step`` must refuse now."""
    calls: list[tuple[Any, Any, str]] = []
    to_act = r.seats_to_act()
    seat = to_act[0] if to_act else 0
    legal = r.legal_indices(seat)
    illegal = [i for i in range(r.ACTION_SIZE) if i not in legal]
    if illegal and not r.is_over:
        calls.append((seat, illegal[0], f"the illegal index {illegal[0]}"))
    calls += [(seat, r.ACTION_SIZE, "an index past ACTION_SIZE"), (seat, -1, "the index -1")]
    idle = [p for p in range(r.players) if p not in to_act]
    if idle and legal:
        calls.append((idle[0], legal[0], f"seat {idle[0]}, not to act"))
    good = legal[0] if legal else 0
    bad_seats: tuple[Any, ...] = (r.players, -1, None, "0", 1.5)
    calls += [(bad, good, f"the seat {bad!r}") for bad in bad_seats]
    malformed: tuple[Any, ...] = (None, "x", 1.5, [], {}, {"type": "no-such-action"})
    calls += [(seat, bad, f"the malformed action {bad!r}") for bad in malformed]
    if r.is_over:
        calls.append((0, 0, "an action after the end"))
    return calls


def check_refused_actions(s: Subject) -> None:
    """An illegal index, a seat not to act, a bad seat, a malformed action, any action after the
    end: ``step`` raises a ``ValueError`` subclass (a ``MahjongError``) and the state, log and
    queries are exactly as before."""
    def each(r: Any, n: int) -> None:
        if not (n < 4 or n % 9 == 0 or r.is_over):
            return
        before = r.to_json()
        legal = [r.legal_indices(p) for p in range(r.players)]
        for seat, action, what in _bad_calls(r):
            at = f"seed {r.seed}, {r.engine} engine, step {n}: step({seat!r}, {action!r}) ({what})"
            try:
                r.step(seat, action)
            except MahjongError:
                pass
            except Exception as exc:   # noqa: BLE001 - any other exception is the finding
                s.fail(f"{at} raised {type(exc).__name__}: {exc}, not a MahjongError (ValueError)")
            else:
                s.fail(f"{at} was accepted")
            s.expect(r.to_json() == before, f"{at} was refused but changed the state")
            s.expect([r.legal_indices(p) for p in range(r.players)] == legal,
                     f"{at} was refused but changed the legal actions")
        bad_seats: tuple[Any, ...] = (r.players, -1, "0")
        for bad in bad_seats:
            try:
                r.legal_indices(bad)
            except MahjongError:
                continue
            s.fail(f"seed {r.seed}, {r.engine} engine: legal_indices({bad!r}) is not refused")

    for engine in s.engines:
        play_to_end(s, s.new_round(engine, s.seed), s.players_for(0, s.seed, engine), each)


def check_views(s: Subject) -> None:
    """``view(seat)`` of every seat at every step: plain JSON-able data with the common keys
    (:data:`~mahjong_core.game.contract.COMMON_VIEW_KEYS`) agreeing with the round API."""
    def each(r: Any, n: int) -> None:
        for seat in range(r.players):
            v = r.view(seat)
            at = f"seed {r.seed}, {r.engine} engine, step {n}, view({seat})"
            s.expect(isinstance(v, dict), f"{at} is a {type(v).__name__}, not a dict")
            missing = [k for k in COMMON_VIEW_KEYS if k not in v]
            s.expect(not missing, f"{at} lacks the common keys {missing}")
            s.expect(json.loads(json.dumps(v)) == v, f"{at} is not plain JSON data")
            expected = {"ruleset": r.ruleset, "seat": seat, "players": r.players, "dealer": r.dealer,
                        "phase": r.phase_name, "legal_indices": r.legal_indices(seat)}
            wrong = {k: v[k] for k, want in expected.items() if v[k] != want}
            s.expect(not wrong, f"{at} says {wrong}, the round API {({k: expected[k] for k in wrong})}")
            s.expect((v["result"] is None) != r.is_over, f"{at}: result {v['result']!r} while is_over is {r.is_over}")
            s.expect(len(v["legal_actions"]) == len(v["legal_indices"]),
                     f"{at}: {len(v['legal_actions'])} legal_actions for {len(v['legal_indices'])} legal_indices")

    for engine in s.engines:
        for k, seed in s.seeds():
            play_to_end(s, s.new_round(engine, seed, k % s.players), s.players_for(k, seed, engine), each)


HIDDEN_WORLDS_MIN = 40
"""The fewest re-dealt worlds (``Family.hidden_worlds``) the ``hidden_information`` check must
compare in which another seat's view differs (its concealed cards do), lest it pass vacuously."""


def check_hidden_information(s: Subject) -> None:
    """A view shows nothing its seat may not know.  When the family registers
    ``Family.hidden_worlds`` (:mod:`mahjong_core.families.registry`), the rounds of many seeds are
    re-dealt at several steps where each seat cannot see (the other seats' concealed cards, the
    wall), the round itself left as it was: the seat's event stream ``log_for(seat)`` and the
    public turn (phase, seats to act) must be the ones it saw, and its view and legal actions
    too; the check fails unless
    it compared at least :data:`HIDDEN_WORLDS_MIN` worlds whose other seats' views (their hidden
    cards) differ, and at least a third of the worlds compared.  Without the hook, two states
    that a seat cannot tell apart (the same ``log_for(seat)`` and the same public turn) among the
    early steps (and every eighth later one) of many seeded rounds must give that seat the same
    view.  Either way, a view that shows a hidden card differs between two deals that the seat
    cannot tell apart."""
    if s.family.hidden_worlds is not None:
        _check_hidden_worlds(s, s.family.hidden_worlds)
    else:
        _check_same_events(s)


def _check_hidden_worlds(s: Subject, hidden_worlds: Any) -> None:
    rng = np.random.default_rng([s.seed, 27])
    compared = changed = 0

    def each(r: Any, n: int) -> None:
        nonlocal compared, changed
        if r.is_over or not (n < 4 or n % 21 == 6):
            return
        turn = [r.phase_name, r.seats_to_act()]
        before = r.to_json()
        for seat in range(r.players):
            other = hidden_worlds(r, seat, rng)
            s.expect(r.to_json() == before, f"seed {r.seed} ({r.engine} engine) at step {n}: hidden_worlds "
                     f"changed the round it re-dealt for seat {seat}")
            if other is None:
                continue
            where = f"seed {r.seed} ({r.engine} engine) at step {n}"
            s.expect(canonical(other.log_for(seat)) == canonical(r.log_for(seat)),
                     f"{where}: hidden_worlds re-dealt for seat {seat} a round whose events the seat sees differ")
            s.expect([other.phase_name, other.seats_to_act()] == turn,
                     f"{where}: hidden_worlds re-dealt for seat {seat} a round in another turn "
                     f"({other.phase_name}, seats {other.seats_to_act()} to act; here {turn[0]}, seats {turn[1]})")
            first, view = r.view(seat), other.view(seat)
            if canonical(first) != canonical(view) or r.legal_indices(seat) != other.legal_indices(seat):
                s.fail(f"seat {seat} sees the same events in the round of {where} and in that round re-dealt "
                       f"where it cannot see (hidden_worlds) but not the same view: the view shows what the "
                       f"seat may not know (first difference: {_first_difference(first, view)})")
            compared += 1
            changed += any(canonical(r.view(o)) != canonical(other.view(o)) for o in range(r.players) if o != seat)

    for engine in s.engines:
        for k in range(max(3 * s.rounds, 8)):
            seed = s.seed + k
            play_to_end(s, s.new_round(engine, seed, k % s.players), [RandomLegal(seed + p) for p in range(s.players)],
                        each)
    s.expect(changed >= HIDDEN_WORLDS_MIN and 3 * changed >= compared,
             f"hidden_worlds gave {compared} worlds to compare, {changed} of them with other hidden cards: "
             f"too few to test what the views hide (at least {HIDDEN_WORLDS_MIN}, and a third)")


def _check_same_events(s: Subject) -> None:
    seen: dict[tuple[int, str], tuple[str, str]] = {}

    def each(r: Any, n: int) -> None:
        if n > 12 and n % 8 and not r.is_over:
            return
        turn = canonical([r.phase_name, r.seats_to_act()])
        for seat in range(r.players):
            key = (seat, turn + canonical(r.log_for(seat)))
            view = canonical(r.view(seat))
            where = f"seed {r.seed} ({r.engine} engine) at step {n}"
            first = seen.setdefault(key, (view, where))
            if first[0] != view:
                s.fail(f"seat {seat} sees the same events in the round of {first[1]} and the round of {where} "
                       f"but not the same view: the view shows what the seat may not know "
                       f"(first difference: {_first_difference(json.loads(first[0]), json.loads(view))})")

    for engine in s.engines:
        for k in range(max(3 * s.rounds, 8)):
            seed = s.seed + k
            play_to_end(s, s.new_round(engine, seed, 0), [RandomLegal(seed + p) for p in range(s.players)], each)


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}[{k!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} / {b!r}"


def check_rounds_end(s: Subject) -> None:
    """Every round played by random legal actions or by each of the family's registered bots ends
    within :data:`~mahjong_core.testing.subject.MAX_STEPS` steps; ``play_round`` (which lets a
    family play its own bots inside its engine) ends in the state of the step-by-step loop."""
    for engine in s.engines:
        for r in s.finished_rounds(engine):
            s.expect(r.is_over and r.result is not None, f"{engine}: a played round of seed {r.seed} is not over")
        if engine != default_engine(s):
            continue   # the registered bots play the default engine (Subject.players_for)
        for name in s.bot_names():
            fast = s.new_round(engine, s.seed)
            play_round(fast, [name] * s.players, max_steps=MAX_STEPS)
            slow = s.new_round(engine, s.seed)
            play_steps(slow, make_bots([name] * s.players, slow.seed, ruleset=s.ruleset), MAX_STEPS)
            s.expect(fast.to_json() == slow.to_json(), f"{engine}: play_round with the bot {name!r} ends "
                     "in another state than the step-by-step loop with the same bots")


def check_engines_agree(s: Subject) -> None:
    """Every engine plays the same game: the same seeds and the same random legal actions end in
    the same JSON state (the state is the game alone, whatever engine played it)."""
    engines = list(s.engines)
    for k, seed in s.seeds():
        states = {}
        for engine in engines:
            r = s.new_round(engine, seed, k % s.players)
            play_to_end(s, r, [RandomLegal(seed + p) for p in range(s.players)])
            states[engine] = r.to_json()
        s.expect(len(set(states.values())) == 1,
                 f"seed {seed}: the engines {engines} end in different states")
