"""Child-side operations of tests/game/test_state_boundary.py and tests/hostile/test_hostile_states.py (run by
_isolated_runner.py in a separate interpreter, so that a crash of the compiled core fails one test
with the case that caused it).

Every function takes one JSON-able case and returns JSON-able data.  A MahjongError escaping a
function is reported as "refused" by the runner; any other exception is a finding.  The mutation
functions count outcomes themselves ("refused" / "loaded" / "accepted") and raise AssertionError
(a finding) when a mutated input is neither refused with a MahjongError nor a state that passes the
invariant check and plays to the end.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import sys
from collections import Counter
from typing import Any, Callable

from mahjong_core.errors import IllegalActionError, MahjongError, StateError
from mahjong_core.game import play_round
from mahjong_core.families.mahjong.api import GreedyBot, Match, RandomBot, Round
from mahjong_core.families.mahjong.round_invariants import check_invariants
from mahjong_core.game.round_base import _from_state
from mahjong_core.game.schema import short_repr

RULESET_PLAYERS = {"two-player": 2, "two-player-bamboo": 2, "public": 4}
HUGE = [2 ** 31, 2 ** 63, 2 ** 64 + 1, 10 ** 30, -(2 ** 63) - 1, 2 ** 200]


# ============================================================================ helpers
def text_of(d: Any) -> str:
    """The canonical JSON text of a document (sorted keys: key order is not part of a state)."""
    return json.dumps(d, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def deep_list(depth: int) -> list:
    """A list nested ``depth`` levels deep, built without recursion (cached: never mutated)."""
    v = _DEEP.get(depth)
    if v is None:
        v = []
        for _ in range(depth):
            v = [v]
        _DEEP[depth] = v
    return v


_DEEP: dict[int, list] = {}


def forged_pickle(cls: type, d: Any) -> bytes:
    """The bytes ``pickle.dumps(round)`` would produce for a round whose state were ``d``."""

    class Forged:
        def __reduce__(self):
            return (_from_state, (cls, d))

    return pickle.dumps(Forged())


def bots_for(kind: str, players: int, seed: int) -> list:
    if kind == "greedy":
        return [GreedyBot() for _ in range(players)]
    return [RandomBot(seed * 10 + s) for s in range(players)]


def play_to_end(r: Round, seed: int) -> None:
    """Play a loaded round to its end with the built-in bots, checking the invariants after every
    step of a few of them (the rest through the compiled play-out)."""
    check_invariants(r)
    if r.is_over:
        return
    bots = bots_for("random" if seed % 2 else "greedy", r.players, seed)
    for _ in range(3):
        if r.is_over:
            break
        seat = r.seats_to_act()[0]
        r.step(seat, bots[seat].act_index(r, seat))
        check_invariants(r, events=False)
    play_round(r, bots)
    check_invariants(r)


# ============================================================================ snapshots
def snapshots(ruleset: str, seed: int, bot_kind: str, rng: random.Random) -> list[tuple[str, str]]:
    """``(label, state JSON)`` at a few points of one round: its start, random points (claim and
    robbing windows and the 天听 window preferred when they occur) and its end."""
    kw: dict[str, Any] = {"dealer": seed % RULESET_PLAYERS[ruleset]}
    if seed % 3 == 0:
        kw["min_fan"] = 0
    if ruleset == "public" and seed % 4 == 1:
        kw["options"] = {"multiple_winners": True, "reserved_tail_tiles": 6}
    if ruleset != "public" and seed % 4 == 2:
        kw["options"] = {"kong_replacement": "die", "ready_mode": "any_discard"}
    r = Round(ruleset, seed, **kw)
    bots = bots_for(bot_kind, r.players, seed)
    out = [("start " + r.phase_name, r.to_json())]
    wanted = {rng.randrange(1, 60) for _ in range(3)}
    k = 0
    while not r.is_over:
        seat = r.seats_to_act()[0]
        r.step(seat, bots[seat].act_index(r, seat))
        k += 1
        if (k in wanted or r.phase_name in ("rob", "ready_window")) and not r.is_over:
            out.append((f"step {k} {r.phase_name}", r.to_json()))
            wanted.discard(k)
    out.append(("over", r.to_json()))
    return out


# ============================================================================ generic mutations
def _children(v: Any) -> list:
    if isinstance(v, dict):
        return list(v)
    if isinstance(v, list):
        return list(range(len(v)))
    return []


def random_path(doc: dict, rng: random.Random) -> list:
    """A random path into ``doc``: a top-level key (the log a quarter of the time), then random
    children, stopping at a container now and then (so containers are mutated too)."""
    keys = [k for k in doc if k != "log"]
    path: list = ["log" if "log" in doc and rng.random() < 0.25 else rng.choice(keys)]
    v = doc[path[0]]
    while _children(v) and rng.random() > 0.25:
        c = rng.choice(_children(v))
        path.append(c)
        v = v[c]
    return path


def _get(doc: Any, path: list) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _set(doc: Any, path: list, value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def _leaf_values(v: Any, rng: random.Random) -> list[tuple[str, Any]]:
    """Replacements of a value: nearby and out-of-range values, other JSON types, itself."""
    same = ("same value", copy.deepcopy(v))
    if isinstance(v, bool):
        return [("bool flipped", not v), ("bool as int", int(v)), ("null", None), same]
    if isinstance(v, int):
        return [("+1", v + 1), ("-1", v - 1), ("to -1", -1), ("huge", rng.choice(HUGE)), ("as bool", bool(v)),
                ("as str", str(v)), ("as float", float(v)), ("null", None), ("to 0", 0), same,
                ("as list", [v])]
    if isinstance(v, str):
        return [("other str", v + "x"), ("empty str", ""), ("str as int", 1), ("null", None), same,
                ("long str", "z" * 5000)]
    if v is None:
        return [("null to 0", 0), ("null to obj", {}), ("null to str", "x"), same]
    if isinstance(v, list):
        out = [("list as obj", {"0": v[0]} if v else {}), ("list cleared", []), same,
               ("list + junk", v + [rng.choice([0, -1, "x", None, {}, 2 ** 70])])]
        if v:
            out += [("list shortened", v[:-1]), ("list dup item", v + [copy.deepcopy(rng.choice(v))]),
                    ("list reversed", v[::-1]), ("list shuffled", rng.sample(v, len(v))),
                    ("list x100", v * 100)]
        return out
    if isinstance(v, dict):
        out = [("obj as list", list(v.values())), ("obj + junk key", dict(v, junk=1)), ("obj emptied", {}), same]
        if v:
            k = rng.choice(list(v))
            out.append((f"obj drop {k}", {x: y for x, y in v.items() if x != k}))
        return out
    return [same]


def generic_mutation(doc: dict, rng: random.Random) -> str:
    """Mutate ``doc`` in place at a random path; returns a description."""
    path = random_path(doc, rng)
    name, value = rng.choice(_leaf_values(_get(doc, path), rng))
    _set(doc, path, value)
    return f"{name} at {_path_text(path)}"


def _path_text(path: list) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


# ============================================================================ semantic mutations
def _untaken(doc: dict) -> list[int]:
    w = doc["wall"]
    return [i for i, (t, x) in enumerate(zip(w["tiles"], w["taken"])) if x == "0" and t < 34]


def swap_hand_wall(doc: dict, rng: random.Random) -> str:
    """A concealed tile and a tile still in the wall trade places (the tile set is kept)."""
    P = len(doc["hands"])
    s = rng.randrange(P)
    held = [t for t, n in enumerate(doc["hands"][s]) if n]
    pos = _untaken(doc)
    if not held or not pos:
        return "no-op (nothing to swap)"
    t, p = rng.choice(held), rng.choice(pos)
    u = doc["wall"]["tiles"][p]
    doc["hands"][s][t] -= 1
    doc["hands"][s][u] += 1
    doc["wall"]["tiles"][p] = t
    return f"swap hand {s} tile {t} with wall[{p}] = {u}"


def swap_hands(doc: dict, rng: random.Random) -> str:
    P = len(doc["hands"])
    a, b = rng.sample(range(P), 2)
    ta = [t for t, n in enumerate(doc["hands"][a]) if n]
    tb = [t for t, n in enumerate(doc["hands"][b]) if n]
    if not ta or not tb:
        return "no-op (empty hand)"
    x, y = rng.choice(ta), rng.choice(tb)
    doc["hands"][a][x] -= 1
    doc["hands"][a][y] += 1
    doc["hands"][b][y] -= 1
    doc["hands"][b][x] += 1
    return f"swap tile {x} of hand {a} with tile {y} of hand {b}"


def move_wall_to_hand(doc: dict, rng: random.Random) -> str:
    """Tiles taken from the wall into one hand (marked taken: the tile set is kept)."""
    P = len(doc["hands"])
    s = rng.randrange(P)
    n = rng.choice([1, 2, 23])
    taken = list(doc["wall"]["taken"])
    moved = 0
    for p in _untaken(doc):
        t = doc["wall"]["tiles"][p]
        if doc["hands"][s][t] < 4 and moved < n:
            doc["hands"][s][t] += 1
            taken[p] = "1"
            moved += 1
    doc["wall"]["taken"] = "".join(taken)
    return f"{moved} wall tiles into hand {s}"


def forge_meld(doc: dict, rng: random.Random) -> str:
    P = len(doc["melds"])
    s = rng.randrange(P)
    meld = rng.choice([[0, 27, (s - 1) % P, 27, 0], [0, 7, (s - 1) % P, 8, 0], [1, 5, 99, 5, 0],
                       [2, 3, s, 3, 1], [3, 4, 0, 4, 0], [1, 40, (s + 1) % P, 40, 0]])
    doc["melds"][s].append(meld)
    return f"meld {meld} added to seat {s}"


def forge_result(doc: dict, rng: random.Random) -> str:
    res = doc["result"]
    if res is None:
        doc["result"] = {"draw": False, "winners": [], "dealer": 0, "next_dealer": 0, "dealer_continues": True,
                         "wall_remaining": 0}
        return "result on a running round"
    if res["winners"]:
        w = res["winners"][0]
        how = rng.randrange(4)
        if how == 0:
            w["total"] = 10 ** 9
            return "winner total 10**9"
        if how == 1:
            w["seat"] = (w["seat"] + 1) % len(doc["hands"])
            return "winner seat changed"
        if how == 2:
            w["score"]["total"] += 8
            w["total"] += 8
            return "score and total raised by 8"
        res["draw"] = True
        return "win turned into a draw"
    res["draw"] = False
    res["winners"] = [{"seat": 0, "loser": None, "method": "self_drawn", "win_tile": 0, "total": 10 ** 9,
                       "non_flower_total": 10 ** 9, "score": {}, "score_args": {}}]
    return "draw turned into a forged win"


def forge_field(doc: dict, rng: random.Random) -> str:
    field, value = rng.choice([("earthly_seat", 99), ("earthly_seat", 1), ("must_discard", 7), ("must_discard", 1),
                               ("kong_dice_used", 34), ("kong_dice_used", 1), ("dealer_first", 1 - doc["dealer_first"]),
                               ("calls_made", 1 - doc["calls_made"]), ("drawn", 33), ("n_steps", doc["n_steps"] + 1)])
    doc[field] = value
    return f"{field} = {value}"


def forge_claim(doc: dict, rng: random.Random) -> str:
    c = doc["claim"]
    how = rng.randrange(3)
    if how == 0:
        c["tile"] = (c["tile"] + 1) % 34
        return "claim tile changed"
    if how == 1:
        c["pending"] = c["pending"] + c["pending"][:1] if c["pending"] else [0]
        return "pending seat duplicated / added"
    c["responses"][0] = 105
    return "response forged"


def forge_header(doc: dict, rng: random.Random) -> str:
    target = doc["header"] if rng.random() < 0.5 else doc["log"][0]
    key, value = rng.choice([("ruleset", rng.choice(["two-player", "two-player-bamboo", "public"])),
                             ("seed", target["seed"] + 1), ("dealer", (target["dealer"] + 1) % 2),
                             ("round_wind", 28), ("options", {"min_fan": 0}), ("spawn_key", [1]),
                             ("dice", [6, 6]), ("schema_version", 2), ("type", "deal")])
    target[key] = value
    return f"header {key} = {value!r}"


def forge_log(doc: dict, rng: random.Random) -> str:
    return log_mutation(doc["log"], rng)


def log_mutation(log: list, rng: random.Random) -> str:
    """Mutate an event log in place: duplicate, delete, reorder or truncate events, change an
    action, or damage one event's field."""
    n = len(log)
    how = rng.randrange(8)
    i = rng.randrange(1, n) if n > 1 else 0
    if how == 0:
        log.insert(i, copy.deepcopy(log[i]))
        return f"event {i} duplicated"
    if how == 1 and n > 1:
        del log[i]
        return f"event {i} deleted"
    if how == 2 and n > 2:
        j = rng.randrange(1, n)
        log[i], log[j] = log[j], log[i]
        return f"events {i} and {j} swapped"
    if how == 3 and n > 1:
        del log[i:]
        return f"log truncated at {i}"
    if how == 4:
        acts = [k for k, e in enumerate(log) if isinstance(e, dict) and e.get("type") == "action"]
        if acts:
            k = rng.choice(acts)
            log[k]["action"] = rng.choice([{"type": "pass"}, {"type": "win"}, {"type": "pon"},
                                           {"type": "discard", "tile": rng.randrange(34), "ready": False},
                                           {"type": "kong", "tile": rng.randrange(34), "kind": "concealed"},
                                           {"type": "chi", "tiles": [0, 1, 2]}, {"type": "declare_ready"}])
            return f"action at {k} changed to {log[k]['action']}"
    if how == 5:
        acts = [k for k, e in enumerate(log) if isinstance(e, dict) and e.get("type") == "action"]
        if acts:
            k = rng.choice(acts)
            log[k]["seat"] = rng.choice([log[k]["seat"] + 1, -1, 99, True, "0", None])
            return f"action seat at {k} changed"
    if how == 6:
        log[i] = rng.choice([None, 3, "x", [], "{}", deep_list(50)])
        return f"event {i} replaced by a non-object"
    e = log[i]
    if isinstance(e, dict) and e:
        k = rng.choice(list(e))
        name, value = rng.choice(_leaf_values(e[k], rng))
        e[k] = value
        return f"{name} at event {i}.{k}"
    return "no-op"


SEMANTIC: list[Callable[[dict, random.Random], str]] = [
    swap_hand_wall, swap_hands, move_wall_to_hand, forge_meld, forge_result, forge_field, forge_claim,
    forge_header, forge_log,
]


def mutate(base: dict, rng: random.Random) -> tuple[dict, str]:
    """A mutated copy of ``base``: one to three generic or semantic mutations."""
    doc = copy.deepcopy(base)
    descs = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.55:
            descs.append(generic_mutation(doc, rng))
            continue
        descs.append(safely(rng.choice(SEMANTIC), doc, rng))
    return doc, "; ".join(descs)


def safely(op: Callable[[Any, random.Random], str], target: Any, rng: random.Random) -> str:
    """Apply a mutation that expects the document's shape; after an earlier mutation broke that
    shape it may fail (on the test's side), and is then skipped."""
    try:
        return op(target, rng)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError, StopIteration):
        return f"{op.__name__} skipped (an earlier mutation broke what it edits)"


# ============================================================================ loading a mutated state
def load_outcome(doc: Any, how: str, seed: int, expect_text: "str | None" = None) -> str:
    """Load ``doc`` (a dict) by ``how`` ("dict", "json", "pickle"); "refused" (a MahjongError) or
    "loaded", after checking that a loaded round is exactly the document (strict JSON types), passes
    the invariant check and plays to the end."""
    try:
        if how == "json":
            r = Round.from_json(json.dumps(doc))
        elif how == "pickle":
            r = pickle.loads(forged_pickle(Round, doc))
        else:
            r = Round.from_dict(doc)
    except MahjongError:
        return "refused"
    if text_of(r.to_dict()) != (expect_text or text_of(doc)):
        raise AssertionError("a loaded round is not the document it was loaded from")
    play_to_end(r, seed)
    return "loaded"


def mutate_states(case: dict) -> dict:
    """Mutated round states of one ruleset loaded by from_dict / from_json / pickle.loads."""
    rng = random.Random(case["seed"] * 7919 + len(case["ruleset"]))
    counts: Counter = Counter()
    for label, text in snapshots(case["ruleset"], case["seed"], case["bots"], rng):
        base = json.loads(text)
        for k in range(case["per_snapshot"]):
            doc, desc = mutate(base, rng)
            how = ("dict", "json", "pickle")[k % 3]
            sys.stderr.write(f"{label}: {desc} ({how})\n")
            try:
                outcome = load_outcome(doc, how, case["seed"] + k)
            except MahjongError as exc:  # refused while playing on: the load accepted a bad state
                raise AssertionError(f"{label}: {desc}: loaded, then {type(exc).__name__}: {exc}") from exc
            except Exception as exc:
                raise AssertionError(f"{label}: {desc} ({how}): {type(exc).__name__}: {exc}") from exc
            counts[outcome] += 1
            counts[f"{outcome} ({desc.split(' at ')[0].split(';')[0][:28]})"] += 1
        # the same state, reloaded as it is, loads (the "no mutation" control)
        counts["control " + load_outcome(base, "json", case["seed"])] += 1
    return dict(counts)


def deep_documents(case: dict) -> dict:
    """Deep nesting anywhere in a state (as JSON text and as a dict), huge JSON integers."""
    rng = random.Random(case["seed"])
    counts: Counter = Counter()
    for label, text in snapshots(case["ruleset"], case["seed"], "random", rng)[:3]:
        base = json.loads(text)
        for _ in range(case["n"]):
            doc = copy.deepcopy(base)
            path = random_path(doc, rng)
            _set(doc, path, deep_list(rng.choice([1000, 100_000])))
            for how in ("dict", "pickle"):
                try:
                    if how == "dict":
                        Round.from_dict(doc)
                    else:
                        pickle.loads(forged_pickle(Round, doc))
                    raise AssertionError(f"{label}: deep value at {_path_text(path)} loaded")
                except StateError:
                    counts["refused"] += 1
                except RecursionError:  # pickling the forged document itself (the test's side)
                    counts["not picklable"] += 1
            # the same as JSON text: nested brackets spliced in at a value
            marker = "\"@@DEEP@@\""
            _set(doc, path, "@@DEEP@@")
            depth = rng.choice([100, 5000, 200_000])
            spliced = json.dumps(doc).replace(marker, "[" * depth + "]" * depth, 1)
            try:
                Round.from_json(spliced)
                raise AssertionError("deep JSON loaded")
            except StateError:
                counts["refused"] += 1
            # a huge integer literal (beyond Python's int digit limit) at that place
            huge = json.dumps(doc).replace(marker, "9" * 5000, 1)
            try:
                Round.from_json(huge)
                raise AssertionError("huge integer loaded")
            except StateError:
                counts["refused"] += 1
    return dict(counts)


# ============================================================================ mutated logs for replay
def mutate_logs(case: dict) -> dict:
    """Mutated event logs given to Round.replay (as dicts and as JSON lines, verify on and off)."""
    rng = random.Random(case["seed"] * 104729)
    counts: Counter = Counter()
    for label, text in snapshots(case["ruleset"], case["seed"], case["bots"], rng):
        log = json.loads(text)["log"]
        for k in range(case["per_snapshot"]):
            bad = copy.deepcopy(log)
            desc = "; ".join(safely(log_mutation, bad, rng) for _ in range(rng.choice([1, 1, 2])))
            verify = k % 4 != 3
            lines = k % 2 == 1
            sys.stderr.write(f"{label}: {desc} (verify={verify}, lines={lines})\n")
            try:
                arg = [json.dumps(e) if not isinstance(e, str) else e for e in bad] if lines else bad
                r = Round.replay(arg, verify=verify)
            except MahjongError:
                counts["refused"] += 1
                continue
            except Exception as exc:
                raise AssertionError(f"{label}: {desc}: {type(exc).__name__}: {exc}") from exc
            if verify and text_of(r.log) != text_of(bad):
                raise AssertionError(f"{label}: {desc}: replay verified a log it does not produce")
            try:
                play_to_end(r, case["seed"] + k)
            except MahjongError as exc:
                raise AssertionError(f"{label}: {desc}: replayed, then {type(exc).__name__}: {exc}") from exc
            counts["loaded"] += 1
    return dict(counts)


# ============================================================================ mutated client actions
def _action_mutations(r: Round, rng: random.Random, case_mutations: int = 20) -> list[tuple[str, Any, Any]]:
    """``(description, seat, action)`` tries: legal actions of the seats to act, mutated."""
    P = r.players
    acting = r.seats_to_act()
    seat = rng.choice(acting) if acting else rng.randrange(P)
    legal = r.legal_actions(seat) if acting else []
    base = rng.choice(legal).to_dict() if legal else {"type": "pass"}
    out: list[tuple[str, Any, Any]] = []
    ops = [k for k, need in enumerate(("tile", None, None, None, None, "tiles", "ready", "kind")) if need is None or need in base]
    for _ in range(case_mutations):
        d = copy.deepcopy(base)
        how = rng.choice(ops)
        if how == 0:
            d["tile"] = rng.choice([d["tile"] + 1, d["tile"] - 1, -1, 34, 40, 2 ** 70, True, "5", 3.0, None])
        elif how == 1:
            d[rng.choice(["junk", "ready", "tiles", "kind", "seat"])] = rng.choice([1, "x", None, True])
        elif how == 2:
            d["type"] = rng.choice(["fly", "", None, 3, ["pass"], "PASS", "discard", "chi", "kong"])
        elif how == 3:
            d.pop(rng.choice(list(d)))
        elif how == 4:
            d = rng.choice([None, 3, -1, 110, 2 ** 64, 3.5, "pass", [], [d], True, deep_list(100_000), b"x"])
        elif how == 5:
            d["tiles"] = rng.choice([d["tiles"][:2], d["tiles"] + [0], [27, 28, 29], [7, 8, 9], "123", None,
                                     [0, 1, 2.0]])
        elif how == 6:
            d["ready"] = rng.choice(["yes", 2, None, 0, 1])
        else:
            d["kind"] = rng.choice(["exposed", "added", "concealed", "weird", None, 3, ["added"]])
        out.append((f"mutation {how}", seat, d))
    for bad_seat in (rng.choice([-1, P, 99, 2 ** 70, True, "0", None, 1.5, [0]]),
                     rng.choice([s for s in range(P) if s not in acting] or [seat])):
        out.append(("other seat", bad_seat, copy.deepcopy(base)))
    out.append(("index", seat, rng.randrange(-5, 115)))
    out.append(("legal as dict", seat, copy.deepcopy(base)))  # last: once applied, the state moves on
    return out


def mutate_actions(case: dict) -> dict:
    """Mutated client actions for step: each is refused with IllegalActionError leaving the state
    unchanged, or is a legal action of that seat (and is applied).  After an accepted mutation the
    state is restored (from its JSON) so the next mutation meets the same state; the last try of
    each state is a legal action, which moves the round on."""
    rng = random.Random(case["seed"] * 31337)
    counts: Counter = Counter()
    r = Round(case["ruleset"], case["seed"])
    while not r.is_over:
        tries = _action_mutations(r, rng)
        for k, (desc, seat, action) in enumerate(tries):
            before = r.to_json()
            was_legal = _is_legal(r, seat, action)
            sys.stderr.write(f"{desc}: seat {short_repr(seat)} action {short_repr(action)}\n")
            try:
                r.step(seat, action)
            except IllegalActionError:
                if r.to_json() != before:
                    raise AssertionError(f"{desc}: a refused action changed the state")
                if was_legal:
                    raise AssertionError(f"{desc}: a legal action was refused")
                counts["refused"] += 1
                continue
            if not was_legal:
                raise AssertionError(f"{desc}: seat {short_repr(seat)} action {short_repr(action)} accepted "
                                     "but not legal")
            counts["accepted"] += 1
            check_invariants(r, events=False)
            if k < len(tries) - 1:
                r = Round.from_json(before)
    check_invariants(r)
    for action in ({"type": "pass"}, {"type": "win"}, 0, {"type": "discard", "tile": 0, "ready": False}):
        before = r.to_json()
        try:
            r.step(r.dealer, action)
            raise AssertionError("an action after the end was accepted")
        except IllegalActionError:
            counts["refused"] += 1
        assert r.to_json() == before
    return dict(counts)


def _is_legal(r: Round, seat: Any, action: Any) -> bool:
    """Whether ``action`` names a legal action of ``seat`` now (decided by the legal list)."""
    if type(seat) is not int or not 0 <= seat < r.players:
        return False
    if type(action) is int:
        return action in r.legal_indices(seat)
    if not isinstance(action, dict):
        return False
    return any(_same_action(a.to_dict(), action) for a in r.legal_actions(seat))


def _same_action(legal: dict, given: dict) -> bool:
    """The given dict means the legal action: the same keys with equal values of the same types,
    except the defaults a client may leave out (``ready`` False, a chi's tiles in any order)."""
    g = dict(given)
    if legal["type"] == "discard" and "ready" not in g:
        g["ready"] = False
    if type(g.get("ready")) is int and g["ready"] in (0, 1):  # a flag may be given as 0 / 1
        g["ready"] = bool(g["ready"])
    if legal["type"] == "kong" and "kind" not in g:
        g["kind"] = "concealed"
    if legal["type"] == "chi" and isinstance(g.get("tiles"), list) and all(type(t) is int for t in g["tiles"]):
        g["tiles"] = sorted(g["tiles"])
    return text_of(g) == text_of(legal) if set(g) == set(legal) else False


# ============================================================================ mutated match states
def mutate_matches(case: dict) -> dict:
    """Mutated match states (results, recorded actions, the current round) for Match.from_dict."""
    rng = random.Random(case["seed"] * 2203)
    counts: Counter = Counter()
    m = Match(case["ruleset"], case["seed"], rounds=3)
    bots = bots_for("greedy", m.players, 0)
    play_round(m.round, bots)
    m.next_round()
    r = m.round
    for _ in range(rng.randrange(5, 30)):
        if r.is_over:
            break
        seat = r.seats_to_act()[0]
        r.step(seat, bots[seat].act_index(r, seat))
    base = json.loads(m.to_json())
    for k in range(case["n"]):
        doc = copy.deepcopy(base)
        how = rng.randrange(5)
        if how == 0:
            desc = generic_mutation(doc, rng)
        elif how == 1 and doc["results"]:
            res = doc["results"][0]
            desc = rng.choice(["total", "next_dealer", "draw"])
            if desc == "total" and res["winners"]:
                res["winners"][0]["total"] = 10 ** 9
            elif desc == "next_dealer":
                res["next_dealer"] = (res["next_dealer"] + 1) % m.players
            else:
                res["draw"] = not res["draw"]
        elif how == 2 and doc["actions"] and doc["actions"][0]:
            acts = doc["actions"][0]
            j = rng.randrange(len(acts))
            desc = f"recorded action {j}"
            acts[j] = rng.choice([[acts[j][0], (acts[j][1] + 1) % 110], [acts[j][1], acts[j][0]], [0], [0, 0, 0],
                                  [99, 1], [True, 1], None])
        elif how == 3:
            desc = "current round: " + safely(rng.choice(SEMANTIC), doc["round"], rng)
        else:
            desc = rng.choice(["rounds", "seed", "first_dealer", "ruleset", "options"])
            doc[desc] = {"rounds": 2, "seed": doc["seed"] + 1, "first_dealer": (doc["first_dealer"] + 1) % m.players,
                         "ruleset": "public" if doc["ruleset"] != "public" else "two-player",
                         "options": {"min_fan": 0}}[desc]
        sys.stderr.write(f"match: {desc}\n")
        try:
            m2 = Match.from_dict(doc) if k % 2 else pickle.loads(_forged_match_pickle(doc))
        except MahjongError:
            counts["refused"] += 1
            continue
        except Exception as exc:
            raise AssertionError(f"match: {desc}: {type(exc).__name__}: {exc}") from exc
        if text_of(m2.to_dict()) != text_of(doc):
            raise AssertionError(f"match: {desc}: loaded a match that is not the document")
        check_invariants(m2.round)
        counts["loaded"] += 1
    return dict(counts)


def _forged_match_pickle(d: Any) -> bytes:
    from mahjong_core.game.match import _match_from_state

    class Forged:
        def __reduce__(self):
            return (_match_from_state, (Match, d))

    return pickle.dumps(Forged())


# ============================================================================ the compiled core, called directly
def core_direct(case: dict) -> str:
    """RoundCore constructed with hostile arguments (the only way state enters the core): must
    raise ValueError / TypeError / OverflowError, never crash.  Returns the exception name."""
    from mahjong_core._round import RoundCore
    from mahjong_core.families.mahjong.round import _compiled
    from mahjong_core.families.mahjong.settings import flow_settings
    from mahjong_core.families.mahjong.wall import N_KONG_DICE

    s = flow_settings(case["ruleset"])
    c = _compiled(s)
    settings = dict(c.settings_dict)
    args: dict[str, Any] = {"settings": settings, "rs": c.code, "special": c.special, "mask": c.kind_mask,
                            "dealer": 0, "wind": 27, "tiles": s.tile_set(), "dice": [1, 1],
                            "kong_dice": [1] * N_KONG_DICE}
    key, value = case["key"], case["value"]
    if key.startswith("settings."):
        settings[key.split(".", 1)[1]] = value
    elif key == "tiles+":
        args["tiles"] = s.tile_set() + value
    else:
        args[key] = value
    try:
        core = RoundCore(args["settings"], args["rs"], args["special"], args["mask"], args["dealer"], args["wind"],
                         args["tiles"], args["dice"], args["kong_dice"])
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc).__name__
    # accepted: it must be a sound round that plays to the end in the core
    core.play_out([0] * settings["players"], [None] * settings["players"])
    return "accepted"


# ============================================================================ regression cases (issue 10, items 1-3)
def _state(ruleset: str, seed: int, steps: "int | None", bots: str = "greedy") -> Round:
    r = Round(ruleset, seed)
    b = bots_for(bots, r.players, seed)
    k = 0
    while not r.is_over and (steps is None or k < steps):
        seat = r.seats_to_act()[0]
        r.step(seat, b[seat].act_index(r, seat))
        k += 1
    return r


def regression(case: dict) -> Any:
    """One forged state / log of the issue, loaded the way named in the case; the runner reports a
    MahjongError as "refused" (the test checks its class and message)."""
    name = case["name"]
    fn = REGRESSIONS[name]
    return fn(case)


def _load(d: dict, how: str) -> Any:
    if how == "pickle":
        return pickle.loads(forged_pickle(Round, d)).to_dict()
    if how == "json":
        return Round.from_json(json.dumps(d)).to_dict()
    if how == "check":
        check_invariants(d)
        return "passed the invariant check"
    return Round.from_dict(d).to_dict()


def reg_huge_deal(case: dict) -> Any:
    r = _state("two-player", 3, 4)
    d = r.to_dict()
    deal = next(e for e in d["log"] if e["type"] == "deal")
    deal["tiles"] = [5] * 4000
    return _load(d, case["how"])


def reg_36_concealed(case: dict) -> Any:
    r = _state("public", 5, 20)
    d = json.loads(r.to_json())
    taken = list(d["wall"]["taken"])
    for p, t in enumerate(d["wall"]["tiles"]):
        if sum(d["hands"][0]) >= 36:
            break
        if taken[p] == "0" and t < 34 and d["hands"][0][t] < 4:
            d["hands"][0][t] += 1
            taken[p] = "1"
    d["wall"]["taken"] = "".join(taken)
    assert sum(d["hands"][0]) == 36
    return _load(d, case["how"])


def reg_empty_hands(case: dict) -> Any:
    r = _state("two-player", 7, 6)
    d = json.loads(r.to_json())
    taken = list(d["wall"]["taken"])
    for s in range(2):
        for t, n in enumerate(d["hands"][s]):
            for _ in range(n):  # back into the wall: a taken slot of that tile becomes untaken
                p = next(p for p, x in enumerate(d["wall"]["tiles"]) if x == t and taken[p] == "1")
                taken[p] = "0"
            d["hands"][s][t] = 0
    d["wall"]["taken"] = "".join(taken)
    return _load(d, case["how"])


def _with_meld(case: dict, meld_of: Callable[[int], list]) -> Any:
    r = _state("public", 11, 8)
    d = json.loads(r.to_json())
    s = d["turn"]
    meld = meld_of(s)
    # take the meld's tiles out of the wall so that the tile set is kept
    from mahjong_core.families.mahjong.tiles import meld_tiles
    taken = list(d["wall"]["taken"])
    for t in meld_tiles(meld[0], meld[1]):
        p = next((p for p, x in enumerate(d["wall"]["tiles"]) if x == t and taken[p] == "0"), None)
        if p is not None:
            taken[p] = "1"
        else:  # not in the wall: from another seat's hand
            o = next(o for o in range(len(d["hands"])) if o != s and d["hands"][o][t])
            d["hands"][o][t] -= 1
    d["wall"]["taken"] = "".join(taken)
    d["melds"][s].append(meld)
    # keep the hand size: three concealed tiles go back into the wall
    for _ in range(3):
        t = next(t for t, n in enumerate(d["hands"][s]) if n and t != d["drawn"])
        d["hands"][s][t] -= 1
        p = next(p for p, x in enumerate(d["wall"]["tiles"]) if x == t and taken[p] == "1")
        taken[p] = "0"
    d["wall"]["taken"] = "".join(taken)
    d["calls_made"] = 1
    return _load(d, case["how"])


def reg_chi_honours(case: dict) -> Any:
    return _with_meld(case, lambda s: [0, 27, (s - 1) % 4, 27, 0])


def reg_chi_across_suits(case: dict) -> Any:
    return _with_meld(case, lambda s: [0, 7, (s - 1) % 4, 8, 0])


def reg_meld_seat_99(case: dict) -> Any:
    return _with_meld(case, lambda s: [1, 5, 99, 5, 0])


def _field(ruleset: str, seed: int, steps: int, edit: Callable[[dict], None], how: str,
           phase: "str | None" = None) -> Any:
    r = Round(ruleset, seed)
    b = bots_for("greedy", r.players, seed)
    k = 0
    while not r.is_over and (k < steps or (phase is not None and r.phase_name != phase)):
        seat = r.seats_to_act()[0]
        r.step(seat, b[seat].act_index(r, seat))
        k += 1
    d = json.loads(r.to_json())
    edit(d)
    return _load(d, how)


def reg_drawn_not_in_hand(case: dict) -> Any:
    def edit(d: dict) -> None:
        d["drawn"] = next(t for t in range(34) if d["hands"][d["turn"]][t] == 0)
        d["drawn_src"] = "head"
    return _field("two-player", 2, 4, edit, case["how"], phase="turn")


def reg_claim_tile(case: dict) -> Any:
    def edit(d: dict) -> None:
        last = d["discards"][d["claim"]["from"]][-1]
        d["claim"]["tile"] = (last + 1) % 9
    return _field("public", 1, 3, edit, case["how"], phase="claim")


def reg_simple_field(case: dict) -> Any:
    def edit(d: dict) -> None:
        d[case["field"]] = case["value"]
    return _field("two-player", 4, 3, edit, case["how"], phase="turn")


def reg_deal_seat(case: dict) -> Any:
    def edit(d: dict) -> None:
        next(e for e in d["log"] if e["type"] == "deal")["seat"] = -1
    return _field("two-player", 6, 5, edit, case["how"])


def reg_log_header_ruleset(case: dict) -> Any:
    def edit(d: dict) -> None:
        d["log"][0] = dict(d["log"][0], ruleset="two-player-bamboo")
    return _field("two-player", 6, 5, edit, case["how"])


def reg_forged_result(case: dict) -> Any:
    for seed in range(50):
        r = _state("two-player", seed, None)
        if r.result is not None and not r.result.draw:
            break
    d = json.loads(r.to_json())
    w = d["result"]["winners"][0]
    loser = 1 - w["seat"]
    w["seat"] = loser
    w["total"] = 10 ** 9
    w["score"]["total"] = 10 ** 9
    d["result"]["next_dealer"] = loser
    return _load(d, case["how"])


def reg_missing_result(case: dict) -> Any:
    def edit(d: dict) -> None:
        del d["result"]
    return _field("two-player", 6, 5, edit, case["how"])


def reg_huge_int(case: dict) -> Any:
    def edit(d: dict) -> None:
        d[case["field"]] = case["value"]
    return _field("public", 6, 5, edit, case["how"])


def reg_non_dict_log_entry(case: dict) -> Any:
    def edit(d: dict) -> None:
        d["log"][3] = case["value"]
    return _field("two-player", 6, 5, edit, case["how"])


def reg_text(case: dict) -> Any:
    text = case["text"]
    if case.get("deep"):
        text = "[" * case["deep"] + "]" * case["deep"]
    return Round.from_json(text.encode("latin-1") if case.get("bytes") else text).to_dict()


def reg_replay(case: dict) -> Any:
    r = _state("two-player", 9, 8)
    log = json.loads(json.dumps(r.log))
    k = next(i for i, e in enumerate(log) if e["type"] == "action")
    if case["damage"] == "non-dict event":
        log[k] = case.get("value", 5)
    else:
        del log[k]["action"]
    return Round.replay(log, verify=case.get("verify", True)).to_dict()


REGRESSIONS: dict[str, Callable[[dict], Any]] = {
    "huge deal": reg_huge_deal, "36 concealed": reg_36_concealed, "empty hands": reg_empty_hands,
    "chi of honours": reg_chi_honours, "chi across suits": reg_chi_across_suits, "meld seat 99": reg_meld_seat_99,
    "drawn not in hand": reg_drawn_not_in_hand, "claim tile": reg_claim_tile, "field": reg_simple_field,
    "deal seat": reg_deal_seat, "log header ruleset": reg_log_header_ruleset, "forged result": reg_forged_result,
    "missing result": reg_missing_result, "huge int": reg_huge_int, "non-dict log entry": reg_non_dict_log_entry,
    "text": reg_text, "replay": reg_replay,
}


# ============================================================================ documents that are not objects (issue 25, item 8)
NOT_OBJECTS = ("[1,2,3]", "null", "3", '"a string"', "true", "-1.5", "[]", "[{}]", "[[]]", '""')
"""Valid JSON whose top level is not an object: a saved round or match must be one."""


def _top_level_loaders() -> dict[str, Callable[[Any], Any]]:
    from mahjong_core.families.longcard.round_match import LongcardMatch, LongcardRound
    from mahjong_core.families.longcard._ref.round import Round as LongcardHand
    from mahjong_core.game import load_state

    return {
        "load_state": load_state, "Round.from_json": Round.from_json, "Round.from_dict": Round.from_dict,
        "Round pickle": lambda d: pickle.loads(forged_pickle(Round, d)), "Round.replay": Round.replay,
        "Round.from_header": Round.from_header, "Match.from_json": Match.from_json,
        "Match.from_dict": Match.from_dict, "Match pickle": lambda d: pickle.loads(_forged_match_pickle(d)),
        "LongcardRound.from_json": LongcardRound.from_json, "LongcardRound.from_dict": LongcardRound.from_dict,
        "LongcardRound.replay": LongcardRound.replay, "LongcardMatch.from_json": LongcardMatch.from_json,
        "LongcardMatch.from_dict": LongcardMatch.from_dict, "longcard hand from_json": LongcardHand.from_json,
        "longcard hand replay": LongcardHand.replay,
    }


TOP_LEVEL_LOADERS = ("load_state", "Round.from_json", "Round.from_dict", "Round pickle", "Round.replay",
                     "Round.from_header", "Match.from_json", "Match.from_dict", "Match pickle",
                     "LongcardRound.from_json", "LongcardRound.from_dict", "LongcardRound.replay",
                     "LongcardMatch.from_json", "LongcardMatch.from_dict", "longcard hand from_json",
                     "longcard hand replay")
"""Every public path that loads a saved round, match or log, of every family."""


def not_an_object(case: dict) -> Any:
    """``case["loader"]`` given ``case["doc"]`` as JSON text (``"as": "text"``), as UTF-8 bytes, or
    as the decoded Python value (``"as": "value"``); a load that returns is a finding."""
    loader = _top_level_loaders()[case["loader"]]
    doc: Any = case["doc"]
    if case["as"] == "value":
        doc = json.loads(doc)
    elif case["as"] == "bytes":
        doc = doc.encode("utf-8")
    loaded = loader(doc)
    raise AssertionError(f"{case['loader']} loaded {case['doc']} ({case['as']}): {type(loaded).__name__}")
