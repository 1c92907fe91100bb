"""The compiled round engine's building blocks: the discard-evaluation kernel, the wall shuffle and
the random bot's draws against NumPy, state loading, per-seat event streams and bot errors.

The engine as a whole is held against the pure-Python reference in tests/game/test_round_parity.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mahjong_core as mj
from mahjong_core import _hand
from mahjong_core._round import shuffle_tiles
from mahjong_core.errors import (
    ArrayShapeError, HandSizeError, IllegalActionError, MahjongError, StateError, TileCountError,
)
from mahjong_core.game import play_round
from mahjong_core.families.mahjong.api import GreedyBot, RandomBot, Round, flow_settings, redact_event
from mahjong_core.families.mahjong.wall import N_KONG_DICE, shuffle_wall
from mahjong_core.families.mahjong.rulesets import get_ruleset

RULESETS = ("two-player", "two-player-bamboo", "public")


# ---------------------------------------------------------------------------- discard evaluation
def _brute_discard_eval(c: np.ndarray, ruleset: str, discards: int, unseen: list[int]):
    """The definition, with one full shanten call per hand."""
    rs = get_ruleset(ruleset)
    sh = [-9] * 34
    for d in range(34):
        if (discards >> d) & 1:
            h = c.copy()
            h[d] -= 1
            sh[d] = mj.shanten(h, ruleset=ruleset)
    best = min((v for v in sh if v != -9), default=99)
    acc = [-9] * 34
    for d in range(34):
        if not (discards >> d) & 1:
            continue
        if sh[d] != best:
            acc[d] = -1
            continue
        h = c.copy()
        h[d] -= 1
        a = 0
        for k in rs.kinds:
            if h[k] < 4 and unseen[k] > 0:
                h[k] += 1
                if mj.shanten(h, ruleset=ruleset) < best:
                    a += unseen[k]
                h[k] -= 1
        acc[d] = a
    return best, sh, acc


def _random_case(rng: np.random.Generator, ruleset: str, size: int):
    rs = get_ruleset(ruleset)
    wall = np.repeat(np.array(rs.kinds), 4)
    tiles = rng.choice(wall, size=size, replace=False)
    c = np.bincount(tiles, minlength=34).astype(np.uint8)
    held = [k for k in range(34) if c[k]]
    discards = 0
    for k in held:
        if rng.random() < 0.8:
            discards |= 1 << k
    if not discards:
        discards = 1 << held[0]
    unseen = [int(max(-1, 4 - c[k] - rng.integers(0, 3))) for k in range(34)]
    return c, discards, unseen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_discard_eval_equals_brute_force(ruleset):
    rs = get_ruleset(ruleset)
    rng = np.random.default_rng(7)
    for i in range(400):
        size = (14, 11, 8, 5, 2)[i % 5]
        c, discards, unseen = _random_case(rng, ruleset, size)
        got = _hand.discard_eval(c, rs.kind_mask, rs.special_forms, discards, unseen)
        assert got == _brute_discard_eval(c, ruleset, discards, unseen), (c.tolist(), discards)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(0, 2**32 - 1), st.booleans())
def test_discard_eval_near_ready_hands(ruleset, seed, seven_pairs_like):
    """Hands one or two tiles from complete, where ties and improving draws are dense."""
    rs = get_ruleset(ruleset)
    rng = np.random.default_rng(seed)
    kinds = list(rs.kinds)
    c = np.zeros(34, np.uint8)
    if seven_pairs_like:
        for k in rng.choice(kinds, size=7, replace=False):
            c[k] += 2
    else:
        while c.sum() < 12:
            k = int(rng.choice(kinds))
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6 and max(c[k:k + 3]) < 4:
                c[k:k + 3] += 1
            elif c[k] <= 1:
                c[k] += 3
        k = int(rng.choice([x for x in kinds if c[x] <= 2]))
        c[k] += 2
    c = c[:34]
    # swap two tiles for random ones, keeping counts legal
    for _ in range(2):
        out = int(rng.choice(np.flatnonzero(c)))
        c[out] -= 1
        k = int(rng.choice([x for x in kinds if c[x] < 4]))
        c[k] += 1
    discards = 0
    for k in np.flatnonzero(c):
        discards |= 1 << int(k)
    unseen = [int(4 - c[k]) for k in range(34)]
    got = _hand.discard_eval(c, rs.kind_mask, rs.special_forms, discards, unseen)
    assert got == _brute_discard_eval(c, ruleset, discards, unseen)


def test_discard_eval_thirteen_orphans_and_knitted():
    rs = get_ruleset("public")
    cases = ["19m19p19s1234567z5m", "147m258p369s1234z5m", "147m258p369s127z55m"]
    for text in cases:
        c = mj.tiles.to_counts(text)
        discards = 0
        for k in np.flatnonzero(c):
            discards |= 1 << int(k)
        unseen = [int(4 - c[k]) for k in range(34)]
        assert _hand.discard_eval(c, rs.kind_mask, True, discards, unseen) == \
            _brute_discard_eval(c, "public", discards, unseen)


def test_discard_eval_refuses_bad_input():
    rs = get_ruleset("two-player")
    c = mj.tiles.to_counts("123456789m1122z")  # 13 tiles
    with pytest.raises(HandSizeError, match="3k\\+2"):
        _hand.discard_eval(c, rs.kind_mask, False, 1, [4] * 34)
    c = mj.tiles.to_counts("123456789m11223z")
    with pytest.raises(TileCountError, match="not in the hand"):
        _hand.discard_eval(c, rs.kind_mask, False, 1 << 9, [4] * 34)
    with pytest.raises(ArrayShapeError):
        _hand.discard_eval(c, rs.kind_mask, False, 1, [4] * 33)


# ---------------------------------------------------------------------------- NumPy-exact draws
@pytest.mark.parametrize("ruleset", RULESETS)
def test_shuffle_is_numpys_generator_calls(ruleset):
    s = flow_settings(ruleset)
    tiles = s.tile_set()
    for seed in range(300):
        key = (seed % 7,)
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))
        want = (g.permutation(np.array(tiles, np.int64)).tolist(), g.integers(1, 7, size=2).tolist(),
                g.integers(1, 7, size=N_KONG_DICE).tolist())
        bits = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key))
        got = shuffle_tiles(tiles, bits, N_KONG_DICE)
        assert got == want
        assert shuffle_wall(s, seed, key) == want
        # the generator is left exactly where NumPy leaves it
        assert np.random.Generator(bits).integers(1 << 40) == g.integers(1 << 40)


def test_random_bot_draws_like_generator_integers():
    """RandomBot picks legal[rng.integers(len(legal))] with NumPy's algorithm, whatever the
    number of legal actions."""
    for seed in range(40):
        r = Round("public", seed)
        bot = RandomBot(seed)
        twin = np.random.Generator(np.random.PCG64(seed))
        while not r.is_over:
            seat = r.seats_to_act()[0]
            legal = r.legal_indices(seat)
            i = bot.act_index(r, seat)
            assert i == legal[int(twin.integers(len(legal)))]
            r.step(seat, i)
        assert bot.rng.bit_generator.state == twin.bit_generator.state


# ---------------------------------------------------------------------------- bots and play_round
def test_bots_refuse_a_seat_not_to_act():
    r = Round("two-player", 3)
    idle = [s for s in range(2) if s not in r.seats_to_act()][0]
    for bot in (GreedyBot(), RandomBot(1)):
        with pytest.raises(IllegalActionError, match="not to act"):
            bot.act_index(r, idle)
    play_round(r, [GreedyBot(), GreedyBot()])
    with pytest.raises(IllegalActionError, match="not to act"):
        GreedyBot().act_index(r, 0)


def test_play_round_needs_one_bot_per_seat():
    r = Round("public", 1)
    before = r.to_json()
    with pytest.raises(MahjongError, match="4 bots needed, got 2"):
        play_round(r, [GreedyBot(), GreedyBot()])
    assert r.to_json() == before


def test_play_round_fast_path_equals_stepwise_api():
    """Built-in bots run inside the engine; a custom bot forces the step-by-step path.  Both play
    the same game."""

    class Wrapped:
        def __init__(self, inner):
            self.inner = inner

        def act_index(self, rnd, seat):
            return self.inner.act_index(rnd, seat)

    for ruleset in RULESETS:
        for seed in range(15):
            a, b = Round(ruleset, seed), Round(ruleset, seed)
            P = a.players
            play_round(a, [GreedyBot() if s % 2 else RandomBot(seed + s) for s in range(P)])
            play_round(b, [Wrapped(GreedyBot() if s % 2 else RandomBot(seed + s)) for s in range(P)])
            assert a.log == b.log and a.result.to_dict() == b.result.to_dict()


# ---------------------------------------------------------------------------- state loading
def _mid_round(ruleset="two-player", seed=5, steps=9) -> Round:
    r = Round(ruleset, seed)
    bot = GreedyBot()
    for _ in range(steps):
        seat = r.seats_to_act()[0]
        r.step(seat, bot.act_index(r, seat))
    return r


@pytest.mark.parametrize("damage,match", [
    (lambda d: d["hands"][0].__setitem__(0, 5), r"^hands\[0\]\[0\]: 5 differs"),
    (lambda d: d["hands"].pop(), r"^hands: a list of 1 entry"),
    (lambda d: d["melds"][0].extend([[1, 0, 1, 0, 0]] * 5), r"^melds\[0\]: a list of 5 entries"),
    (lambda d: d["discards"][1].append(40), r"^discards\[1\]: a list of \d+ entries"),
    (lambda d: d["flowers"][1].append(3), r"^flowers\[1\]: a list of 1 entry"),
    (lambda d: d.__setitem__("phase", "lunch"), r"^phase: 'lunch' differs"),
    (lambda d: d["wall"].__setitem__("taken", "2" * 72), r"^wall\.taken: '2222"),
    (lambda d: d["wall"]["tiles"].pop(), r"^wall\.tiles: a list of 71 entries"),
    (lambda d: d.__setitem__("dice", [0, 7]), r"^dice\[0\]: 0 differs"),
    (lambda d: d.__setitem__("turn", 9), r"^turn: 9 differs"),
    (lambda d: d["hands"][0].__setitem__(33, min(4, d["hands"][0][33] + 1)), r"^hands\[0\]\[33\]: \d differs"),
    (lambda d: d.pop("claim"), r"^claim: missing"),
    (lambda d: d.__setitem__("log", []), r"^log: an empty log has no header"),
])
def test_from_dict_refuses_a_damaged_state(damage, match):
    r = _mid_round()
    d = json.loads(r.to_json())
    damage(d)
    with pytest.raises(StateError, match=match):
        Round.from_dict(d)


def test_loaded_round_plays_on_identically():
    for ruleset in RULESETS:
        r = _mid_round(ruleset, 11, 15)
        r2 = Round.from_json(r.to_json())
        assert r2.to_json() == r.to_json()
        n = r2.players
        play_round(r, [GreedyBot()] * n)
        play_round(r2, [GreedyBot()] * n)
        assert r.to_json() == r2.to_json()
        assert r.n_discards == r2.n_discards == sum(1 for e in r.log if e["type"] == "discard")


# ---------------------------------------------------------------------------- per-seat streams
@pytest.mark.parametrize("ruleset", RULESETS)
def test_log_for_hides_what_the_seat_may_not_see(ruleset):
    r = Round(ruleset, 21)
    play_round(r, [RandomBot(s) for s in range(r.players)])
    for seat in range(r.players):
        stream = r.log_for(seat)
        assert stream == [x for x in (redact_event(e, seat) for e in r.log) if x is not None]
        header = stream[0]
        assert header["type"] == "header" and "wall" not in header and "seed" not in header
        for e in stream:
            if e["type"] == "draw" and e["seat"] != seat:
                assert "tile" not in e or e["tile"] >= 34  # only flowers are shown at once
            if e["type"] == "deal" and e["seat"] != seat:
                assert "tiles" not in e
            if e["type"] == "action":
                assert e["seat"] == seat or e["action"]["type"] not in ("pass", "pon", "chi")
    with pytest.raises(MahjongError, match="seat must be"):
        r.log_for(r.players)


# ---------------------------------------------------------------------------- copies
def test_pickle_and_deepcopy_keep_the_state():
    import copy
    import pickle

    from mahjong_core.families.mahjong.api import Match

    for ruleset in RULESETS:
        r = _mid_round(ruleset, 4, 12)
        for twin in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
            assert type(twin) is Round and twin.to_json() == r.to_json()
            twin.step(twin.seats_to_act()[0], GreedyBot().act_index(twin, twin.seats_to_act()[0]))
            assert twin.to_json() != r.to_json()  # an independent copy
        done = Round(ruleset, 8)
        play_round(done, [GreedyBot()] * done.players)
        again = pickle.loads(pickle.dumps(done))
        assert again.result.to_dict() == done.result.to_dict() and again.log == done.log
    m = Match("two-player", 3, rounds=3)
    play_round(m.round, [GreedyBot(), GreedyBot()])
    m.next_round()
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.to_json() == m.to_json()


# ---------------------------------------------------------------------------- the core refuses bad input
def test_seat_queries_name_the_bad_seat():
    r = Round("two-player", 1)
    for call in (r.hand, r.hand_counts, r.concealed_size):
        for seat in (-1, 2, 9):
            with pytest.raises(MahjongError, match=f"seat must be 0-1, got {seat}"):
                call(seat)
    for call, seat in ((r.legal_indices, 7), (r.legal_mask, -3), (r.legal_actions, 2)):     # issue 25: one rule
        with pytest.raises(MahjongError, match=f"seat must be 0-1, got {seat}"):
            call(seat)


def test_core_checks_what_it_is_given():
    """The compiled core is private, but even called directly it refuses what would corrupt it."""
    from mahjong_core._round import RoundCore

    r = Round("two-player", 2)
    core = r._core
    before = r.to_json()
    seat = r.seats_to_act()[0]
    illegal = next(i for i in range(110) if i not in r.legal_indices(seat))
    with pytest.raises(IllegalActionError, match="not legal"):
        core.step(seat, illegal)
    with pytest.raises(ValueError, match="bot kind"):
        core.play_out([0, 7], [None, None])
    assert r.to_json() == before
    c = r._c
    s = r.settings
    good = (c.settings_dict, c.code, c.special, c.kind_mask, 0, 27)
    with pytest.raises(ValueError, match="tiles 0-41"):
        RoundCore(*good, [50] * 72, [1, 1], [1] * N_KONG_DICE)
    with pytest.raises(ValueError, match="dice must be values 1-6, got 0"):
        RoundCore(*good, s.tile_set(), [0, 1], [1] * N_KONG_DICE)
    with pytest.raises(ValueError, match="dealer"):
        RoundCore(c.settings_dict, c.code, c.special, c.kind_mask, 5, 27, s.tile_set(), [1, 1], [1] * N_KONG_DICE)
