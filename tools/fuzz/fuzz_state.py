"""atheris target: the saved-state loader (``Round.from_json``).

Every input must either be refused with a ``MahjongError`` or load into a round that saves back to
the same state and plays to the end with the built-in greedy bots (the compiled bots run on the
loaded C state: issue 10 item 1).  Anything else -- another exception, a sanitizer report, a crash
-- is a finding.  Besides libFuzzer's byte mutations, a JSON-aware mutator edits one or a few
fields of a valid state (a number out of range, a list grown far past its size, a key dropped, a
value of another type), which reaches the semantic checks that random bytes rarely do.
Run by tools/test_checked_build.sh (MAHJONG_FUZZ_SECONDS).
"""

from __future__ import annotations

import json
import random
from typing import Any

import atheris

from fuzzlib import run

with atheris.instrument_imports(include=["mahjong_core"]):  # coverage of the package only
    import mahjong_core as mj
    from mahjong_core.errors import MahjongError
    from mahjong_core.game import play_round
    from mahjong_core.families.mahjong.api import GreedyBot, Round

INTS = (-2**63 - 1, -2**31, -1, 0, 1, 2, 3, 4, 7, 8, 13, 14, 15, 16, 17, 26, 27, 33, 34, 35, 41, 42, 99, 135,
        136, 143, 144, 255, 256, 2**31 - 1, 2**31, 2**32 + 1, 2**63, 10**30)
ODD_VALUES = (None, True, False, 1.5, "5m", "", [], {}, [[]], -0.0)


def _seed_states() -> list[dict[str, Any]]:
    """Valid states of every ruleset at the start, mid-round and at the end of a round."""
    out = []
    for ruleset in sorted(mj.RULESET_NAMES):
        for seed in (1, 2):
            r = Round(ruleset=ruleset, seed=seed)
            out.append(r.to_dict())
            bots = [GreedyBot() for _ in range(r.players)]
            for n_steps in (8, 30):
                r = Round(ruleset=ruleset, seed=seed)
                for _ in range(n_steps):
                    if r.is_over:
                        break
                    seat = r.seats_to_act()[0]
                    r.step(seat, bots[seat].act_index(r, seat))
                out.append(r.to_dict())
            r = Round(ruleset=ruleset, seed=seed)
            play_round(r, bots)
            out.append(r.to_dict())
    return out


SEED_STATES = _seed_states()


def _containers(node: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every (path, value) in the JSON tree, containers included."""
    out = [(path, node)]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _containers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _containers(v, path + (i,))
    return out


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return root


def _mutated_value(value: Any, others: list[Any], rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(ODD_VALUES)
    if roll < 0.25:
        # a copy of a value from elsewhere in the state (maybe an ancestor): type and shape confusion
        return json.loads(json.dumps(rng.choice(others)))
    if isinstance(value, bool) or value is None:
        return rng.choice((not value, 2, -1, "true"))
    if isinstance(value, int):
        return rng.choice((rng.choice(INTS), value + rng.choice((-1, 1)), -value))
    if isinstance(value, list):
        choice = rng.randrange(4)
        if choice == 0 and value:  # grow: past a fixed-size array of the core, sometimes far past
            return value + [rng.choice(value)] * rng.choice((1, 2, 16, 40, 200, 3000))
        if choice == 1 and value:
            return value[: rng.randrange(len(value))]
        if choice == 2 and len(value) > 1:
            v = list(value)
            i, j = rng.randrange(len(v)), rng.randrange(len(v))
            v[i], v[j] = v[j], v[i]
            return v
        return [_mutated_value(x, others, rng) for x in value] if value else [rng.choice(INTS)]
    if isinstance(value, dict):
        v = dict(value)
        if v and rng.random() < 0.5:
            del v[rng.choice(list(v))]
        else:
            v[rng.choice(("type", "seat", "tiles", "x", "result", "phase"))] = rng.choice(INTS)
        return v
    if isinstance(value, str):
        return rng.choice(("", "deal", "action", "public", "two-player", "x" * 1000, value + "x"))
    return rng.choice(INTS)


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    rng = random.Random(seed)
    if rng.random() < 0.2:
        return atheris.Mutate(data, max_size)
    try:
        state = json.loads(data)
    except (ValueError, RecursionError):
        state = None
    if not isinstance(state, dict) or rng.random() < 0.1:
        state = json.loads(json.dumps(rng.choice(SEED_STATES)))
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        nodes = _containers(state)
        path, value = rng.choice(nodes[1:]) if len(nodes) > 1 else nodes[0]
        state = _set(state, path, _mutated_value(value, [v for _, v in rng.sample(nodes, min(8, len(nodes)))], rng))
    out = json.dumps(state, separators=(",", ":")).encode()
    return out if len(out) <= max_size else atheris.Mutate(data, max_size)


def test_one_input(data: bytes) -> None:
    try:
        r = Round.from_json(data)
    except MahjongError:
        return
    saved = r.to_dict()
    again = Round.from_json(json.dumps(saved)).to_dict()
    if again != saved:
        raise AssertionError("a loaded state does not save back to itself")
    if not r.is_over:
        play_round(r, [GreedyBot() for _ in range(r.players)])


if __name__ == "__main__":
    # inputs up to 256 KB: room for a list grown thousands of entries past its size
    run(test_one_input, [json.dumps(s, separators=(",", ":")).encode() for s in SEED_STATES], mutate,
        default_options=["-max_len=262144"])
