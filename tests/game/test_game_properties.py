"""Property tests of the game flow over many random-bot and greedy-bot rounds of every ruleset.

At every step: the state passes :func:`mahjong_core.families.mahjong.round_invariants.check_invariants` (tile
conservation, hand sizes per phase, meld shapes, claim windows, phase fields ...; the log events'
shapes once per round, at its end), and independently of it every tile is in exactly one place,
the legal mask agrees with the legal actions, every view is free of hidden information; at sampled
steps illegal actions are refused with the state unchanged and the JSON round trip is exact; at
the end no action is accepted and replaying the log (and loading the JSON) reproduces the state.

The number of rounds scales down when the fan evaluator is the slow reference stand-in.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import mahjong_core.families.mahjong.scoring  # noqa: F401  (imports mahjong_core._fan)
from mahjong_core import _fan
from mahjong_core.errors import IllegalActionError
from mahjong_core.families.mahjong.api import ACTION_SIZE, Discard, GreedyBot, Match, Pass, RandomBot, Round, Win
from mahjong_core.families.registry import family_of
from mahjong_core.families.mahjong.round_invariants import check_invariants as check_state
from mahjong_core.families.mahjong.constants import PH_READY_WINDOW, PH_ROB, PH_TURN
from mahjong_core.families.mahjong.tiles import meld_tiles
from mahjong_core.families.mahjong.round_views import VIEW_KEYS

SLOW = type(_fan.evaluate).__name__ == "function"  # the pure-Python stand-in
SCALE = 0.3 if SLOW else 1.0
RULESETS = ["two-player", "two-player-bamboo", "public"]
N_ROUNDS = {  # per (ruleset, bot): well over a thousand rounds in all with the compiled evaluator
    ("two-player", "random"): 600, ("two-player", "greedy"): 600,
    ("two-player-bamboo", "random"): 600, ("two-player-bamboo", "greedy"): 600,
    ("public", "random"): 300, ("public", "greedy"): 200,
}


def expected_counts(r: Round) -> np.ndarray:
    c = np.zeros(42, np.int64)
    c[list(r.settings.kinds)] = 4
    c[34:42] = 1
    return c


def tile_census(r: Round) -> np.ndarray:
    c = np.zeros(42, np.int64)
    c[:34] += r.hands.sum(axis=0, dtype=np.int64)
    tiles = list(r.wall.remaining_tiles())
    for ms in r.melds:
        for m in ms:
            tiles.extend(meld_tiles(m[0], m[1]))
    for p in r.discards:
        tiles.extend(p)
    for p in r.flowers:
        tiles.extend(p)
    if r.phase == PH_ROB:
        tiles.append(r.claim_tile)  # the added tile is on the table, not yet in the kong
    c += np.bincount(np.array(tiles, dtype=np.int64), minlength=42)
    return c


def check_invariants(r: Round, want: np.ndarray) -> None:
    check_state(r, events=r.is_over)  # the package's checker; the log's events once, at the end
    assert np.array_equal(tile_census(r), want), "tile conservation"
    P = r.players
    for s in range(P):
        size = r.concealed_size(s) + 3 * len(r.melds[s])
        holding = r.phase in (PH_TURN, PH_READY_WINDOW) and r.turn == s  # dealer before his first discard
        if r.is_over:
            res = r.result
            holding = (not res.draw) and s in [w["seat"] for w in res.winners[:1]]
        assert size == (14 if holding else 13), (s, size, r.phase_name)
        assert len(r.melds[s]) <= 4
        assert all(x < 34 for x in r.discards[s]) and all(x >= 34 for x in r.flowers[s])
    acting = r.seats_to_act()
    for s in range(P):
        idx = r.legal_indices(s)
        mask = r.legal_mask(s)
        assert mask.shape == (ACTION_SIZE,) and list(np.flatnonzero(mask)) == idx
        assert bool(idx) == (s in acting)


def check_view(r: Round, seat: int) -> None:
    v = r.view(seat)
    assert set(v) == set(VIEW_KEYS)
    json.dumps(v)
    assert v["hand"] == r.hand(seat)
    assert v["hand_sizes"] == [r.concealed_size(s) for s in range(r.players)]
    assert "wall" not in v and "tiles" not in json.dumps(v.get("claim"))
    for o in range(r.players):
        for m in v["melds"][o]:
            if m["kind"] == "ckong" and o != seat:
                assert m["tiles"] is None
    assert v["legal_indices"] == r.legal_indices(seat)


def swap_hidden(r: Round, seat: int, rng: np.random.Generator) -> "Round | None":
    """A round that differs from ``r`` only in information hidden from ``seat``: the family's own
    re-deal of what the seat cannot see (``Family.hidden_worlds``, the one implementation of that
    swap, which the conformance suite's ``hidden_information`` and ``bots_blind`` checks use too):
    the other seats' concealed tiles and the unseen wall permuted, the same actions replayed.
    ``None`` when that world cannot produce what ``seat`` has seen."""
    return family_of(r.ruleset).hidden_worlds(r, seat, rng)


def play_checked(r: Round, bots, rng: np.random.Generator, *, deep: bool, stats: "dict | None" = None) -> None:
    want = expected_counts(r)
    P = r.players
    check_invariants(r, want)
    k = 0
    while not r.is_over:
        seats = r.seats_to_act()
        seat = seats[int(rng.integers(len(seats)))]  # claim answers in any order
        if deep and k % 7 == 0:
            # illegal actions (all of them every 21st step, else one per seat) are refused with a
            # reason and change nothing
            before = r.to_json()
            for s in range(P):
                legal = set(r.legal_indices(s))
                bad = [i for i in range(ACTION_SIZE) if i not in legal]
                if k % 21:
                    bad = [bad[int(rng.integers(len(bad)))]]
                for i in bad:
                    with pytest.raises(IllegalActionError) as ei:
                        r.step(s, i)
                    assert str(ei.value)
            idle = [s for s in range(P) if s not in seats]
            if idle:
                with pytest.raises(IllegalActionError):
                    r.step(idle[0], Pass())
            assert r.to_json() == before
            # JSON round trip is exact, and the restored round continues identically
            r2 = Round.from_json(before)
            assert r2.to_json() == before
            for s in range(P):
                assert r2.legal_indices(s) == r.legal_indices(s)
            # views never depend on hidden information
            s = int(rng.integers(P))
            r3 = swap_hidden(r, s, rng)
            if r3 is not None:
                assert r3.view(s) == r.view(s)
                if stats is not None:
                    stats["hidden swaps"] = stats.get("hidden swaps", 0) + 1
        a = bots[seat].act_index(r, seat)
        r.step(seat, a)
        k += 1
        check_invariants(r, want)
        for s in range(P):
            check_view(r, s)
    # the end: no action accepted, replay and JSON reproduce the state
    for s in range(P):
        for act in (Pass(), Win(), Discard(int(r.settings.kinds[0]))):
            with pytest.raises(IllegalActionError):
                r.step(s, act)
    assert r.seats_to_act() == []
    if deep:
        j = r.to_json()
        assert Round.from_json(j).to_json() == j
        rp = Round.replay(r.log_lines())
        assert rp.to_json() == j
        assert rp.result == r.result


def _bots(kind: str, P: int, seed: int):
    if kind == "random":
        return [RandomBot(seed * 10 + s) for s in range(P)]
    return [GreedyBot() for _ in range(P)]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_random_rounds(ruleset, kind):
    n = max(10, int(N_ROUNDS[(ruleset, kind)] * SCALE))
    rng = np.random.Generator(np.random.PCG64(12345))
    outcomes = {"draw": 0, "win": 0}
    stats: dict = {}
    for seed in range(n):
        dealer = seed % (2 if ruleset != "public" else 4)
        r = Round(ruleset, seed, dealer=dealer)
        play_checked(r, _bots(kind, r.players, seed), rng, deep=seed % 10 == 0, stats=stats)
        outcomes["draw" if r.result.draw else "win"] += 1
        if not r.result.draw:
            res = r.result
            assert res.score.non_flower_total >= r.settings.min_fan
            assert res.total == res.score.total
    if kind == "greedy":
        assert outcomes["win"] > 0
    assert stats.get("hidden swaps", 0) >= n // 10, stats  # the hidden-information check did run


@pytest.mark.parametrize("ruleset", RULESETS)
def test_min_fan_zero_rounds(ruleset):
    """With no minimum the greedy bots win often; every win is still a legal shape."""
    rng = np.random.Generator(np.random.PCG64(7))
    for seed in range(max(5, int(60 * SCALE))):
        r = Round(ruleset, 1000 + seed, min_fan=0)
        play_checked(r, _bots("greedy", r.players, seed), rng, deep=seed % 5 == 0)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_match_round_trip_and_replay(ruleset):
    m = Match(ruleset, seed=3, rounds=4)
    bots = _bots("greedy", m.players, 0)
    while not m.is_over:
        r = m.round
        while not r.is_over:
            s = r.seats_to_act()[0]
            m.step(s, bots[s].act_index(r, s))
            if r.n_steps % 9 == 0:
                j = m.to_json()
                assert Match.from_json(j).to_json() == j
        if not m.is_over:
            m.next_round()
    assert len(m.results) == 4
    j = m.to_json()
    assert Match.from_json(j).to_json() == j
    with pytest.raises(IllegalActionError):
        m.step(0, Pass())


def test_same_seed_same_game():
    for ruleset in RULESETS:
        a = Round(ruleset, 77)
        b = Round(ruleset, 77)
        P = a.players
        ba, bb = _bots("random", P, 5), _bots("random", P, 5)
        while not a.is_over:
            s = a.seats_to_act()[0]
            assert b.seats_to_act()[0] == s
            a.step(s, ba[s].act_index(a, s))
            b.step(s, bb[s].act_index(b, s))
        assert a.to_json() == b.to_json()


def test_wall_is_platform_independent_pcg64():
    """The shuffle is SeedSequence -> PCG64 -> Generator.permutation: pinned values."""
    r = Round("two-player", 1)
    first = r.wall.tiles[:8]
    again = Round("two-player", 1).wall.tiles[:8]
    assert first == again
    ss = np.random.SeedSequence(1)
    g = np.random.Generator(np.random.PCG64(ss))
    assert g.permutation(np.array(r.settings.tile_set())).tolist()[:8] == first
